//! One request of an MCP session: which version serves it, whether that version and this
//! server have the method, then the method itself, its result shaped for that version.
//!
//! Order of checks, so that each refusal is the one MCP asks for:
//! 1. `initialize` is accepted under any version (it is how a client of an older version
//!    negotiates); it picks the version asked for when this layer has its handshake, else
//!    the newest version with a handshake.
//! 2. A method the version in force lacks, or that this server does not offer (no tools
//!    registered: no `tools/*`), is -32601 before its params are read.
//! 3. The params are decoded as the version's generated params type: -32602 naming the
//!    JSON pointer that failed.
//! 4. Under a stateless version (2026-07-28) the version stated in `_meta` must be one this
//!    layer serves statelessly, else -32022 with `requested` and `supported`.

use std::sync::{Arc, PoisonError, RwLock};

use mcpwire::params::decode_params;
use mcpwire::service::{AsyncCallContext, CancellationToken};
use mcpwire::{Answer, RawParams, RpcError};
use mcpwire_model::result::wire::empty_result;
use mcpwire_model::{DiscoverReply, InitializeReply, ListPage, ToolPage, Unwritten, Written};
use mcpwire_types::JsonObject;
use mcpwire_types::mcp::v2026_07_28::ErrorCode;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::catalog::Catalog;
use crate::completion::{Argument, CompletionContext, CompletionRequest, Reference};
use crate::context::Context;
use crate::input_round::InputRound;
use crate::listing::{self, PageKind, RenderPage, unsendable};
use crate::method::Method;
use crate::prompt::Prompt;
use crate::request::{Listed, Meta, Request, Untyped, Validated};
use crate::request_state::{self, Arguments, Binding};
use crate::resource::Resource;
use crate::resource_template::ResourceTemplate;
use crate::session::{Agreed, SessionState};
use crate::shared::Shared;
use crate::tasks::{self, TaskMethod, TaskSupport};
use crate::tool::Tool;
use crate::validate::validate;
use mcpwire_model::version::{Feature, Version};

/// What [`handle`] reads of a request before its future starts.
enum Prepared {
    /// A notification: nothing to do.
    Notification,
    /// `initialize`: the version it agrees and the client's capabilities.
    Initialize {
        chosen: Version,
        capabilities: Map<String, Value>,
    },
    /// A method of the Tasks extension, with its params.
    Task(TaskMethod, Untyped),
    /// Any other method this layer serves.
    Call(Validated),
}

/// The fallback of every session's router: serves every MCP request. The params are read
/// where they lie in the frame (the one decode, which is the validation) before the
/// returned future starts; the future serves what they say.
pub(crate) fn handle(
    state: Arc<SessionState>,
    params: Option<RawParams<'_>>,
    request: AsyncCallContext,
) -> Result<impl Future<Output = Result<Answer, RpcError>> + Send + use<>, RpcError> {
    let (version, prepared) = prepare(&state, params, &request)?;
    Ok(async move {
        match prepared {
            // `notifications/initialized`, `notifications/roots/list_changed` ...: nothing to
            // do (cancellation is handled by the session itself).
            Prepared::Notification => Ok(null().into()),
            Prepared::Initialize {
                chosen,
                capabilities,
            } => initialize(&state, chosen, capabilities, &request).map(Answer::from),
            Prepared::Task(task_method, fields) => {
                let ctx = context(&state, version, fields.meta, request)?;
                let result = tasks::serve(
                    &state.shared.tasks,
                    state.task_owner(),
                    task_method,
                    ctx.client_capabilities(),
                    fields.task_id,
                    fields.input_responses,
                )
                .await?;
                Ok(result.into())
            }
            Prepared::Call(Validated {
                meta,
                request: mut call,
                ..
            }) => {
                let ctx = context(&state, version, meta, request)?;
                if let Request::List { of, cursor } = &call {
                    // Rendered once per version and kept: copied into each reply.
                    let page = list(&state.shared, *of, cursor.as_deref(), ctx.version());
                    return page.map(Answer::from);
                }
                let ctx = match input_round(&state.shared, &mut call, ctx.version())? {
                    Some(round) => ctx.with_input(Arc::new(round)),
                    None => ctx,
                };
                serve(&state.shared, call, ctx, &state).await
            }
        }
    })
}

/// The version in force and what the request's params say, in the order of the module's
/// checks: the version, the method (named once, as a [`Method`]: a name this layer does not
/// serve is -32601), `initialize`, the Tasks extension, whether the version and this server
/// have the method, then the params decoded as the version's generated type.
fn prepare(
    state: &SessionState,
    params: Option<RawParams<'_>>,
    request: &AsyncCallContext,
) -> Result<(Version, Prepared), RpcError> {
    let profile = request.profile();
    let version = Version::of_facts(profile.facts());
    if request.is_notification() {
        return Ok((
            version.unwrap_or(Version::V2026_07_28),
            Prepared::Notification,
        ));
    }
    let version = version.ok_or_else(RpcError::method_not_found)?;
    let depth = profile.limits().max_params_depth;
    let method = Method::of(request.method()).ok_or_else(RpcError::method_not_found)?;
    let offers = state.shared.offers;
    let prepared = match method {
        Method::Initialize => {
            let asked: AskedVersion = decode_params(params, depth)?;
            let chosen = asked
                .protocol_version
                .as_deref()
                .and_then(Version::parse)
                .filter(|v| v.has_handshake())
                .unwrap_or_else(Version::newest_with_handshake);
            let Validated {
                request: Request::Initialize { capabilities },
                progress_token,
                ..
            } = validate(chosen, Method::Initialize, params, depth)?
            else {
                return Err(RpcError::internal_error());
            };
            if let Some(token) = progress_token {
                request.set_progress_token(token);
            }
            Prepared::Initialize {
                chosen,
                capabilities,
            }
        }
        // The extension's methods are in no version's schema: served under a stateless
        // version by a server some of whose tools may run as tasks, their params read here.
        Method::Task(task_method) if version.is_stateless() && method.offered_by(offers) => {
            let mut fields: Untyped = decode_params(params, depth)?;
            if let Some(token) = fields.meta.as_mut().and_then(|m| m.progress_token.take()) {
                request.set_progress_token(token);
            }
            Prepared::Task(task_method, fields)
        }
        method => {
            if !version.has_request(method.name()) || !method.offered_by(offers) {
                return Err(RpcError::method_not_found());
            }
            // The one decode: the version's generated params type, kept as the request. It
            // reads `_meta.progressToken` too (the router leaves that to it: `server.rs`).
            let mut validated = validate(version, method, params, depth)?;
            if let Some(token) = validated.progress_token.take() {
                request.set_progress_token(token);
            }
            Prepared::Call(validated)
        }
    };
    Ok((version, prepared))
}

fn null() -> Box<RawValue> {
    RawValue::from_string("null".into()).unwrap_or_else(|_| Box::default())
}

/// The handler context: the version, the client's capabilities and log level, from
/// `initialize` or (stateless versions) from this request's `_meta`.
fn context(
    state: &SessionState,
    version: Version,
    meta: Option<Meta>,
    request: AsyncCallContext,
) -> Result<Context, RpcError> {
    if version.is_stateless() {
        // The version's params types require `_meta`; this is a second line of defence.
        let meta = meta.ok_or_else(|| invalid_params("/_meta", "missing field `_meta`"))?;
        let stated = meta.protocol_version.as_deref().unwrap_or_default();
        let stated = Version::parse(stated)
            .filter(|v| v.is_stateless())
            .ok_or_else(|| unsupported_version(stated))?;
        let capabilities = meta.client_capabilities.unwrap_or_default();
        let context = Context::new(request, stated, capabilities, meta.log_level);
        return Ok(with_identity(context, state));
    }
    let capabilities = state
        .agreed()
        .map(|a| a.client_capabilities)
        .unwrap_or_default();
    let context = Context::new(request, version, capabilities, state.log_level());
    Ok(with_identity(context, state))
}

/// The context with the request's caller (feature `auth`): the identity of its own access
/// token, which the transport attaches to each POST, else (a transport that attaches none) the
/// one whose token opened the session. Both name the same subject: a session refuses any other.
#[cfg(feature = "auth")]
fn with_identity(mut context: Context, state: &SessionState) -> Context {
    let own = context
        .request()
        .attachment::<mcpwire::http::Caller>()
        .and_then(|caller| {
            std::sync::Arc::clone(&caller.details)
                .downcast::<crate::auth::Identity>()
                .ok()
        });
    context.identity = own.or_else(|| state.identity());
    context
}

#[cfg(not(feature = "auth"))]
fn with_identity(context: Context, _: &SessionState) -> Context {
    context
}

/// Under a version that asks the client through input-required results, on a request that
/// may have one: the round its handler runs in, with the answers of `inputResponses` and
/// those carried by `requestState` (verified first: -32602 at `/requestState` otherwise).
fn input_round(
    shared: &Shared,
    request: &mut Request,
    version: Version,
) -> Result<Option<InputRound>, RpcError> {
    if !version.has(Feature::InputRequests) {
        return Ok(None);
    }
    // The methods whose results may be input-required.
    let (method, target, arguments, input) = match request {
        Request::CallTool {
            name,
            arguments,
            input,
        } => {
            // Handed over by `call_tool` once its tool has decoded them, unless a carried
            // state needs them now.
            let arguments = match arguments {
                None => Arguments::Absent,
                Some(arguments) if input.request_state.is_some() => {
                    Arguments::Value(request_state::arguments_value(arguments))
                }
                Some(_) => Arguments::Pending,
            };
            (Method::CallTool, name, arguments, input)
        }
        Request::GetPrompt {
            name,
            arguments,
            input,
        } => {
            let arguments = arguments.as_ref().map_or(Value::Null, |a| {
                Value::Object(
                    a.iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect(),
                )
            });
            (Method::GetPrompt, name, Arguments::Value(arguments), input)
        }
        Request::ReadResource { uri, input } => {
            (Method::ReadResource, uri, Arguments::Absent, input)
        }
        _ => return Ok(None),
    };
    let mut binding = Binding::new(method.name(), target.clone(), arguments);
    let carried = match input.request_state.take() {
        Some(state) => request_state::open(&shared.state_key, &state, binding.digest())?,
        None => Map::new(),
    };
    let responses = input.responses.take().unwrap_or_default();
    Ok(Some(InputRound::new(
        carried,
        responses,
        shared.state_key.clone(),
        binding,
    )))
}

/// Runs a handler's `work` to its result JSON; under 2026-07-28 its asks may end it with an
/// input-required result instead.
async fn answered<T: Written>(
    round: Option<Arc<InputRound>>,
    work: impl std::future::Future<Output = Result<T, RpcError>>,
) -> Result<T, RpcError> {
    match round {
        Some(round) => round.run(work).await,
        None => work.await,
    }
}

/// -32022: the version a stateless request states is not served statelessly here.
fn unsupported_version(requested: &str) -> RpcError {
    let supported: Vec<&str> = Version::ALL
        .into_iter()
        .rev()
        .filter(|v| v.is_stateless())
        .map(Version::as_str)
        .collect();
    RpcError::new(
        ErrorCode::UnsupportedProtocolVersion.code(),
        "Unsupported protocol version",
    )
    .with_data(&json!({ "requested": requested, "supported": supported }))
}

/// The version an `initialize` asks for. It is read first, since it picks the generated
/// types the params are decoded with: `initialize`, once per session, is the one request
/// whose params are read twice.
#[derive(Deserialize)]
struct AskedVersion {
    #[serde(rename = "protocolVersion", default)]
    protocol_version: Option<String>,
}

fn initialize(
    state: &SessionState,
    chosen: Version,
    capabilities: Map<String, Value>,
    request: &AsyncCallContext,
) -> Result<Box<RawValue>, RpcError> {
    state.agree(Agreed {
        version: chosen,
        client_capabilities: capabilities,
    });
    request.negotiate(chosen.facts());
    let shared = &state.shared;
    let reply = InitializeReply {
        protocol_version: chosen.as_str().into(),
        capabilities: shared.capabilities(chosen),
        server_info: shared.info.peer(),
        instructions: shared.info.instructions.clone(),
    };
    reply.to_text(chosen).map_err(unsendable)
}

async fn serve(
    shared: &Shared,
    request: Request,
    ctx: Context,
    state: &SessionState,
) -> Result<Answer, RpcError> {
    // A result made for this request is written once, straight into its reply.
    let replying = ctx.request().clone();
    let written = |result: Unwritten| Answer::to_call_with(&replying, |out| result.write_json(out));
    match request {
        Request::CallTool {
            name, arguments, ..
        } => call_tool(shared, name, arguments, ctx, state)
            .await?
            .written(&replying),
        Request::ReadResource { uri, .. } => written(read_resource(shared, uri, ctx).await?),
        Request::GetPrompt {
            name, arguments, ..
        } => written(get_prompt(shared, name, arguments, ctx).await?),
        other => serve_other(shared, other, ctx, state)
            .await
            .map(Answer::from),
    }
}

/// The methods whose result is small or kept (`ping`, `completion/complete` ...).
async fn serve_other(
    shared: &Shared,
    request: Request,
    ctx: Context,
    state: &SessionState,
) -> Result<Box<RawValue>, RpcError> {
    let version = ctx.version();
    match request {
        Request::Ping => Ok(empty_result(version)),
        Request::Discover => discover(shared, version),
        Request::SetLevel(level) => {
            state.set_log_level(level);
            Ok(empty_result(version))
        }
        Request::Listen(filter) => {
            // Boxed, as every rare method's future: the future of every request is as large
            // as its largest branch.
            let listened =
                crate::listen::listen(shared.offers, &*shared.events, filter, ctx.request());
            Box::pin(listened).await
        }
        Request::Complete {
            reference,
            argument,
            context,
        } => complete(shared, reference, argument, context, version).await,
        Request::Subscribe { uri, subscribe } => {
            if subscribe && !is_readable(shared, &uri) {
                return Err(resource_not_found(&uri, version));
            }
            state.subscribe(uri, subscribe);
            Ok(empty_result(version))
        }
        // Served before (`initialize`, the list methods) or by `serve`, never here; were one
        // to arrive, the server failed, and the method is not unknown.
        Request::Initialize { .. }
        | Request::List { .. }
        | Request::CallTool { .. }
        | Request::ReadResource { .. }
        | Request::GetPrompt { .. } => Err(RpcError::internal_error()),
    }
}

/// `prompts/get`: the prompt's messages for the arguments given.
async fn get_prompt(
    shared: &Shared,
    name: String,
    arguments: Option<std::collections::BTreeMap<String, String>>,
    ctx: Context,
) -> Result<Unwritten, RpcError> {
    let prompt = read(&shared.prompts)
        .get(&name)
        .cloned()
        .ok_or_else(|| unknown("prompt", &name))?;
    let arguments = arguments
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let round = ctx.input_round();
    let version = ctx.version();
    let future = prompt
        .start(arguments, ctx, version)
        .map_err(|e| invalid_params(&e.pointer, &e.reason))?;
    answered(round, future).await
}

/// A `tools/call` result: made for the request (most), or text (a task's, completed by
/// [`finish`]).
enum ToolAnswer {
    Made(Unwritten),
    Text(Box<RawValue>),
}

impl ToolAnswer {
    fn written(self, to: &AsyncCallContext) -> Result<Answer, RpcError> {
        match self {
            ToolAnswer::Made(result) => Answer::to_call_with(to, |out| result.write_json(out)),
            ToolAnswer::Text(text) => Ok(text.into()),
        }
    }
}

/// `tools/call`. Over HTTP under 2026-07-28 (`headers` set) the parameters the tool marks
/// `x-mcp-header` must agree with their `Mcp-Param-*` headers first (-32020 otherwise).
/// Under 2026-07-28 a tool that may run as a task does so when the request declares the
/// Tasks extension (see [`tasks::run`]); one that requires it is -32021 when it does not.
async fn call_tool(
    shared: &Shared,
    name: String,
    arguments: Option<JsonObject>,
    ctx: Context,
    state: &SessionState,
) -> Result<ToolAnswer, RpcError> {
    let headers = state.param_headers();
    let version = ctx.version();
    let tool = read(&shared.tools)
        .get(&name)
        .cloned()
        .ok_or_else(|| unknown("tool", &name))?;
    let support = tool.task_support();
    let declared = version.is_stateless() && tasks::declared(ctx.client_capabilities());
    if version.is_stateless() && support == TaskSupport::Required && !declared {
        return Err(tasks::missing_extension());
    }
    let task = (support != TaskSupport::Forbidden && declared).then(CancellationToken::new);
    let request = ctx.cancellation().clone();
    let ctx = match &task {
        Some(token) => ctx.detached(token.clone()),
        None => ctx,
    };
    let arguments = arguments.unwrap_or_default();
    #[cfg(feature = "http")]
    if let (Some(headers), Ok(schema)) = (headers, tool.input_schema())
        && version.is_stateless()
    {
        headers.check(schema, &arguments)?;
    }
    #[cfg(not(feature = "http"))]
    let _ = headers; // only HTTP requests carry `Mcp-Param-*` headers
    let round = ctx.input_round();
    let started = tool.start(&arguments, ctx);
    // Decoded into the tool's own type: not held here while the tool runs (an 8 MiB call
    // would hold them twice, `tests/stdio_frame_peak.rs`), only by a round, which binds the
    // state of an input-required result to them.
    match &round {
        Some(round) => round.bind_arguments(arguments),
        None => drop(arguments),
    }
    match started {
        Ok(running) => {
            let work = async move {
                let result = running.await;
                match result.required_capability() {
                    // Every 2026-07-28 request states the client's capabilities: a call that
                    // needs one it lacks is refused as a protocol error.
                    Some(capability) if version.is_stateless() => {
                        Err(missing_capability(capability))
                    }
                    _ => Ok(result),
                }
            };
            match task {
                Some(token) => {
                    // Written once: the result or the `CreateTaskResult`, each with its type.
                    let work = async move { work.await.map(|result| result.into_text(version)) };
                    let work = Box::pin(answered(round.clone(), work));
                    let owner = state.task_owner();
                    let tokens = (&request, token);
                    let done = tasks::run::call(&shared.tasks, owner, round, tokens, work);
                    Box::pin(done).await.map(ToolAnswer::Text)
                }
                // Kept as the version's generated type, written once into the reply.
                None => {
                    let work = async move { work.await.map(|result| result.into_written(version)) };
                    answered(round, work).await.map(ToolAnswer::Made)
                }
            }
        }
        // From 2025-11-25 MCP asks for argument errors as tool execution errors, which the
        // model can read and correct; before, they are protocol errors.
        Err(error) if version.has(Feature::ArgumentErrorsInResult) => Ok(ToolAnswer::Made(
            crate::ToolResult::error(&error).into_written(version),
        )),
        Err(error) => Err(invalid_params(&error.pointer, &error.reason)),
    }
}

/// `completion/complete`: the completer of the referenced prompt's argument or template's
/// variable. An unknown prompt or template is -32602 naming `/ref/name` or `/ref/uri`.
async fn complete(
    shared: &Shared,
    reference: Reference,
    argument: Argument,
    context: Option<CompletionContext>,
    version: Version,
) -> Result<Box<RawValue>, RpcError> {
    let completers = match reference {
        Reference::Prompt { name } => read(&shared.prompts)
            .get(&name)
            .map(|p| p.completers().clone())
            .ok_or_else(|| invalid_params("/ref/name", &format!("no prompt named `{name}`")))?,
        Reference::Resource { uri } => read(&shared.resource_templates)
            .get(&uri)
            .map(|t| t.completers().clone())
            .ok_or_else(|| invalid_params("/ref/uri", &format!("no resource template `{uri}`")))?,
    };
    let request = CompletionRequest {
        argument: argument.name,
        value: argument.value,
        context: context.unwrap_or_default().arguments,
    };
    Ok(completers.complete(request, version).await)
}

/// Whether `resources/read` of `uri` would find a resource or a template.
fn is_readable(shared: &Shared, uri: &str) -> bool {
    read(&shared.resources).get(uri).is_some()
        || read(&shared.resource_templates)
            .iter()
            .any(|t| t.matches(uri).is_some())
}

/// `resources/read`: the resource at `uri`, else the first template matching it, else
/// "Resource not found" (see [`resource_not_found`]).
async fn read_resource(shared: &Shared, uri: String, ctx: Context) -> Result<Unwritten, RpcError> {
    let round = ctx.input_round();
    let version = ctx.version();
    let resource = read(&shared.resources).get(&uri).cloned();
    let contents = match resource {
        Some(resource) => Box::pin(async move { resource.read(ctx).await }),
        None => {
            let matched = read(&shared.resource_templates)
                .iter()
                .find_map(|t| Some((t.clone(), t.matches(&uri)?)));
            let (template, variables) = matched.ok_or_else(|| resource_not_found(&uri, version))?;
            template
                .start(uri, variables, ctx)
                .map_err(|e| invalid_params(&e.pointer, &e.reason))?
        }
    };
    answered(round, async move { Ok(contents.await) }).await
}

/// The result of a list method (`None` for any other method): the page `cursor` asks for,
/// its items rendered under `version` once and kept (see [`listing`](crate::listing)).
fn list(
    shared: &Shared,
    of: Listed,
    cursor: Option<&str>,
    version: Version,
) -> Result<Box<RawValue>, RpcError> {
    let kept = Kept {
        cursor,
        page_size: shared.page_size,
        version,
    };
    let v = version;
    match of {
        Listed::Tools => kept.page(&shared.tools, "tools", &|tools: &[&Tool], next_cursor| {
            let tools = tools.iter().map(|t| t.definition(v)).collect();
            ToolPage { tools, next_cursor }.to_text(v)
        }),
        Listed::Resources => kept.page(&shared.resources, "resources", &|items, next_cursor| {
            let items = items.iter().map(|r: &&Resource| r.definition(v)).collect();
            ListPage { items, next_cursor }.to_text(v)
        }),
        Listed::ResourceTemplates => {
            let catalog = &shared.resource_templates;
            kept.page(catalog, "resourceTemplates", &|items, next_cursor| {
                let items = items.iter().map(|t: &&ResourceTemplate| t.definition(v));
                let items = items.collect();
                ListPage { items, next_cursor }.to_text(v)
            })
        }
        Listed::Prompts => kept.page(&shared.prompts, "prompts", &|items, next_cursor| {
            let items = items.iter().map(|p: &&Prompt| p.definition(v)).collect();
            ListPage { items, next_cursor }.to_text(v)
        }),
    }
}

/// What a list request asks for, and what its result carries.
struct Kept<'a> {
    cursor: Option<&'a str>,
    page_size: usize,
    version: Version,
}

impl Kept<'_> {
    /// The page of `catalog`, its items under `key`, as [`listing::page_text`] renders it
    /// with `render` (a page's result from its items and next cursor).
    fn page<T>(
        &self,
        catalog: &RwLock<Catalog<T>>,
        key: &str,
        render: &RenderPage<'_, T>,
    ) -> Result<Box<RawValue>, RpcError> {
        let catalog = read(catalog);
        let (entries, next) = catalog.page_rendered(self.cursor, self.page_size)?;
        let kind = PageKind { key, render };
        listing::page_text(&kind, self.version, &entries, next)
    }
}

fn discover(shared: &Shared, version: Version) -> Result<Box<RawValue>, RpcError> {
    let supported_versions = Version::ALL
        .into_iter()
        .rev()
        .map(|v| v.as_str().to_owned())
        .collect();
    let reply = DiscoverReply {
        supported_versions,
        capabilities: shared.capabilities(version),
        server_info: Some(shared.info.peer()),
        instructions: shared.info.instructions.clone(),
    };
    reply.to_text(version).map_err(unsendable)
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

pub(crate) fn invalid_params(pointer: &str, reason: &str) -> RpcError {
    RpcError::invalid_params().with_data(&json!({ "pointer": pointer, "reason": reason }))
}

fn unknown(kind: &str, name: &str) -> RpcError {
    invalid_params("/name", &format!("no {kind} named `{name}`"))
}

/// A resource that does not exist, with its `uri` in `data`: -32602 (invalid params) from
/// 2026-07-28 (SEP-2164), -32002 before.
fn resource_not_found(uri: &str, version: Version) -> RpcError {
    let code = if version.is_stateless() {
        ErrorCode::InvalidParams.code()
    } else {
        -32002
    };
    RpcError::new(code, "Resource not found").with_data(&json!({ "uri": uri }))
}

/// -32021: the call needs a client capability the request's `_meta` does not declare;
/// `data.requiredCapabilities` is a `ClientCapabilities` object naming it.
fn missing_capability(capability: &str) -> RpcError {
    RpcError::new(
        ErrorCode::MissingRequiredClientCapability.code(),
        format!("Missing required client capability: {capability}"),
    )
    .with_data(&json!({ "requiredCapabilities": { capability: {} } }))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::{McpServer, NoArguments, ResourceContents, Structured, ToolResult};

    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Out {
        /// A number.
        n: u32,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// The topic, with "quotes" and a
        /// line break.
        topic: String,
        depth: Option<u8>,
    }

    fn server(titled_resource: bool) -> McpServer {
        let mut builder = McpServer::builder("t", "1").page_size(2);
        for i in 0..5 {
            let tool = Tool::new(
                format!("t{i}"),
                format!("tool é {i}\n"),
                |_: Args, _: Context| async { Structured(Out { n: 1 }) },
            );
            builder = builder.add_tool(if i % 2 == 0 {
                tool.title(format!("T{i}"))
            } else {
                tool
            });
            let plain = Tool::new(
                format!("p{i}"),
                "plain",
                |_: NoArguments, _: Context| async { ToolResult::text("") },
            );
            builder = builder.add_tool(plain);
            let resource =
                Resource::new(format!("r://{i}"), format!("r{i}"), |_ctx: Context| async {
                    ResourceContents::text("")
                })
                .mime_type("text/plain");
            let resource = if titled_resource && i == 3 {
                resource.title("R")
            } else {
                resource
            };
            builder = builder.resource(resource);
            let template = ResourceTemplate::new(
                format!("t{i}://{{id}}"),
                format!("template {i}"),
                |_: HashMap<String, String>, _ctx: Context| async { ResourceContents::text("") },
            );
            builder = builder.resource_template(template);
            let prompt = Prompt::new(format!("q{i}"), "a prompt", |_: Args, _: Context| async {
                Vec::new()
            });
            builder = builder.prompt(prompt);
        }
        builder.build().unwrap()
    }

    /// The page as it was rendered before listings were kept: whole, through `finish`.
    fn rendered_whole(
        shared: &Shared,
        method: &str,
        cursor: Option<&str>,
        version: Version,
    ) -> Result<Box<RawValue>, RpcError> {
        fn page<T, U>(
            catalog: &RwLock<Catalog<T>>,
            cursor: Option<&str>,
            size: usize,
            describe: impl Fn(&T) -> U,
        ) -> Result<(Vec<U>, Option<String>), RpcError> {
            let catalog = read(catalog);
            let (page, next) = catalog.page_rendered(cursor, size)?;
            Ok((
                page.into_iter().map(|(item, _)| describe(item)).collect(),
                next,
            ))
        }
        let size = shared.page_size;
        let result = match method {
            "tools/list" => {
                let (tools, next_cursor) =
                    page(&shared.tools, cursor, size, |t| t.definition(version))?;
                ToolPage { tools, next_cursor }.to_json(version)
            }
            "resources/list" => {
                let (items, next_cursor) =
                    page(&shared.resources, cursor, size, |r| r.definition(version))?;
                ListPage { items, next_cursor }.to_json(version)
            }
            "resources/templates/list" => {
                let (items, next_cursor) = page(&shared.resource_templates, cursor, size, |t| {
                    t.definition(version)
                })?;
                ListPage { items, next_cursor }.to_json(version)
            }
            _ => {
                let (items, next_cursor) =
                    page(&shared.prompts, cursor, size, |p| p.definition(version))?;
                ListPage { items, next_cursor }.to_json(version)
            }
        };
        finish(version, result.map_err(unsendable)?)
    }

    /// A page built as a `Value`, with the `resultType` its version adds, as text: the
    /// reference a kept page is held to.
    fn finish(version: Version, mut result: Value) -> Result<Box<RawValue>, RpcError> {
        if version.has(Feature::ResultType)
            && let Value::Object(members) = &mut result
        {
            members
                .entry("resultType")
                .or_insert_with(|| "complete".into());
        }
        Ok(serde_json::value::to_raw_value(&result).unwrap())
    }

    /// Every page of every list, under every version, twice (rendered, then kept): the
    /// bytes of the page rendered whole, or the same error.
    #[test]
    fn kept_listings_are_the_bytes_of_the_pages_rendered_whole() {
        for titled_resource in [false, true] {
            let server = server(titled_resource);
            let shared = server.shared();
            let methods = [
                "tools/list",
                "resources/list",
                "resources/templates/list",
                "prompts/list",
            ];
            for version in Version::ALL {
                for method in methods {
                    for _ in 0..2 {
                        let mut cursor: Option<String> = None;
                        let mut pages = 0;
                        loop {
                            let Some(Method::List(of)) = Method::of(method) else {
                                panic!("{method} is no list method");
                            };
                            let kept = list(shared, of, cursor.as_deref(), version);
                            let whole = rendered_whole(shared, method, cursor.as_deref(), version);
                            pages += 1;
                            match (kept, whole) {
                                (Ok(kept), Ok(whole)) => {
                                    assert_eq!(kept.get(), whole.get(), "{method} {version}");
                                    let value: Value = serde_json::from_str(kept.get()).unwrap();
                                    cursor = value["nextCursor"].as_str().map(str::to_owned);
                                }
                                (Err(kept), Err(whole)) => {
                                    assert_eq!(kept.code(), whole.code());
                                    assert_eq!(
                                        kept.data().map(|d| d.get().to_owned()),
                                        whole.data().map(|d| d.get().to_owned()),
                                    );
                                    assert!(titled_resource, "{method} {version}: {kept:?}");
                                    cursor = None;
                                }
                                (kept, whole) => panic!("{method} {version}: {kept:?} {whole:?}"),
                            }
                            if cursor.is_none() {
                                break;
                            }
                        }
                        assert!(pages >= 2 || titled_resource, "{method} {version}");
                    }
                }
            }
        }
    }
}
