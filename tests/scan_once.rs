//! Issue 48: a POST body is read once. The transport checks the body's UTF-8 and scans it to
//! check the routing headers and the era, recording the params' `name` and `_meta` version as
//! it goes; the session's peer classifies what that scan found under its own profile instead
//! of reading the bytes again (`crates/mcpwire/src/split.rs`), a batch's elements included.
//! Every scan of a frame's JSON is a `trace` event of target `mcpwire::scan`, every UTF-8
//! check of a whole text one of `mcpwire::utf8`, every decode of a message's params one of
//! `mcpwire::params`. A POST of one `tools/call` through the whole endpoint, in process, makes
//! one of each, whatever the argument's size (the params' one decode is the server's, into
//! the version's type); a POST of a batch of two calls, of a body that is not JSON, of a
//! broken batch under a version without batches, or of a response to a request the server
//! sent, one scan and one UTF-8 check.
//!
//! Its own test binary: trace interest is cached per process, and a test running beside
//! this one on another thread, with no subscriber, could hide the events.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use http_body_util::BodyExt;
use hyper::body::Bytes;
use mcpwire::http::{HttpConfig, McpEndpoint};
use mcpwire_server::{Context, McpServer, NoArguments};
use mcpwire_tests::endpoint::{mcp_post, ready};
use serde_json::{Value, json};
use tower_service::Service;
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    /// Any text.
    text: String,
}

/// Counts the `mcpwire::scan`, `mcpwire::utf8` and `mcpwire::params` events.
#[derive(Clone, Default)]
struct Reads(Arc<[AtomicUsize; 3]>);

const TARGETS: [&str; 3] = ["mcpwire::scan", "mcpwire::utf8", "mcpwire::params"];

impl Reads {
    /// Scans, UTF-8 checks and params decodes so far.
    fn now(&self) -> [usize; 3] {
        [0, 1, 2].map(|i| self.0[i].load(Ordering::Relaxed))
    }

    /// Those made since `before`.
    fn since(&self, before: [usize; 3]) -> [usize; 3] {
        let now = self.now();
        [0, 1, 2].map(|i| now[i] - before[i])
    }
}

impl<S: tracing::Subscriber> Layer<S> for Reads {
    fn on_event(&self, event: &tracing::Event<'_>, _: LayerContext<'_, S>) {
        if let Some(i) = TARGETS.iter().position(|t| *t == event.metadata().target()) {
            self.0[i].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The reads counted on this thread, while the guard lives: the current-thread runtime runs
/// every task the endpoint spawns here.
fn counting() -> (Reads, tracing::subscriber::DefaultGuard) {
    let reads = Reads::default();
    let layer = tracing_subscriber::registry().with(reads.clone());
    (reads, tracing::subscriber::set_default(layer))
}

fn measuring_server() -> McpServer {
    McpServer::builder("scan", "1")
        .tool(
            "measure",
            "The length of a text",
            |Text { text }: Text, _: Context| async move { text.len().to_string() },
        )
        .build()
        .expect("a valid server")
}

async fn post(
    endpoint: &mut McpEndpoint<mcpwire_server::McpHttpService>,
    headers: &[(&str, &str)],
    body: String,
) -> (hyper::http::response::Parts, String) {
    ready(endpoint).await;
    let response = endpoint
        .call(mcp_post(headers, Bytes::from(body)))
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    (parts, String::from_utf8_lossy(&body).into_owned())
}

/// Opens a session of `version` (`initialize`, then `notifications/initialized`) for a client
/// declaring `capabilities`: its id.
async fn open_session(
    endpoint: &mut McpEndpoint<mcpwire_server::McpHttpService>,
    version: &str,
    capabilities: Value,
) -> String {
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": { "name": "t", "version": "1" }
        }
    });
    let (parts, reply) = post(endpoint, &[], initialize.to_string()).await;
    assert_eq!(parts.status, 200, "{reply}");
    assert!(
        reply.contains(&format!(r#""protocolVersion":"{version}""#)),
        "{reply}"
    );
    let session = parts.headers["mcp-session-id"].to_str().unwrap().to_owned();
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", version),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (parts, _) = post(endpoint, &headers, initialized.to_string()).await;
    assert_eq!(parts.status, 202);
    session
}

#[tokio::test]
async fn a_post_body_is_read_once() {
    let (reads, _default) = counting();
    let server = measuring_server();
    for (stateless, len) in [(true, 10), (true, 100_000), (false, 100_000)] {
        let mut endpoint = McpEndpoint::new(
            HttpConfig::default().stateless(stateless),
            server.http_service(),
        );
        let body = json!({
            "jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": {
                "name": "measure",
                "arguments": { "text": "a".repeat(len) },
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": { "name": "t", "version": "1" },
                    "io.modelcontextprotocol/clientCapabilities": {}
                }
            }
        });
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "measure"),
        ];
        let before = reads.now();
        let (parts, reply) = post(&mut endpoint, &headers, body.to_string()).await;
        assert_eq!(parts.status, 200, "{reply}");
        assert!(reply.contains(r#""id":7"#), "{reply}");
        assert!(reply.contains(&format!(r#""text":"{len}""#)), "{reply}");
        assert_eq!(
            reads.since(before),
            [1, 1, 1],
            "[scans, UTF-8 checks, params decodes] of a POST of one tools/call (stateless \
             {stateless}, {len}-byte argument)"
        );
    }
}

/// MCP 2025-03-26 takes batches over HTTP: a batch's scan goes to the session's peer too.
#[tokio::test]
async fn a_batch_post_is_read_once() {
    let (reads, _default) = counting();
    let server = measuring_server();
    let mut endpoint = McpEndpoint::new(HttpConfig::default(), server.http_service());
    let session = open_session(&mut endpoint, "2025-03-26", json!({})).await;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-03-26"),
    ];
    let call = |id: u32, text: &str| {
        json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": "measure", "arguments": { "text": text } }
        })
    };
    let batch = json!([call(2, "ab"), call(3, &"c".repeat(10_000))]);
    let before = reads.now();
    let (parts, reply) = post(&mut endpoint, &headers, batch.to_string()).await;
    assert_eq!(parts.status, 200, "{reply}");
    let replies: serde_json::Value = serde_json::from_str(&reply).expect(&reply);
    let texts: Vec<_> = replies
        .as_array()
        .expect("a batch's reply is an array")
        .iter()
        .map(|r| (r["id"].clone(), r["result"]["content"][0]["text"].clone()))
        .collect();
    assert_eq!(
        texts,
        [(json!(2), json!("2")), (json!(3), json!("10000"))],
        "{reply}"
    );
    assert_eq!(
        reads.since(before),
        [1, 1, 2],
        "[scans, UTF-8 checks, params decodes] of a POST of a batch of two calls"
    );
}

/// A body that is not JSON is read once too: its parse error goes to the session's peer with
/// the split, which answers it without reading the body again.
#[tokio::test]
async fn an_unreadable_post_body_is_read_once() {
    let (reads, _default) = counting();
    let server = measuring_server();
    let mut endpoint =
        McpEndpoint::new(HttpConfig::default().stateless(true), server.http_service());
    let headers = [("MCP-Protocol-Version", "2026-07-28")];
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"params":{{"text":"{}"}}"#,
        "a".repeat(1000)
    );
    let before = reads.now();
    let (parts, reply) = post(&mut endpoint, &headers, body).await;
    assert_eq!(parts.status, 400, "{reply}");
    assert!(reply.contains("-32700"), "{reply}");
    assert_eq!(
        reads.since(before),
        [1, 1, 0],
        "[scans, UTF-8 checks, params decodes] of a POST of a body that is not JSON"
    );
}

/// A broken batch (a body opening with `[` that is not JSON) sent under a version without
/// batches, which reads `[` as one value, is read once too: its parse error is the one the
/// transport's scan found, the same a scan of one value finds (`split.rs`'s
/// `a_broken_batch_fails_alike_as_a_batch_and_as_one_value`). The reply is the parse error
/// with no id (2026-07-28 and 2025-11-25 omit the member, 2025-03-26 writes `null`), byte for
/// byte as before, stateless (2026-07-28), in a session (2025-11-25), and in a session whose
/// version has batches (2025-03-26, read once before too).
#[tokio::test]
async fn a_broken_batch_post_is_read_once() {
    let (reads, _default) = counting();
    let server = measuring_server();
    let body = format!(
        r#"[{{"jsonrpc":"2.0","id":1,"method":"ping"}},{{"jsonrpc":"2.0","id":2,"params":{{"text":"{}"}}"#,
        "a".repeat(1000)
    );
    let id_null = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    let no_id = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
    for (version, stateless, expected) in [
        ("2026-07-28", true, no_id),
        ("2025-11-25", false, no_id),
        ("2025-03-26", false, id_null),
    ] {
        let mut endpoint = McpEndpoint::new(
            HttpConfig::default().stateless(stateless),
            server.http_service(),
        );
        let session = if stateless {
            None
        } else {
            Some(open_session(&mut endpoint, version, json!({})).await)
        };
        let mut headers = vec![("MCP-Protocol-Version", version)];
        if let Some(session) = &session {
            headers.push(("Mcp-Session-Id", session));
        }
        let before = reads.now();
        let (parts, reply) = post(&mut endpoint, &headers, body.clone()).await;
        let counted = reads.since(before);
        assert_eq!(parts.status, 400, "{version}: {reply}");
        assert_eq!(reply, expected, "{version}: the parse error");
        assert_eq!(
            counted,
            [1, 1, 0],
            "[scans, UTF-8 checks, params decodes] of a POST of a broken batch under {version}"
        );
    }
}

/// The JSON-RPC messages of the `data:` lines of an SSE text.
fn sse_messages(sse: &str) -> Vec<Value> {
    sse.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .collect()
}

/// MCP 2025-11-25 sessions: while a call runs, the server asks the client (`roots/list`) on
/// the call's stream; the client's POST of the answer is read once too, its UTF-8 proven by
/// the transport's read rather than checked again by the peer's single-pass path.
#[tokio::test]
async fn a_posted_response_is_read_once() {
    let (reads, _default) = counting();
    let server = McpServer::builder("scan", "1")
        .tool(
            "roots",
            "How many roots the client has",
            |_: NoArguments, ctx: Context| async move {
                match ctx.list_roots().await {
                    Ok(roots) => roots.len().to_string(),
                    Err(error) => error.to_string(),
                }
            },
        )
        .build()
        .expect("a valid server");
    let mut endpoint = McpEndpoint::new(HttpConfig::default(), server.http_service());
    let session = open_session(&mut endpoint, "2025-11-25", json!({ "roots": {} })).await;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let call = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "roots", "arguments": {} }
    });
    ready(&mut endpoint).await;
    let response = endpoint
        .call(mcp_post(&headers, Bytes::from(call.to_string())))
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut stream = response.into_body();
    let mut seen = String::new();
    let ask = loop {
        let frame = stream
            .frame()
            .await
            .expect("the call's stream asks before it ends")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
        }
        if let Some(ask) = sse_messages(&seen)
            .into_iter()
            .find(|m| m["method"] == "roots/list")
        {
            break ask;
        }
    };
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"roots":[{{"uri":"file:///a","name":"a"}},{{"uri":"file:///b"}}]}}}}"#,
        ask["id"]
    );
    let before = reads.now();
    let (parts, reply) = post(&mut endpoint, &headers, answer).await;
    let counted = reads.since(before);
    assert_eq!(parts.status, 202, "{reply}");
    assert_eq!(reply, "", "a response gets no reply");
    let rest = stream.collect().await.unwrap().to_bytes();
    seen.push_str(&String::from_utf8_lossy(&rest));
    let result = sse_messages(&seen)
        .into_iter()
        .find(|m| m["id"] == 2)
        .unwrap_or_else(|| panic!("the call's result: {seen}"));
    assert_eq!(result["result"]["content"][0]["text"], "2", "{seen}");
    assert_eq!(
        counted,
        [1, 1, 0],
        "[scans, UTF-8 checks, params decodes] of a POST of a response to the server's request"
    );
}
