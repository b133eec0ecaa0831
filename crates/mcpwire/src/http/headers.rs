//! Reading the request headers the transport defines: `Content-Type`, `Accept`,
//! `MCP-Protocol-Version`, `Mcp-Session-Id`, `Host` and `Origin`.

use hyper::header::{HeaderMap, HeaderValue};

use super::session_id::SessionId;

/// The session header (`Mcp-Session-Id`; header names are case-insensitive).
pub const SESSION_HEADER: &str = "mcp-session-id";

/// The protocol version header (MCP 2025-06-18 and later).
pub const PROTOCOL_VERSION_HEADER: &str = "mcp-protocol-version";

/// The method header of MCP 2026-07-28.
pub const METHOD_HEADER: &str = "mcp-method";

/// The transport's header names as the endpoint looks them up: parsed once here, where a
/// `&str` key would be parsed again at every lookup of every request.
pub(crate) mod names {
    use hyper::header::HeaderName;

    /// [`SESSION_HEADER`](super::SESSION_HEADER).
    pub(crate) static SESSION: HeaderName = HeaderName::from_static(super::SESSION_HEADER);
    /// [`PROTOCOL_VERSION_HEADER`](super::PROTOCOL_VERSION_HEADER).
    pub(crate) static PROTOCOL_VERSION: HeaderName =
        HeaderName::from_static(super::PROTOCOL_VERSION_HEADER);
    /// [`METHOD_HEADER`](super::METHOD_HEADER).
    pub(crate) static METHOD: HeaderName = HeaderName::from_static(super::METHOD_HEADER);
    /// [`NAME_HEADER`](crate::http::routing::NAME_HEADER).
    pub(crate) static NAME: HeaderName = HeaderName::from_static(crate::http::routing::NAME_HEADER);
}

/// Whether a header's media type (before any `;` parameter) is `expected`.
pub(crate) fn media_type_is(value: Option<&HeaderValue>, expected: &str) -> bool {
    value
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(expected))
}

/// Whether an `Accept` header admits `media` (`type/subtype`); an absent header admits
/// anything, a range with `q=0` admits nothing.
pub(crate) fn accepts(value: Option<&HeaderValue>, media: &str) -> bool {
    let Some(value) = value else { return true };
    let Ok(value) = value.to_str() else {
        return false;
    };
    let (kind, _) = media.split_once('/').unwrap_or((media, ""));
    // `kind/*`, compared without building it.
    let is_kind_wildcard = |name: &str| {
        name.strip_suffix("/*")
            .is_some_and(|name_kind| name_kind.eq_ignore_ascii_case(kind))
    };
    value.split(',').any(|range| {
        let mut parts = range.split(';');
        let name = parts.next().unwrap_or("").trim();
        let refused = parts.any(|p| {
            p.trim()
                .strip_prefix("q=")
                .is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0))
        });
        !refused && (name.eq_ignore_ascii_case(media) || name == "*/*" || is_kind_wildcard(name))
    })
}

/// What the `Mcp-Session-Id` header says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SessionHeader {
    /// No header.
    Absent,
    /// A value that cannot be one of this server's ids (it names no session).
    Foreign,
    /// A value shaped like a session id.
    Id(SessionId),
}

pub(crate) fn session(headers: &HeaderMap) -> SessionHeader {
    match headers.get(&names::SESSION) {
        None => SessionHeader::Absent,
        Some(value) => match value.to_str().ok().and_then(SessionId::parse) {
            Some(id) => SessionHeader::Id(id),
            None => SessionHeader::Foreign,
        },
    }
}

/// Checks `MCP-Protocol-Version`: absent is allowed (the transport says to assume
/// 2025-03-26), a value outside `supported` is an error message for a 400.
pub(crate) fn check_protocol_version(
    headers: &HeaderMap,
    supported: &[String],
) -> Result<(), String> {
    let Some(value) = headers.get(&names::PROTOCOL_VERSION) else {
        return Ok(());
    };
    let text = value.to_str().unwrap_or("");
    if supported.iter().any(|v| v == text) {
        return Ok(());
    }
    Err(format!(
        "unsupported MCP-Protocol-Version {text:?}; supported: {}",
        supported.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &'static str) -> HeaderValue {
        HeaderValue::from_static(text)
    }

    #[test]
    fn accept_ranges() {
        let both = v("application/json, text/event-stream");
        assert!(accepts(Some(&both), "application/json"));
        assert!(accepts(Some(&both), "text/event-stream"));
        assert!(accepts(None, "text/event-stream"));
        assert!(accepts(Some(&v("*/*")), "application/json"));
        assert!(accepts(Some(&v("text/*;q=0.5")), "text/event-stream"));
        assert!(accepts(Some(&v("Text/* ")), "text/event-stream"));
        assert!(!accepts(Some(&v("application/*")), "text/event-stream"));
        assert!(!accepts(Some(&v("text/")), "text/event-stream"));
        assert!(!accepts(Some(&v("text/html")), "application/json"));
        assert!(!accepts(Some(&v("application/json")), "text/event-stream"));
        assert!(!accepts(
            Some(&v("application/json;q=0, text/html")),
            "application/json"
        ));
    }

    #[test]
    fn protocol_versions() {
        let supported = vec!["2025-06-18".to_owned()];
        let mut headers = HeaderMap::new();
        assert!(check_protocol_version(&headers, &supported).is_ok());
        headers.insert(PROTOCOL_VERSION_HEADER, v("2025-06-18"));
        assert!(check_protocol_version(&headers, &supported).is_ok());
        headers.insert(PROTOCOL_VERSION_HEADER, v("1999-01-01"));
        let error = check_protocol_version(&headers, &supported).unwrap_err();
        assert!(error.contains("\"1999-01-01\""), "{error}");
    }
}
