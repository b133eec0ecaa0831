//! Reading a `WWW-Authenticate` header (RFC 9110 §11.6.1): the `Bearer` challenge among the
//! challenges it holds, and its parameters (RFC 6750 §3, RFC 9728 §5.1).

use std::collections::BTreeMap;

/// The `Bearer` challenge of a response: its parameters, names in lower case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bearer {
    /// Every parameter (`resource_metadata`, `scope`, `error`, …), the last one of a name
    /// given twice.
    pub params: BTreeMap<String, String>,
}

impl Bearer {
    /// The parameter `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// The scopes of `scope` (space-separated).
    pub fn scopes(&self) -> Vec<&str> {
        self.get("scope")
            .map(|s| s.split_ascii_whitespace().collect())
            .unwrap_or_default()
    }
}

/// The first `Bearer` challenge of the `WWW-Authenticate` headers `headers`, if any.
///
/// ```
/// use mcpwire_cli::check::auth::challenge::bearer;
/// let header = r#"Basic realm="x", Bearer resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", scope="a b", error=invalid_token"#;
/// let challenge = bearer(&[header.to_owned()]).expect("a Bearer challenge");
/// assert_eq!(challenge.get("error"), Some("invalid_token"));
/// assert_eq!(challenge.scopes(), ["a", "b"]);
/// assert!(bearer(&["Basic realm=\"x\"".to_owned()]).is_none());
/// ```
pub fn bearer(headers: &[String]) -> Option<Bearer> {
    headers.iter().find_map(|header| bearer_in(header))
}

/// One lexical item of a challenge list.
#[derive(Debug, PartialEq, Eq)]
enum Item {
    /// A token (a scheme, or a parameter's name or bare value).
    Token(String),
    /// A quoted string, unescaped.
    Quoted(String),
    Equals,
    Comma,
}

fn items(text: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' => {
                chars.next();
            }
            '=' => {
                chars.next();
                out.push(Item::Equals);
            }
            ',' => {
                chars.next();
                out.push(Item::Comma);
            }
            '"' => {
                chars.next();
                let mut value = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => value.extend(chars.next()),
                        c => value.push(c),
                    }
                }
                out.push(Item::Quoted(value));
            }
            _ => {
                let mut token = String::new();
                while let Some(&c) = chars.peek() {
                    if matches!(c, ' ' | '\t' | '=' | ',' | '"') {
                        break;
                    }
                    token.push(c);
                    chars.next();
                }
                // token68 values end in '=' padding: keep them with the token.
                while chars.peek() == Some(&'=') && token_follows_padding(&chars) {
                    token.push('=');
                    chars.next();
                }
                out.push(Item::Token(token));
            }
        }
    }
    out
}

/// Whether the `=` at the front of `chars` is padding (nothing but `=`, space or a comma or
/// the end follow it) rather than a parameter's `=` (a value follows it).
fn token_follows_padding(chars: &std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    let rest: String = chars.clone().collect();
    rest.trim_start_matches('=')
        .trim_start()
        .chars()
        .next()
        .is_none_or(|c| c == ',')
}

fn bearer_in(header: &str) -> Option<Bearer> {
    let items = items(header);
    let mut i = 0;
    while i < items.len() {
        let Item::Token(word) = &items[i] else {
            i += 1;
            continue;
        };
        // A scheme is a token not followed by `=`.
        if items.get(i + 1) == Some(&Item::Equals) {
            i += 1;
            continue;
        }
        let is_bearer = word.eq_ignore_ascii_case("bearer");
        let mut params = BTreeMap::new();
        let mut j = i + 1;
        loop {
            match (items.get(j), items.get(j + 1), items.get(j + 2)) {
                (Some(Item::Comma), _, _) => j += 1,
                (Some(Item::Token(name)), Some(Item::Equals), Some(Item::Token(value)))
                | (Some(Item::Token(name)), Some(Item::Equals), Some(Item::Quoted(value))) => {
                    params.insert(name.to_ascii_lowercase(), value.clone());
                    j += 3;
                }
                _ => break,
            }
        }
        if is_bearer {
            return Some(Bearer { params });
        }
        i = j.max(i + 1);
    }
    None
}
