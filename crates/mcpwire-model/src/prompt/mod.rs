//! A prompt's messages, version-neutral: what `prompts/get` returns (a description and
//! messages, each a role and one content block).

pub(crate) mod read;

use std::borrow::Cow;

use serde_json::Value;

use crate::content::wire::{get_prompt_result, prompt_message};
use crate::content::{Content, ContentError, Role};
use crate::prompt::read::read_get_prompt_result;
use crate::read_error::ReadError;
use crate::version::Version;

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A user message of text.
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: Content::text(text),
        }
    }

    /// An assistant message of text.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: Content::text(text),
        }
    }

    /// A message of any content block.
    pub fn new(role: Role, content: Content) -> Self {
        Self { role, content }
    }

    /// The `PromptMessage` of `version`, serialized from its generated type.
    pub fn to_json(&self, version: Version) -> Result<Value, ContentError> {
        prompt_message(self.role, &self.content, version)
    }
}

/// What `prompts/get` returns: an optional description and the messages.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptResult {
    /// What the prompt is for.
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<PromptMessage>,
}

impl PromptResult {
    /// The `GetPromptResult` of `version`, serialized from its generated type, or the block a
    /// message holds that the version lacks.
    pub fn try_to_json(&self, version: Version) -> Result<Value, ContentError> {
        let parts = self
            .messages
            .iter()
            .map(|m| (m.role, Cow::Borrowed(&m.content)));
        get_prompt_result(self.description.clone(), parts, version)
    }

    /// The result a server sent: `text` (a `GetPromptResult` of `version`) decoded as that
    /// version's generated type, then read into the model.
    pub fn from_json(text: &str, version: Version) -> Result<Self, ReadError> {
        read_get_prompt_result(text, version)
    }
}
