//! Issue 48: a POST body is scanned once. The transport scans the body to check the routing
//! headers and the era; the session's peer classifies what that scan found under its own
//! profile instead of reading the JSON again (`crates/mcpwire/src/split.rs`). Every scan of a
//! frame's JSON is a `trace` event of target `mcpwire::scan`; a POST of one `tools/call`
//! through the whole endpoint, in process, makes exactly one, whatever the argument's size.
//!
//! Its own test binary: trace interest is cached per process, and a test running beside
//! this one on another thread, with no subscriber, could hide the events.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use http_body_util::BodyExt;
use hyper::body::Bytes;
use mcpwire::http::{HttpConfig, McpEndpoint};
use mcpwire_server::{Context, McpServer};
use mcpwire_tests::endpoint::{mcp_post, ready};
use serde_json::json;
use tower_service::Service;
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Text {
    /// Any text.
    text: String,
}

/// Counts the `mcpwire::scan` events.
struct Scans(Arc<AtomicUsize>);

impl<S: tracing::Subscriber> Layer<S> for Scans {
    fn on_event(&self, event: &tracing::Event<'_>, _: LayerContext<'_, S>) {
        if event.metadata().target() == "mcpwire::scan" {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[tokio::test]
async fn a_post_body_is_scanned_once() {
    let scans = Arc::new(AtomicUsize::new(0));
    // This thread's: the current-thread runtime runs every task the endpoint spawns here.
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(Scans(scans.clone())));
    let server = McpServer::builder("scan", "1")
        .tool(
            "measure",
            "The length of a text",
            |Text { text }: Text, _: Context| async move { text.len().to_string() },
        )
        .build()
        .expect("a valid server");
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
        let request = mcp_post(
            &[
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "measure"),
            ],
            Bytes::from(body.to_string()),
        );
        ready(&mut endpoint).await;
        let before = scans.load(Ordering::Relaxed);
        let response = endpoint.call(request).await.unwrap();
        let status = response.status();
        let reply = response.into_body().collect().await.unwrap().to_bytes();
        let reply = String::from_utf8_lossy(&reply);
        assert_eq!(status, 200, "{reply}");
        assert!(reply.contains(r#""id":7"#), "{reply}");
        assert!(reply.contains(&format!(r#""text":"{len}""#)), "{reply}");
        let made = scans.load(Ordering::Relaxed) - before;
        assert_eq!(
            made, 1,
            "a POST of one tools/call (stateless {stateless}, {len}-byte argument) was scanned {made} times"
        );
    }
}
