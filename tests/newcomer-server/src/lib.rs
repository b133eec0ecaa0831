//! A newcomer's JSON-RPC server for MCP 2025-11-25, written by hand on serde_json with no
//! mcpwire runtime, as issue 35's maintainer wrote theirs: one line in, the lines it writes
//! out. It reads input through `serde_json::Value`, so it deviates from mcpwire's policy only
//! where the specs permit (duplicated members read last-wins, nesting refused past serde_json's
//! 128 levels, a leading byte order mark refused, `"params":null` read as absent, `rpc.`
//! methods answered -32601): the *strict* findings. Each real defect of the issue is behind a
//! runtime switch ([`Defect`]) so one test binary exercises all of them.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Value, json};

/// The methods this server implements.
pub const METHODS: &[&str] = &["ping", "tools/list"];

/// A defect planted in the server (issue 35's three), or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// No defect: deviations from mcpwire's policy are only the ones the specs permit.
    None,
    /// Ids go through f64 (as in JavaScript): `9007199254740993` comes back as
    /// `9007199254740992`.
    IdsThroughF64,
    /// An invalid request whose id was readable is answered with `"id":null`.
    NullIdOnInvalidRequest,
    /// Input that is not JSON gets no reply (the parse error is dropped).
    DroppedParseError,
}

/// The lines the server writes for one input line.
///
/// ```
/// use mcpwire_newcomer_server::{Defect, reply};
/// let out = reply(Defect::None, br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
/// assert_eq!(out, [br#"{"jsonrpc":"2.0","id":7,"result":{}}"#.to_vec()]);
/// ```
pub fn reply(defect: Defect, line: &[u8]) -> Vec<Vec<u8>> {
    if line.trim_ascii().is_empty() {
        return Vec::new();
    }
    let message: Value = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(_) if defect == Defect::DroppedParseError => return Vec::new(),
        Err(_) => return vec![error(None, -32700, "Parse error")],
    };
    let Value::Object(object) = message else {
        // MCP 2025-11-25 has no batches: an array is no message either.
        return vec![error(None, -32600, "Invalid Request")];
    };
    let id = object.get("id").and_then(|_| readable_id(line, defect));
    let has = |key: &str| object.contains_key(key);
    if !has("method") {
        return match (has("result") || has("error"), has("id")) {
            // A response: never answered.
            (true, _) => Vec::new(),
            (false, _) => vec![error(id.as_deref(), -32600, "Invalid Request")],
        };
    }
    let valid = object.get("jsonrpc") == Some(&json!("2.0"))
        && object["method"].is_string()
        && matches!(
            object.get("params"),
            None | Some(Value::Null | Value::Object(_))
        )
        && !has("result")
        && !has("error");
    let readable = !has("id") || id.is_some();
    if !valid || !readable {
        let id = match defect {
            Defect::NullIdOnInvalidRequest if id.is_some() => Some("null".to_owned()),
            _ => id,
        };
        return vec![error(id.as_deref(), -32600, "Invalid Request")];
    }
    let Some(id) = id else {
        // A valid notification: never answered.
        return Vec::new();
    };
    match object["method"].as_str() {
        Some("ping") => vec![result(&id, json!({}))],
        Some("tools/list") => vec![result(&id, json!({"tools": []}))],
        _ => vec![error(Some(&id), -32601, "Method not found")],
    }
}

/// The id member's JSON text when MCP admits it (a string, or a number without a fractional
/// part), read from the raw line so it is echoed as sent.
fn readable_id(line: &[u8], defect: Defect) -> Option<String> {
    let members: BTreeMap<String, &RawValue> = serde_json::from_slice(line).ok()?;
    let text = members.get("id")?.get();
    if text.starts_with('"') {
        return Some(text.to_owned());
    }
    if !is_integer(text) {
        return None;
    }
    match defect {
        Defect::IdsThroughF64 => text.parse::<f64>().ok().map(|f| f.to_string()),
        _ => Some(text.to_owned()),
    }
}

/// Whether the JSON text is a number whose value has no fractional part (`1e3`, `2.0`).
fn is_integer(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    if !unsigned.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (
            m,
            e.trim_start_matches('+')
                .parse::<i64>()
                .unwrap_or(if e.starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                }),
        ),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let significant = digits.trim_end_matches('0');
    if significant.trim_start_matches('0').is_empty() {
        return true;
    }
    // value = significant × 10^(exponent − fraction digits + trailing zeros dropped)
    let scale =
        i128::from(exponent) - fraction.len() as i128 + (digits.len() - significant.len()) as i128;
    scale >= 0
}

fn result(id: &str, result: Value) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#).into_bytes()
}

/// An error reply; without a readable id, MCP 2025-11-25 omits the member.
fn error(id: Option<&str>, code: i64, message: &str) -> Vec<u8> {
    let error = json!({"code": code, "message": message});
    match id {
        Some(id) => format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{error}}}"#),
        None => format!(r#"{{"jsonrpc":"2.0","error":{error}}}"#),
    }
    .into_bytes()
}
