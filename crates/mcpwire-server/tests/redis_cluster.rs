//! Several server processes sharing one Redis (feature `redis`), each "process" a server on a
//! tokio runtime of its own (shut down at once to kill it): a change made at one reaches the
//! `subscriptions/listen` stream held by another within a second; a stream whose process is
//! killed mid-call is resumed at another process with `Last-Event-ID`, every missed event
//! exactly once, and the dead session's next request is 404.
//!
//! Needs a `redis-server` binary, named by `MCPWIRE_REDIS_SERVER` (it is started on a free
//! loopback port and stopped at the end); without it the tests print why and pass.
#![cfg(feature = "redis")]

#[path = "../../mcpwire/tests/http_support/mod.rs"]
mod http_support;

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use http_support::{ACCEPT, INITIALIZE, JSON, connect, head, read_until, request};
use mcpwire_server::redis::RedisCluster;
use mcpwire_server::{Context, HttpConfig, McpServer, NoArguments, Tool, ToolResult};
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

/// One server process of the cluster: its own runtime, Redis connections and HTTP endpoint.
struct Process {
    addr: SocketAddr,
    kill: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Process {
    /// Starts a process (stateless when `stateless`) on the cluster at `url`.
    fn start(url: &str, stateless: bool) -> Process {
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
                let cluster = RedisCluster::new(&url).unwrap();
                let server = server(&cluster);
                let config = HttpConfig::default()
                    .bind("127.0.0.1:0".parse().unwrap())
                    .stateless(stateless)
                    .event_store(cluster.event_store())
                    .health_check(cluster.health());
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
/// progress 1..=n, one every 50 ms.
fn server(cluster: &RedisCluster) -> McpServer {
    let me: Arc<OnceLock<McpServer>> = Arc::new(OnceLock::new());
    let changer = Arc::clone(&me);
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
                for step in 1..=args.n {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    ctx.progress(f64::from(step), None).await;
                }
                ToolResult::text("counted")
            },
        )
        .event_source(cluster.events())
        .request_state_secret("a secret every process of the test shares")
        .build()
        .unwrap();
    me.set(server.clone()).unwrap();
    server
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

#[test]
fn a_change_at_one_process_reaches_a_listener_at_another_promptly() {
    let Some(redis) = redis() else { return };
    let (a, b) = (
        Process::start(&redis.url, true),
        Process::start(&redis.url, true),
    );
    wait_healthy(a.addr);
    wait_healthy(b.addr);
    let listen = json!({
        "jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen",
        "params": { "_meta": meta_2026(), "notifications": { "toolsListChanged": true } },
    });
    let routing = [
        JSON,
        ACCEPT,
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "subscriptions/listen"),
    ];
    let mut listener = send(a.addr, "POST", &routing, &listen.to_string());
    let ack = read_until(&mut listener, Duration::from_secs(5), |raw| {
        !events(raw).is_empty()
    });
    assert_eq!(
        events(&ack)[0].1["method"],
        "notifications/subscriptions/acknowledged"
    );

    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": meta_2026(), "name": "change", "arguments": {} },
    });
    let started = Instant::now();
    let reply = request(
        b.addr,
        "POST",
        &[
            JSON,
            ACCEPT,
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "change"),
        ],
        call.to_string().as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    // Three processes on a loaded machine: seconds, not the tens a lost relay would take.
    let heard = read_until(&mut listener, Duration::from_secs(5), |raw| {
        events(raw)
            .iter()
            .any(|(_, m)| m["method"] == "notifications/tools/list_changed")
    });
    let elapsed = started.elapsed();
    let changed: Vec<_> = events(&heard)
        .into_iter()
        .filter(|(_, m)| m["method"] == "notifications/tools/list_changed")
        .collect();
    assert_eq!(changed.len(), 1, "one change, one notification at A");
    assert_eq!(
        changed[0].1["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "l"
    );
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_stream_whose_process_was_killed_resumes_at_another_with_every_missed_event_once() {
    let Some(redis) = redis() else { return };
    let mut a = Process::start(&redis.url, false);
    let b = Process::start(&redis.url, false);
    wait_healthy(a.addr);
    wait_healthy(b.addr);

    let initialized = request(a.addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(initialized.status, 200, "{}", initialized.text());
    let session = initialized.session();
    let in_session = [
        JSON,
        ACCEPT,
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let done = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        request(a.addr, "POST", &in_session, done.as_bytes()).status,
        202
    );

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
    let mut resumed = send(
        b.addr,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
            ("Last-Event-ID", last_id.as_str()),
        ],
        "",
    );
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
