//! `mcpwire check --protocol`: the server's log messages. Every `notifications/message` the
//! server sent during the run is checked against its version's `LoggingMessageNotification`
//! (`log-message-schema-invalid`), and once `logging/setLevel` was accepted, a message below
//! the level set is `log-below-level` (strict: the schema's description says "should"). Under
//! MCP 2026-07-28 a client asks for log messages per request (`_meta`
//! `io.modelcontextprotocol/logLevel`), which the checker never does, so any
//! `notifications/message` is `log-not-requested`.

use serde_json::Value;

use super::caller::Caller;
use super::finding::{Finding, RuleId};

/// The MCP log levels (RFC 5424 severities), least severe first.
pub const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// The level `logging/setLevel` asks for.
pub const SET_LEVEL: &str = "warning";

/// How severe `level` is (its place in [`LEVELS`]).
///
/// ```
/// use mcpwire_cli::check::logging::severity;
/// assert!(severity("info") < severity("warning"));
/// assert_eq!(severity("loud"), None);
/// ```
pub fn severity(level: &str) -> Option<usize> {
    LEVELS.iter().position(|l| *l == level)
}

/// A validator of the version's `LoggingMessageNotification`, from the schema built into the
/// binary, else the one in the schema folder (`None` where there is none or the version has
/// no such definition).
fn message_validator(version: &str) -> Option<jsonschema::Validator> {
    let bytes = match super::schema::embedded(version) {
        Some(bytes) => bytes.to_vec(),
        None => std::fs::read(
            super::schema::schema_dir(None)
                .join(version)
                .join("schema.json"),
        )
        .ok()?,
    };
    let mut root: Value = serde_json::from_slice(&bytes).ok()?;
    let defs = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    root.pointer(&format!("/{defs}/LoggingMessageNotification"))?;
    root.as_object_mut()?.insert(
        "allOf".into(),
        serde_json::json!([{ "$ref": format!("#/{defs}/LoggingMessageNotification") }]),
    );
    jsonschema::validator_for(&root).ok()
}

/// Judges every `notifications/message` of the run's cases; `set_at` is the index of the case
/// whose `logging/setLevel` ([`SET_LEVEL`]) was accepted, if one was.
pub fn judge_log_messages(caller: &mut Caller<'_>, set_at: Option<usize>) {
    let version = caller.facts.protocol_version.unwrap_or_default();
    let validator = message_validator(version);
    let floor = severity(SET_LEVEL).unwrap_or_default();
    let per_request = version == super::route_headers::ROUTED_VERSION;
    let mut found = Vec::new();
    for (index, (_, exchange)) in caller.results.iter().enumerate() {
        let mut invalid = None;
        let mut below = None;
        let mut unasked = None;
        for server in &exchange.server_frames {
            let Ok(message) = serde_json::from_slice::<Value>(&server.frame) else {
                continue;
            };
            if message.get("method").and_then(Value::as_str) != Some("notifications/message") {
                continue;
            }
            if let Some(validator) = &validator
                && invalid.is_none()
                && let Some(error) = validator.iter_errors(&message).next()
            {
                invalid = Some(format!(
                    "at {}: {error}",
                    match error.instance_path().to_string() {
                        p if p.is_empty() => "/".to_owned(),
                        p => p,
                    }
                ));
            }
            let level = message.pointer("/params/level").and_then(Value::as_str);
            if per_request && unasked.is_none() {
                unasked = Some(level.unwrap_or("(none)").to_owned());
            }
            if set_at.is_some_and(|at| index > at)
                && below.is_none()
                && let Some(level) = level
                && severity(level).is_some_and(|s| s < floor)
            {
                below = Some(level.to_owned());
            }
        }
        if let Some(error) = invalid {
            found.push((index, Finding::new(
                "log-message-schema-invalid",
                RuleId::Protocol,
                format!(
                    "a notifications/message the server sent breaks MCP {version}'s LoggingMessageNotification: {error}"
                ),
            )));
        }
        if let Some(level) = unasked {
            found.push((index, Finding::new(
                "log-not-requested",
                RuleId::Protocol,
                format!(
                    "a notifications/message (level {level}) came for a request without io.modelcontextprotocol/logLevel in its _meta; MCP 2026-07-28 logging, Per-request log level: \"The server MUST NOT emit notifications/message for a request that does not include this field.\""
                ),
            )));
        }
        if let Some(level) = below {
            found.push((index, Finding::new(
                "log-below-level",
                RuleId::Protocol,
                format!(
                    "a notifications/message at level {level} came after logging/setLevel {SET_LEVEL} was accepted; MCP schema, SetLevelRequest level (2024-11-05 to 2025-11-25): \"The server should send all logs at this level and higher (i.e., more severe) to the client as notifications/message.\" (a description, lower-case should: strict)"
                ),
            )));
        }
    }
    for (index, finding) in found {
        caller.find(index, finding);
    }
}
