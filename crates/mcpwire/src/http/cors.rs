//! CORS for the allowed origins only: a browser page on an allowed origin may call the endpoint
//! and read the session header; every other origin was refused with 403 before this point.

use hyper::StatusCode;
use hyper::header::{
    ACCESS_CONTROL_ALLOW_HEADERS, ACCESS_CONTROL_ALLOW_METHODS, ACCESS_CONTROL_ALLOW_ORIGIN,
    ACCESS_CONTROL_EXPOSE_HEADERS, ACCESS_CONTROL_MAX_AGE, HeaderValue, VARY,
};

use super::response::{HttpResponse, empty};

/// The request headers a page may send.
const ALLOWED_HEADERS: &str = "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";

/// The response headers a page may read (the challenge of a protected endpoint too).
const EXPOSED_HEADERS: &str = "Mcp-Session-Id, WWW-Authenticate";

/// Marks `response` as readable by the (already allowed) `origin`.
pub(crate) fn allow_origin(response: &mut HttpResponse, origin: &HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    headers.insert(
        ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSED_HEADERS),
    );
    headers.insert(VARY, HeaderValue::from_static("Origin"));
}

/// The answer to a preflight (`OPTIONS`) from an allowed origin: the methods the endpoint
/// serves and the headers the transport uses.
pub(crate) fn preflight(methods: &'static str) -> HttpResponse {
    let mut response = empty(StatusCode::NO_CONTENT);
    let headers = response.headers_mut();
    headers.insert(
        ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(methods),
    );
    headers.insert(
        ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(ALLOWED_HEADERS),
    );
    headers.insert(ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    response
}
