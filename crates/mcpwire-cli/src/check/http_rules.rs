//! The HTTP rules of MCP 2026-07-28, checked after the envelope cases when that version was
//! negotiated over HTTP: a method the server lacks gets 404 with -32601, and a request whose
//! routing headers (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`) are missing or
//! contradict the body is refused with 400 and -32020 (HeaderMismatch). Each case is also a
//! case like any other: its reply is judged by the envelope rules and the schema.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::cases::CheckCase;
use super::exchange::{Exchange, Target, attribute_late};
use super::finding::{Finding, RuleId};
use super::handshake::{handshake_case, request_meta};
use super::route_headers::{ROUTED_VERSION, RouteHeaders};

/// JSON-RPC 2.0's "Method not found".
const METHOD_NOT_FOUND: i64 = -32601;
/// MCP 2026-07-28's HeaderMismatch.
const HEADER_MISMATCH: i64 = -32020;
/// A tool name no server is expected to have (the header case needs only a `params.name`).
const TOOL: &str = "mcpwire-check-tool";

/// What a header case must get.
enum Owed {
    /// 404 with -32601, or (for a method a server may keep for older clients) a result.
    NotFound { result_allowed: bool },
    /// 400 with -32020.
    Refused,
}

/// One header case: what is sent and what it owes.
struct HeaderCase {
    label: String,
    method: &'static str,
    params: Map<String, Value>,
    edit: fn(&mut RouteHeaders),
    owed: Owed,
}

/// The findings of the header cases, by their index in the run's results.
pub type HttpRuleFindings = BTreeMap<usize, Vec<Finding>>;

/// Runs the 2026-07-28 HTTP cases when the run negotiated that version over HTTP (`tools`:
/// the server declared tools, so a `tools/call` tests `Mcp-Name`). The cases are appended to
/// `results`; their findings are returned by index.
pub fn run_http_rules(
    target: &mut dyn Target,
    results: &mut Vec<(CheckCase, Exchange)>,
    tools: bool,
) -> HttpRuleFindings {
    let mut findings = HttpRuleFindings::new();
    if !target.is_http() || target.profile().protocol_version != Some(ROUTED_VERSION) {
        return findings;
    }
    let named = |name: &str| {
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        params.insert("arguments".into(), json!({}));
        params
    };
    let mut cases = vec![
        HeaderCase {
            label: "initialize (MCP 2026-07-28 has none)".into(),
            method: "initialize",
            params: Map::new(),
            edit: |_| {},
            owed: Owed::NotFound {
                result_allowed: true,
            },
        },
        HeaderCase {
            label: "a method the server lacks".into(),
            method: "mcpwire/no-such-method",
            params: Map::new(),
            edit: |_| {},
            owed: Owed::NotFound {
                result_allowed: false,
            },
        },
        HeaderCase {
            label: "server/discover without Mcp-Method".into(),
            method: "server/discover",
            params: Map::new(),
            edit: |h| h.method = None,
            owed: Owed::Refused,
        },
        HeaderCase {
            label: "server/discover with Mcp-Method: tools/list".into(),
            method: "server/discover",
            params: Map::new(),
            edit: |h| h.method = Some("tools/list".into()),
            owed: Owed::Refused,
        },
        HeaderCase {
            label: "server/discover with MCP-Protocol-Version: 2025-11-25 (its _meta states 2026-07-28)"
                .into(),
            method: "server/discover",
            params: Map::new(),
            edit: |h| h.version = Some("2025-11-25".into()),
            owed: Owed::Refused,
        },
    ];
    if tools {
        cases.push(HeaderCase {
            label: format!("tools/call of {TOOL} with Mcp-Name: {TOOL}-other"),
            method: "tools/call",
            params: named(TOOL),
            edit: |h| h.name = Some(format!("{TOOL}-other")),
            owed: Owed::Refused,
        });
    }
    for (number, mut case) in cases.into_iter().enumerate() {
        let id = format!("mcpwire-http-{}", number + 1);
        case.params
            .insert("_meta".into(), request_meta(ROUTED_VERSION));
        let frame =
            json!({ "jsonrpc": "2.0", "id": id, "method": case.method, "params": case.params })
                .to_string()
                .into_bytes();
        let mut route = RouteHeaders::of_frame(&frame, Some(ROUTED_VERSION));
        (case.edit)(&mut route);
        let check = handshake_case(&case.label, &id, frame);
        let index = results.len();
        let Some(exchange) = target.exchange_with_headers(index, &check, &route) else {
            return findings;
        };
        attribute_late(results, &exchange.late);
        let found = judge(&case, &id, &exchange);
        if !found.is_empty() {
            findings.insert(index, found);
        }
        results.push((check, exchange));
    }
    findings
}

/// Judges one header case's exchange (none when the exchange failed: that is its own finding).
fn judge(case: &HeaderCase, id: &str, exchange: &Exchange) -> Vec<Finding> {
    let Some(http) = &exchange.http else {
        return Vec::new();
    };
    if exchange.fault.is_some() {
        return Vec::new();
    }
    let status = http.status;
    let reply: Option<Value> = exchange
        .replies
        .iter()
        .filter_map(|r| serde_json::from_slice::<Value>(r).ok())
        .find(|r| r.get("id").and_then(Value::as_str) == Some(id));
    let code = reply
        .as_ref()
        .and_then(|r| r.pointer("/error/code"))
        .and_then(Value::as_i64);
    let result = reply.as_ref().is_some_and(|r| r.get("result").is_some());
    let what = match (code, result) {
        (Some(code), _) => format!("HTTP {status} with the error {code}"),
        (None, true) => format!("HTTP {status} with a result"),
        (None, false) => format!("HTTP {status} and no reply carrying its id"),
    };
    let finding = |kind: &str, why: String| {
        vec![Finding::new(
            kind,
            RuleId::Http,
            format!("{}: got {what}; {why}", case.label),
        )]
    };
    match case.owed {
        Owed::NotFound { result_allowed } => match code {
            Some(METHOD_NOT_FOUND) if status == 404 => Vec::new(),
            Some(METHOD_NOT_FOUND) => finding(
                "http-method-not-found-status",
                "MCP 2026-07-28 Streamable HTTP, Server Validation: \"If the server does not implement the requested RPC method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601` (`Method not found`).\"".into(),
            ),
            None if result && result_allowed => Vec::new(),
            _ if reply.is_none() => Vec::new(), // a missing reply is the envelope's finding
            _ => finding(
                "unexpected-code",
                "a method the server does not have gets the error -32601 (Method not found)"
                    .into(),
            ),
        },
        Owed::Refused => {
            let refused = code.is_some() || (400..500).contains(&status);
            match code {
                Some(HEADER_MISMATCH) if status == 400 => Vec::new(),
                Some(HEADER_MISMATCH) => finding(
                    "http-header-mismatch-status",
                    "a HeaderMismatch error (-32020) over HTTP MUST come with 400 Bad Request".into(),
                ),
                _ if !refused => finding(
                    "http-header-mismatch-accepted",
                    "a server that processes the body MUST reject a request whose routing headers are missing or differ from the body, with 400 and -32020 (HeaderMismatch)".into(),
                ),
                _ => finding(
                    "http-header-mismatch-code",
                    "the request was refused, but not as the version spells it: 400 with the error -32020 (HeaderMismatch)".into(),
                ),
            }
        }
    }
}
