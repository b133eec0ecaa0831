//! The `WWW-Authenticate: Bearer …` challenges of a refusal (RFC 6750 §3, with the
//! `resource_metadata` parameter of RFC 9728 §5.1 that MCP clients discover the
//! authorization server from).

use hyper::{Response, StatusCode, header};
use mcpwire::http::Bytes;

/// Why a request is refused, and so which status and `error` its challenge carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No bearer token at all (no `Authorization` header, another scheme, or a token only in
    /// the query string): 401 without an `error` (RFC 6750 §3.1).
    NoToken,
    /// A bearer token that is not valid here: 401 `invalid_token`.
    InvalidToken,
    /// A malformed request (two `Authorization` headers, a token sent two ways): 400
    /// `invalid_request`.
    InvalidRequest,
    /// A valid token without every scope the request needs: 403 `insufficient_scope`.
    InsufficientScope,
}

/// The challenge for `refusal`: `resource_metadata` always, `scope` (every scope the request
/// needs, space-separated) when there is any, `error` and `error_description` when the
/// refusal has a code.
pub(crate) fn challenge(refusal: Refusal, metadata_url: &str, scopes: &[String]) -> String {
    let mut text = format!("Bearer resource_metadata=\"{metadata_url}\"");
    if !scopes.is_empty() {
        text.push_str(&format!(", scope=\"{}\"", scopes.join(" ")));
    }
    let error = match refusal {
        Refusal::NoToken => None,
        Refusal::InvalidToken => Some((
            "invalid_token",
            "the access token is malformed, expired, revoked or not issued for this resource",
        )),
        Refusal::InvalidRequest => Some((
            "invalid_request",
            "send the access token once, in the Authorization header",
        )),
        Refusal::InsufficientScope => Some((
            "insufficient_scope",
            "the access token lacks a scope this request needs",
        )),
    };
    if let Some((code, description)) = error {
        text.push_str(&format!(
            ", error=\"{code}\", error_description=\"{description}\""
        ));
    }
    text
}

/// The response refusing a request: the status of `refusal`, its challenge, no body.
pub(crate) fn refuse(refusal: Refusal, metadata_url: &str, scopes: &[String]) -> Response<Bytes> {
    let status = match refusal {
        Refusal::NoToken | Refusal::InvalidToken => StatusCode::UNAUTHORIZED,
        Refusal::InvalidRequest => StatusCode::BAD_REQUEST,
        Refusal::InsufficientScope => StatusCode::FORBIDDEN,
    };
    let mut response = Response::new(Bytes::new());
    *response.status_mut() = status;
    if let Ok(value) = challenge(refusal, metadata_url, scopes).parse() {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_spells_its_challenge() {
        let url = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
        let scopes = ["read".to_owned(), "write".to_owned()];
        assert_eq!(
            challenge(Refusal::NoToken, url, &scopes),
            format!("Bearer resource_metadata=\"{url}\", scope=\"read write\"")
        );
        assert!(challenge(Refusal::InvalidToken, url, &[]).contains("error=\"invalid_token\""));
        assert!(!challenge(Refusal::InvalidToken, url, &[]).contains("scope="));
        let insufficient = challenge(Refusal::InsufficientScope, url, &scopes);
        assert!(insufficient.contains("error=\"insufficient_scope\""));
        assert!(insufficient.contains("scope=\"read write\""));
    }
}
