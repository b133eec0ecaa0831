//! A gate in front of the endpoint, for authorization: consulted for every request after the
//! `Host` and `Origin` checks (so a foreign page or a rebound name is refused before any
//! credential is looked at) and before anything else, whatever the path or method.
//!
//! The transport knows nothing of tokens: a [`Guard`] (such as `mcpwire-server`'s OAuth
//! resource server) either lets the request through, naming the [`Caller`] it identified,
//! or answers it itself (a 401 or 403 challenge, or a document it serves at a path of its
//! own, such as `/.well-known/oauth-protected-resource`). A session opened by a caller is
//! bound to that caller's subject: the same session named by another subject is 404.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use hyper::body::Bytes;
use hyper::{HeaderMap, Method, Response, Uri};

/// The future a [`Guard`] returns.
pub type GuardFuture<'a> = Pin<Box<dyn Future<Output = Gate> + Send + 'a>>;

/// What a [`Guard`] decides about one request.
#[derive(Debug)]
pub enum Gate {
    /// Serve the request; the caller, when one was identified, owns the sessions it opens.
    Pass(Option<Caller>),
    /// Answer the request with this response instead of serving it.
    Answer(Response<Bytes>),
}

/// The identity a [`Guard`] established for a request: a subject the transport binds
/// sessions to, and whatever else the guard knows (for the service to read).
#[derive(Clone)]
pub struct Caller {
    /// Who the caller is (for OAuth, the issuer and the token's `sub`).
    pub subject: String,
    /// The guard's own description of the caller (for OAuth, the token's scopes and claims).
    pub details: Arc<dyn Any + Send + Sync>,
}

impl std::fmt::Debug for Caller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Caller")
            .field("subject", &self.subject)
            .finish_non_exhaustive()
    }
}

/// The JSON-RPC message a POST carries, as far as a [`Guard`] may need it to authorize it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageTarget<'a> {
    /// The method of a single request or notification; `None` for a batch, a response or
    /// an unreadable body.
    pub method: Option<&'a str>,
    /// `params.name` of `tools/call` and `prompts/get`, `params.uri` of `resources/read`.
    pub target: Option<&'a str>,
    /// The body is a batch (whose messages are not looked at one by one).
    pub batch: bool,
}

/// Decides, before the endpoint serves it, whether a request may be served (see the module
/// documentation). Set with [`HttpConfig::guard`](super::HttpConfig::guard).
pub trait Guard: Send + Sync + 'static {
    /// The decision for a request with this method, URI and headers (its body unread).
    fn check<'a>(
        &'a self,
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
    ) -> GuardFuture<'a>;

    /// Once a POST's body is read: whether `caller` (what [`check`](Self::check) let
    /// through) may send this message; `Some` answers it instead (such as a 403 for a tool
    /// that needs a scope the token lacks). Every message passes by default.
    fn authorize(
        &self,
        caller: Option<&Caller>,
        message: MessageTarget<'_>,
    ) -> Option<Response<Bytes>> {
        let _ = (caller, message);
        None
    }
}
