//! The `WWW-Authenticate: Bearer` challenge of a `401` or `403` (RFC 6750 §3, RFC 9728 §5.1):
//! its `resource_metadata`, `scope` and `error` parameters.

use hyper::header::{HeaderMap, WWW_AUTHENTICATE};

/// What a server's Bearer challenge says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Challenge {
    /// The URL of the Protected Resource Metadata (RFC 9728 §5.1).
    pub(crate) resource_metadata: Option<String>,
    /// The scopes the request needs.
    pub(crate) scope: Option<String>,
    /// The error code (`invalid_token`, `insufficient_scope`).
    pub(crate) error: Option<String>,
}

impl Challenge {
    /// The Bearer challenge among the `WWW-Authenticate` headers (the first, when several
    /// name Bearer); an empty one when there is none.
    pub(crate) fn of(headers: &HeaderMap) -> Self {
        let mut found = Self::default();
        for value in headers.get_all(WWW_AUTHENTICATE) {
            let Ok(text) = value.to_str() else { continue };
            for (scheme, params) in parse(text) {
                if !scheme.eq_ignore_ascii_case("bearer") {
                    continue;
                }
                for (name, value) in params {
                    let slot = match name.to_ascii_lowercase().as_str() {
                        "resource_metadata" => &mut found.resource_metadata,
                        "scope" => &mut found.scope,
                        "error" => &mut found.error,
                        _ => continue,
                    };
                    slot.get_or_insert(value);
                }
                return found;
            }
        }
        found
    }

    /// Whether the challenge says the token lacks scopes.
    pub(crate) fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// The challenges of one header value (RFC 9110 §11.6.1): each scheme and its auth-params
/// (a token68 is skipped).
fn parse(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let bytes = text.as_bytes();
    let mut challenges: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut i = 0;
    let skip = |i: &mut usize, also_commas: bool| {
        while *i < bytes.len()
            && (bytes[*i] == b' ' || bytes[*i] == b'\t' || (also_commas && bytes[*i] == b','))
        {
            *i += 1;
        }
    };
    loop {
        skip(&mut i, true);
        if i >= bytes.len() {
            return challenges;
        }
        let start = i;
        while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b',' | b'=') {
            i += 1;
        }
        let token = &text[start..i];
        let mut after = i;
        skip(&mut after, false);
        let is_param = after < bytes.len()
            && bytes[after] == b'='
            && !challenges.is_empty()
            && !token.is_empty();
        if !is_param {
            if token.is_empty() {
                // A stray `=` (the padding of a token68).
                i += 1;
            } else {
                challenges.push((token.to_owned(), Vec::new()));
            }
            continue;
        }
        i = after + 1;
        skip(&mut i, false);
        let value = if i < bytes.len() && bytes[i] == b'"' {
            i += 1;
            let mut value = String::new();
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' && i + 1 < bytes.len() {
                    i += 1;
                }
                let c = text[i..].chars().next().unwrap_or(' ');
                value.push(c);
                i += c.len_utf8();
            }
            i += 1;
            value
        } else {
            let start = i;
            while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b',') {
                i += 1;
            }
            text[start..i].to_owned()
        };
        if let Some((_, params)) = challenges.last_mut() {
            params.push((token.to_owned(), value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn of(values: &[&str]) -> Challenge {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(
                WWW_AUTHENTICATE,
                HeaderValue::from_str(value).expect("a value"),
            );
        }
        Challenge::of(&headers)
    }

    #[test]
    fn bearer_parameters_are_read_quoted_or_not() {
        let challenge = of(&[
            r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write""#,
        ]);
        assert_eq!(
            challenge.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(challenge.scope.as_deref(), Some("files:read files:write"));
        let step_up = of(&[r#"bearer error=insufficient_scope, scope="a \"b\"""#]);
        assert!(step_up.insufficient_scope());
        assert_eq!(step_up.scope.as_deref(), Some(r#"a "b""#));
    }

    #[test]
    fn the_bearer_challenge_is_found_among_others() {
        let challenge = of(&[
            "Basic realm=\"x\", Negotiate abc==, Bearer scope=mcp",
            "Bearer scope=second",
        ]);
        assert_eq!(challenge.scope.as_deref(), Some("mcp"));
        assert_eq!(of(&["Basic realm=x"]), Challenge::default());
        assert_eq!(of(&[]), Challenge::default());
    }
}
