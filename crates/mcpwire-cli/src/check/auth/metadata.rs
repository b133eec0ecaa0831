//! The Protected Resource Metadata (RFC 9728) of the endpoint: where it is looked for and what
//! its JSON must say.

use hyper::Uri;
use serde_json::Value;

/// Where a metadata document was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The URL of the challenge's `resource_metadata`.
    Challenge,
    /// `/.well-known/oauth-protected-resource` followed by the endpoint's path.
    PathSuffixed,
    /// `/.well-known/oauth-protected-resource` at the root.
    Root,
}

impl Source {
    /// How the report names it.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Challenge => "the challenge's resource_metadata",
            Source::PathSuffixed => "the path-suffixed well-known URI",
            Source::Root => "the root well-known URI",
        }
    }
}

/// The well-known metadata URLs of `endpoint`: the path-suffixed one (absent for an endpoint
/// at `/`), then the root one.
///
/// ```
/// use mcpwire_cli::check::auth::metadata::{Source, well_known};
/// let urls = well_known(&"https://h:8443/api/mcp?x=1".parse().unwrap());
/// assert_eq!(urls[0], (Source::PathSuffixed, "https://h:8443/.well-known/oauth-protected-resource/api/mcp".to_owned()));
/// assert_eq!(urls[1], (Source::Root, "https://h:8443/.well-known/oauth-protected-resource".to_owned()));
/// ```
pub fn well_known(endpoint: &Uri) -> Vec<(Source, String)> {
    let origin = origin(endpoint);
    let mut out = Vec::new();
    let path = endpoint.path().trim_end_matches('/');
    if !path.is_empty() {
        out.push((
            Source::PathSuffixed,
            format!("{origin}/.well-known/oauth-protected-resource{path}"),
        ));
    }
    out.push((
        Source::Root,
        format!("{origin}/.well-known/oauth-protected-resource"),
    ));
    out
}

/// `scheme://authority` of a URL.
pub fn origin(url: &Uri) -> String {
    format!(
        "{}://{}",
        url.scheme_str().unwrap_or("http"),
        url.authority().map_or("", |a| a.as_str())
    )
}

/// The endpoint's URL without its query, as a resource identifier is written.
pub fn resource_of(endpoint: &Uri) -> String {
    format!("{}{}", origin(endpoint), endpoint.path())
}

/// Whether `host` is loopback: `localhost`, `127.0.0.0/8` or `[::1]`.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether `url` is a plain `http://` URL on a host that is not loopback.
pub fn plain_http_remote(url: &str) -> bool {
    url.parse::<Uri>().is_ok_and(|uri| {
        uri.scheme_str() == Some("http") && uri.host().is_some_and(|h| !is_loopback(h))
    })
}

/// Whether `text` is an absolute `http://` or `https://` URL with a host.
pub fn is_absolute_url(text: &str) -> bool {
    text.parse::<Uri>()
        .is_ok_and(|uri| matches!(uri.scheme_str(), Some("http" | "https")) && uri.host().is_some())
}

/// A problem with a metadata document: its finding kind and what is wrong.
pub type Problem = (&'static str, String);

/// What is wrong with the document `doc`, found at `source`, for the endpoint `endpoint`.
pub fn judge(doc: &Value, source: Source, endpoint: &Uri) -> Vec<Problem> {
    let mut problems = Vec::new();
    let own = resource_of(endpoint);
    let same = |a: &str, b: &str| a.trim_end_matches('/') == b.trim_end_matches('/');
    match doc.get("resource").and_then(Value::as_str) {
        None => problems.push((
            "auth-prm-resource-mismatch",
            "the document has no resource (RFC 9728 §2: REQUIRED)".to_owned(),
        )),
        Some(resource) => {
            let fits = match source {
                Source::Challenge | Source::PathSuffixed => same(resource, &own),
                Source::Root => {
                    let origin = origin(endpoint);
                    same(resource, &origin)
                        || (own.starts_with(resource) && resource.starts_with(&origin))
                }
            };
            if !fits {
                problems.push((
                    "auth-prm-resource-mismatch",
                    format!(
                        "resource is {resource:?}, not the endpoint {own:?}{}",
                        if source == Source::Root {
                            " or a same-origin prefix of it"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
    }
    let servers: Vec<&str> = doc
        .get("authorization_servers")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if servers.is_empty() {
        problems.push((
            "auth-prm-no-authorization-servers",
            "authorization_servers is missing or lists no authorization server".to_owned(),
        ));
    }
    for server in servers.iter().filter(|s| plain_http_remote(s)) {
        problems.push((
            "auth-authorization-server-plain-http",
            format!("the authorization server {server} is plain http:// and not on loopback"),
        ));
    }
    let listed = |member: &str| -> Vec<&str> {
        doc.get(member)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    };
    if listed("scopes_supported").contains(&"offline_access") {
        problems.push((
            "auth-prm-offline-access",
            "scopes_supported advertises offline_access".to_owned(),
        ));
    }
    let other: Vec<&str> = listed("bearer_methods_supported")
        .into_iter()
        .filter(|m| *m != "header")
        .collect();
    if !other.is_empty() {
        problems.push((
            "auth-prm-bearer-methods",
            format!("bearer_methods_supported advertises {other:?} besides \"header\""),
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(doc: Value, source: Source) -> Vec<&'static str> {
        let endpoint: Uri = "https://h.example/mcp".parse().unwrap();
        judge(&doc, source, &endpoint)
            .into_iter()
            .map(|(k, _)| k)
            .collect()
    }

    #[test]
    fn plain_http_is_a_finding_off_loopback_only() {
        assert!(plain_http_remote("http://mcp.example.com/mcp"));
        for url in [
            "http://127.0.0.1:8080/mcp",
            "http://localhost/mcp",
            "http://[::1]:9/mcp",
            "https://mcp.example.com/mcp",
        ] {
            assert!(!plain_http_remote(url), "{url}");
        }
    }

    #[test]
    fn a_good_document_has_no_problem_and_each_defect_one() {
        let good = json!({"resource": "https://h.example/mcp", "authorization_servers": ["https://as.example"], "scopes_supported": ["mcp"], "bearer_methods_supported": ["header"]});
        assert!(kinds(good.clone(), Source::PathSuffixed).is_empty());
        let mut root = good.clone();
        root["resource"] = json!("https://h.example");
        assert!(kinds(root.clone(), Source::Root).is_empty());
        assert_eq!(
            kinds(root, Source::Challenge),
            ["auth-prm-resource-mismatch"]
        );
        let mut bad = good.clone();
        bad["authorization_servers"] = json!([]);
        assert_eq!(
            kinds(bad, Source::Root),
            ["auth-prm-no-authorization-servers"]
        );
        let mut bad = good.clone();
        bad["authorization_servers"] = json!(["http://as.example", "http://127.0.0.1:9"]);
        assert_eq!(
            kinds(bad, Source::Root),
            ["auth-authorization-server-plain-http"]
        );
        let mut bad = good;
        bad["scopes_supported"] = json!(["offline_access"]);
        bad["bearer_methods_supported"] = json!(["header", "query"]);
        assert_eq!(
            kinds(bad, Source::Challenge),
            ["auth-prm-offline-access", "auth-prm-bearer-methods"]
        );
    }
}
