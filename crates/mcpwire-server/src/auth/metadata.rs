//! The Protected Resource Metadata document (RFC 9728) and the well-known URIs it is served
//! at.

use serde_json::json;

/// The well-known path segment of RFC 9728 §3.
pub(crate) const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// The scope no protected resource advertises: refresh tokens are the authorization
/// server's business, not a resource's (MCP 2025-11-25, scope selection).
pub(crate) const OFFLINE_ACCESS: &str = "offline_access";

/// Where the metadata of the resource at `origin` + `path` is served: the path-suffixed URI
/// (RFC 9728 §3.1: the well-known segment inserted between the host and the path) and the
/// root one, which clients that drop the path try.
pub(crate) fn paths(path: &str) -> (String, String) {
    let path = path.trim_end_matches('/');
    (format!("{WELL_KNOWN}{path}"), WELL_KNOWN.to_owned())
}

/// The document: `resource`, `authorization_servers`, `scopes_supported` and
/// `bearer_methods_supported: ["header"]` (the only way a token is accepted here).
pub(crate) fn document(
    resource: &str,
    authorization_servers: &[String],
    scopes: &[String],
) -> serde_json::Value {
    json!({
        "resource": resource,
        "authorization_servers": authorization_servers,
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_suffixed_uri_inserts_the_well_known_segment_before_the_path() {
        assert_eq!(
            paths("/mcp"),
            (
                "/.well-known/oauth-protected-resource/mcp".to_owned(),
                WELL_KNOWN.to_owned()
            )
        );
        assert_eq!(paths("/").0, WELL_KNOWN);
    }
}
