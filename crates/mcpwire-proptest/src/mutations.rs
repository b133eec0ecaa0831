//! Named mutations of valid messages, each generated case carrying its oracle.
//!
//! A [`Case`] is built from small shrinkable parts (a valid message, a mutation with its
//! own small data), so a failing case shrinks to the smallest frame that still fails. The
//! oracle ([`Case::expected`]) is computed from the mutation applied to the valid message,
//! never by running the server under test, and independently of [`crate::derive_expected`]
//! (the crate's tests check that both agree).
//!
//! ```
//! use mcpwire_proptest::mutations::case;
//! use mcpwire_proptest::{check_expected, Vocabulary};
//! use mcpwire_types::facts::MCP_LATEST;
//! use proptest::prelude::*;
//!
//! fn my_server(frame: &[u8]) -> Vec<Vec<u8>> {
//!     mcpwire_proptest::faulty::reference_reply(&MCP_LATEST, frame)
//! }
//!
//! proptest!(|(case in case(&MCP_LATEST, Vocabulary::DEFAULT))| {
//!     let replies = my_server(&case.frame);
//!     let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
//!     if let Err(violations) = check_expected(&MCP_LATEST, &case.expected, &replies) {
//!         panic!("{}: {}", case.mutation.name(), violations[0]);
//!     }
//! });
//! ```

use std::fmt;

use mcpwire_types::ProfileFacts;
use proptest::prelude::*;
use proptest::sample::Index;

use crate::expected::{Cause, Expected, ExpectedReply, Outcome, ReplyId, codes};
use crate::ids::{GeneratedId, any_id, forbidden_id};
use crate::message::{
    Call, CallBodies, Message, RawMember, call_from, json_value, notification_from, render_object,
    valid_message_from,
};
use crate::methods::Vocabulary;
use crate::model::BOM;
use crate::violation::shorten;

/// An edit of a call's members that keeps the frame valid JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// `jsonrpc` set to another string, e.g. `"1.0"`.
    JsonrpcWrongVersion(String),
    /// `jsonrpc` removed.
    JsonrpcMissing,
    /// `jsonrpc` set to a non-string, e.g. `2.0`.
    JsonrpcNotString(String),
    /// `method` set to a non-string.
    MethodNotString(String),
    /// `method` set to an `rpc.`-prefixed name (possibly escaped).
    MethodRpcPrefixed(String),
    /// `method` removed.
    MethodMissing,
    /// A second `method` member appended.
    MethodDuplicated(String),
    /// The id replaced (or added) with a type the profile forbids.
    IdForbidden(GeneratedId),
    /// A second `id` member appended (of any type).
    IdDuplicated(GeneratedId),
    /// The id (added if missing) written under the escaped key `"\u0069d"`; still valid.
    IdKeyEscaped(GeneratedId),
    /// `params` set to a scalar.
    ParamsScalar(String),
    /// `params` set to `null`.
    ParamsNull,
    /// `params` set to an array (invalid for MCP, valid for JSON-RPC 2.0).
    ParamsArray(String),
    /// Both `result` and `error` added to the call.
    ResultAndError,
}

/// A named mutation of a valid message; [`Mutation::name`] is stable.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// No mutation: the valid message itself.
    Valid,
    /// A member-level edit of a call.
    Edit(Edit),
    /// The frame cut before its end.
    Truncated(Index),
    /// Non-whitespace bytes after the value.
    TrailingBytes(String),
    /// A UTF-8 byte order mark before the frame (skipped by the rules).
    LeadingBom,
    /// JSON whitespace (spaces, tabs) around every token and a `\r` at the end.
    Whitespace(String),
    /// A member nested `depth` arrays deep, before or after the id.
    DeepNesting {
        /// Nesting depth, up to 100,000.
        depth: usize,
        /// Whether the member precedes the id.
        before_id: bool,
    },
    /// Params replaced by an object holding arrays nested `depth` deep.
    DeepParams(usize),
    /// An extra member holding a string of `len` bytes.
    HugeString(usize),
    /// Bytes that are not UTF-8 inserted at some position.
    InvalidUtf8 {
        /// Where.
        at: Index,
        /// Which invalid bytes.
        bytes: Vec<u8>,
    },
    /// `[]`.
    BatchEmpty,
    /// A batch whose only element is an array of valid messages.
    BatchNested(Vec<Message>),
    /// A batch of valid messages, edited calls and non-object elements.
    BatchMixed(Vec<BatchElement>),
    /// A batch of notifications only.
    BatchAllNotifications(Vec<Call>),
}

/// One element of a mixed batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchElement {
    /// A valid message.
    Valid(Message),
    /// A call with an edit.
    Edited(Call, Edit),
    /// A non-object value.
    NotAnObject(String),
}

impl Edit {
    /// The edit's stable name.
    pub fn name(&self) -> &'static str {
        match self {
            Edit::JsonrpcWrongVersion(_) => "jsonrpc-wrong-version",
            Edit::JsonrpcMissing => "jsonrpc-missing",
            Edit::JsonrpcNotString(_) => "jsonrpc-not-string",
            Edit::MethodNotString(_) => "method-not-string",
            Edit::MethodRpcPrefixed(_) => "method-rpc-prefixed",
            Edit::MethodMissing => "method-missing",
            Edit::MethodDuplicated(_) => "method-duplicated",
            Edit::IdForbidden(_) => "id-forbidden-type",
            Edit::IdDuplicated(_) => "id-duplicated",
            Edit::IdKeyEscaped(_) => "id-key-escaped",
            Edit::ParamsScalar(_) => "params-scalar",
            Edit::ParamsNull => "params-null",
            Edit::ParamsArray(_) => "params-array",
            Edit::ResultAndError => "result-and-error",
        }
    }

    /// Applies the edit to a call's members; returns the oracle.
    fn apply(&self, profile: &ProfileFacts, call: &Call, members: &mut Vec<RawMember>) -> Expected {
        let recovered = call
            .id
            .as_ref()
            .map_or(ReplyId::Absent, |id| ReplyId::Echo(id.text.clone()));
        let invalid = |id: ReplyId, cause| {
            Expected::Reply(ExpectedReply {
                id,
                outcome: Outcome::Error(vec![codes::INVALID_REQUEST]),
                cause,
            })
        };
        match self {
            Edit::JsonrpcWrongVersion(v) | Edit::JsonrpcNotString(v) => set(members, "jsonrpc", v),
            Edit::JsonrpcMissing => remove(members, "jsonrpc"),
            Edit::MethodNotString(v) | Edit::MethodRpcPrefixed(v) => set(members, "method", v),
            Edit::MethodMissing => {
                remove(members, "method");
                return invalid(recovered, Cause::NeitherCallNorResponse);
            }
            Edit::MethodDuplicated(v) => members.push(RawMember::new("method", v.clone())),
            Edit::IdForbidden(id) => {
                set(members, "id", &id.text);
                return invalid(ReplyId::Absent, Cause::UnreadableId);
            }
            Edit::IdDuplicated(id) => {
                if call.id.is_none() {
                    members.insert(1, RawMember::new("id", id.text.clone()));
                }
                members.push(RawMember::new("id", id.text.clone()));
                return invalid(ReplyId::Absent, Cause::UnreadableId);
            }
            Edit::IdKeyEscaped(id) => {
                remove(members, "id");
                members.insert(
                    1,
                    RawMember {
                        key: r#""\u0069d""#.into(),
                        value: id.text.clone(),
                    },
                );
                return Call {
                    id: Some(id.clone()),
                    ..call.clone()
                }
                .expected();
            }
            Edit::ParamsScalar(v) => set(members, "params", v),
            Edit::ParamsNull => set(members, "params", "null"),
            Edit::ParamsArray(v) => {
                set(members, "params", v);
                if profile.params_types.array {
                    return call.expected();
                }
            }
            Edit::ResultAndError => {
                members.push(RawMember::new("result", "{}"));
                members.push(RawMember::new("error", r#"{"code":-1,"message":"m"}"#));
            }
        }
        invalid(recovered, Cause::InvalidCall)
    }
}

fn set(members: &mut Vec<RawMember>, key: &str, value: &str) {
    match members.iter_mut().find(|m| m.is(key)) {
        Some(member) => member.value = value.to_owned(),
        None => members.push(RawMember::new(key, value)),
    }
}

fn remove(members: &mut Vec<RawMember>, key: &str) {
    members.retain(|m| !m.is(key));
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

impl Mutation {
    /// The mutation's stable name, e.g. `jsonrpc-missing`, `deep-nesting`, `batch-mixed`.
    pub fn name(&self) -> &'static str {
        match self {
            Mutation::Valid => "valid",
            Mutation::Edit(edit) => edit.name(),
            Mutation::Truncated(_) => "truncated",
            Mutation::TrailingBytes(_) => "trailing-bytes",
            Mutation::LeadingBom => "leading-bom",
            Mutation::Whitespace(_) => "whitespace",
            Mutation::DeepNesting {
                before_id: true, ..
            } => "deep-nesting-before-id",
            Mutation::DeepNesting {
                before_id: false, ..
            } => "deep-nesting-after-id",
            Mutation::DeepParams(_) => "deep-params",
            Mutation::HugeString(_) => "huge-string",
            Mutation::InvalidUtf8 { .. } => "invalid-utf8",
            Mutation::BatchEmpty => "batch-empty",
            Mutation::BatchNested(_) => "batch-nested",
            Mutation::BatchMixed(_) => "batch-mixed",
            Mutation::BatchAllNotifications(_) => "batch-all-notifications",
        }
    }
}

/// A generated input frame with its oracle.
#[derive(Clone)]
pub struct Case {
    /// The mutation applied.
    pub mutation: Mutation,
    /// The frame's bytes (one line, no line ending).
    pub frame: Vec<u8>,
    /// What a correct server must send back.
    pub expected: Expected,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("mutation", &self.mutation.name())
            .field("frame", &shorten(&String::from_utf8_lossy(&self.frame)))
            .field("frame_len", &self.frame.len())
            .field("expected", &self.expected)
            .finish()
    }
}

/// Builds the case for `mutation` applied to `base` under `profile` (batch mutations
/// ignore `base`; see [`build_batch_case`]).
pub fn build_case(profile: &ProfileFacts, base: &Message, mutation: Mutation) -> Case {
    let mut members = base.members();
    let mut expected = base.expected();
    let parse_error = || Expected::error_without_id(codes::PARSE_ERROR, Cause::ParseError);
    let frame: Vec<u8> = match &mutation {
        Mutation::Valid | Mutation::LeadingBom => {
            let text = render_object(&members, "").into_bytes();
            if matches!(mutation, Mutation::LeadingBom) {
                [BOM, &text].concat()
            } else {
                text
            }
        }
        Mutation::Edit(edit) => {
            if let Message::Call(call) = base {
                expected = edit.apply(profile, call, &mut members);
            }
            render_object(&members, "").into_bytes()
        }
        Mutation::Truncated(at) => {
            let text = render_object(&members, "").into_bytes();
            expected = parse_error();
            text[..1 + at.index(text.len() - 1)].to_vec()
        }
        Mutation::TrailingBytes(tail) => {
            expected = parse_error();
            format!("{}{tail}", render_object(&members, "")).into_bytes()
        }
        Mutation::Whitespace(pad) => {
            format!("{pad}{}{pad}\r", render_object(&members, pad)).into_bytes()
        }
        Mutation::DeepNesting { depth, before_id } => {
            let at = members
                .iter()
                .position(|m| m.is("id"))
                .map_or(1, |i| i + usize::from(!before_id));
            members.insert(at, RawMember::new("nest", nested(*depth)));
            render_object(&members, "").into_bytes()
        }
        Mutation::DeepParams(depth) => {
            if let Message::Call(_) = base {
                set(
                    &mut members,
                    "params",
                    &format!(r#"{{"deep":{}}}"#, nested(*depth)),
                );
            }
            render_object(&members, "").into_bytes()
        }
        Mutation::HugeString(len) => {
            members.insert(
                1,
                RawMember::new("huge", format!("\"{}\"", "h".repeat(*len))),
            );
            render_object(&members, "").into_bytes()
        }
        Mutation::InvalidUtf8 { at, bytes } => {
            let mut text = render_object(&members, "").into_bytes();
            let at = at.index(text.len() + 1);
            text.splice(at..at, bytes.iter().copied());
            expected = parse_error();
            text
        }
        Mutation::BatchEmpty
        | Mutation::BatchNested(_)
        | Mutation::BatchMixed(_)
        | Mutation::BatchAllNotifications(_) => return build_batch_case(profile, mutation),
    };
    Case {
        mutation,
        frame,
        expected,
    }
}

/// Builds the case for a batch mutation (`batch-*`) under `profile`.
///
/// # Panics
///
/// When `mutation` is not a batch mutation.
pub fn build_batch_case(profile: &ProfileFacts, mutation: Mutation) -> Case {
    let (frame, expected) = match &mutation {
        Mutation::BatchEmpty => {
            let expected = batch_expected(
                profile,
                Expected::error_without_id(codes::INVALID_REQUEST, Cause::EmptyBatch),
            );
            (b"[]".to_vec(), expected)
        }
        Mutation::BatchNested(inner) => {
            let texts: Vec<String> = inner.iter().map(Message::render).collect();
            let element =
                Expected::error_without_id(codes::INVALID_REQUEST, Cause::BatchElementNotAnObject);
            let expected = batch_expected(profile, Expected::Batch(vec![element]));
            (format!("[[{}]]", texts.join(",")).into_bytes(), expected)
        }
        Mutation::BatchMixed(elements) => {
            let (texts, oracles): (Vec<String>, Vec<Expected>) = elements
                .iter()
                .map(|element| batch_element(profile, element))
                .unzip();
            let expected = batch_expected(profile, Expected::Batch(oracles));
            (format!("[{}]", texts.join(",")).into_bytes(), expected)
        }
        Mutation::BatchAllNotifications(calls) => {
            let texts: Vec<String> = calls
                .iter()
                .map(|c| render_object(&c.members(), ""))
                .collect();
            let expected = batch_expected(
                profile,
                Expected::Batch(calls.iter().map(Call::expected).collect()),
            );
            (format!("[{}]", texts.join(",")).into_bytes(), expected)
        }
        other => panic!("{} is not a batch mutation", other.name()),
    };
    Case {
        mutation,
        frame,
        expected,
    }
}

/// A batch's oracle: `in_batch_profile` where batches exist, else -32600 without an id.
fn batch_expected(profile: &ProfileFacts, in_batch_profile: Expected) -> Expected {
    if profile.batches {
        in_batch_profile
    } else {
        Expected::error_without_id(codes::INVALID_REQUEST, Cause::NotAnObject)
    }
}

fn batch_element(profile: &ProfileFacts, element: &BatchElement) -> (String, Expected) {
    match element {
        BatchElement::Valid(message) => (message.render(), message.expected()),
        BatchElement::Edited(call, edit) => {
            let mut members = call.members();
            let expected = edit.apply(profile, call, &mut members);
            (render_object(&members, ""), expected)
        }
        BatchElement::NotAnObject(text) => (
            text.clone(),
            Expected::error_without_id(codes::INVALID_REQUEST, Cause::BatchElementNotAnObject),
        ),
    }
}

/// Member-level edits for `profile` (with their small data).
pub fn edit(profile: &ProfileFacts) -> BoxedStrategy<Edit> {
    let strings = |v: Vec<&'static str>| prop::sample::select(v).prop_map(str::to_owned);
    prop_oneof![
        strings(vec![
            r#""1.0""#,
            r#""2""#,
            r#""2.0 ""#,
            r#""""#,
            r#""2.00""#
        ])
        .prop_map(Edit::JsonrpcWrongVersion),
        Just(Edit::JsonrpcMissing),
        strings(vec![
            "2.0",
            "2",
            "null",
            "true",
            r#"["2.0"]"#,
            r#"{"v":"2.0"}"#
        ])
        .prop_map(Edit::JsonrpcNotString),
        strings(vec!["8", "null", "true", "{}", r#"["ping"]"#]).prop_map(Edit::MethodNotString),
        strings(vec![
            r#""rpc.""#,
            r#""rpc.ping""#,
            r#""rpc\u002eping""#,
            r#""\u0072pc.x""#
        ])
        .prop_map(Edit::MethodRpcPrefixed),
        Just(Edit::MethodMissing),
        strings(vec![r#""ping""#, r#""other""#, "1"]).prop_map(Edit::MethodDuplicated),
        forbidden_or_structured(profile).prop_map(Edit::IdForbidden),
        any_id(profile).prop_map(Edit::IdDuplicated),
        crate::ids::admitted_id(profile).prop_map(Edit::IdKeyEscaped),
        strings(vec!["1", r#""p""#, "true", "false", "0.5"]).prop_map(Edit::ParamsScalar),
        Just(Edit::ParamsNull),
        prop::collection::vec(json_value(), 0..3)
            .prop_map(|v| Edit::ParamsArray(format!("[{}]", v.join(",")))),
        Just(Edit::ResultAndError),
    ]
    .boxed()
}

fn forbidden_or_structured(profile: &ProfileFacts) -> BoxedStrategy<GeneratedId> {
    forbidden_id(profile)
}

/// Frame-level mutations (everything but edits and batches).
pub fn frame_mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        4 => any::<Index>().prop_map(Mutation::Truncated),
        2 => prop::sample::select(vec!["x", "}", "]", "{}", ",", "0", "\"", "\u{0}"]).prop_map(|t| Mutation::TrailingBytes(t.to_owned())),
        2 => Just(Mutation::LeadingBom),
        2 => crate::pattern("[ \t]{1,3}").prop_map(Mutation::Whitespace),
        2 => (1usize..=100_000, any::<bool>()).prop_map(|(depth, before_id)| Mutation::DeepNesting { depth, before_id }),
        1 => (1usize..=100_000).prop_map(Mutation::DeepParams),
        1 => (1usize..=(1 << 20)).prop_map(Mutation::HugeString),
        3 => (any::<Index>(), prop::sample::select(vec![
            vec![0xFFu8], vec![0xC3], vec![0xED, 0xA0, 0x80], vec![0xF8, 0x88, 0x80, 0x80, 0x80], vec![0xE2, 0x82],
        ])).prop_map(|(at, bytes)| Mutation::InvalidUtf8 { at, bytes }),
    ]
    .boxed()
}

/// Batch mutations.
pub fn batch_mutation(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Mutation> {
    batch_mutation_from(profile, &CallBodies::arbitrary(profile, vocabulary))
}

/// Batch mutations, with call methods and params from `bodies`.
pub fn batch_mutation_from(profile: &ProfileFacts, bodies: &CallBodies) -> BoxedStrategy<Mutation> {
    let element = prop_oneof![
        3 => valid_message_from(profile, bodies).prop_map(BatchElement::Valid),
        2 => (call_from(profile, bodies), edit(profile)).prop_map(|(c, e)| BatchElement::Edited(c, e)),
        1 => prop::sample::select(vec!["1", "\"x\"", "null", "true", "[]", "[1]", "[{}]"]).prop_map(|t| BatchElement::NotAnObject(t.to_owned())),
    ];
    prop_oneof![
        1 => Just(Mutation::BatchEmpty),
        1 => prop::collection::vec(valid_message_from(profile, bodies), 0..3).prop_map(Mutation::BatchNested),
        4 => prop::collection::vec(element, 1..6).prop_map(Mutation::BatchMixed),
        1 => prop::collection::vec(notification_from(bodies), 1..4).prop_map(Mutation::BatchAllNotifications),
    ]
    .boxed()
}

/// Cases of every kind for `profile`: valid messages, edited calls, frame-level
/// mutations and batches, each with its oracle. Shrinks toward a valid message.
pub fn case(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Case> {
    case_from(profile, &CallBodies::arbitrary(profile, vocabulary))
}

/// Cases of every kind, with call methods and params from `bodies` (see [`CallBodies`]).
pub fn case_from(profile: &ProfileFacts, bodies: &CallBodies) -> BoxedStrategy<Case> {
    let p = *profile;
    prop_oneof![
        2 => valid_message_from(profile, bodies).prop_map(move |m| build_case(&p, &m, Mutation::Valid)),
        5 => (call_from(profile, bodies), edit(profile))
            .prop_map(move |(c, e)| build_case(&p, &Message::Call(c), Mutation::Edit(e))),
        3 => (valid_message_from(profile, bodies), frame_mutation()).prop_map(move |(m, mu)| build_case(&p, &m, mu)),
        2 => batch_mutation_from(profile, bodies).prop_map(move |mu| build_batch_case(&p, mu)),
    ]
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::faulty::reference_reply;
    use crate::{Silence, check_expected, derive_expected};
    use mcpwire_types::facts::{ALL, JSONRPC_2_0, MCP_2025_03_26, MCP_LATEST};
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
            let too_deep =
                matches!(case.mutation, Mutation::DeepNesting { depth, .. } if depth > 10);
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

    fn frame_and_oracle(
        profile: &ProfileFacts,
        call: Call,
        mutation: Mutation,
    ) -> (String, Expected) {
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

        let (frame, oracle) =
            frame_and_oracle(p, ping(Some("7")), Mutation::Edit(Edit::MethodMissing));
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

        let (frame, oracle) =
            frame_and_oracle(p, ping(Some("1")), Mutation::TrailingBytes("x".into()));
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
}
