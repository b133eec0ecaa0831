//! One module per MCP version, each behind the cargo feature of the same name; `latest` is
//! the newest enabled-by-`latest` version (2026-07-28).

// The types that are the same in several versions, defined once in private modules beside
// the versions' (`v2411_to_2607`: 2024-11-05 to 2026-07-28); each version's module re-exports
// the ones it has, so `v2025_11_25::Tool` stays the path to write. Included rather than a
// `mod shared`: a shorter path in every symbol and debug-info name of these types.
include!("generated/mcp/shared.rs");

// `mcp_if_member!`: which members each version's structs lack, for conversions written once
// for every version (mcpwire-model's).
#[rustfmt::skip]
#[path = "generated/mcp/members.rs"]
mod members;

#[cfg(feature = "v2024_11_05")]
#[rustfmt::skip]
#[path = "generated/mcp/v2024_11_05.rs"]
pub mod v2024_11_05;

#[cfg(feature = "v2025_03_26")]
#[rustfmt::skip]
#[path = "generated/mcp/v2025_03_26.rs"]
pub mod v2025_03_26;

#[cfg(feature = "v2025_06_18")]
#[rustfmt::skip]
#[path = "generated/mcp/v2025_06_18.rs"]
pub mod v2025_06_18;

#[cfg(feature = "v2025_11_25")]
#[rustfmt::skip]
#[path = "generated/mcp/v2025_11_25.rs"]
pub mod v2025_11_25;

#[cfg(feature = "v2026_07_28")]
#[rustfmt::skip]
#[path = "generated/mcp/v2026_07_28.rs"]
pub mod v2026_07_28;

#[cfg(feature = "v2026_07_28")]
pub use v2026_07_28 as latest;

/// Whether `method` names a request or a notification of MCP `version` (`"2025-11-25"`),
/// read from that version's generated method table; `None` when the version is unknown or
/// its feature is off.
///
/// ```
/// use mcpwire_types::mcp::method_kind;
/// use mcpwire_types::support::MethodKind;
///
/// assert_eq!(method_kind("2025-11-25", "ping"), Some(MethodKind::Request));
/// assert_eq!(method_kind("2026-07-28", "ping"), Some(MethodKind::Unknown));
/// assert_eq!(method_kind("1999-01-01", "ping"), None);
/// ```
pub fn method_kind(version: &str, method: &str) -> Option<crate::support::MethodKind> {
    match version {
        #[cfg(feature = "v2024_11_05")]
        "2024-11-05" => Some(v2024_11_05::method_kind(method)),
        #[cfg(feature = "v2025_03_26")]
        "2025-03-26" => Some(v2025_03_26::method_kind(method)),
        #[cfg(feature = "v2025_06_18")]
        "2025-06-18" => Some(v2025_06_18::method_kind(method)),
        #[cfg(feature = "v2025_11_25")]
        "2025-11-25" => Some(v2025_11_25::method_kind(method)),
        #[cfg(feature = "v2026_07_28")]
        "2026-07-28" => Some(v2026_07_28::method_kind(method)),
        _ => {
            // Every version's feature may be off.
            let _ = method;
            None
        }
    }
}
