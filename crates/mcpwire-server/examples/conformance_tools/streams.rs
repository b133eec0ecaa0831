//! The conformance server's diagnostic tools for streams: the list mutations that
//! `subscriptions/listen` scenarios watch for, logging without a level, the SSE polling
//! tool that closes its stream mid-call (2025-11-25, SEP-1699), and a slow stream of numbered
//! progress notifications (what `scripts/cluster/run.sh` resumes at another process).

use std::sync::OnceLock;
use std::time::Duration;

use mcpwire_server::{
    BuildError, Context, LogLevel, McpServer, NoArguments, Prompt, PromptMessage, Tool, ToolResult,
};

/// The server, for the tools that change its lists while it serves.
pub static SERVER: OnceLock<McpServer> = OnceLock::new();

/// Adds the tools of this file to `server` (before it serves: nobody is told).
pub async fn register(server: &McpServer) -> Result<(), BuildError> {
    let _ = SERVER.set(server.clone());
    let tools = [
        Tool::new(
            "test_trigger_tool_change",
            "Changes the tool list (notifications/tools/list_changed)",
            trigger_tool_change,
        ),
        Tool::new(
            "test_trigger_prompt_change",
            "Changes the prompt list (notifications/prompts/list_changed)",
            trigger_prompt_change,
        ),
        Tool::new(
            "test_logging_tool",
            "Logs at info level: nothing is sent unless the request names a log level",
            logging_tool,
        ),
        Tool::new(
            "test_reconnection",
            "Closes its SSE stream mid-call; the result comes after the client reconnects",
            reconnection,
        ),
        Tool::new(
            "test_numbered_progress",
            "Sends progress 1..=count (at most 1000), one every intervalMs (at most 1000)",
            numbered_progress,
        ),
    ];
    for tool in tools {
        server.add_tool(tool).await?;
    }
    Ok(())
}

async fn trigger_tool_change(_: NoArguments, _: Context) -> ToolResult {
    let Some(server) = SERVER.get() else {
        return ToolResult::error("the server is not serving yet");
    };
    let dynamic = Tool::new(
        "test_dynamic_tool",
        "Added by test_trigger_tool_change",
        |_: NoArguments, _: Context| async { ToolResult::text("dynamic") },
    );
    match server.add_tool(dynamic).await {
        Ok(()) => ToolResult::text("Tool list changed"),
        Err(error) => ToolResult::error(error.to_string()),
    }
}

async fn trigger_prompt_change(_: NoArguments, _: Context) -> ToolResult {
    let Some(server) = SERVER.get() else {
        return ToolResult::error("the server is not serving yet");
    };
    let dynamic = Prompt::new(
        "test_dynamic_prompt",
        "Added by test_trigger_prompt_change",
        |_: NoArguments, _: Context| async { vec![PromptMessage::user("dynamic")] },
    );
    match server.add_prompt(dynamic).await {
        Ok(()) => ToolResult::text("Prompt list changed"),
        Err(error) => ToolResult::error(error.to_string()),
    }
}

async fn logging_tool(_: NoArguments, ctx: Context) -> ToolResult {
    let sent = ctx
        .log(LogLevel::Info, "Diagnostic trace logging activated")
        .await;
    ToolResult::text(if sent { "Logged" } else { "Logging evaluated" })
}

async fn reconnection(_: NoArguments, ctx: Context) -> ToolResult {
    ctx.close_sse_stream().await;
    // The result is kept for the client's reconnection (GET with Last-Event-ID).
    tokio::time::sleep(Duration::from_millis(100)).await;
    ToolResult::text("Reconnection test completed")
}

/// The arguments of `test_numbered_progress`.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NumberedProgress {
    /// How many notifications (at most 1000).
    count: u32,
    /// The pause before each one, in milliseconds (at most 1000).
    interval_ms: u64,
}

async fn numbered_progress(args: NumberedProgress, ctx: Context) -> ToolResult {
    let count = args.count.min(1000);
    let pause = Duration::from_millis(args.interval_ms.min(1000));
    for step in 1..=count {
        tokio::time::sleep(pause).await;
        // A client that left (with sessions the call runs on) still has its events stored.
        ctx.progress(f64::from(step), Some(f64::from(count))).await;
    }
    ToolResult::text(format!("sent {count} progress notifications"))
}
