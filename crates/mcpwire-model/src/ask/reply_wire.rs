//! The reply model on the wire, both ways: a [`SamplingReply`] as each version's generated
//! `CreateMessageResult` and an [`ElicitAnswer`] as its `ElicitResult` (whose content is
//! held to what a form can answer rather than to the schemas' integer-only typing; see
//! [`ElicitAnswer::to_json`]), and those read back.
//! What a version lacks (audio before 2025-03-26, elicitation before 2025-06-18, a resource
//! in any sampled message, tool use before 2025-11-25) is an [`AskError`] when sent; tool
//! use, tool results and arrays of blocks (from 2025-11-25) go through `ask/sampled_wire.rs`.

use mcpwire_types::mcp::{v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use serde_json::{Map, Value, json};

use crate::ask::reply::{ElicitAnswer, ElicitReply, SamplingReply};
use crate::ask::sampled_wire::{SampledOf, SampledTo};
use crate::ask::wire::{AskError, lacking, refused};
use crate::by_version::by_version;
use crate::content::Role;
use crate::content::read::object_of;
use crate::content::wire::{optional_as, to_value};
use crate::read_error::{ReadError, decode};
use crate::version::Version;

/// The [`Role`] of a generated `Role` of module `$m`.
macro_rules! role_of {
    ($m:ident, $role:expr) => {
        match $role {
            $m::Role::User => $crate::content::Role::User,
            $m::Role::Assistant => $crate::content::Role::Assistant,
        }
    };
}
pub(crate) use role_of;

/// The generated `Role` of module `$m`.
macro_rules! role_to {
    ($m:ident, $role:expr) => {
        match $role {
            Role::User => $m::Role::User,
            Role::Assistant => $m::Role::Assistant,
        }
    };
}

impl SamplingReply {
    /// The `CreateMessageResult` of `version`, serialized from its generated type, or what
    /// the version cannot carry.
    pub fn to_json(&self, version: Version) -> Result<Value, AskError> {
        macro_rules! result {
            ($m:ident) => {{
                let content: $m::CreateMessageResultContent =
                    SampledTo::sampled_to(&self.content, version)?;
                let mut out =
                    $m::CreateMessageResult::new(content, &*self.model, role_to!($m, self.role));
                out.stop_reason = self.stop_reason.clone();
                out.meta = optional_as(&self.meta, "a `_meta`", version).map_err(refused)?;
                to_value(out)
            }};
        }
        Ok(by_version!(version, result))
    }

    /// The reply a client sent: `text` (a `CreateMessageResult` of `version`) decoded as
    /// that version's generated type, then read.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        const WHAT: &str = "CreateMessageResult";
        macro_rules! read {
            ($m:ident) => {{
                let r: $m::CreateMessageResult = decode(text, WHAT, version)?;
                let content = r.content.sampled_of(version)?;
                SamplingReply {
                    role: role_of!($m, r.role),
                    content,
                    model: r.model,
                    stop_reason: r.stop_reason,
                    meta: r.meta.and_then(object_of),
                }
            }};
        }
        Ok(by_version!(version, read))
    }
}

/// Why `value` cannot be a value of an elicitation answer, if it cannot: a string, a number,
/// a boolean or an array of strings (a multiple choice). The schemas type the values
/// `string | integer | boolean | string[]`, yet their forms ask for `number` fields
/// (`NumberSchema`, `type: "number"`), whose answers (`95.5`) no integer holds: numbers are
/// taken whole, as the forms ask.
fn answer_value_problem(value: &Value) -> Option<&'static str> {
    match value {
        Value::String(_) | Value::Number(_) | Value::Bool(_) => None,
        Value::Array(items) if items.iter().all(Value::is_string) => None,
        Value::Array(_) => Some("an array of other than strings"),
        Value::Object(_) => Some("an object"),
        Value::Null => Some("null"),
    }
}

/// The `action` of an `ElicitResult`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Decline,
    Cancel,
}

/// An `ElicitResult` as read: its action, content and `_meta` (undeclared members left
/// behind).
#[derive(serde::Deserialize)]
struct ElicitResultText {
    action: Action,
    #[serde(default)]
    content: Option<Map<String, Value>>,
    #[serde(rename = "_meta", default)]
    meta: Option<Map<String, Value>>,
}

/// Whether `version`'s `ElicitResult` has `_meta` (2025-06-18 and 2025-11-25).
fn elicit_result_has_meta(version: Version) -> bool {
    matches!(version, Version::V2025_06_18 | Version::V2025_11_25)
}

impl ElicitReply {
    /// The `ElicitResult` of `version` (see [`ElicitAnswer::to_json`]) with the `_meta`, or
    /// an error where the version's result has no `_meta` (2026-07-28).
    pub fn to_json(&self, version: Version) -> Result<Value, AskError> {
        let mut out = self.answer.to_json(version)?;
        if let Some(meta) = &self.meta {
            if !elicit_result_has_meta(version) {
                return Err(lacking("an elicitation result's `_meta`", version));
            }
            out["_meta"] = Value::Object(meta.clone());
        }
        Ok(out)
    }

    /// The reply a client sent (see [`ElicitAnswer::from_json`]), with its `_meta` where
    /// the version's result has one.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        let (answer, meta) = read_elicit_result(text, version)?;
        Ok(Self {
            answer,
            meta: meta.filter(|_| elicit_result_has_meta(version)),
        })
    }
}

/// An `ElicitResult` of `version` read: the answer, and the `_meta` as sent.
fn read_elicit_result(
    text: &str,
    version: Version,
) -> Result<(ElicitAnswer, Option<Map<String, Value>>), ReadError> {
    const WHAT: &str = "ElicitResult";
    if version < Version::V2025_06_18 {
        return Err(ReadError::new(
            WHAT,
            version,
            "the version has no elicitation",
        ));
    }
    let read: ElicitResultText = decode(text, WHAT, version)?;
    let answer = match read.action {
        Action::Accept => {
            let content = read.content.unwrap_or_default();
            for (name, value) in &content {
                if let Some(problem) = answer_value_problem(value) {
                    return Err(ReadError::new(
                        WHAT,
                        version,
                        format!("the answer of field `{name}` is {problem}"),
                    ));
                }
            }
            ElicitAnswer::Accept(content)
        }
        Action::Decline => ElicitAnswer::Decline,
        Action::Cancel => ElicitAnswer::Cancel,
    };
    Ok((answer, read.meta))
}

impl ElicitAnswer {
    /// The `ElicitResult` of `version`, or an error before 2025-06-18 (no elicitation) and
    /// for content values a form cannot have (an object, `null`, an array of other than
    /// strings).
    ///
    /// ```
    /// use mcpwire_model::{ElicitAnswer, Version};
    ///
    /// let mut content = serde_json::Map::new();
    /// content.insert("name".into(), "Ada".into());
    /// content.insert("score".into(), serde_json::json!(95.5));
    /// let sent = ElicitAnswer::Accept(content).to_json(Version::V2025_06_18).unwrap();
    /// assert_eq!(sent["action"], "accept");
    /// assert_eq!(sent["content"]["score"], 95.5);
    /// assert!(ElicitAnswer::Decline.to_json(Version::V2025_03_26).is_err());
    /// ```
    pub fn to_json(&self, version: Version) -> Result<Value, AskError> {
        if version < Version::V2025_06_18 {
            return Err(lacking("an elicitation answer", version));
        }
        Ok(match self {
            // URL mode accepts without content.
            ElicitAnswer::Accept(content) if content.is_empty() => json!({ "action": "accept" }),
            ElicitAnswer::Accept(content) => {
                for (name, value) in content {
                    if let Some(problem) = answer_value_problem(value) {
                        return Err(lacking(
                            format!("{problem} as the answer of field `{name}`"),
                            version,
                        ));
                    }
                }
                json!({ "action": "accept", "content": content })
            }
            ElicitAnswer::Decline => json!({ "action": "decline" }),
            ElicitAnswer::Cancel => json!({ "action": "cancel" }),
        })
    }

    /// The answer a client sent: `text` (an `ElicitResult` of `version`) read, its content
    /// values held to what a form can have (see [`ElicitAnswer::to_json`]).
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_elicit_result(text, version).map(|(answer, _)| answer)
    }
}
