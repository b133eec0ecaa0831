//! Issue 48: one decode on the request path. A stateless (MCP 2026-07-28) POST `tools/call`
//! goes through the whole HTTP path in process (`McpEndpoint` as a tower service: the body
//! read, the transport's classification, the session's peer, the server's validation and
//! dispatch, the tool, the reply) while the counting global allocator of `tests/support`
//! adds up what is allocated (on this thread: the current-thread runtime runs every task the
//! endpoint spawns here).
//!
//! What a user observes is the cost of a large argument: every layer that reads the params
//! into a value of its own allocates the argument's text again. The request path may
//! allocate at most [`COPIES`] times the argument's size beyond a small call's cost: the
//! validated request that dispatch is handed (decoded where the params lie in the frame)
//! and the tool's own decode (a
//! body that arrives in one frame, as here, is kept as it came; it was copied once more,
//! into a buffer of its own, before issue 48's cut of the HTTP path's fixed cost). Before
//! validation became the decode the path took ten: the params copied for the server's task, validation's decode thrown away,
//! dispatch's second decode, the binding's text held as a string (and grown), the
//! `Mcp-Param-*` check reading every argument of a tool that declares none. Three, until the
//! `requestState` binding was worked out only when a state is opened or sealed: it digested
//! the arguments' value on every call. The bytes of a
//! small call are printed (`--nocapture`) for the record in docs/architecture.md.

use http_body_util::BodyExt;
use hyper::body::Bytes;
use mcpwire::http::{HttpConfig, McpEndpoint};
use mcpwire_server::{Context, McpServer};
use mcpwire_tests::counting_alloc::{CountingAllocator, so_far};
use mcpwire_tests::endpoint::{mcp_post, ready};
use serde_json::json;
use tower_service::Service;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// How many times a large argument's size the request path may allocate.
const COPIES: u64 = 2;

/// What a call allocates that does not grow with its argument, and may differ between a
/// small call and a large one (the reply's digits, a buffer's rounding).
const SLACK: u64 = 4096;

/// The size of the large argument.
const LARGE: usize = 256 * 1024;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    /// Any text.
    text: String,
}

fn server() -> McpServer {
    McpServer::builder("alloc", "1")
        .tool(
            "measure",
            "The length of a text",
            |Text { text }: Text, _: Context| async move { text.len().to_string() },
        )
        .tool(
            "echo",
            "The text itself",
            |Text { text }: Text, _: Context| async move { text },
        )
        .build()
        .expect("a valid server")
}

/// The body of a stateless `tools/call` of `measure` with `text`.
fn call_body(id: u64, text: &str) -> Bytes {
    tool_body("measure", id, text)
}

/// The body of a stateless `tools/call` of `tool` with `text`.
fn tool_body(tool: &str, id: u64, text: &str) -> Bytes {
    let body = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {
            "name": tool,
            "arguments": { "text": text },
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    Bytes::from(body.to_string())
}

/// POSTs `body` to the endpoint and returns the reply's text, with the allocations (count,
/// bytes) the call made: from the request handed to the service to the reply's body read.
async fn post<S: mcpwire::http::HttpService>(
    endpoint: &mut McpEndpoint<S>,
    body: Bytes,
) -> (String, u64, u64) {
    post_to("measure", endpoint, body).await
}

/// [`post`] of a call of `tool`.
async fn post_to<S: mcpwire::http::HttpService>(
    tool: &str,
    endpoint: &mut McpEndpoint<S>,
    body: Bytes,
) -> (String, u64, u64) {
    let request = mcp_post(
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", tool),
        ],
        body,
    );
    ready(endpoint).await;
    let (count, bytes) = so_far();
    let response = endpoint.call(request).await.unwrap();
    let status = response.status();
    let reply = response.into_body().collect().await.unwrap().to_bytes();
    let (count, bytes) = (so_far().0 - count, so_far().1 - bytes);
    let text = String::from_utf8(reply.to_vec()).unwrap();
    assert_eq!(status, 200, "{text}");
    (text, count, bytes)
}

#[tokio::test]
async fn a_tool_call_reads_its_params_once() {
    let server = server();
    let config = HttpConfig::default().stateless(true);
    let mut endpoint = McpEndpoint::new(config, server.http_service());
    // Warm up: what is built once per process (lazy statics, the tool's schema) is not
    // counted against a call.
    for id in 0..3 {
        post(&mut endpoint, call_body(id, "warm")).await;
    }
    let (small_reply, small_count, small_bytes) = post(&mut endpoint, call_body(10, "hi")).await;
    assert!(small_reply.contains(r#""text":"2""#), "{small_reply}");
    let large_text = "a".repeat(LARGE);
    let (large_reply, _, large_bytes) = post(&mut endpoint, call_body(11, &large_text)).await;
    assert!(
        large_reply.contains(&format!(r#""text":"{LARGE}""#)),
        "{large_reply}"
    );
    let per_byte = (large_bytes - small_bytes) as f64 / LARGE as f64;
    println!(
        "tools/call over stateless HTTP: {small_count} allocations, {small_bytes} bytes; \
         a {LARGE}-byte argument adds {per_byte:.2} bytes per byte"
    );
    assert!(
        large_bytes - small_bytes <= COPIES * LARGE as u64 + SLACK,
        "a {LARGE}-byte argument made the request path allocate {} bytes more than a small \
         call ({per_byte:.2} copies; at most {COPIES})",
        large_bytes - small_bytes
    );
}

/// How many times a large result's size an echo of it may allocate, beyond a small echo.
const ECHO_COPIES: u64 = 5;

/// A large result is written once, straight into the reply that is sent. Echoing a text
/// allocates, per byte of it: the argument twice (the validated request, the tool's decode:
/// see [`a_tool_call_reads_its_params_once`]); the tool's text moved into its result and
/// into the version's generated result, which is serialized into the reply's buffer (the
/// text and an eighth more); that buffer cut to the line (the allocator counts it, though
/// the block shrinks in place); and this test's own reading of the response body. 4.13 in
/// all. Before, 8.00: the tool's text was copied into its result, and the result serialized
/// into a buffer of its own (which doubled as it grew) before being copied into the reply.
#[tokio::test]
async fn a_tool_calls_result_is_written_into_its_reply_once() {
    let server = server();
    let config = HttpConfig::default().stateless(true);
    let mut endpoint = McpEndpoint::new(config, server.http_service());
    for id in 0..3 {
        post_to("echo", &mut endpoint, tool_body("echo", id, "warm")).await;
    }
    let (_, _, small_bytes) = post_to("echo", &mut endpoint, tool_body("echo", 10, "hi")).await;
    let large_text = "a".repeat(LARGE);
    let large = tool_body("echo", 11, &large_text);
    let (large_reply, _, large_bytes) = post_to("echo", &mut endpoint, large).await;
    assert!(
        large_reply.contains(&format!(r#""text":"{large_text}""#)),
        "the text is echoed"
    );
    let per_byte = (large_bytes - small_bytes) as f64 / LARGE as f64;
    println!("echoing a {LARGE}-byte text over stateless HTTP adds {per_byte:.2} bytes per byte");
    assert!(
        large_bytes - small_bytes <= ECHO_COPIES * LARGE as u64 + SLACK,
        "echoing a {LARGE}-byte text allocated {per_byte:.2} times its size beyond a small \
         echo (at most {ECHO_COPIES})"
    );
}
