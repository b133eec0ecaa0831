//! Several server processes sharing one Redis (feature `redis`), each "process" a server on a
//! tokio runtime of its own (shut down at once to kill it): a change made at one reaches the
//! `subscriptions/listen` stream held by another within a second; a stream whose process is
//! killed mid-call is resumed at another process with `Last-Event-ID`, every missed event
//! exactly once, and the dead session's next request is 404; a Redis frozen with `SIGSTOP` is
//! noticed on the subscription (`/healthz`) and events flow again once it thaws; a listener
//! that stops reading is disconnected while publishers go on; events older than the age bound
//! leave Redis while their stream is still written, and a resume from before them is refused;
//! a task created at one process is read (status, then result) and cancelled at another, the
//! cancellation reaching its handler, and is not found there by another client.
//!
//! Needs a `redis-server` binary, named by `MCPWIRE_REDIS_SERVER` (it is started on a free
//! loopback port and stopped at the end); without it the tests print why and pass.
#![cfg(feature = "redis")]

use crate::http_support;

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use http_support::{ACCEPT, INITIALIZE, JSON, connect, head, read_reply, read_until, request};
use mcpwire_server::redis::RedisCluster;
use mcpwire_server::{
    Context, HttpConfig, McpServer, NoArguments, Resource, ResourceContents, TaskSupport, Tool,
    ToolResult,
};
use serde_json::{Value, json};

/// A redis-server on a free loopback port, killed when dropped.
struct Redis {
    child: Child,
    url: String,
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The redis-server `MCPWIRE_REDIS_SERVER` names, started; `None` (after saying why) without.
fn redis() -> Option<Redis> {
    let Some(binary) = std::env::var_os("MCPWIRE_REDIS_SERVER").filter(|b| !b.is_empty()) else {
        eprintln!("skipped: set MCPWIRE_REDIS_SERVER to a redis-server binary to run this test");
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(&binary)
        .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
        .args(["--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("MCPWIRE_REDIS_SERVER={binary:?} does not start: {e}"));
    let redis = Redis {
        child,
        url: format!("redis://127.0.0.1:{port}/"),
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "redis-server did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(redis)
}

impl Redis {
    /// Freezes (`SIGSTOP`) or thaws (`SIGCONT`) the server: its connections stay open, but it
    /// answers nothing while frozen.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} failed");
    }

    /// A plain connection, to look at what the processes stored.
    fn connection(&self) -> redis::Connection {
        redis::Client::open(self.url.as_str())
            .unwrap()
            .get_connection()
            .unwrap()
    }
}

/// What a process is started with beyond the defaults.
#[derive(Debug, Clone, Copy, Default)]
struct Tuning {
    /// `RedisCluster::stream_bounds`'s age (default 5 min).
    stream_age: Option<Duration>,
    /// `RedisCluster::listener_capacity` (default 256).
    listener_capacity: Option<usize>,
    /// `HttpConfig::write_timeout` (default 30 s).
    write_timeout: Option<Duration>,
    /// Tasks kept in this process only (no `shared_tasks`): the Redis task store off.
    local_tasks: bool,
}

/// One server process of the cluster: its own runtime, Redis connections and HTTP endpoint.
struct Process {
    addr: SocketAddr,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Process {
    /// Starts a process (stateless when `stateless`) on the cluster at `url`.
    fn start(url: &str, stateless: bool) -> Process {
        Process::start_tuned(url, stateless, Tuning::default())
    }

    /// Starts a process with `tuning`.
    fn start_tuned(url: &str, stateless: bool, tuning: Tuning) -> Process {
        let url = url.to_owned();
        let (bound, addr) = std::sync::mpsc::channel();
        let (kill, killed) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let mut cluster = RedisCluster::new(&url).unwrap();
                if let Some(age) = tuning.stream_age {
                    cluster = cluster.stream_bounds(RedisCluster::DEFAULT_STREAM_EVENTS, age);
                }
                if let Some(capacity) = tuning.listener_capacity {
                    cluster = cluster.listener_capacity(capacity);
                }
                let server = server(&cluster, !tuning.local_tasks);
                let mut config = HttpConfig::default()
                    .bind("127.0.0.1:0".parse().unwrap())
                    .stateless(stateless)
                    .event_store(cluster.event_store())
                    .health_check(cluster.health());
                if let Some(timeout) = tuning.write_timeout {
                    config = config.write_timeout(timeout);
                }
                let http = server.http_server(config).unwrap();
                bound.send(http.local_addr()).unwrap();
                let _ = http
                    .run_until(async {
                        let _ = killed.await;
                    })
                    .await;
            });
            // Every task of the process ends now, mid-call, as with kill -9.
            runtime.shutdown_background();
        });
        Process {
            addr: addr.recv_timeout(Duration::from_secs(10)).unwrap(),
            kill: Some(kill),
            thread: Some(thread),
        }
    }

    /// Ends the process at once: its handlers, heartbeat and connections die unfinished.
    fn kill(&mut self) {
        if let Some(kill) = self.kill.take() {
            let _ = kill.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The server every process runs: `change` adds a tool (a list change), `count` sends
/// progress 1..=n, one every 50 ms (or `every_ms`, with `pad` bytes of message each), `flood`
/// announces n updates of [`big_uri`], `work` (a task when the client allows) works `ms`
/// milliseconds unless cancelled first (counted in [`WORK_CANCELLED`]). Its tasks are kept in
/// Redis when `shared_tasks`.
fn server(cluster: &RedisCluster, shared_tasks: bool) -> McpServer {
    let me: Arc<OnceLock<McpServer>> = Arc::new(OnceLock::new());
    let changer = Arc::clone(&me);
    let flooder = Arc::clone(&me);
    let server = McpServer::builder("cluster", "1")
        .tool(
            "change",
            "adds a tool",
            move |_: NoArguments, _: Context| {
                let me = Arc::clone(&changer);
                async move {
                    me.get().unwrap().add_tool(extra()).await.unwrap();
                    ToolResult::text("changed")
                }
            },
        )
        .tool(
            "count",
            "progress 1..=n",
            |args: Count, ctx: Context| async move {
                let message = "x".repeat(args.pad);
                let message = (!message.is_empty()).then_some(message.as_str());
                for step in 1..=args.n {
                    tokio::time::sleep(Duration::from_millis(args.every_ms)).await;
                    ctx.progress_with_message(f64::from(step), None, message)
                        .await;
                }
                ToolResult::text("counted")
            },
        )
        .tool(
            "flood",
            "announces n updates of the big resource",
            move |args: Count, _: Context| {
                let me = Arc::clone(&flooder);
                async move {
                    let uri = big_uri();
                    for _ in 0..args.n {
                        me.get().unwrap().notify_resource_updated(&uri);
                    }
                    ToolResult::text("flooded")
                }
            },
        )
        .resource(Resource::new("file:///big", "big", |_: Context| async {
            ResourceContents::text("")
        }))
        .add_tool(work().tasks(TaskSupport::Optional))
        .event_source(cluster.events())
        .request_state_secret("a secret every process of the test shares");
    let server = if shared_tasks {
        server.shared_tasks(cluster.tasks())
    } else {
        server
    }
    .build()
    .unwrap();
    me.set(server.clone()).unwrap();
    server
}

/// A resource URI of 32 KiB: each update announcing it is that large on the wire.
fn big_uri() -> String {
    format!("file:///big?{}", "x".repeat(32 * 1024))
}

/// How many `work` handlers saw their context cancelled.
static WORK_CANCELLED: AtomicUsize = AtomicUsize::new(0);

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Work {
    ms: u64,
}

/// The tool `work`.
fn work() -> Tool {
    Tool::new(
        "work",
        "works a while",
        |args: Work, ctx: Context| async move {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(args.ms)) => ToolResult::text("worked"),
                () = ctx.cancelled() => {
                    WORK_CANCELLED.fetch_add(1, Ordering::SeqCst);
                    ToolResult::error("cancelled")
                }
            }
        },
    )
}

/// The tool `change` adds.
fn extra() -> Tool {
    Tool::new("added", "added", |_: NoArguments, _: Context| async {
        ToolResult::text("")
    })
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Count {
    n: u32,
    /// The bytes of each progress message (none by default).
    #[serde(default)]
    pad: usize,
    /// The milliseconds before each progress (50 by default).
    #[serde(default = "fifty")]
    every_ms: u64,
}

fn fifty() -> u64 {
    50
}

/// Polls `GET /healthz` of `addr` until it says up (5 s at most).
fn wait_healthy(addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let reply = http_support::request_to(addr, "GET", "/healthz", &[], b"");
        if reply.status == 200 {
            assert_eq!(reply.json()["status"], "up");
            return;
        }
        assert!(Instant::now() < deadline, "never healthy: {}", reply.text());
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The SSE events of the response `raw` (head and chunked body, as much as has arrived) whose
/// data is JSON, each with its event id.
fn events(raw: &[u8]) -> Vec<(Option<String>, Value)> {
    // The response's head, when `raw` starts with it, then its chunked body.
    let chunks = match raw.windows(4).position(|w| w == b"\r\n\r\n") {
        Some(split) if raw.starts_with(b"HTTP/") => &raw[split + 4..],
        _ => raw,
    };
    let body = http_support::dechunk(chunks);
    let text = String::from_utf8_lossy(&body);
    let mut found = Vec::new();
    for event in text.split("\n\n") {
        let mut id = None;
        let mut data = None;
        for line in event.lines() {
            if let Some(value) = line.strip_prefix("id: ") {
                id = Some(value.to_owned());
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = serde_json::from_str(value).ok();
            }
        }
        if let Some(message) = data {
            found.push((id, message));
        }
    }
    found
}

/// The progress values among `events`, with their event ids.
fn progress(events: &[(Option<String>, Value)]) -> Vec<(String, u64)> {
    events
        .iter()
        .filter(|(_, m)| m["method"] == "notifications/progress")
        .map(|(id, m)| {
            let id = id
                .clone()
                .unwrap_or_else(|| panic!("a stored event has an id: {m}"));
            (id, m["params"]["progress"].as_f64().unwrap() as u64)
        })
        .collect()
}

fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// Sends a request on a fresh connection and returns it unread.
fn send(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, method, "/mcp", headers, body.len()).as_bytes())
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

/// Opens a 2026-07-28 `subscriptions/listen` at `addr` with `filter`, reads its
/// acknowledgement and returns the stream, to be read on.
fn listen(addr: SocketAddr, filter: Value) -> TcpStream {
    let listen = json!({
        "jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen",
        "params": { "_meta": meta_2026(), "notifications": filter },
    });
    let routing = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "subscriptions/listen"),
    ];
    let mut listener = send(addr, "POST", &routing, &listen.to_string());
    let ack = read_until(&mut listener, Duration::from_secs(5), |raw| {
        !events(raw).is_empty()
    });
    assert_eq!(
        events(&ack).first().map(|(_, m)| m["method"].clone()),
        Some(json!("notifications/subscriptions/acknowledged")),
        "{}",
        String::from_utf8_lossy(&ack)
    );
    listener
}

/// Calls tool `name` with `arguments` at `addr` under 2026-07-28; the reply must be 200.
fn call_tool(addr: SocketAddr, name: &str, arguments: Value) {
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": meta_2026(), "name": name, "arguments": arguments },
    });
    let reply = request(
        addr,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", name),
        ],
        call.to_string().as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
}

/// The `notifications/tools/list_changed` that arrive on `listener` within `limit` (read
/// until the first).
fn tools_changed(listener: &mut TcpStream, limit: Duration) -> Vec<Value> {
    let changed = |raw: &[u8]| {
        events(raw)
            .into_iter()
            .map(|(_, m)| m)
            .filter(|m| m["method"] == "notifications/tools/list_changed")
            .collect::<Vec<_>>()
    };
    changed(&read_until(listener, limit, |raw| !changed(raw).is_empty()))
}

#[test]
fn a_change_at_one_process_reaches_a_listener_at_another_promptly() {
    let Some(redis) = redis() else { return };
    let (a, b) = (
        Process::start(&redis.url, true),
        Process::start(&redis.url, true),
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);
    let mut listener = listen(a.addr, json!({ "toolsListChanged": true }));
    let started = Instant::now();
    call_tool(b.addr, "change", json!({}));
    let changed = tools_changed(&mut listener, Duration::from_secs(5));
    let elapsed = started.elapsed();
    assert_eq!(changed.len(), 1, "one change, one notification at A");
    assert_eq!(
        changed[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l"
    );
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

/// Polls `GET /healthz` of `addr` until `report` holds for its JSON (`limit` at most).
fn wait_health(addr: SocketAddr, limit: Duration, report: impl Fn(u16, &Value) -> bool) {
    let deadline = Instant::now() + limit;
    loop {
        let reply = http_support::request_to(addr, "GET", "/healthz", &[], b"");
        if report(reply.status, &reply.json()) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "/healthz never said so: {} {}",
            reply.status,
            reply.text()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_frozen_redis_is_noticed_on_the_subscription_and_events_flow_again_once_it_thaws() {
    let Some(redis) = redis() else { return };
    let (a, b) = (
        Process::start(&redis.url, true),
        Process::start(&redis.url, true),
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);

    // Frozen, Redis keeps every connection open and answers nothing: only asking notices.
    redis.signal("-STOP");
    wait_health(a.addr, Duration::from_secs(10), |status, report| {
        status == 503 && report["checks"]["redis"]["pubsub"] == "down"
    });
    // A request that needs no other process is still answered.
    let list = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": { "_meta": meta_2026() },
    });
    let listed = request(
        a.addr,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ],
        list.to_string().as_bytes(),
    );
    assert_eq!(listed.status, 200, "{}", listed.text());

    redis.signal("-CONT");
    // Reconnected with backoff (5 s at most between attempts).
    wait_health(a.addr, Duration::from_secs(20), |status, _| status == 200);
    wait_health(b.addr, Duration::from_secs(20), |status, _| status == 200);
    let mut listener = listen(a.addr, json!({ "toolsListChanged": true }));
    call_tool(b.addr, "change", json!({}));
    let changed = tools_changed(&mut listener, Duration::from_secs(5));
    assert!(!changed.is_empty(), "B's change reaches A's listener again");
}

/// Reads `stream` until the server closes it (or ends the response) or `limit` passes: what
/// arrived, and whether it ended.
fn read_to_close(stream: &mut TcpStream, limit: Duration) -> (Vec<u8>, bool) {
    use std::io::Read;
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let deadline = Instant::now() + limit;
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return (raw, true),
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                if raw.ends_with(b"\r\n0\r\n\r\n") {
                    return (raw, true); // the response's end: the stream is over
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return (raw, true),
        }
    }
    (raw, false)
}

/// How many times `needle` occurs in `haystack`.
fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

#[test]
fn a_listener_that_stops_reading_is_disconnected_and_publishers_never_wait_for_it() {
    let Some(redis) = redis() else { return };
    // A listener at A may fall 4 events behind; a connection whose writes stall for 2 s is
    // closed.
    let tuning = Tuning {
        listener_capacity: Some(4),
        write_timeout: Some(Duration::from_secs(2)),
        ..Tuning::default()
    };
    let (a, b) = (
        Process::start_tuned(&redis.url, true, tuning),
        Process::start(&redis.url, true),
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);
    let mut listener = listen(a.addr, json!({ "resourceSubscriptions": [big_uri()] }));

    // 400 updates of 32 KiB each (12.5 MiB) from B, more than the connection's socket
    // buffers hold (about 4 MiB); the listener reads nothing meanwhile.
    const UPDATES: usize = 400;
    let started = Instant::now();
    call_tool(b.addr, "flood", json!({ "n": UPDATES }));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "publishing waits for no listener: {:?}",
        started.elapsed()
    );
    std::thread::sleep(Duration::from_secs(8));

    // Only now does the client read: what the buffers held, then the end of the stream.
    let (raw, closed) = read_to_close(&mut listener, Duration::from_secs(30));
    let delivered = occurrences(&raw, b"notifications/resources/updated");
    eprintln!("slow listener: {delivered} of {UPDATES} updates read before the end");
    assert!(
        closed,
        "the listener is disconnected ({delivered} updates read)"
    );
    assert!(
        delivered < UPDATES,
        "a slow listener is not buffered for: {delivered} of {UPDATES} updates delivered"
    );
    // A serves on: a new listener at A hears B's next change.
    let mut again = listen(a.addr, json!({ "toolsListChanged": true }));
    call_tool(b.addr, "change", json!({}));
    assert!(!tools_changed(&mut again, Duration::from_secs(5)).is_empty());
}

#[test]
fn a_stream_whose_process_was_killed_resumes_at_another_with_every_missed_event_once() {
    let Some(redis) = redis() else { return };
    let mut a = Process::start(&redis.url, false);
    let b = Process::start(&redis.url, false);
    wait_healthy(a.addr);
    wait_healthy(b.addr);

    let session = open_session(a.addr);
    let in_session = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];

    // The client reads five events of a 40-event call, then its connection breaks; with
    // sessions the call runs on (and its events are stored) until the process is killed.
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"count","arguments":{"n":40}}}"#;
    let mut stream = send(a.addr, "POST", &in_session, call);
    let raw = read_until(&mut stream, Duration::from_secs(5), |raw| {
        progress(&events(raw)).len() >= 5
    });
    drop(stream);
    let live = progress(&events(&raw));
    let (last_id, last_seen) = live.last().cloned().expect("five events read live");
    std::thread::sleep(Duration::from_millis(500));
    a.kill();

    // At B, which never held the session: what followed the last event seen, from Redis,
    // then the end of the stream once A's heartbeat has expired.
    let mut resumed = resume(b.addr, &session, &last_id);
    let started = Instant::now();
    let raw = read_until(&mut resumed, Duration::from_secs(8), |raw| {
        raw.ends_with(b"0\r\n\r\n")
    });
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    assert!(
        raw.ends_with(b"0\r\n\r\n"),
        "the stream ends once its writer is known to be gone"
    );
    assert!(started.elapsed() < Duration::from_secs(6));
    let missed: Vec<u64> = progress(&events(&raw))
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let expected: Vec<u64> = (last_seen + 1..=last_seen + missed.len() as u64).collect();
    assert_eq!(missed, expected, "every missed event, once, in order");
    assert!(
        missed.len() >= 3 && last_seen + (missed.len() as u64) < 40,
        "events were missed and the call was cut short: {missed:?}"
    );

    // The session died with its process: the transport's 404, so the client initializes again.
    let list = r#"{"jsonrpc":"2.0","id":8,"method":"tools/list"}"#;
    assert_eq!(
        request(b.addr, "POST", &in_session, list.as_bytes()).status,
        404
    );
    let again = request(b.addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(again.status, 200);
}

/// Opens a 2025-11-25 session at `addr`; returns its id.
fn open_session(addr: SocketAddr) -> String {
    let initialized = request(addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(initialized.status, 200, "{}", initialized.text());
    let session = initialized.session();
    let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let headers = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    assert_eq!(request(addr, "POST", &headers, done.as_bytes()).status, 202);
    session
}

/// A GET resuming `session`'s stream at `addr` after `last_event_id`, unread.
fn resume(addr: SocketAddr, session: &str, last_event_id: &str) -> TcpStream {
    send(
        addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Last-Event-ID", last_event_id),
        ],
        "",
    )
}

#[test]
fn events_older_than_the_age_bound_leave_redis_while_their_stream_is_written() {
    let Some(redis) = redis() else { return };
    let age = Tuning {
        stream_age: Some(Duration::from_secs(1)),
        ..Tuning::default()
    };
    let a = Process::start_tuned(&redis.url, false, age);
    let b = Process::start_tuned(&redis.url, false, age);
    wait_healthy(a.addr);
    wait_healthy(b.addr);
    let session = open_session(a.addr);
    let in_session = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];

    // 80 events, at least 50 ms apart: event 41 is stored 2 s or more after event 1, so its
    // write trims event 1 (older than the 1 s bound).
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":{"progressToken":"p"},"name":"count","arguments":{"n":80}}}"#;
    let mut stream = send(a.addr, "POST", &in_session, call);
    let raw = read_until(&mut stream, Duration::from_secs(30), |raw| {
        progress(&events(raw)).len() >= 41
    });
    drop(stream); // the call runs on, its events stored
    let seen = progress(&events(&raw));
    assert!(seen.len() >= 41, "41 events read live: {seen:?}");
    let (last_id, last_seen) = seen.last().cloned().unwrap();
    let (stream_id, _) = last_id.split_once('-').unwrap();

    // In Redis: event 1 is gone, while the stream holds its recent events.
    let mut redis_connection = redis.connection();
    let entries: Vec<(String, Vec<Vec<u8>>)> = redis::cmd("XRANGE")
        .arg(format!("mcpwire:stream:{stream_id}"))
        .arg("-")
        .arg("+")
        .query(&mut redis_connection)
        .unwrap();
    let ids: Vec<&str> = entries.iter().map(|(id, _)| id.as_str()).collect();
    assert!(!ids.contains(&"0-1"), "event 1 is older than 1 s: {ids:?}");
    let last_entry = format!("0-{last_seen}");
    assert!(
        ids.contains(&last_entry.as_str()),
        "the recent events are kept: {ids:?}"
    );

    // Resuming from before the expired event: it cannot be resumed without a gap. B does not
    // hold the session: the unknown session's 404 (the client initializes again); A, the
    // session's process: 400, as for any id whose successors are no longer kept.
    let expired = format!("{stream_id}-0");
    let at_b = read_reply(&mut resume(b.addr, &session, &expired));
    assert_eq!(at_b.status, 404, "{}", at_b.text());
    let at_a = read_reply(&mut resume(a.addr, &session, &expired));
    assert_eq!(at_a.status, 400, "{}", at_a.text());
    assert!(at_a.text().contains("no longer kept"), "{}", at_a.text());

    // From a recent event, B serves the rest of the stream from Redis, each event once.
    let mut resumed = resume(b.addr, &session, &last_id);
    let raw = read_until(&mut resumed, Duration::from_secs(20), |raw| {
        raw.ends_with(b"0\r\n\r\n")
    });
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw)
    );
    let rest: Vec<u64> = progress(&events(&raw))
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(rest, (last_seen + 1..=80).collect::<Vec<_>>());
}

#[test]
fn a_resumed_stream_whose_client_stops_reading_is_disconnected() {
    let Some(redis) = redis() else { return };
    let a = Process::start(&redis.url, false);
    let b = Process::start_tuned(
        &redis.url,
        false,
        Tuning {
            write_timeout: Some(Duration::from_secs(2)),
            ..Tuning::default()
        },
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);
    let session = open_session(a.addr);
    let in_session = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];

    // 160 events of 64 KiB (10 MiB) at A, more than a connection's socket buffers hold
    // (about 4 MiB); the client reads the first and leaves.
    const EVENTS: usize = 160;
    let call = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {
            "_meta": { "progressToken": "p" },
            "name": "count",
            "arguments": { "n": EVENTS, "pad": 64 * 1024, "every_ms": 0 },
        },
    });
    let mut stream = send(a.addr, "POST", &in_session, &call.to_string());
    let raw = read_until(&mut stream, Duration::from_secs(10), |raw| {
        !progress(&events(raw)).is_empty()
    });
    drop(stream);
    let (first_id, _) = progress(&events(&raw)).first().cloned().expect("one event");
    let (stream_id, _) = first_id.split_once('-').unwrap();
    let mut redis_connection = redis.connection();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let finished: Option<String> = redis::cmd("HGET")
            .arg(format!("mcpwire:meta:{stream_id}"))
            .arg("finished")
            .query(&mut redis_connection)
            .unwrap();
        if finished.as_deref() == Some("1") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the call's stream never finished"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // At B, from Redis; the client reads nothing for 6 s, then what is left.
    let mut resumed = resume(b.addr, &session, &first_id);
    std::thread::sleep(Duration::from_secs(6));
    let (raw, closed) = read_to_close(&mut resumed, Duration::from_secs(30));
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw[..raw.len().min(300)])
    );
    let delivered = occurrences(&raw, b"notifications/progress");
    eprintln!(
        "slow resumer: {delivered} of {} events read before the end",
        EVENTS - 1
    );
    assert!(closed, "the connection ends ({delivered} events read)");
    assert!(
        delivered < EVENTS - 1,
        "a client that stops reading is not buffered for: {delivered} of {} events delivered",
        EVENTS - 1
    );
}

/// POSTs a 2026-07-28 request declaring the Tasks extension to `addr` from `from` (a
/// loopback address: the task owner of an anonymous client is its address); the JSON reply
/// (200, or 400 with an error).
fn task_request(addr: SocketAddr, from: &str, method: &str, name: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": { "io.modelcontextprotocol/tasks": {} }
        }
    });
    let body = json!({ "jsonrpc": "2.0", "id": 7, "method": method, "params": params }).to_string();
    let headers = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", method),
        ("Mcp-Name", name),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
        socket.connect(addr).await.unwrap().into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(head(addr, "POST", "/mcp", &headers, body.len()).as_bytes())
        .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let reply = read_reply(&mut stream);
    // An error about the request (no such task) is 400, as in-process.
    let expected = if reply.text().contains("\"error\"") {
        400
    } else {
        200
    };
    assert_eq!(reply.status, expected, "{method}: {}", reply.text());
    reply.json()
}

/// `tasks/get` of `id` at `addr` from 127.0.0.1, polled (every 20 ms, 5 s at most) until
/// `done` holds of the reply.
fn get_until(addr: SocketAddr, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let got = task_request(addr, "127.0.0.1", "tasks/get", id, json!({ "taskId": id }));
        if done(&got) {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "tasks/get never as expected: {got}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `work` for `ms` at `addr` as a task: its id.
fn start_task(addr: SocketAddr, ms: u64) -> String {
    let params = json!({ "name": "work", "arguments": { "ms": ms } });
    let created = task_request(addr, "127.0.0.1", "tools/call", "work", params);
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    created["result"]["taskId"].as_str().unwrap().to_owned()
}

#[test]
fn a_task_created_at_one_process_is_read_and_cancelled_at_another() {
    let Some(redis) = redis() else { return };
    let (a, b) = (
        Process::start(&redis.url, true),
        Process::start(&redis.url, true),
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);

    // Read at B, at once: working, then completed with the handler's result.
    let id = start_task(a.addr, 400);
    let working = task_request(
        b.addr,
        "127.0.0.1",
        "tasks/get",
        &id,
        json!({ "taskId": id }),
    );
    assert_eq!(working["result"]["status"], "working", "{working}");
    assert_eq!(working["result"]["taskId"], id.as_str());
    let done = get_until(b.addr, &id, |got| got["result"]["status"] != "working");
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "worked",
        "{done}"
    );

    // Another client (another address, so another owner) finds nothing at B: the same
    // answer as for an id that never was.
    let stranger = |id: &str| {
        let got = task_request(
            b.addr,
            "127.0.0.2",
            "tasks/get",
            id,
            json!({ "taskId": id }),
        );
        got["error"].clone()
    };
    let hidden = stranger(&id);
    assert_eq!(hidden["code"], -32602, "{hidden}");
    assert_eq!(hidden, stranger("00000000000000000000000000000000"));
    let refused = task_request(
        b.addr,
        "127.0.0.2",
        "tasks/cancel",
        &id,
        json!({ "taskId": id }),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    // Cancelled at B: the record says so at once, and A's handler sees its context cancelled.
    let before = WORK_CANCELLED.load(Ordering::SeqCst);
    let id = start_task(a.addr, 60_000);
    let ack = task_request(
        b.addr,
        "127.0.0.1",
        "tasks/cancel",
        &id,
        json!({ "taskId": id }),
    );
    assert!(ack.get("result").is_some(), "{ack}");
    let got = task_request(
        b.addr,
        "127.0.0.1",
        "tasks/get",
        &id,
        json!({ "taskId": id }),
    );
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while WORK_CANCELLED.load(Ordering::SeqCst) == before {
        assert!(
            Instant::now() < deadline,
            "the cancellation never reached A's handler"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let at_a = task_request(
        a.addr,
        "127.0.0.1",
        "tasks/get",
        &id,
        json!({ "taskId": id }),
    );
    assert_eq!(at_a["result"]["status"], "cancelled", "{at_a}");
}

#[test]
fn without_the_redis_task_store_a_task_is_not_found_at_another_process() {
    let Some(redis) = redis() else { return };
    let local = Tuning {
        local_tasks: true,
        ..Tuning::default()
    };
    let (a, b) = (
        Process::start_tuned(&redis.url, true, local),
        Process::start_tuned(&redis.url, true, local),
    );
    let id = start_task(a.addr, 60_000);
    let got = task_request(
        b.addr,
        "127.0.0.1",
        "tasks/get",
        &id,
        json!({ "taskId": id }),
    );
    assert_eq!(got["error"]["code"], -32602, "{got}");
}
