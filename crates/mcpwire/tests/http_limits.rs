//! Issue 33: one client cannot take the Streamable HTTP server down. Each test is one of the
//! issue's attacks, seen as raw HTTP/1.1 on loopback: the connection cap and its idle-first
//! closing, the listen backlog, answers read slowly or not at all (the minimum write rate and
//! the response budget), stateless requests that run too long, calls queued in a session, the
//! request head limit.
#![cfg(feature = "http")]

use crate::http_support;

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use http_support::*;
use mcpwire::Router;
use mcpwire::http::{
    AsyncServer, Bytes, ENDED_FOR_SHARE, HttpConfig, HttpService, Outbound, SessionHandler,
    SessionOpening,
};
use mcpwire::service::{AsyncCallContext, Options, SESSION_BUSY, Session};
use mcpwire::{Profile, RpcError};
use serde_json::{Value, json};

fn scripted(config: HttpConfig) -> Running {
    start(config, Scripted { unsolicited: false })
}

/// Bytes of the answer to `big` from [`Large`].
const BIG: usize = 32 << 20;

/// A stateless service answering `big` with a [`BIG`]-byte result (built without JSON
/// escaping, so that a debug build makes it at once) and anything else with an empty result.
struct Large;

struct LargeSession;

impl HttpService for Large {
    type Handler = LargeSession;
    fn open(&self, _: SessionOpening) -> LargeSession {
        LargeSession
    }
}

impl SessionHandler for LargeSession {
    async fn handle(&self, frame: Bytes, _: Outbound) -> Option<Bytes> {
        let message: Value = serde_json::from_slice(&frame).ok()?;
        let id = message.get("id")?.to_string();
        if message["method"] != "big" {
            return Some(Bytes::from(format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#
            )));
        }
        let head = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"text":""#);
        let mut reply = Vec::with_capacity(BIG);
        reply.extend_from_slice(head.as_bytes());
        reply.resize(BIG - 3, b'x');
        reply.extend_from_slice(b"\"}}");
        Some(Bytes::from(reply))
    }
}

fn large(config: HttpConfig) -> Running {
    start(config.stateless(true), Large)
}

/// A `ping` POSTed without a session (stateless), answered.
fn ping_without_session(addr: SocketAddr, id: u64) -> Reply {
    request(addr, "POST", &[JSON, ACCEPT], call(id, "ping").as_bytes())
}

/// Sends a whole POST of `body` on a connection of its own, its answer unread.
fn send(addr: SocketAddr, headers: &[(&str, &str)], body: &str) -> TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, "POST", "/mcp", headers, body.len()).as_bytes())
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

/// Item 4: when every connection slot is taken, the connection idle the longest (here: one
/// that has sent nothing since it connected) is closed to make room, instead of the newcomer
/// waiting for the header timeout.
#[test]
fn at_the_connection_cap_the_longest_idle_connection_makes_room() {
    let server = scripted(
        HttpConfig::default()
            .stateless(true)
            .max_connections(2)
            .header_timeout(Duration::from_secs(60))
            .idle_timeout(Duration::from_secs(60)),
    );
    let mut silent = connect(server.addr);
    thread::sleep(Duration::from_millis(50));
    let _also_silent = connect(server.addr);
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    let ping = ping_without_session(server.addr, 1);
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(
        closes_within(&mut silent, Duration::from_secs(1)),
        "the longest idle connection was the one closed"
    );
}

/// Item 4: a client at its connection share whose connections are idle (one silent since it
/// connected, one sending its head a byte at a time) is not refused: its own connection idle
/// the longest is closed to make room, as its sessions are.
#[test]
fn at_its_share_a_client_s_own_idle_connection_makes_room() {
    let server = scripted(
        HttpConfig::default()
            .stateless(true)
            .max_connections(10)
            .max_connections_per_peer(2)
            .header_timeout(Duration::from_secs(60))
            .idle_timeout(Duration::from_secs(60)),
    );
    let mut silent = connect(server.addr);
    thread::sleep(Duration::from_millis(50));
    let mut slow = connect(server.addr);
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: ").unwrap();
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    let ping = ping_without_session(server.addr, 1);
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert!(
        closes_within(&mut silent, Duration::from_secs(1)),
        "the client's longest idle connection was the one closed"
    );
    // The share is full again, and the head begun is now the longest idle.
    let _silent_again = connect(server.addr);
    thread::sleep(Duration::from_millis(100));
    let again = ping_without_session(server.addr, 2);
    assert_eq!(again.status, 200, "{}", again.text());
    assert!(
        closes_within(&mut slow, Duration::from_secs(1)),
        "a head begun but not finished does not keep its connection"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

/// Opens a connection that sends a POST head declaring a `declared`-byte body and then
/// `sent` of it.
fn declare_body(addr: SocketAddr, declared: usize, sent: &[u8]) -> TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, "POST", "/mcp", &[JSON, ACCEPT], declared).as_bytes())
        .unwrap();
    stream.write_all(sent).unwrap();
    stream
}

/// Item 2: connections whose head declared a large body that never comes cannot lock their
/// client's newer connection out: at the share, the one waiting for its body the longest
/// ends (429) and the well-behaved calls are served at once.
#[test]
fn withheld_bodies_give_way_to_a_call_at_the_client_s_share() {
    let server = scripted(
        HttpConfig::default()
            .stateless(true)
            .max_connections_per_peer(4)
            .body_rate_grace(Duration::from_secs(60))
            .header_timeout(Duration::from_secs(60)),
    );
    let mut withheld: Vec<TcpStream> = (0..4)
        .map(|_| {
            let stream = declare_body(server.addr, 4 << 20, b"");
            thread::sleep(Duration::from_millis(30));
            stream
        })
        .collect();
    thread::sleep(Duration::from_millis(100));
    for id in 1..=3 {
        let started = Instant::now();
        let ping = ping_without_session(server.addr, id);
        assert_eq!(ping.status, 200, "{}", ping.text());
        assert_eq!(ping.json()["id"], id);
        // At once: long before the 60 s grace and header timeout.
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    // The one that waited the longest gave way and was told so. Whether the next ones also
    // did depends on how soon the server saw each served call's connection close (until then
    // it still counts against the share), so only the order is fixed: they give way oldest
    // first, and the newest, which at most three calls cannot reach, still waits.
    let answer = read_reply(&mut withheld[0]);
    assert_eq!(answer.status, 429, "{}", answer.text());
    assert_eq!(answer.json()["error"]["code"], ENDED_FOR_SHARE);
    assert!(answer.json().get("id").is_none(), "{}", answer.text());
    let closed: Vec<bool> = withheld[1..]
        .iter_mut()
        .map(|stream| closes_within(stream, Duration::from_millis(200)))
        .collect();
    assert!(
        !closed[2],
        "the newest withheld body still waits: {closed:?}"
    );
    assert!(
        closed.windows(2).all(|pair| pair[0] || !pair[1]),
        "withheld bodies give way oldest first: {closed:?}"
    );
}

/// Item 2: a body trickled below the minimum rate, or withheld, gets 408 once the grace has
/// passed, long before the body timeout.
#[test]
fn a_body_slower_than_the_minimum_rate_gets_408_after_the_grace() {
    let server = scripted(
        HttpConfig::default()
            .stateless(true)
            .min_body_rate(1024)
            .body_rate_grace(Duration::from_millis(300)),
    );
    let started = Instant::now();
    let mut withheld = declare_body(server.addr, 100_000, b"");
    let mut trickled = declare_body(server.addr, 100_000, &[b' '; 100]);
    for stream in [&mut withheld, &mut trickled] {
        let answer = read_reply(stream);
        assert_eq!(answer.status, 408, "{}", answer.text());
    }
    // Long before the 30 s body timeout.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // A body that keeps up is read whole, though it pauses past the grace: the 1,900 bytes
    // sent first buy it almost 2 s more.
    let body = format!("{}{}", " ".repeat(2000), call(1, "ping"));
    let mut paced = declare_body(server.addr, body.len(), &body.as_bytes()[..1900]);
    thread::sleep(Duration::from_millis(500));
    paced.write_all(&body.as_bytes()[1900..]).unwrap();
    assert_eq!(read_reply(&mut paced).status, 200);
}

/// Item 4: the listen backlog holds many more than std's 128 connections while the accept
/// loop waits for a slot.
#[test]
fn the_listen_backlog_holds_far_more_than_128_waiting_connections() {
    let server = large(
        HttpConfig::default()
            .max_connections(1)
            .listen_backlog(1024),
    );
    // The only slot is busy: its 32 MiB answer is not read.
    let _busy = send(server.addr, &[JSON, ACCEPT], &call(1, "big"));
    thread::sleep(Duration::from_millis(200));
    let mut waiting = Vec::new();
    for _ in 0..600 {
        match TcpStream::connect_timeout(&server.addr, Duration::from_millis(500)) {
            Ok(stream) => waiting.push(stream),
            Err(error) => panic!("connection {} was refused: {error}", waiting.len() + 1),
        }
    }
    assert_eq!(waiting.len(), 600);
}

/// Item 5: a client that reads its answer a little at a time (never stalling for the write
/// timeout) but below the minimum rate loses its connection and slot.
#[test]
fn a_client_trickling_its_answer_below_the_minimum_rate_loses_its_slot() {
    let server = large(
        HttpConfig::default()
            .max_connections(1)
            .write_timeout(Duration::from_secs(1))
            .min_write_rate(256 * 1024),
    );
    let mut trickle = send(server.addr, &[JSON, ACCEPT], &call(1, "big"));
    let reader = thread::spawn(move || {
        // 4 KiB every 50 ms: about 80 KiB/s, for at most 15 s.
        let deadline = Instant::now() + Duration::from_secs(15);
        let mut buf = [0u8; 4096];
        while Instant::now() < deadline {
            match trickle.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(_) => thread::sleep(Duration::from_millis(50)),
            }
        }
    });
    thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let ping = ping_without_session(server.addr, 2);
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the trickling client held the only slot for {:?}",
        started.elapsed()
    );
    reader.join().unwrap();
}

/// Item 5: answers that clients do not read count against the response budget; an answer
/// that does not fit is 503 (small ones still fit), and the budget comes back when the
/// reader leaves.
#[test]
fn unread_answers_beyond_the_response_budget_get_503() {
    let server = large(HttpConfig::default().response_budget_bytes(40 << 20));
    let mut unread = send(server.addr, &[JSON, ACCEPT], &call(1, "big"));
    // Its answer has begun: the budget is taken.
    assert!(!read_until(&mut unread, READ_LIMIT, |raw| !raw.is_empty()).is_empty());
    let second = request(
        server.addr,
        "POST",
        &[JSON, ACCEPT],
        call(2, "big").as_bytes(),
    );
    assert_eq!(second.status, 503, "{}", second.text());
    assert_eq!(second.header("retry-after"), Some("1"));
    assert_eq!(ping_without_session(server.addr, 3).status, 200);
    drop(unread);
    // The budget comes back once the server has seen the reader leave (503 until then).
    let deadline = Instant::now() + READ_LIMIT;
    let third = loop {
        let third = request(
            server.addr,
            "POST",
            &[JSON, ACCEPT],
            call(4, "big").as_bytes(),
        );
        if third.status != 503 || Instant::now() > deadline {
            break third;
        }
        thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(third.status, 200);
    assert_eq!(third.body.len(), BIG);
}

/// What the async handlers report: `slow started`, `slow cancelled`; `stubborn started`,
/// `stubborn dropped`.
struct Probe {
    events: Mutex<Sender<&'static str>>,
}

impl Probe {
    fn report(&self, event: &'static str) {
        let _ = self.events.lock().unwrap().send(event);
    }
}

/// Reports `stubborn dropped` when its handler's future is dropped.
struct ReportDrop(Arc<Probe>);

impl Drop for ReportDrop {
    fn drop(&mut self) {
        self.0.report("stubborn dropped");
    }
}

fn router() -> Router<Probe> {
    Router::<Probe>::new()
        .request_async(
            "initialize",
            |_: Arc<Probe>, _: Value, _: AsyncCallContext| async {
                Ok::<_, RpcError>(json!({"protocolVersion": "2025-11-25", "capabilities": {}}))
            },
        )
        .request_async(
            "ping",
            |_: Arc<Probe>, _: Value, _: AsyncCallContext| async { Ok::<_, RpcError>(json!({})) },
        )
        .request_async(
            "slow",
            |probe: Arc<Probe>, p: Value, ctx: AsyncCallContext| async move {
                probe.report("slow started");
                if p["progress"] == true {
                    let _ = ctx.progress(1.0, None, None).await;
                }
                let cancelled =
                    tokio::time::timeout(Duration::from_secs(20), ctx.cancelled()).await;
                if cancelled.is_ok() {
                    probe.report("slow cancelled");
                }
                Ok::<_, RpcError>(json!({}))
            },
        )
        .request_async(
            "stubborn",
            |probe: Arc<Probe>, _: Value, _: AsyncCallContext| async move {
                probe.report("stubborn started");
                let _dropped = ReportDrop(Arc::clone(&probe));
                // Deaf to its cancellation.
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok::<_, RpcError>(json!({}))
            },
        )
}

/// An async server (JSON-RPC 2.0 profile, `options`) on 127.0.0.1.
fn serve(config: HttpConfig, options: Options) -> (Running, Receiver<&'static str>) {
    let (events, reports) = channel();
    let probe = Arc::new(Probe {
        events: Mutex::new(events),
    });
    let service = AsyncServer::new(move || {
        Session::with_options(
            Profile::jsonrpc_2_0(),
            Arc::clone(&probe),
            router(),
            options,
        )
    });
    (start(config, service), reports)
}

fn expect(reports: &Receiver<&'static str>, event: &str) {
    assert_eq!(
        reports.recv_timeout(READ_LIMIT),
        Ok(event),
        "waiting for {event}"
    );
}

/// Item 3: a stateless request still running at its time limit is cancelled (its handler's
/// token fires) and answered with an error carrying its id, as JSON or as the last event of
/// its SSE stream.
#[test]
fn a_stateless_request_past_its_time_limit_is_cancelled_and_answered_with_its_id() {
    let config = HttpConfig::default()
        .stateless(true)
        .request_timeout(Some(Duration::from_millis(300)));
    let (server, reports) = serve(config, Options::default());
    let started = Instant::now();
    let body = r#"{"jsonrpc":"2.0","id":"late-7","method":"slow"}"#;
    let reply = request(server.addr, "POST", &[JSON, ACCEPT], body.as_bytes());
    // The handler would wait 20 s for its cancellation.
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(reply.status, 200);
    let reply = reply.json();
    assert_eq!(reply["id"], "late-7");
    assert_eq!(reply["error"]["code"], -32001);
    expect(&reports, "slow started");
    expect(&reports, "slow cancelled");

    let body = r#"{"jsonrpc":"2.0","id":8,"method":"slow","params":{"progress":true,"_meta":{"progressToken":"p"}}}"#;
    let reply = request(server.addr, "POST", &[JSON, ACCEPT], body.as_bytes());
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    let text = reply.text();
    let last = text
        .split("\n\n")
        .filter_map(|event| event.lines().find_map(|l| l.strip_prefix("data: ")))
        .last()
        .expect("events");
    let last: Value = serde_json::from_str(last).unwrap();
    assert_eq!(
        (last["id"].clone(), last["error"]["code"].clone()),
        (json!(8), json!(-32001))
    );
    expect(&reports, "slow started");
    expect(&reports, "slow cancelled");
}

/// Issue 48: a stateless request's handler runs inside its POST's exchange. When the client
/// hangs up, even a handler that never looks at its cancellation is dropped, within the
/// grace it is given to see that cancellation (1 s), not left to run its 60 s.
#[test]
fn a_stateless_handler_deaf_to_cancellation_ends_soon_after_its_client_leaves() {
    let (server, reports) = serve(HttpConfig::default().stateless(true), Options::default());
    let client = send(server.addr, &[JSON, ACCEPT], &call(1, "stubborn"));
    expect(&reports, "stubborn started");
    let left = Instant::now();
    drop(client);
    expect(&reports, "stubborn dropped");
    assert!(
        left.elapsed() < Duration::from_secs(5),
        "{:?}",
        left.elapsed()
    );
    // The server serves on.
    assert_eq!(ping_without_session(server.addr, 2).status, 200);
}

/// Item 3: in a session, calls waiting for a handler slot are bounded; the next one is
/// answered at once with an error carrying its id (here: one slot, one waiting call).
#[test]
fn calls_queued_in_a_session_are_bounded_and_the_next_gets_an_error_with_its_id() {
    let options = Options {
        max_concurrency: 1,
        max_queued: 1,
        ..Options::default()
    };
    let (server, reports) = serve(HttpConfig::default(), options);
    let session = open_session(server.addr);
    let with = [JSON, ACCEPT, ("Mcp-Session-Id", session.as_str())];
    // The first runs, the second waits for the one slot.
    let _running = send(server.addr, &with, &call(1, "slow"));
    expect(&reports, "slow started");
    let _waiting = send(server.addr, &with, &call(2, "slow"));
    // Nothing shows that the second is queued; give the server ample time to read it.
    thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let refused = request(server.addr, "POST", &with, call(3, "slow").as_bytes());
    // At once, not after the running call's 20 s.
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(refused.status, 200, "{}", refused.text());
    let refused = refused.json();
    assert_eq!(refused["id"], 3);
    assert_eq!(refused["error"]["code"], SESSION_BUSY);
    let delete = request(server.addr, "DELETE", &with[2..], b"");
    assert_eq!(delete.status, 204);
}

/// Item 4: one client's long calls cannot starve its newer ones. At its connection share
/// with every connection busy, the client's oldest request gives way: answered 429 with a
/// JSON-RPC error carrying its id, its stateless handler cancelled; the new call is served.
#[test]
fn at_its_share_a_client_s_oldest_call_gives_way_with_its_id() {
    let config = HttpConfig::default()
        .stateless(true)
        .max_connections_per_peer(3);
    let (server, reports) = serve(config, Options::default());
    let mut long: Vec<TcpStream> = (1..=3)
        .map(|id| {
            let stream = send(server.addr, &[JSON, ACCEPT], &call(id, "slow"));
            expect(&reports, "slow started");
            stream
        })
        .collect();
    let started = Instant::now();
    let ping = ping_without_session(server.addr, 9);
    assert_eq!(ping.status, 200, "{}", ping.text());
    assert_eq!(ping.json()["id"], 9);
    // Not after the slow calls' 20 s.
    assert!(started.elapsed() < Duration::from_secs(10));
    let oldest = read_reply(&mut long[0]);
    assert_eq!(oldest.status, 429, "{}", oldest.text());
    assert_eq!(oldest.header("retry-after"), Some("1"));
    let oldest = oldest.json();
    assert_eq!(
        (oldest["id"].clone(), oldest["error"]["code"].clone()),
        (json!(1), json!(ENDED_FOR_SHARE))
    );
    expect(&reports, "slow cancelled");
    // The two newer calls still run.
    long[1]
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut byte = [0u8; 1];
    assert!(
        long[1].read(&mut byte).is_err(),
        "the second call still runs"
    );
}

/// Item 9: the request head is limited to 64 KiB, as documented: a head of 60 KiB is served,
/// one of 70 KiB is refused (431) or the connection closed without an answer.
#[test]
fn the_request_head_is_limited_to_64_kib() {
    let server = scripted(HttpConfig::default().stateless(true));
    let head_with = |pad: usize| {
        let filler = "a".repeat(pad);
        let headers = [JSON, ACCEPT, ("X-Pad", filler.as_str())];
        let body = call(1, "ping");
        let mut stream = connect(server.addr);
        let mut raw = head(server.addr, "POST", "/mcp", &headers, body.len()).into_bytes();
        raw.extend_from_slice(body.as_bytes());
        let _ = stream.write_all(&raw);
        let mut answer = Vec::new();
        match stream.read_to_end(&mut answer) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            Err(e) => panic!("{e}"),
        }
        answer
    };
    assert!(head_with(60 << 10).starts_with(b"HTTP/1.1 200"));
    let over = head_with(70 << 10);
    assert!(
        over.is_empty() || over.starts_with(b"HTTP/1.1 431"),
        "{:?}",
        String::from_utf8_lossy(&over[..over.len().min(40)])
    );
}
