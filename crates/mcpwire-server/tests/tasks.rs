//! The Tasks extension of MCP 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`) as a
//! client sees it: a `tools/call` answered with a task handle, `tasks/get` inlining the
//! result, `tasks/update` answering the task's questions, `tasks/cancel` reaching the
//! handler; the gates (-32021, -32601); the store's bounds, expiry and owners. Each client is
//! its own session (its own owner) of one server, over an in-memory pipe.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use mcpwire::RpcError;
use mcpwire::service::RequestError;
use mcpwire_server::{
    Context, Elicitation, McpServer, NoArguments, TaskLimits, TaskSupport, Tool, ToolResult,
    Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, connect, declines};

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

#[derive(Deserialize, JsonSchema)]
struct Wait {
    /// Milliseconds to work.
    ms: u64,
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// What the handlers of one server saw.
#[derive(Default)]
struct Seen {
    cancelled: AtomicBool,
    runs: AtomicUsize,
}

/// Works `ms` milliseconds unless cancelled, then says how long it worked.
async fn wait(args: Wait, ctx: Context, seen: Arc<Seen>) -> ToolResult {
    seen.runs.fetch_add(1, Ordering::SeqCst);
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(args.ms)) => {
            ToolResult::text(format!("worked {} ms", args.ms))
        }
        () = ctx.cancelled() => {
            seen.cancelled.store(true, Ordering::SeqCst);
            ToolResult::error("cancelled")
        }
    }
}

fn server(limits: TaskLimits, seen: &Arc<Seen>) -> McpServer {
    let tool = |name: &str, support| {
        let seen = Arc::clone(seen);
        Tool::new(name, "Works a while", move |args: Wait, ctx: Context| {
            wait(args, ctx, Arc::clone(&seen))
        })
        .tasks(support)
    };
    McpServer::builder("tasks", "1.0.0")
        .task_limits(limits)
        .add_tool(tool("optional", TaskSupport::Optional))
        .add_tool(tool("required", TaskSupport::Required))
        .add_tool(tool("plain", TaskSupport::Forbidden))
        .add_tool(
            Tool::new(
                "asks",
                "Works, then asks a name",
                |_: NoArguments, ctx: Context| async move {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    match ctx.elicit::<Name>("Your name?").await {
                        Ok(Elicitation::Accepted(n)) => {
                            ToolResult::text(format!("Hello, {}!", n.name))
                        }
                        Ok(_) => ToolResult::text("no name"),
                        Err(e) => e.into(),
                    }
                },
            )
            .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new(
                "asks_first",
                "Asks a name, then works",
                |_: NoArguments, ctx: Context| async move {
                    let name = match ctx.keyed("user_name").elicit::<Name>("Your name?").await {
                        Ok(Elicitation::Accepted(n)) => n.name,
                        _ => "nobody".into(),
                    };
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    ToolResult::text(format!("Hello, {name}!"))
                },
            )
            .tasks(TaskSupport::Required),
        )
        .add_tool(
            Tool::new("big", "Returns 4 KiB", |_: NoArguments, _: Context| async {
                tokio::task::yield_now().await;
                ToolResult::text("x".repeat(4096))
            })
            .tasks(TaskSupport::Optional),
        )
        .add_tool(
            Tool::new(
                "panics",
                "Panics after a moment",
                |_: NoArguments, _: Context| async {
                    tokio::task::yield_now().await;
                    if true {
                        panic!("the handler fails");
                    }
                    ToolResult::text("never")
                },
            )
            .tasks(TaskSupport::Optional),
        )
        .build()
        .unwrap()
}

fn client(server: &McpServer) -> Client {
    connect(server, Version::V2026_07_28, declines())
}

/// `_meta` declaring the extension (and elicitation) when `tasks`.
fn meta(tasks: bool) -> Value {
    let capabilities = if tasks {
        json!({ "elicitation": {}, "extensions": { EXTENSION: {} } })
    } else {
        json!({ "elicitation": {} })
    };
    Client::meta(capabilities)
}

/// A request whose result is read as JSON without validating it against the core schema
/// (which has no task shapes).
async fn raw(client: &Client, method: &str, params: Value) -> Result<Value, RpcError> {
    match client.handle().request_raw(method, &params).await {
        Ok(raw) => Ok(serde_json::from_str(raw.get()).unwrap()),
        Err(RequestError::Rpc(error)) => Err(error),
        Err(other) => panic!("{method}: {other}"),
    }
}

async fn call(client: &Client, tool: &str, arguments: Value, tasks: bool) -> Value {
    let params = json!({ "name": tool, "arguments": arguments, "_meta": meta(tasks) });
    raw(client, "tools/call", params).await.unwrap()
}

async fn task(client: &Client, method: &str, id: &str) -> Result<Value, RpcError> {
    let mut params = json!({ "taskId": id, "_meta": meta(true) });
    if method == "tasks/update" {
        params["inputResponses"] = json!({});
    }
    raw(client, method, params).await
}

/// Polls `tasks/get` until the task's status is `status` (2 s at most).
async fn until(client: &Client, id: &str, status: &str) -> Value {
    for _ in 0..200 {
        let got = task(client, "tasks/get", id).await.unwrap();
        if got["status"] == status {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {id} never reached {status}");
}

fn limits() -> TaskLimits {
    TaskLimits::default()
}

#[tokio::test]
async fn a_task_supporting_call_returns_a_task_whose_result_tasks_get_inlines() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let created = call(&client, "optional", json!({ "ms": 30 }), true).await;
    let members: Vec<&str> = created
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        [
            "createdAt",
            "lastUpdatedAt",
            "pollIntervalMs",
            "resultType",
            "status",
            "taskId",
            "ttlMs"
        ],
        "{created}"
    );
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert_eq!(created["ttlMs"], 600_000);
    assert_eq!(created["pollIntervalMs"], 500);
    let id = created["taskId"].as_str().unwrap();
    assert_eq!(id.len(), 32, "128 bits in hex: {id}");
    assert!(created["createdAt"].as_str().unwrap().ends_with('Z'));
    // Durable: found at once.
    let working = task(&client, "tasks/get", id).await.unwrap();
    assert_eq!(working["resultType"], "complete");
    assert_eq!(working["taskId"], id);
    let done = until(&client, id, "completed").await;
    // The `CallToolResult` the call would have had.
    assert_eq!(
        done["result"],
        json!({ "content": [{ "type": "text", "text": "worked 30 ms" }], "resultType": "complete" })
    );
    assert!(done.get("error").is_none() && done.get("inputRequests").is_none());
    // Cancelling a finished task is the same empty acknowledgement, and changes nothing.
    let ack = task(&client, "tasks/cancel", id).await.unwrap();
    assert_eq!(ack, json!({ "resultType": "complete" }));
    assert_eq!(
        until(&client, id, "completed").await["result"],
        done["result"]
    );
}

#[tokio::test]
async fn without_the_extension_calls_are_answered_and_task_methods_refused() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let discovered = client.discover().await;
    assert_eq!(
        discovered["capabilities"]["extensions"],
        json!({ EXTENSION: {} })
    );
    assert!(discovered["capabilities"].get("tasks").is_none());
    // A supporting tool runs to its result; a required one is refused before it runs.
    let plain = call(&client, "optional", json!({ "ms": 1 }), false).await;
    assert_eq!(plain["resultType"], "complete");
    assert!(plain.get("taskId").is_none());
    let params = json!({ "name": "required", "arguments": { "ms": 1 }, "_meta": meta(false) });
    let refused = raw(&client, "tools/call", params).await.unwrap_err();
    assert_eq!(refused.code(), -32021);
    let data: Value = serde_json::from_str(refused.data().unwrap().get()).unwrap();
    assert_eq!(
        data,
        json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } })
    );
    assert_eq!(
        seen.runs.load(Ordering::SeqCst),
        1,
        "the required tool did not run"
    );
    // A tool that forbids tasks never becomes one, even for a declaring client.
    let forbidden = call(&client, "plain", json!({ "ms": 1 }), true).await;
    assert_eq!(forbidden["resultType"], "complete");
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let mut params = json!({ "taskId": "x", "inputResponses": {}, "_meta": meta(false) });
        if method != "tasks/update" {
            params.as_object_mut().unwrap().remove("inputResponses");
        }
        let error = raw(&client, method, params).await.unwrap_err();
        assert_eq!(error.code(), -32021, "{method}");
    }
    // The 2025-11-25 design's methods are not the extension's.
    for method in ["tasks/result", "tasks/list"] {
        let error = task(&client, method, "x").await.unwrap_err();
        assert_eq!(error.code(), -32601, "{method}");
    }
    // An unknown task is -32602.
    let error = task(&client, "tasks/get", "0123").await.unwrap_err();
    assert_eq!(error.code(), -32602);
}

#[tokio::test]
async fn tasks_cancel_reaches_the_handlers_context_and_the_task_stays_cancelled() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let created = call(&client, "optional", json!({ "ms": 60_000 }), true).await;
    let id = created["taskId"].as_str().unwrap();
    let ack = task(&client, "tasks/cancel", id).await.unwrap();
    assert_eq!(ack, json!({ "resultType": "complete" }));
    let cancelled = until(&client, id, "cancelled").await;
    assert!(cancelled.get("result").is_none(), "{cancelled}");
    for _ in 0..100 {
        if seen.cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(
        seen.cancelled.load(Ordering::SeqCst),
        "the handler saw the cancellation"
    );
    // What the handler returned after the cancellation is not kept.
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(
        task(&client, "tasks/get", id).await.unwrap()["status"],
        "cancelled"
    );
}

#[tokio::test]
async fn one_clients_task_is_invisible_to_another() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let owner = client(&server);
    let other = client(&server);
    let created = call(&owner, "optional", json!({ "ms": 60_000 }), true).await;
    let id = created["taskId"].as_str().unwrap();
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let error = task(&other, method, id).await.unwrap_err();
        assert_eq!(error.code(), -32602, "{method}");
        let unknown = task(&other, method, "ffffffffffffffffffffffffffffffff").await;
        assert_eq!(unknown.unwrap_err().message(), error.message(), "{method}");
    }
    assert_eq!(
        task(&owner, "tasks/get", id).await.unwrap()["status"],
        "working"
    );
    assert!(!seen.cancelled.load(Ordering::SeqCst));
    task(&owner, "tasks/cancel", id).await.unwrap();
}

#[tokio::test]
async fn a_task_asks_through_input_requests_and_tasks_update_resumes_it() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let created = call(&client, "asks", json!({}), true).await;
    let id = created["taskId"].as_str().unwrap();
    let waiting = until(&client, id, "input_required").await;
    let requests = waiting["inputRequests"].as_object().unwrap();
    assert_eq!(requests.len(), 1, "{waiting}");
    let (key, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Your name?");
    // A key that is not outstanding is ignored; the task keeps waiting.
    let params = json!({
        "taskId": id, "_meta": meta(true),
        "inputResponses": { "other": { "action": "accept", "content": { "name": "X" } } }
    });
    let ack = raw(&client, "tasks/update", params).await.unwrap();
    assert_eq!(ack, json!({ "resultType": "complete" }));
    assert_eq!(
        task(&client, "tasks/get", id).await.unwrap()["status"],
        "input_required"
    );
    let params = json!({
        "taskId": id, "_meta": meta(true),
        "inputResponses": { key.clone(): { "action": "accept", "content": { "name": "Ada" } } }
    });
    raw(&client, "tasks/update", params).await.unwrap();
    let done = until(&client, id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada!");
}

#[tokio::test]
async fn questions_asked_before_the_handler_waits_are_answered_before_the_task_exists() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let first = call(&client, "asks_first", json!({}), true).await;
    assert_eq!(first["resultType"], "input_required", "{first}");
    assert!(first.get("taskId").is_none());
    assert!(first["inputRequests"].get("user_name").is_some());
    let params = json!({
        "name": "asks_first", "arguments": {}, "_meta": meta(true),
        "inputResponses": { "user_name": { "action": "accept", "content": { "name": "Alice" } } },
        "requestState": first["requestState"],
    });
    let second = raw(&client, "tools/call", params).await.unwrap();
    assert_eq!(second["resultType"], "task", "{second}");
    assert!(second.get("requestState").is_none() && second.get("inputRequests").is_none());
    let done = until(&client, second["taskId"].as_str().unwrap(), "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Alice!");
}

#[tokio::test]
async fn a_panicking_handler_fails_its_task_with_a_json_rpc_error() {
    let seen = Arc::new(Seen::default());
    let server = server(limits(), &seen);
    let client = client(&server);
    let created = call(&client, "panics", json!({}), true).await;
    let failed = until(&client, created["taskId"].as_str().unwrap(), "failed").await;
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(failed["error"]["message"].is_string());
    assert!(failed.get("result").is_none());
}

#[tokio::test]
async fn an_expired_task_is_gone_and_its_work_stopped() {
    let seen = Arc::new(Seen::default());
    let limits = TaskLimits {
        ttl: Duration::from_millis(100),
        max_per_owner: 1,
        ..limits()
    };
    let server = server(limits, &seen);
    let client = client(&server);
    let created = call(&client, "optional", json!({ "ms": 60_000 }), true).await;
    assert_eq!(created["ttlMs"], 100);
    let id = created["taskId"].as_str().unwrap().to_owned();
    // The owner's one slot is taken: the next call runs to its result, no task.
    let direct = call(&client, "optional", json!({ "ms": 1 }), true).await;
    assert_eq!(direct["resultType"], "complete", "{direct}");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let error = task(&client, "tasks/get", &id).await.unwrap_err();
    assert_eq!(error.code(), -32602);
    assert!(
        seen.cancelled.load(Ordering::SeqCst),
        "the expired task's handler was cancelled"
    );
    // Its slot is free again.
    let again = call(&client, "optional", json!({ "ms": 1000 }), true).await;
    assert_eq!(again["resultType"], "task", "{again}");
}

#[tokio::test]
async fn a_result_larger_than_the_store_keeps_fails_its_task() {
    let seen = Arc::new(Seen::default());
    let limits = TaskLimits {
        max_result_bytes: 1024,
        ..limits()
    };
    let server = server(limits, &seen);
    let client = client(&server);
    let created = call(&client, "big", json!({}), true).await;
    let failed = until(&client, created["taskId"].as_str().unwrap(), "failed").await;
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(
        failed["error"]["data"]
            .as_str()
            .unwrap()
            .contains("more than the server keeps"),
        "{failed}"
    );
    // The same result fits a store with room for it.
    let server = self::server(TaskLimits::default(), &seen);
    let client = self::client(&server);
    let created = call(&client, "big", json!({}), true).await;
    let done = until(&client, created["taskId"].as_str().unwrap(), "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"].as_str().unwrap().len(),
        4096
    );
}

/// The attack of issue 51: one client creating long tasks in a loop holds at most its own
/// share of the store (its later calls run without a task, so nothing accumulates), and
/// another client still gets tasks.
#[tokio::test]
async fn a_client_creating_tasks_in_a_loop_neither_grows_the_store_nor_crowds_out_others() {
    let seen = Arc::new(Seen::default());
    let limits = TaskLimits {
        max_per_owner: 4,
        max_tasks: 6,
        ..limits()
    };
    let server = server(limits, &seen);
    let attacker = client(&server);
    for _ in 0..4 {
        let created = call(&attacker, "optional", json!({ "ms": 60_000 }), true).await;
        assert_eq!(created["resultType"], "task", "{created}");
    }
    // Over its share: each call is answered with its result, nothing is kept.
    for _ in 0..50 {
        let created = call(&attacker, "optional", json!({ "ms": 1 }), true).await;
        assert_eq!(created["resultType"], "complete", "{created}");
    }
    let other = client(&server);
    let created = call(&other, "optional", json!({ "ms": 60_000 }), true).await;
    assert_eq!(created["resultType"], "task", "{created}");
}
