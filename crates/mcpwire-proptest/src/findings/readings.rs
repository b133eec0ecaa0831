//! Findings the specs permit: a reply that differs from mcpwire's stricter policy only in a way
//! JSON-RPC 2.0 or RFC 8259 allows (a duplicated member read last-wins, a refused big id, a
//! depth limit, a lenient parser) is one *strict* finding instead of violations. Both
//! [`judge`](super::judge) and `mcpwire check` apply these readings, through [`Judged`].

use mcpwire_types::ProfileFacts;

use super::id_value::{is_big_integer, related};
use super::table::Level;
use crate::check::check_expected;
use crate::expected::{Cause, Expected, ExpectedReply, ReplyId, Silence};
use crate::json::{Frame, JsonKind, Member, object_members, read_frame, unescape};
use crate::methods::Methods;
use crate::model::derive_expected;
use crate::violation::Violation;

/// A finding as a judge keeps it: what the permitted readings need to read and write.
/// Implemented by [`Finding`](super::Finding) and by `mcpwire check`'s own finding (whose rules
/// also name liveness and HTTP).
pub trait Judged: Sized {
    /// How the finding names its rule.
    type RuleRef: Copy;
    /// The finding's kind (a name of [`KINDS`](super::KINDS)).
    fn kind(&self) -> &str;
    /// The rule it breaks.
    fn rule(&self) -> Self::RuleRef;
    /// Its level.
    fn level(&self) -> Level;
    /// A strict finding of `kind` under `rule`, explained by `why`.
    fn strict(kind: &'static str, rule: Self::RuleRef, why: &str) -> Self;
    /// The finding of a checker violation.
    fn of_violation(violation: &Violation) -> Self;
}

/// Nesting deeper than this is beyond common parser limits (serde_json refuses 128).
pub const DEEP: usize = 128;
/// Inputs larger than this may meet a server's size limit (RFC 8259 §9).
pub const LARGE: usize = 100 << 10;

/// The kinds a permitted reading of the input can explain: what the reply's code and id say.
/// (`id-spelling-changed` is itself permitted: it stays beside the reading's finding.)
const EXPLAINABLE: &[&str] = &[
    "unexpected-code",
    "id-not-echoed",
    "id-value-changed",
    "id-lost-although-recoverable",
    "fabricated-id",
    "forbidden-id-echoed",
];

/// The kinds of a reply to input that needs none, which a reading that answers it explains.
const ANSWERED: &[&str] = &["reply-to-notification", "reply-to-response"];

/// The UTF-8 byte order mark.
pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

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

/// The one reply to an input, read; `None` when there were none or several, or it is not a
/// JSON object.
fn sole_reply(replies: &[Vec<u8>]) -> Option<Reply> {
    match replies {
        [reply] => read_reply(reply),
        _ => None,
    }
}

/// Reads one reply frame: its id, whether it is an error and which one.
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
pub(super) struct Input<'a> {
    bom: bool,
    /// The members of the top-level object (none when the input is no object).
    pub(super) members: Vec<Member<'a>>,
}

impl Input<'_> {
    /// The members named `key`.
    pub(super) fn all(&self, key: &str) -> Vec<&Member<'_>> {
        self.members.iter().filter(|m| m.key == key).collect()
    }
    fn duplicated(&self) -> bool {
        ["jsonrpc", "id", "method", "params", "result", "error"]
            .iter()
            .any(|key| self.all(key).len() > 1)
    }
}

/// The input's members, read past a leading byte order mark.
pub(super) fn input(frame: &[u8]) -> Input<'_> {
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
/// use mcpwire_proptest::findings::notification_or_response_shaped;
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
pub fn relevel<F: Judged>(
    facts: &ProfileFacts,
    frame: &[u8],
    expected: &Expected,
    replies: &[Vec<u8>],
    findings: &mut Vec<F>,
) {
    if bom_refused(facts, frame, replies, findings) {
        return;
    }
    if !matches!(expected, Expected::Reply(_)) && limit_refused(facts, frame, replies, findings) {
        return;
    }
    let want = match expected {
        Expected::NoReply(Silence::Response) => {
            return malformed_response_answered(frame, replies, findings);
        }
        Expected::Reply(want) => want,
        _ => return,
    };
    if replies.is_empty() {
        return notification_under_a_reading(facts, frame, findings);
    }
    let Some(reply) = sole_reply(replies) else {
        return;
    };
    if want.cause == Cause::ParseError && !reply.parse_error {
        return non_json_answered(facts, frame, &reply, findings);
    }
    let explained: Vec<&F> = findings
        .iter()
        .filter(|f| EXPLAINABLE.contains(&f.kind()))
        .collect();
    let Some(first) = explained.first() else {
        return;
    };
    let rule = first.rule();
    let only = |kinds: &[&str]| explained.iter().all(|f| kinds.contains(&f.kind()));
    let Some((kind, why)) = permitted(frame, want, &reply, &only) else {
        return;
    };
    findings.retain(|f| !EXPLAINABLE.contains(&f.kind()));
    findings.push(F::strict(kind, rule, why));
    spell_no_id(facts, &reply, findings);
}

/// Input that is not JSON answered other than -32700: the code is what a lenient parser's
/// reading gives (`non-json-accepted`), but the id is judged on its own: an id no lenient
/// reader could find in the input (`"server-error"`, `0`) stays `fabricated-id`.
fn non_json_answered<F: Judged>(
    facts: &ProfileFacts,
    frame: &[u8],
    reply: &Reply,
    findings: &mut Vec<F>,
) {
    let Some(rule) = findings
        .iter()
        .find(|f| EXPLAINABLE.contains(&f.kind()))
        .map(|f| f.rule())
    else {
        return;
    };
    let id_found = match &reply.id {
        None => true,
        Some(got) => id_candidates(frame).iter().any(|c| related(c, got)),
    };
    findings.retain(|f| {
        !(f.kind() == "unexpected-code" || id_found && EXPLAINABLE.contains(&f.kind()))
    });
    findings.push(F::strict(
        "non-json-accepted",
        rule,
        "input that is not JSON was read by a lenient parser and answered as if it were (RFC 8259 §9 permits it; mcpwire answers -32700 without an id)",
    ));
    if reply.id.is_none() {
        spell_no_id(facts, reply, findings);
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

/// Under a reading that leaves the reply without an id, it must still spell "no id" as the
/// version does (`"id":null` where the schema requires the member, omitted where it forbids
/// null): `no-id-spelled-wrong` beside the strict finding otherwise.
fn spell_no_id<F: Judged>(facts: &ProfileFacts, reply: &Reply, findings: &mut Vec<F>) {
    let spelt_wrong = if facts.error_response_requires_id {
        reply.id.is_none() && !reply.id_null
    } else {
        reply.id_null
    };
    if reply.error && spelt_wrong && !findings.iter().any(|f| f.kind() == "no-id-spelled-wrong") {
        let violation = Violation::NoIdSpelledWrong {
            null_required: facts.error_response_requires_id,
        };
        findings.push(F::of_violation(&violation));
    }
}

/// The input's text without its members named in `keys` (the others as they were).
pub(super) fn without(members: &[Member<'_>], keys: &[&str]) -> Vec<u8> {
    let kept: Vec<String> = members
        .iter()
        .filter(|m| !keys.contains(&m.key.as_str()))
        .map(|m| format!("{}:{}", serde_json::Value::from(m.key.as_str()), m.value))
        .collect();
    format!("{{{}}}", kept.join(",")).into_bytes()
}

/// The input's text with its `method` renamed to a plain name (the others as they were).
fn renamed(members: &[Member<'_>]) -> Vec<u8> {
    let kept: Vec<String> = members
        .iter()
        .map(|m| {
            let value = if m.key == "method" { "\"m\"" } else { m.value };
            format!("{}:{value}", serde_json::Value::from(m.key.as_str()))
        })
        .collect();
    format!("{{{}}}", kept.join(",")).into_bytes()
}

/// The input's text with each duplicated envelope member read once: its first value when
/// `last` is false, else its last (the others as they were).
fn one_of_each(members: &[Member<'_>], last: bool) -> Vec<u8> {
    let keep = |i: usize, m: &Member<'_>| {
        let same = |o: &Member<'_>| o.key == m.key;
        if last {
            !members[i + 1..].iter().any(same)
        } else {
            !members[..i].iter().any(same)
        }
    };
    let kept: Vec<String> = members
        .iter()
        .enumerate()
        .filter(|&(i, m)| keep(i, m))
        .map(|(_, m)| format!("{}:{}", serde_json::Value::from(m.key.as_str()), m.value))
        .collect();
    format!("{{{}}}", kept.join(",")).into_bytes()
}

/// An input that got no reply although one was owed, where a permitted reading makes it a valid
/// notification, which gets none: `"params":null` read as absent params
/// (`params-null-accepted`), or a duplicated member read first- or last-wins
/// (`duplicate-member-accepted`). One strict finding instead of `missing-reply` (over HTTP, the
/// 202 that says so is then right too).
fn notification_under_a_reading<F: Judged>(
    facts: &ProfileFacts,
    frame: &[u8],
    findings: &mut Vec<F>,
) {
    let input = input(frame);
    let unanswered = |kind: &str| kind == "missing-reply" || kind == "unreadable-input-unanswered";
    let Some(missing) = findings.iter().find(|f| unanswered(f.kind())) else {
        return;
    };
    if findings.iter().any(|f| !unanswered(f.kind())) {
        return;
    }
    let notification = |text: &[u8]| {
        derive_expected(facts, text, Methods::Known(&[]))
            == Expected::NoReply(Silence::Notification)
    };
    let null_params = matches!(input.all("params").as_slice(), [p] if p.value == "null");
    let method = input.all("method");
    let rpc = matches!(method.as_slice(), [m] if m.kind == JsonKind::String && unescape(m.value).starts_with("rpc."));
    let reading = if rpc && notification(&renamed(&input.members)) {
        Some((
            "rpc-method-code",
            "a notification of an rpc.-prefixed method got no reply: read as a notification of a method the server lacks it gets none (JSON-RPC 2.0 §4 reserves the names but prescribes no code; mcpwire answers -32600 without an id)",
        ))
    } else if null_params && notification(&without(&input.members, &["params"])) {
        Some((
            "params-null-accepted",
            "a notification with \"params\":null got no reply: read as absent params it is a valid notification, which gets none (mcpwire answers -32600 without an id: JSON-RPC 2.0 §4.2 wants a Structured value)",
        ))
    } else if input.duplicated()
        && [false, true]
            .iter()
            .any(|&last| notification(&one_of_each(&input.members, last)))
    {
        Some((
            "duplicate-member-accepted",
            "a message with a duplicated member got no reply: read with one of the duplicated values it is a valid notification, which gets none (RFC 8259 §4: behaviour with duplicate names is unpredictable; mcpwire answers -32600 without an id)",
        ))
    } else {
        None
    };
    if let Some((kind, why)) = reading {
        let rule = missing.rule();
        findings.clear();
        findings.push(F::strict(kind, rule, why));
    }
}

/// Input nested deeper than [`DEEP`] or larger than [`LARGE`] that needs no reply (a
/// notification, a response) answered with one error without an id: the server's depth or size
/// limit refused it before it could be read (RFC 8259 §9 permits both). One strict finding.
fn limit_refused<F: Judged>(
    facts: &ProfileFacts,
    frame: &[u8],
    replies: &[Vec<u8>],
    findings: &mut Vec<F>,
) -> bool {
    let Some(reply) = sole_reply(replies).filter(|r| r.error && r.id.is_none()) else {
        return false;
    };
    let only_answered = findings.iter().all(|f| ANSWERED.contains(&f.kind()));
    let (Some(first), true) = (findings.first(), only_answered) else {
        return false;
    };
    let (kind, why) = if depth(frame) > DEEP {
        (
            "nesting-limit",
            "input nested deeper than 128 levels was refused with an error (RFC 8259 §9 permits a depth limit; mcpwire reads any depth)",
        )
    } else if frame.len() > LARGE {
        (
            "size-limit",
            "an input over 100 KiB was refused with an error (RFC 8259 §9 permits a limit on the size of texts; mcpwire answers inputs of any size)",
        )
    } else {
        return false;
    };
    let rule = first.rule();
    findings.clear();
    findings.push(F::strict(kind, rule, why));
    spell_no_id(facts, &reply, findings);
    true
}

/// An input with a leading byte order mark answered with one -32700 without an id: refusing the
/// BOM as not JSON (RFC 8259 §8.1 permits it) explains that reply, whatever follows the BOM
/// (a request, a notification, a response). One strict finding instead of the violations; the
/// reply must still spell "no id" as the version does.
fn bom_refused<F: Judged>(
    facts: &ProfileFacts,
    frame: &[u8],
    replies: &[Vec<u8>],
    findings: &mut Vec<F>,
) -> bool {
    let Some(reply) = sole_reply(replies).filter(|r| r.error && r.parse_error && r.id.is_none())
    else {
        return false;
    };
    let explained = |f: &F| EXPLAINABLE.contains(&f.kind()) || ANSWERED.contains(&f.kind());
    let Some(first) = findings.iter().find(|f| explained(f)) else {
        return false;
    };
    if !frame.starts_with(BOM) {
        return false;
    }
    let rule = first.rule();
    findings.retain(|f| !explained(f));
    findings.push(F::strict(
        "leading-bom-refused",
        rule,
        "the input starts with a byte order mark and was refused as not JSON (-32700 without an id); RFC 8259 §8.1 lets a parser treat it as an error (mcpwire skips it)",
    ));
    spell_no_id(facts, &reply, findings);
    true
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
///
/// ```
/// use mcpwire_proptest::findings::is_malformed_response;
/// assert!(is_malformed_response(br#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#));
/// assert!(!is_malformed_response(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
/// ```
pub fn is_malformed_response(frame: &[u8]) -> bool {
    malformed_response(&input(frame))
}

/// A malformed response answered with an id-less -32600: what JSON-RPC 2.0 prescribes for an
/// invalid Request object; mcpwire drops it (wire rule 8). Strict, not `reply-to-response`.
fn malformed_response_answered<F: Judged>(
    frame: &[u8],
    replies: &[Vec<u8>],
    findings: &mut Vec<F>,
) {
    let Some(reply) = sole_reply(replies) else {
        return;
    };
    let Some(answered) = findings.iter().find(|f| f.kind() == "reply-to-response") else {
        return;
    };
    let invalid_request = reply.error && reply.invalid_request && reply.id.is_none();
    if invalid_request && findings.len() == 1 && malformed_response(&input(frame)) {
        let rule = answered.rule();
        findings.clear();
        findings.push(F::strict(
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

/// Where the version has no batches, a top-level array answered exactly as JSON-RPC 2.0
/// answers a batch (each request with its own reply and id, nothing for notifications; in one
/// array or as separate messages, which are judged as if gathered into one array; within it,
/// only differences the specs permit) is one strict finding, `batch-in-version-without-batches`.
/// Any other answer keeps the findings it has. `batch` is the array's oracle under the version's
/// rules with batches allowed ([`batch_oracle`]).
pub fn run_as_batch<F: Judged>(
    facts: &ProfileFacts,
    batch: &Expected,
    replies: &[&[u8]],
    findings: &mut Vec<F>,
) {
    if findings.is_empty() {
        return;
    }
    let with_batches = ProfileFacts {
        batches: true,
        ..*facts
    };
    let gathered: Vec<u8> = match replies {
        [] => Vec::new(),
        [one] if one.trim_ascii_start().starts_with(b"[") => one.to_vec(),
        many => [&b"["[..], &many.join(&b","[..]), b"]"].concat(),
    };
    let gathered: Vec<&[u8]> = if gathered.is_empty() {
        Vec::new()
    } else {
        vec![&gathered]
    };
    let as_batch = match check_expected(&with_batches, batch, &gathered) {
        Ok(()) => true,
        // Differences the specs permit within the batch (an id spelt otherwise) stay strict.
        Err(violations) => violations
            .iter()
            .all(|v| F::of_violation(v).level() == Level::Strict),
    };
    if as_batch {
        let rule = F::of_violation(&Violation::BatchReplyNotArray).rule();
        findings.clear();
        findings.push(F::strict(
            "batch-in-version-without-batches",
            rule,
            &format!(
                "a top-level array was answered as JSON-RPC 2.0 answers a batch (each request with its own reply and id, nothing for notifications); MCP {} has no batches (mcpwire answers the array with one -32600 without an id)",
                facts.protocol_version.unwrap_or(facts.name)
            ),
        ));
    }
}

/// Where the version has no batches, the oracle of a top-level array run as a JSON-RPC 2.0
/// batch under the version's other rules (`None` for anything else).
pub fn batch_oracle(facts: &ProfileFacts, frame: &[u8], methods: Methods<'_>) -> Option<Expected> {
    if facts.batches {
        return None;
    }
    let with_batches = ProfileFacts {
        batches: true,
        ..*facts
    };
    match derive_expected(&with_batches, frame, methods) {
        batch @ Expected::Batch(_) => Some(batch),
        _ => None,
    }
}
