//! Findings the specs permit (a duplicated member read last-wins, a refused big id, a depth
//! limit, a lenient parser; an input's other readings: bytes that are not UTF-8 decoded
//! leniently, `params` by position, a request with `result`/`error` members):
//! `mcpwire-proptest`'s permitted readings ([`mcpwire_proptest::findings::relevel`],
//! [`mcpwire_proptest::findings::readings`]), applied to the checker's own findings, so the
//! library and the checker level alike.

use mcpwire_proptest::Violation;
pub use mcpwire_proptest::findings::{
    DEEP, LARGE, Reading, apply_readings, is_malformed_response, notification_or_response_shaped,
    readings, relevel, run_as_batch,
};

use super::finding::{Finding, RuleId};
use super::kinds::Level;

impl mcpwire_proptest::findings::Judged for Finding {
    type RuleRef = RuleId;

    fn kind(&self) -> &str {
        &self.kind
    }

    fn rule(&self) -> RuleId {
        self.rule
    }

    fn level(&self) -> Level {
        self.level
    }

    fn strict(kind: &'static str, rule: RuleId, why: &str) -> Finding {
        Finding {
            kind: kind.into(),
            level: Level::Strict,
            rule,
            message: why.into(),
            severity: 0,
        }
    }

    fn of_violation(violation: &Violation) -> Finding {
        Finding::new(
            mcpwire_proptest::findings::kind_of(violation),
            RuleId::of_rule(violation.rule()),
            violation.to_string(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::finding::RuleId;
    use mcpwire_proptest::{
        Cause, Expected, ExpectedReply, Methods, Outcome, ReplyId, codes, derive_expected,
    };
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
