//! The version-neutral model of what a server asks the client: an elicitation (a form, or a
//! URL to open) and a sampling request (a conversation for the client's model). `ask/wire.rs`
//! converts them into each version's generated params types.
//!
//! Like the content model, it knows nothing of the server machinery, so that a client crate
//! can share it.

pub(crate) mod read;
pub mod reply;
pub(crate) mod reply_wire;
pub mod sampled;
pub(crate) mod sampled_wire;
pub mod wire;

use serde_json::{Map, Value};

use crate::ask::sampled::{SampledContent, ToolChoice};
use crate::content::{Content, Role};
use crate::form::Form;
use crate::tool_info::ToolInfo;

/// What `elicitation/create` asks the user.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitRequest {
    /// Fill in a form (`mode: "form"`, the only mode of 2025-06-18).
    Form {
        /// What the user is asked.
        message: String,
        /// The form.
        form: Form,
        /// `_meta` (2025-11-25 only), as sent.
        meta: Option<Map<String, Value>>,
    },
    /// Open a URL, e.g. to sign in somewhere the client must not see (`mode: "url"`, from
    /// 2025-11-25).
    Url {
        /// Why the user should open it.
        message: String,
        /// The URL.
        url: String,
        /// The id `notifications/elicitation/complete` names (2025-11-25 requires one;
        /// 2026-07-28 has none).
        elicitation_id: Option<String>,
        /// `_meta` (2025-11-25 only), as sent.
        meta: Option<Map<String, Value>>,
    },
}

/// One message of a [`SamplingRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image or audio, or (from 2025-11-25) a tool use, a tool
    /// result or an array of blocks.
    pub content: SampledContent,
    /// The message's `_meta` (from 2025-11-25), as sent.
    pub meta: Option<Map<String, Value>>,
}

/// Where the client may take context for the model from (`includeContext`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeContext {
    /// No other context.
    None,
    /// The context of this server.
    ThisServer,
    /// The context of every server the client is connected to.
    AllServers,
}

/// The server's preferences for the model the client picks (`ModelPreferences`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelPreferences {
    /// Model names or families to prefer, in order (`hints[].name`).
    pub hints: Vec<String>,
    /// How much cost matters, from 0 to 1.
    pub cost_priority: Option<f64>,
    /// How much speed matters, from 0 to 1.
    pub speed_priority: Option<f64>,
    /// How much intelligence matters, from 0 to 1.
    pub intelligence_priority: Option<f64>,
}

/// A `sampling/createMessage` request: a conversation for the client's model, and how to
/// answer it.
///
/// ```
/// use mcpwire_model::{IncludeContext, ModelPreferences, SamplingRequest};
///
/// let request = SamplingRequest::new(200)
///     .user("What is the capital of France?")
///     .system_prompt("Answer in one word.")
///     .temperature(0.2)
///     .stop_sequence("\n")
///     .include_context(IncludeContext::ThisServer)
///     .model_preferences(ModelPreferences {
///         hints: vec!["claude".into()],
///         intelligence_priority: Some(0.8),
///         ..ModelPreferences::default()
///     });
/// assert_eq!(request.messages.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the model may produce.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    pub system_prompt: Option<String>,
    /// Which model the server would like.
    pub model_preferences: Option<ModelPreferences>,
    /// The sampling temperature.
    pub temperature: Option<f64>,
    /// Sequences that end the answer.
    pub stop_sequences: Vec<String>,
    /// Where the client may take context from.
    pub include_context: Option<IncludeContext>,
    /// The tools the model may use (`tools`, from 2025-11-25).
    pub tools: Option<Vec<ToolInfo>>,
    /// How the model may use them (`toolChoice`, from 2025-11-25).
    pub tool_choice: Option<ToolChoice>,
    /// Provider-specific metadata for the model (`metadata`).
    pub metadata: Option<Map<String, Value>>,
    /// Task metadata (`task`, e.g. `{"ttl": 60000}`; 2025-11-25 only).
    pub task: Option<Map<String, Value>>,
    /// The params' `_meta` (2025-11-25 only), as sent.
    pub meta: Option<Map<String, Value>>,
}

impl SamplingRequest {
    /// A request without messages yet, for at most `max_tokens` tokens.
    pub fn new(max_tokens: u32) -> Self {
        Self {
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
            model_preferences: None,
            temperature: None,
            stop_sequences: Vec::new(),
            include_context: None,
            tools: None,
            tool_choice: None,
            metadata: None,
            task: None,
            meta: None,
        }
    }

    /// Adds a message of any content: a block (text, image or audio) or, from 2025-11-25,
    /// a tool use, a tool result or an array of blocks.
    #[must_use]
    pub fn message(mut self, role: Role, content: impl Into<SampledContent>) -> Self {
        self.messages.push(SamplingMessage {
            role,
            content: content.into(),
            meta: None,
        });
        self
    }

    /// Adds a user message of text.
    #[must_use]
    pub fn user(self, text: impl Into<String>) -> Self {
        self.message(Role::User, Content::text(text))
    }

    /// Adds an assistant message of text.
    #[must_use]
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.message(Role::Assistant, Content::text(text))
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the model preferences.
    #[must_use]
    pub fn model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.model_preferences = Some(preferences);
        self
    }

    /// Sets the temperature.
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Adds a stop sequence.
    #[must_use]
    pub fn stop_sequence(mut self, stop: impl Into<String>) -> Self {
        self.stop_sequences.push(stop.into());
        self
    }

    /// Offers the model `tools`, used as `choice` says (from 2025-11-25).
    #[must_use]
    pub fn tools(mut self, tools: Vec<ToolInfo>, choice: Option<ToolChoice>) -> Self {
        self.tools = Some(tools);
        self.tool_choice = choice;
        self
    }

    /// Sets the provider-specific metadata.
    #[must_use]
    pub fn metadata(mut self, metadata: Map<String, Value>) -> Self {
        self.metadata = Some(metadata);
        self
    }

    /// Sets where the client may take context from.
    #[must_use]
    pub fn include_context(mut self, include: IncludeContext) -> Self {
        self.include_context = Some(include);
        self
    }
}
