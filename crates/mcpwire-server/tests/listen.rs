//! `subscriptions/listen` (MCP 2026-07-28) over Streamable HTTP in stateless mode, as a client
//! sees it on the wire: the acknowledgement first, every notification tagged with the listen
//! request's id, the filter honoured, list changes made by another POST delivered, the
//! stream's end the subscription's end; and, on a session whose stream is not drained, a
//! slow listener disconnected rather than buffered. Every notification is validated against
//! the 2026-07-28 schema.
#![cfg(feature = "http")]

use crate::http_support;
use crate::support;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use http_support::{ACCEPT, JSON, connect, head, read_until, request, start};
use mcpwire::http::{AsyncServer, HttpConfig};
use mcpwire::service::{Outgoing, Sink};
use mcpwire_server::{
    Context, InProcessEvents, McpServer, NoArguments, Prompt, PromptMessage, Resource,
    ResourceContents, Tool, ToolResult, Version,
};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};

const WAIT: Duration = Duration::from_secs(5);

/// A server with tools, prompts and a resource whose tools change its lists (as the suite's
/// `test_trigger_*` tools do), sharing `events` with the test.
fn server(events: InProcessEvents) -> McpServer {
    let me: Arc<OnceLock<McpServer>> = Arc::new(OnceLock::new());
    let (tools, prompts) = (Arc::clone(&me), Arc::clone(&me));
    let server = McpServer::builder("listen", "1")
        .tool(
            "change_tools",
            "adds a tool",
            move |_: NoArguments, _: Context| {
                let me = Arc::clone(&tools);
                async move {
                    let added = Tool::new("added", "added", |_: NoArguments, _: Context| async {
                        ToolResult::text("")
                    });
                    me.get().unwrap().add_tool(added).await.unwrap();
                    ToolResult::text("changed")
                }
            },
        )
        .tool(
            "change_prompts",
            "adds a prompt",
            move |_: NoArguments, _: Context| {
                let me = Arc::clone(&prompts);
                async move {
                    let added = Prompt::new("added", "added", |_: NoArguments, _: Context| async {
                        vec![PromptMessage::user("")]
                    });
                    me.get().unwrap().add_prompt(added).await.unwrap();
                    ToolResult::text("changed")
                }
            },
        )
        .prompt(Prompt::new(
            "p",
            "a prompt",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("hi")] },
        ))
        .resource(Resource::new(
            "file:///log.txt",
            "log",
            |_: Context| async { ResourceContents::text("line") },
        ))
        .event_source(events)
        .build()
        .unwrap();
    me.set(server.clone()).unwrap();
    server
}

/// The headers of a 2026-07-28 POST of `method` (the routing headers the body must match).
fn routing(method: &str) -> [(&str, &str); 4] {
    [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
    ]
}

fn meta() -> Value {
    support::Client::meta(json!({}))
}

/// Opens a listen stream (request id `id`, filter `filter`) and returns its socket.
fn listen(addr: SocketAddr, id: Value, filter: Value) -> TcpStream {
    let body = json!({
        "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
        "params": { "_meta": meta(), "notifications": filter },
    })
    .to_string();
    let mut stream = connect(addr);
    stream
        .write_all(
            head(
                addr,
                "POST",
                "/mcp",
                &routing("subscriptions/listen"),
                body.len(),
            )
            .as_bytes(),
        )
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

/// The JSON-RPC messages of the SSE `data:` lines in `raw` (a chunked response).
fn messages(raw: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(raw);
    text.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str(data).ok())
        .collect()
}

/// Reads the listen stream until `count` messages have arrived (or `limit` passes).
fn read_messages(stream: &mut TcpStream, count: usize, limit: Duration) -> Vec<Value> {
    let raw = read_until(stream, limit, |raw| messages(raw).len() >= count);
    let found = messages(&raw);
    for message in &found {
        support::assert_valid(Version::V2026_07_28, "ServerNotification", message);
    }
    found
}

fn call(addr: SocketAddr, tool: &str) {
    let body = json!({
        "jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": { "_meta": meta(), "name": tool, "arguments": {} },
    });
    let mut headers = routing("tools/call").to_vec();
    headers.push(("Mcp-Name", tool));
    let reply = request(addr, "POST", &headers, body.to_string().as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
}

fn wait_for(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn stateless(server: &McpServer) -> http_support::Running {
    let server = server.clone();
    start(
        HttpConfig::default().stateless(true),
        AsyncServer::new(move || server.session()),
    )
}

/// The test server over stateless HTTP, with the events it publishes to.
fn served() -> (InProcessEvents, McpServer, http_support::Running) {
    let events = InProcessEvents::default();
    let server = server(events.clone());
    let running = stateless(&server);
    (events, server, running)
}

#[test]
fn the_acknowledgement_comes_first_and_every_notification_carries_the_subscription_id() {
    let (events, server, running) = served();
    let addr = running.addr;
    // A string id, and a number beyond 2^53: echoed exactly.
    let mut stream = listen(
        addr,
        json!("listen-1"),
        json!({ "toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true, "resourceSubscriptions": ["file:///log.txt"] }),
    );
    let head = read_until(&mut stream, WAIT, |raw| !messages(raw).is_empty());
    let text = String::from_utf8_lossy(&head);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{text}"
    );
    let ack = messages(&head).remove(0);
    assert_eq!(
        ack,
        json!({
            "jsonrpc": "2.0",
            "method": "notifications/subscriptions/acknowledged",
            "params": {
                "_meta": { "io.modelcontextprotocol/subscriptionId": "listen-1" },
                "notifications": {
                    "promptsListChanged": true,
                    "resourceSubscriptions": ["file:///log.txt"],
                    "resourcesListChanged": true,
                    "toolsListChanged": true,
                },
            },
        })
    );
    support::assert_valid(Version::V2026_07_28, "ServerNotification", &ack);
    assert_eq!(events.listeners(), 1);

    call(addr, "change_tools");
    call(addr, "change_prompts");
    server.notify_resource_updated("file:///log.txt");
    server.notify_resource_updated("file:///other.txt"); // not subscribed to
    let seen = read_messages(&mut stream, 3, WAIT);
    let tag = json!({ "io.modelcontextprotocol/subscriptionId": "listen-1" });
    assert_eq!(
        seen,
        vec![
            json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": { "_meta": tag } }),
            json!({ "jsonrpc": "2.0", "method": "notifications/prompts/list_changed", "params": { "_meta": tag } }),
            json!({ "jsonrpc": "2.0", "method": "notifications/resources/updated", "params": { "_meta": tag, "uri": "file:///log.txt" } }),
        ]
    );

    // The client closes the stream: the subscription ends, its receiver is gone.
    drop(stream);
    wait_for("the listener to go", || events.listeners() == 0);

    // A numeric id is echoed with its digits.
    let mut stream = listen(
        addr,
        json!(9007199254740993u64),
        json!({ "toolsListChanged": true }),
    );
    let ack = read_messages(&mut stream, 1, WAIT);
    let raw_ack = serde_json::to_string(&ack[0]).unwrap();
    assert!(
        raw_ack.contains(r#""io.modelcontextprotocol/subscriptionId":9007199254740993"#),
        "{raw_ack}"
    );
}

#[test]
fn a_listener_gets_only_what_its_filter_names_and_what_the_server_offers() {
    let (events, server, running) = served();
    let addr = running.addr;
    let mut stream = listen(
        addr,
        json!(7),
        json!({ "promptsListChanged": true, "resourceSubscriptions": [] }),
    );
    let ack = read_messages(&mut stream, 1, WAIT);
    assert_eq!(
        ack[0]["params"]["notifications"],
        json!({ "promptsListChanged": true })
    );
    assert_eq!(events.listeners(), 1);
    call(addr, "change_tools"); // not asked for
    server.notify_resource_updated("file:///log.txt"); // not asked for
    call(addr, "change_prompts");
    // After the acknowledgement (read above): the prompts change only, and nothing else.
    let seen = read_messages(&mut stream, 1, WAIT);
    let methods: Vec<&str> = seen.iter().map(|m| m["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["notifications/prompts/list_changed"]);
    let more = read_until(&mut stream, Duration::from_millis(300), |raw| {
        !messages(raw).is_empty()
    });
    assert_eq!(messages(&more), Vec::<Value>::new());

    // A server without tools does not agree to tools notifications.
    let no_tools = McpServer::builder("prompts-only", "1")
        .prompt(Prompt::new(
            "p",
            "a prompt",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("hi")] },
        ))
        .build()
        .unwrap();
    let running = stateless(&no_tools);
    let mut stream = listen(
        running.addr,
        json!(1),
        json!({ "toolsListChanged": true, "promptsListChanged": true }),
    );
    let ack = read_messages(&mut stream, 1, WAIT);
    assert_eq!(
        ack[0]["params"]["notifications"],
        json!({ "promptsListChanged": true })
    );
}

#[test]
fn without_anything_to_listen_to_the_method_is_not_found() {
    let server = McpServer::builder("nothing", "1").build().unwrap();
    let running = stateless(&server);
    let body = json!({
        "jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen",
        "params": { "_meta": meta(), "notifications": { "toolsListChanged": true } },
    });
    let reply = request(
        running.addr,
        "POST",
        &routing("subscriptions/listen"),
        body.to_string().as_bytes(),
    );
    assert_eq!(reply.status, 404, "{}", reply.text());
    let reply = reply.json();
    assert_eq!(reply["id"], 3);
    assert_eq!(reply["error"]["code"], -32601);
}

/// A listener whose stream is not drained falls behind the source's bound: the publisher
/// never waits, and the listener is ended with an error saying so, not buffered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_listener_is_disconnected_not_buffered() {
    let events = InProcessEvents::new(4);
    let server = server(events.clone());
    let session = server.session();
    let (sink, mut out) = Sink::channel(1);
    let frame = json!({
        "jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
        "params": { "_meta": meta(), "notifications": { "toolsListChanged": true } },
    })
    .to_string();
    let receiving = {
        let session = session.clone();
        tokio::spawn(async move { session.receive(frame.as_bytes(), &sink).await })
    };
    // The acknowledgement, then nothing is read while the tool list changes 50 times.
    let first = tokio::time::timeout(WAIT, out.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(String::from_utf8_lossy(first.bytes()).contains("subscriptions/acknowledged"));
    let started = Instant::now();
    for n in 0..50 {
        let tool = Tool::new(format!("t{n}"), "t", |_: NoArguments, _: Context| async {
            ToolResult::text("")
        });
        server.add_tool(tool).await.unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the publisher waited"
    );
    // Now drained: a few notifications at most, then the error that ends the subscription.
    let mut notifications = 0;
    let reply = loop {
        match tokio::time::timeout(WAIT, out.recv())
            .await
            .unwrap()
            .unwrap()
        {
            Outgoing::Message(_) => notifications += 1,
            Outgoing::Reply(reply) => break reply,
        }
    };
    assert!(
        notifications <= 4 + 2,
        "{notifications} notifications were buffered"
    );
    let reply: Value = serde_json::from_slice(&reply).unwrap();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    assert!(
        reply["error"]["data"]
            .as_str()
            .unwrap()
            .contains("fell behind"),
        "{reply}"
    );
    receiving.await.unwrap();
    wait_for("the listener to go", || events.listeners() == 0);
}

/// Over a byte stream (stdio), the end of the client's input ends the subscription and the
/// serving returns: no listener outlives its client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_of_stdin_ends_the_subscription() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let events = InProcessEvents::default();
    let server = server(events.clone());
    let (client, served) = tokio::io::duplex(1 << 16);
    let (server_in, server_out) = tokio::io::split(served);
    let serving = {
        let server = server.clone();
        tokio::spawn(async move { server.serve(server_in, server_out).await })
    };
    let (from_server, mut to_server) = tokio::io::split(client);
    let listen = json!({
        "jsonrpc": "2.0", "id": "s", "method": "subscriptions/listen",
        "params": { "_meta": meta(), "notifications": { "toolsListChanged": true } },
    });
    to_server
        .write_all(format!("{listen}\n").as_bytes())
        .await
        .unwrap();
    let mut lines = BufReader::new(from_server).lines();
    let ack = tokio::time::timeout(WAIT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(
        ack.contains("notifications/subscriptions/acknowledged"),
        "{ack}"
    );
    assert_eq!(events.listeners(), 1);
    to_server.shutdown().await.unwrap();
    drop(to_server);
    tokio::time::timeout(WAIT, serving)
        .await
        .expect("serving ends")
        .unwrap()
        .unwrap();
    assert_eq!(events.listeners(), 0);
}
