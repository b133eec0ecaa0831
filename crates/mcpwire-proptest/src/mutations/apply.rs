//! Applying a mutation to a valid message: the frame and its oracle.

use mcpwire_types::ProfileFacts;

use super::{BatchElement, Case, Edit, Mutation};
use crate::batch_cancel::mark_cancelled;
use crate::expected::{Cause, Expected, ExpectedReply, Outcome, ReplyId, codes};
use crate::message::{Call, Message, RawMember, render_object};
use crate::model::BOM;

impl Edit {
    /// Applies the edit to a call's members; returns the oracle.
    pub(super) fn apply(
        &self,
        profile: &ProfileFacts,
        call: &Call,
        members: &mut Vec<RawMember>,
    ) -> Expected {
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

pub(super) fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
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
            let views: Vec<&str> = texts.iter().map(String::as_str).collect();
            let oracles = mark_cancelled(profile, &views, oracles);
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
