//! An async `mcpwire::service` server behind the Streamable HTTP transport
//! (`mcpwire::http::AsyncServer`), seen as raw HTTP/1.1 on a loopback socket: JSON replies,
//! SSE streams of a handler's notifications and of its request to the client, sessions that do
//! not wait for each other, DELETE cancelling a running handler, stateless mode.
#![cfg(feature = "http")]

use crate::http_support;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_support::*;
use mcpwire::Router;
use mcpwire::http::{AsyncServer, HttpConfig};
use mcpwire::service::{AsyncCallContext, Options, Session};
use mcpwire::{Profile, RpcError};
use serde_json::{Value, json};

/// What the handlers report to the test: `slow started`, `slow cancelled`.
struct Probe {
    events: Mutex<Sender<&'static str>>,
}

impl Probe {
    fn report(&self, event: &'static str) {
        let _ = self.events.lock().unwrap().send(event);
    }
}

fn internal(_: impl std::fmt::Debug) -> RpcError {
    RpcError::internal_error()
}

fn router() -> Router<Probe> {
    Router::<Probe>::new()
        .request_async("initialize", |_: Arc<Probe>, _: Value, _: AsyncCallContext| async {
            Ok::<_, RpcError>(json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "serverInfo": {"name": "async", "version": "1"}
            }))
        })
        .request_async("ping", |_: Arc<Probe>, _: Value, _: AsyncCallContext| async {
            Ok::<_, RpcError>(json!({}))
        })
        .request_async("add", |_: Arc<Probe>, p: Value, _: AsyncCallContext| async move {
            tokio::task::yield_now().await;
            let sum = p["a"].as_i64().unwrap_or(0) + p["b"].as_i64().unwrap_or(0);
            Ok::<_, RpcError>(json!({ "sum": sum }))
        })
        .request_async("count", |_: Arc<Probe>, _: Value, ctx: AsyncCallContext| async move {
            ctx.progress(1.0, Some(2.0), None).await.map_err(internal)?;
            ctx.progress(2.0, Some(2.0), None).await.map_err(internal)?;
            Ok::<_, RpcError>(json!({ "counted": 2 }))
        })
        .request_async("ask", |_: Arc<Probe>, _: Value, ctx: AsyncCallContext| async move {
            let params = json!({
                "message": "Your name?",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
            });
            let answer = ctx
                .peer()
                .request_raw("elicitation/create", &params)
                .await
                .map_err(internal)?;
            let answer: Value = serde_json::from_str(answer.get()).map_err(internal)?;
            Ok::<_, RpcError>(json!({ "told": answer["content"]["name"] }))
        })
        .request_async("refuse", |_: Arc<Probe>, p: Value, _: AsyncCallContext| async move {
            // Invalid params, with as much `data` as the request asks for.
            let len = p["len"].as_u64().unwrap_or(0) as usize;
            Err::<Value, _>(RpcError::invalid_params().with_data(&"x".repeat(len)))
        })
        .notification_async("notifications/hello", |_: Arc<Probe>, _: Value, ctx: AsyncCallContext| async move {
            let _ = ctx.notify_raw("notifications/message", &json!({"level":"info","data":"hello"})).await;
        })
        .request_async("slow", |probe: Arc<Probe>, _: Value, ctx: AsyncCallContext| async move {
            probe.report("slow started");
            let cancelled = tokio::time::timeout(Duration::from_secs(20), ctx.cancelled()).await;
            if cancelled.is_ok() {
                probe.report("slow cancelled");
            }
            Ok::<_, RpcError>(json!({}))
        })
}

/// An async server on 127.0.0.1; its handlers report through the returned receiver.
fn serve(config: HttpConfig) -> (Running, Receiver<&'static str>) {
    let (events, reports) = channel();
    let probe = Arc::new(Probe {
        events: Mutex::new(events),
    });
    let service = AsyncServer::new(move || {
        Session::with_options(
            Profile::mcp("2025-11-25").unwrap(),
            Arc::clone(&probe),
            router(),
            Options::default(),
        )
    });
    (start(config, service), reports)
}

fn post(addr: SocketAddr, session: &str, body: &str) -> Reply {
    request(
        addr,
        "POST",
        &[JSON, ACCEPT, ("Mcp-Session-Id", session)],
        body.as_bytes(),
    )
}

/// The `data` of each SSE event of `body`, parsed.
fn events(body: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(body)
        .split("\n\n")
        .filter_map(|event| event.lines().find_map(|l| l.strip_prefix("data: ")))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

/// Starts a POST on a connection of its own and returns it, the answer unread.
fn send_post(addr: SocketAddr, session: &str, body: &str) -> std::net::TcpStream {
    let mut stream = connect(addr);
    let headers = [JSON, ACCEPT, ("Mcp-Session-Id", session)];
    let head = head(addr, "POST", "/mcp", &headers, body.len());
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

fn expect(reports: &Receiver<&'static str>, event: &str) {
    let got = reports.recv_timeout(READ_LIMIT);
    assert_eq!(got, Ok(event), "waiting for {event}");
}

#[test]
fn an_async_handlers_result_comes_back_as_json() {
    let (server, _) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let reply = post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","id":7,"method":"add","params":{"a":2,"b":40}}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(
        reply.json(),
        json!({"jsonrpc":"2.0","id":7,"result":{"sum":42}})
    );
    let note = post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!((note.status, note.body.len()), (202, 0));
}

#[test]
fn two_progress_notifications_then_the_reply_make_one_sse_stream() {
    let (server, _) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let reply = post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","id":3,"method":"count","params":{"_meta":{"progressToken":"p"}}}"#,
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let progress = |n: f64| {
        json!({"jsonrpc":"2.0","method":"notifications/progress",
               "params":{"progressToken":"p","progress":n,"total":2.0}})
    };
    assert_eq!(
        events(&reply.body),
        vec![
            progress(1.0),
            progress(2.0),
            json!({"jsonrpc":"2.0","id":3,"result":{"counted":2}})
        ]
    );
}

#[test]
fn a_request_to_the_client_goes_out_on_the_sse_stream_and_its_answer_comes_back_by_post() {
    let (server, _) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let mut stream = send_post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","id":"q","method":"ask"}"#,
    );
    let first = read_until(&mut stream, READ_LIMIT, |raw| {
        events(&dechunk_after_head(raw)).len() == 1
    });
    let head = parse(&first);
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("text/event-stream"));
    let asked = events(&head.body).remove(0);
    assert_eq!(asked["method"], "elicitation/create");
    assert_eq!(asked["params"]["message"], "Your name?");

    let answer = json!({"jsonrpc":"2.0","id":asked["id"],
                        "result":{"action":"accept","content":{"name":"Ada"}}});
    let accepted = post(server.addr, &session, &answer.to_string());
    assert_eq!((accepted.status, accepted.body.len()), (202, 0));

    let mut rest = first;
    rest.extend(read_until(&mut stream, READ_LIMIT, |_| false));
    assert_eq!(
        events(&parse(&rest).body),
        vec![
            asked,
            json!({"jsonrpc":"2.0","id":"q","result":{"told":"Ada"}})
        ]
    );
}

/// The body of what has arrived so far (chunked transfer decoded), empty before the head.
fn dechunk_after_head(raw: &[u8]) -> Vec<u8> {
    match raw.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(split) => dechunk(&raw[split + 4..]),
        None => Vec::new(),
    }
}

#[test]
fn a_slow_handler_in_one_session_does_not_delay_a_ping_in_another() {
    let (server, reports) = serve(HttpConfig::default());
    let busy = open_session(server.addr);
    let idle = open_session(server.addr);
    let mut slow = send_post(
        server.addr,
        &busy,
        r#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#,
    );
    expect(&reports, "slow started");
    let pong = post(
        server.addr,
        &idle,
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    );
    assert_eq!(pong.json(), json!({"jsonrpc":"2.0","id":2,"result":{}}));
    // The slow call is still running: its answer has not come.
    assert!(read_until(&mut slow, Duration::from_millis(200), |raw| !raw.is_empty()).is_empty());
    let deleted = request(server.addr, "DELETE", &[("Mcp-Session-Id", &busy)], b"");
    assert_eq!(deleted.status, 204);
}

#[test]
fn delete_cancels_the_sessions_running_handler() {
    let (server, reports) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let _slow = send_post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#,
    );
    expect(&reports, "slow started");
    let deleted = request(server.addr, "DELETE", &[("Mcp-Session-Id", &session)], b"");
    assert_eq!(deleted.status, 204);
    expect(&reports, "slow cancelled");
    let after = post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    );
    assert_eq!(after.status, 404);
}

#[test]
fn stateless_mode_serves_each_post_with_a_fresh_session() {
    let (server, _) = serve(HttpConfig::default().stateless(true));
    let sum = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        br#"{"jsonrpc":"2.0","id":1,"method":"add","params":{"a":1,"b":2}}"#,
    );
    assert_eq!(sum.status, 200, "{}", sum.text());
    assert_eq!(sum.header("mcp-session-id"), None);
    assert_eq!(
        sum.json(),
        json!({"jsonrpc":"2.0","id":1,"result":{"sum":3}})
    );
    let counted = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        br#"{"jsonrpc":"2.0","id":2,"method":"count","params":{"_meta":{"progressToken":1}}}"#,
    );
    assert_eq!(counted.header("content-type"), Some("text/event-stream"));
    assert_eq!(events(&counted.body).len(), 3);
    assert_eq!(
        events(&counted.body)[2],
        json!({"jsonrpc":"2.0","id":2,"result":{"counted":2}})
    );
}

/// Issue 48: the endpoint learns that a reply is an error, and its code, from the peer that
/// wrote it, not by reading the reply again; so an error reply's status does not depend on
/// its length. Stateless (2026-07-28), -32602 is 400, with 10 bytes of `data` or 100 KiB.
#[test]
fn a_stateless_error_reply_gets_its_status_whatever_its_length() {
    let (server, _) = serve(HttpConfig::default().stateless(true));
    for len in [10, 100 * 1024] {
        let body =
            format!(r#"{{"jsonrpc":"2.0","id":"r","method":"refuse","params":{{"len":{len}}}}}"#);
        let refused = request(
            server.addr,
            "POST",
            &[
                JSON,
                ACCEPT,
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "refuse"),
            ],
            body.as_bytes(),
        );
        let reply = refused.json();
        assert_eq!(reply["id"], "r", "{len}");
        assert_eq!(reply["error"]["code"], -32602, "{len}");
        assert_eq!(reply["error"]["data"].as_str().map(str::len), Some(len));
        assert_eq!(refused.status, 400, "{len} bytes of data");
    }
}

#[test]
fn what_a_notifications_handler_sends_goes_to_the_get_stream_and_the_post_gets_202() {
    let (server, _) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let mut get = connect(server.addr);
    let headers = [
        ("Accept", "text/event-stream"),
        ("Mcp-Session-Id", &session),
    ];
    get.write_all(head(server.addr, "GET", "/mcp", &headers, 0).as_bytes())
        .unwrap();
    let hello = post(
        server.addr,
        &session,
        r#"{"jsonrpc":"2.0","method":"notifications/hello"}"#,
    );
    assert_eq!((hello.status, hello.body.len()), (202, 0));
    let raw = read_until(&mut get, READ_LIMIT, |raw| {
        !events(&dechunk_after_head(raw)).is_empty()
    });
    let stream = parse(&raw);
    assert_eq!(stream.status, 200);
    assert_eq!(stream.header("content-type"), Some("text/event-stream"));
    assert_eq!(
        events(&stream.body),
        vec![json!({"jsonrpc":"2.0","method":"notifications/message",
                    "params":{"level":"info","data":"hello"}})]
    );
}

/// A POST of `slow` padded with spaces to `len` bytes.
fn padded_slow(id: u64, len: usize) -> String {
    let bare = |pad: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"slow","params":{{"pad":"{}"}}}}"#,
            " ".repeat(pad)
        )
    };
    bare(len - bare(0).len())
}

/// Issue 33, item 1: a body's share of the in-flight budget is given back once the body is
/// decoded, so a handler that runs for long holds none of it.
#[test]
fn a_running_handler_holds_no_body_budget() {
    let config = HttpConfig::default()
        .stateless(true)
        .max_body_bytes(800)
        .body_budget_bytes(1000);
    let (server, reports) = serve(config);
    let first = padded_slow(1, 700);
    let mut running = connect(server.addr);
    let headers = [JSON, ACCEPT];
    let head_of = |len| head(server.addr, "POST", "/mcp", &headers, len);
    running.write_all(head_of(700).as_bytes()).unwrap();
    running.write_all(first.as_bytes()).unwrap();
    expect(&reports, "slow started");
    // 700 + 700 bytes exceed the budget of 1000 if the first body were still held.
    let second = request(
        server.addr,
        "POST",
        &headers,
        &[call(2, "ping").as_bytes(), &[b' '; 660]].concat(),
    );
    assert_eq!(second.status, 200, "{}", second.text());
    assert_eq!(second.json()["id"], 2);
}

/// Issue 33, item 3: in stateless mode a client that hangs up cancels its request: the
/// handler's cancellation token fires, promptly.
#[test]
fn a_stateless_client_that_hangs_up_cancels_its_handler() {
    let (server, reports) = serve(HttpConfig::default().stateless(true));
    let mut slow = connect(server.addr);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"slow"}"#;
    let head = head(server.addr, "POST", "/mcp", &[JSON, ACCEPT], body.len());
    slow.write_all(head.as_bytes()).unwrap();
    slow.write_all(body.as_bytes()).unwrap();
    expect(&reports, "slow started");
    let hung_up = std::time::Instant::now();
    drop(slow);
    // Promptly: well before the handler's own 20 s.
    let got = reports.recv_timeout(READ_LIMIT);
    assert_eq!(got, Ok("slow cancelled"));
    assert!(hung_up.elapsed() < READ_LIMIT);
}

/// Reports when a session's state is dropped: the session is gone with all it held.
struct Gone(Mutex<Sender<&'static str>>);

impl Drop for Gone {
    fn drop(&mut self) {
        let _ = self.0.lock().unwrap().send("session dropped");
    }
}

/// Issue 33, item 9: expired sessions are swept on a timer, not only when a new session
/// arrives: an unused session and what it holds go on their own.
#[test]
fn an_expired_session_is_swept_without_any_new_request() {
    let (events, reports) = channel();
    let events = Mutex::new(events);
    let service = AsyncServer::new(move || {
        let router = Router::<Gone>::new().request_async(
            "initialize",
            |_: Arc<Gone>, _: Value, _: AsyncCallContext| async {
                Ok::<_, RpcError>(json!({
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "serverInfo": {"name": "sweep", "version": "1"}
                }))
            },
        );
        let gone = Gone(Mutex::new(events.lock().unwrap().clone()));
        Session::new(Profile::mcp("2025-11-25").unwrap(), gone, router)
    });
    let config = HttpConfig::default().session_idle_timeout(Duration::from_millis(100));
    let server = start(config, service);
    let _session = open_session(server.addr);
    let got = reports.recv_timeout(READ_LIMIT);
    assert_eq!(got, Ok("session dropped"));
}

/// Issue 33, item 9: within a session, an `MCP-Protocol-Version` that is a known version but
/// not the one the session agreed at `initialize` is 400; the agreed one, or none, passes.
#[test]
fn a_protocol_version_other_than_the_sessions_is_400() {
    let (server, _) = serve(HttpConfig::default());
    let session = open_session(server.addr);
    let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let with = |version: &'static str| {
        [
            JSON,
            ACCEPT,
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", version),
        ]
    };
    let other = request(server.addr, "POST", &with("2025-06-18"), ping);
    assert_eq!(other.status, 400, "{}", other.text());
    assert!(other.text().contains("2025-11-25"), "{}", other.text());
    let agreed = request(server.addr, "POST", &with("2025-11-25"), ping);
    assert_eq!(agreed.status, 200, "{}", agreed.text());
    let get = request(
        server.addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-03-26"),
        ],
        b"",
    );
    assert_eq!(get.status, 400, "{}", get.text());
    assert_eq!(
        post(server.addr, &session, std::str::from_utf8(ping).unwrap()).status,
        200
    );
}
