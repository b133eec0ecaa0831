//! The MCP versions the client speaks and what each has, read from the generated method
//! tables of `mcpwire-types` (never from a list written here).

use mcpwire_types::support::MethodKind;

/// Every MCP version the client speaks, oldest first.
pub const SUPPORTED_VERSIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The version the client asks for by default: the newest with the `initialize` handshake,
/// which every server of the last two years answers.
pub const DEFAULT_VERSION: &str = "2025-11-25";

/// The supported version spelled `text`.
pub(crate) fn supported(text: &str) -> Option<&'static str> {
    SUPPORTED_VERSIONS.into_iter().find(|v| *v == text)
}

/// Whether `version` defines `method` as a request.
pub(crate) fn has_request(version: &str, method: &str) -> bool {
    mcpwire_types::mcp::method_kind(version, method) == Some(MethodKind::Request)
}

/// Whether `version` defines `method` as a notification.
pub(crate) fn has_notification(version: &str, method: &str) -> bool {
    mcpwire_types::mcp::method_kind(version, method) == Some(MethodKind::Notification)
}

/// Whether `version` negotiates with `initialize`.
pub(crate) fn has_handshake(version: &str) -> bool {
    has_request(version, "initialize")
}

/// Whether `version` is stateless (`server/discover`, the version in every `_meta`).
pub(crate) fn is_stateless(version: &str) -> bool {
    has_request(version, "server/discover")
}

/// The newest version with the `initialize` handshake.
pub(crate) fn newest_with_handshake() -> &'static str {
    SUPPORTED_VERSIONS
        .into_iter()
        .rev()
        .find(|v| has_handshake(v))
        .unwrap_or(DEFAULT_VERSION)
}

/// Whether the server may send the request `method` to the client under `version`:
/// stateless versions have no server-to-client requests at all.
pub(crate) fn server_may_request(version: &str, method: &str) -> bool {
    !is_stateless(version) && has_request(version, method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_tables_give_each_version_its_methods() {
        assert!(SUPPORTED_VERSIONS.iter().all(|v| supported(v) == Some(*v)));
        assert_eq!(newest_with_handshake(), "2025-11-25");
        assert!(is_stateless("2026-07-28") && !has_handshake("2026-07-28"));
        assert!(has_handshake("2024-11-05") && !is_stateless("2024-11-05"));
        assert!(!has_request("2025-03-26", "elicitation/create"));
        assert!(has_request("2025-06-18", "elicitation/create"));
        assert!(server_may_request("2025-06-18", "roots/list"));
        assert!(!server_may_request("2026-07-28", "ping"));
        assert!(has_notification("2024-11-05", "notifications/progress"));
    }
}
