//! Strategies of mutations and of whole cases.

use mcpwire_types::ProfileFacts;
use proptest::prelude::*;
use proptest::sample::Index;

use super::{BatchElement, Case, Edit, Mutation, build_batch_case, build_case};
use crate::ids::{any_id, forbidden_id};
use crate::message::{
    CallBodies, Message, call_from, json_value, notification_from, valid_message_from,
};
use crate::methods::Vocabulary;

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
        forbidden_id(profile).prop_map(Edit::IdForbidden),
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
