//! MCP log levels (RFC 5424 severities), ordered from least to most severe.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::version::Version;

/// The severity of a log message (`notifications/message`), as MCP names it.
///
/// ```
/// use mcpwire_model::LogLevel;
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

/// The `LoggingMessageNotificationParams` of `version`, serialized from its generated type.
pub fn message_params(
    level: LogLevel,
    logger: Option<&str>,
    data: Value,
    version: Version,
) -> Value {
    macro_rules! params {
        ($m:ident) => {{
            let level = match level {
                LogLevel::Debug => $m::LoggingLevel::Debug,
                LogLevel::Info => $m::LoggingLevel::Info,
                LogLevel::Notice => $m::LoggingLevel::Notice,
                LogLevel::Warning => $m::LoggingLevel::Warning,
                LogLevel::Error => $m::LoggingLevel::Error,
                LogLevel::Critical => $m::LoggingLevel::Critical,
                LogLevel::Alert => $m::LoggingLevel::Alert,
                LogLevel::Emergency => $m::LoggingLevel::Emergency,
            };
            let mut out = $m::LoggingMessageNotificationParams::new(data, level);
            out.logger = logger.map(str::to_owned);
            crate::content::wire::to_value(out)
        }};
    }
    crate::by_version::by_version!(version, params)
}
