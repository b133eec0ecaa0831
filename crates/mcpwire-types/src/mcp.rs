//! One module per MCP version, each behind the cargo feature of the same name; `latest` is
//! the newest enabled-by-`latest` version (2026-07-28).

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
