//! Oracles of hand-picked and generated cases, and shrinking.

use super::apply::nested;
use super::*;
use crate::expected::{Cause, ExpectedReply, Outcome, ReplyId};
use crate::faulty::reference_reply;
use crate::ids::GeneratedId;
use crate::methods::Vocabulary;
use crate::model::BOM;
use crate::{Silence, check_expected, derive_expected};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::{ALL, JSONRPC_2_0, MCP_2025_03_26, MCP_LATEST};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn cases_for(profile: &ProfileFacts, count: usize, mut each: impl FnMut(&Case)) {
    let strategy = case(profile, Vocabulary::DEFAULT);
    let mut runner = TestRunner::deterministic();
    for _ in 0..count {
        each(&strategy.new_tree(&mut runner).expect("a case").current());
    }
}

/// The mutation oracle and the independent model agree on every generated case.
#[test]
fn oracles_agree_with_the_model() {
    for profile in ALL {
        cases_for(profile, 300, |case| {
            let derived = derive_expected(profile, &case.frame, Vocabulary::DEFAULT.methods());
            assert_eq!(derived, case.expected, "{} {:?}", profile.name, case);
        });
    }
}

/// The reference server satisfies every generated oracle.
#[test]
fn reference_reply_passes_every_case() {
    for profile in ALL {
        cases_for(profile, 200, |case| {
            let replies = reference_reply(profile, &case.frame);
            let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
            if let Err(v) = check_expected(profile, &case.expected, &replies) {
                panic!("{} {:?}: {}", profile.name, case, v[0]);
            }
        });
    }
}

/// A deliberately failing property (nesting deeper than 10 is "a bug") shrinks to the
/// smallest frame that still fails: depth 11 in the smallest valid message.
#[test]
fn shrinking_finds_the_smallest_failing_frame() {
    let config = proptest::test_runner::Config {
        cases: 4096,
        failure_persistence: None,
        ..Default::default()
    };
    let result = TestRunner::new(config).run(&case(&MCP_LATEST, Vocabulary::DEFAULT), |case| {
        let too_deep = matches!(case.mutation, Mutation::DeepNesting { depth, .. } if depth > 10);
        prop_assert!(!too_deep, "nested too deep");
        Ok(())
    });
    let Err(proptest::test_runner::TestError::Fail(_, minimal)) = result else {
        panic!("the property must fail: {result:?}");
    };
    let frame = String::from_utf8(minimal.frame).expect("UTF-8");
    assert_eq!(
        frame,
        format!(
            r#"{{"jsonrpc":"2.0","nest":{},"method":"ping"}}"#,
            nested(11)
        )
    );
}

fn ping(id: Option<&str>) -> Call {
    Call {
        id: id.map(|t| GeneratedId {
            text: t.into(),
            kind: crate::ids::IdKind::Integer,
            admitted: true,
        }),
        method: crate::message::MethodName {
            token: "\"ping\"".into(),
            name: "ping".into(),
            known: true,
        },
        params: None,
    }
}

fn frame_and_oracle(profile: &ProfileFacts, call: Call, mutation: Mutation) -> (String, Expected) {
    let case = build_case(profile, &Message::Call(call), mutation);
    (
        String::from_utf8_lossy(&case.frame).into_owned(),
        case.expected,
    )
}

fn error(id: Option<&str>, code: i64, cause: Cause) -> Expected {
    Expected::Reply(ExpectedReply {
        id: id.map_or(ReplyId::Absent, |t| ReplyId::Echo(t.into())),
        outcome: Outcome::Error(vec![code]),
        cause,
    })
}

#[test]
fn hand_picked_edits() {
    let p = &MCP_LATEST;
    let (frame, oracle) = frame_and_oracle(
        p,
        ping(Some("3")),
        Mutation::Edit(Edit::JsonrpcWrongVersion("\"1.0\"".into())),
    );
    assert_eq!(frame, r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#);
    assert_eq!(oracle, error(Some("3"), -32600, Cause::InvalidCall));

    let (frame, oracle) = frame_and_oracle(p, ping(None), Mutation::Edit(Edit::JsonrpcMissing));
    assert_eq!(frame, r#"{"method":"ping"}"#);
    assert_eq!(oracle, error(None, -32600, Cause::InvalidCall));

    let forbidden = GeneratedId {
        text: "true".into(),
        kind: crate::ids::IdKind::Boolean,
        admitted: false,
    };
    let (frame, oracle) = frame_and_oracle(
        p,
        ping(Some("1")),
        Mutation::Edit(Edit::IdForbidden(forbidden)),
    );
    assert_eq!(frame, r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#);
    assert_eq!(oracle, error(None, -32600, Cause::UnreadableId));

    let escaped = GeneratedId {
        text: "1e3".into(),
        kind: crate::ids::IdKind::Integer,
        admitted: true,
    };
    let (frame, oracle) =
        frame_and_oracle(p, ping(None), Mutation::Edit(Edit::IdKeyEscaped(escaped)));
    assert_eq!(frame, r#"{"jsonrpc":"2.0","\u0069d":1e3,"method":"ping"}"#);
    assert!(
        matches!(oracle, Expected::Reply(ExpectedReply { id: ReplyId::Echo(t), cause: Cause::Request, .. }) if t == "1e3")
    );

    let (frame, oracle) = frame_and_oracle(p, ping(Some("7")), Mutation::Edit(Edit::MethodMissing));
    assert_eq!(frame, r#"{"jsonrpc":"2.0","id":7}"#);
    assert_eq!(
        oracle,
        error(Some("7"), -32600, Cause::NeitherCallNorResponse)
    );

    let array = Mutation::Edit(Edit::ParamsArray("[1]".into()));
    assert_eq!(
        frame_and_oracle(p, ping(Some("2")), array.clone()).1,
        error(Some("2"), -32600, Cause::InvalidCall)
    );
    assert_eq!(
        frame_and_oracle(&JSONRPC_2_0, ping(Some("2")), array).1,
        ping(Some("2")).expected()
    );
}

#[test]
fn hand_picked_frame_mutations() {
    let p = &MCP_LATEST;
    let (frame, oracle) = frame_and_oracle(
        p,
        ping(Some("1")),
        Mutation::DeepNesting {
            depth: 3,
            before_id: true,
        },
    );
    assert_eq!(
        frame,
        r#"{"jsonrpc":"2.0","nest":[[[]]],"id":1,"method":"ping"}"#
    );
    assert_eq!(oracle, ping(Some("1")).expected());
    let (frame, _) = frame_and_oracle(
        p,
        ping(Some("1")),
        Mutation::DeepNesting {
            depth: 1,
            before_id: false,
        },
    );
    assert_eq!(
        frame,
        r#"{"jsonrpc":"2.0","id":1,"nest":[],"method":"ping"}"#
    );

    let (frame, oracle) = frame_and_oracle(p, ping(Some("1")), Mutation::TrailingBytes("x".into()));
    assert_eq!(frame, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}x"#);
    assert_eq!(oracle, error(None, -32700, Cause::ParseError));

    let (frame, oracle) = frame_and_oracle(p, ping(None), Mutation::Whitespace(" ".into()));
    assert_eq!(
        frame,
        " { \"jsonrpc\" : \"2.0\" , \"method\" : \"ping\" } \r"
    );
    assert_eq!(oracle, Expected::NoReply(Silence::Notification));

    let case = build_case(p, &Message::Call(ping(Some("1"))), Mutation::LeadingBom);
    assert_eq!(&case.frame[..3], BOM);
    assert_eq!(case.expected, ping(Some("1")).expected());
}

#[test]
fn a_batch_cancel_makes_the_named_reply_optional() {
    let mut cancel = ping(None);
    cancel.method = crate::message::MethodName {
        token: "\"notifications/cancelled\"".into(),
        name: "notifications/cancelled".into(),
        known: true,
    };
    cancel.params = Some(r#"{"requestId":7}"#.into());
    let mixed = Mutation::BatchMixed(vec![
        BatchElement::Valid(Message::Call(ping(Some("7")))),
        BatchElement::Valid(Message::Call(ping(Some("8")))),
        BatchElement::Valid(Message::Call(cancel)),
    ]);
    let case = build_case(&MCP_2025_03_26, &Message::Call(ping(None)), mixed);
    let Expected::Batch(elements) = case.expected else {
        panic!("a batch")
    };
    assert!(
        matches!(&elements[0], Expected::ReplyOptional(r) if r.id == ReplyId::Echo("7".into()))
    );
    assert!(matches!(&elements[1], Expected::Reply(r) if r.id == ReplyId::Echo("8".into())));
}

#[test]
fn hand_picked_batches() {
    let mixed = Mutation::BatchMixed(vec![
        BatchElement::NotAnObject("1".into()),
        BatchElement::Valid(Message::Call(ping(None))),
        BatchElement::Edited(ping(Some("4")), Edit::JsonrpcMissing),
    ]);
    let case = build_case(&MCP_2025_03_26, &Message::Call(ping(None)), mixed.clone());
    assert_eq!(
        String::from_utf8_lossy(&case.frame),
        r#"[1,{"jsonrpc":"2.0","method":"ping"},{"id":4,"method":"ping"}]"#
    );
    assert_eq!(
        case.expected,
        Expected::Batch(vec![
            error(None, -32600, Cause::BatchElementNotAnObject),
            Expected::NoReply(Silence::Notification),
            error(Some("4"), -32600, Cause::InvalidCall),
        ])
    );
    let case = build_case(&MCP_LATEST, &Message::Call(ping(None)), mixed);
    assert_eq!(case.expected, error(None, -32600, Cause::NotAnObject));
    let empty = build_case(
        &JSONRPC_2_0,
        &Message::Call(ping(None)),
        Mutation::BatchEmpty,
    );
    assert_eq!(empty.expected, error(None, -32600, Cause::EmptyBatch));
    let quiet = build_case(
        &JSONRPC_2_0,
        &Message::Call(ping(None)),
        Mutation::BatchAllNotifications(vec![ping(None)]),
    );
    assert!(!quiet.expected.expects_output());
}
