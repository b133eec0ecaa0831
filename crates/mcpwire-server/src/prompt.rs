//! A prompt: a named template the client can list and get, with typed arguments.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

use mcpwire::RpcError;
use mcpwire_model::Unwritten;
use mcpwire_model::{PromptArgumentEntry, PromptEntry};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::arguments::{ArgumentError, decode_member};
use crate::completion::{Completers, CompletionRequest};
use crate::context::Context;
use crate::resource_info::{icons_for, meta_for};
use crate::tool::BoxFuture;
use mcpwire_model::content::wire::get_prompt_result;
use mcpwire_model::prompt::PromptMessage;
use mcpwire_model::schema::{SchemaError, object_schema};
use mcpwire_model::version::{Feature, Version};

type GetFn = dyn Fn(Map<String, Value>, Context) -> Result<BoxFuture<Vec<PromptMessage>>, ArgumentError>
    + Send
    + Sync;

/// A prompt the server offers: `prompts/list` describes it (its arguments come from the
/// arguments type's properties: MCP prompt arguments are strings), `prompts/get` runs it.
///
/// ```
/// use mcpwire_server::{Context, Prompt, PromptMessage};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Review {
///     /// The code to review.
///     code: String,
/// }
///
/// let prompt = Prompt::new("review", "Review code", |args: Review, _ctx: Context| async move {
///     vec![PromptMessage::user(format!("Please review:\n{}", args.code))]
/// });
/// assert_eq!(prompt.name(), "review");
/// ```
#[derive(Clone)]
pub struct Prompt {
    name: String,
    title: Option<String>,
    description: String,
    arguments: Result<Vec<PromptArgumentEntry>, SchemaError>,
    icons: Option<Vec<Map<String, Value>>>,
    meta: Option<Map<String, Value>>,
    handler: Arc<GetFn>,
    completers: Completers,
}

impl std::fmt::Debug for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prompt")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Prompt {
    /// A prompt whose arguments decode as `A`.
    pub fn new<A, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Self
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        F: Fn(A, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<PromptMessage>> + Send + 'static,
    {
        let handler = move |arguments: Map<String, Value>, ctx: Context| {
            let arguments: A = decode_member("arguments", Value::Object(arguments))?;
            let boxed: BoxFuture<Vec<PromptMessage>> = Box::pin(handler(arguments, ctx));
            Ok(boxed)
        };
        Self {
            name: name.into(),
            title: None,
            description: description.into(),
            arguments: object_schema::<A>().map(|schema| prompt_arguments(&schema)),
            icons: None,
            meta: None,
            handler: Arc::new(handler),
            completers: Completers::default(),
        }
    }

    /// Sets the human-readable title (sent from 2025-06-18).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the icons, each an `Icon` object (`src`, `mimeType`, `sizes`, `theme`; sent
    /// from 2025-11-25).
    pub fn icons(mut self, icons: Vec<Map<String, Value>>) -> Self {
        self.icons = Some(icons);
        self
    }

    /// Sets `_meta` (sent from 2025-06-18).
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Suggests values for `argument` as the user types (`completion/complete`). The
    /// argument must be one of the arguments type's properties (checked when the prompt is
    /// added to a server).
    ///
    /// ```
    /// use mcpwire_server::{CompletionRequest, Context, Prompt, PromptMessage};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Translate { language: String }
    ///
    /// let prompt = Prompt::new("translate", "Translate", |args: Translate, _: Context| async move {
    ///     vec![PromptMessage::user(format!("Translate into {}", args.language))]
    /// })
    /// .complete("language", |request: CompletionRequest| async move {
    ///     ["English", "French", "German"]
    ///         .into_iter()
    ///         .filter(|l| l.to_lowercase().starts_with(&request.value.to_lowercase()))
    ///         .map(String::from)
    ///         .collect()
    /// });
    /// # let _ = prompt;
    /// ```
    pub fn complete<F, Fut>(mut self, argument: impl Into<String>, completer: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<String>> + Send + 'static,
    {
        self.completers.insert(argument.into(), completer);
        self
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn completers(&self) -> &Completers {
        &self.completers
    }

    /// An argument with a completer that the prompt does not have.
    pub(crate) fn unknown_completion(&self) -> Option<&str> {
        let arguments = self.arguments.as_deref().unwrap_or_default();
        self.completers
            .unknown(|name| arguments.iter().any(|a| a.name == name))
    }

    pub(crate) fn schema_error(&self) -> Option<&SchemaError> {
        self.arguments.as_ref().err()
    }

    /// The prompt as `prompts/list` describes it under `version` (the title left out on
    /// purpose before 2025-06-18, which has no titles; no `arguments` member when it has
    /// none).
    pub(crate) fn definition(&self, version: Version) -> PromptEntry {
        let arguments = self.arguments.as_ref().ok().filter(|a| !a.is_empty());
        PromptEntry {
            name: self.name.clone(),
            title: self.title.clone().filter(|_| version.has(Feature::Titles)),
            description: Some(self.description.clone()),
            arguments: arguments.cloned(),
            icons: icons_for(&self.icons, version),
            meta: meta_for(&self.meta, version),
        }
    }

    /// Decodes the arguments and runs the handler: the `GetPromptResult` (the messages' texts
    /// moved into it), kept unwritten for the reply to write once, or -32603 when a message
    /// holds a block `version` lacks.
    pub(crate) fn start(
        &self,
        arguments: Map<String, Value>,
        ctx: Context,
        version: Version,
    ) -> Result<BoxFuture<Result<Unwritten, RpcError>>, ArgumentError> {
        let messages = (self.handler)(arguments, ctx)?;
        let description = self.description.clone();
        Ok(Box::pin(async move {
            let parts = messages
                .await
                .into_iter()
                .map(|m| (m.role, Cow::Owned(m.content)));
            get_prompt_result(Some(description), parts, version).map_err(|e| {
                RpcError::internal_error()
                    .with_data(&format!("the prompt's messages cannot be sent: {e}"))
            })
        }))
    }
}

/// The `PromptArgument` list of an arguments schema: each property, its description, and
/// whether it is required.
fn prompt_arguments(schema: &Map<String, Value>) -> Vec<PromptArgumentEntry> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, property)| PromptArgumentEntry {
            name: name.clone(),
            title: None,
            // A description that is not a string is not one MCP can carry: left out.
            description: property
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            required: Some(required.contains(&name.as_str())),
        })
        .collect()
}
