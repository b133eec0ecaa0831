//! The Tasks extension over Streamable HTTP in stateless mode (MCP 2026-07-28), as a client
//! sees it on the wire: a task created by one POST is read by the next (each POST is its own
//! session; the task belongs to the client's address), and the task methods carry
//! `Mcp-Name: <taskId>` (SEP-2663, "Streamable HTTP: Routing Headers"). Raw HTTP/1.1 on
//! loopback.
#![cfg(feature = "http")]

use crate::http_support;

use std::net::SocketAddr;
use std::time::Duration;

use http_support::{ACCEPT, JSON, Reply, request, start};
use mcpwire::http::HttpConfig;
use mcpwire_server::{Context, McpServer, TaskSupport, Tool, ToolResult};
use serde_json::{Value, json};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    /// Milliseconds to work.
    ms: u64,
}

fn server() -> McpServer {
    let tool = Tool::new(
        "work",
        "Works a while",
        |args: Wait, ctx: Context| async move {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(args.ms)) => ToolResult::text("done"),
                () = ctx.cancelled() => ToolResult::error("cancelled"),
            }
        },
    );
    McpServer::builder("tasks-http", "1.0.0")
        .add_tool(tool.tasks(TaskSupport::Optional))
        .build()
        .unwrap()
}

/// POSTs a 2026-07-28 request declaring the Tasks extension, with `Mcp-Name: name` when given.
fn post(addr: SocketAddr, method: &str, name: Option<&str>, params: Value) -> Reply {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        }
    });
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let mut headers = vec![
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ];
    if let Some(name) = name {
        headers.push(("Mcp-Name", name));
    }
    request(addr, "POST", &headers, body.to_string().as_bytes())
}

#[test]
fn a_task_created_by_one_post_is_polled_and_cancelled_by_the_next_ones() {
    let running = start(
        HttpConfig::default().stateless(true),
        server().http_service(),
    );
    let addr = running.addr;
    let params = json!({ "name": "work", "arguments": { "ms": 60_000 } });
    let created = post(addr, "tools/call", Some("work"), params);
    assert_eq!(created.status, 200, "{}", created.text());
    let created = created.json();
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let id = created["result"]["taskId"].as_str().unwrap().to_owned();

    let got = post(addr, "tasks/get", Some(&id), json!({ "taskId": id }));
    assert_eq!(got.status, 200, "{}", got.text());
    let got = got.json()["result"].clone();
    assert_eq!(
        (got["taskId"].as_str(), got["status"].as_str()),
        (Some(&*id), Some("working"))
    );
    assert_eq!(got["resultType"], "complete");

    // The routing header must name the task.
    for name in [None, Some("another-task")] {
        let refused = post(addr, "tasks/get", name, json!({ "taskId": id }));
        assert_eq!(refused.status, 400, "{name:?}: {}", refused.text());
        assert_eq!(refused.json()["error"]["code"], -32020, "{name:?}");
    }

    let ack = post(addr, "tasks/cancel", Some(&id), json!({ "taskId": id }));
    assert_eq!(ack.status, 200, "{}", ack.text());
    assert_eq!(ack.json()["result"], json!({ "resultType": "complete" }));
    let got = post(addr, "tasks/get", Some(&id), json!({ "taskId": id })).json();
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}
