//! MCP log levels (RFC 5424 severities), ordered from least to most severe.

use serde::{Deserialize, Serialize};

/// The severity of a log message (`notifications/message`), as MCP names it.
///
/// ```
/// use mcpwire_server::LogLevel;
///
/// assert!(LogLevel::Error > LogLevel::Info);
/// assert_eq!(serde_json::to_string(&LogLevel::Warning).unwrap(), "\"warning\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Informational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}
