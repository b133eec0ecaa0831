//! The lines a client sends in the end-to-end rows (issue 13's `add` call, issue 15's stream of
//! notifications), and the checks that a server answered them as MCP asks, so a row never times
//! a server that replied with an error.
//!
//! Both servers are spoken to the same way: `initialize` (MCP 2025-11-25, the version the decode
//! rows use) and `notifications/initialized` once, then the measured lines.
//!
//! ```
//! use mcpwire_benches::conversation;
//!
//! let reply = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"sum\":42}"}],"structuredContent":{"sum":42}}}"#;
//! assert_eq!(conversation::check_add_reply(reply), Ok(()));
//! assert!(conversation::check_add_reply(br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#).is_err());
//! ```

use serde_json::{Value, json};

/// The MCP version both servers are initialized with.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The operands of the measured `add` call, and the sum a correct reply carries.
pub const ADD: (i64, i64, i64) = (40, 2, 42);

/// Client notifications in one measured stream (issue 15).
pub const NOTIFICATIONS_PER_STREAM: usize = 10_000;

/// The id of the `ping` that ends a stream; its reply marks that the server has read every
/// notification before it.
pub const STREAM_END_ID: &str = "stream-end";

/// `initialize`, id 0, for [`PROTOCOL_VERSION`], with no client capabilities.
pub fn initialize() -> Vec<u8> {
    line(json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": { "name": "mcpwire-benches", "version": "0.0.0" }
        }
    }))
}

/// `notifications/initialized`.
pub fn initialized() -> Vec<u8> {
    line(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
}

/// The measured call: `tools/call` of `add` with [`ADD`]'s operands, id 1.
pub fn add_call() -> Vec<u8> {
    line(json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": ADD.0, "b": ADD.1 } }
    }))
}

/// One stream: [`NOTIFICATIONS_PER_STREAM`] `notifications/roots/list_changed` lines (each
/// newline-terminated), then a `ping` with id [`STREAM_END_ID`].
pub fn notification_stream() -> Vec<u8> {
    let notification = br#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#;
    let mut bytes = Vec::with_capacity((notification.len() + 1) * (NOTIFICATIONS_PER_STREAM + 1));
    for _ in 0..NOTIFICATIONS_PER_STREAM {
        bytes.extend_from_slice(notification);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(&line(
        json!({ "jsonrpc": "2.0", "id": STREAM_END_ID, "method": "ping" }),
    ));
    bytes.push(b'\n');
    bytes
}

/// Whether a reply line answers the stream's closing `ping` (a cheap byte test, used while
/// timing; [`check_stream_end_reply`] checks the whole line once before).
pub fn is_stream_end(reply: &[u8]) -> bool {
    let marker = format!("\"id\":\"{STREAM_END_ID}\"");
    reply
        .windows(marker.len())
        .any(|window| window == marker.as_bytes())
}

fn line(value: Value) -> Vec<u8> {
    serde_json::to_vec(&value).expect("a JSON value serializes")
}

fn parse(reply: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(reply).map_err(|e| {
        format!(
            "reply is not JSON ({e}): {}",
            String::from_utf8_lossy(reply)
        )
    })
}

fn result_of<'a>(reply: &'a Value, id: &Value) -> Result<&'a Value, String> {
    if reply["jsonrpc"] != "2.0" || &reply["id"] != id {
        return Err(format!("expected a reply with id {id}, got {reply}"));
    }
    reply
        .get("result")
        .ok_or_else(|| format!("expected a result for id {id}, got {reply}"))
}

/// Checks the reply to [`initialize`]: a result naming [`PROTOCOL_VERSION`] and a `tools`
/// capability.
pub fn check_initialize_reply(reply: &[u8]) -> Result<(), String> {
    let reply = parse(reply)?;
    let result = result_of(&reply, &json!(0))?;
    if result["protocolVersion"] != PROTOCOL_VERSION || result["capabilities"]["tools"].is_null() {
        return Err(format!(
            "initialize: expected version {PROTOCOL_VERSION} with tools, got {result}"
        ));
    }
    Ok(())
}

/// Checks the reply to [`add_call`]: not a tool error, `structuredContent` `{"sum":42}`, and a
/// first content block whose text is that same JSON object (what both SDKs send for a
/// structured output).
pub fn check_add_reply(reply: &[u8]) -> Result<(), String> {
    let reply = parse(reply)?;
    let result = result_of(&reply, &json!(1))?;
    let expected = json!({ "sum": ADD.2 });
    if result["isError"] == true {
        return Err(format!("add: tool error {result}"));
    }
    if result["structuredContent"] != expected {
        return Err(format!(
            "add: expected structuredContent {expected}, got {result}"
        ));
    }
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if result["content"][0]["type"] != "text"
        || serde_json::from_str::<Value>(text).ok() != Some(expected.clone())
    {
        return Err(format!(
            "add: expected a text block holding {expected}, got {result}"
        ));
    }
    Ok(())
}

/// Checks the reply to the `ping` that ends [`notification_stream`]: an empty result.
pub fn check_stream_end_reply(reply: &[u8]) -> Result<(), String> {
    let reply = parse(reply)?;
    let result = result_of(&reply, &json!(STREAM_END_ID))?;
    if result.as_object().is_none_or(|members| !members.is_empty()) {
        return Err(format!("ping: expected an empty result, got {result}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_ten_thousand_notifications_and_one_ping() {
        let stream = notification_stream();
        let lines: Vec<&[u8]> = stream.split(|b| *b == b'\n').collect();
        assert_eq!(lines.len(), NOTIFICATIONS_PER_STREAM + 2, "last is empty");
        assert!(lines.last().unwrap().is_empty());
        let ping: Value = serde_json::from_slice(lines[NOTIFICATIONS_PER_STREAM]).unwrap();
        assert_eq!(ping["method"], "ping");
        for notification in &lines[..NOTIFICATIONS_PER_STREAM] {
            let value: Value = serde_json::from_slice(notification).unwrap();
            assert!(value.get("id").is_none());
        }
    }

    #[test]
    fn a_wrong_sum_or_an_error_fails_the_add_check() {
        let wrong = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"sum\":41}"}],"structuredContent":{"sum":41}}}"#;
        assert!(check_add_reply(wrong).is_err());
        let text_only =
            br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}]}}"#;
        assert!(check_add_reply(text_only).is_err());
        let error = br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}"#;
        assert!(check_add_reply(error).is_err());
    }

    #[test]
    fn the_end_marker_matches_only_the_closing_ping() {
        assert!(is_stream_end(
            br#"{"jsonrpc":"2.0","id":"stream-end","result":{}}"#
        ));
        assert!(!is_stream_end(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
        assert_eq!(
            check_stream_end_reply(br#"{"jsonrpc":"2.0","id":"stream-end","result":{}}"#),
            Ok(())
        );
    }
}
