//! Resumable SSE streams of Streamable HTTP sessions (MCP 2025-11-25, SEP-1699), as a client
//! sees them on the wire: a priming event (id, `retry`, empty data) first, an id on every
//! event, the server closing the connection mid-call, and a GET with `Last-Event-ID` that
//! replays exactly what followed that event (nothing twice) and then ends with the result.
//! An id of another session's stream, or one that is not an event id, is refused.
#![cfg(feature = "http")]

use crate::http_support;

use std::net::SocketAddr;
use std::time::Duration;

use http_support::{ACCEPT, JSON, request, start};
use mcpwire::http::{AsyncServer, HttpConfig, MemoryEventStore};
use mcpwire_server::{Context, McpServer, NoArguments, ToolResult};
use serde_json::{Value, json};

/// A tool that reports progress 1, closes its connection, reports progress 2 and returns.
async fn polled(_: NoArguments, ctx: Context) -> ToolResult {
    ctx.progress(1.0, None).await;
    assert!(ctx.close_sse_stream().await, "the stream is resumable");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(2.0, None).await;
    ToolResult::text("done")
}

fn serve(retry: Duration) -> http_support::Running {
    let server = McpServer::builder("resume", "1")
        .tool("polled", "closes its stream mid-call", polled)
        .tool(
            "quick",
            "answers at once",
            |_: NoArguments, _: Context| async { ToolResult::text("quick") },
        )
        .build()
        .unwrap();
    let config = HttpConfig::default()
        .event_store(MemoryEventStore::default())
        .sse_retry(retry);
    start(config, AsyncServer::new(move || server.session()))
}

fn initialize(addr: SocketAddr, version: &str) -> String {
    let body = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": version, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } },
    });
    let reply = request(addr, "POST", &[JSON, ACCEPT], body.to_string().as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.session()
}

/// One SSE event: its `id`, `retry` and `data` lines.
#[derive(Debug, Default, PartialEq)]
struct Event {
    id: Option<String>,
    retry: Option<String>,
    data: Option<String>,
}

fn events(body: &[u8]) -> Vec<Event> {
    let text = String::from_utf8_lossy(body).into_owned();
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut event = Event::default();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id: ") {
                    event.id = Some(v.to_owned());
                } else if let Some(v) = line.strip_prefix("retry: ") {
                    event.retry = Some(v.to_owned());
                } else if let Some(v) = line.strip_prefix("data:") {
                    event.data = Some(v.trim_start().to_owned());
                }
            }
            event
        })
        .collect()
}

fn json_of(event: &Event) -> Value {
    serde_json::from_str(event.data.as_deref().unwrap()).unwrap()
}

fn call(addr: SocketAddr, session: &str, tool: &str) -> http_support::Reply {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": {}, "_meta": { "progressToken": "p" } },
    });
    let headers = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    request(addr, "POST", &headers, body.to_string().as_bytes())
}

fn resume(addr: SocketAddr, session: &str, last: &str) -> http_support::Reply {
    let headers = [
        ("Accept", "text/event-stream"),
        ("Mcp-Session-Id", session),
        ("Last-Event-ID", last),
    ];
    request(addr, "GET", &headers, b"")
}

#[test]
fn a_stream_closed_mid_call_resumes_with_last_event_id_and_nothing_twice() {
    let running = serve(Duration::from_millis(1500));
    let addr = running.addr;
    let session = initialize(addr, "2025-11-25");

    // The POST: priming event, progress 1, then the server closes the connection.
    let reply = call(addr, &session, "polled");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let posted = events(&reply.body);
    let priming = &posted[0];
    assert_eq!(priming.retry.as_deref(), Some("1500"));
    assert_eq!(priming.data.as_deref(), Some(""));
    let priming_id = priming.id.clone().expect("the priming event has an id");
    let (stream, zero) = priming_id.rsplit_once('-').unwrap();
    assert_eq!(zero, "0");
    assert_eq!(
        posted[1].id.as_deref(),
        Some(format!("{stream}-1").as_str())
    );
    assert_eq!(json_of(&posted[1])["params"]["progress"], 1.0);
    // The bytes: the priming event, the event with its id before the usual lines, and the
    // `retry` before the connection closes.
    let expected = format!(
        "id: {stream}-0\nretry: 1500\ndata: \n\nid: {stream}-1\nevent: message\ndata: {progress}\n\nretry: 1500\n\n",
        progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1.0}}"#,
    );
    assert_eq!(reply.text(), expected);
    // Before the connection closes the client is told when to come back; no result yet.
    assert!(posted[2..].iter().all(|e| e.data.is_none()), "{posted:?}");
    assert_eq!(posted.last().unwrap().retry.as_deref(), Some("1500"));

    // Resuming after event 1: progress 2 and the result, each once, then the stream ends.
    let resumed = resume(addr, &session, &format!("{stream}-1"));
    assert_eq!(resumed.status, 200, "{}", resumed.text());
    let replayed = events(&resumed.body);
    let ids: Vec<&str> = replayed.iter().filter_map(|e| e.id.as_deref()).collect();
    assert_eq!(ids, [format!("{stream}-2"), format!("{stream}-3")]);
    assert_eq!(json_of(&replayed[0])["params"]["progress"], 2.0);
    let result = json_of(&replayed[1]);
    assert_eq!(result["id"], 1);
    assert_eq!(result["result"]["content"][0]["text"], "done");

    // From the priming event: the whole stream again, in order.
    let again = resume(addr, &session, &priming_id);
    let all = events(&again.body);
    assert_eq!(all.len(), 3);

    // Another session cannot read this stream; a made-up id is refused too.
    let other = initialize(addr, "2025-11-25");
    let foreign = resume(addr, &other, &format!("{stream}-1"));
    assert_eq!(foreign.status, 400, "{}", foreign.text());
    assert!(!foreign.text().contains("done"));
    assert_eq!(resume(addr, &session, "not-an-id").status, 400);
    assert_eq!(resume(addr, &session, &format!("{stream}-99")).status, 400);
}

#[test]
fn streams_carry_ids_and_a_quick_answer_stays_json() {
    let running = serve(Duration::from_secs(1));
    let addr = running.addr;
    let session = initialize(addr, "2025-11-25");
    let quick = call(addr, &session, "quick");
    assert_eq!(quick.header("content-type"), Some("application/json"));
    assert_eq!(quick.json()["result"]["content"][0]["text"], "quick");

    // Before 2025-11-25 there is no priming event (an event without data), but ids are.
    let old = initialize(addr, "2025-06-18");
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "polled", "arguments": {}, "_meta": { "progressToken": "p" } },
    });
    let headers = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", old.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let reply = request(addr, "POST", &headers, body.to_string().as_bytes());
    let posted = events(&reply.body);
    assert!(posted.iter().all(|e| e.retry.is_none()), "{posted:?}");
    assert_eq!(json_of(&posted[0])["params"]["progress"], 1.0);
    let id = posted[0].id.clone().unwrap();
    assert!(id.ends_with("-1"), "{id}");
    let resumed = resume(addr, &old, &id);
    let rest = events(&resumed.body);
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(json_of(&rest[1])["result"]["content"][0]["text"], "done");
}
