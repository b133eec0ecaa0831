//! `examples/axum.rs`: the MCP endpoint mounted at `/mcp` in an axum Router beside another
//! route, under tower-http's TraceLayer. Over real HTTP: the other route answers, a session
//! is opened and a tool called through `/mcp`, the endpoint's Origin check holds, and
//! SIGTERM ends the process with status 0.
#![cfg(all(feature = "http", unix))]

use crate::example;
use crate::http_support;

use std::process::Command;
use std::time::Duration;

use example::Example;
use http_support::{ACCEPT, INITIALIZE, JSON, request, request_to};
use serde_json::json;

#[test]
fn the_axum_example_serves_mcp_beside_its_other_routes() {
    let mut example = Example::start_named("axum", &["127.0.0.1:0"]);
    let addr = example.addr;
    let health = request_to(addr, "GET", "/health", &[], b"");
    assert_eq!(health.status, 200);
    assert_eq!(health.text(), "ok");

    let opened = request(addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(opened.status, 200, "{}", opened.text());
    let session = opened.session();
    let with_session = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    let add = json!({
        "jsonrpc": "2.0", "id": "sum", "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 2, "b": 40 } },
    });
    let added = request(addr, "POST", &with_session, add.to_string().as_bytes());
    assert_eq!(added.status, 200, "{}", added.text());
    let answer = added.json();
    assert_eq!(answer["id"], "sum");
    assert_eq!(answer["result"]["structuredContent"]["sum"], 42, "{answer}");

    // The endpoint's own rules hold inside the app.
    let foreign = [JSON, ACCEPT, ("Origin", "https://evil.example")];
    let refused = request(addr, "POST", &foreign, INITIALIZE.as_bytes());
    assert_eq!(refused.status, 403);

    let kill = Command::new("kill")
        .args(["-TERM", &example.child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = example
        .exits_within(Duration::from_secs(5))
        .expect("exits on SIGTERM");
    assert_eq!(status.code(), Some(0), "{status:?}");
}
