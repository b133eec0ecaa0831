//! The standard request headers of MCP 2026-07-28's Streamable HTTP: `Mcp-Method` repeats the
//! body's method, `Mcp-Name` its target (`params.name` of `tools/call` and `prompts/get`,
//! `params.uri` of `resources/read`), `MCP-Protocol-Version` the version `_meta` states. The
//! checker sends them on every POST under that version (a server refuses a request without
//! them), and leaves one out or spells it wrong on purpose in the header cases.

use serde_json::Value;

/// The MCP version whose HTTP requests carry the routing headers.
pub const ROUTED_VERSION: &str = "2026-07-28";

/// The `_meta` member that states a request's version (MCP 2026-07-28).
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The routing headers of one POST; `None` leaves the header out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RouteHeaders {
    /// `Mcp-Method`.
    pub method: Option<String>,
    /// `Mcp-Name`.
    pub name: Option<String>,
    /// `MCP-Protocol-Version`.
    pub version: Option<String>,
}

impl RouteHeaders {
    /// The headers a correct client sends with `frame`: its method, its target, and the
    /// version its `_meta` states (else `version`). Unreadable input repeats nothing but the
    /// version.
    pub fn of_frame(frame: &[u8], version: Option<&str>) -> RouteHeaders {
        let body: Value = serde_json::from_slice(frame).unwrap_or(Value::Null);
        let text = |pointer: &str| body.pointer(pointer).and_then(Value::as_str);
        let method = text("/method");
        let name = match method {
            Some("tools/call" | "prompts/get") => text("/params/name"),
            Some("resources/read") => text("/params/uri"),
            _ => None,
        };
        let stated = body
            .pointer("/params/_meta")
            .and_then(|meta| meta.get(META_VERSION))
            .and_then(Value::as_str);
        RouteHeaders {
            method: method.map(header_value),
            name: name.map(header_value),
            version: stated.or(version).map(header_value),
        }
    }
}

/// A header value as MCP 2026-07-28 spells one: visible ASCII (and inner spaces) as it is,
/// anything else as `=?base64?…?=` of its UTF-8 bytes (see
/// [`mcpwire::http::encode_header_value`]).
pub fn header_value(text: &str) -> String {
    mcpwire::http::encode_header_value(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_repeat_the_body() {
        let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let headers = RouteHeaders::of_frame(frame, Some("x"));
        assert_eq!(headers.method.as_deref(), Some("tools/call"));
        assert_eq!(headers.name.as_deref(), Some("add"));
        assert_eq!(headers.version.as_deref(), Some("2026-07-28"));
        let unreadable = RouteHeaders::of_frame(b"{", Some("2026-07-28"));
        assert_eq!(unreadable.method, None);
        assert_eq!(unreadable.version.as_deref(), Some("2026-07-28"));
    }

    #[test]
    fn values_that_are_not_visible_ascii_are_base64() {
        assert_eq!(header_value("ping"), "ping");
        assert_eq!(header_value("p\u{e9}"), "=?base64?cMOp?=");
        assert_eq!(header_value(""), "=?base64??=");
    }
}
