//! The operator's settings of the Streamable HTTP transport, with their defaults.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use super::origin::AllowList;

/// The default of [`HttpConfig::fresh_connection_grace`].
const DEFAULT_FRESH_CONNECTION_GRACE: Duration = Duration::from_secs(1);

/// Settings of an [`HttpServer`](super::HttpServer). Every field has a default chosen for a
/// server on `localhost` that a browser on the same machine could reach:
///
/// | setting | default |
/// |---|---|
/// | [`bind`](Self::bind) | `127.0.0.1:8080` (a non-loopback address needs [`allow_remote`](Self::allow_remote)) |
/// | [`path`](Self::path) | `/mcp` (every other path is 404) |
/// | [`allowed_hosts`](Self::allowed_hosts) | `localhost`, `127.0.0.1`, `[::1]`, any port |
/// | [`allowed_origins`](Self::allowed_origins) | `http`/`https` origins of those hosts, any port |
/// | [`max_body_bytes`](Self::max_body_bytes) | 4 MiB |
/// | [`max_batch_len`](Self::max_batch_len) | 1,000 messages in a batch body (a profile's default), 400 beyond |
/// | [`body_budget_bytes`](Self::body_budget_bytes) | 64 MiB of request bodies in memory at once, all connections together |
/// | [`header_timeout`](Self::header_timeout) | 10 s to send the request head |
/// | [`body_timeout`](Self::body_timeout) | 30 s to send the body |
/// | [`min_body_rate`](Self::min_body_rate) | 1 KiB/s after a [grace](Self::body_rate_grace) of 5 s: a body sent slower (or withheld) gets 408 |
/// | [`idle_timeout`](Self::idle_timeout) | 60 s without a request in progress closes a kept-alive connection |
/// | [`write_timeout`](Self::write_timeout) | 30 s in which a client reads nothing of its answer closes the connection |
/// | [`min_write_rate`](Self::min_write_rate) | 1 KiB/s: a client reading its answer slower than this, measured over at least the write timeout, loses its connection |
/// | [`response_budget_bytes`](Self::response_budget_bytes) | 64 MiB of answers not yet taken by their clients, all connections together; a JSON answer beyond it is 503 |
/// | [`request_timeout`](Self::request_timeout) | a request served statelessly: 5 min for its answer to be complete (then cancelled); in a session: none |
/// | [`max_connections`](Self::max_connections) | 256 open connections (reached: one waiting for its request body is closed, else the longest idle one; none, further ones wait in the listen backlog) |
/// | [`fresh_connection_grace`](Self::fresh_connection_grace) | 1 s (the header timeout when shorter) in which a connection that has sent nothing yet is not taken for an idle one when room is made |
/// | [`listen_backlog`](Self::listen_backlog) | 1,024 connections waiting to be accepted |
/// | [`max_connections_per_peer`](Self::max_connections_per_peer) | 64 of them from one client address (IPv6: per /64; all loopback addresses are one client); reached, the client's own connection waiting for its body is closed, else its longest idle one, else its oldest request ends (429 with a JSON-RPC error carrying its id, or its stream is cut) |
/// | [`max_sessions`](Self::max_sessions) | 1,024 |
/// | [`session_idle_timeout`](Self::session_idle_timeout) | 30 min unused ends a session |
/// | [`max_sessions_per_peer`](Self::max_sessions_per_peer) | 64 open sessions per client address (IPv6: per /64; all loopback addresses are one client) |
/// | [`eras`](Self::eras) | [`Eras::Both`]: sessions at `initialize`, and requests stating a version the service serves per request (MCP 2026-07-28) served statelessly beside them; [`stateless`](Self::stateless) for the new era only |
/// | [`outbound_capacity`](Self::outbound_capacity) | 32 frames queued per stream before a sender waits |
/// | [`event_store`](Self::event_store) | none: SSE events carry no ids and a stream cannot be resumed |
/// | [`sse_retry`](Self::sse_retry) | 1 s, the `retry` of a resumable stream's priming event |
/// | [`health_check`](Self::health_check) | none: `GET /healthz` is 404 like any other path |
/// | [`session_id_tag`](Self::session_id_tag) | none: all 128 bits of a session id are random |
/// | [`trusted_proxy`](Self::trusted_proxy) | none: every connection's address is its client, whatever `Forwarded` / `X-Forwarded-For` say |
///
/// ```
/// use std::time::Duration;
/// use mcpwire::http::HttpConfig;
///
/// let config = HttpConfig::default()
///     .bind("127.0.0.1:0".parse().unwrap())
///     .path("/rpc")
///     .allowed_origin("https://app.example.com")
///     .header_timeout(Duration::from_secs(5));
/// assert_eq!(config.endpoint_path(), "/rpc");
/// ```
#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub(crate) bind: SocketAddr,
    pub(crate) allow_remote: bool,
    pub(crate) path: String,
    pub(crate) hosts: AllowList,
    pub(crate) origins: AllowList,
    pub(crate) max_body_bytes: usize,
    pub(crate) max_batch_len: Option<usize>,
    pub(crate) body_budget_bytes: usize,
    pub(crate) header_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) min_body_rate: u64,
    pub(crate) body_rate_grace: Duration,
    pub(crate) idle_timeout: Duration,
    pub(crate) write_timeout: Duration,
    pub(crate) min_write_rate: u64,
    pub(crate) response_budget_bytes: usize,
    /// `None`: the mode's default (see [`HttpConfig::effective_request_timeout`]).
    pub(crate) request_timeout: Option<Option<Duration>>,
    pub(crate) listen_backlog: u32,
    pub(crate) max_connections: usize,
    pub(crate) max_connections_per_peer: usize,
    /// `None`: 1 s, or the header timeout when shorter (see
    /// [`HttpConfig::effective_fresh_connection_grace`]).
    pub(crate) fresh_connection_grace: Option<Duration>,
    pub(crate) max_sessions: usize,
    pub(crate) session_idle_timeout: Duration,
    pub(crate) max_sessions_per_peer: usize,
    pub(crate) eras: Eras,
    pub(crate) outbound_capacity: usize,
    pub(crate) protocol_versions: Vec<String>,
    pub(crate) event_store: Option<std::sync::Arc<dyn super::EventStore>>,
    pub(crate) sse_retry: Duration,
    pub(crate) health: Option<std::sync::Arc<dyn super::HealthCheck>>,
    pub(crate) session_id_tag: Option<u8>,
    pub(crate) trusted_proxies: Vec<super::TrustedProxy>,
    pub(crate) guard: Option<GuardSlot>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            bind: SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 8080),
            allow_remote: false,
            path: "/mcp".to_owned(),
            hosts: AllowList::loopback(),
            origins: AllowList::loopback(),
            max_body_bytes: 4 * 1024 * 1024,
            max_batch_len: crate::profile::Limits::default().max_batch_len,
            body_budget_bytes: 64 * 1024 * 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            min_body_rate: 1024,
            body_rate_grace: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(60),
            write_timeout: Duration::from_secs(30),
            min_write_rate: 1024,
            response_budget_bytes: 64 * 1024 * 1024,
            request_timeout: None,
            listen_backlog: 1024,
            max_connections: 256,
            max_connections_per_peer: 64,
            fresh_connection_grace: None,
            max_sessions: 1024,
            session_idle_timeout: Duration::from_secs(30 * 60),
            max_sessions_per_peer: 64,
            eras: Eras::Both,
            outbound_capacity: 32,
            protocol_versions: mcpwire_types::facts::MCP_VERSIONS
                .iter()
                .filter_map(|facts| facts.protocol_version)
                .map(str::to_owned)
                .collect(),
            event_store: None,
            sse_retry: Duration::from_secs(1),
            health: None,
            session_id_tag: None,
            trusted_proxies: Vec::new(),
            guard: None,
        }
    }
}

/// The eras of MCP an endpoint serves (MCP 2026-07-28, "Versioning and Compatibility":
/// *legacy* versions open a session with `initialize`, 2025-11-25 and earlier; *modern* ones
/// state their version on every request, 2026-07-28 and later).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eras {
    /// Sessions only: `initialize` opens one, every other request names it. What a request
    /// stating a modern version gets is what any request without a session gets (400).
    Legacy,
    /// Modern only (stateless mode): every POST is handled by a fresh handler,
    /// `Mcp-Session-Id` is ignored, GET and DELETE get 405.
    Modern,
    /// Both on one endpoint (a dual-era server): a request that states a version the
    /// service serves per request ([`HttpService::stateless_versions`](super::HttpService::stateless_versions)),
    /// in `_meta` or in `MCP-Protocol-Version`, is served statelessly as [`Modern`](Self::Modern)
    /// serves it (any `Mcp-Session-Id` on it ignored); any other request as
    /// [`Legacy`](Self::Legacy) serves it. A service that serves no version per request is
    /// served as [`Legacy`](Self::Legacy).
    Both,
}

impl HttpConfig {
    /// The address to listen on. Binding a non-loopback address fails unless
    /// [`allow_remote`](Self::allow_remote) is set.
    pub fn bind(mut self, addr: SocketAddr) -> Self {
        self.bind = addr;
        self
    }

    /// Allows binding a non-loopback address (e.g. `0.0.0.0`); the server then prints a warning
    /// on stderr. The host and origin allow-lists still apply: add the names clients use.
    pub fn allow_remote(mut self, allow: bool) -> Self {
        self.allow_remote = allow;
        self
    }

    /// The one path of the MCP endpoint (default `/mcp`); requests to any other path get 404.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Adds a host the `Host` header may name: a bare host (`example.com`, `[::1]`) admits any
    /// port, `host:port` admits that port only.
    pub fn allowed_host(mut self, host: &str) -> Self {
        self.hosts.push(host);
        self
    }

    /// Replaces the host allow-list (see [`allowed_host`](Self::allowed_host)).
    pub fn allowed_hosts<'a>(mut self, hosts: impl IntoIterator<Item = &'a str>) -> Self {
        self.hosts = AllowList::of(hosts);
        self
    }

    /// Adds an origin an `Origin` header may name: `scheme://host[:port]`, or a bare host
    /// (any scheme and port).
    pub fn allowed_origin(mut self, origin: &str) -> Self {
        self.origins.push(origin);
        self
    }

    /// Replaces the origin allow-list (see [`allowed_origin`](Self::allowed_origin)).
    pub fn allowed_origins<'a>(mut self, origins: impl IntoIterator<Item = &'a str>) -> Self {
        self.origins = AllowList::of(origins);
        self
    }

    /// The largest request body, in bytes; larger ones get 413.
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The most messages a batch body may hold (`None`: no limit), checked by the transport
    /// before any handler sees the body; a longer batch gets 400 with an id-less -32600. Set it
    /// to the served profile's [`Limits::max_batch_len`](crate::Limits::max_batch_len)
    /// (the default is a profile's default).
    pub fn max_batch_len(mut self, max: Option<usize>) -> Self {
        self.max_batch_len = max;
        self
    }

    /// The request-body bytes held in memory at once over all connections, counted as they
    /// arrive and given back once the body is decoded (before its handler runs); a request
    /// whose bytes would exceed it gets 503 with `Retry-After`.
    pub fn body_budget_bytes(mut self, bytes: usize) -> Self {
        self.body_budget_bytes = bytes;
        self
    }

    /// How long a client may take to send a request head; the connection is closed after it.
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How long a client may take to send a request body; 408 after it.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// The slowest a request body may arrive, in bytes per second: after the
    /// [grace](Self::body_rate_grace), each `bytes_per_second` bytes received buy one more
    /// second, and a body that falls behind gets 408 and its connection closes (so a client
    /// that declares a large `Content-Length` and then trickles or withholds the body holds
    /// its connection for the grace, not the whole [`body_timeout`](Self::body_timeout)).
    /// `0` turns the rate check off; the body timeout still applies.
    pub fn min_body_rate(mut self, bytes_per_second: u64) -> Self {
        self.min_body_rate = bytes_per_second;
        self
    }

    /// How long a request body may take before [`min_body_rate`](Self::min_body_rate)
    /// counts: a client sending nothing of its body gets 408 once it has passed.
    pub fn body_rate_grace(mut self, grace: Duration) -> Self {
        self.body_rate_grace = grace;
        self
    }

    /// How long a kept-alive connection may stay without a request in progress. hyper also runs
    /// the [header timeout](Self::header_timeout) while a connection waits for its next
    /// request head, so an idle connection closes after the shorter of the two.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// How long a write to the client may make no progress (the client reads nothing) before
    /// the connection is closed.
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }

    /// The slowest a client may read an answer it is behind on, in bytes per second: while
    /// the server has bytes the client has not taken, the bytes it took since it fell behind
    /// must average at least this rate once [`write_timeout`](Self::write_timeout) has
    /// passed, or the connection is closed (a client trickling a few bytes now and then
    /// cannot hold its connection and its answer). `0` turns the rate check off; the write
    /// timeout still applies.
    pub fn min_write_rate(mut self, bytes_per_second: u64) -> Self {
        self.min_write_rate = bytes_per_second;
        self
    }

    /// The bytes of answers the server holds for clients that have not taken them yet, over
    /// all connections: a JSON answer is counted from when its handler returns until its
    /// client has read it; one that does not fit is answered 503 with `Retry-After` instead
    /// (its reply is dropped); an SSE event waits for room (its stream and handler wait with
    /// it, at most the write timeout).
    pub fn response_budget_bytes(mut self, bytes: usize) -> Self {
        self.response_budget_bytes = bytes.max(1);
        self
    }

    /// How long a request may take until its answer is complete (`None`: no limit). When it
    /// passes, the request is cancelled as if its client had left (the handler's future is
    /// dropped, [`AsyncServer`](super::AsyncServer) handlers see their token fire) and the
    /// client gets a JSON-RPC error carrying the request's id (503 when nothing was sent yet;
    /// on an SSE stream, its last event). Applies to the requests served statelessly, where
    /// nothing else can end a request whose client stays; default 5 minutes there. In a
    /// session (default none) clients cancel with `notifications/cancelled` or DELETE, and
    /// this setting is not used.
    pub fn request_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.request_timeout = Some(timeout);
        self
    }

    /// The time limit of a request served statelessly: [`request_timeout`](Self::request_timeout)
    /// when set, else 5 minutes. (Requests in a session have none.)
    pub fn effective_request_timeout(&self) -> Option<Duration> {
        match self.request_timeout {
            Some(explicit) => explicit,
            None => Some(Duration::from_secs(5 * 60)),
        }
    }

    /// The most connections served at once. When all are taken, a connection whose request
    /// body has not arrived (the one waiting longest) ends to make room (429), else the
    /// connection without a request in progress that has been idle the longest (kept alive,
    /// or silent since it connected) is closed; a request whose body has arrived is never
    /// ended for another client: with none waiting nor idle, further connections wait in the
    /// listen backlog.
    pub fn max_connections(mut self, max: usize) -> Self {
        self.max_connections = max.max(1);
        self
    }

    /// How many connections the system queues before the server accepts them (the `listen`
    /// backlog; Linux caps it at `net.core.somaxconn`).
    pub fn listen_backlog(mut self, connections: u32) -> Self {
        self.listen_backlog = connections.max(1);
        self
    }

    /// The most connections one client address may hold open (IPv6 addresses count per /64,
    /// all loopback addresses as one client). A further one makes room among the client's own
    /// connections: one whose request body has not arrived ends first (429, no id: the body
    /// was not read), else the one idle the longest is closed, else the one
    /// whose request began first ends: a JSON answer not yet begun becomes 429 with
    /// `Retry-After` and a JSON-RPC error ([`ENDED_FOR_SHARE`](super::ENDED_FOR_SHARE))
    /// carrying its id, a stream already flowing is cut (a stateless request is cancelled
    /// with it; a session's handler runs on, as when its client disconnects). So one client
    /// cannot take every connection slot, nor lock its own newer calls out with idle
    /// connections, withheld bodies or long calls and streams: the newest call is served and
    /// the oldest gives way.
    pub fn max_connections_per_peer(mut self, max: usize) -> Self {
        self.max_connections_per_peer = max.max(1);
        self
    }

    /// How long a connection that has sent nothing yet counts as just made rather than idle
    /// (default 1 s, or the [header timeout](Self::header_timeout) when shorter). When room
    /// is made for another connection, one younger than this whose request head may be on
    /// its way (a client connects, then writes) is closed only after every connection that
    /// may give way has been (see [`max_connections_per_peer`](Self::max_connections_per_peer));
    /// once older, a silent connection (such as a slow-loris one) counts as idle and is
    /// closed first. [`HttpServer::bind`](super::HttpServer::bind) refuses zero (every
    /// connection would be idle the moment it is accepted, closed before its head could
    /// arrive) and a grace longer than the header timeout (a silent connection would never
    /// count as idle: it is closed by the header timeout first).
    pub fn fresh_connection_grace(mut self, grace: Duration) -> Self {
        self.fresh_connection_grace = Some(grace);
        self
    }

    /// The grace in force: [`fresh_connection_grace`](Self::fresh_connection_grace) when
    /// set, else 1 s or the header timeout when shorter.
    pub(crate) fn effective_fresh_connection_grace(&self) -> Duration {
        self.fresh_connection_grace
            .unwrap_or(DEFAULT_FRESH_CONNECTION_GRACE.min(self.header_timeout))
    }

    /// The most sessions kept at once.
    pub fn max_sessions(mut self, max: usize) -> Self {
        self.max_sessions = max.max(1);
        self
    }

    /// How long a session may stay unused before it ends.
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle_timeout = timeout;
        self
    }

    /// The most open sessions one client address may hold (IPv6 addresses count per /64, all
    /// loopback addresses as one client). When the table is full, eviction takes from the
    /// client holding the most sessions.
    pub fn max_sessions_per_peer(mut self, max: usize) -> Self {
        self.max_sessions_per_peer = max.max(1);
        self
    }

    /// Stateless mode (MCP 2026-07-28 only): no sessions, every POST is handled by a fresh
    /// handler, `Mcp-Session-Id` is ignored, GET and DELETE get 405. `true` is
    /// [`eras(Eras::Modern)`](Self::eras), `false` [`eras(Eras::Both)`](Self::eras).
    pub fn stateless(mut self, stateless: bool) -> Self {
        self.eras = if stateless { Eras::Modern } else { Eras::Both };
        self
    }

    /// Which eras of MCP the endpoint serves (default [`Eras::Both`]; see [`Eras`]).
    pub fn eras(mut self, eras: Eras) -> Self {
        self.eras = eras;
        self
    }

    /// Frames a handler may queue on one stream before its sends wait for the client.
    pub fn outbound_capacity(mut self, frames: usize) -> Self {
        self.outbound_capacity = frames.max(1);
        self
    }

    /// Makes the SSE streams of sessions resumable, keeping their events in `store` (e.g. a
    /// [`MemoryEventStore`](super::MemoryEventStore)): every event of a POST's stream carries
    /// an id; under 2025-11-25 the stream opens with a priming event (an id, a `retry` of
    /// [`sse_retry`](Self::sse_retry), empty data); a handler may close the connection early
    /// ([`Outbound::close_connection`](super::Outbound::close_connection)); and a GET with
    /// `Last-Event-ID` gets what followed that event on its stream, then the rest of the
    /// stream. An id of another session's stream, or one whose successors were dropped, is
    /// 400. Stateless mode has no resumable streams (MCP 2026-07-28 removed them).
    pub fn event_store(mut self, store: impl super::EventStore) -> Self {
        self.event_store = Some(std::sync::Arc::new(store));
        self
    }

    /// The `retry` (how long a client waits before reconnecting) that a resumable stream's
    /// priming event carries, and that precedes a connection the server closes early.
    pub fn sse_retry(mut self, retry: Duration) -> Self {
        self.sse_retry = retry;
        self
    }

    /// Puts `guard` in front of the endpoint: consulted for every request after the Host and
    /// Origin checks, it lets the request through or answers it (see [`Guard`](super::Guard));
    /// sessions are bound to the caller that opened them.
    pub fn guard(mut self, guard: impl super::Guard) -> Self {
        self.guard = Some(GuardSlot(std::sync::Arc::new(guard)));
        self
    }

    /// Answers `GET /healthz` ([`HEALTH_PATH`](super::HEALTH_PATH)) from `check`: JSON
    /// `{"status":"up"|"down","checks":…}`, 200 when up and 503 when down, for probes on the
    /// same host (the Host allow-list applies; a request with an `Origin` is 403, so no page
    /// reads it).
    pub fn health_check(mut self, check: impl super::HealthCheck) -> Self {
        self.health = Some(std::sync::Arc::new(check));
        self
    }

    /// Starts every session id this server mints with `tag` (two hex digits; the other 120
    /// bits stay random), so that a load balancer in front of several processes routes each
    /// session to the process that holds it by the id's first two digits (an nginx `map` on
    /// `$http_mcp_session_id`: `scripts/cluster/nginx.conf.template`). Give each process its
    /// own tag.
    pub fn session_id_tag(mut self, tag: Option<u8>) -> Self {
        self.session_id_tag = tag;
        self
    }

    /// Trusts `proxy` (an address, or a network such as `10.0.0.0/8`: see
    /// [`TrustedProxy`](super::TrustedProxy)); repeatable. A request whose connection comes
    /// from a trusted proxy counts as coming from the client the proxy names: the rightmost
    /// hop of `Forwarded` (when present) or `X-Forwarded-For` that is not itself a trusted
    /// proxy. That client's address is what the per-client limits count
    /// ([`max_sessions_per_peer`](Self::max_sessions_per_peer)), so the clients behind one
    /// reverse proxy keep their own shares. A connection from any other address is its own
    /// client: the headers of a client that is not a listed proxy are ignored. Connections
    /// from a trusted proxy carry many clients' requests, so they count against
    /// [`max_connections`](Self::max_connections) only, not against
    /// [`max_connections_per_peer`](Self::max_connections_per_peer) (limit connections per
    /// client at the proxy).
    pub fn trusted_proxy(mut self, proxy: impl Into<super::TrustedProxy>) -> Self {
        self.trusted_proxies.push(proxy.into());
        self
    }

    /// Whether a connection from `ip` comes from a [trusted proxy](Self::trusted_proxy).
    pub fn is_trusted_proxy(&self, ip: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|proxy| proxy.contains(ip))
    }

    /// The `MCP-Protocol-Version` header values accepted (default: every MCP version mcpwire
    /// knows); any other value gets 400.
    pub fn protocol_versions<'a>(mut self, versions: impl IntoIterator<Item = &'a str>) -> Self {
        self.protocol_versions = versions.into_iter().map(str::to_owned).collect();
        self
    }

    /// The configured bind address.
    pub fn bind_addr(&self) -> SocketAddr {
        self.bind
    }

    /// The configured endpoint path.
    pub fn endpoint_path(&self) -> &str {
        &self.path
    }
}

/// The guard of a configuration ([`HttpConfig::guard`]), shared by its clones.
#[derive(Clone)]
pub(crate) struct GuardSlot(pub(crate) std::sync::Arc<dyn super::Guard>);

impl std::fmt::Debug for GuardSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Guard")
    }
}
