//! The adapter that puts a synchronous [`Server`](crate::Server) behind the transport.

use std::sync::Arc;

use hyper::body::Bytes;
use tokio::sync::Mutex;

use super::handler::{HandlerReply, HttpService, Outbound, SessionContext, SessionHandler};
use crate::server::Server;

/// Serves a synchronous [`Server`] per session: `make` builds one for every new session (or
/// every POST in stateless mode). Frames run on tokio's blocking pool, one at a time per
/// session (a per-session lock, waited for without holding a thread), so a long frame of one
/// session never delays another session.
///
/// ```
/// use mcpwire::http::SyncServer;
/// use mcpwire::{CallContext, Profile, Router, RpcError, Server};
///
/// let service = SyncServer::new(|| {
///     let router = Router::new()
///         .request("ping", |_: &(), _: (), _: &mut CallContext<'_>| Ok::<_, RpcError>(serde_json::json!({})));
///     Server::new(Profile::latest_mcp(), (), router)
/// });
/// # let _ = service;
/// ```
pub struct SyncServer<F> {
    make: F,
}

impl<F> SyncServer<F> {
    /// The adapter for servers built by `make`.
    pub fn new(make: F) -> Self {
        SyncServer { make }
    }
}

impl<F> std::fmt::Debug for SyncServer<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SyncServer")
    }
}

/// One session of a [`SyncServer`]: its server behind an asynchronous lock.
pub struct SyncSession<S> {
    server: Arc<Mutex<Server<S>>>,
}

impl<S> std::fmt::Debug for SyncSession<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SyncSession")
    }
}

impl<F, S> HttpService for SyncServer<F>
where
    F: Fn() -> Server<S> + Send + Sync + 'static,
    S: Send + 'static,
{
    type Handler = SyncSession<S>;

    fn open(&self, _session: SessionContext) -> SyncSession<S> {
        SyncSession {
            server: Arc::new(Mutex::new((self.make)())),
        }
    }
}

impl<S: Send + 'static> SessionHandler for SyncSession<S> {
    async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
        self.handle_reply(frame, outbound)
            .await
            .map(|answer| answer.reply)
    }

    async fn handle_reply(&self, frame: Bytes, outbound: Outbound) -> Option<HandlerReply> {
        // The transport's scan of the body, so the server does not scan it again.
        let split = outbound.split;
        // Queued frames of a busy session wait here, on no thread of the blocking pool.
        let mut server = Arc::clone(&self.server).lock_owned().await;
        let work =
            tokio::task::spawn_blocking(move || server.handle_split(&frame, split.as_deref()));
        // `Server::handle_frame` catches handler panics itself; a failed join leaves no reply.
        work.await.ok().flatten().map(HandlerReply::from)
    }
}
