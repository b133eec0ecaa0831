//! Valid messages built from small, shrinkable components.
//!
//! A message is a list of raw members (key token, value text) so mutations can edit,
//! duplicate, reorder and pad it, and it is rendered to bytes at the end.
//!
//! Extension point: the method and params of every generated call come from one
//! [`CallBodies`]. [`CallBodies::arbitrary`] draws names from a [`Vocabulary`] and params
//! of arbitrary JSON; strategies derived from the generated MCP types plug in through
//! [`CallBodies::custom`] without touching mutations or oracles.

use mcpwire_types::ProfileFacts;
use proptest::prelude::*;

use crate::expected::{Cause, Expected, ExpectedReply, ReplyId, Silence};
use crate::ids::{GeneratedId, admitted_id};
use crate::methods::{Vocabulary, method_outcome};

/// One member of an object under construction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMember {
    /// The key as a JSON string token, e.g. `"id"` or `"\u0069d"`.
    pub key: String,
    /// The value's JSON text.
    pub value: String,
}

impl RawMember {
    /// A member whose key is written plainly.
    pub fn new(key: &str, value: impl Into<String>) -> RawMember {
        RawMember {
            key: format!("\"{key}\""),
            value: value.into(),
        }
    }

    /// Whether the key token is exactly `"name"` (plain spelling).
    pub fn is(&self, name: &str) -> bool {
        self.key.len() == name.len() + 2 && &self.key[1..self.key.len() - 1] == name
    }
}

/// Renders members as a JSON object, with `pad` (JSON whitespace) around every token.
///
/// ```
/// use mcpwire_proptest::message::{RawMember, render_object};
/// let members = [RawMember::new("a", "1"), RawMember::new("b", "[]")];
/// assert_eq!(render_object(&members, ""), r#"{"a":1,"b":[]}"#);
/// assert_eq!(render_object(&members, " "), r#"{ "a" : 1 , "b" : [] }"#);
/// ```
pub fn render_object(members: &[RawMember], pad: &str) -> String {
    let body: Vec<String> = members
        .iter()
        .map(|m| format!("{pad}{}{pad}:{pad}{}{pad}", m.key, m.value))
        .collect();
    if body.is_empty() {
        format!("{{{pad}}}")
    } else {
        format!("{{{}}}", body.join(","))
    }
}

/// A method name: its JSON token, its value and whether the server implements it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodName {
    /// The JSON string token, possibly with escapes (`"p\u0069ng"`).
    pub token: String,
    /// The decoded name.
    pub name: String,
    /// Whether it is in the vocabulary's `known` list.
    pub known: bool,
}

/// A valid call: a request when it has an id, else a notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The id (admitted by the profile), `None` for a notification.
    pub id: Option<GeneratedId>,
    /// The method.
    pub method: MethodName,
    /// The params' JSON text (an object, or an array where the profile admits it).
    pub params: Option<String>,
}

/// A valid response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The id (admitted by the profile).
    pub id: GeneratedId,
    /// `result` text, or an error's code and message.
    pub body: Result<String, (i64, String)>,
}

/// A valid message of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// A request or notification.
    Call(Call),
    /// A response (never answered).
    Response(Response),
}

impl Call {
    /// The members in canonical order: jsonrpc, id, method, params.
    pub fn members(&self) -> Vec<RawMember> {
        let mut members = vec![RawMember::new("jsonrpc", "\"2.0\"")];
        if let Some(id) = &self.id {
            members.push(RawMember::new("id", id.text.clone()));
        }
        members.push(RawMember::new("method", self.method.token.clone()));
        if let Some(params) = &self.params {
            members.push(RawMember::new("params", params.clone()));
        }
        members
    }

    /// What a correct server sends back: for a request, its id and the method's outcome
    /// (-32601 for a method outside the vocabulary's `known` list); for a notification, nothing.
    pub fn expected(&self) -> Expected {
        match &self.id {
            Some(id) => Expected::Reply(ExpectedReply {
                id: ReplyId::Echo(id.text.clone()),
                outcome: method_outcome(self.method.known),
                cause: Cause::Request,
            }),
            None => Expected::NoReply(Silence::Notification),
        }
    }
}

impl Message {
    /// The members in canonical order.
    pub fn members(&self) -> Vec<RawMember> {
        match self {
            Message::Call(call) => call.members(),
            Message::Response(response) => {
                let body = match &response.body {
                    Ok(result) => RawMember::new("result", result.clone()),
                    Err((code, message)) => RawMember::new(
                        "error",
                        format!(
                            r#"{{"code":{code},"message":{}}}"#,
                            serde_json::to_string(message).expect("string")
                        ),
                    ),
                };
                vec![
                    RawMember::new("jsonrpc", "\"2.0\""),
                    RawMember::new("id", response.id.text.clone()),
                    body,
                ]
            }
        }
    }

    /// What a correct server sends back for this message alone.
    pub fn expected(&self) -> Expected {
        match self {
            Message::Call(call) => call.expected(),
            Message::Response(_) => Expected::NoReply(Silence::Response),
        }
    }

    /// The compact JSON text.
    pub fn render(&self) -> String {
        render_object(&self.members(), "")
    }
}

/// A call's method and params (JSON text), as generated.
pub type CallBody = (MethodName, Option<String>);

/// Where the method and params of generated calls come from: the extension point for
/// typed generators.
///
/// The oracles only need the method's name, whether the server implements it
/// ([`MethodName::known`]) and the params' JSON type, so any strategy of [`CallBody`]
/// values works with every mutation. Params must be valid for the profile: absent, an
/// object, or an array where the profile admits arrays.
///
/// ```
/// use mcpwire_proptest::message::{CallBodies, MethodName, call_from};
/// use mcpwire_proptest::facts::MCP_LATEST;
/// use proptest::prelude::*;
///
/// // A typed generator would build params from the generated MCP types.
/// let tools_call = "[a-z]{1,8}".prop_map(|name| {
///     let method = MethodName { token: "\"tools/call\"".into(), name: "tools/call".into(), known: true };
///     (method, Some(format!(r#"{{"name":"{name}","arguments":{{}}}}"#)))
/// });
/// let bodies = CallBodies::custom(tools_call.boxed());
/// proptest!(|(call in call_from(&MCP_LATEST, &bodies))| {
///     prop_assert_eq!(call.method.name.as_str(), "tools/call");
/// });
/// ```
#[derive(Debug, Clone)]
pub struct CallBodies(BoxedStrategy<CallBody>);

impl CallBodies {
    /// Method names from `vocabulary` and params of arbitrary JSON valid for `profile`.
    pub fn arbitrary(profile: &ProfileFacts, vocabulary: Vocabulary) -> CallBodies {
        CallBodies((method_name(vocabulary), params(profile)).boxed())
    }

    /// Any strategy of method and params.
    pub fn custom(strategy: BoxedStrategy<CallBody>) -> CallBodies {
        CallBodies(strategy)
    }

    /// The strategy.
    pub fn strategy(&self) -> BoxedStrategy<CallBody> {
        self.0.clone()
    }
}

/// Arbitrary JSON text (bounded depth and size).
pub fn json_value() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        (-1.0e6f64..1.0e6).prop_map(serde_json::Value::from),
        crate::pattern(".{0,12}").prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(crate::pattern("[a-z_]{1,6}"), inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
    .prop_map(|value| value.to_string())
    .boxed()
}

/// A JSON object of arbitrary members, as text.
pub fn json_object() -> BoxedStrategy<String> {
    prop::collection::vec((crate::pattern("[a-z_]{1,6}"), json_value()), 0..4)
        .prop_map(|members| {
            let members: Vec<RawMember> = members
                .into_iter()
                .map(|(k, v)| RawMember {
                    key: format!("\"{k}\""),
                    value: v,
                })
                .collect();
            render_object(&members, "")
        })
        .boxed()
}

/// Params a valid call may carry under `profile` (absent, an object, or an array where admitted).
pub fn params(profile: &ProfileFacts) -> BoxedStrategy<Option<String>> {
    let array =
        prop::collection::vec(json_value(), 0..4).prop_map(|v| format!("[{}]", v.join(",")));
    if profile.params_types.array {
        prop_oneof![
            Just(None),
            json_object().prop_map(Some),
            array.prop_map(Some)
        ]
        .boxed()
    } else {
        prop_oneof![Just(None), json_object().prop_map(Some)].boxed()
    }
}

/// Escapes the ASCII character at `at` (mod length) as `\u00XX` inside a name's token.
fn escaped_token(name: &str, at: usize) -> String {
    let plain = serde_json::to_string(name).expect("string");
    match name
        .char_indices()
        .filter(|(_, c)| c.is_ascii_alphanumeric())
        .nth(at % name.len().max(1))
    {
        Some((i, c)) => format!(
            "\"{}\\u{:04x}{}",
            &name[..i],
            c as u32,
            &serde_json::to_string(&name[i + 1..]).expect("string")[1..]
        ),
        None => plain,
    }
}

/// Method names from `vocabulary`: known and unknown names, some with escaped letters,
/// and generated unknown names.
pub fn method_name(vocabulary: Vocabulary) -> BoxedStrategy<MethodName> {
    let known = vocabulary.known;
    let from = |names: &'static [&'static str], is_known: bool| {
        (prop::sample::select(names), any::<bool>(), any::<usize>())
            .prop_map(move |(name, escape, at)| MethodName {
                token: if escape {
                    escaped_token(name, at)
                } else {
                    serde_json::to_string(name).expect("string")
                },
                name: name.to_owned(),
                known: is_known,
            })
            .boxed()
    };
    let mut choices = vec![(3, from(known, true))];
    if !vocabulary.unknown.is_empty() {
        choices.push((1, from(vocabulary.unknown, false)));
    }
    choices.push((
        1,
        crate::pattern("[a-z]{1,6}/[a-z]{1,6}")
            .prop_filter("not a known method", move |name| {
                !known.contains(&name.as_str())
            })
            .prop_map(|name| MethodName {
                token: serde_json::to_string(&name).expect("string"),
                name,
                known: false,
            })
            .boxed(),
    ));
    proptest::strategy::Union::new_weighted(choices).boxed()
}

/// Valid calls: requests (with an admitted id) and notifications.
pub fn call(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Call> {
    call_from(profile, &CallBodies::arbitrary(profile, vocabulary))
}

/// Valid calls with methods and params from `bodies`.
pub fn call_from(profile: &ProfileFacts, bodies: &CallBodies) -> BoxedStrategy<Call> {
    (
        prop::option::weighted(0.75, admitted_id(profile)),
        bodies.strategy(),
    )
        .prop_map(|(id, (method, params))| Call { id, method, params })
        .boxed()
}

/// Valid requests.
pub fn request(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Call> {
    (
        admitted_id(profile),
        CallBodies::arbitrary(profile, vocabulary).strategy(),
    )
        .prop_map(|(id, (method, params))| Call {
            id: Some(id),
            method,
            params,
        })
        .boxed()
}

/// Valid notifications.
pub fn notification(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Call> {
    notification_from(&CallBodies::arbitrary(profile, vocabulary))
}

/// Valid notifications with methods and params from `bodies`.
pub fn notification_from(bodies: &CallBodies) -> BoxedStrategy<Call> {
    bodies
        .strategy()
        .prop_map(|(method, params)| Call {
            id: None,
            method,
            params,
        })
        .boxed()
}

/// Valid responses: results and errors.
pub fn response(profile: &ProfileFacts) -> BoxedStrategy<Response> {
    let body = prop_oneof![
        json_value().prop_map(Ok),
        (any::<i32>(), crate::pattern(".{0,12}")).prop_map(|(c, m)| Err((i64::from(c), m)))
    ];
    (admitted_id(profile), body)
        .prop_map(|(id, body)| Response { id, body })
        .boxed()
}

/// Valid messages of every kind for `profile`.
///
/// ```
/// use mcpwire_proptest::{message::valid_message, Vocabulary};
/// use mcpwire_proptest::facts::JSONRPC_2_0;
/// use proptest::prelude::*;
///
/// proptest!(|(message in valid_message(&JSONRPC_2_0, Vocabulary::DEFAULT))| {
///     let text = message.render();
///     prop_assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
/// });
/// ```
pub fn valid_message(profile: &ProfileFacts, vocabulary: Vocabulary) -> BoxedStrategy<Message> {
    valid_message_from(profile, &CallBodies::arbitrary(profile, vocabulary))
}

/// Valid messages of every kind, with call methods and params from `bodies`.
pub fn valid_message_from(profile: &ProfileFacts, bodies: &CallBodies) -> BoxedStrategy<Message> {
    prop_oneof![
        3 => call_from(profile, bodies).prop_map(Message::Call),
        1 => response(profile).prop_map(Message::Response),
    ]
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_tokens_decode_to_the_name() {
        for at in 0..6 {
            let token = escaped_token("tools/list", at);
            assert!(token.contains("\\u00"), "{token}");
            assert_eq!(
                serde_json::from_str::<String>(&token).unwrap(),
                "tools/list"
            );
        }
    }
}
