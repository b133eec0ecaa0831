//! The HTTP requests the client sends to the endpoint and the headers each carries: the POST
//! of a frame (with the standard headers of MCP 2026-07-28 when the frame is sent under a
//! stateless version), the GET of the server's stream (resuming after `Last-Event-ID`), and
//! the DELETE that ends a session.

use hyper::header::{ACCEPT, CONTENT_TYPE, HeaderName, HeaderValue};
use hyper::{Method, Request};
use mcpwire::http::{
    METHOD_HEADER, NAME_HEADER, PARAM_HEADER_PREFIX, PROTOCOL_VERSION_HEADER, SESSION_HEADER,
    encode_header_value,
};

use super::pool::{Body, Endpoint};
use crate::transport::{OutgoingFrame, TransportError};
use mcpwire_model::Version;

/// The header that resumes an SSE stream.
pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// What every request of one connection carries besides its own headers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Common {
    /// `Mcp-Session-Id`, once the server issued one.
    pub(crate) session: Option<String>,
    /// `MCP-Protocol-Version` for requests that carry no frame (GET, DELETE): the version
    /// of the last frame sent.
    pub(crate) version: Option<&'static str>,
    /// Headers the application added (such as `Authorization`).
    pub(crate) extra: Vec<(HeaderName, HeaderValue)>,
}

fn start(method: Method, endpoint: &Endpoint, common: &Common) -> hyper::http::request::Builder {
    let mut builder = Request::builder().method(method).uri(endpoint.uri.clone());
    for (name, value) in &common.extra {
        builder = builder.header(name, value);
    }
    if let Some(session) = &common.session {
        builder = builder.header(SESSION_HEADER, session.as_str());
    }
    builder
}

fn finish(
    builder: hyper::http::request::Builder,
    body: Body,
) -> Result<Request<Body>, TransportError> {
    builder
        .body(body)
        .map_err(|error| TransportError::Http(format!("cannot build the request: {error}")))
}

/// The POST of one frame.
pub(crate) fn post(
    endpoint: &Endpoint,
    common: &Common,
    frame: &OutgoingFrame,
) -> Result<Request<Body>, TransportError> {
    let mut builder = start(Method::POST, endpoint, common)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream");
    if let Some(version) = frame.protocol_version {
        builder = builder.header(PROTOCOL_VERSION_HEADER, version);
        if Version::parse(version).is_some_and(Version::is_stateless) {
            for (name, value) in standard_headers(frame)? {
                builder = builder.header(name, value);
            }
        }
    }
    finish(builder, Body::from(frame.bytes.clone()))
}

/// `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers of a frame (MCP 2026-07-28), each
/// value spelled as [`encode_header_value`] spells it.
fn standard_headers(
    frame: &OutgoingFrame,
) -> Result<Vec<(HeaderName, HeaderValue)>, TransportError> {
    let value = |text: &str| {
        HeaderValue::from_str(&encode_header_value(text))
            .map_err(|error| TransportError::Http(format!("header value {text:?}: {error}")))
    };
    let mut headers = Vec::new();
    if let Some(method) = &frame.method {
        headers.push((HeaderName::from_static(METHOD_HEADER), value(method)?));
    }
    if let Some(name) = &frame.name {
        headers.push((HeaderName::from_static(NAME_HEADER), value(name)?));
    }
    for (suffix, text) in &frame.param_headers {
        let name = HeaderName::from_bytes(format!("{PARAM_HEADER_PREFIX}{suffix}").as_bytes())
            .map_err(|error| {
                TransportError::Http(format!("header name Mcp-Param-{suffix}: {error}"))
            })?;
        headers.push((name, value(text)?));
    }
    Ok(headers)
}

/// The GET that opens the server's stream, or resumes one after the event `last_event_id`.
pub(crate) fn get(
    endpoint: &Endpoint,
    common: &Common,
    last_event_id: Option<&str>,
) -> Result<Request<Body>, TransportError> {
    let mut builder = start(Method::GET, endpoint, common).header(ACCEPT, "text/event-stream");
    if let Some(version) = common.version {
        builder = builder.header(PROTOCOL_VERSION_HEADER, version);
    }
    if let Some(last) = last_event_id {
        builder = builder.header(LAST_EVENT_ID, last);
    }
    finish(builder, Body::default())
}

/// The DELETE that ends the session.
pub(crate) fn delete(
    endpoint: &Endpoint,
    common: &Common,
) -> Result<Request<Body>, TransportError> {
    let mut builder = start(Method::DELETE, endpoint, common);
    if let Some(version) = common.version {
        builder = builder.header(PROTOCOL_VERSION_HEADER, version);
    }
    finish(builder, Body::default())
}
