//! The everything-server of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`), built on mcpwire-server's public API only:
//! `--http IP:PORT` serves sessions at `/mcp`, `--http IP:PORT --stateless` serves
//! 2026-07-28. Driven by `scripts/conformance/run.sh`.
use std::process::ExitCode;
use std::time::Duration;

#[path = "conformance_tools/streams.rs"]
mod streams;

use mcpwire::http::{HttpConfig, MemoryEventStore};
use mcpwire_server::{
    CompletionRequest, Content, Context, Elicitation, EmbeddedResource, LogLevel, McpServer,
    NoArguments, Prompt, PromptMessage, Resource, ResourceContents, ResourceTemplate, Role,
    ToolResult,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// A silent WAV: the RIFF header of zero samples.
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

/// The resource the embedding tools and prompt carry.
fn embedded(uri: &str) -> Content {
    Content::resource(EmbeddedResource {
        uri: uri.into(),
        mime_type: Some("text/plain".into()),
        contents: ResourceContents::text("This is an embedded resource content."),
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

async fn complete_arg(request: CompletionRequest) -> Vec<String> {
    ["paris", "park", "party"]
        .into_iter()
        .filter(|v| v.starts_with(&request.value))
        .map(String::from)
        .collect()
}

fn server() -> McpServer {
    McpServer::builder("mcpwire-conformance", env!("CARGO_PKG_VERSION"))
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
        .expect("the conformance server's schemas fit MCP")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (addr, stateless) = match args.as_slice() {
        [flag, addr] if flag == "--http" => (addr, false),
        [flag, addr, s] if flag == "--http" && s == "--stateless" => (addr, true),
        _ => {
            eprintln!("usage: conformance --http IP:PORT [--stateless]");
            return ExitCode::from(2);
        }
    };
    let Ok(addr) = addr.parse() else {
        eprintln!("conformance: --http takes IP:PORT, not {addr:?}");
        return ExitCode::from(2);
    };
    let config = HttpConfig::default()
        .bind(addr)
        .stateless(stateless)
        .event_store(MemoryEventStore::default());
    let server = server();
    if let Err(error) = streams::register(&server).await {
        eprintln!("conformance: {error}");
        return ExitCode::FAILURE;
    }
    let served = match server.http_server(config) {
        Ok(http) => {
            eprintln!("conformance: listening on {}", http.url());
            http.run().await
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
