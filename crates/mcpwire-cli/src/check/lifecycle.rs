//! `mcpwire check --protocol`: what a server sends in a new session before
//! `notifications/initialized`. Each fresh session of the version negotiation is opened with
//! `initialize` and never completed, and is watched a moment after the reply
//! ([`PRE_INITIALIZED_WATCH`](super::stdio::PRE_INITIALIZED_WATCH) over stdio; the
//! response's SSE stream over HTTP): a request other than `ping` is
//! `request-before-initialized` (strict: the sentence says SHOULD NOT).

use serde_json::Value;

use super::exchange::Exchange;
use super::finding::{Finding, RuleId};

/// The sentence the finding rests on.
pub const SENTENCE: &str = "MCP lifecycle (2024-11-05 to 2025-11-25), Initialization: \"The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.\"";

/// The methods of the requests other than `ping` the server sent in `exchange` (a session that
/// never got `notifications/initialized`).
///
/// ```
/// use mcpwire_cli::check::exchange::Exchange;
/// use mcpwire_cli::check::lifecycle::early_requests;
/// let mut exchange = Exchange::default();
/// exchange.server_message(br#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#.to_vec());
/// exchange.server_message(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.to_vec());
/// exchange.server_message(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#.to_vec());
/// assert_eq!(early_requests(&exchange), ["roots/list"]);
/// ```
pub fn early_requests(exchange: &Exchange) -> Vec<String> {
    exchange
        .server_frames
        .iter()
        .filter_map(|server| serde_json::from_slice::<Value>(&server.frame).ok())
        .filter(|message| message.get("id").is_some_and(|id| !id.is_null()))
        .filter_map(|message| message.get("method")?.as_str().map(str::to_owned))
        .filter(|method| method != "ping")
        .collect()
}

/// The `request-before-initialized` finding of a fresh session's exchange, if the server sent
/// a request other than `ping` before `notifications/initialized`.
pub fn judge_pre_initialized(label: &str, exchange: &Exchange) -> Option<Finding> {
    let methods = early_requests(exchange);
    if methods.is_empty() {
        return None;
    }
    Some(Finding::new(
        "request-before-initialized",
        RuleId::Protocol,
        format!(
            "{label}: before notifications/initialized (which this session never sent) the server sent the request(s) {}; {SENTENCE}",
            methods.join(", ")
        ),
    ))
}
