//! HTTP under load (issue 48): the example's `add` over Streamable HTTP on loopback, mcpwire
//! (the `mcp_server` example: 2026-07-28 stateless, and 2025-11-25 inside a session) against
//! rmcp 3.11's streamable HTTP server (`benches/rmcp-server`: at its best with
//! `--json-response`, and at its defaults).
//!
//! The servers are release binaries run as child processes on `127.0.0.1:0` (the port each
//! prints is read from its stderr). One load generator drives them: `clients` keep-alive
//! HTTP/1.1 connections (hyper's client, `TCP_NODELAY`), each sending its next request as soon
//! as the previous answer has been read whole; a run is a number of requests shared among
//! the clients, cut short at a time limit. Every answer is checked (status 200 and the sum);
//! the first one of every client is checked whole.
//!
//! ```
//! use mcpwire_benches::http_load::{Contender, p99};
//!
//! assert_eq!(Contender::McpwireStateless.id(), "mcpwire_stateless");
//! assert_eq!(p99(&mut vec![5, 1, 3]), Some(5));
//! ```

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderName, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::json;

use crate::conversation::{self, ADD};

/// The concurrencies of the rows: clients, each on its own connection.
pub const CLIENTS: [usize; 3] = [1, 16, 64];

/// How long one request may take before the run fails.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a server may take to print where it listens.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// The version of the stateless rows.
pub const STATELESS_VERSION: &str = "2026-07-28";

/// One server and way of talking to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contender {
    /// The mcpwire example, a 2026-07-28 request per POST, no session.
    McpwireStateless,
    /// The mcpwire example, one 2025-11-25 session per client.
    McpwireSession,
    /// rmcp with `json_response` and no sessions, 2026-07-28 requests.
    RmcpJson,
    /// rmcp with its defaults (SSE answers), 2026-07-28 requests.
    RmcpDefault,
    /// No MCP server: axum answering every POST with the same fixed reply (`rmcp-server
    /// --floor`), 2026-07-28 requests. What one HTTP exchange costs on this host.
    Floor,
}

impl Contender {
    /// All contenders, in report order.
    pub const ALL: [Contender; 5] = [
        Contender::McpwireStateless,
        Contender::McpwireSession,
        Contender::RmcpJson,
        Contender::RmcpDefault,
        Contender::Floor,
    ];

    /// The criterion function id.
    pub fn id(self) -> &'static str {
        match self {
            Contender::McpwireStateless => "mcpwire_stateless",
            Contender::McpwireSession => "mcpwire_session",
            Contender::RmcpJson => "rmcp_json_response",
            Contender::RmcpDefault => "rmcp_default",
            Contender::Floor => "floor_axum",
        }
    }

    /// Which of the three server processes serves this contender.
    pub fn server(self) -> ServerKind {
        match self {
            Contender::McpwireStateless | Contender::McpwireSession => ServerKind::Mcpwire,
            Contender::RmcpJson => ServerKind::RmcpJson,
            Contender::RmcpDefault => ServerKind::RmcpDefault,
            Contender::Floor => ServerKind::Floor,
        }
    }
}

/// The server processes: both mcpwire contenders share one (the example's defaults: sessions
/// at `initialize`, 2026-07-28 requests served statelessly beside them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ServerKind {
    /// `mcp_server --http 127.0.0.1:0`.
    Mcpwire,
    /// `rmcp-server --http 127.0.0.1:0 --json-response`.
    RmcpJson,
    /// `rmcp-server --http 127.0.0.1:0`.
    RmcpDefault,
    /// `rmcp-server --http 127.0.0.1:0 --floor`.
    Floor,
}

impl ServerKind {
    /// The arguments of the server's binary.
    pub fn args(self) -> &'static [&'static str] {
        match self {
            ServerKind::Mcpwire | ServerKind::RmcpDefault => &["--http", "127.0.0.1:0"],
            ServerKind::RmcpJson => &["--http", "127.0.0.1:0", "--json-response"],
            ServerKind::Floor => &["--http", "127.0.0.1:0", "--floor"],
        }
    }
}

/// A server running as a child process; killed when dropped.
pub struct HttpChild {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl HttpChild {
    /// Starts `binary` with `args` and waits until it prints `http://ADDR/mcp` on stderr (the
    /// rest of its stderr is read and dropped on a thread of its own).
    pub fn spawn(binary: &Path, args: &[&str]) -> Result<HttpChild, String> {
        let mut child = Command::new(binary)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let stderr = child.stderr.take().expect("stderr is piped");
        let (found, addr) = mpsc::channel();
        std::thread::spawn(move || {
            let mut found = Some(found);
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(addr) = listening_addr(&line)
                    && let Some(found) = found.take()
                {
                    let _ = found.send(addr);
                }
            }
        });
        let Ok(addr) = addr.recv_timeout(STARTUP_TIMEOUT) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{} {args:?} did not say where it listens",
                binary.display()
            ));
        };
        Ok(HttpChild { child, addr })
    }

    /// The CPU time the server has used so far, user and system, all its threads (the
    /// ended ones too): `None` where `/proc` does not say (not Linux).
    pub fn cpu_time(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).ok()?;
        cpu_time_of_stat(&stat)
    }
}

/// Clock ticks per second of `/proc`'s times: Linux's `USER_HZ`, 100 on every architecture
/// it exports to user space.
const USER_HZ: u64 = 100;

/// `utime + stime` of a `/proc/<pid>/stat` line (fields 14 and 15, in clock ticks). The
/// command name (field 2) is in parentheses and may hold spaces and parentheses: the fields
/// are counted after its last `)`.
fn cpu_time_of_stat(stat: &str) -> Option<Duration> {
    let (_, after_name) = stat.rsplit_once(')')?;
    let mut fields = after_name.split_ascii_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 1000 / USER_HZ))
}

impl Drop for HttpChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address in a line such as `… listening on http://127.0.0.1:4711/mcp`.
fn listening_addr(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("http://")? + "http://".len()..];
    rest[..rest.find('/')?].parse().ok()
}

/// One client: its connection, and the headers of its measured request.
struct Client {
    sender: SendRequest<Full<Bytes>>,
    headers: Vec<(HeaderName, HeaderValue)>,
}

/// The clients of one row, connected and checked, ready to be driven.
pub struct Load {
    clients: Vec<Client>,
    host: HeaderValue,
    body: Bytes,
}

/// What one [`Load::run`] measured.
#[derive(Debug)]
pub struct Measured {
    /// Requests answered.
    pub done: u64,
    /// Wall time of the run.
    pub elapsed: Duration,
}

impl Load {
    /// Connects `clients` clients of `contender` to `addr`; each opens its session if the
    /// contender has one, and sends one checked request.
    pub async fn connect(
        contender: Contender,
        addr: SocketAddr,
        clients: usize,
    ) -> Result<Load, String> {
        let host = HeaderValue::from_str(&addr.to_string()).map_err(|e| e.to_string())?;
        let body = Bytes::from(match contender {
            Contender::McpwireSession => conversation::add_call(),
            _ => stateless_add_call(),
        });
        let mut load = Load {
            clients: Vec::with_capacity(clients),
            host,
            body,
        };
        for _ in 0..clients {
            let sender = connect(addr).await?;
            let mut client = Client {
                sender,
                headers: Vec::new(),
            };
            client.headers = match contender {
                Contender::McpwireSession => load.open_session(&mut client).await?,
                _ => stateless_headers(),
            };
            let (status, reply) = load.post(&mut client, &load.body.clone(), None).await?;
            if status != StatusCode::OK {
                return Err(format!("{contender:?}: status {status}: {}", text(&reply)));
            }
            conversation::check_add_reply(json_of(&reply))
                .map_err(|e| format!("{contender:?}: {e}: {}", text(&reply)))?;
            load.clients.push(client);
        }
        Ok(load)
    }

    /// `initialize` (2025-11-25) and `notifications/initialized`: the session's headers.
    async fn open_session(
        &self,
        client: &mut Client,
    ) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
        let initialize = Bytes::from(conversation::initialize());
        let mut session = None;
        let (status, reply) = self.post(client, &initialize, Some(&mut session)).await?;
        let Some(session) = session.filter(|_| status == StatusCode::OK) else {
            return Err(format!(
                "initialize: status {status}, no session: {}",
                text(&reply)
            ));
        };
        let headers = vec![
            (HeaderName::from_static("mcp-session-id"), session),
            (
                HeaderName::from_static("mcp-protocol-version"),
                HeaderValue::from_static(conversation::PROTOCOL_VERSION),
            ),
        ];
        client.headers = headers.clone();
        let initialized = Bytes::from(conversation::initialized());
        let (status, reply) = self.post(client, &initialized, None).await?;
        if status != StatusCode::ACCEPTED {
            return Err(format!("initialized: status {status}: {}", text(&reply)));
        }
        Ok(headers)
    }

    /// One POST of `body` with the client's headers; the answer read whole.
    async fn post(
        &self,
        client: &mut Client,
        body: &Bytes,
        session: Option<&mut Option<HeaderValue>>,
    ) -> Result<(StatusCode, Bytes), String> {
        let request = request(&self.host, &client.headers, body)?;
        let exchange = async {
            client.sender.ready().await.map_err(|e| e.to_string())?;
            let response = client
                .sender
                .send_request(request)
                .await
                .map_err(|e| e.to_string())?;
            let (parts, body) = response.into_parts();
            if let Some(session) = session {
                *session = parts.headers.get("mcp-session-id").cloned();
            }
            let bytes = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
            Ok::<_, String>((parts.status, bytes))
        };
        tokio::time::timeout(REQUEST_TIMEOUT, exchange)
            .await
            .map_err(|_| format!("no answer within {REQUEST_TIMEOUT:?}"))?
    }

    /// Sends `requests` requests, shared among the clients (each sends its next as soon as
    /// its answer is read), stopping at `limit`; appends every latency (µs) to `latencies`.
    pub async fn run(
        &mut self,
        requests: u64,
        limit: Duration,
        latencies: &mut Vec<u32>,
    ) -> Result<Measured, String> {
        let left = Arc::new(AtomicU64::new(requests));
        let start = Instant::now();
        let deadline = start + limit;
        let mut tasks = tokio::task::JoinSet::new();
        for mut client in self.clients.drain(..) {
            let left = Arc::clone(&left);
            let host = self.host.clone();
            let body = self.body.clone();
            tasks.spawn(async move {
                let mut times = Vec::new();
                let mut failure = None;
                while Instant::now() < deadline
                    && left
                        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                        .is_ok()
                {
                    let sent = Instant::now();
                    match measured_post(&mut client, &host, &body).await {
                        Ok(()) => times
                            .push(u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX)),
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    }
                }
                (client, times, failure)
            });
        }
        let mut done = 0;
        let mut failure = None;
        while let Some(joined) = tasks.join_next().await {
            let (client, times, failed) = joined.map_err(|e| e.to_string())?;
            done += times.len() as u64;
            latencies.extend(times);
            failure = failure.or(failed);
            self.clients.push(client);
        }
        let elapsed = start.elapsed();
        match failure {
            Some(e) => Err(e),
            None => Ok(Measured { done, elapsed }),
        }
    }
}

/// Paired rounds: rows measured in interleaved slices, so that a slow spell of the machine
/// falls on all of them instead of on whichever row ran during it.
///
/// Criterion measures one row after another, seconds apart; on a shared two-core machine
/// one row's run can be twice as slow as the next for reasons outside either server, and
/// a ratio of two rows inherits that. Here each round drives every load for `slice`, one
/// after the other, each round in the next of their orders (see [`orders`]: no load always
/// runs first, or always after the same one), after one unmeasured slice of each. Every
/// load stays connected throughout: reconnecting for each slice would put the new
/// connections' costs into the slices.
pub struct Paired {
    /// Each round's requests/s, one per load in the loads' order.
    pub rounds: Vec<Vec<f64>>,
    /// Every measured request's latency (µs), per load.
    pub latencies: Vec<Vec<u32>>,
}

impl Paired {
    /// Drives `loads` in `rounds` interleaved rounds of one `slice` each.
    pub async fn run(loads: &mut [Load], rounds: usize, slice: Duration) -> Result<Paired, String> {
        let mut warm_up = Vec::new();
        for load in loads.iter_mut() {
            load.run(u64::MAX, slice, &mut warm_up).await?;
        }
        let mut paired = Paired {
            rounds: Vec::with_capacity(rounds),
            latencies: vec![Vec::new(); loads.len()],
        };
        let orders = orders(loads.len());
        for round in 0..rounds {
            let mut rates = vec![0.0; loads.len()];
            for &at in &orders[round % orders.len()] {
                let measured = loads[at]
                    .run(u64::MAX, slice, &mut paired.latencies[at])
                    .await?;
                rates[at] = rate(measured);
            }
            paired.rounds.push(rates);
        }
        Ok(paired)
    }
}

/// Every order of `n` loads, lexicographic: round `r` takes the `r`th (cyclically), so over
/// `n!` rounds each load runs first, last and after each other load equally often.
fn orders(n: usize) -> Vec<Vec<usize>> {
    if n <= 1 {
        return vec![(0..n).collect()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for rest in orders(n - 1) {
            let mut order = vec![first];
            order.extend(rest.into_iter().map(|i| if i >= first { i + 1 } else { i }));
            all.push(order);
        }
    }
    all
}

/// Requests per second of one run.
fn rate(measured: Measured) -> f64 {
    measured.done as f64 / measured.elapsed.as_secs_f64()
}

/// One measured POST: status 200 and the sum in the answer, or an error.
async fn measured_post(
    client: &mut Client,
    host: &HeaderValue,
    body: &Bytes,
) -> Result<(), String> {
    let request = request(host, &client.headers, body)?;
    let exchange = async {
        client.sender.ready().await.map_err(|e| e.to_string())?;
        let response = client
            .sender
            .send_request(request)
            .await
            .map_err(|e| e.to_string())?;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        if status != StatusCode::OK || !contains(&bytes, SUM_MARKER) {
            return Err(format!("status {status}: {}", text(&bytes)));
        }
        Ok(())
    };
    tokio::time::timeout(REQUEST_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no answer within {REQUEST_TIMEOUT:?}"))?
}

/// A POST of `body` to `/mcp` with the JSON content headers and `headers`.
fn request(
    host: &HeaderValue,
    headers: &[(HeaderName, HeaderValue)],
    body: &Bytes,
) -> Result<Request<Full<Bytes>>, String> {
    let mut request = Request::post("/mcp")
        .header(HOST, host.clone())
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json, text/event-stream")
        .body(Full::new(body.clone()))
        .map_err(|e| e.to_string())?;
    request.headers_mut().extend(headers.iter().cloned());
    Ok(request)
}

/// What every correct answer carries (checked whole once per client).
const SUM_MARKER: &[u8] = b"\"sum\":42";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A keep-alive HTTP/1.1 connection to `addr`, `TCP_NODELAY` set; its driver runs on the
/// current runtime until the sender is dropped.
async fn connect(addr: SocketAddr) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake {addr}: {e}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

/// The 2026-07-28 `tools/call` of `add`: the version and the client's capabilities in `_meta`.
pub fn stateless_add_call() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "add",
            "arguments": { "a": ADD.0, "b": ADD.1 },
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "mcpwire-benches", "version": "0.0.0" }
            }
        }
    }))
    .expect("JSON")
}

/// The routing headers of a 2026-07-28 `tools/call` of `add`.
fn stateless_headers() -> Vec<(HeaderName, HeaderValue)> {
    vec![
        (
            HeaderName::from_static("mcp-protocol-version"),
            HeaderValue::from_static(STATELESS_VERSION),
        ),
        (
            HeaderName::from_static("mcp-method"),
            HeaderValue::from_static("tools/call"),
        ),
        (
            HeaderName::from_static("mcp-name"),
            HeaderValue::from_static("add"),
        ),
    ]
}

/// The JSON of an answer: the body itself, or the last `data:` of an SSE stream.
fn json_of(body: &[u8]) -> &[u8] {
    let text = std::str::from_utf8(body).unwrap_or("");
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| data.starts_with('{'))
        .map_or(body, str::as_bytes)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned()
}

/// The 99th percentile of `latencies` (sorted in place); `None` when empty.
pub fn p99(latencies: &mut [u32]) -> Option<u32> {
    if latencies.is_empty() {
        return None;
    }
    latencies.sort_unstable();
    let rank = (latencies.len() * 99).div_ceil(100).max(1);
    Some(latencies[rank - 1])
}

/// The median of `latencies` (sorted in place); `None` when empty.
pub fn p50(latencies: &mut [u32]) -> Option<u32> {
    if latencies.is_empty() {
        return None;
    }
    latencies.sort_unstable();
    Some(latencies[(latencies.len() - 1) / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rounds_take_every_order_in_turn() {
        assert_eq!(orders(2), vec![vec![0, 1], vec![1, 0]]);
        let three = orders(3);
        assert_eq!(three.len(), 6);
        assert_eq!(three[0], vec![0, 1, 2]);
        assert_eq!(three[5], vec![2, 1, 0]);
        // Each load first twice, and each directly after each other load twice.
        for load in 0..3 {
            assert_eq!(three.iter().filter(|o| o[0] == load).count(), 2);
            for before in (0..3).filter(|&b| b != load) {
                let after = |o: &&Vec<usize>| o.windows(2).any(|w| w == [before, load]);
                assert_eq!(three.iter().filter(after).count(), 2);
            }
        }
    }

    #[test]
    fn the_cpu_time_is_read_after_the_command_name() {
        // Fields 14 and 15 (utime 250, stime 50 ticks): 3 s. The name holds ") 9 9".
        let stat = "4242 (mcp ) 9 9) S 1 4242 4242 0 -1 4194560 2134 0 0 0 250 50 0 0 20 0 3";
        assert_eq!(cpu_time_of_stat(stat), Some(Duration::from_secs(3)));
        assert_eq!(cpu_time_of_stat("4242 (cut"), None);
    }
}
