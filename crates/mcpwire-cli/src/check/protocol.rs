//! `mcpwire check --protocol`: the protocol's properties on the live server, each judged only
//! where the server declared the feature (and the version has the method), in the same session
//! after the envelope cases. Each request is a case like any other (the envelope rules and the
//! schema judge its reply too); the findings here are rule `protocol`.
//!
//! - version negotiation (versions with `initialize`, each in a new session: over stdio a new
//!   server process, over HTTP a POST without a session): asking for `1999-01-01` gets another
//!   version (`unsupported-version-echoed`; an error is `unsupported-version-refused`,
//!   strict), and asking for that version gets it echoed (`supported-version-not-echoed`);
//!   neither session gets `notifications/initialized`, so a request the server sends in it is
//!   `request-before-initialized` ([`lifecycle`](super::lifecycle), strict).
//! - `notifications/cancelled` of a request never sent: no reply (`reply-to-notification`),
//!   and the session keeps serving.
//! - `ping` (versions with ping): an empty result (`ping-result-not-empty`).
//! - `logging/setLevel` where `logging` is declared: accepted (`logging-set-level-refused`,
//!   strict); where it is not declared, -32601 (`undeclared-capability-answered`, strict).
//! - `resources/subscribe` and `unsubscribe` where `resources.subscribe` is declared: not
//!   -32601 (`resource-subscribe-refused`, strict).
//! - `resources/read` of every listed resource, where `resources` is declared: no error
//!   (`listed-resource-not-readable`, strict); a URI never listed gets "Resource not found"
//!   as the version names it (`unknown-resource-code`, strict).
//! - `completion/complete` for every prompt argument and template variable listed, where
//!   `completions` is declared: at most 100 values (`completion-too-many-values`, strict, where
//!   the schema has no `maxItems`) and `total`/`hasMore` consistent
//!   (`completion-total-inconsistent`, strict).
//! - one `tools/call` of each listed tool with a `progressToken`: every progress notification
//!   names that token (`progress-token-unknown`), strictly increases
//!   (`progress-not-increasing`), stays within its total (`progress-exceeds-total`, strict)
//!   and comes before the response (`progress-after-response`); a successful result of a tool
//!   with an `outputSchema` carries conforming `structuredContent`
//!   (`tool-structured-content-invalid`); the slowest call, if slow enough, is then made again
//!   and cancelled in flight ([`cancel`](super::cancel)).
//! - every `notifications/message` of the run, and the level set ([`logging`](super::logging)).
//! - under MCP 2026-07-28, the properties of [`stateless`](super::stateless), and no reply
//!   of the run with an error code the version retired ([`retired_codes`](super::retired_codes)).

use serde_json::{Map, Value, json};

use mcpwire_proptest::{Methods, derive_expected};

use super::caller::{Caller, reply_to};
use super::capabilities::Lists;
use super::cases::CheckCase;
use super::finding::{Finding, RuleId};
use super::handshake::{
    INITIALIZE_ID, defines_request, handshake_case, has_handshake, has_ping, initialize_frame,
};
use super::pages::{PROMPTS, RESOURCES, TEMPLATES, TOOLS, declared_capabilities, declares};
use super::tool_args::InputSchema;
use super::tools::{ToolOptions, draw_valid, structured_findings};

/// At most this many `completion/complete` calls and tool calls each.
const MAX_CALLS: usize = 50;

pub use super::handshake::UNSUPPORTED_VERSION;

/// Runs every property the server's declarations and version call for.
/// Tool calls are awaited for `options.timeout` (`--tool-timeout`), as under `--tools`. The
/// call cancelled in flight, if any, is returned: [`settle`](super::cancel::settle) judges it
/// once the run's last replies are in.
pub fn run_protocol(
    caller: &mut Caller<'_>,
    lists: &Lists,
    options: &ToolOptions,
) -> Option<super::cancel::Cancelled> {
    let mut cancelled = None;
    if has_handshake(caller.facts) {
        negotiation(caller);
        cancel_unknown(caller);
    }
    let declared = declared_capabilities(caller.results);
    if has_ping(caller.facts) {
        ping(caller);
    }
    let mut level_set = None;
    if defines_request(caller.facts, "logging/setLevel") {
        level_set = set_level(caller, declares(&declared, "logging"));
    }
    let subscribe = declared
        .get("resources")
        .and_then(|r| r.get("subscribe"))
        .and_then(Value::as_bool)
        == Some(true);
    if subscribe && defines_request(caller.facts, "resources/subscribe") {
        subscriptions(caller, lists);
    }
    if declares(&declared, "resources") {
        reads(caller, lists);
        unknown_read(caller);
    }
    if declares(&declared, "completions") && defines_request(caller.facts, "completion/complete") {
        completions(caller, lists);
    }
    if declares(&declared, "tools") {
        let calls = progress(caller, lists, options);
        // The slowest call, if slow enough to be still running when its cancel arrives.
        let slowest = calls
            .into_iter()
            .filter(|(.., took)| *took >= super::cancel::IN_FLIGHT_MIN)
            .max_by_key(|(.., took)| *took);
        if let Some((tool, arguments, took)) = slowest {
            cancelled = super::cancel::cancel_in_flight(caller, &tool, arguments, took);
        }
    }
    super::stateless::run_stateless(caller, lists);
    super::stateless::judge_capability_errors(caller);
    super::retired_codes::judge_retired_codes(caller);
    super::logging::judge_log_messages(caller, level_set);
    cancelled
}

/// `initialize` in new sessions: asking for [`UNSUPPORTED_VERSION`] must get another version
/// the server supports, and asking for that one must get it echoed. MCP lifecycle (2024-11-05
/// to 2025-11-25): "If the server supports the requested protocol version, it MUST respond
/// with the same version. Otherwise, the server MUST respond with another protocol version it
/// supports." Transports that cannot open a second session (HTTP here) skip it.
fn negotiation(caller: &mut Caller<'_>) {
    let lifecycle = "MCP lifecycle (2024-11-05 to 2025-11-25)";
    let Some((index, reply)) = fresh_initialize(caller, UNSUPPORTED_VERSION) else {
        return;
    };
    let answered = reply
        .as_ref()
        .and_then(|r| r.pointer("/result/protocolVersion"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let label = format!("initialize asking for {UNSUPPORTED_VERSION} (a new session)");
    let Some(version) = answered else {
        if let Some(code) = reply.as_ref().and_then(error_code) {
            caller.find(
                index,
                finding(
                    "unsupported-version-refused",
                    format!(
                        "{label}: got the error {code}; {lifecycle}: \"Otherwise, the server MUST respond with another protocol version it supports\", though the page's Error Handling shows an \"Unsupported protocol version\" error as an example; both readings exist, so strict"
                    ),
                ),
            );
        }
        return;
    };
    if version == UNSUPPORTED_VERSION {
        caller.find(
            index,
            finding(
                "unsupported-version-echoed",
                format!(
                    "{label}: the server answered {version}, which no MCP revision is; {lifecycle}: \"Otherwise, the server MUST respond with another protocol version it supports.\""
                ),
            ),
        );
        return;
    }
    let Some((echo_index, echo)) = fresh_initialize(caller, &version) else {
        return;
    };
    let echoed = echo
        .as_ref()
        .and_then(|r| r.pointer("/result/protocolVersion"))
        .and_then(Value::as_str);
    if echoed != Some(version.as_str()) {
        caller.find(
            echo_index,
            finding(
                "supported-version-not-echoed",
                format!(
                    "initialize asking for {version}, the version the server offered when asked for {UNSUPPORTED_VERSION}, got {}; {lifecycle}: \"If the server supports the requested protocol version, it MUST respond with the same version.\"",
                    echoed.map_or("no protocolVersion".to_owned(), str::to_owned)
                ),
            ),
        );
    }
}

/// Sends `initialize` asking for `version` in a new session, as a case of the run; its index
/// and the reply (`None` where the transport cannot open a session).
fn fresh_initialize(caller: &mut Caller<'_>, version: &str) -> Option<(usize, Option<Value>)> {
    let frame = initialize_frame(version);
    let exchange = caller.target.fresh_session(&frame)?;
    let label = format!("initialize asking for {version} (a new session)");
    let case = handshake_case(&label, INITIALIZE_ID, frame);
    let reply = reply_to(&exchange, INITIALIZE_ID);
    let index = caller.results.len();
    let early = super::lifecycle::judge_pre_initialized(&label, &exchange);
    caller.results.push((case, exchange));
    if let Some(early) = early {
        caller.find(index, early);
    }
    Some((index, reply))
}

/// `notifications/cancelled` of a request never sent, as a case of the run: like any
/// notification it gets no reply (a reply is `reply-to-notification`), and the session goes on
/// serving (the sentinel after it must be answered). MCP cancellation: "The receiver MAY ignore
/// the cancellation notification if ... The referenced request is unknown".
fn cancel_unknown(caller: &mut Caller<'_>) {
    let frame = json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": { "requestId": "mcpwire-never-sent", "reason": "mcpwire check" }
    })
    .to_string()
    .into_bytes();
    let expected = derive_expected(caller.facts, &frame, Methods::Known(&[]));
    caller.send(CheckCase {
        label: "notifications/cancelled of a request never sent".into(),
        frame,
        expected,
        generated: None,
        batch_reading: None,
        readings: Vec::new(),
    });
}

fn finding(kind: &str, message: String) -> Finding {
    Finding::new(kind, RuleId::Protocol, message)
}

fn error_code(reply: &Value) -> Option<i64> {
    reply.pointer("/error/code").and_then(Value::as_i64)
}

fn ping(caller: &mut Caller<'_>) {
    let (index, id) = caller.call(
        "protocol",
        "ping: an empty result".into(),
        "ping",
        Map::new(),
    );
    let Some(reply) = caller.reply(index, &id) else {
        return;
    };
    let wrong = match reply.get("result") {
        Some(Value::Object(result)) => {
            let extra: Vec<&str> = result
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "_meta")
                .collect();
            (!extra.is_empty()).then(|| format!("a result with {}", extra.join(", ")))
        }
        Some(other) => Some(format!("the result {other}")),
        None => Some(format!(
            "the error {}",
            reply.get("error").unwrap_or(&Value::Null)
        )),
    };
    if let Some(got) = wrong {
        caller.find(
            index,
            finding(
                "ping-result-not-empty",
                format!(
                    "ping got {got}; MCP ping: \"The receiver MUST respond promptly with an empty response\" ({{}})"
                ),
            ),
        );
    }
}

/// `logging/setLevel` ([`SET_LEVEL`](super::logging::SET_LEVEL)); the index of its case if the
/// server accepted it.
fn set_level(caller: &mut Caller<'_>, declared: bool) -> Option<usize> {
    let label = format!(
        "logging/setLevel (logging {})",
        if declared { "declared" } else { "not declared" }
    );
    let mut params = Map::new();
    params.insert("level".into(), json!(super::logging::SET_LEVEL));
    let (index, id) = caller.call("protocol", label.clone(), "logging/setLevel", params);
    let reply = caller.reply(index, &id)?;
    let code = error_code(&reply);
    let found = match (declared, code) {
        (true, Some(code)) => Some(finding(
            "logging-set-level-refused",
            format!(
                "{label}: got the error {code}; the server declared logging, which ServerCapabilities describes as \"Present if the server supports sending log messages to the client.\" (a description, no MUST: strict)"
            ),
        )),
        (false, code) if code != Some(-32601) => Some(finding(
            "undeclared-capability-answered",
            format!(
                "{label}: got {}; logging was not declared, so logging/setLevel is a method the server does not offer: -32601 (Method not found)",
                code.map_or("a result".to_owned(), |c| format!("the error {c}"))
            ),
        )),
        _ => None,
    };
    if let Some(found) = found {
        caller.find(index, found);
    }
    reply.get("result").map(|_| index)
}

fn subscriptions(caller: &mut Caller<'_>, lists: &Lists) {
    let uri = lists
        .get(RESOURCES)
        .and_then(|walk| walk.items.first())
        .and_then(|item| item.get("uri"))
        .and_then(Value::as_str)
        .unwrap_or("mcpwire-check://no-listed-resource")
        .to_owned();
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let mut params = Map::new();
        params.insert("uri".into(), json!(uri));
        let label = format!("{method} {uri} (resources.subscribe declared)");
        let (index, id) = caller.call("protocol", label.clone(), method, params);
        let refused = caller
            .reply(index, &id)
            .is_some_and(|reply| error_code(&reply) == Some(-32601));
        if refused {
            caller.find(
                index,
                finding(
                    "resource-subscribe-refused",
                    format!(
                        "{label}: got -32601 (\"The method does not exist / is not available\"); the server declared resources.subscribe, \"Whether this server supports subscribing to resource updates.\" (a description, no MUST: strict)"
                    ),
                ),
            );
        }
    }
}

/// `resources/read` of every listed resource (at most [`MAX_CALLS`]): an error is
/// `listed-resource-not-readable` (strict).
fn reads(caller: &mut Caller<'_>, lists: &Lists) {
    let uris: Vec<String> = lists
        .get(RESOURCES)
        .map_or(&[][..], |w| &w.items)
        .iter()
        .filter_map(|item| item.get("uri").and_then(Value::as_str).map(str::to_owned))
        .take(MAX_CALLS)
        .collect();
    for uri in uris {
        let mut params = Map::new();
        params.insert("uri".into(), json!(uri));
        let label = format!("resources/read {uri} (listed)");
        let (index, id) = caller.call("protocol", label.clone(), "resources/read", params);
        if let Some(code) = caller.reply(index, &id).as_ref().and_then(error_code) {
            caller.find(
                index,
                finding(
                    "listed-resource-not-readable",
                    format!(
                        "{label}: got the error {code}; MCP resources (2024-11-05 to 2026-07-28): \"To discover available resources, clients send a resources/list request\", \"To retrieve resource contents, clients send a resources/read request\" (no MUST makes a listed resource readable: strict)"
                    ),
                ),
            );
        }
    }
}

/// A URI no server lists.
pub const UNKNOWN_URI: &str = "mcpwire-check://no-such-resource";

/// `resources/read` of [`UNKNOWN_URI`]: the code the version's resources page names for
/// "Resource not found" (-32002 to 2025-11-25, -32602 from 2026-07-28), else
/// `unknown-resource-code` (strict: the page says SHOULD).
fn unknown_read(caller: &mut Caller<'_>) {
    let mut params = Map::new();
    params.insert("uri".into(), json!(UNKNOWN_URI));
    let label = format!("resources/read {UNKNOWN_URI} (never listed)");
    let (index, id) = caller.call("protocol", label.clone(), "resources/read", params);
    let Some(reply) = caller.reply(index, &id) else {
        return;
    };
    let version = caller.facts.protocol_version.unwrap_or_default();
    let want = if version >= "2026-07-28" {
        -32602
    } else {
        -32002
    };
    let got = match error_code(&reply) {
        Some(code) if code == want => return,
        Some(code) => format!("the error {code}"),
        None => "a result".to_owned(),
    };
    caller.find(
        index,
        finding(
            "unknown-resource-code",
            format!(
                "{label}: got {got}; MCP {version} resources, Error Handling: servers \"SHOULD return standard JSON-RPC errors\", \"Resource not found\": {want}"
            ),
        ),
    );
}

/// The variable names of an RFC 6570 template (`{a}`, `{+b,c*}`, `{?d:3}`).
///
/// ```
/// use mcpwire_cli::check::protocol::template_variables;
/// assert_eq!(template_variables("note:///{id}{?x,y*}"), ["id", "x", "y"]);
/// ```
pub fn template_variables(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    for expression in template.split('{').skip(1) {
        let Some(body) = expression.split('}').next() else {
            continue;
        };
        let body = body.trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for name in body.split(',') {
            let name = name.trim_end_matches('*');
            let name = name.split(':').next().unwrap_or_default();
            if !name.is_empty() && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

fn completions(caller: &mut Caller<'_>, lists: &Lists) {
    let mut asks: Vec<(String, Value, String)> = Vec::new();
    for prompt in lists.get(PROMPTS).map_or(&[][..], |w| &w.items) {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        for argument in prompt
            .get("arguments")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            if let Some(arg) = argument.get("name").and_then(Value::as_str) {
                let reference = json!({ "type": "ref/prompt", "name": name });
                asks.push((format!("prompt {name}"), reference, arg.to_owned()));
            }
        }
    }
    for template in lists.get(TEMPLATES).map_or(&[][..], |w| &w.items) {
        let Some(uri) = template.get("uriTemplate").and_then(Value::as_str) else {
            continue;
        };
        for variable in template_variables(uri) {
            let reference = json!({ "type": "ref/resource", "uri": uri });
            asks.push((format!("template {uri}"), reference, variable));
        }
    }
    // Where the schema states the limit as `maxItems` (2026-07-28 on), `reply-schema-invalid`
    // judges it; before, only the description says it.
    let described_only = caller
        .facts
        .protocol_version
        .is_some_and(|v| v <= "2025-11-25");
    for (what, reference, argument) in asks.into_iter().take(MAX_CALLS) {
        let label = format!("completion/complete {what} argument {argument}");
        let mut params = Map::new();
        params.insert("ref".into(), reference);
        params.insert("argument".into(), json!({ "name": argument, "value": "" }));
        let (index, id) = caller.call("protocol", label.clone(), "completion/complete", params);
        let Some(completion) = caller
            .reply(index, &id)
            .and_then(|r| r.pointer("/result/completion").cloned())
        else {
            continue;
        };
        for found in judge_completion(&label, &completion, described_only) {
            caller.find(index, found);
        }
    }
}

/// The findings of one `completion` object of a `CompleteResult`.
fn judge_completion(label: &str, completion: &Value, described_only: bool) -> Vec<Finding> {
    let mut found = Vec::new();
    let Some(count) = completion
        .get("values")
        .and_then(Value::as_array)
        .map(Vec::len)
    else {
        return found;
    };
    if described_only && count > 100 {
        found.push(finding(
            "completion-too-many-values",
            format!(
                "{label}: {count} values; CompleteResult.completion.values: \"An array of completion values. Must not exceed 100 items.\" (a description without maxItems: strict)"
            ),
        ));
    }
    let total = completion.get("total").and_then(Value::as_u64);
    let has_more = completion.get("hasMore").and_then(Value::as_bool);
    let count = count as u64;
    let contradiction = match (total, has_more) {
        (Some(total), _) if total < count => Some(format!(
            "total {total} is below the {count} values sent (\"The total number of completion options available\")"
        )),
        (Some(total), Some(false)) if total > count => Some(format!(
            "hasMore is false but total {total} exceeds the {count} values sent"
        )),
        (Some(total), Some(true)) if total == count => Some(format!(
            "hasMore is true but total {total} is the number of values sent"
        )),
        _ => None,
    };
    if let Some(why) = contradiction {
        found.push(finding(
            "completion-total-inconsistent",
            format!("{label}: {why} (descriptions without a MUST: strict)"),
        ));
    }
    found
}

/// One call of each listed tool with a progress token; each tool's name, arguments and how
/// long its call took. Each call is awaited for `--tool-timeout`, not `--timeout`: a tool may
/// take as long as its work does, and its progress is judged within its call's window.
fn progress(
    caller: &mut Caller<'_>,
    lists: &Lists,
    options: &ToolOptions,
) -> Vec<(String, Value, std::time::Duration)> {
    caller.target.set_timeout(options.timeout);
    let calls = progress_calls(caller, lists, options.seed);
    caller.target.set_timeout(options.case_timeout);
    calls
}

/// The calls of [`progress`].
fn progress_calls(
    caller: &mut Caller<'_>,
    lists: &Lists,
    seed: u64,
) -> Vec<(String, Value, std::time::Duration)> {
    let mut calls = Vec::new();
    let tools: Vec<Value> = lists
        .get(TOOLS)
        .map_or(&[][..], |w| &w.items)
        .iter()
        .take(MAX_CALLS)
        .cloned()
        .collect();
    for (n, tool) in tools.iter().enumerate() {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments = tool
            .get("inputSchema")
            .and_then(|schema| InputSchema::new(schema).ok())
            .and_then(|input| draw_valid(&input, seed, name))
            .unwrap_or_else(|| json!({}));
        let token = format!("mcpwire-progress-{}", n + 1);
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        params.insert("arguments".into(), arguments.clone());
        params.insert("_meta".into(), json!({ "progressToken": token }));
        let label = format!("tool {name}: called with progressToken {token}");
        let case = caller.request("protocol", label.clone(), "tools/call", params);
        let id = super::caller::request_id(&case);
        let started = std::time::Instant::now();
        let index = caller.send(case);
        calls.push((name.to_owned(), arguments, started.elapsed()));
        let exchange = &caller.results[index].1;
        let mut found = judge_progress(&label, &token, exchange);
        // outputSchema exists from 2025-06-18 on; before, nothing asks for structuredContent.
        let has_output_schema = caller
            .facts
            .protocol_version
            .is_some_and(|v| v >= "2025-06-18");
        if let (Some(reply), Some(output)) = (reply_to(exchange, &id), tool.get("outputSchema"))
            && has_output_schema
            && let Some(result) = reply.get("result")
            && result.get("isError").and_then(Value::as_bool) != Some(true)
            && let Ok(validator) = jsonschema::validator_for(output)
        {
            found.extend(structured_findings(name, result, &validator));
        }
        for finding in found {
            caller.find(index, finding);
        }
    }
    calls
}

/// The findings of the progress notifications seen while a call with `token` was answered.
fn judge_progress(label: &str, token: &str, exchange: &super::exchange::Exchange) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut last: Option<f64> = None;
    let (mut unknown, mut after, mut backwards, mut over) = (None, None, None, None);
    for server in &exchange.server_frames {
        let Ok(message) = serde_json::from_slice::<Value>(&server.frame) else {
            continue;
        };
        if message.get("method").and_then(Value::as_str) != Some("notifications/progress") {
            continue;
        }
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let named = params.get("progressToken").cloned().unwrap_or(Value::Null);
        if named != json!(token) {
            unknown.get_or_insert(named.to_string());
            continue;
        }
        if server.after_reply {
            after.get_or_insert(params.to_string());
        }
        let Some(value) = params.get("progress").and_then(Value::as_f64) else {
            continue;
        };
        if let Some(before) = last
            && value <= before
        {
            backwards.get_or_insert(format!("{before} then {value}"));
        }
        last = Some(value);
        if let Some(total) = params.get("total").and_then(Value::as_f64)
            && value > total
        {
            over.get_or_insert(format!("progress {value} of total {total}"));
        }
    }
    let page = "MCP progress";
    if let Some(named) = unknown {
        found.push(finding(
            "progress-token-unknown",
            format!(
                "{label}: a progress notification named the token {named}; {page}: \"Progress notifications MUST only reference tokens that: Were provided in an active request\""
            ),
        ));
    }
    if let Some(params) = after {
        found.push(finding(
            "progress-after-response",
            format!(
                "{label}: a progress notification ({params}) came after the response; {page}: tokens must be \"associated with an in-progress operation\" (MUST)"
            ),
        ));
    }
    if let Some(values) = backwards {
        found.push(finding(
            "progress-not-increasing",
            format!(
                "{label}: progress went {values}; {page}: \"The progress value MUST increase with each notification, even if the total is unknown.\""
            ),
        ));
    }
    if let Some(values) = over {
        found.push(finding(
            "progress-exceeds-total",
            format!(
                "{label}: {values}; total is the \"Total number of items to process (or total progress required), if known.\" (a description, no MUST: strict)"
            ),
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(found: &[Finding]) -> Vec<&str> {
        found.iter().map(|f| f.kind.as_str()).collect()
    }

    #[test]
    fn completion_results_are_judged_by_their_descriptions() {
        let many: Vec<String> = (0..150).map(|i| i.to_string()).collect();
        let over = json!({ "values": many, "total": 150, "hasMore": false });
        assert_eq!(
            kinds(&judge_completion("c", &over, true)),
            ["completion-too-many-values"]
        );
        // Where the schema has maxItems, the schema judges the count.
        assert!(judge_completion("c", &over, false).is_empty());
        let below = json!({ "values": ["a", "b"], "total": 1 });
        assert_eq!(
            kinds(&judge_completion("c", &below, true)),
            ["completion-total-inconsistent"]
        );
        let fine = json!({ "values": ["a"], "total": 5, "hasMore": true });
        assert!(judge_completion("c", &fine, true).is_empty());
    }
}
