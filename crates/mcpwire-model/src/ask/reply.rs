//! The version-neutral model of what a client answers when a server asks: the message its
//! model sampled ([`SamplingReply`], `CreateMessageResult`) and the user's answer to an
//! elicitation ([`ElicitAnswer`], `ElicitResult`). `ask/reply_wire.rs` converts them to and
//! from each version's generated types, so the client that writes them and the server that
//! reads them hold one shape.

use serde_json::{Map, Value};

use crate::ask::sampled::{SampledContent, SampledToolUse};
use crate::content::{Content, Role};

/// What the client's model answered to `sampling/createMessage` (`CreateMessageResult`).
///
/// ```
/// use mcpwire_model::{SamplingReply, Version};
///
/// let reply = SamplingReply::assistant_text("my-model", "Paris").stop_reason("endTurn");
/// let sent = reply.to_json(Version::V2025_06_18).unwrap();
/// assert_eq!(sent["content"]["text"], "Paris");
/// assert_eq!(reply.text(), Some("Paris"));
/// let read = SamplingReply::from_json(&sent.to_string(), Version::V2025_06_18).unwrap();
/// assert_eq!(read, reply);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingReply {
    /// Who speaks (the assistant, normally).
    pub role: Role,
    /// What it said: text, an image or audio, or (from 2025-11-25) tool uses, a tool
    /// result or an array of blocks.
    pub content: SampledContent,
    /// The model that answered.
    pub model: String,
    /// Why the model stopped (`endTurn`, `stopSequence`, `maxTokens`, or another), if said.
    pub stop_reason: Option<String>,
    /// The result's `_meta` (every version), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl SamplingReply {
    /// An assistant's text answer from `model`.
    pub fn assistant_text(model: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: Content::text(text).into(),
            model: model.into(),
            stop_reason: None,
            meta: None,
        }
    }

    /// An assistant's request to use tools, from `model` (stop reason `toolUse`; from
    /// 2025-11-25). One use is sent as a block, several as an array.
    pub fn tool_use(model: impl Into<String>, mut uses: Vec<SampledToolUse>) -> Self {
        let content = if uses.len() == 1 {
            SampledContent::Block(crate::ask::sampled::SampledBlock::ToolUse(uses.remove(0)))
        } else {
            SampledContent::Blocks(
                uses.into_iter()
                    .map(crate::ask::sampled::SampledBlock::ToolUse)
                    .collect(),
            )
        };
        Self {
            role: Role::Assistant,
            content,
            model: model.into(),
            stop_reason: Some("toolUse".into()),
            meta: None,
        }
    }

    /// This reply, saying why the model stopped.
    #[must_use]
    pub fn stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }

    /// This reply, with `_meta`.
    #[must_use]
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The answer's text, when it is a text block.
    pub fn text(&self) -> Option<&str> {
        self.content.text()
    }
}

/// The user's answer to an elicitation (`ElicitResult`).
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitAnswer {
    /// Accepted: the form's content (empty for URL mode, which sends none).
    Accept(Map<String, Value>),
    /// Declined.
    Decline,
    /// Dismissed without a choice.
    Cancel,
}

/// An elicitation answer with the result's `_meta` (`ElicitResult`; `_meta` exists under
/// 2025-06-18 and 2025-11-25): what a client that has metadata to return sends instead of a
/// bare [`ElicitAnswer`].
///
/// ```
/// use mcpwire_model::{ElicitAnswer, ElicitReply, Version};
///
/// let mut meta = serde_json::Map::new();
/// meta.insert("example.com/by".into(), "form-ui".into());
/// let reply = ElicitAnswer::Decline.with_meta(meta);
/// let sent = reply.to_json(Version::V2025_06_18).unwrap();
/// assert_eq!(sent["_meta"]["example.com/by"], "form-ui");
/// assert_eq!(ElicitReply::from_json(&sent.to_string(), Version::V2025_06_18).unwrap(), reply);
/// assert!(reply.to_json(Version::V2026_07_28).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitReply {
    /// The answer.
    pub answer: ElicitAnswer,
    /// The result's `_meta`, as sent.
    pub meta: Option<Map<String, Value>>,
}

impl From<ElicitAnswer> for ElicitReply {
    fn from(answer: ElicitAnswer) -> Self {
        Self { answer, meta: None }
    }
}

impl ElicitAnswer {
    /// This answer with the result's `_meta`.
    pub fn with_meta(self, meta: Map<String, Value>) -> ElicitReply {
        ElicitReply {
            answer: self,
            meta: Some(meta),
        }
    }
}
