//! The adapter that puts a synchronous [`Server`](crate::Server) behind the transport: a thin
//! wrapper of the async one ([`AsyncSession`]), which does the work.

use super::handler::{HttpService, SessionOpening};
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

impl<F, S> HttpService for SyncServer<F>
where
    F: Fn() -> Server<S> + Send + Sync + 'static,
    S: Send + Sync + 'static,
{
    type Handler = AsyncSession<S>;

    fn open(&self, opening: SessionOpening) -> AsyncSession<S> {
        AsyncSession::open((self.make)().into_session(), &opening, true)
    }
}
