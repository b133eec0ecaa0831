//! What the client needs to know about each MCP version beyond [`Version`]: which
//! notifications it has and which requests the server may send, read from the generated
//! method tables of `mcpwire-types` (never from a list written here).

use mcpwire_model::Version;
use mcpwire_types::support::MethodKind;

/// The version the client asks for by default: the newest with the `initialize` handshake,
/// which every server of the last two years answers.
pub const DEFAULT_VERSION: Version = Version::V2025_11_25;

/// Whether `version` defines `method` as a notification.
pub(crate) fn has_notification(version: Version, method: &str) -> bool {
    mcpwire_types::mcp::method_kind(version.as_str(), method) == Some(MethodKind::Notification)
}

/// Whether the server may send the request `method` to the client under `version`:
/// stateless versions have no server-to-client requests at all.
pub(crate) fn server_may_request(version: Version, method: &str) -> bool {
    !version.is_stateless() && version.has_request(method)
}

/// Whether the server may elicit under `version` (by request up to 2025-11-25, through
/// input-required results from 2026-07-28).
pub(crate) fn has_elicitation(version: Version) -> bool {
    version >= Version::V2025_06_18
}

/// Whether `version` has the `form` and `url` modes of elicitation (and URL mode itself).
pub(crate) fn has_elicitation_modes(version: Version) -> bool {
    version >= Version::V2025_11_25
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_tables_give_each_version_its_methods() {
        assert!(server_may_request(Version::V2025_06_18, "roots/list"));
        assert!(server_may_request(
            Version::V2025_06_18,
            "elicitation/create"
        ));
        assert!(!server_may_request(
            Version::V2025_03_26,
            "elicitation/create"
        ));
        assert!(!server_may_request(Version::V2026_07_28, "ping"));
        assert!(has_notification(
            Version::V2024_11_05,
            "notifications/progress"
        ));
        assert!(!has_notification(
            Version::V2024_11_05,
            "notifications/elicitation/complete"
        ));
        assert!(has_elicitation_modes(Version::V2026_07_28));
    }
}
