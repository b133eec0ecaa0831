//! The Tasks extension (SEP-2663) from the client, against `mcpwire-server` in stateless mode
//! on loopback: a call the server turns into a task gives the same result as a direct call
//! (the client polls, and answers the task's question through `tasks/update`); a task handed
//! to the caller can be read and cancelled; without the extension no task is made.

use std::time::Duration;

use mcpwire::http::HttpConfig;
use mcpwire_client::{
    CallOptions, Client, ClientError, ElicitAnswer, HttpTransport, TaskStatus, ToolCall, Version,
    result_text,
};
use mcpwire_server::{Context, Elicitation, McpServer, NoArguments, TaskSupport, Tool, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, json};

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Wait {
    ms: u64,
}

fn server() -> McpServer {
    let greet = Tool::new(
        "greet",
        "Works, then asks a name",
        |_: NoArguments, ctx: Context| async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            match ctx.elicit::<Name>("Who are you?").await {
                Ok(Elicitation::Accepted(n)) => ToolResult::text(format!("Hello, {}!", n.name)),
                Ok(_) => ToolResult::text("no name"),
                Err(e) => e.into(),
            }
        },
    );
    let slow = Tool::new(
        "slow",
        "Works a while",
        |args: Wait, ctx: Context| async move {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(args.ms)) => ToolResult::text("done"),
                () = ctx.cancelled() => ToolResult::error("cancelled"),
            }
        },
    );
    McpServer::builder("tasks-client", "1.0.0")
        .add_tool(greet.tasks(TaskSupport::Required))
        .add_tool(slow.tasks(TaskSupport::Optional))
        .build()
        .expect("the fixture builds")
}

async fn connect(tasks: bool) -> Client {
    let http = server()
        .http_server(
            HttpConfig::default()
                .stateless(true)
                .bind("127.0.0.1:0".parse().unwrap()),
        )
        .expect("the server binds");
    let url = format!("http://{}/mcp", http.local_addr());
    tokio::spawn(http.run());
    let builder = Client::builder("tasks-test", "1.0.0")
        .protocol_version(Version::V2026_07_28)
        .request_timeout(Some(Duration::from_secs(10)))
        .on_elicitation(|_| async move {
            let mut content = Map::new();
            content.insert("name".into(), json!("Ada"));
            Ok(ElicitAnswer::Accept(content))
        });
    let builder = if tasks { builder.tasks() } else { builder };
    builder
        .connect(HttpTransport::new(&url).expect("an http URL"))
        .await
        .expect("the client connects")
}

#[tokio::test]
async fn a_call_the_server_makes_a_task_gives_the_result_of_a_direct_call() {
    let client = connect(true).await;
    let result = client
        .call_tool("greet", &json!({}), &CallOptions::new())
        .await
        .expect("the task completes");
    assert_eq!(result_text(&result), "Hello, Ada!");
    assert!(!result.is_error());
    client.close().await;
}

#[tokio::test]
async fn a_task_handed_to_the_caller_is_read_and_cancelled() {
    let client = connect(true).await;
    let call = client
        .call_tool_as_task("slow", &json!({ "ms": 60_000 }), &CallOptions::new())
        .await
        .expect("the call is answered");
    let ToolCall::Task(task) = call else {
        panic!("expected a task, got {call:?}");
    };
    assert_eq!(task.status, TaskStatus::Working);
    assert_eq!(task.task_id.len(), 32);
    let now = client.task(&task.task_id).await.expect("tasks/get");
    assert_eq!(now.status, TaskStatus::Working);
    client
        .cancel_task(&task.task_id)
        .await
        .expect("tasks/cancel");
    match client.wait_task(&task.task_id).await {
        Err(ClientError::Protocol(violation)) => {
            assert!(violation.to_string().contains("cancelled"), "{violation}")
        }
        other => panic!("expected the task cancelled, got {other:?}"),
    }
    // A short one, followed to its end.
    let call = client
        .call_tool_as_task("slow", &json!({ "ms": 20 }), &CallOptions::new())
        .await
        .unwrap();
    let ToolCall::Task(task) = call else {
        panic!("expected a task, got {call:?}");
    };
    let result = client.wait_task(&task.task_id).await.unwrap();
    assert_eq!(result_text(&result), "done");
    client.close().await;
}

#[tokio::test]
async fn without_the_extension_the_server_makes_no_task() {
    let client = connect(false).await;
    let call = client
        .call_tool_as_task("slow", &json!({ "ms": 20 }), &CallOptions::new())
        .await
        .unwrap();
    match call {
        ToolCall::Result(result) => assert_eq!(result_text(&result), "done"),
        ToolCall::Task(task) => panic!("a task without the extension: {task:?}"),
    }
    let refused = client.task("0123").await.unwrap_err();
    assert!(
        matches!(&refused, ClientError::Rpc(e) if e.code() == -32021),
        "{refused:?}"
    );
    client.close().await;
}
