//! One structured finding (kind, level, rule, message) and the judging of one exchange.

use std::fmt;

use mcpwire_types::ProfileFacts;

use super::id_value::same_value;
use super::input_readings::{Reading, apply_readings, readings};
use super::readings::{Judged, batch_oracle, relevel, run_as_batch};
use super::table::{Level, level_of};
use crate::check::{check_expected, name_echoed_ids};
use crate::expected::Expected;
use crate::methods::Methods;
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

    fn level(&self) -> Level {
        self.level
    }

    fn strict(kind: &'static str, rule: Rule, why: &str) -> Finding {
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
        V::ForbiddenIdEchoed { .. } => "forbidden-id-echoed",
        V::NoIdSpelledWrong { .. } => "no-id-spelled-wrong",
        V::DuplicateIdInReply => "duplicate-id-in-reply",
        V::ReplyToNotification => "reply-to-notification",
        V::ReplyToResponse => "reply-to-response",
        V::ReplyToBlankLine => "reply-to-blank-line",
        V::MissingReply { .. } => "missing-reply",
        V::UnreadableInputUnanswered { .. } => "unreadable-input-unanswered",
        V::BatchRepliesAsLines { .. } => "batch-replies-as-lines",
        V::BatchReplyNotArray => "batch-reply-not-array",
        V::ArrayReplyToSingleMessage => "array-reply-to-single-message",
        V::BatchCountMismatch { .. } => "batch-count-mismatch",
        V::ReplyToBatchWithoutRequests => "reply-to-batch-without-requests",
    }
}

/// The findings of one exchange under `profile`: the reply frames a server wrote for `frame`
/// (whose oracle is `expected`; `methods` are the server's) checked against the wire rules,
/// each violation named by kind and level, then the permitted readings applied ([`relevel`],
/// the input's other readings ([`readings`]), and [`run_as_batch`] for an array where the
/// version has no batches). Empty when the replies are right.
pub fn judge(
    profile: &ProfileFacts,
    methods: Methods<'_>,
    frame: &[u8],
    expected: &Expected,
    replies: &[Vec<u8>],
) -> Vec<Finding> {
    let batch = batch_oracle(profile, frame, methods);
    let oracles = Oracles {
        expected,
        batch: batch.as_ref(),
        readings: &readings(profile, frame, methods),
    };
    judge_replies(profile, frame, &oracles, replies, &Finding::of_violation)
}

/// What a correct server may send back for one input: its oracle, and the oracles of the
/// readings the specs permit beside it.
#[derive(Debug, Clone, Copy)]
pub struct Oracles<'a> {
    /// The oracle ([`derive_expected`](crate::derive_expected)).
    pub expected: &'a Expected,
    /// Where the version has no batches, a top-level array's oracle as a JSON-RPC 2.0 batch
    /// ([`batch_oracle`]).
    pub batch: Option<&'a Expected>,
    /// The input's other permitted readings ([`readings`]).
    pub readings: &'a [Reading],
}

/// The judging both [`judge`] and `mcpwire check` run, for any finding type: the wire rules
/// on `replies` (each violation made a finding by `of_violation`), then the permitted readings.
/// Several replies are judged in one fixed order (by their bytes), not in the order they came,
/// so the verdict does not depend on timing.
pub fn judge_replies<F: Judged>(
    profile: &ProfileFacts,
    frame: &[u8],
    oracles: &Oracles<'_>,
    replies: &[Vec<u8>],
    of_violation: &dyn Fn(&Violation) -> F,
) -> Vec<F> {
    let mut frames: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
    frames.sort_unstable();
    let under = |oracle: &Expected| -> Vec<F> {
        check_expected(profile, oracle, &frames).map_or_else(
            |mut v| {
                name_echoed_ids(frame, &mut v);
                v.iter().map(of_violation).collect()
            },
            |()| Vec::new(),
        )
    };
    let mut findings = under(oracles.expected);
    relevel(profile, frame, oracles.expected, replies, &mut findings);
    apply_readings(oracles.readings, &under, &mut findings);
    if let Some(batch) = oracles.batch {
        run_as_batch(profile, batch, &frames, &mut findings);
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::KINDS;
    use crate::model::derive_expected;
    use mcpwire_types::facts::MCP_2025_11_25;

    /// The kinds and levels judged for `input` answered with `replies` (`ping` known).
    fn judged(input: &[u8], replies: &[&str]) -> Vec<(&'static str, Level)> {
        let expected = derive_expected(&MCP_2025_11_25, input, Methods::Known(&["ping"]));
        let replies: Vec<Vec<u8>> = replies.iter().map(|r| r.as_bytes().to_vec()).collect();
        judge(
            &MCP_2025_11_25,
            Methods::Known(&["ping"]),
            input,
            &expected,
            &replies,
        )
        .into_iter()
        .map(|f| (f.kind, f.level))
        .collect()
    }

    const PARSE_ERROR: &str = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#;

    #[test]
    fn a_refused_bom_is_strict_whatever_follows_it() {
        let response = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":[]}";
        assert_eq!(
            judged(response, &[PARSE_ERROR]),
            [("leading-bom-refused", Level::Strict)]
        );
        let notification = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}";
        assert_eq!(
            judged(notification, &[PARSE_ERROR]),
            [("leading-bom-refused", Level::Strict)]
        );
        // Refused, but "id":null where 2025-11-25 omits it: still spelt wrong.
        let null = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#;
        assert!(judged(response, &[null]).contains(&("no-id-spelled-wrong", Level::Violation)));
        // A reply without "jsonrpc" stays a violation beside the reading.
        let request = b"\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}";
        let bare = r#"{"error":{"code":-32700,"message":"m"}}"#;
        let mut got = judged(request, &[bare]);
        got.sort();
        assert_eq!(
            got,
            [
                ("jsonrpc-missing-or-wrong", Level::Violation),
                ("leading-bom-refused", Level::Strict)
            ]
        );
    }

    #[test]
    fn deep_input_that_needs_no_reply_may_be_refused() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"a","nest":{}{},"result":null}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(
            judged(deep.as_bytes(), &[PARSE_ERROR]),
            [("nesting-limit", Level::Strict)]
        );
        let shallow = br#"{"jsonrpc":"2.0","id":"a","result":null}"#;
        assert_eq!(
            judged(shallow, &[PARSE_ERROR]),
            [("reply-to-response", Level::Violation)]
        );
    }

    #[test]
    fn silence_under_a_permitted_reading_is_strict() {
        // Read last-wins, a duplicated method leaves a valid notification: no reply is right.
        let duplicated = br#"{"jsonrpc":"2.0","method":"ping","method":"ping"}"#;
        assert_eq!(
            judged(duplicated, &[]),
            [("duplicate-member-accepted", Level::Strict)]
        );
        // An rpc. notification read as one of a method the server lacks.
        let rpc = br#"{"jsonrpc":"2.0","method":"rpc.x"}"#;
        assert_eq!(judged(rpc, &[]), [("rpc-method-code", Level::Strict)]);
        // Invalid for another reason too: no reading makes it a notification.
        let invalid = br#"{"jsonrpc":"1.0","method":"rpc.x"}"#;
        assert_eq!(
            judged(invalid, &[]),
            [("unreadable-input-unanswered", Level::Violation)]
        );
    }

    #[test]
    fn a_respelt_id_does_not_block_a_reading() {
        let input = br#"{"jsonrpc":"2.0","id":1e3,"method":"ping","params":null}"#;
        let reply = r#"{"jsonrpc":"2.0","id":1000,"result":{}}"#;
        let mut got = judged(input, &[reply]);
        got.sort();
        assert_eq!(
            got,
            [
                ("id-spelling-changed", Level::Strict),
                ("params-null-accepted", Level::Strict)
            ]
        );
    }

    #[test]
    fn a_rejection_of_invalid_utf8_is_no_lenient_decoding_however_no_id_is_spelt() {
        // Issue 47: -32700 to a notification that is not UTF-8 is the first reading (reject),
        // whether the id is omitted (right under 2025-11-25) or null (spelt wrong): never
        // `non-json-accepted`, which says the bytes were decoded leniently.
        let notification = b"{\"jsonrpc\":\"2.0\",\"method\":\"p\xed\xa0\x80i\\u006eg\"}";
        assert_eq!(judged(notification, &[PARSE_ERROR]), []);
        let null = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#;
        assert_eq!(
            judged(notification, &[null]),
            [("no-id-spelled-wrong", Level::Violation)]
        );
        // Silence is what lenient decoding gives a notification: that stays the reading.
        assert_eq!(
            judged(notification, &[]),
            [("non-json-accepted", Level::Strict)]
        );
        // The same for params by position: -32600 with "id":null is a refusal spelt wrong.
        let by_position = br#"{"jsonrpc":"2.0","method":"ping","params":[]}"#;
        let refused = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            judged(by_position, &[refused]),
            [("no-id-spelled-wrong", Level::Violation)]
        );
    }

    #[test]
    fn a_forbidden_id_echoed_is_named_for_what_happened() {
        let input = br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#;
        let echoed = r#"{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            judged(input, &[echoed]),
            [("forbidden-id-echoed", Level::Violation)]
        );
        let invented =
            r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(
            judged(input, &[invented]),
            [("fabricated-id", Level::Violation)]
        );
    }

    #[test]
    fn a_batch_element_read_as_json_rpc_reads_it_is_as_strict_as_alone() {
        // Issue 47: under JSON-RPC 2.0, a notification carrying `result` inside a batch, left
        // unanswered, is the permitted reading (strict), as the same call with an id answered
        // as the call is.
        use mcpwire_types::facts::JSONRPC_2_0;
        let methods = Methods::Known(&["ping"]);
        let kinds = |input: &[u8], replies: &[&str]| -> Vec<(&'static str, Level)> {
            let expected = derive_expected(&JSONRPC_2_0, input, methods);
            let replies: Vec<Vec<u8>> = replies.iter().map(|r| r.as_bytes().to_vec()).collect();
            judge(&JSONRPC_2_0, methods, input, &expected, &replies)
                .into_iter()
                .map(|f| (f.kind, f.level))
                .collect()
        };
        let notification = br#"[{"jsonrpc":"2.0","method":"ping","result":{}},{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
        let one = r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#;
        assert_eq!(
            kinds(notification, &[one]),
            [("result-or-error-in-call-accepted", Level::Strict)]
        );
        let call = br#"[{"jsonrpc":"2.0","id":2,"method":"ping","result":{}},{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
        let two = r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":1,"result":{}}]"#;
        assert_eq!(
            kinds(call, &[two]),
            [("result-or-error-in-call-accepted", Level::Strict)]
        );
        // Dropping a plain request of the batch stays a violation.
        let plain = br#"[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]"#;
        assert!(kinds(plain, &[one]).contains(&("batch-count-mismatch", Level::Violation)));
    }

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
