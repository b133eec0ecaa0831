//! A tool: its name, its schemas derived from Rust types, and its async handler.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use mcpwire_model::{SchemaText, ToolInfo};
use mcpwire_types::JsonObject;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::arguments::{ArgumentError, decode_arguments};
use crate::context::Context;
use crate::tasks::TaskSupport;
use mcpwire_model::result::{IntoToolResult, ToolResult};
use mcpwire_model::schema::{SchemaError, object_schema};
use mcpwire_model::version::{Feature, Version};

/// A boxed future, `Send`.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A tool's `inputSchema` and optional `outputSchema`.
type Schemas = (Map<String, Value>, Option<Map<String, Value>>);

type ToolFn =
    dyn Fn(&JsonObject, Context) -> Result<BoxFuture<ToolResult>, ArgumentError> + Send + Sync;

/// A tool the server offers: `tools/list` describes it, `tools/call` runs it.
///
/// The arguments type `A` (`DeserializeOwned + JsonSchema`) gives the `inputSchema`; the
/// handler's return type gives the `outputSchema` when it is [`Structured`](crate::Structured).
///
/// ```
/// use mcpwire_server::{Context, Tool, ToolResult};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Echo { text: String }
///
/// let tool = Tool::new("echo", "Returns its text", |args: Echo, _ctx: Context| async move {
///     ToolResult::text(args.text)
/// })
/// .title("Echo");
/// assert_eq!(tool.name(), "echo");
/// ```
///
/// Cheap to clone: its strings and schemas are shared, so a call takes its tool out of the
/// catalog without copying them.
#[derive(Clone)]
pub struct Tool {
    name: Arc<str>,
    title: Option<Arc<str>>,
    description: Arc<str>,
    schemas: Arc<Result<Schemas, SchemaError>>,
    handler: Arc<ToolFn>,
    tasks: TaskSupport,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// A tool whose arguments decode as `A` and whose handler returns `R`.
    pub fn new<A, R, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Self
    where
        A: DeserializeOwned + JsonSchema + Send + 'static,
        R: IntoToolResult + 'static,
        F: Fn(A, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
    {
        let schemas = object_schema::<A>().and_then(|input| Ok((input, R::output_schema()?)));
        let handler = move |arguments: &JsonObject, ctx: Context| {
            let arguments: A = decode_arguments(arguments)?;
            let future = handler(arguments, ctx);
            let boxed: BoxFuture<ToolResult> =
                Box::pin(async move { future.await.into_tool_result() });
            Ok(boxed)
        };
        Self {
            name: Arc::from(name.into()),
            title: None,
            description: Arc::from(description.into()),
            schemas: Arc::new(schemas),
            handler: Arc::new(handler),
            tasks: TaskSupport::Forbidden,
        }
    }

    /// Sets whether the tool's calls may run as tasks (the Tasks extension of 2026-07-28;
    /// default [`TaskSupport::Forbidden`]). The handler stays as it is: the layer runs it,
    /// keeps its result for `tasks/get`, and cancels its [`Context`] on `tasks/cancel`.
    ///
    /// ```
    /// use mcpwire_server::{Context, NoArguments, TaskSupport, Tool, ToolResult};
    ///
    /// let tool = Tool::new("report", "Builds the report", |_: NoArguments, ctx: Context| async move {
    ///     ctx.cancelled().await; // stands for long work that stops when cancelled
    ///     ToolResult::text("stopped")
    /// })
    /// .tasks(TaskSupport::Optional);
    /// assert_eq!(tool.task_support(), TaskSupport::Optional);
    /// ```
    pub fn tasks(mut self, support: TaskSupport) -> Self {
        self.tasks = support;
        self
    }

    /// Whether the tool's calls may run as tasks.
    pub fn task_support(&self) -> TaskSupport {
        self.tasks
    }

    /// Sets the human-readable title (sent from 2025-06-18).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(Arc::from(title.into()));
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The `inputSchema`, as derived from the arguments type.
    pub fn input_schema(&self) -> Result<&Map<String, Value>, &SchemaError> {
        (*self.schemas).as_ref().map(|(input, _)| input)
    }

    /// The `outputSchema`, when the handler returns [`Structured`](crate::Structured) output.
    pub fn output_schema(&self) -> Result<Option<&Map<String, Value>>, &SchemaError> {
        (*self.schemas).as_ref().map(|(_, output)| output.as_ref())
    }

    pub(crate) fn schema_error(&self) -> Option<&SchemaError> {
        (*self.schemas).as_ref().err()
    }

    /// The tool as `tools/list` describes it under `version`. The title and output schema
    /// are left out on purpose before 2025-06-18, which has neither (so `tools/list` lists
    /// every tool under every version). A tool whose schemas failed is refused when added,
    /// so the catalog never holds one.
    pub(crate) fn definition(&self, version: Version) -> ToolInfo {
        let titled = version.has(Feature::Titles);
        let (input, output) = match &*self.schemas {
            Ok((input, output)) => (input.clone(), output.clone()),
            Err(_) => (Map::new(), None),
        };
        ToolInfo {
            title: self.title.as_deref().filter(|_| titled).map(str::to_owned),
            description: Some(self.description.to_string()),
            output_schema: output.filter(|_| titled).map(SchemaText::from),
            ..ToolInfo::new(self.name.to_string(), input)
        }
    }

    /// Decodes the arguments and starts the handler.
    pub(crate) fn start(
        &self,
        arguments: &JsonObject,
        ctx: Context,
    ) -> Result<BoxFuture<ToolResult>, ArgumentError> {
        (self.handler)(arguments, ctx)
    }
}
