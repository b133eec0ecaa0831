//! Graceful shutdown (issue 48): the `mcp_server` example, sent SIGTERM while a call is in
//! flight, stops accepting connections at once, still answers that call, and exits 0 well
//! within its grace.
#![cfg(all(feature = "http", unix))]

use crate::example;
use crate::http_support;

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use example::Example;

use http_support::{ACCEPT, JSON, READ_LIMIT, head, read_reply};
use serde_json::json;

#[test]
fn sigterm_lets_a_call_in_flight_finish_then_exits_0() {
    let mut example = Example::start(&["--stateless"]);
    let addr = example.addr;
    // `countdown` of 8 steps takes 0.8 s.
    let body = json!({
        "jsonrpc": "2.0", "id": 41, "method": "tools/call",
        "params": {
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
            "name": "countdown", "arguments": { "n": 8 },
        },
    })
    .to_string();
    let headers = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "countdown"),
    ];
    let mut call = TcpStream::connect(addr).unwrap();
    call.set_read_timeout(Some(READ_LIMIT)).unwrap();
    call.write_all(head(addr, "POST", "/mcp", &headers, body.len()).as_bytes())
        .unwrap();
    call.write_all(body.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(250));
    let signalled = Instant::now();
    example.terminate();
    // No new connection is taken once the signal is handled.
    let mut refused = false;
    while signalled.elapsed() < Duration::from_millis(600) {
        if TcpStream::connect(addr).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // The call in flight still gets its answer.
    let reply = read_reply(&mut call);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let answer = reply.json();
    assert_eq!(answer["id"], 41, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"], "liftoff",
        "{answer}"
    );
    let status = example
        .exits_within(Duration::from_secs(5))
        .expect("exits after the call");
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(refused, "a connection was still accepted after SIGTERM");
}

#[test]
fn sigterm_with_nothing_in_flight_exits_0_at_once() {
    let mut example = Example::start(&[]);
    let addr = example.addr;
    // An idle kept-alive connection does not hold the shutdown up.
    let _idle = TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    example.terminate();
    let status = example
        .exits_within(Duration::from_secs(3))
        .expect("exits at once");
    assert_eq!(status.code(), Some(0), "{status:?}");
}
