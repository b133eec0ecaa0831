//! `mcpwire check --protocol` under MCP 2026-07-28, whose requests each state their version
//! and the client's capabilities in `_meta`:
//!
//! - a request stating the version `1999-01-01` (in `_meta` and, over HTTP, in
//!   `MCP-Protocol-Version`) gets -32022 (`unsupported-version-accepted`) with
//!   `data.requested` and `data.supported`, and over HTTP status 400
//!   (`unsupported-version-error-invalid`);
//! - every -32021 reply of the run carries `data.requiredCapabilities`, over HTTP with status
//!   400 (`missing-capability-error-invalid`);
//! - each walked list asked for again comes in the same order (`list-order-unstable`,
//!   strict: the tools page says SHOULD, the others follow it as policy);
//! - over HTTP, GET and DELETE of the endpoint get 405 (`stateless-get-delete-not-405`,
//!   strict: a SHOULD).
//!
//! `resultType` and the cache hints (`ttlMs`, `cacheScope`) are required by the version's
//! result schemas, so `reply-schema-invalid` judges them on every reply.

use mcpwire_proptest::{Expected, Silence};
use serde_json::{Map, Value, json};

use super::caller::{Caller, reply_to};
use super::capabilities::Lists;
use super::cases::CheckCase;
use super::exchange::{Exchange, attribute_late};
use super::finding::{Finding, RuleId};
use super::handshake::{UNSUPPORTED_VERSION, handshake_case, request_meta};
use super::route_headers::{ROUTED_VERSION, RouteHeaders};

/// UnsupportedProtocolVersionError's code.
pub const UNSUPPORTED_VERSION_CODE: i64 = -32022;
/// MissingRequiredClientCapabilityError's code.
pub const MISSING_CAPABILITY_CODE: i64 = -32021;

/// Runs the MCP 2026-07-28 properties (nothing under another version).
pub fn run_stateless(caller: &mut Caller<'_>, lists: &Lists) {
    if caller.facts.protocol_version != Some(ROUTED_VERSION) {
        return;
    }
    unsupported_version(caller);
    list_order(caller, lists);
    if caller.target.is_http() {
        for method in ["GET", "DELETE"] {
            not_allowed(caller, method);
        }
    }
}

fn finding(kind: &str, message: String) -> Finding {
    Finding::new(kind, RuleId::Protocol, message)
}

/// Sends `case` (with `route` as its headers over HTTP) as the next case of the run.
fn send_routed(caller: &mut Caller<'_>, case: CheckCase, route: &RouteHeaders) -> usize {
    let index = caller.results.len();
    let exchange = match caller.target.exchange_with_headers(index, &case, route) {
        Some(exchange) => exchange,
        None => caller.target.exchange(index, &case),
    };
    attribute_late(caller.results, &exchange.late);
    caller.results.push((case, exchange));
    index
}

fn unsupported_version(caller: &mut Caller<'_>) {
    let id = "mcpwire-protocol-unsupported-version";
    let frame = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "server/discover",
        "params": { "_meta": request_meta(UNSUPPORTED_VERSION) }
    });
    let label = format!("server/discover stating protocol version {UNSUPPORTED_VERSION}");
    let case = handshake_case(&label, id, frame.to_string().into_bytes());
    let route = RouteHeaders {
        method: Some("server/discover".into()),
        name: None,
        version: Some(UNSUPPORTED_VERSION.into()),
    };
    let index = send_routed(caller, case, &route);
    let exchange = &caller.results[index].1;
    let Some(reply) = reply_to(exchange, id) else {
        return;
    };
    let status = exchange.http.as_ref().map(|h| h.status);
    let code = reply.pointer("/error/code").and_then(Value::as_i64);
    let sentence = "MCP 2026-07-28 schema, RequestMetaObject protocolVersion: \"If the server does not support the requested version, it MUST return an UnsupportedProtocolVersionError.\"";
    if code != Some(UNSUPPORTED_VERSION_CODE) {
        let got = code.map_or("a result".to_owned(), |c| format!("the error {c}"));
        caller.find(
            index,
            finding(
                "unsupported-version-accepted",
                format!("{label}: got {got}, not -32022; {sentence}"),
            ),
        );
        return;
    }
    let mut wrong = Vec::new();
    if reply
        .pointer("/error/data/requested")
        .and_then(Value::as_str)
        != Some(UNSUPPORTED_VERSION)
    {
        wrong.push(format!("data.requested is not \"{UNSUPPORTED_VERSION}\""));
    }
    let supported = reply
        .pointer("/error/data/supported")
        .and_then(Value::as_array);
    if !supported.is_some_and(|list| list.iter().all(Value::is_string)) {
        wrong.push("data.supported is not a list of versions".to_owned());
    }
    if let Some(status) = status.filter(|s| *s != 400) {
        wrong.push(format!("it came with HTTP {status}"));
    }
    if !wrong.is_empty() {
        caller.find(
            index,
            finding(
                "unsupported-version-error-invalid",
                format!(
                    "{label}: the -32022 reply is wrong: {}; MCP 2026-07-28 schema, UnsupportedProtocolVersionError: data requires \"requested\" and \"supported\" (\"Protocol versions the server supports. The client should choose a mutually supported version from this list and retry.\"), and \"For HTTP, the response status code MUST be `400 Bad Request`.\"",
                    wrong.join("; ")
                ),
            ),
        );
    }
}

/// The `missing-capability-error-invalid` findings of the run's -32021 replies: each must
/// carry `data.requiredCapabilities` and, over HTTP, come with 400.
pub fn judge_capability_errors(caller: &mut Caller<'_>) {
    if caller.facts.protocol_version != Some(ROUTED_VERSION) {
        return;
    }
    let mut found = Vec::new();
    for (index, (_, exchange)) in caller.results.iter().enumerate() {
        if let Some(wrong) = capability_error_defects(exchange) {
            found.push((index, finding(
                "missing-capability-error-invalid",
                format!(
                    "a -32021 reply is wrong: {wrong}; MCP 2026-07-28 schema, MissingRequiredClientCapabilityError: data requires \"requiredCapabilities\" (\"The capabilities the server requires from the client to process this request.\"), and \"For HTTP, the response status code MUST be `400 Bad Request`.\""
                ),
            )));
        }
    }
    for (index, finding) in found {
        caller.find(index, finding);
    }
}

/// What is wrong with the exchange's -32021 reply, if it has one that is wrong.
fn capability_error_defects(exchange: &Exchange) -> Option<String> {
    let reply = exchange.replies.iter().find_map(|frame| {
        let value: Value = serde_json::from_slice(frame).ok()?;
        (value.pointer("/error/code").and_then(Value::as_i64) == Some(MISSING_CAPABILITY_CODE))
            .then_some(value)
    })?;
    let mut wrong = Vec::new();
    if !reply
        .pointer("/error/data/requiredCapabilities")
        .is_some_and(Value::is_object)
    {
        wrong.push("no data.requiredCapabilities object".to_owned());
    }
    if let Some(status) = exchange
        .http
        .as_ref()
        .map(|h| h.status)
        .filter(|s| *s != 400)
    {
        wrong.push(format!("it came with HTTP {status}"));
    }
    (!wrong.is_empty()).then(|| wrong.join("; "))
}

/// The `key` member (`name`, `uri`, `uriTemplate`) of each item that has one, in order.
fn keys(items: &[Value], key: &str) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| item.get(key).and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// Each walked list's first page asked for again: the items both pages hold must come in the
/// same order.
fn list_order(caller: &mut Caller<'_>, lists: &Lists) {
    for (list, walk) in &lists.walks {
        let first = keys(&walk.items, list.key);
        if first.len() < 2 {
            continue;
        }
        let label = format!("{} again (the order of its items)", list.method);
        let (index, id) = caller.call("protocol", label.clone(), list.method, Map::new());
        let Some(again) = caller
            .reply(index, &id)
            .and_then(|r| r.pointer(&format!("/result/{}", list.items)).cloned())
            .and_then(|items| items.as_array().cloned())
        else {
            continue;
        };
        let second = keys(&again, list.key);
        let before: Vec<&String> = first.iter().filter(|k| second.contains(k)).collect();
        let after: Vec<&String> = second.iter().filter(|k| first.contains(k)).collect();
        if before != after {
            caller.find(
                index,
                finding(
                    "list-order-unstable",
                    format!(
                        "{label}: the first walk listed {before:?}, asked again {after:?}; MCP 2026-07-28 tools: \"Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed).\" (SHOULD: strict; for prompts, resources and templates mcpwire applies the same reading as policy)"
                    ),
                ),
            );
        }
    }
}

/// A body-less `method` to the endpoint, recorded as a case owed nothing (the envelope rules
/// have nothing to judge); a status other than 405 is `stateless-get-delete-not-405`.
fn not_allowed(caller: &mut Caller<'_>, method: &str) {
    let Some(outcome) = caller.target.bare_status(method) else {
        return;
    };
    let label = format!("HTTP {method} of the endpoint (MCP 2026-07-28, stateless)");
    let case = CheckCase {
        label: label.clone(),
        frame: Vec::new(),
        expected: Expected::NoReply(Silence::BlankLine),
        generated: None,
        batch_reading: None,
        readings: Vec::new(),
    };
    let index = caller.results.len();
    caller.results.push((case, Exchange::default()));
    let status = match outcome {
        Ok(405) => return,
        Ok(status) => format!("HTTP {status}"),
        Err(error) => format!("no response ({error})"),
    };
    caller.find(
        index,
        finding(
            "stateless-get-delete-not-405",
            format!(
                "{label}: got {status}; MCP 2026-07-28 Streamable HTTP, Earlier Streamable HTTP Revisions: a server that supports only this revision and receives such traffic from an older client \"SHOULD respond as follows: HTTP GET or DELETE to the MCP endpoint: respond with `405 Method Not Allowed`.\" (SHOULD: strict)"
            ),
        ),
    );
}
