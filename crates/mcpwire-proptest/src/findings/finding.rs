//! One structured finding (kind, level, rule, message) and the judging of one exchange.

use std::fmt;

use mcpwire_types::ProfileFacts;

use super::id_value::same_value;
use super::readings::{Judged, relevel};
use super::table::{Level, level_of};
use crate::check::check_expected;
use crate::expected::Expected;
use crate::violation::{Rule, Violation};

/// One thing wrong with the replies to one input, as `mcpwire check` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The kind's name from [`KINDS`](super::KINDS), e.g. `id-value-changed`.
    pub kind: &'static str,
    /// Whether it breaks a MUST ([`Level::Violation`]) or only mcpwire's stricter policy.
    pub level: Level,
    /// The rule of docs/wire-rules.md it is judged under.
    pub rule: Rule,
    /// What is wrong and what to fix.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.kind, self.level, self.message)
    }
}

impl Judged for Finding {
    type RuleRef = Rule;

    fn kind(&self) -> &str {
        self.kind
    }

    fn rule(&self) -> Rule {
        self.rule
    }

    fn strict(kind: &'static str, rule: Rule, why: &'static str) -> Finding {
        Finding {
            kind,
            level: Level::Strict,
            rule,
            message: format!("[{rule}] {why}"),
        }
    }

    fn of_violation(violation: &Violation) -> Finding {
        let kind = kind_of(violation);
        Finding {
            kind,
            level: level_of(kind),
            rule: violation.rule(),
            message: violation.to_string(),
        }
    }
}

/// The kind of a checker violation. A changed id is split by value: the same JSON value spelt
/// otherwise (`1e3` → `1000`) is `id-spelling-changed` (strict), anything else
/// `id-value-changed`.
///
/// ```
/// use mcpwire_proptest::{Violation, findings::kind_of};
/// let rounded = Violation::IdTypeOrPrecisionChanged {
///     expected: "9007199254740993".into(),
///     got: "9007199254740992".into(),
/// };
/// assert_eq!(kind_of(&rounded), "id-value-changed");
/// let respelt = Violation::IdTypeOrPrecisionChanged { expected: "1e3".into(), got: "1000".into() };
/// assert_eq!(kind_of(&respelt), "id-spelling-changed");
/// ```
pub fn kind_of(violation: &Violation) -> &'static str {
    use Violation as V;
    match violation {
        V::IdTypeOrPrecisionChanged { expected, got } if same_value(expected, got) => {
            "id-spelling-changed"
        }
        V::IdTypeOrPrecisionChanged { .. } => "id-value-changed",
        V::ReplyNotOneLine { .. } => "reply-not-one-line",
        V::ReplyNotJson { .. } => "reply-not-json",
        V::ReplyNotAnObject { .. } => "reply-not-an-object",
        V::MoreThanOneReply { .. } => "more-than-one-reply",
        V::JsonrpcMissingOrWrong { .. } => "jsonrpc-missing-or-wrong",
        V::ResultAndErrorNotExclusive { .. } => "result-and-error-not-exclusive",
        V::ErrorObjectMalformed { .. } => "error-object-malformed",
        V::UnexpectedCode { .. } => "unexpected-code",
        V::IdNotEchoed { .. } => "id-not-echoed",
        V::IdLostAlthoughRecoverable { .. } => "id-lost-although-recoverable",
        V::FabricatedId { .. } => "fabricated-id",
        V::NoIdSpelledWrong { .. } => "no-id-spelled-wrong",
        V::DuplicateIdInReply => "duplicate-id-in-reply",
        V::ReplyToNotification => "reply-to-notification",
        V::ReplyToResponse => "reply-to-response",
        V::ReplyToBlankLine => "reply-to-blank-line",
        V::MissingReply { .. } => "missing-reply",
        V::BatchRepliesAsLines { .. } => "batch-replies-as-lines",
        V::BatchReplyNotArray => "batch-reply-not-array",
        V::ArrayReplyToSingleMessage => "array-reply-to-single-message",
        V::BatchCountMismatch { .. } => "batch-count-mismatch",
        V::ReplyToBatchWithoutRequests => "reply-to-batch-without-requests",
    }
}

/// The findings of one exchange under `profile`: the reply frames a server wrote for `frame`
/// (whose oracle is `expected`) checked against the wire rules, each violation named by kind
/// and level, then the permitted readings applied ([`relevel`]). Empty when the replies are
/// right.
pub fn judge(
    profile: &ProfileFacts,
    frame: &[u8],
    expected: &Expected,
    replies: &[Vec<u8>],
) -> Vec<Finding> {
    let frames: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
    let mut findings: Vec<Finding> = match check_expected(profile, expected, &frames) {
        Ok(()) => return Vec::new(),
        Err(violations) => violations.iter().map(Finding::of_violation).collect(),
    };
    relevel(profile, frame, expected, replies, &mut findings);
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::KINDS;

    /// Every violation the checker names is a kind of the table, at the level docs/check.md
    /// gives it.
    #[test]
    fn every_violation_names_a_kind_of_the_table() {
        let strict = [
            "duplicate-id-in-reply",
            "reply-to-blank-line",
            "batch-replies-as-lines",
        ];
        for violation in [
            Violation::DuplicateIdInReply,
            Violation::ReplyToBlankLine,
            Violation::BatchRepliesAsLines { lines: 2 },
            Violation::BatchReplyNotArray,
            Violation::ReplyToNotification,
            Violation::ArrayReplyToSingleMessage,
        ] {
            let kind = kind_of(&violation);
            let info = KINDS.iter().find(|k| k.name == kind).expect(kind);
            let want = if strict.contains(&kind) || kind == "batch-reply-not-array" {
                Level::Strict
            } else {
                Level::Violation
            };
            assert_eq!(info.level, want, "{kind}");
        }
    }
}
