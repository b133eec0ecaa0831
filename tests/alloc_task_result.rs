//! Issue 48: the Tasks extension's results are written once. A completed task keeps its
//! result as the text the tool's result was written to (once, from the version's generated
//! type), and `tasks/get` writes the task around that text: nothing parses the kept result
//! into a `serde_json::Value` or writes it again.
//!
//! Counted by the counting global allocator, as `alloc_tool_call` counts a call: a stateless
//! 2026-07-28 POST of `tasks/get` through the HTTP endpoint as a tower `Service`, for a task
//! whose result holds [`BLOCKS`] text blocks. When the kept result was parsed into a `Value`
//! for each `tasks/get` and the task written from a `Value` map, every block cost about five
//! allocations: 5,107 allocations and 934,240 bytes per `tasks/get` (debug build). Written
//! once: 75 allocations and 188,839 bytes, the same count whatever the number of blocks
//! (the reply's buffer grows by doubling).

use std::net::SocketAddr;

use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::Bytes;
use mcpwire::http::{HttpConfig, McpEndpoint, PeerAddr};
use mcpwire_server::{
    Content, Context, McpHttpService, McpServer, NoArguments, TaskSupport, Tool, ToolResult,
};
use mcpwire_tests::counting_alloc::{self, CountingAllocator};
use mcpwire_tests::endpoint::{mcp_post, ready};
use serde_json::Value;
use tower_service::Service;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// The text blocks of the task's result.
const BLOCKS: usize = 1000;

/// `tasks/get` calls counted (after as many warm-up calls).
const CALLS: u64 = 20;

/// `_meta` of every request: the version, and the client's capabilities declaring the
/// extension.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;

/// A tool that yields once (so that its call becomes a task), then returns [`BLOCKS`] text
/// blocks.
fn server() -> McpServer {
    let blocks = Tool::new(
        "blocks",
        "Returns many blocks",
        |_: NoArguments, _: Context| async move {
            tokio::task::yield_now().await;
            let blocks = (0..BLOCKS).map(|i| Content::text(format!("block {i}")));
            ToolResult::content(blocks.collect())
        },
    )
    .tasks(TaskSupport::Optional);
    McpServer::builder("alloc-task-result", "0.0.0")
        .add_tool(blocks)
        .build()
        .expect("the tool's schemas fit MCP")
}

/// POSTs `body` with the routing headers of `method` naming `name`: the status and the body.
async fn post(
    endpoint: &mut McpEndpoint<McpHttpService>,
    method: &str,
    name: &str,
    body: String,
) -> (StatusCode, Bytes) {
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
        ("Mcp-Name", name),
    ];
    let mut request = mcp_post(&headers, Bytes::from(body));
    let peer: SocketAddr = "127.0.0.1:40000".parse().unwrap();
    request.extensions_mut().insert(PeerAddr(peer));
    ready(endpoint).await;
    let response = endpoint.call(request).await.unwrap();
    let status = response.status();
    (
        status,
        response.into_body().collect().await.unwrap().to_bytes(),
    )
}

/// The body as JSON.
fn json(body: &[u8]) -> Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)))
}

fn tasks_get(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{{"taskId":"{id}",{META}}}}}"#
    )
}

#[test]
fn tasks_get_of_a_large_result_allocates_no_more_than_a_small_one() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime");
    let (count, bytes) = runtime.block_on(async {
        let mut endpoint = McpEndpoint::new(HttpConfig::default(), server().http_service());
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"blocks","arguments":{{}},{META}}}}}"#
        );
        let (status, created) = post(&mut endpoint, "tools/call", "blocks", call).await;
        let created = json(&created);
        assert_eq!(status, StatusCode::OK, "{created}");
        assert_eq!(created["result"]["resultType"], "task", "{created}");
        let id = created["result"]["taskId"].as_str().unwrap().to_owned();
        // The task's handler runs on a task of this runtime: let it finish.
        let mut done = Value::Null;
        for _ in 0..100 {
            let (_, got) = post(&mut endpoint, "tasks/get", &id, tasks_get(&id)).await;
            let got = json(&got);
            if got["result"]["status"] == "completed" {
                done = got;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let content = done["result"]["result"]["content"].as_array();
        assert_eq!(content.map(Vec::len), Some(BLOCKS), "{done}");
        assert_eq!(done["result"]["result"]["content"][7]["text"], "block 7");
        assert_eq!(done["result"]["resultType"], "complete");
        let expected = json(&serde_json::to_vec(&done).unwrap());
        let counts = counting_alloc::per_call(CALLS, async |_| {
            let (status, got) = post(&mut endpoint, "tasks/get", &id, tasks_get(&id)).await;
            assert_eq!(status, StatusCode::OK);
            // Checked without decoding it here (that would allocate per block): the same
            // task, completed, with the same result.
            let text = std::str::from_utf8(&got).unwrap();
            assert!(text.contains(r#""status":"completed""#), "{text}");
            assert!(text.contains(r#"{"text":"block 999","type":"text"}"#), "{text}");
        })
        .await;
        // The same reply as the first `tasks/get` that saw the task completed.
        let (_, again) = post(&mut endpoint, "tasks/get", &id, tasks_get(&id)).await;
        assert_eq!(json(&again), expected);
        counts
    });
    println!("tasks/get of {BLOCKS} blocks: {count} allocations, {bytes} bytes per call");
    assert!(
        count <= 300,
        "{count} allocations per tasks/get of {BLOCKS} blocks"
    );
}
