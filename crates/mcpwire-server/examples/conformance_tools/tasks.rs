//! The fixture tools of the suite's Tasks scenarios (SEP-2663, `io.modelcontextprotocol/tasks`):
//! plain handlers, each declared as supporting, requiring or not running as a task; the
//! layer decides when a call becomes one (when the handler first waits on something other
//! than an unanswered question).

use std::time::Duration;

use mcpwire_server::{
    Context, Elicitation, McpServerBuilder, NoArguments, TaskLimits, TaskSupport, Tool, ToolResult,
};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct GreetArgs {
    /// Who to greet.
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct ComputeArgs {
    /// How long the computation takes, in seconds (0: at once).
    seconds: f64,
    /// A label echoed in the result.
    #[serde(default)]
    label: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct DeleteArgs {
    /// The file to delete.
    filename: String,
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    /// Whether to go ahead.
    confirm: bool,
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    /// A name.
    name: String,
}

/// Adds the Tasks fixtures to `builder`, with a store sized for a suite run (every
/// scenario's tasks, from one address, kept five minutes).
pub fn register(builder: McpServerBuilder) -> McpServerBuilder {
    let limits = TaskLimits {
        ttl: Duration::from_secs(300),
        max_per_owner: 256,
        ..TaskLimits::default()
    };
    builder
        .task_limits(limits)
        .tool("greet", "Greets by name (never a task)", greet)
        .add_tool(
            Tool::new(
                "slow_compute",
                "Computes for `seconds` seconds (a task when the client supports them)",
                slow_compute,
            )
            .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new(
                "failing_job",
                "Fails after a second with a tool error (requires a task)",
                failing_job,
            )
            .tasks(TaskSupport::Required),
        )
        .add_tool(
            Tool::new(
                "protocol_error_job",
                "Panics after a moment: its task fails with a JSON-RPC error",
                protocol_error_job,
            )
            .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new(
                "confirm_delete",
                "Asks the user to confirm deleting a file",
                confirm_delete,
            )
            .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new("multi_input", "Asks two questions at once", multi_input)
                .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new(
                "test_tool_with_task",
                "Asks the user's name (key user_name) before it becomes a task",
                tool_with_task,
            )
            .tasks(TaskSupport::Required),
        )
}

async fn greet(args: GreetArgs, _: Context) -> ToolResult {
    ToolResult::text(format!("Hello, {}!", args.name))
}

/// Waits `duration`, or until the call (or its task) is cancelled: whether it ran to the end.
async fn work(ctx: &Context, duration: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(duration) => true,
        () = ctx.cancelled() => false,
    }
}

async fn slow_compute(args: ComputeArgs, ctx: Context) -> ToolResult {
    let seconds = args.seconds.clamp(0.0, 3600.0);
    if seconds > 0.0 && !work(&ctx, Duration::from_secs_f64(seconds)).await {
        return ToolResult::error("cancelled");
    }
    let label = args.label.as_deref().unwrap_or("computation");
    ToolResult::text(format!("{label}: done after {seconds} s"))
}

async fn failing_job(_: NoArguments, ctx: Context) -> ToolResult {
    work(&ctx, Duration::from_secs(1)).await;
    ToolResult::error("the job failed")
}

async fn protocol_error_job(_: NoArguments, ctx: Context) -> ToolResult {
    work(&ctx, Duration::from_millis(200)).await;
    panic!("protocol_error_job: an internal failure, as the fixture is meant to have");
}

async fn confirm_delete(args: DeleteArgs, ctx: Context) -> ToolResult {
    // Looking the file up takes a moment: the call has become a task by the time it asks.
    work(&ctx, Duration::from_millis(50)).await;
    let message = format!("Delete {}?", args.filename);
    match ctx.elicit::<Confirm>(&message).await {
        Ok(Elicitation::Accepted(Confirm { confirm: true })) => {
            ToolResult::text(format!("Deleted {}", args.filename))
        }
        Ok(_) => ToolResult::text(format!("Kept {}", args.filename)),
        Err(error) => error.into(),
    }
}

async fn multi_input(_: NoArguments, ctx: Context) -> ToolResult {
    work(&ctx, Duration::from_millis(50)).await;
    let (name, confirm) = tokio::join!(
        ctx.elicit::<Name>("What is your name?"),
        ctx.elicit::<Confirm>("Go ahead?"),
    );
    match (name, confirm) {
        (Ok(Elicitation::Accepted(name)), Ok(Elicitation::Accepted(confirm))) => {
            ToolResult::text(format!("{}: confirm={}", name.name, confirm.confirm))
        }
        (Err(error), _) | (_, Err(error)) => error.into(),
        _ => ToolResult::text("declined"),
    }
}

async fn tool_with_task(_: NoArguments, ctx: Context) -> ToolResult {
    // Asked before the handler waits on anything: answered through the call's own
    // input-required round, before any task exists.
    let name = match ctx
        .keyed("user_name")
        .elicit::<Name>("What is your name?")
        .await
    {
        Ok(Elicitation::Accepted(form)) => form.name,
        Ok(_) => "stranger".into(),
        Err(error) => return error.into(),
    };
    work(&ctx, Duration::from_millis(500)).await;
    ToolResult::text(format!("Hello, {name}! Your task is done."))
}
