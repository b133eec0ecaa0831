//! The everything-server of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`), built on mcpwire-server's public API only:
//! `--http IP:PORT` serves both eras at `/mcp` (sessions for `initialize` clients, 2026-07-28
//! requests statelessly), `--http IP:PORT --stateless` only 2026-07-28. Driven by
//! `scripts/conformance/run.sh`.
//!
//! `--redis URL` (or `MCPWIRE_REDIS_URL`; feature `redis`) joins the processes sharing that
//! Redis: list changes reach every process's listeners, SSE streams resume at any process,
//! `GET /healthz` says whether Redis is reachable. The processes must then share the
//! `requestState` secret: `MCPWIRE_STATE_SECRET`, or `--state-secret-file PATH`. Driven by
//! `scripts/cluster/run.sh`.
use std::borrow::Cow;
use std::process::ExitCode;
use std::time::Duration;

#[path = "conformance_tools/streams.rs"]
mod streams;
#[path = "conformance_tools/tasks.rs"]
mod tasks;

use mcpwire::http::{MemoryEventStore, TrustedProxy};
use mcpwire_server::{
    CompletionRequest, Content, Context, Elicitation, EmbeddedResource, HttpConfig, LogLevel,
    McpServer, McpServerBuilder, NoArguments, Prompt, PromptMessage, Resource, ResourceContents,
    ResourceTemplate, Role, ToolResult,
};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A silent WAV: the RIFF header of zero samples.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

/// The resource the embedding tools and prompt carry.
fn embedded(uri: &str) -> Content {
    Content::resource(EmbeddedResource {
        mime_type: Some("text/plain".into()),
        ..EmbeddedResource::new(
            uri,
            ResourceContents::text("This is an embedded resource content."),
        )
    })
}

/// A 1×1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

#[derive(Deserialize, JsonSchema)]
struct SamplingArgs {
    /// The prompt to send to the client's model.
    prompt: String,
}

#[derive(Deserialize, JsonSchema)]
struct ElicitArgs {
    /// The message shown to the user.
    message: String,
}

#[derive(Deserialize, JsonSchema)]
struct UserInfo {
    /// The user's name.
    username: String,
    /// The user's email address.
    email: String,
}

#[derive(Deserialize, JsonSchema)]
struct PromptArgs {
    /// The first argument.
    arg1: String,
    /// The second argument.
    arg2: String,
}

#[derive(Deserialize, JsonSchema)]
struct EmbeddedArgs {
    /// The URI of the resource to embed.
    #[serde(rename = "resourceUri")]
    resource_uri: String,
}

#[derive(Deserialize)]
struct TemplateVars {
    id: String,
}

async fn simple_text(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::text("This is a simple text response for testing.")
}

async fn image(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::content(vec![Content::image(PNG, "image/png")])
}

async fn audio(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::content(vec![Content::audio(WAV, "audio/wav")])
}

async fn embedded_resource(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::content(vec![embedded("test://embedded-resource")])
}

async fn mixed(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::content(vec![
        Content::text("Multiple content types test:"),
        Content::image(PNG, "image/png"),
        embedded("test://mixed-content-resource"),
    ])
}

async fn logging(_: NoArguments, ctx: Context) -> ToolResult {
    for step in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ] {
        ctx.log(LogLevel::Info, step).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ToolResult::text("Tool with logging executed successfully")
}

async fn progress(_: NoArguments, ctx: Context) -> ToolResult {
    for step in [0.0, 50.0, 100.0] {
        ctx.progress(step, Some(100.0)).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ToolResult::text("Tool with progress executed successfully")
}

async fn error(_: NoArguments, _: Context) -> ToolResult {
    ToolResult::error("This tool intentionally returns an error for testing")
}

async fn sampling(args: SamplingArgs, ctx: Context) -> ToolResult {
    match ctx.sample(&args.prompt, 100).await {
        Ok(sampled) => ToolResult::text(format!(
            "LLM response: {}",
            sampled.text().unwrap_or("(not text)")
        )),
        Err(error) => ToolResult::error(error),
    }
}

async fn elicitation(args: ElicitArgs, ctx: Context) -> ToolResult {
    match ctx.elicit::<UserInfo>(&args.message).await {
        Ok(Elicitation::Accepted(info)) => ToolResult::text(format!(
            "User response: accepted ({}, {})",
            info.username, info.email
        )),
        Ok(_) => ToolResult::text("User response: declined or cancelled"),
        Err(error) => ToolResult::error(error),
    }
}

/// The five enum shapes of SEP-1330.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
    Option3,
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum TitledOption {
    #[schemars(title = "First Option")]
    #[serde(rename = "value1")]
    Value1,
    #[schemars(title = "Second Option")]
    #[serde(rename = "value2")]
    Value2,
    #[schemars(title = "Third Option")]
    #[serde(rename = "value3")]
    Value3,
}

#[derive(Deserialize, Serialize, JsonSchema)]
enum TitledChoice {
    #[schemars(title = "First Choice")]
    #[serde(rename = "value1")]
    Value1,
    #[schemars(title = "Second Choice")]
    #[serde(rename = "value2")]
    Value2,
    #[schemars(title = "Third Choice")]
    #[serde(rename = "value3")]
    Value3,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct EnumForm {
    untitled_single: Untitled,
    titled_single: TitledOption,
    #[schemars(extend(
        "enum" = ["opt1", "opt2", "opt3"],
        "enumNames" = ["Option One", "Option Two", "Option Three"]
    ))]
    legacy_enum: String,
    untitled_multi: Vec<Untitled>,
    titled_multi: Vec<TitledChoice>,
}

/// The defaults of SEP-1034, one per primitive type.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct DefaultsForm {
    /// User name
    #[serde(default = "default_name")]
    name: String,
    /// User age
    #[serde(default = "default_age")]
    age: i64,
    /// User score
    #[serde(default = "default_score")]
    score: f64,
    /// User status
    #[serde(default = "default_status")]
    status: Status,
    /// Verification status
    #[serde(default = "default_verified")]
    verified: bool,
}

fn default_name() -> String {
    "John Doe".into()
}
fn default_age() -> i64 {
    30
}
fn default_score() -> f64 {
    95.5
}
fn default_status() -> Status {
    Status::Active
}
fn default_verified() -> bool {
    true
}

/// Asks for the form `T` and reports the answer as the SEP-1034 and SEP-1330 scenarios
/// expect.
async fn elicit_form<T>(ctx: Context, message: &str) -> ToolResult
where
    T: Serialize + serde::de::DeserializeOwned + JsonSchema,
{
    match ctx.elicit::<T>(message).await {
        Ok(Elicitation::Accepted(content)) => ToolResult::text(format!(
            "Elicitation completed: action=accept, content={}",
            serde_json::to_string(&content).unwrap_or_default()
        )),
        Ok(Elicitation::Declined) => {
            ToolResult::text("Elicitation completed: action=decline, content={}")
        }
        Ok(Elicitation::Cancelled) => {
            ToolResult::text("Elicitation completed: action=cancel, content={}")
        }
        Err(error) => ToolResult::error(error),
    }
}

async fn elicitation_enums(_: NoArguments, ctx: Context) -> ToolResult {
    elicit_form::<EnumForm>(ctx, "Please choose from each kind of enum").await
}

async fn elicitation_defaults(_: NoArguments, ctx: Context) -> ToolResult {
    elicit_form::<DefaultsForm>(ctx, "Please review the defaults").await
}

/// Asks the user through the request's own response (2026-07-28: an input-required
/// result, never a request of the server's own).
async fn streaming_elicitation(_: NoArguments, ctx: Context) -> ToolResult {
    elicit_form::<DefaultsForm>(ctx, "Please confirm").await
}

/// `test_missing_capability`: needs sampling, so a 2026-07-28 client that does not declare
/// it gets -32021 (the suite's `sep-2575-server-rejects-undeclared-capability`).
async fn missing_capability(_: NoArguments, ctx: Context) -> ToolResult {
    match ctx.sample("Say hello.", 20).await {
        Ok(sampled) => ToolResult::text(format!(
            "sampled: {}",
            sampled.text().unwrap_or("(not text)")
        )),
        Err(error) => error.into(),
    }
}

#[derive(Deserialize, JsonSchema)]
struct NameForm {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct ConfirmForm {
    ok: bool,
}

#[derive(Deserialize, JsonSchema)]
struct ColorForm {
    color: String,
}

#[derive(Deserialize, JsonSchema)]
struct ContextForm {
    context: String,
}

/// The user's name, asked under the key `user_name`.
async fn ask_name(ctx: &Context, message: &str) -> Result<Option<String>, ToolResult> {
    match ctx.keyed("user_name").elicit::<NameForm>(message).await {
        Ok(Elicitation::Accepted(form)) => Ok(Some(form.name)),
        Ok(_) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// `test_input_required_result_elicitation` (and the missing-response, result-type,
/// extra-params and validation scenarios): one elicitation keyed `user_name`.
async fn ir_elicitation(_: NoArguments, ctx: Context) -> ToolResult {
    match ask_name(&ctx, "What is your name?").await {
        Ok(name) => ToolResult::text(format!("Hello, {}!", name.as_deref().unwrap_or("stranger"))),
        Err(refused) => refused,
    }
}

/// `test_input_required_result_sampling`: one sampling request keyed `capital_question`.
async fn ir_sampling(_: NoArguments, ctx: Context) -> ToolResult {
    let asked = ctx.keyed("capital_question");
    match asked.sample("What is the capital of France?", 100).await {
        Ok(sampled) => ToolResult::text(format!(
            "The model said: {}",
            sampled.text().unwrap_or("(not text)")
        )),
        Err(error) => error.into(),
    }
}

/// `test_input_required_result_list_roots`: `roots/list` keyed `client_roots`.
async fn ir_list_roots(_: NoArguments, ctx: Context) -> ToolResult {
    match ctx.keyed("client_roots").list_roots().await {
        Ok(roots) => {
            let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
            ToolResult::text(format!("Client roots: {}", uris.join(", ")))
        }
        Err(error) => error.into(),
    }
}

/// `test_input_required_result_request_state` and `..._tampered_state`: a confirmation;
/// the answer comes back only through a verified `requestState`.
async fn ir_confirm(_: NoArguments, ctx: Context) -> ToolResult {
    match ctx
        .keyed("confirm")
        .elicit::<ConfirmForm>("Please confirm")
        .await
    {
        Ok(Elicitation::Accepted(form)) => {
            ToolResult::text(format!("state-ok: confirmed={}", form.ok))
        }
        Ok(_) => ToolResult::text("state-ok: not confirmed"),
        Err(error) => error.into(),
    }
}

/// `test_input_required_result_multiple_inputs`: three asks in one round (joined, so that
/// all three are asked at once).
async fn ir_multiple(_: NoArguments, ctx: Context) -> ToolResult {
    let (name_ctx, greeting_ctx, roots_ctx) = (
        ctx.keyed("user_name"),
        ctx.keyed("greeting"),
        ctx.keyed("client_roots"),
    );
    let (name, greeting, roots) = tokio::join!(
        name_ctx.elicit::<NameForm>("What is your name?"),
        greeting_ctx.sample("Generate a greeting", 50),
        roots_ctx.list_roots(),
    );
    let name = match name {
        Ok(Elicitation::Accepted(form)) => form.name,
        Ok(_) => "stranger".into(),
        Err(error) => return error.into(),
    };
    let greeting = match greeting {
        Ok(sampled) => sampled.text().unwrap_or("Hello").to_owned(),
        Err(error) => return error.into(),
    };
    match roots {
        Ok(roots) => ToolResult::text(format!("{greeting} {name} ({} roots)", roots.len())),
        Err(error) => error.into(),
    }
}

/// `test_input_required_result_multi_round`: a second question once the first is answered.
async fn ir_multi_round(_: NoArguments, ctx: Context) -> ToolResult {
    let name = match ctx
        .keyed("step1")
        .elicit::<NameForm>("Step 1: What is your name?")
        .await
    {
        Ok(Elicitation::Accepted(form)) => form.name,
        Ok(_) => "stranger".into(),
        Err(error) => return error.into(),
    };
    let asked = ctx.keyed("step2");
    match asked
        .elicit::<ColorForm>("Step 2: What is your favorite color?")
        .await
    {
        Ok(Elicitation::Accepted(form)) => ToolResult::text(format!("{name} likes {}", form.color)),
        Ok(_) => ToolResult::text(format!("{name} keeps their color to themselves")),
        Err(error) => error.into(),
    }
}

/// `test_input_required_result_capabilities`: asks only what the client declared it can
/// answer.
async fn ir_capabilities(_: NoArguments, ctx: Context) -> ToolResult {
    if ctx.can_elicit() {
        return ir_elicitation(NoArguments {}, ctx).await;
    }
    if ctx.can_sample() {
        return ir_sampling(NoArguments {}, ctx).await;
    }
    ToolResult::text("the client declared neither elicitation nor sampling")
}

/// The arguments of `json_schema_2020_12_tool`, whose schema uses the 2020-12 vocabulary
/// (`$defs` with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`), written by hand.
#[derive(Deserialize)]
struct ContactArgs {
    #[serde(flatten)]
    _members: Map<String, Value>,
}

impl JsonSchema for ContactArgs {
    fn schema_name() -> Cow<'static, str> {
        "ContactArgs".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {
                        "street": { "type": "string" },
                        "city": { "type": "string" }
                    }
                }
            },
            "properties": {
                "name": { "type": "string" },
                "address": { "$ref": "#/$defs/address" },
                "contactMethod": { "type": "string", "enum": ["phone", "email"] },
                "phone": { "type": "string" },
                "email": { "type": "string" }
            },
            "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
            "if": {
                "properties": { "contactMethod": { "const": "phone" } },
                "required": ["contactMethod"]
            },
            "then": { "required": ["phone"] },
            "else": { "required": ["email"] },
            "additionalProperties": false
        })
    }
}

async fn json_schema_tool(_: ContactArgs, _: Context) -> ToolResult {
    ToolResult::text("ok")
}

/// The arguments of `test_custom_headers`: `region` and `priority` are mirrored in
/// `Mcp-Param-Region` and `Mcp-Param-Priority` (2026-07-28, `x-mcp-header`).
#[derive(Deserialize, JsonSchema)]
struct HeaderArgs {
    /// The region (mirrored in `Mcp-Param-Region`).
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
    /// The priority (mirrored in `Mcp-Param-Priority`).
    #[schemars(extend("x-mcp-header" = "Priority"))]
    #[serde(default)]
    priority: Option<i64>,
    /// A query (not mirrored).
    #[serde(default)]
    query: Option<String>,
}

async fn custom_headers(args: HeaderArgs, _: Context) -> ToolResult {
    ToolResult::text(format!(
        "region={} priority={:?} query={:?}",
        args.region, args.priority, args.query
    ))
}

async fn complete_arg(request: CompletionRequest) -> Vec<String> {
    ["paris", "park", "party"]
        .into_iter()
        .filter(|v| v.starts_with(&request.value))
        .map(String::from)
        .collect()
}

/// The everything-server; with `secret`, `requestState` is sealed with it; with `events`, list
/// changes travel through them (refused without a secret: see [`BuildError`]).
///
/// [`BuildError`]: mcpwire_server::BuildError
fn server(
    secret: Option<&str>,
    events: Option<Box<dyn FnOnce(McpServerBuilder) -> McpServerBuilder>>,
) -> Result<McpServer, String> {
    let mut builder = McpServer::builder("mcpwire-conformance", env!("CARGO_PKG_VERSION"));
    if let Some(secret) = secret {
        builder = builder.request_state_secret(secret);
    }
    if let Some(events) = events {
        builder = events(builder);
    }
    tasks::register(builder)
        .tool("test_simple_text", "Returns simple text", simple_text)
        .tool("test_image_content", "Returns an image", image)
        .tool("test_audio_content", "Returns audio", audio)
        .tool(
            "test_embedded_resource",
            "Returns an embedded resource",
            embedded_resource,
        )
        .tool(
            "test_multiple_content_types",
            "Returns several kinds of content",
            mixed,
        )
        .tool("test_tool_with_logging", "Logs while it runs", logging)
        .tool("test_tool_with_progress", "Reports progress", progress)
        .tool("test_error_handling", "Always fails", error)
        .tool("test_sampling", "Asks the client's model", sampling)
        .tool("test_elicitation", "Asks the user", elicitation)
        .tool(
            "test_elicitation_sep1330_enums",
            "Asks for every kind of enum (SEP-1330)",
            elicitation_enums,
        )
        .tool(
            "test_elicitation_sep1034_defaults",
            "Asks with a default for every primitive type (SEP-1034)",
            elicitation_defaults,
        )
        .tool(
            "test_streaming_elicitation",
            "Asks the user within the call's own response",
            streaming_elicitation,
        )
        .tool(
            "test_missing_capability",
            "Needs the client's sampling capability",
            missing_capability,
        )
        .tool(
            "test_input_required_result_elicitation",
            "Asks the user's name (key user_name)",
            ir_elicitation,
        )
        .tool(
            "test_input_required_result_sampling",
            "Asks the client's model (key capital_question)",
            ir_sampling,
        )
        .tool(
            "test_input_required_result_list_roots",
            "Asks for the client's roots (key client_roots)",
            ir_list_roots,
        )
        .tool(
            "test_input_required_result_request_state",
            "Asks for a confirmation carried in requestState",
            ir_confirm,
        )
        .tool(
            "test_input_required_result_tampered_state",
            "Asks for a confirmation; refuses a tampered requestState",
            ir_confirm,
        )
        .tool(
            "test_input_required_result_multiple_inputs",
            "Asks three things at once",
            ir_multiple,
        )
        .tool(
            "test_input_required_result_multi_round",
            "Asks two things, one round each",
            ir_multi_round,
        )
        .tool(
            "test_input_required_result_capabilities",
            "Asks only what the client can answer",
            ir_capabilities,
        )
        .tool(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            json_schema_tool,
        )
        .tool(
            "test_custom_headers",
            "Takes parameters mirrored in Mcp-Param headers",
            custom_headers,
        )
        .resource(
            Resource::new("test://static-text", "static-text", |_: Context| async {
                ResourceContents::text("This is the content of the static text resource.")
            })
            .mime_type("text/plain")
            .description("A static text resource"),
        )
        .resource(
            Resource::new(
                "test://static-binary",
                "static-binary",
                |_: Context| async { ResourceContents::Blob(PNG.into()) },
            )
            .mime_type("image/png")
            .description("A static binary resource"),
        )
        .resource(
            Resource::new(
                "test://watched-resource",
                "watched-resource",
                |_: Context| async { ResourceContents::text("Watched resource content") },
            )
            .mime_type("text/plain"),
        )
        .resource_template(
            ResourceTemplate::new(
                "test://template/{id}/data",
                "template",
                |vars: TemplateVars, _: Context| async move {
                    ResourceContents::text(format!(
                        "{{\"id\":\"{}\",\"templateTest\":true,\"data\":\"Data for ID: {}\"}}",
                        vars.id, vars.id
                    ))
                },
            )
            .mime_type("application/json")
            .complete("id", complete_arg),
        )
        .prompt(Prompt::new(
            "test_simple_prompt",
            "A prompt without arguments",
            |_: NoArguments, _: Context| async {
                vec![PromptMessage::user("This is a simple prompt for testing.")]
            },
        ))
        .prompt(
            Prompt::new(
                "test_prompt_with_arguments",
                "A prompt with two arguments",
                |args: PromptArgs, _: Context| async move {
                    vec![PromptMessage::user(format!(
                        "Prompt with arguments: arg1='{}', arg2='{}'",
                        args.arg1, args.arg2
                    ))]
                },
            )
            .complete("arg1", complete_arg),
        )
        .prompt(Prompt::new(
            "test_input_required_result_prompt",
            "A prompt that asks the user for its context (key user_context)",
            |_: NoArguments, ctx: Context| async move {
                let asked = ctx.keyed("user_context");
                let context = match asked
                    .elicit::<ContextForm>("What context should the prompt use?")
                    .await
                {
                    Ok(Elicitation::Accepted(form)) => form.context,
                    _ => "no context".into(),
                };
                vec![PromptMessage::user(format!("Use this context: {context}"))]
            },
        ))
        .prompt(Prompt::new(
            "test_prompt_with_image",
            "A prompt with an image",
            |_: NoArguments, _: Context| async {
                vec![
                    PromptMessage::new(Role::User, Content::image(PNG, "image/png")),
                    PromptMessage::user("Please analyze the image above."),
                ]
            },
        ))
        .prompt(Prompt::new(
            "test_prompt_with_embedded_resource",
            "A prompt naming a resource",
            |args: EmbeddedArgs, _: Context| async move {
                vec![
                    PromptMessage::new(Role::User, embedded(&args.resource_uri)),
                    PromptMessage::user("Please process the embedded resource above."),
                ]
            },
        ))
        .build()
        .map_err(|error| error.to_string())
}

/// The command line: `--http IP:PORT [--stateless] [--redis URL] [--state-secret-file PATH]
/// [--session-tag HH] [--trusted-proxy ADDR]...`.
struct Args {
    addr: std::net::SocketAddr,
    stateless: bool,
    session_tag: Option<u8>,
    redis: Option<String>,
    secret_file: Option<String>,
    trusted_proxies: Vec<TrustedProxy>,
    auth: Auth,
}

/// `--auth-issuer URL --auth-audience URL [--auth-scope S]... [--auth-allow-loopback-http]`:
/// the endpoint as an OAuth protected resource (feature `auth`, docs/auth.md).
#[derive(Default)]
struct Auth {
    issuer: Option<String>,
    audience: Option<String>,
    scopes: Vec<String>,
    loopback_http: bool,
}

const USAGE: &str = "usage: conformance --http IP:PORT [--stateless] [--redis URL] \
     [--state-secret-file PATH] [--session-tag HH] [--trusted-proxy ADDR]... \
     [--auth-issuer URL --auth-audience URL [--auth-scope S]... [--auth-allow-loopback-http]]";

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut addr = None;
    let mut stateless = false;
    let mut redis = std::env::var("MCPWIRE_REDIS_URL")
        .ok()
        .filter(|url| !url.is_empty());
    let mut secret_file = None;
    let mut session_tag = None;
    let mut trusted_proxies = Vec::new();
    let mut auth = Auth::default();
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
        };
        match flag.as_str() {
            "--http" => {
                let text = value()?;
                addr = Some(
                    text.parse()
                        .map_err(|_| format!("--http takes IP:PORT, not {text:?}"))?,
                );
            }
            "--stateless" => stateless = true,
            "--trusted-proxy" => trusted_proxies.push(value()?.parse()?),
            "--redis" => redis = Some(value()?),
            "--auth-issuer" => auth.issuer = Some(value()?),
            "--auth-audience" => auth.audience = Some(value()?),
            "--auth-scope" => auth.scopes.push(value()?),
            "--auth-allow-loopback-http" => auth.loopback_http = true,
            "--state-secret-file" => secret_file = Some(value()?),
            "--session-tag" => {
                let text = value()?;
                let mut tag = [0u8; 1];
                hex::decode_to_slice(&text, &mut tag)
                    .map_err(|_| format!("--session-tag takes two hex digits, not {text:?}"))?;
                session_tag = Some(tag[0]);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let addr = addr.ok_or_else(|| USAGE.to_owned())?;
    if auth.issuer.is_some() != auth.audience.is_some() {
        return Err(format!(
            "--auth-issuer and --auth-audience go together\n{USAGE}"
        ));
    }
    Ok(Args {
        addr,
        stateless,
        session_tag,
        redis,
        secret_file,
        trusted_proxies,
        auth,
    })
}

/// `config` protected as `auth` says (unchanged without an issuer).
#[cfg(feature = "auth")]
fn protect(config: HttpConfig, auth: &Auth) -> Result<HttpConfig, String> {
    use mcpwire_server::auth::{JwtValidator, ResourceServer};
    let (Some(issuer), Some(audience)) = (&auth.issuer, &auth.audience) else {
        return Ok(config);
    };
    let validator = JwtValidator::builder(issuer.clone(), audience.clone())
        .allow_loopback_http(auth.loopback_http)
        .build()
        .map_err(|e| e.to_string())?;
    let guard = auth.scopes.iter().fold(
        ResourceServer::builder(audience.clone()).authorization_server(issuer.clone()),
        |guard, scope| guard.required_scope(scope.clone()),
    );
    Ok(config.guard(guard.build(validator).map_err(|e| e.to_string())?))
}

/// Without the feature `auth`, only an unprotected endpoint.
#[cfg(not(feature = "auth"))]
fn protect(config: HttpConfig, auth: &Auth) -> Result<HttpConfig, String> {
    match auth.issuer {
        None => Ok(config),
        Some(_) => {
            Err("--auth-issuer needs the feature `auth` (cargo run --features auth)".to_owned())
        }
    }
}

/// The `requestState` secret the configuration names: the file's contents (trimmed), else
/// `MCPWIRE_STATE_SECRET`; `Ok(None)` when neither is set.
fn state_secret(file: Option<&str>) -> Result<Option<String>, String> {
    let secret = match file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("--state-secret-file {path}: {e}"))?
            .trim()
            .to_owned(),
        None => std::env::var("MCPWIRE_STATE_SECRET").unwrap_or_default(),
    };
    if secret.is_empty() {
        return Ok(None);
    }
    if secret.len() < 32 {
        return Err(format!(
            "the requestState secret has {} bytes; give at least 32 (e.g. `openssl rand -hex 32`)",
            secret.len()
        ));
    }
    Ok(Some(secret))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    // The libraries' events (the transport's warnings, a Redis outage and its end, the drain
    // on shutdown) on stderr, as `mcpwire serve` shows them; `MCPWIRE_LOG` filters them.
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCPWIRE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&raw) {
        Ok(args) => args,
        Err(why) => {
            eprintln!("conformance: {why}");
            return ExitCode::from(2);
        }
    };
    let secret = match state_secret(args.secret_file.as_deref()) {
        Ok(secret) => secret,
        Err(why) => {
            eprintln!("conformance: {why}");
            return ExitCode::from(2);
        }
    };
    let config = args.trusted_proxies.iter().fold(
        HttpConfig::default()
            .bind(args.addr)
            .stateless(args.stateless)
            .session_id_tag(args.session_tag),
        |config, proxy| config.trusted_proxy(*proxy),
    );
    let config = match protect(config, &args.auth) {
        Ok(config) => config,
        Err(why) => {
            eprintln!("conformance: {why}");
            return ExitCode::from(2);
        }
    };
    let built = match &args.redis {
        None => Ok((
            server(secret.as_deref(), None),
            config.event_store(MemoryEventStore::default()),
        )),
        Some(url) => clustered(url, secret.as_deref(), config),
    };
    let (server, config) = match built {
        Ok((Ok(server), config)) => (server, config),
        Ok((Err(error), _)) | Err(error) => {
            eprintln!("conformance: {error}");
            return ExitCode::from(2);
        }
    };
    if let Err(error) = streams::register(&server).await {
        eprintln!("conformance: {error}");
        return ExitCode::FAILURE;
    }
    let served = match server.http_server(config) {
        Ok(http) => {
            eprintln!("conformance: listening on {}", http.url());
            // SIGTERM or Ctrl-C: the calls in progress finish (10 s at most), then exit.
            let grace = std::time::Duration::from_secs(10);
            http.run_graceful(mcpwire::http::shutdown_signal(), grace)
                .await
        }
        Err(error) => Err(error),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("conformance: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The server and its transport settings as one process of the cluster sharing the Redis at
/// `url`: refused without a shared `requestState` secret.
#[cfg(feature = "redis")]
fn clustered(
    url: &str,
    secret: Option<&str>,
    config: HttpConfig,
) -> Result<(Result<McpServer, String>, HttpConfig), String> {
    let cluster = mcpwire_server::redis::RedisCluster::new(url).map_err(|e| e.to_string())?;
    eprintln!(
        "conformance: process {} of the cluster on Redis at {url}",
        cluster.process_id()
    );
    let events = cluster.events();
    // Tasks are kept in Redis too: a task created at one process is read at any other.
    let tasks = cluster.tasks();
    let server = server(
        secret,
        Some(Box::new(move |b| {
            b.event_source(events).shared_tasks(tasks)
        })),
    );
    let config = config
        .event_store(cluster.event_store())
        .health_check(cluster.health());
    Ok((server, config))
}

#[cfg(not(feature = "redis"))]
fn clustered(
    _: &str,
    _: Option<&str>,
    _: HttpConfig,
) -> Result<(Result<McpServer, String>, HttpConfig), String> {
    Err("--redis needs the example built with --features redis".into())
}
