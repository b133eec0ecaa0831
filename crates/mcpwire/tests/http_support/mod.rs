//! Helpers of the Streamable HTTP tests: a server on 127.0.0.1:0 in a thread of its own, a raw
//! HTTP/1.1 client over `std::net::TcpStream` (every read bounded by a timeout) and a scripted
//! service.
#![allow(dead_code)]

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use mcpwire::http::{
    Bytes, HttpConfig, HttpServer, HttpService, Outbound, SessionHandler, SessionOpening,
};
use serde_json::{Value, json};

/// How long any single read may wait before a test fails.
pub const READ_LIMIT: Duration = Duration::from_secs(10);

/// A server running on its own runtime; stopped when dropped.
pub struct Running {
    pub addr: SocketAddr,
    /// The server's runtime (two workers), for its metrics.
    pub runtime: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Starts `service` with `config` on 127.0.0.1, port chosen by the system.
pub fn start<S: HttpService>(config: HttpConfig, service: S) -> Running {
    let config = config.bind("127.0.0.1:0".parse().unwrap());
    let server = HttpServer::bind(config, service).expect("bind 127.0.0.1:0");
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (handle_sender, handle) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let _ = handle_sender.send(runtime.handle().clone());
        runtime
            .block_on(server.run_until(async {
                let _ = stopped.await;
            }))
            .unwrap();
        runtime.shutdown_timeout(Duration::from_secs(1));
    });
    Running {
        addr,
        runtime: handle.recv().expect("the server's runtime"),
        stop: Some(stop),
        thread: Some(thread),
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One POST of `body` to `/mcp` on `stream`, kept alive, with `headers`; its response read
/// whole, by its `Content-Length`.
pub fn post_kept_alive(
    stream: &mut TcpStream,
    addr: SocketAddr,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let head = head_of(addr, "POST", "/mcp", headers, body.len(), false);
    stream
        .write_all(format!("{head}{body}").as_bytes())
        .unwrap();
    let raw = read_until(stream, READ_LIMIT, |raw| {
        let text = String::from_utf8_lossy(raw);
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            return false;
        };
        head.lines()
            .find_map(|line| {
                line.to_ascii_lowercase()
                    .strip_prefix("content-length: ")
                    .map(str::to_owned)
            })
            .and_then(|len| len.trim().parse::<usize>().ok())
            .is_some_and(|len| body.len() >= len)
    });
    parse(&raw)
}

/// A parsed HTTP response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    pub fn session(&self) -> String {
        self.header("mcp-session-id")
            .unwrap_or_else(|| panic!("no Mcp-Session-Id: {self:?}"))
            .to_owned()
    }
}

/// The request head, with `Host` (unless given), `Connection: close` and `Content-Length`.
pub fn head(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    length: usize,
) -> String {
    head_of(addr, method, path, headers, length, true)
}

/// The request head, with `Host` (unless given), `Connection: close` when `close`, and
/// `Content-Length`.
fn head_of(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    length: usize,
    close: bool,
) -> String {
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str(&format!("Content-Length: {length}\r\n"));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head
}

pub fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(READ_LIMIT)).unwrap();
    stream
}

/// Sends one request to `/mcp` and reads the whole response (until the server closes).
pub fn request(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    request_to(addr, method, "/mcp", headers, body)
}

pub fn request_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut stream = connect(addr);
    stream
        .write_all(head(addr, method, path, headers, body.len()).as_bytes())
        .unwrap();
    stream.write_all(body).unwrap();
    read_reply(&mut stream)
}

/// Reads a response until the connection closes.
pub fn read_reply(stream: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the response");
    parse(&raw)
}

pub fn parse(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// Decodes a chunked body (as much of it as is complete).
pub fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&raw[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 || raw.len() < eol + 2 + size {
            break;
        }
        body.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[(eol + 4 + size).min(raw.len())..];
    }
    body
}

/// Reads from `stream` until `done` holds for what has arrived, or the deadline passes.
pub fn read_until(
    stream: &mut TcpStream,
    limit: Duration,
    done: impl Fn(&[u8]) -> bool,
) -> Vec<u8> {
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let deadline = Instant::now() + limit;
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline && !done(&raw) {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
    }
    raw
}

/// Whether the server closes `stream` within `limit` (reads return end of file or an error).
pub fn closes_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let deadline = Instant::now() + limit;
    let mut buf = [0u8; 1024];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

pub const JSON: (&str, &str) = ("Content-Type", "application/json");
pub const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

/// A request frame.
pub fn call(id: u64, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
}

/// Opens a session and returns its id.
pub fn open_session(addr: SocketAddr) -> String {
    let reply = request(addr, "POST", &[JSON, ACCEPT], INITIALIZE.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.session()
}

/// A service whose handler acts on the method: `initialize` succeeds, `stream` sends two
/// progress notifications before its reply, `announce` sends an unsolicited notification,
/// `big` answers 32 MiB, `fail` is answered with an error, `panic` panics, anything else with
/// an empty result. A result reports
/// whether the handler's frames could be sent (`"streamed"`).
pub struct Scripted {
    pub unsolicited: bool,
}

pub struct ScriptedSession {
    unsolicited: Option<Outbound>,
}

impl HttpService for Scripted {
    type Handler = ScriptedSession;

    fn open(&self, session: SessionOpening) -> ScriptedSession {
        ScriptedSession {
            unsolicited: session.unsolicited(),
        }
    }

    fn unsolicited_messages(&self) -> bool {
        self.unsolicited
    }
}

pub fn progress(n: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"t","progress":{n}}}}}"#
    )
}

pub const ANNOUNCEMENT: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

impl SessionHandler for ScriptedSession {
    async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
        let message: Value = serde_json::from_slice(&frame).ok()?;
        let id = message.get("id")?.clone();
        let method = message.get("method").and_then(Value::as_str).unwrap_or("");
        let mut streamed = false;
        match method {
            "stream" => {
                streamed = outbound.send(progress(1)).await.is_ok()
                    && outbound.send(progress(2)).await.is_ok();
            }
            "announce" => {
                let sender = self
                    .unsolicited
                    .clone()
                    .expect("unsolicited messages offered");
                sender.send(ANNOUNCEMENT).await.expect("queued");
            }
            "big" => {
                // Formatted, not serialized: escaping 32 MiB takes seconds in a debug build.
                let text = "x".repeat(32 << 20);
                let reply =
                    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"text":"{text}"}}}}"#);
                return Some(Bytes::from(reply));
            }
            "fail" => {
                let error = json!({"jsonrpc":"2.0","id":id,"error":{"code":-32000,"message":"no"}});
                return Some(Bytes::from(error.to_string()));
            }
            "panic" => panic!("the scripted handler panics"),
            _ => {}
        }
        let reply = json!({"jsonrpc":"2.0","id":id,"result":{"streamed":streamed}});
        Some(Bytes::from(reply.to_string()))
    }
}
