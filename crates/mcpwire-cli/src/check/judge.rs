//! Judging one exchange: the wire rules (by `mcpwire-proptest`'s checker), the server's
//! liveness and, over HTTP, the status codes of the Streamable HTTP transport.

use std::fmt;

use mcpwire_proptest::{
    Cause, Expected, ReplyId, Silence, Violation, ViolationKind, check_expected,
};
use mcpwire_types::ProfileFacts;

use super::exchange::{Exchange, Fault};
use super::http_client::is_media;

/// A rule a case is checked against, as shown in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleId {
    /// A rule of docs/wire-rules.md, by number and name.
    Wire(u8, &'static str),
    /// The server stays up and answers every input (invalid input never kills the loop).
    Liveness,
    /// The HTTP status and body of the Streamable HTTP transport.
    Http,
}

impl RuleId {
    fn of(rule: mcpwire_proptest::Rule) -> RuleId {
        RuleId::Wire(rule.number, rule.name)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleId::Wire(number, name) => write!(f, "wire rule {number} ({name})"),
            RuleId::Liveness => f.write_str("server liveness"),
            RuleId::Http => f.write_str("HTTP transport"),
        }
    }
}

/// One broken rule in one exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// A stable kebab-case name, e.g. `id-lost-although-recoverable`, `server-exited`,
    /// `http-status`; the names `--expect-failures` lists.
    pub kind: String,
    /// The rule broken.
    pub rule: RuleId,
    /// What is wrong and what to fix.
    pub message: String,
}

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

fn finding(violation: &Violation) -> Finding {
    Finding {
        kind: kind_name(violation.kind()),
        rule: RuleId::of(violation.rule()),
        message: violation.to_string(),
    }
}

fn cause_rule(cause: Cause) -> RuleId {
    rule_of(&Violation::MissingReply { cause })
}

/// The rule a violation breaks (rules are named through the checker's own violations, so the
/// table follows its rule numbering).
fn rule_of(violation: &Violation) -> RuleId {
    RuleId::of(violation.rule())
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
        Expected::Reply(reply) => {
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

/// Judges one exchange against the case's oracle under `facts`.
pub fn judge(facts: &ProfileFacts, expected: &Expected, exchange: &Exchange) -> Vec<Finding> {
    if let Some(fault) = &exchange.fault {
        return vec![fault_finding(fault)];
    }
    let replies: Vec<&[u8]> = exchange.replies.iter().map(Vec::as_slice).collect();
    let mut findings: Vec<Finding> = match check_expected(facts, expected, &replies) {
        Ok(()) => Vec::new(),
        Err(violations) => violations.iter().map(finding).collect(),
    };
    if let Some(http) = &exchange.http {
        findings.extend(http_findings(expected, http));
    }
    findings
}

fn fault_finding(fault: &Fault) -> Finding {
    let kind = match fault {
        Fault::Exited { .. } => "server-exited",
        Fault::NoReply { .. } => "no-reply-within-timeout",
        Fault::Transport(_) => "transport-error",
    };
    let advice = match fault {
        Fault::Exited { .. } => "; invalid input must never end the server's read loop",
        Fault::NoReply { .. } => {
            "; answer every request and every invalid message, and never stop reading"
        }
        Fault::Transport(_) => "",
    };
    Finding {
        kind: kind.into(),
        rule: RuleId::Liveness,
        message: format!("{fault}{advice}"),
    }
}

/// What the HTTP status must be for an input with this oracle.
fn allowed_statuses(expected: &Expected) -> (&'static [u16], &'static str) {
    if !expected.expects_output() {
        return (
            &[202],
            "202 Accepted with an empty body (the input holds only notifications and responses)",
        );
    }
    match expected {
        Expected::Reply(reply) if reply.cause == Cause::Request => (
            &[200],
            "200 OK with the reply as application/json or text/event-stream (the input is a request)",
        ),
        Expected::Reply(reply) if matches!(reply.id, ReplyId::Echo(_)) => (
            &[200, 400],
            "200 OK (or 400 Bad Request) with the error reply",
        ),
        Expected::Batch(_) => (&[200], "200 OK with the batch reply"),
        _ => (
            &[200, 400],
            "400 Bad Request (or 200 OK) with the error reply that has no id",
        ),
    }
}

fn http_findings(expected: &Expected, http: &super::exchange::HttpMeta) -> Vec<Finding> {
    let mut findings = Vec::new();
    let (allowed, wanted) = allowed_statuses(expected);
    if !allowed.contains(&http.status) {
        findings.push(Finding {
            kind: "http-status".into(),
            rule: RuleId::Http,
            message: format!(
                "the POST was answered with HTTP {}; the transport requires {wanted}",
                http.status
            ),
        });
    } else if http.status == 202 && http.body_len > 0 {
        findings.push(Finding {
            kind: "http-body-on-202".into(),
            rule: RuleId::Http,
            message: format!(
                "HTTP 202 Accepted came with a {}-byte body; send no body",
                http.body_len
            ),
        });
    }
    let typed = ["application/json", "text/event-stream"]
        .iter()
        .any(|m| is_media(http.content_type.as_deref(), m));
    if http.body_len > 0 && http.status != 202 && !typed {
        findings.push(Finding {
            kind: "http-content-type".into(),
            rule: RuleId::Http,
            message: format!(
                "a reply body came with Content-Type {}; use application/json or text/event-stream",
                http.content_type.as_deref().unwrap_or("(none)")
            ),
        });
    }
    findings
}
