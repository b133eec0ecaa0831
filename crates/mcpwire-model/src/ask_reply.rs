//! The version-neutral model of what a client answers when a server asks: the message its
//! model sampled ([`SamplingReply`], `CreateMessageResult`) and the user's answer to an
//! elicitation ([`ElicitAnswer`], `ElicitResult`). `ask_reply_wire.rs` converts them to and
//! from each version's generated types, so the client that writes them and the server that
//! reads them hold one shape.

use serde_json::{Map, Value};

use crate::content::{Content, ContentKind, Role};

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
    /// What it said: text, an image or audio.
    pub content: Content,
    /// The model that answered.
    pub model: String,
    /// Why the model stopped (`endTurn`, `stopSequence`, `maxTokens`, or another), if said.
    pub stop_reason: Option<String>,
}

impl SamplingReply {
    /// An assistant's text answer from `model`.
    pub fn assistant_text(model: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: Content::text(text),
            model: model.into(),
            stop_reason: None,
        }
    }

    /// This reply, saying why the model stopped.
    #[must_use]
    pub fn stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }

    /// The answer's text, when it is a text block.
    pub fn text(&self) -> Option<&str> {
        match &self.content.kind {
            ContentKind::Text(text) => Some(text),
            _ => None,
        }
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
