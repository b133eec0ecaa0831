//! The typed calls of [`Client`]: listing (a page at a time or every page), tools with
//! typed arguments and typed structured output checked against the tool's `outputSchema`,
//! resources, prompts, completion, subscriptions and the log level. Each checks first that
//! the version agreed has the method, and decodes its result in one pass.

use mcpwire::peer::Request;
use mcpwire_model::content::{ContentKind, EmbeddedResource};
use mcpwire_model::read_error::json_pointer as pointer;
use mcpwire_model::result::read::read_resource_result;
use mcpwire_model::result::wire::CompletionPage;
use mcpwire_model::{
    ListPage, PromptEntry, PromptResult, ReadError, ResourceEntry, ResourceTemplateEntry, ToolInfo,
    ToolPage, ToolResult, Version,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::client::Client;
use crate::describe::Page;
use crate::error::ClientError;
use crate::listen::{ListenFilter, SUBSCRIPTION_CAPACITY, Subscription};
use crate::meta;
use crate::options::CallOptions;
use crate::output::check_output;
use crate::result_check::{complete_by_default, decode_checked};
use crate::session::Target;
use crate::tasks::{ToolCall, created_task};
use crate::violation::{Rule, Violation};

/// How many input-required rounds one 2026-07-28 call may take before the client gives up
/// (a server asking for ever is not followed for ever).
pub const MAX_INPUT_ROUNDS: usize = 8;

/// The largest number of pages [`Client::list_all_tools`] and its siblings follow.
pub const MAX_LIST_PAGES: usize = 10_000;

/// The methods whose 2026-07-28 results may ask for input.
const INPUT_METHODS: [&str; 3] = ["tools/call", "prompts/get", "resources/read"];

/// Declares a request type with a JSON-object params and a typed result.
macro_rules! method {
    ($(#[$doc:meta])* $name:ident, $method:literal, $result:ty) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl Request for $name {
            const METHOD: &'static str = $method;
            type Params = Map<String, Value>;
            type Result = $result;
        }
    };
}

// Read into the version-neutral model from their text (`mcpwire-model`'s readers decode
// the version's generated type, so the schema is held in the same pass).
method!(ListResources, "resources/list", Box<RawValue>);
method!(ListTemplates, "resources/templates/list", Box<RawValue>);
method!(ListPrompts, "prompts/list", Box<RawValue>);
method!(ListTools, "tools/list", Box<RawValue>);
method!(CallTool, "tools/call", Box<RawValue>);
method!(ReadResource, "resources/read", Box<RawValue>);
method!(GetPrompt, "prompts/get", Box<RawValue>);
method!(Complete, "completion/complete", Box<RawValue>);
method!(Subscribe, "resources/subscribe", Map<String, Value>);
method!(Unsubscribe, "resources/unsubscribe", Map<String, Value>);
method!(SetLevel, "logging/setLevel", Map<String, Value>);
method!(Listen, "subscriptions/listen", Map<String, Value>);
method!(PingServer, "ping", Map<String, Value>);

/// A tool result whose structured content was decoded as `T`.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedToolResult<T> {
    /// The structured content, decoded.
    pub output: T,
    /// The whole result.
    pub result: ToolResult,
}

/// The text of a tool result's text blocks, joined with newlines.
pub fn result_text(result: &ToolResult) -> String {
    let texts: Vec<&str> = result
        .blocks()
        .iter()
        .filter_map(|block| match &block.kind {
            ContentKind::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

/// What a completion is for: an argument of a prompt, or a variable of a resource
/// template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompletionTarget {
    /// A prompt, by name.
    Prompt(String),
    /// A resource template, by its URI template.
    Template(String),
}

/// Same method, result kept as raw JSON text (for the 2026-07-28 input-required rounds).
struct Raw<R>(std::marker::PhantomData<R>);

impl<R: Request> Request for Raw<R> {
    const METHOD: &'static str = R::METHOD;
    type Params = Map<String, Value>;
    type Result = Box<RawValue>;
}

/// What decides whether a 2026-07-28 result is complete or asks for input.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResultHead {
    #[serde(default)]
    result_type: Option<String>,
    #[serde(default)]
    input_requests: Option<Map<String, Value>>,
    #[serde(default)]
    request_state: Option<String>,
}

/// `{key: value}`.
fn one(key: &str, value: &str) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert(key.into(), value.into());
    params
}

/// A JSON object of strings.
fn strings(pairs: &[(&str, &str)]) -> Value {
    let object: Map<String, Value> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    Value::Object(object)
}

fn cursor_params(cursor: Option<&str>) -> Map<String, Value> {
    let mut params = Map::new();
    if let Some(cursor) = cursor {
        params.insert("cursor".into(), cursor.into());
    }
    params
}

impl Client {
    fn require(&self, method: &str) -> Result<(), ClientError> {
        let version = self.protocol_version();
        if version.has_request(method) {
            Ok(())
        } else {
            Err(ClientError::NotInVersion {
                method: method.to_owned(),
                version: version.as_str(),
            })
        }
    }

    /// Calls `R` after checking the version has it. Under a version with input-required
    /// results, a method that may have one answers their input requests and retries; with
    /// [`check_results`](crate::ClientBuilder::check_results) the result is held to the
    /// version's schema in the same pass that reads it (one parse of its text). Otherwise
    /// the result is decoded in one pass as the client's own type.
    async fn typed<R>(
        &self,
        params: Map<String, Value>,
        target: Target,
        options: &CallOptions,
    ) -> Result<R::Result, ClientError>
    where
        R: Request<Params = Map<String, Value>>,
    {
        if !self.session().settings().check_results {
            self.require(R::METHOD)?;
            return self.session().call::<R>(params, target, options).await;
        }
        let raw = self.raw::<Raw<R>>(params, target, options).await?;
        Ok(decode_checked(
            self.protocol_version(),
            R::METHOD,
            raw.get(),
        )?)
    }

    /// A request whose result carries nothing the caller needs.
    async fn empty<R>(&self, params: Map<String, Value>) -> Result<(), ClientError>
    where
        R: Request<Params = Map<String, Value>>,
    {
        let options = CallOptions::new();
        let result = self.typed::<R>(params, Target::default(), &options).await;
        result.map(drop)
    }

    /// `ping` (not in 2026-07-28).
    pub async fn ping(&self) -> Result<(), ClientError> {
        self.empty::<PingServer>(Map::new()).await
    }

    /// One page of a list `R`, read into the model in one pass through the version's
    /// generated type (so its schema is held whatever
    /// [`check_results`](crate::ClientBuilder::check_results) says).
    async fn page<R, T>(
        &self,
        cursor: Option<&str>,
        reader: impl FnOnce(&str, Version) -> Result<ListPage<T>, ReadError>,
    ) -> Result<Page<T>, ClientError>
    where
        R: Request<Params = Map<String, Value>, Result = Box<RawValue>>,
    {
        let options = CallOptions::new();
        let raw = self.raw::<R>(cursor_params(cursor), Target::default(), &options);
        read(&raw.await?, self.protocol_version(), reader)
    }

    /// One page of `tools/list` (`cursor` from the previous page; `None` for the first),
    /// read into the model's [`ToolInfo`] (the type servers list tools with) in one pass
    /// through the version's generated type, so its schema is held whatever
    /// [`check_results`](crate::ClientBuilder::check_results) says. The tools are remembered
    /// for checking their outputs; under 2026-07-28 a tool whose `x-mcp-header`
    /// declarations break the rule is left out (and reported).
    pub async fn list_tools(&self, cursor: Option<&str>) -> Result<Page<ToolInfo>, ClientError> {
        let options = CallOptions::new();
        let raw = self.raw::<ListTools>(cursor_params(cursor), Target::default(), &options);
        let page = read(&raw.await?, self.protocol_version(), ToolPage::from_json)?;
        // Only the HTTP transport's header rule changes the page.
        #[cfg_attr(not(feature = "http"), allow(unused_mut))]
        let mut page = Page {
            items: page.tools,
            next_cursor: page.next_cursor,
        };
        #[cfg(feature = "http")]
        if self.protocol_version().is_stateless() {
            let callbacks = &self.session().settings().callbacks;
            crate::tool_headers::retain_valid(&mut page.items, |v| callbacks.violation(v));
        }
        self.tools().remember(&page.items);
        Ok(page)
    }

    /// Every tool, following the cursors (at most [`MAX_LIST_PAGES`] pages; a cursor seen
    /// twice ends the list with a violation).
    pub async fn list_all_tools(&self) -> Result<Vec<ToolInfo>, ClientError> {
        all_pages(|cursor| async move { self.list_tools(cursor.as_deref()).await }).await
    }

    /// One page of `resources/list`, read into the model's [`ResourceEntry`] (the type
    /// servers list resources with: size, annotations, icons and `_meta` where the version
    /// has them).
    pub async fn list_resources(
        &self,
        cursor: Option<&str>,
    ) -> Result<Page<ResourceEntry>, ClientError> {
        self.page::<ListResources, _>(cursor, ListPage::<ResourceEntry>::from_json)
            .await
    }

    /// Every resource, following the cursors.
    pub async fn list_all_resources(&self) -> Result<Vec<ResourceEntry>, ClientError> {
        all_pages(|cursor| async move { self.list_resources(cursor.as_deref()).await }).await
    }

    /// One page of `resources/templates/list`, read into the model's
    /// [`ResourceTemplateEntry`].
    pub async fn list_resource_templates(
        &self,
        cursor: Option<&str>,
    ) -> Result<Page<ResourceTemplateEntry>, ClientError> {
        self.page::<ListTemplates, _>(cursor, ListPage::<ResourceTemplateEntry>::from_json)
            .await
    }

    /// Every resource template, following the cursors.
    pub async fn list_all_resource_templates(
        &self,
    ) -> Result<Vec<ResourceTemplateEntry>, ClientError> {
        all_pages(|cursor| async move { self.list_resource_templates(cursor.as_deref()).await })
            .await
    }

    /// One page of `prompts/list`, read into the model's [`PromptEntry`].
    pub async fn list_prompts(
        &self,
        cursor: Option<&str>,
    ) -> Result<Page<PromptEntry>, ClientError> {
        self.page::<ListPrompts, _>(cursor, ListPage::<PromptEntry>::from_json)
            .await
    }

    /// Every prompt, following the cursors.
    pub async fn list_all_prompts(&self) -> Result<Vec<PromptEntry>, ClientError> {
        all_pages(|cursor| async move { self.list_prompts(cursor.as_deref()).await }).await
    }

    /// `tools/call` with `arguments` (anything that serializes to a JSON object; `()` for
    /// none). When the tool was listed with an `outputSchema`, a successful result must
    /// carry `structuredContent` matching it ([`ClientError::Output`] otherwise; the
    /// schema itself is checked with the `output-schema` feature). Under 2026-07-28, input
    /// requests are answered by the registered handlers and the call retried; an argument
    /// the tool mirrors in an `Mcp-Param-*` header that the header rule cannot carry (an
    /// array, an object, a fraction) is [`ClientError::Params`], and nothing is sent.
    ///
    /// A task the server answers with (the client declared the Tasks extension,
    /// [`ClientBuilder::tasks`](crate::ClientBuilder::tasks)) is followed to its end
    /// ([`wait_task`](Self::wait_task)): the result is the same as a direct call's.
    pub async fn call_tool<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
        options: &CallOptions,
    ) -> Result<ToolResult, ClientError> {
        let result = match self.call_tool_or_task(name, arguments, options).await? {
            ToolCall::Result(result) => result,
            ToolCall::Task(task) => self.wait_task(&task.task_id).await?,
        };
        if let Some(tool) = self.tools().get(name) {
            check_output(name, tool.output_schema.as_ref(), &result)?;
        }
        Ok(result)
    }

    /// `tools/call`: its result, or the task the server answered with.
    pub(crate) async fn call_tool_or_task<A: Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
        options: &CallOptions,
    ) -> Result<ToolCall, ClientError> {
        let arguments = meta::params_object(arguments).map_err(ClientError::Params)?;
        #[cfg_attr(not(feature = "http"), allow(unused_mut))]
        let mut target = Target::named(name);
        #[cfg(feature = "http")]
        if self.protocol_version().is_stateless()
            && let Some(tool) = self.tools().get(name)
        {
            target.param_headers = crate::tool_headers::values(&tool.param_headers, &arguments)
                .map_err(ClientError::Params)?;
        }
        let mut params = Map::new();
        params.insert("name".into(), name.into());
        params.insert("arguments".into(), Value::Object(arguments));
        let raw = self.raw::<CallTool>(params, target, options).await?;
        if let Some(task) = created_task(&raw) {
            return task.map(ToolCall::Task);
        }
        let result = read(&raw, self.protocol_version(), ToolResult::from_json)?;
        Ok(ToolCall::Result(result))
    }

    /// [`call_tool`](Self::call_tool), with the structured content decoded as `T` (an
    /// error names the JSON pointer that did not decode). A tool error (`isError`) is
    /// returned as [`ClientError::Output`] with the tool's text.
    pub async fn call_tool_typed<A: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        name: &str,
        arguments: &A,
        options: &CallOptions,
    ) -> Result<TypedToolResult<T>, ClientError> {
        let result = self.call_tool(name, arguments, options).await?;
        let output_error = |reason: String| ClientError::Output {
            tool: name.to_owned(),
            reason,
        };
        if result.is_error() {
            let text = result_text(&result);
            return Err(output_error(format!("the tool failed: {text}")));
        }
        let structured = result
            .structured_content()
            .ok_or_else(|| output_error("the result has no structuredContent".into()))?;
        let output = serde_path_to_error::deserialize::<_, T>(structured).map_err(|e| {
            output_error(format!(
                "structuredContent at \"{}\": {}",
                pointer(e.path()),
                e.inner()
            ))
        })?;
        Ok(TypedToolResult { output, result })
    }

    /// `resources/read`.
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<EmbeddedResource>, ClientError> {
        let params = one("uri", uri);
        let options = CallOptions::new();
        let raw = self.raw::<ReadResource>(params, Target::named(uri), &options);
        read(&raw.await?, self.protocol_version(), read_resource_result)
    }

    /// `prompts/get` with string arguments.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &[(&str, &str)],
    ) -> Result<PromptResult, ClientError> {
        let mut params = one("name", name);
        if !arguments.is_empty() {
            params.insert("arguments".into(), strings(arguments));
        }
        let options = CallOptions::new();
        let raw = self.raw::<GetPrompt>(params, Target::named(name), &options);
        read(
            &raw.await?,
            self.protocol_version(),
            PromptResult::from_json,
        )
    }

    /// `completion/complete`: values for the argument `argument` (typed so far: `value`)
    /// of a prompt or template; `context` holds the other arguments already given (sent
    /// from 2025-06-18).
    pub async fn complete(
        &self,
        target: CompletionTarget,
        argument: &str,
        value: &str,
        context: &[(&str, &str)],
    ) -> Result<CompletionPage, ClientError> {
        let reference = match &target {
            CompletionTarget::Prompt(name) => json!({ "type": "ref/prompt", "name": name }),
            CompletionTarget::Template(uri) => json!({ "type": "ref/resource", "uri": uri }),
        };
        let mut params = Map::new();
        params.insert("ref".into(), reference);
        params.insert(
            "argument".into(),
            json!({ "name": argument, "value": value }),
        );
        if !context.is_empty() && self.protocol_version() >= Version::V2025_06_18 {
            params.insert("context".into(), json!({ "arguments": strings(context) }));
        }
        let options = CallOptions::new();
        let raw = self.raw::<Complete>(params, Target::default(), &options);
        read(
            &raw.await?,
            self.protocol_version(),
            CompletionPage::from_json,
        )
    }

    /// `resources/subscribe` (versions before 2026-07-28; use [`listen`](Self::listen)
    /// there). Updates go to [`on_resource_updated`](crate::ClientBuilder::on_resource_updated).
    pub async fn subscribe(&self, uri: &str) -> Result<(), ClientError> {
        self.empty::<Subscribe>(one("uri", uri)).await
    }

    /// `resources/unsubscribe`.
    pub async fn unsubscribe(&self, uri: &str) -> Result<(), ClientError> {
        self.empty::<Unsubscribe>(one("uri", uri)).await
    }

    /// Asks for log messages at `level` and above (`debug` … `emergency`): `logging/setLevel`,
    /// or under 2026-07-28 (which has no such method) the level every later request states
    /// in `_meta`.
    pub async fn set_log_level(&self, level: &str) -> Result<(), ClientError> {
        if self
            .session()
            .set_stateless_log_level(Some(level.to_owned()))
        {
            return Ok(());
        }
        self.empty::<SetLevel>(one("level", level)).await
    }

    /// `subscriptions/listen` (2026-07-28): the notifications `filter` asks for arrive on
    /// the returned stream, starting with the server's acknowledgement; dropping it ends
    /// the subscription.
    pub async fn listen(&self, filter: &ListenFilter) -> Result<Subscription, ClientError> {
        self.require("subscriptions/listen")?;
        let mut params = Map::new();
        params.insert(
            "notifications".into(),
            serde_json::to_value(filter).map_err(|e| ClientError::Params(e.to_string()))?,
        );
        let (sender, events) = tokio::sync::mpsc::channel(SUBSCRIPTION_CAPACITY);
        let request = self.session().open_listen::<Listen>(params, sender).await?;
        Ok(Subscription {
            events,
            request: Some(request),
        })
    }

    /// Answers the `inputRequests` of a 2026-07-28 input-required result with the
    /// registered handlers: the `inputResponses` to retry the request with. A request no
    /// handler answers, or one a handler refuses, fails the whole round.
    pub async fn answer_input_requests(
        &self,
        input_requests: &Map<String, Value>,
    ) -> Result<Map<String, Value>, ClientError> {
        let handlers = self.session().handlers();
        let mut responses = Map::new();
        for (key, request) in input_requests {
            let method = request
                .get("method")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    ClientError::Protocol(Violation::new(
                        Rule::ResultShape,
                        format!("inputRequests/{key} has no string `method`"),
                    ))
                })?;
            if !handlers.answers(method) {
                return Err(ClientError::Protocol(Violation::new(
                    Rule::ResultShape,
                    format!("inputRequests/{key} asks {method}, which the client did not declare"),
                )));
            }
            let params = request.get("params").cloned().unwrap_or(json!({}));
            let answer = handlers
                .answer(method, params, self.protocol_version())
                .await
                .map_err(ClientError::Rpc)?;
            responses.insert(key.clone(), answer);
        }
        Ok(responses)
    }

    /// Calls `R`, whose result is kept as text, after checking the version has it. Under a
    /// version with input-required results, a method that may have one answers their input
    /// requests with the registered handlers and retries with `inputResponses` and
    /// `requestState` (at most [`MAX_INPUT_ROUNDS`] rounds).
    async fn raw<R>(
        &self,
        mut params: Map<String, Value>,
        target: Target,
        options: &CallOptions,
    ) -> Result<Box<RawValue>, ClientError>
    where
        R: Request<Params = Map<String, Value>, Result = Box<RawValue>>,
    {
        self.require(R::METHOD)?;
        let input = self.protocol_version().is_stateless() && INPUT_METHODS.contains(&R::METHOD);
        if !input {
            return self.session().call::<R>(params, target, options).await;
        }
        for _ in 0..MAX_INPUT_ROUNDS {
            let raw = self
                .session()
                .call::<R>(params.clone(), target.clone(), options)
                .await?;
            let head: ResultHead =
                serde_json::from_str(raw.get()).map_err(|e| shape(R::METHOD, "", &e))?;
            if head.result_type.as_deref() != Some("input_required") {
                return Ok(raw);
            }
            let requests = head.input_requests.unwrap_or_default();
            let responses = self.answer_input_requests(&requests).await?;
            params.insert("inputResponses".into(), Value::Object(responses));
            match head.request_state {
                Some(state) => params.insert("requestState".into(), state.into()),
                None => params.remove("requestState"),
            };
        }
        Err(ClientError::Protocol(Violation::new(
            Rule::ResultShape,
            format!(
                "{}: still input_required after {MAX_INPUT_ROUNDS} rounds",
                R::METHOD
            ),
        )))
    }
}

/// A result text read into the model by `reader` under `version`; a text the version's
/// schema refuses is a [`Rule::ResultShape`] violation.
pub(crate) fn read<T>(
    raw: &RawValue,
    version: Version,
    reader: impl FnOnce(&str, Version) -> Result<T, ReadError>,
) -> Result<T, ClientError> {
    // A 2026-07-28 result without `resultType` is `complete`.
    let completed = complete_by_default(version, raw.get());
    let text = completed.as_deref().unwrap_or(raw.get());
    reader(text, version).map_err(|e| {
        ClientError::Protocol(Violation::new(
            Rule::ResultShape,
            format!("the result is not a {} {}: {}", e.version, e.what, e.reason),
        ))
    })
}

/// A result that does not have its method's shape.
fn shape(method: &str, pointer: &str, error: &dyn std::fmt::Display) -> ClientError {
    ClientError::Protocol(Violation::new(
        Rule::ResultShape,
        format!("{method} result at \"{pointer}\": {error}"),
    ))
}

/// Follows `next_cursor` from the first page to the last.
async fn all_pages<T, F, Fut>(mut page: F) -> Result<Vec<T>, ClientError>
where
    F: FnMut(Option<String>) -> Fut,
    Fut: std::future::Future<Output = Result<Page<T>, ClientError>>,
{
    let mut items = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut cursor = None;
    for _ in 0..MAX_LIST_PAGES {
        let next = page(cursor).await?;
        items.extend(next.items);
        match next.next_cursor {
            None => return Ok(items),
            Some(next) if !seen.insert(next.clone()) => {
                return Err(ClientError::Protocol(Violation::new(
                    Rule::ResultShape,
                    format!("the cursor {next:?} came back: the list would never end"),
                )));
            }
            Some(next) => cursor = Some(next),
        }
    }
    Err(ClientError::Protocol(Violation::new(
        Rule::ResultShape,
        format!("more than {MAX_LIST_PAGES} pages"),
    )))
}
