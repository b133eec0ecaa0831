//! `mcpwire serve --http ADDR`: the reference server behind [`mcpwire::http`].
//!
//! Under an MCP profile every session (opened by a successful `initialize`) is a session of
//! the MCP reference server ([`reference::mcp_server`]) with its negotiated version; under
//! `jsonrpc-2.0` it is the specification's examples ([`reference::spec_server`]). Under the
//! newest MCP profile (the default) one endpoint serves both eras: `initialize` opens a
//! session, a request stating MCP 2026-07-28 is served statelessly; `--stateless` serves
//! only the latter. `jsonrpc-2.0`, without `initialize`, is served statelessly: every POST
//! meets a fresh server and no session is needed.
//! The transport's behaviour and limits are documented in [`mcpwire::http`].

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use mcpwire::Profile;
use mcpwire::http::{HttpConfig, HttpServer, SyncServer, TrustedProxy};

mod auth;
mod cluster;

pub use auth::AuthArgs;

use crate::reference;

/// The operator's settings of `mcpwire serve --http` (defaults: [`HttpConfig`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HttpArgs {
    /// Allow listening on a non-loopback address (e.g. 0.0.0.0); prints a warning. Add the
    /// names clients use with --allowed-host.
    #[arg(long)]
    pub allow_remote: bool,
    /// The endpoint path; every other path is 404. Default: /mcp.
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// Also serve requests whose Host header names HOST (`host` or `host:port`); repeatable.
    /// localhost, 127.0.0.1 and ::1 (the IPv6 loopback) are always allowed.
    #[arg(long = "allowed-host", value_name = "HOST")]
    pub allowed_hosts: Vec<String>,
    /// Also serve browsers on ORIGIN (`scheme://host[:port]`, or a bare host); repeatable.
    /// Loopback origins are always allowed; other origins get 403.
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    pub allowed_origins: Vec<String>,
    /// Largest request body in bytes (413 beyond). Default: --max-frame-bytes when given,
    /// else 4 MiB.
    #[arg(long, value_name = "BYTES")]
    pub max_body_bytes: Option<usize>,
    /// Request-body bytes held at once over all connections (503 beyond). Default: 64 MiB.
    #[arg(long, value_name = "BYTES")]
    pub body_budget_bytes: Option<usize>,
    /// Seconds a client may take to send a request head. Default: 10.
    #[arg(long, value_name = "SECS")]
    pub header_timeout: Option<u64>,
    /// Seconds a client may take to send a request body (408 after). Default: 30.
    #[arg(long, value_name = "SECS")]
    pub body_timeout: Option<u64>,
    /// Slowest rate, in bytes per second, at which a request body may arrive after a grace of
    /// 5 s (408 below it; 0: off). Default: 1024.
    #[arg(long, value_name = "BYTES")]
    pub min_body_rate: Option<u64>,
    /// Seconds a kept-alive connection may stay idle. Default: 60.
    #[arg(long, value_name = "SECS")]
    pub idle_timeout: Option<u64>,
    /// Seconds a client may read nothing of its answer before its connection closes.
    /// Default: 30.
    #[arg(long, value_name = "SECS")]
    pub write_timeout: Option<u64>,
    /// Slowest rate, in bytes per second, at which a client behind on its answer may read it
    /// (judged over at least the write timeout; 0: off). Default: 1024.
    #[arg(long, value_name = "BYTES")]
    pub min_write_rate: Option<u64>,
    /// Bytes of answers not yet read by their clients, all connections together (a JSON
    /// answer beyond it is 503). Default: 64 MiB.
    #[arg(long, value_name = "BYTES")]
    pub response_budget_bytes: Option<usize>,
    /// Seconds a stateless request may take before it is cancelled (0: no limit; not used
    /// with sessions). Default: 300.
    #[arg(long, value_name = "SECS")]
    pub request_timeout: Option<u64>,
    /// Most connections served at once; at the cap the longest idle one is closed. Default:
    /// 256.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Most open connections per client address (IPv6: per /64; loopback is one client);
    /// 429 beyond. Default: 64.
    #[arg(long, value_name = "N")]
    pub max_connections_per_peer: Option<usize>,
    /// Milliseconds during which a connection that has sent nothing yet is not taken for an
    /// idle one when room is made (its request head may be on its way); at most the header
    /// timeout. Default: 1000.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub fresh_connection_grace_ms: Option<u64>,
    /// Connections the system queues before they are accepted. Default: 1024.
    #[arg(long, value_name = "N")]
    pub listen_backlog: Option<u32>,
    /// Most sessions kept at once. Default: 1024.
    #[arg(long, value_name = "N")]
    pub max_sessions: Option<usize>,
    /// Most open sessions per client address. Default: 64.
    #[arg(long, value_name = "N")]
    pub max_sessions_per_peer: Option<usize>,
    /// Seconds an unused session lives. Default: 1800.
    #[arg(long, value_name = "SECS")]
    pub session_idle_timeout: Option<u64>,
    /// Trust ADDR (an address, or a network such as 10.0.0.0/8) as a reverse proxy;
    /// repeatable. A request from it counts as from the client its Forwarded /
    /// X-Forwarded-For header names (the rightmost hop that is not a trusted proxy); the
    /// headers of any other client are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<TrustedProxy>,
    /// Serve MCP 2026-07-28 only: every POST on its own, no sessions (`initialize` is 404,
    /// GET and DELETE 405). Without it, `initialize` clients (2025-11-25 and earlier) get
    /// sessions on the same endpoint.
    #[arg(long)]
    pub stateless: bool,
    /// Seconds that the requests in progress get to finish after SIGTERM or Ctrl-C (new
    /// connections are refused at once); then the server exits. Default: 10.
    #[arg(long, value_name = "SECS")]
    pub shutdown_grace: Option<u64>,
    #[command(flatten)]
    pub cluster: cluster::ClusterArgs,
    #[command(flatten)]
    pub auth: AuthArgs,
}

/// The default of `--shutdown-grace`.
const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

impl HttpArgs {
    /// How long the requests in progress get to finish after SIGTERM or Ctrl-C.
    pub fn shutdown_grace(&self) -> Duration {
        self.shutdown_grace
            .map_or(DEFAULT_SHUTDOWN_GRACE, Duration::from_secs)
    }

    /// The transport settings for serving `profile` on `addr`.
    pub fn config(&self, profile: &Profile, addr: SocketAddr) -> HttpConfig {
        let mut config = HttpConfig::default()
            .bind(addr)
            .allow_remote(self.allow_remote)
            .stateless(self.stateless || !reference::is_mcp(profile))
            .max_batch_len(profile.limits().max_batch_len);
        for host in &self.allowed_hosts {
            config = config.allowed_host(host);
        }
        for origin in &self.allowed_origins {
            config = config.allowed_origin(origin);
        }
        for proxy in &self.trusted_proxies {
            config = config.trusted_proxy(*proxy);
        }
        let secs = Duration::from_secs;
        if let Some(path) = &self.path {
            config = config.path(path.clone());
        }
        if let Some(bytes) = self.max_body_bytes {
            config = config.max_body_bytes(bytes);
        }
        if let Some(bytes) = self.body_budget_bytes {
            config = config.body_budget_bytes(bytes);
        }
        if let Some(s) = self.header_timeout {
            config = config.header_timeout(secs(s));
        }
        if let Some(s) = self.body_timeout {
            config = config.body_timeout(secs(s));
        }
        if let Some(rate) = self.min_body_rate {
            config = config.min_body_rate(rate);
        }
        if let Some(s) = self.idle_timeout {
            config = config.idle_timeout(secs(s));
        }
        if let Some(s) = self.write_timeout {
            config = config.write_timeout(secs(s));
        }
        if let Some(rate) = self.min_write_rate {
            config = config.min_write_rate(rate);
        }
        if let Some(bytes) = self.response_budget_bytes {
            config = config.response_budget_bytes(bytes);
        }
        if let Some(s) = self.request_timeout {
            config = config.request_timeout((s > 0).then(|| secs(s)));
        }
        if let Some(n) = self.max_connections {
            config = config.max_connections(n);
        }
        if let Some(n) = self.max_connections_per_peer {
            config = config.max_connections_per_peer(n);
        }
        if let Some(ms) = self.fresh_connection_grace_ms {
            config = config.fresh_connection_grace(Duration::from_millis(ms));
        }
        if let Some(n) = self.listen_backlog {
            config = config.listen_backlog(n);
        }
        if let Some(n) = self.max_sessions {
            config = config.max_sessions(n);
        }
        if let Some(n) = self.max_sessions_per_peer {
            config = config.max_sessions_per_peer(n);
        }
        if let Some(s) = self.session_idle_timeout {
            config = config.session_idle_timeout(secs(s));
        }
        config.session_id_tag(self.cluster.session_id_tag)
    }
}

/// Serves the reference server starting with `profile` on `addr` with default settings (see
/// [`serve_with`]).
pub fn serve(profile: Profile, addr: &str) -> io::Result<()> {
    serve_with(profile, addr, &HttpArgs::default())
}

/// Serves the reference server starting with `profile` on `addr` until SIGTERM or Ctrl-C
/// (then the requests in progress finish, within `--shutdown-grace`), printing `mcpwire
/// serve: listening on http://ADDR/PATH` on stderr once bound.
pub fn serve_with(profile: Profile, addr: &str, args: &HttpArgs) -> io::Result<()> {
    let addr = addr.to_socket_addrs()?.next().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{addr} names no address"),
        )
    })?;
    let config = args.auth.apply(args.config(&profile, addr))?;
    if !addr.ip().is_loopback() && args.allow_remote && !args.auth.enabled() {
        eprintln!(
            "mcpwire serve: warning: the MCP endpoint listens on {addr}, reachable from the \
             network; only the allowed hosts and origins are served, and there is no \
             authentication"
        );
    }
    if let Some(url) = args.cluster.redis_url() {
        return cluster::serve(profile, config, &url, args);
    }
    if reference::is_mcp(&profile) {
        let server = reference::mcp_server(profile).http_server(config)?;
        eprintln!("mcpwire serve: listening on {}", server.url());
        return server.run_blocking_graceful(args.shutdown_grace());
    }
    let service = SyncServer::new(move || reference::spec_server(profile.clone()));
    let server = HttpServer::bind(config, service)?;
    eprintln!("mcpwire serve: listening on {}", server.url());
    server.run_blocking_graceful(args.shutdown_grace())
}
