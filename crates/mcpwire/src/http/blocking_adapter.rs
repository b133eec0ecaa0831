//! The adapter that puts a synchronous [`Server`](crate::Server) behind the transport: a thin
//! wrapper of the async one ([`AsyncSession`]), which does the work.

use hyper::body::Bytes;
use tokio::sync::Mutex;

use super::handler::{HandlerReply, HttpService, Outbound, SessionContext, SessionHandler};
use super::session_adapter::AsyncSession;
use crate::server::Server;

/// Serves a synchronous [`Server`] per session: `make` builds one for every new session (or
/// every POST in stateless mode). Each server becomes the async
/// [`Session`](crate::service::Session) of an [`AsyncSession`]
/// ([`Server::into_session`]), which reads its frames on tokio's blocking pool, one at a
/// time per session (a per-session lock, waited for without holding a thread), so a long
/// frame of one session never delays another session. The replies are the bytes
/// [`Server::handle_frame`] gives for the same frames.
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

/// One session of a [`SyncServer`]: its server's [`AsyncSession`], one body at a time.
pub struct SyncSession<S> {
    inner: AsyncSession<S>,
    /// Held while a body is read: the bodies of one session run in turn, as
    /// [`Server::handle_frame`] takes them.
    turn: Mutex<()>,
}

impl<S> std::fmt::Debug for SyncSession<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SyncSession")
    }
}

impl<F, S> HttpService for SyncServer<F>
where
    F: Fn() -> Server<S> + Send + Sync + 'static,
    S: Send + Sync + 'static,
{
    type Handler = SyncSession<S>;

    fn open(&self, context: SessionContext) -> SyncSession<S> {
        SyncSession {
            inner: AsyncSession::open((self.make)().into_session(), &context, true),
            turn: Mutex::new(()),
        }
    }
}

impl<S: Send + Sync + 'static> SessionHandler for SyncSession<S> {
    async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
        self.handle_reply(frame, outbound)
            .await
            .map(|answer| answer.reply)
    }

    async fn handle_reply(&self, frame: Bytes, outbound: Outbound) -> Option<HandlerReply> {
        // Queued bodies of a busy session wait here, on no thread of the blocking pool.
        let _turn = self.turn.lock().await;
        self.inner.handle_reply(frame, outbound).await
    }
}
