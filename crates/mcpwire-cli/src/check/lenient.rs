//! Findings the specs permit: a reply that differs from mcpwire's stricter policy only in a way
//! JSON-RPC 2.0 or RFC 8259 allows (a duplicated member read last-wins, a refused big id, a
//! depth limit, a lenient parser) is one *strict* finding instead of violations. Where the
//! input has a whole other reading that JSON-RPC 2.0 or RFC 8259 permits (bytes that are not
//! UTF-8 decoded leniently, `params` by position, a request with `result`/`error` members),
//! each part of the reply (its presence, its code, its id) that is right under that reading is
//! excused, and what is wrong under both readings stays a violation ([`apply_readings`]).

use mcpwire_proptest::json::{Frame, JsonKind, Member, object_members, read_frame, unescape};
use mcpwire_proptest::{
    Cause, Expected, ExpectedReply, Methods, ReplyId, Silence, Violation, derive_expected,
};
use mcpwire_types::ProfileFacts;

use super::ids::{is_big_integer, related};
use super::judge::{Finding, RuleId};
use super::kinds::Level;

/// A reading of an input that JSON-RPC 2.0 or RFC 8259 permits where the MCP schema of the
/// version (or mcpwire's policy) is stricter: the strict kind a server that reads the input
/// so is reported under, and what such a server sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The strict kind (from [`super::kinds::KINDS`]).
    pub kind: &'static str,
    /// The oracle under the reading.
    pub expected: Expected,
}

/// The permitted readings of `frame` under `facts` (none for most inputs):
///
/// - bytes that are not UTF-8, decoded with U+FFFD for each bad sequence (RFC 8259 §9: a
///   parser "MAY accept non-JSON forms or extensions"), when that gives JSON:
///   `non-json-accepted`;
/// - `params` given as an array where the MCP schema types it as an object (JSON-RPC 2.0
///   §4.2: "by-position through an Array"): `params-array-accepted`;
/// - a call that also carries `result` or `error`, read as the call (JSON-RPC 2.0 §4 lists
///   the members of a Request object and forbids no others; the MCP schema's `JSONRPCRequest`
///   does not set `additionalProperties: false`): `result-or-error-in-call-accepted`.
pub fn readings(facts: &ProfileFacts, frame: &[u8], methods: Methods<'_>) -> Vec<Reading> {
    let mut out = Vec::new();
    let body = frame.strip_prefix(BOM).unwrap_or(frame);
    if std::str::from_utf8(body).is_err() {
        let decoded = String::from_utf8_lossy(body).into_owned().into_bytes();
        let expected = derive_expected(facts, &decoded, methods);
        let parse_error = matches!(&expected, Expected::Reply(r) if r.cause == Cause::ParseError);
        if !parse_error {
            out.push(Reading {
                kind: "non-json-accepted",
                expected,
            });
        }
        return out;
    }
    let input = input(frame);
    let params = input.all("params");
    if !facts.params_types.array && matches!(params.as_slice(), [p] if p.kind == JsonKind::Array) {
        let by_position = ProfileFacts {
            params_types: mcpwire_types::ParamsTypes {
                array: true,
                ..facts.params_types
            },
            ..*facts
        };
        out.push(Reading {
            kind: "params-array-accepted",
            expected: derive_expected(&by_position, frame, methods),
        });
    }
    let call = !input.all("method").is_empty();
    if call && !(input.all("result").is_empty() && input.all("error").is_empty()) {
        out.push(Reading {
            kind: "result-or-error-in-call-accepted",
            expected: derive_expected(
                facts,
                &without(&input.members, &["result", "error"]),
                methods,
            ),
        });
    }
    out
}

/// Which part of a reply a finding is about: whether a reply came at all, its code, its id.
/// Findings about anything else (its shape: `jsonrpc`, the error object, one line) do not
/// depend on how the input is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Aspect {
    Presence,
    Code,
    Id,
}

fn aspect(kind: &str) -> Option<Aspect> {
    match kind {
        "missing-reply"
        | "more-than-one-reply"
        | "reply-to-notification"
        | "reply-to-response"
        | "reply-to-blank-line"
        | "reply-to-batch-without-requests"
        | "batch-count-mismatch"
        | "array-reply-to-single-message"
        | "batch-replies-as-lines"
        | "batch-reply-not-array" => Some(Aspect::Presence),
        "unexpected-code" => Some(Aspect::Code),
        "id-not-echoed"
        | "id-value-changed"
        | "id-spelling-changed"
        | "id-lost-although-recoverable"
        | "fabricated-id"
        | "no-id-spelled-wrong" => Some(Aspect::Id),
        _ => None,
    }
}

/// Applies the permitted readings of the input: a violation about a part of the reply that is
/// right under a reading is replaced by the reading's strict finding; a part that is wrong
/// under every reading keeps its violation, named as the stricter reading names it.
/// `judge_under` gives the findings of the replies under an oracle.
pub fn apply_readings(
    readings: &[Reading],
    judge_under: &dyn Fn(&Expected) -> Vec<Finding>,
    findings: &mut Vec<Finding>,
) {
    for reading in readings {
        let wrong: Vec<Aspect> = judge_under(&reading.expected)
            .iter()
            .filter(|f| f.level == Level::Violation)
            .filter_map(|f| aspect(&f.kind))
            .collect();
        let excused = |f: &Finding| {
            f.level == Level::Violation && aspect(&f.kind).is_some_and(|a| !wrong.contains(&a))
        };
        let Some(first) = findings.iter().find(|f| excused(f)) else {
            continue;
        };
        let rule = first.rule;
        findings.retain(|f| !excused(f));
        if !findings.iter().any(|f| f.kind == reading.kind) {
            findings.push(strict(reading.kind, rule, reading_why(reading.kind)));
        }
    }
}

fn reading_why(kind: &str) -> &'static str {
    match kind {
        "non-json-accepted" => {
            "bytes that are not UTF-8 were decoded leniently and the message was answered as decoded (RFC 8259 §9 permits a parser to accept non-JSON forms; mcpwire answers -32700 without an id)"
        }
        "params-array-accepted" => {
            "params given by position (an array) were read as JSON-RPC 2.0 §4.2 reads them; the MCP schema of the version types params as an object (mcpwire answers -32600)"
        }
        _ => {
            "a call that also carries result or error was read as the call: JSON-RPC 2.0 §4 and the MCP schema's JSONRPCRequest forbid no other members (mcpwire answers -32600)"
        }
    }
}

/// The id texts a lenient reader could find in input that is not JSON: the `id` members of
/// the input decoded with U+FFFD when that is JSON, else every `"id"` key's value token.
fn id_candidates(frame: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(frame.strip_prefix(BOM).unwrap_or(frame)).into_owned();
    if let Frame::Value {
        text: object,
        kind: JsonKind::Object,
    } = read_frame(text.as_bytes())
    {
        return object_members(object)
            .iter()
            .filter(|m| m.key == "id")
            .map(|m| m.value.to_owned())
            .collect();
    }
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("\"id\"") {
        rest = &rest[at + 4..];
        let Some(value) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let value = value.trim_start();
        let end = if value.starts_with('"') {
            let mut escaped = false;
            value
                .char_indices()
                .skip(1)
                .find(|&(_, c)| {
                    let close = c == '"' && !escaped;
                    escaped = c == '\\' && !escaped;
                    close
                })
                .map_or(value.len(), |(i, _)| i + 1)
        } else {
            value
                .find([',', '}', ']', ' ', '\t', '\r', '\n'])
                .unwrap_or(value.len())
        };
        if end > 0 {
            out.push(value[..end].to_owned());
        }
    }
    out
}

/// Nesting deeper than this is beyond common parser limits (serde_json refuses 128).
pub const DEEP: usize = 128;
/// Inputs larger than this may meet a server's size limit (RFC 8259 §9).
pub const LARGE: usize = 100 << 10;

/// The kinds a permitted reading of the input can explain: what the reply's code and id say.
const EXPLAINABLE: &[&str] = &[
    "unexpected-code",
    "id-not-echoed",
    "id-value-changed",
    "id-spelling-changed",
    "id-lost-although-recoverable",
    "fabricated-id",
];

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The first reply's error code (`Some(None)` for a result) and id text (`None` when omitted or
/// null), when it is one JSON object.
struct Reply {
    error: bool,
    /// An error with code -32700.
    parse_error: bool,
    /// An error with code -32600.
    invalid_request: bool,
    /// The error's code, when it is an integer.
    code: Option<i64>,
    id: Option<String>,
    /// The id member is present and `null`.
    id_null: bool,
}

fn read_reply(frame: &[u8]) -> Option<Reply> {
    let Frame::Value {
        text,
        kind: JsonKind::Object,
    } = read_frame(frame)
    else {
        return None;
    };
    let members = object_members(text);
    let id_member = members.iter().find(|m| m.key == "id").map(|m| m.value);
    let id_null = id_member == Some("null");
    let id = id_member.filter(|id| *id != "null").map(str::to_owned);
    let error_member = members
        .iter()
        .find(|m| m.key == "error" && m.kind == JsonKind::Object);
    let error = error_member.is_some() && !members.iter().any(|m| m.key == "result");
    let code_is = |code: &str| {
        error_member.is_some_and(|e| {
            object_members(e.value)
                .iter()
                .any(|m| m.key == "code" && m.value == code)
        })
    };
    let parse_error = code_is("-32700");
    let invalid_request = code_is("-32600");
    let code = error_member.and_then(|e| {
        object_members(e.value)
            .iter()
            .find(|m| m.key == "code")
            .and_then(|m| m.value.parse().ok())
    });
    Some(Reply {
        error,
        parse_error,
        invalid_request,
        code,
        id,
        id_null,
    })
}

/// The greatest nesting depth of brackets outside strings.
fn depth(frame: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in frame {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// What the input is, as far as the permitted readings care.
struct Input<'a> {
    bom: bool,
    members: Vec<Member<'a>>,
}

impl Input<'_> {
    fn all(&self, key: &str) -> Vec<&Member<'_>> {
        self.members.iter().filter(|m| m.key == key).collect()
    }
    fn duplicated(&self) -> bool {
        ["jsonrpc", "id", "method", "params", "result", "error"]
            .iter()
            .any(|key| self.all(key).len() > 1)
    }
}

fn input(frame: &[u8]) -> Input<'_> {
    let bom = frame.starts_with(BOM);
    let body = frame.strip_prefix(BOM).unwrap_or(frame);
    let members = match read_frame(body) {
        Frame::Value {
            text,
            kind: JsonKind::Object,
        } => object_members(text),
        _ => Vec::new(),
    };
    Input { bom, members }
}

/// Whether the input is, by its shape, what Streamable HTTP calls a notification or a
/// response: an object with `method` and no `id` member, or with `result` or `error` and no
/// `method`. A server that does not accept one answers "an HTTP error status code" whose body
/// "MAY comprise a JSON-RPC error response that has no id".
///
/// ```
/// use mcpwire_cli::check::lenient::notification_or_response_shaped;
/// assert!(notification_or_response_shaped(br#"{"jsonrpc":"1.0","method":"x","params":null}"#));
/// assert!(notification_or_response_shaped(br#"{"jsonrpc":"2.0","id":9,"result":{}}"#));
/// assert!(!notification_or_response_shaped(br#"{"jsonrpc":"2.0","id":9,"method":"x"}"#));
/// assert!(!notification_or_response_shaped(b"[1]"));
/// ```
pub fn notification_or_response_shaped(frame: &[u8]) -> bool {
    let input = input(frame);
    let has = |key: &str| !input.all(key).is_empty();
    if has("method") {
        !has("id")
    } else {
        has("result") || has("error")
    }
}

/// Replaces the explainable findings of one exchange by one strict finding when a permitted
/// reading of the input explains them; see docs/check.md ("strict kinds").
pub fn relevel(
    facts: &ProfileFacts,
    frame: &[u8],
    expected: &Expected,
    replies: &[Vec<u8>],
    findings: &mut Vec<Finding>,
) {
    let want = match expected {
        Expected::NoReply(Silence::Response) => {
            return malformed_response_answered(frame, replies, findings);
        }
        Expected::Reply(want) => want,
        _ => return,
    };
    if replies.is_empty() {
        return null_params_notification_dropped(facts, frame, findings);
    }
    let [reply] = replies else {
        return;
    };
    let Some(reply) = read_reply(reply) else {
        return;
    };
    if want.cause == Cause::ParseError && !reply.parse_error {
        return non_json_answered(facts, frame, &reply, findings);
    }
    let explained: Vec<&Finding> = findings
        .iter()
        .filter(|f| EXPLAINABLE.contains(&f.kind.as_str()))
        .collect();
    let Some(first) = explained.first() else {
        return;
    };
    let rule = first.rule;
    let only = |kinds: &[&str]| explained.iter().all(|f| kinds.contains(&f.kind.as_str()));
    let Some((kind, why)) = permitted(frame, want, &reply, &only) else {
        return;
    };
    findings.retain(|f| !EXPLAINABLE.contains(&f.kind.as_str()));
    findings.push(strict(kind, rule, why));
    no_id_spelling(facts, &reply, findings);
}

/// Input that is not JSON answered other than -32700: the code is what a lenient parser's
/// reading gives (`non-json-accepted`), but the id is judged on its own: an id no lenient
/// reader could find in the input (`"server-error"`, `0`) stays `fabricated-id`.
fn non_json_answered(
    facts: &ProfileFacts,
    frame: &[u8],
    reply: &Reply,
    findings: &mut Vec<Finding>,
) {
    let Some(rule) = findings
        .iter()
        .find(|f| EXPLAINABLE.contains(&f.kind.as_str()))
        .map(|f| f.rule)
    else {
        return;
    };
    let id_found = match &reply.id {
        None => true,
        Some(got) => id_candidates(frame).iter().any(|c| related(c, got)),
    };
    findings.retain(|f| {
        !(f.kind == "unexpected-code" || id_found && EXPLAINABLE.contains(&f.kind.as_str()))
    });
    findings.push(strict(
        "non-json-accepted",
        rule,
        "input that is not JSON was read by a lenient parser and answered as if it were (RFC 8259 §9 permits it; mcpwire answers -32700 without an id)",
    ));
    if reply.id.is_none() {
        no_id_spelling(facts, reply, findings);
    }
}

/// Under a reading the reply carries no id: it must still spell "no id" as the version does
/// ("id":null where the schema requires the member, omitted where it forbids null).
fn no_id_spelling(facts: &ProfileFacts, reply: &Reply, findings: &mut Vec<Finding>) {
    let spelt_wrong = if facts.error_response_requires_id {
        reply.id.is_none() && !reply.id_null
    } else {
        reply.id_null
    };
    if reply.error && spelt_wrong && !findings.iter().any(|f| f.kind == "no-id-spelled-wrong") {
        let violation = Violation::NoIdSpelledWrong {
            null_required: facts.error_response_requires_id,
        };
        findings.push(Finding::new(
            "no-id-spelled-wrong",
            RuleId::of_rule(violation.rule()),
            violation.to_string(),
        ));
    }
}

fn strict(kind: &str, rule: RuleId, why: &str) -> Finding {
    Finding {
        kind: kind.into(),
        level: Level::Strict,
        rule,
        message: why.into(),
        severity: 0,
    }
}

/// The input's text without its members named in `keys` (the others as they were).
fn without(members: &[Member<'_>], keys: &[&str]) -> Vec<u8> {
    let kept: Vec<String> = members
        .iter()
        .filter(|m| !keys.contains(&m.key.as_str()))
        .map(|m| format!("{}:{}", serde_json::Value::from(m.key.as_str()), m.value))
        .collect();
    format!("{{{}}}", kept.join(",")).into_bytes()
}

/// A notification with `"params":null` that got no reply: read as absent params it is a valid
/// notification, and a notification gets no reply. One strict finding instead of
/// `missing-reply` (over HTTP, the 202 that says so is then right too).
fn null_params_notification_dropped(
    facts: &ProfileFacts,
    frame: &[u8],
    findings: &mut Vec<Finding>,
) {
    let input = input(frame);
    let null_params = matches!(input.all("params").as_slice(), [p] if p.value == "null");
    let Some(missing) = findings.iter().find(|f| f.kind == "missing-reply") else {
        return;
    };
    if !null_params || findings.iter().any(|f| f.kind != "missing-reply") {
        return;
    }
    let read_as_absent = without(&input.members, &["params"]);
    let notification = derive_expected(facts, &read_as_absent, Methods::Known(&[]))
        == Expected::NoReply(Silence::Notification);
    if notification {
        let rule = missing.rule;
        findings.clear();
        findings.push(strict(
            "params-null-accepted",
            rule,
            "a notification with \"params\":null got no reply: read as absent params it is a valid notification, which gets none (mcpwire answers -32600 without an id: JSON-RPC 2.0 §4.2 wants a Structured value)",
        ));
    }
}

/// Whether the object is response-shaped (no `method`; `result` or `error`) but not a
/// well-formed response: `jsonrpc` other than `"2.0"`, both or duplicated `result`/`error`,
/// an error that is not an object with an integer code and a string message.
fn malformed_response(input: &Input<'_>) -> bool {
    let results = input.all("result").len();
    let errors = input.all("error");
    if !input.all("method").is_empty() || results + errors.len() == 0 {
        return false;
    }
    let jsonrpc_ok = matches!(input.all("jsonrpc").as_slice(), [j] if j.kind == JsonKind::String && unescape(j.value) == "2.0");
    let error_ok = errors.iter().all(|e| {
        e.kind == JsonKind::Object && {
            let members = object_members(e.value);
            let code = members
                .iter()
                .filter(|m| m.key == "code")
                .collect::<Vec<_>>();
            let message = members
                .iter()
                .filter(|m| m.key == "message")
                .collect::<Vec<_>>();
            matches!(code.as_slice(), [c] if c.value.parse::<i64>().is_ok())
                && matches!(message.as_slice(), [m] if m.kind == JsonKind::String)
        }
    });
    !(jsonrpc_ok && results + errors.len() == 1 && error_ok && input.all("id").len() == 1)
}

/// Whether the frame is a malformed response (see docs/check.md,
/// `reply-to-malformed-response`): mcpwire leaves it unanswered, JSON-RPC 2.0's reading of an
/// invalid Request object answers it, so its reply is awaited like an owed one.
pub fn is_malformed_response(frame: &[u8]) -> bool {
    malformed_response(&input(frame))
}

/// A malformed response answered with an id-less -32600: what JSON-RPC 2.0 prescribes for an
/// invalid Request object; mcpwire drops it (wire rule 8). Strict, not `reply-to-response`.
fn malformed_response_answered(frame: &[u8], replies: &[Vec<u8>], findings: &mut Vec<Finding>) {
    let [reply] = replies else {
        return;
    };
    let Some(reply) = read_reply(reply) else {
        return;
    };
    let Some(answered) = findings.iter().find(|f| f.kind == "reply-to-response") else {
        return;
    };
    let invalid_request = reply.error && reply.invalid_request && reply.id.is_none();
    if invalid_request && findings.len() == 1 && malformed_response(&input(frame)) {
        let rule = answered.rule;
        findings.clear();
        findings.push(strict(
            "reply-to-malformed-response",
            rule,
            "a malformed response (neither a valid request nor a valid response) was answered -32600 without an id, as JSON-RPC 2.0 answers an invalid Request object; mcpwire drops it unanswered (wire rule 8)",
        ));
    }
}

fn permitted(
    frame: &[u8],
    want: &ExpectedReply,
    reply: &Reply,
    only: &dyn Fn(&[&str]) -> bool,
) -> Option<(&'static str, &'static str)> {
    let input = input(frame);
    let echoed_or_none = |reply: &Reply| match (&want.id, &reply.id) {
        (_, None) => true,
        (ReplyId::Echo(sent), Some(got)) => sent == got,
        (ReplyId::Absent, Some(_)) => false,
    };
    // Refusing the BOM is a parse error, so no id can be known. Any other reply is judged as
    // the input without the BOM would be (the oracle is derived without it).
    if input.bom && reply.error && reply.parse_error && reply.id.is_none() {
        return Some((
            "leading-bom-refused",
            "the input starts with a byte order mark and was refused as not JSON (-32700 without an id); RFC 8259 §8.1 lets a parser treat it as an error (mcpwire skips it)",
        ));
    }
    // Accepted: answered as the message holding one of the duplicated values would be: a
    // result or an error that is neither -32700 (the input is valid JSON) nor -32600 (that is
    // refusing the duplicate, judged as such), with one of the input's ids (none if it has none).
    if input.duplicated() && !reply.parse_error && !reply.invalid_request {
        let ids: Vec<&str> = input.all("id").iter().map(|m| m.value).collect();
        let fits = match reply.id.as_deref() {
            Some(got) => ids.contains(&got),
            None => ids.is_empty(),
        };
        if fits {
            return Some((
                "duplicate-member-accepted",
                "an envelope member appears twice and the server read one of them (RFC 8259 §4: behaviour with duplicate names is unpredictable; mcpwire answers -32600 without an id)",
            ));
        }
    }
    let method = input.all("method");
    let rpc = matches!(method.as_slice(), [m] if m.kind == JsonKind::String && unescape(m.value).starts_with("rpc."));
    // The input is valid JSON: -32700 is wrong whatever the reading.
    if rpc && reply.error && !reply.parse_error && only(&["unexpected-code"]) {
        return Some((
            "rpc-method-code",
            "an rpc.-prefixed method got an error other than -32600 (JSON-RPC 2.0 §4 reserves the names but prescribes no code)",
        ));
    }
    let params_null = matches!(input.all("params").as_slice(), [p] if p.value == "null");
    // Read as absent: answered as a valid request would be (a result, or an error that is
    // neither -32700 nor -32600).
    let as_valid = !reply.parse_error && !reply.invalid_request;
    if params_null && as_valid && only(&["unexpected-code"]) {
        return Some((
            "params-null-accepted",
            "\"params\":null was read as absent params (mcpwire answers -32600: JSON-RPC 2.0 §4.2 wants a Structured value)",
        ));
    }
    let refusal_kinds = ["unexpected-code", "id-lost-although-recoverable"];
    if depth(frame) > DEEP && reply.error && echoed_or_none(reply) && only(&refusal_kinds) {
        return Some((
            "nesting-limit",
            "input nested deeper than 128 levels was refused with an error (RFC 8259 §9 permits a depth limit; mcpwire recovers the id at any depth)",
        ));
    }
    if frame.len() > LARGE && reply.error && echoed_or_none(reply) && only(&refusal_kinds) {
        return Some((
            "size-limit",
            "an input over 100 KiB was refused with an error (RFC 8259 §9 permits a limit on the size of texts; mcpwire answers inputs of any size)",
        ));
    }
    // Refusing the big id leaves no id to echo (an id that came back was not refused), with
    // the refusal's code (-32600, or -32700 from a parser's number limit) or a code that fits
    // the input anyway; any other difference is judged as for a small id.
    let big = matches!(&want.id, ReplyId::Echo(id) if is_big_integer(id));
    let refusal_code =
        reply.invalid_request || reply.parse_error || want.outcome.allows(reply.code);
    if big && reply.error && reply.id.is_none() && refusal_code && only(&refusal_kinds) {
        return Some((
            "big-id-refused",
            "an integer id beyond 2^53 was refused with an error (RFC 8259 §6 permits limits on numbers; mcpwire echoes any integer)",
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::judge::RuleId;
    use mcpwire_proptest::{Outcome, codes};
    use mcpwire_types::facts::MCP_2025_11_25;

    /// The oracle of `frame` as the checker derives it (`ping` known).
    fn oracle(frame: &str) -> Expected {
        derive_expected(&MCP_2025_11_25, frame.as_bytes(), Methods::Known(&["ping"]))
    }

    fn finding(kind: &str) -> Finding {
        Finding {
            kind: kind.into(),
            level: Level::Violation,
            rule: RuleId::Wire(4, "id recovery"),
            message: String::new(),
            severity: 0,
        }
    }

    fn reply(id: Option<&str>, cause: Cause, outcome: Outcome) -> Expected {
        Expected::Reply(ExpectedReply {
            id: id.map_or(ReplyId::Absent, |id| ReplyId::Echo(id.into())),
            outcome,
            cause,
        })
    }

    fn relevelled(frame: &str, expected: &Expected, got: &str, kinds: &[&str]) -> Vec<String> {
        let mut findings: Vec<Finding> = kinds.iter().map(|k| finding(k)).collect();
        let replies: Vec<Vec<u8>> = [got]
            .iter()
            .filter(|g| !g.is_empty())
            .map(|g| g.as_bytes().to_vec())
            .collect();
        relevel(
            &MCP_2025_11_25,
            frame.as_bytes(),
            expected,
            &replies,
            &mut findings,
        );
        findings.into_iter().map(|f| f.kind).collect()
    }

    #[test]
    fn a_refused_big_id_is_strict_but_a_rounded_one_is_not() {
        let expected = reply(
            Some("9007199254740993"),
            Cause::Request,
            Outcome::ResultOrErrorExcept(vec![]),
        );
        let frame = r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#;
        let refused = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            relevelled(
                frame,
                &expected,
                refused,
                &["unexpected-code", "id-lost-although-recoverable"]
            ),
            ["big-id-refused"]
        );
        let rounded = r#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#;
        assert_eq!(
            relevelled(frame, &expected, rounded, &["id-value-changed"]),
            ["id-value-changed"]
        );
    }

    #[test]
    fn duplicates_read_last_wins_are_strict() {
        let expected = reply(
            None,
            Cause::UnreadableId,
            Outcome::Error(vec![codes::INVALID_REQUEST]),
        );
        let frame = r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#;
        let got = r#"{"jsonrpc":"2.0","id":2,"result":{}}"#;
        assert_eq!(
            relevelled(frame, &expected, got, &["unexpected-code", "fabricated-id"]),
            ["duplicate-member-accepted"]
        );
        let invented = r#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
        assert_eq!(
            relevelled(
                frame,
                &expected,
                invented,
                &["unexpected-code", "fabricated-id"]
            ),
            ["unexpected-code", "fabricated-id"]
        );
    }

    #[test]
    fn deep_input_refused_is_strict_and_a_lost_reply_shape_is_kept() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","p":{}{},"id":3,"method":"x"}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let expected = reply(
            Some("3"),
            Cause::Request,
            Outcome::Error(vec![codes::METHOD_NOT_FOUND]),
        );
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#;
        let mut findings = vec![
            finding("unexpected-code"),
            finding("id-lost-although-recoverable"),
            finding("jsonrpc-missing-or-wrong"),
        ];
        relevel(
            &MCP_2025_11_25,
            deep.as_bytes(),
            &expected,
            &[got.as_bytes().to_vec()],
            &mut findings,
        );
        let kinds: Vec<&str> = findings.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["jsonrpc-missing-or-wrong", "nesting-limit"]);
        assert_eq!(findings[1].level, Level::Strict);
    }

    #[test]
    fn a_large_input_refused_is_strict() {
        let frame = format!(
            r#"{{"jsonrpc":"2.0","id":4,"method":"ping","huge":"{}"}}"#,
            "h".repeat(LARGE)
        );
        let expected = reply(
            Some("4"),
            Cause::Request,
            Outcome::ResultOrErrorExcept(vec![]),
        );
        let refused = r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"too large"}}"#;
        assert_eq!(
            relevelled(&frame, &expected, refused, &["unexpected-code"]),
            ["size-limit"]
        );
        let small = r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#;
        assert_eq!(
            relevelled(small, &expected, refused, &["unexpected-code"]),
            ["unexpected-code"]
        );
    }

    #[test]
    fn rpc_codes_params_null_and_bom() {
        let expected = reply(
            Some("5"),
            Cause::InvalidCall,
            Outcome::Error(vec![codes::INVALID_REQUEST]),
        );
        let got = r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"m"}}"#;
        let frame = r#"{"jsonrpc":"2.0","id":5,"method":"rpc.ping"}"#;
        assert_eq!(
            relevelled(frame, &expected, got, &["unexpected-code"]),
            ["rpc-method-code"]
        );
        let frame = r#"{"jsonrpc":"2.0","id":5,"method":"ping","params":null}"#;
        let result = r#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
        assert_eq!(
            relevelled(frame, &expected, result, &["unexpected-code"]),
            ["params-null-accepted"]
        );
        let parse = r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32700,"message":"m"}}"#;
        assert_eq!(
            relevelled(frame, &expected, parse, &["unexpected-code"]),
            ["unexpected-code"]
        );
        let frame = "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}";
        let expected = reply(
            Some("5"),
            Cause::Request,
            Outcome::ResultOrErrorExcept(vec![]),
        );
        let parse = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#;
        assert_eq!(
            relevelled(
                frame,
                &expected,
                parse,
                &["unexpected-code", "id-lost-although-recoverable"]
            ),
            ["leading-bom-refused"]
        );
    }

    #[test]
    fn a_null_params_notification_left_unanswered_is_strict() {
        for frame in [
            r#"{"jsonrpc":"2.0","method":"ping","params":null}"#,
            r#"{"jsonrpc":"2.0","method":"uar/hwrre","params":null}"#,
        ] {
            assert_eq!(
                relevelled(frame, &oracle(frame), "", &["missing-reply"]),
                ["params-null-accepted"],
                "{frame}"
            );
        }
        // Invalid for another reason too: no reading makes it a notification.
        let frame = r#"{"jsonrpc":"1.0","method":"ping","params":null}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), "", &["missing-reply"]),
            ["missing-reply"]
        );
    }

    #[test]
    fn a_big_id_excuses_only_what_refusing_it_explains() {
        // (a) the id came back exactly: not refused; -32602 for an unknown method stays.
        let frame = r#"{"jsonrpc":"2.0","id":-9007199254740993,"method":"\u0070ing "}"#;
        let echoed =
            r#"{"jsonrpc":"2.0","id":-9007199254740993,"error":{"code":-32602,"message":"m"}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), echoed, &["unexpected-code"]),
            ["unexpected-code"]
        );
        // (b) the id was lost with a code that fits neither the refusal nor the input.
        let frame = r#"{"jsonrpc":"2","id":-9007199254740993,"method":"ping"}"#;
        let lost = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"m"}}"#;
        let kinds = ["unexpected-code", "id-lost-although-recoverable"];
        assert_eq!(relevelled(frame, &oracle(frame), lost, &kinds), kinds);
        // Refused: -32600 without the id is explained by refusing it.
        let refused = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            relevelled(
                frame,
                &oracle(frame),
                refused,
                &["id-lost-although-recoverable"]
            ),
            ["big-id-refused"]
        );
    }

    #[test]
    fn a_bom_excuses_only_a_parse_error_without_id() {
        // rmcp answers the id 1e16 the same with and without the BOM: judged as without it.
        let frame = "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1e16,\"method\":\"\"}";
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;
        let kinds = ["unexpected-code", "id-lost-although-recoverable"];
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &kinds),
            ["big-id-refused"]
        );
        let frame = "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"\"}";
        let got = r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &["unexpected-code"]),
            ["unexpected-code"]
        );
    }

    #[test]
    fn a_refused_duplicate_is_judged_as_refused() {
        // The unique id "a" is readable: -32600 must echo it (wire rules 4 and 6).
        let frame = r#"{"jsonrpc":"2.0","id":"a","method":"","method":"ping"}"#;
        let expected = oracle(frame);
        assert!(matches!(&expected, Expected::Reply(r) if r.id == ReplyId::Echo("\"a\"".into())));
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;
        assert_eq!(
            relevelled(frame, &expected, got, &["id-lost-although-recoverable"]),
            ["id-lost-although-recoverable"]
        );
        // -32700 for valid JSON fits no last-wins reading.
        let frame = r#"{"jsonrpc":"2.0","id":{"id":1},"method":"ping","id":{"id":1}}"#;
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"},"id":null}"#;
        let kinds = ["unexpected-code", "no-id-spelled-wrong"];
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &kinds),
            ["unexpected-code", "no-id-spelled-wrong"]
        );
        // Read last-wins and answered: strict.
        let got = r#"{"jsonrpc":"2.0","id":"a","result":{}}"#;
        let frame = r#"{"jsonrpc":"2.0","id":"a","method":"","method":"ping"}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &["unexpected-code"]),
            ["duplicate-member-accepted"]
        );
    }

    #[test]
    fn a_malformed_response_answered_as_an_invalid_request_is_strict() {
        let frame = r#"{"jsonrpc":"2.0","id":97,"result":{},"error":{"code":1,"message":"m"}}"#;
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &["reply-to-response"]),
            ["reply-to-malformed-response"]
        );
        // A well-formed response answered is still a violation.
        let frame = r#"{"jsonrpc":"2.0","id":99,"result":{}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &["reply-to-response"]),
            ["reply-to-response"]
        );
        // So is any other answer to the malformed one.
        let frame = r#"{"jsonrpc":"2.0","id":97,"result":{},"error":{"code":1,"message":"m"}}"#;
        let with_id = r#"{"jsonrpc":"2.0","id":97,"error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), with_id, &["reply-to-response"]),
            ["reply-to-response"]
        );
    }

    #[test]
    fn a_reading_without_an_id_still_wants_the_versions_spelling_of_no_id() {
        // 2025-11-25 omits the id of an error it cannot tie to a request: "id":null is wrong
        // even where refusing the big id explains the rest.
        let frame = r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#;
        let got = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"},"id":null}"#;
        let kinds = ["unexpected-code", "id-lost-although-recoverable"];
        assert_eq!(
            relevelled(frame, &oracle(frame), got, &kinds),
            ["big-id-refused", "no-id-spelled-wrong"]
        );
        let omitted = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#;
        assert_eq!(
            relevelled(frame, &oracle(frame), omitted, &kinds),
            ["big-id-refused"]
        );
    }
}
