//! The endpoint as a `tower::Service<http::Request<B>>` ([`McpEndpoint`]), to mount in any
//! tower or axum application beside other routes and under its layers (tracing,
//! authentication). [`HttpServer`](super::HttpServer) stays the ready runner: it adds what
//! only the owner of the sockets can do (connection caps and shares, header, idle and write
//! timeouts, the response budget, a graceful shutdown); the endpoint's own rules (Host and
//! Origin checks, CORS, body limits and budget, sessions and their per-client share, trusted
//! proxies, stateless mode) hold the same under either.

use std::convert::Infallible;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes};
use hyper::{Request, Response};

use super::config::HttpConfig;
use super::endpoint::Endpoint;
use super::handler::HttpService;
use super::response::ResponseBody;

/// The address of the client that sent a request, as a request extension: what
/// [`McpEndpoint`] counts per-client limits by. Insert it (or a plain [`SocketAddr`]) from
/// the connection; with axum, `Router::into_make_service_with_connect_info::<SocketAddr>()`
/// gives `ConnectInfo<SocketAddr>`, which a one-line middleware copies into this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// The MCP endpoint as a [`tower_service::Service`]: every request to
/// [`HttpConfig::path`] is answered as [`HttpServer`](super::HttpServer) answers it, and
/// any other path 404 (mount it at its path). Cheap to clone; clones share the sessions.
///
/// The client's address comes from the request's extensions ([`PeerAddr`], else a
/// [`SocketAddr`]); without either, every request counts as one unknown client
/// (`0.0.0.0`) for the per-client session share. Expired sessions are swept by a task
/// started with the first request, on the runtime that serves it, and ended when the last
/// clone is dropped.
pub struct McpEndpoint<S: HttpService> {
    endpoint: Arc<Endpoint<S>>,
    sweeper: Arc<Sweeper>,
}

impl<S: HttpService> Clone for McpEndpoint<S> {
    fn clone(&self) -> Self {
        Self {
            endpoint: Arc::clone(&self.endpoint),
            sweeper: Arc::clone(&self.sweeper),
        }
    }
}

impl<S: HttpService> std::fmt::Debug for McpEndpoint<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpEndpoint")
            .field("path", &self.endpoint.config.path)
            .finish_non_exhaustive()
    }
}

/// The task sweeping expired sessions, aborted when the last clone goes.
#[derive(Default)]
struct Sweeper(Mutex<Option<tokio::task::JoinHandle<()>>>);

impl Drop for Sweeper {
    fn drop(&mut self) {
        let task = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(task) = task {
            task.abort();
        }
    }
}

impl<S: HttpService> McpEndpoint<S> {
    /// The endpoint of `service` with `config` (its bind address and connection settings
    /// are for [`HttpServer`](super::HttpServer) and unused here).
    pub fn new(config: HttpConfig, service: S) -> Self {
        Self {
            endpoint: Arc::new(Endpoint::new(config, service)),
            sweeper: Arc::default(),
        }
    }

    /// The path the endpoint answers.
    pub fn path(&self) -> &str {
        &self.endpoint.config.path
    }

    fn start_sweeping(&self) {
        let mut task = self
            .sweeper
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if task.is_none() {
            let endpoint = Arc::clone(&self.endpoint);
            *task = Some(tokio::spawn(async move { endpoint.sweep_sessions().await }));
        }
    }
}

/// The client a request names in its extensions.
fn peer_of<B>(request: &Request<B>) -> SocketAddr {
    let extensions = request.extensions();
    extensions
        .get::<PeerAddr>()
        .map(|peer| peer.0)
        .or_else(|| extensions.get::<SocketAddr>().copied())
        .unwrap_or(SocketAddr::new(Ipv4Addr::UNSPECIFIED.into(), 0))
}

impl<S, B> tower_service::Service<Request<B>> for McpEndpoint<S>
where
    S: HttpService,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Display,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        self.start_sweeping();
        let endpoint = Arc::clone(&self.endpoint);
        let peer = peer_of(&request);
        // Split here, so that the future holds the head once (see `Endpoint::respond`).
        let (mut head, body) = request.into_parts();
        // No `RequestState`: only the listener's connection limits read one.
        Box::pin(async move { Ok(endpoint.respond(&mut head, body, &peer, None).await) })
    }
}
