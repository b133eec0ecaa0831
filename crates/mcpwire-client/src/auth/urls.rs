//! The URLs of discovery: the well-known URIs of RFC 9728 and RFC 8414 and OpenID Connect
//! discovery, the comparison of a resource with the endpoint, and a query added to a URL.

use hyper::Uri;

use super::AuthError;

/// The parts of an `http://` or `https://` URL that discovery compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parts {
    /// `scheme://host[:port]`, lower-case, the default port left out.
    pub(crate) origin: String,
    /// The path, without a trailing `/` (empty for the root).
    pub(crate) path: String,
    /// Whether the URL has a query.
    pub(crate) query: bool,
}

/// The parts of `url`; a URL that is not absolute `http(s)://` is an error.
pub(crate) fn parts(url: &str) -> Result<Parts, AuthError> {
    if url.contains('#') {
        return Err(AuthError::Discovery(format!("`{url}` has a fragment")));
    }
    let uri: Uri = url
        .parse()
        .map_err(|error| AuthError::Discovery(format!("`{url}` is not a URL: {error}")))?;
    let scheme = uri.scheme_str().map(str::to_ascii_lowercase);
    let default = match scheme.as_deref() {
        Some("https") => 443,
        Some("http") => 80,
        _ => {
            return Err(AuthError::Discovery(format!(
                "`{url}` is not an http:// or https:// URL"
            )));
        }
    };
    let host = uri
        .host()
        .ok_or_else(|| AuthError::Discovery(format!("`{url}` has no host")))?
        .to_ascii_lowercase();
    let port = uri.port_u16().filter(|&port| port != default);
    let origin = match port {
        Some(port) => format!("{}://{host}:{port}", scheme.unwrap_or_default()),
        None => format!("{}://{host}", scheme.unwrap_or_default()),
    };
    Ok(Parts {
        origin,
        path: uri.path().trim_end_matches('/').to_owned(),
        query: uri.query().is_some(),
    })
}

/// Whether `resource` (a Protected Resource Metadata's) identifies the server at
/// `endpoint`: the same origin, and a path that is the endpoint's or a prefix of it on a
/// segment boundary (so `https://h` and `https://h/mcp` both identify `https://h/mcp`, but
/// `https://h/other` and `https://h/mc` do not).
pub(crate) fn resource_matches(endpoint: &str, resource: &str) -> bool {
    let (Ok(endpoint), Ok(resource)) = (parts(endpoint), parts(resource)) else {
        return false;
    };
    endpoint.origin == resource.origin
        && !resource.query
        && (endpoint.path == resource.path
            || endpoint
                .path
                .strip_prefix(&resource.path)
                .is_some_and(|rest| rest.starts_with('/')))
}

/// The Protected Resource Metadata URLs of `endpoint` to try after the challenge's:
/// path-suffixed, then root (RFC 9728 §3.1).
pub(crate) fn resource_metadata_urls(endpoint: &str) -> Result<Vec<String>, AuthError> {
    let parts = parts(endpoint)?;
    let root = format!("{}/.well-known/oauth-protected-resource", parts.origin);
    let mut urls = Vec::new();
    if !parts.path.is_empty() {
        urls.push(format!("{root}{}", parts.path));
    }
    urls.push(root);
    Ok(urls)
}

/// The authorization server metadata URLs of `issuer`, in the order of the MCP
/// specification (2025-11-25): RFC 8414 path-inserted, OpenID Connect discovery
/// path-inserted, OpenID Connect discovery path-appended; for an issuer without a path,
/// RFC 8414 then OpenID Connect discovery.
pub(crate) fn server_metadata_urls(issuer: &str) -> Result<Vec<String>, AuthError> {
    let parts = parts(issuer)?;
    if parts.query {
        return Err(AuthError::Discovery(format!(
            "the issuer `{issuer}` has a query (RFC 8414 §2)"
        )));
    }
    let (origin, path) = (&parts.origin, &parts.path);
    Ok(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// `url` with `params` form-encoded into its query (after the query it has).
pub(crate) fn with_query(url: &str, params: &[(&str, &str)]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in params {
        query.append_pair(name, value);
    }
    let query = query.finish();
    let separator = match url.find('?') {
        None => "?",
        Some(at) if at + 1 == url.len() || url.ends_with('&') => "",
        Some(_) => "&",
    };
    format!("{url}{separator}{query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_match_by_origin_and_path_prefix() {
        let endpoint = "https://MCP.example.com:443/mcp";
        for yes in [
            "https://mcp.example.com/mcp",
            "https://mcp.example.com",
            "https://mcp.example.com/",
            "https://mcp.example.com/mcp/",
        ] {
            assert!(resource_matches(endpoint, yes), "{yes}");
        }
        for no in [
            "https://mcp.example.com/other",
            "https://mcp.example.com/mc",
            "https://mcp.example.com/mcp/deeper",
            "http://mcp.example.com/mcp",
            "https://mcp.example.com:8443/mcp",
            "https://evil.example.com/mcp",
            "https://mcp.example.com/mcp#x",
            "not a url",
        ] {
            assert!(!resource_matches(endpoint, no), "{no}");
        }
    }

    #[test]
    fn well_known_urls_follow_the_specified_order() {
        assert_eq!(
            resource_metadata_urls("https://h.example/public/mcp").expect("a URL"),
            [
                "https://h.example/.well-known/oauth-protected-resource/public/mcp",
                "https://h.example/.well-known/oauth-protected-resource",
            ]
        );
        assert_eq!(
            resource_metadata_urls("http://127.0.0.1:8080/").expect("a URL"),
            ["http://127.0.0.1:8080/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            server_metadata_urls("https://auth.example.com/tenant1").expect("a URL"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            server_metadata_urls("https://auth.example.com").expect("a URL"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
    }

    #[test]
    fn queries_are_appended_encoded() {
        assert_eq!(
            with_query("https://a/authorize", &[("scope", "a b"), ("x", "&=")]),
            "https://a/authorize?scope=a+b&x=%26%3D"
        );
        assert_eq!(
            with_query("https://a/authorize?tenant=1", &[("k", "v")]),
            "https://a/authorize?tenant=1&k=v"
        );
    }
}
