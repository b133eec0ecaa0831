//! `examples/axum.rs`: the MCP endpoint mounted at `/mcp` in an axum Router beside another
//! route, under tower-http's TraceLayer. Over real HTTP: the other route answers, a session
//! is opened and a tool called through `/mcp`, the endpoint's Origin check holds, and
//! SIGTERM ends the process with status 0, within its grace even while a stream is open.
#![cfg(all(feature = "http", unix))]

use crate::example;
use crate::http_support;

use std::io::Write;
use std::time::{Duration, Instant};

use example::Example;
use http_support::{
    ACCEPT, INITIALIZE, JSON, READ_LIMIT, connect, head, read_until, request, request_to,
};
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

    example.terminate();
    let status = example
        .exits_within(Duration::from_secs(5))
        .expect("exits on SIGTERM");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

/// A GET stream never ends on its own: after SIGTERM the example waits its grace (1 s here)
/// for it, then closes it and exits 0, where axum's own graceful shutdown would wait for it
/// forever.
#[test]
fn sigterm_with_a_stream_open_exits_after_the_grace() {
    let mut example = Example::start_named("axum", &["127.0.0.1:0", "1"]);
    let addr = example.addr;
    let opened = request(addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(opened.status, 200, "{}", opened.text());
    let session = opened.session();
    let mut stream = connect(addr);
    let headers = [
        ("Accept", "text/event-stream"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    stream
        .write_all(head(addr, "GET", "/mcp", &headers, 0).as_bytes())
        .unwrap();
    let raw = read_until(&mut stream, READ_LIMIT, |raw| {
        raw.windows(4).any(|w| w == b"\r\n\r\n")
    });
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw)
    );

    let signalled = Instant::now();
    example.terminate();
    let status = example
        .exits_within(Duration::from_secs(10))
        .expect("exits after its grace although the stream is open");
    assert_eq!(status.code(), Some(0), "{status:?}");
    let took = signalled.elapsed();
    assert!(
        took >= Duration::from_millis(900),
        "the grace was kept: {took:?}"
    );
    drop(stream);
}
