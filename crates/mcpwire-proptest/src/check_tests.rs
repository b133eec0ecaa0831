//! The checker: each violation is triggered by a concrete bad reply and not by a good one.

use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::{JSONRPC_2_0, MCP_2024_11_05, MCP_2025_03_26, MCP_LATEST};

use crate::faulty::reference_reply;
use crate::{Methods, ViolationKind as K, Vocabulary, check, check_with};

const REQ: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const NOTE: &str = r#"{"jsonrpc":"2.0","method":"ping"}"#;
const BAD_VERSION: &str = r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#;
const BAD_ID: &str = r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#;

fn kinds(profile: &ProfileFacts, methods: Methods<'_>, input: &str, replies: &[&str]) -> Vec<K> {
    let replies: Vec<&[u8]> = replies.iter().map(|r| r.as_bytes()).collect();
    match check_with(profile, methods, input.as_bytes(), &replies) {
        Ok(()) => Vec::new(),
        Err(violations) => violations.iter().map(crate::Violation::kind).collect(),
    }
}

/// (profile, input, bad reply frames, the violation it must raise)
fn table() -> Vec<(&'static ProfileFacts, &'static str, Vec<&'static str>, K)> {
    let big = r#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#;
    let batch =
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    vec![
        (
            &MCP_LATEST,
            REQ,
            vec!["{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}"],
            K::ReplyNotOneLine,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":1,"result":{}"#],
            K::ReplyNotJson,
        ),
        (&MCP_LATEST, REQ, vec![r#""ok""#], K::ReplyNotAnObject),
        (
            &MCP_LATEST,
            REQ,
            vec![
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            ],
            K::MoreThanOneReply,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"id":1,"result":{}}"#],
            K::JsonrpcMissingOrWrong,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"1.0","id":1,"result":{}}"#],
            K::JsonrpcMissingOrWrong,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#],
            K::ResultAndErrorNotExclusive,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":1}"#],
            K::ResultAndErrorNotExclusive,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":3,"error":"Invalid Request"}"#],
            K::ErrorObjectMalformed,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600.5,"message":"x"}}"#],
            K::ErrorObjectMalformed,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600}}"#],
            K::ErrorObjectMalformed,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"x"}}"#],
            K::UnexpectedCode,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":3,"result":{}}"#],
            K::UnexpectedCode,
        ),
        (
            &MCP_LATEST,
            r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#,
            vec![r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}"#],
            K::UnexpectedCode,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":2,"result":{}}"#],
            K::IdNotEchoed,
        ),
        (
            &MCP_LATEST,
            big,
            vec![r#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#],
            K::IdTypeOrPrecisionChanged,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":"1","result":{}}"#],
            K::IdTypeOrPrecisionChanged,
        ),
        (
            &JSONRPC_2_0,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            vec![r#"{"jsonrpc":"2.0","id":1,"result":{}}"#],
            K::IdTypeOrPrecisionChanged,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#],
            K::IdLostAlthoughRecoverable,
        ),
        (
            &MCP_LATEST,
            BAD_VERSION,
            vec![r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#],
            K::IdLostAlthoughRecoverable,
        ),
        (
            &MCP_LATEST,
            BAD_ID,
            vec![r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"x"}}"#],
            K::FabricatedId,
        ),
        (
            &MCP_LATEST,
            BAD_ID,
            vec![r#"{"jsonrpc":"2.0","id":true,"error":{"code":-32600,"message":"x"}}"#],
            K::ForbiddenIdEchoed,
        ),
        (
            &MCP_LATEST,
            BAD_ID,
            vec![r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#],
            K::NoIdSpelledWrong,
        ),
        (
            &MCP_2024_11_05,
            BAD_ID,
            vec![r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#],
            K::NoIdSpelledWrong,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{}}"#],
            K::DuplicateIdInReply,
        ),
        (
            &MCP_LATEST,
            NOTE,
            vec![r#"{"jsonrpc":"2.0","id":null,"result":{}}"#],
            K::ReplyToNotification,
        ),
        (
            &MCP_LATEST,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            vec![r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}"#],
            K::ReplyToResponse,
        ),
        (
            &MCP_LATEST,
            " \t",
            vec![r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}"#],
            K::ReplyToBlankLine,
        ),
        (&MCP_LATEST, REQ, vec![], K::MissingReply),
        (&MCP_LATEST, BAD_ID, vec![], K::UnreadableInputUnanswered),
        (
            &MCP_2025_03_26,
            batch,
            vec![
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
            ],
            K::BatchRepliesAsLines,
        ),
        (
            &MCP_2025_03_26,
            batch,
            vec![r#"{"jsonrpc":"2.0","id":1,"result":{}}"#],
            K::BatchReplyNotArray,
        ),
        (
            &MCP_LATEST,
            REQ,
            vec![r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#],
            K::ArrayReplyToSingleMessage,
        ),
        (
            &MCP_2025_03_26,
            batch,
            vec![r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#],
            K::BatchCountMismatch,
        ),
        (
            &JSONRPC_2_0,
            "[{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}]",
            vec![r#"[]"#],
            K::ReplyToBatchWithoutRequests,
        ),
        (
            &JSONRPC_2_0,
            batch,
            vec![r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":3,"result":{}}]"#],
            K::IdNotEchoed,
        ),
    ]
}

#[test]
fn each_violation_is_raised_by_its_bad_reply() {
    let methods = Vocabulary::DEFAULT.methods();
    let mut covered = std::collections::BTreeSet::new();
    for (profile, input, replies, kind) in table() {
        let got = kinds(profile, methods, input, &replies);
        assert!(
            got.contains(&kind),
            "{} {input} {replies:?}: expected {kind:?}, got {got:?}",
            profile.name
        );
        covered.insert(kind);
    }
    assert_eq!(
        covered.len(),
        25,
        "every ViolationKind has a case: {covered:?}"
    );
}

#[test]
fn good_replies_to_the_same_inputs_pass() {
    let methods = Vocabulary::DEFAULT.methods();
    for (profile, input, _, _) in table() {
        let replies = reference_reply(profile, input.as_bytes());
        let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
        assert_eq!(
            check_with(profile, methods, input.as_bytes(), &replies),
            Ok(()),
            "{} {input}",
            profile.name
        );
    }
}

#[test]
fn good_replies_by_hand() {
    let ok = |profile, input: &str, replies: &[&str]| {
        let replies: Vec<&[u8]> = replies.iter().map(|r| r.as_bytes()).collect();
        check(profile, input.as_bytes(), &replies)
    };
    // strings compare by value, numbers by exact text, line endings are fine
    let escaped = r#"{"jsonrpc":"2.0","id":"\u0041","method":"x"}"#;
    assert_eq!(
        ok(
            &MCP_LATEST,
            escaped,
            &["{\"id\":\"A\",\"jsonrpc\":\"2.0\",\"result\":1}\r\n"]
        ),
        Ok(())
    );
    let spelled = r#"{"jsonrpc":"2.0","id":1e3,"method":"x"}"#;
    assert_eq!(
        ok(
            &MCP_LATEST,
            spelled,
            &[r#"{"jsonrpc":"2.0","id":1e3,"error":{"code":-32601,"message":"m","data":[1]}}"#]
        ),
        Ok(())
    );
    assert!(
        ok(
            &MCP_LATEST,
            spelled,
            &[r#"{"jsonrpc":"2.0","id":1000,"result":{}}"#]
        )
        .is_err()
    );
    // no id: null where required, omitted where optional
    assert_eq!(
        ok(
            &MCP_2024_11_05,
            BAD_ID,
            &[r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}"#]
        ),
        Ok(())
    );
    assert_eq!(
        ok(
            &MCP_LATEST,
            BAD_ID,
            &[r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"}}"#]
        ),
        Ok(())
    );
    // batch replies in any order
    let batch =
        r#"[{"jsonrpc":"2.0","id":1,"method":"a"},5,{"jsonrpc":"2.0","id":2,"method":"b"}]"#;
    let reply = r#"[{"jsonrpc":"2.0","id":2,"result":0},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}},{"jsonrpc":"2.0","id":1,"result":0}]"#;
    assert_eq!(ok(&JSONRPC_2_0, batch, &[reply]), Ok(()));
}

#[test]
fn messages_name_the_rule_and_the_fix() {
    let replies: [&[u8]; 1] =
        [br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#];
    let violations = check(&MCP_LATEST, BAD_VERSION.as_bytes(), &replies).unwrap_err();
    let text = violations[0].to_string();
    assert!(text.starts_with("[wire rule 4 (id recovery)]"), "{text}");
    assert!(text.contains("id 3") && text.contains("echo it"), "{text}");
}
