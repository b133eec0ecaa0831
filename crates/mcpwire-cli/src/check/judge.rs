//! Judging one exchange: the wire rules (by `mcpwire-proptest`'s checker), the server's
//! liveness and, over HTTP, the status codes of the Streamable HTTP transport.

use mcpwire_proptest::findings::{Oracles, judge_replies};
use mcpwire_proptest::{Cause, Expected, Silence, Violation, ViolationKind};
use mcpwire_types::ProfileFacts;

use super::cases::CheckCase;
use super::exchange::{Exchange, Fault};
use super::exchange::{ReplyKey, reply_key};
use super::http_client::is_media;
use super::kinds::level_of;
use super::lenient::notification_or_response_shaped;

pub use super::finding::{Finding, RuleId};

/// The kebab-case name of a checker violation, e.g. `reply-to-notification`.
///
/// ```
/// use mcpwire_cli::check::judge::kind_name;
/// use mcpwire_proptest::ViolationKind;
/// assert_eq!(kind_name(ViolationKind::IdLostAlthoughRecoverable), "id-lost-although-recoverable");
/// ```
pub fn kind_name(kind: ViolationKind) -> String {
    let mut name = String::new();
    for (i, c) in format!("{kind:?}").chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                name.push('-');
            }
            name.push(c.to_ascii_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

/// The finding of a checker violation, its kind named by the shared table
/// ([`mcpwire_proptest::findings::kind_of`]).
/// Over HTTP, the stdio wording ("line") is replaced.
fn finding(violation: &Violation, http: bool) -> Finding {
    let rule = RuleId::of_rule(violation.rule());
    let kind = mcpwire_proptest::findings::kind_of(violation).to_owned();
    let message = match (http, violation) {
        (true, Violation::MoreThanOneReply { count }) => format!(
            "[{}] {count} JSON-RPC messages came back for one POSTed message; send exactly one response",
            violation.rule()
        ),
        (true, Violation::BatchRepliesAsLines { lines }) => format!(
            "[{}] a batch was answered with {lines} separate messages; answer a batch with one JSON array",
            violation.rule()
        ),
        (true, Violation::MissingReply { cause }) => format!(
            "[{}] {cause} got no JSON-RPC response in the HTTP response body; answer it",
            violation.rule()
        ),
        (true, Violation::UnreadableInputUnanswered { cause }) => format!(
            "[{}] {cause}, whose id cannot be read, got no JSON-RPC response in the HTTP response body; answer it with an error without an id",
            violation.rule()
        ),
        (true, Violation::ReplyToBlankLine) => format!(
            "[{}] a body of whitespace got a JSON-RPC reply",
            violation.rule()
        ),
        _ => violation.to_string(),
    };
    let severity = match violation {
        Violation::MissingReply {
            cause: Cause::Request,
        } => 2,
        Violation::MissingReply { .. } | Violation::UnreadableInputUnanswered { .. } => 1,
        _ => 0,
    };
    Finding {
        level: level_of(&kind),
        kind,
        rule,
        message,
        severity,
    }
}

fn cause_rule(cause: Cause) -> RuleId {
    rule_of(&Violation::MissingReply { cause })
}

/// The rule a violation breaks (rules are named through the checker's own violations, so the
/// table follows its rule numbering).
fn rule_of(violation: &Violation) -> RuleId {
    RuleId::of_rule(violation.rule())
}

/// The rules an input exercises, given its oracle: the rule that decides its outcome, and for
/// replies id recovery and the reply's shape; plus liveness, and HTTP over HTTP.
pub fn rules_exercised(expected: &Expected, http: bool, rules_out: &mut Vec<RuleId>) {
    match expected {
        Expected::NoReply(Silence::Notification) => {
            rules_out.push(rule_of(&Violation::ReplyToNotification))
        }
        Expected::NoReply(Silence::Response) => {
            rules_out.push(rule_of(&Violation::ReplyToResponse))
        }
        Expected::NoReply(Silence::BlankLine) => {
            rules_out.push(rule_of(&Violation::ReplyToBlankLine))
        }
        Expected::Reply(reply) | Expected::ReplyOptional(reply) => {
            rules_out.push(cause_rule(reply.cause));
            rules_out.push(rule_of(&Violation::FabricatedId { got: String::new() }));
            rules_out.push(rule_of(&Violation::DuplicateIdInReply));
        }
        Expected::Batch(elements) => {
            rules_out.push(rule_of(&Violation::BatchReplyNotArray));
            for element in elements {
                rules_out.push(rule_of(&Violation::BatchReplyNotArray));
                rules_exercised(element, false, rules_out);
            }
        }
    }
    rules_out.push(RuleId::Liveness);
    if http {
        rules_out.push(RuleId::Http);
    }
    rules_out.sort();
    rules_out.dedup();
}

/// Judges one exchange of `case` under `facts`: the wire rules on the replies (permitted
/// readings turned into strict findings), the fault if the exchange did not complete, and over
/// HTTP the transport's statuses.
pub fn judge(facts: &ProfileFacts, case: &CheckCase, exchange: &Exchange) -> Vec<Finding> {
    let flood = (exchange.server_messages > super::exchange::KEPT_SERVER_FRAMES).then(|| {
        Finding::new(
            "server-message-flood",
            RuleId::Liveness,
            format!(
                "{} server-initiated messages came while one case was open; the checker keeps the first {} and counts the rest",
                exchange.server_messages,
                super::exchange::KEPT_SERVER_FRAMES
            ),
        )
    });
    let mut findings = judge_exchange(facts, case, exchange);
    findings.extend(flood);
    findings
}

fn judge_exchange(facts: &ProfileFacts, case: &CheckCase, exchange: &Exchange) -> Vec<Finding> {
    if let Some(fault) = &exchange.fault {
        return vec![fault_finding(fault, exchange.http.is_some())];
    }
    if let Some(length) = exchange.too_long {
        return vec![Finding::new(
            "reply-too-long",
            RuleId::Liveness,
            format!(
                "a reply of {length} bytes or more exceeds the checker's limit of {} bytes; it was not judged",
                super::stdio::MAX_LINE
            ),
        )];
    }
    let expected = &case.expected;
    let http = exchange.http.as_ref();
    // Streamable HTTP: a notification or response the server does not accept is answered with
    // "an HTTP error status code" whose body "MAY comprise a JSON-RPC error response that has
    // no id": not a reply, so neither its code nor its spelling of "no id" is judged.
    let refused = http.is_some_and(|h| (400..600).contains(&h.status))
        && (!expected.may_reply() || notification_or_response_shaped(&case.frame))
        && exchange
            .replies
            .iter()
            .all(|r| reply_key(r) == ReplyKey::NoId);
    if refused {
        return Vec::new();
    }
    // The wire rules and the permitted readings, judged as `mcpwire-proptest` judges (several
    // frames for one input in one fixed order, by their bytes, so timing does not matter).
    let oracles = Oracles {
        expected,
        batch: case.batch_reading.as_ref(),
        readings: &case.readings,
    };
    let mut findings = judge_replies(facts, &case.frame, &oracles, &exchange.replies, &|v| {
        finding(v, http.is_some())
    });
    if let Some(http) = http {
        // A 202 (or 204) without a body is how the missing reply shows over HTTP (or, for a
        // notification read with absent params, the right answer): one finding per defect.
        let silent = empty_success(http.status) && http.body_len == 0;
        let explained = findings
            .iter()
            .any(|f| SILENCE_EXPLAINED.contains(&f.kind.as_str()));
        if !(silent && explained) {
            let routed = facts.protocol_version == Some(super::route_headers::ROUTED_VERSION);
            findings.extend(http_findings(expected, http, routed));
        }
    }
    findings
}

/// Kinds whose finding already says what a 202 (or 204) with no body means: the missing reply
/// (the status is its consequence, not a second defect), or a permitted reading under which no
/// reply is right (a notification with `"params":null`, an `rpc.` name or a duplicated member,
/// a batch of notifications, an input read otherwise).
const SILENCE_EXPLAINED: &[&str] = &[
    "missing-reply",
    "unreadable-input-unanswered",
    "params-null-accepted",
    "rpc-method-code",
    "duplicate-member-accepted",
    "batch-in-version-without-batches",
    "non-json-accepted",
    "params-array-accepted",
    "result-or-error-in-call-accepted",
];

fn fault_finding(fault: &Fault, http: bool) -> Finding {
    let kind = match fault {
        Fault::Exited { .. } => "server-exited",
        Fault::NoReply { .. } => "no-reply-within-timeout",
        Fault::Transport(_) => "transport-error",
    };
    let advice = match fault {
        Fault::Exited { .. } => "; invalid input must never end the server's read loop",
        Fault::NoReply { .. } if http => "; answer every POST within --timeout",
        Fault::NoReply { .. } => {
            "; answer every request and every invalid message, and never stop reading"
        }
        Fault::Transport(_) => "",
    };
    Finding::new(kind, RuleId::Liveness, format!("{fault}{advice}"))
}

/// Whether the status is 2xx but says "nothing follows" (202 Accepted, 204 No Content).
fn empty_success(status: u16) -> bool {
    status == 202 || status == 204
}

fn http_findings(
    expected: &Expected,
    http: &super::exchange::HttpMeta,
    routed: bool,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let status = http.status;
    let success = (200..300).contains(&status);
    let error_status = (400..600).contains(&status);
    let request = matches!(expected, Expected::Reply(reply) if reply.cause == Cause::Request)
        || matches!(expected, Expected::Batch(_) if expected.expects_output());
    if !expected.may_reply() {
        if status == 202 && http.body_len > 0 {
            findings.push(Finding::new(
                "http-body-on-202",
                RuleId::Http,
                format!(
                    "HTTP 202 Accepted came with a {}-byte body; send no body",
                    http.body_len
                ),
            ));
        } else if status != 202 && !error_status {
            findings.push(Finding::new(
                "http-status",
                RuleId::Http,
                format!(
                    "a POSTed notification or response was answered with HTTP {status}; the transport requires 202 Accepted with no body when it is accepted, or an HTTP error status (e.g. 400) when it is not"
                ),
            ));
        }
    } else if !expected.expects_output() && empty_success(status) && http.body_len == 0 {
        // Every reply the POST may get is optional (requests its own batch cancels) and
        // none came. 2025-03-26's transport says a POST holding a request MUST be answered
        // with a stream or a JSON body, and JSON-RPC 2.0 says a batch with no response to
        // give returns "nothing at all" (never `[]`): an empty stream meets both, and a 202
        // with nothing, which mcpwire sends, is the second reading. Neither is a finding.
    } else if !success && !error_status || request && empty_success(status) {
        findings.push(Finding::new(
            "http-status",
            RuleId::Http,
            format!(
                "the POST was answered with HTTP {status}; a POSTed request must be answered with its JSON-RPC response as application/json or text/event-stream"
            ),
        ));
    } else {
        // MCP 2026-07-28 answers an error reply to a request with 404 (-32601) or 400
        // (-32602, -32020 to -32022); the header cases judge which (`http_rules`).
        let usual: &[u16] = match (request, routed) {
            (true, false) => &[200],
            (true, true) => &[200, 400, 404],
            (false, _) => &[200, 400],
        };
        if !usual.contains(&status) {
            findings.push(Finding::new(
                "http-status-unusual",
                RuleId::Http,
                format!(
                    "the reply came with HTTP {status}; mcpwire sends {} (the transport names no status for it)",
                    if request { "200 OK for a request's reply" } else { "200 OK or 400 Bad Request for an error reply to unreadable input" }
                ),
            ));
        }
    }
    let typed = ["application/json", "text/event-stream"]
        .iter()
        .any(|m| is_media(http.content_type.as_deref(), m));
    if http.body_len > 0 && success && status != 202 && !typed {
        findings.push(Finding::new(
            "http-content-type",
            RuleId::Http,
            format!(
                "a reply body came with Content-Type {}; use application/json or text/event-stream",
                http.content_type.as_deref().unwrap_or("(none)")
            ),
        ));
    }
    findings
}

#[cfg(test)]
mod tests {
    use mcpwire_proptest::{Methods, derive_expected};
    use mcpwire_types::facts::MCP_2025_03_26;

    use super::super::exchange::HttpMeta;
    use super::*;

    /// A 2025-03-26 batch of a ping and a cancel naming it: the ping's reply is optional.
    const CANCELLED_IN_BATCH: &str = r#"[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}]"#;

    fn kinds_over_http(status: u16, replies: &[&str]) -> Vec<String> {
        let frame = CANCELLED_IN_BATCH.as_bytes().to_vec();
        let case = CheckCase {
            label: "cancelled in its batch".into(),
            expected: derive_expected(&MCP_2025_03_26, &frame, Methods::Unspecified),
            frame,
            generated: None,
            batch_reading: None,
            readings: Vec::new(),
        };
        let body: usize = replies.iter().map(|r| r.len()).sum();
        let exchange = Exchange {
            replies: replies.iter().map(|r| r.as_bytes().to_vec()).collect(),
            http: Some(HttpMeta {
                status,
                content_type: (body > 0).then(|| "application/json".into()),
                body_len: body,
            }),
            ..Exchange::default()
        };
        judge(&MCP_2025_03_26, &case, &exchange)
            .into_iter()
            .map(|f| f.kind)
            .collect()
    }

    #[test]
    fn a_batch_whose_one_request_is_cancelled_may_be_answered_or_not() {
        let answered = r#"[{"jsonrpc":"2.0","id":"a","result":{}}]"#;
        assert_eq!(kinds_over_http(200, &[answered]), Vec::<String>::new());
        assert_eq!(kinds_over_http(202, &[]), Vec::<String>::new());
    }

    #[test]
    fn a_batch_whose_one_request_is_cancelled_still_holds_a_request() {
        // Not a POST of notifications alone: a refusal without an id is judged, not excused.
        let refused = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}"#;
        assert_ne!(kinds_over_http(400, &[refused]), Vec::<String>::new());
    }
}
