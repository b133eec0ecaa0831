//! The interface between the transport and a user's server: one incoming frame in, the frames
//! it causes out.

use std::future::Future;
use std::net::SocketAddr;

use hyper::body::Bytes;

use super::session_id::SessionId;
use super::{FrameReceiver, FrameSender};
use crate::peer::{ReplyFacts, ReplyFrame};
use crate::service::Closed;
use crate::service::queue;

/// A server behind the Streamable HTTP transport: it opens one [`SessionHandler`] per session
/// (at a successful `initialize`), or one per POST served statelessly.
///
/// ```
/// use mcpwire::http::{HttpService, Outbound, SessionOpening, SessionHandler};
/// use mcpwire::http::Bytes;
///
/// struct Echo;
/// struct EchoSession;
///
/// impl HttpService for Echo {
///     type Handler = EchoSession;
///     fn open(&self, _session: SessionOpening) -> EchoSession {
///         EchoSession
///     }
/// }
///
/// impl SessionHandler for EchoSession {
///     async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
///         // Frames sent before the reply turn the answer into an SSE stream.
///         let _ = outbound.send(r#"{"jsonrpc":"2.0","method":"notifications/message"}"#).await;
///         Some(frame) // a real server answers the request here
///     }
/// }
/// ```
pub trait HttpService: Send + Sync + 'static {
    /// The per-session handler.
    type Handler: SessionHandler;

    /// A handler for a new session (or, in stateless mode, for one POST: the transport drops
    /// it once that POST's answer has been sent or its client has left, so its `Drop` is
    /// where work it started and that must not outlive the client is stopped).
    fn open(&self, session: SessionOpening) -> Self::Handler;

    /// Whether sessions send unsolicited messages: then a GET opens an SSE stream carrying
    /// what the handler sends through [`SessionOpening::unsolicited`]; otherwise GET is 405.
    fn unsolicited_messages(&self) -> bool {
        false
    }

    /// The protocol versions a handler opened for one POST serves, the request stating its
    /// version itself (MCP 2026-07-28 and later: in `_meta` and in `MCP-Protocol-Version`,
    /// without a session). With [`Eras::Both`](super::Eras::Both) (the default), a request
    /// naming one of them, or stating a version in `_meta`, is served so, beside the
    /// sessions; none (the default) leaves the endpoint to sessions only.
    fn stateless_versions(&self) -> &[&str] {
        &[]
    }
}

/// One session's handler. It may be called concurrently for the same session (one call per
/// POST); a handler that needs one call at a time locks its own state, as [`SyncServer`]
/// does.
///
/// [`SyncServer`]: super::SyncServer
pub trait SessionHandler: Send + Sync + 'static {
    /// Handles one POST body (one JSON-RPC message, or a batch where the version has them) and
    /// returns the reply, `None` when nothing must be answered. Messages related to the
    /// request (progress, logging, requests to the client) go through `outbound` before the
    /// reply; sending any makes the answer an SSE stream that ends after the reply. `outbound`
    /// is closed when the client is gone, when it does not accept `text/event-stream`, and
    /// after the reply has been sent.
    fn handle(
        &self,
        frame: Bytes,
        outbound: Outbound,
    ) -> impl Future<Output = Option<Bytes>> + Send;

    /// [`handle`](Self::handle), the reply coming with what it is (one success, one error and
    /// its code, a batch's array; for `initialize`, the version agreed): what the transport
    /// answers with (the status of an error, the session an `initialize` opens). The
    /// adapters of this crate know it from the peer that wrote the reply; the default, for a
    /// handler that returns bytes alone, leaves the transport to read the reply to tell.
    fn handle_reply(
        &self,
        frame: Bytes,
        outbound: Outbound,
    ) -> impl Future<Output = Option<HandlerReply>> + Send {
        async move {
            let reply = self.handle(frame, outbound).await?;
            Some(HandlerReply { reply, facts: None })
        }
    }
}

/// A handler's reply and, when the handler knows it, what the reply is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerReply {
    /// The reply: one JSON-RPC response, or a batch's array.
    pub reply: Bytes,
    /// What the reply is; `None` from a handler that returns bytes alone.
    pub facts: Option<ReplyFacts>,
}

impl From<ReplyFrame> for HandlerReply {
    fn from(frame: ReplyFrame) -> HandlerReply {
        let (bytes, facts) = frame.into_parts();
        HandlerReply {
            reply: Bytes::from(bytes),
            facts: Some(facts),
        }
    }
}

/// A bounded sender of frames to the client: the SSE stream of one POST exchange, or the
/// session's GET stream. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Outbound {
    sender: FrameSender,
    /// Set on the stream of a POST that can be resumed: told to close the connection early.
    pub(crate) close: Option<std::sync::Arc<tokio::sync::Notify>>,
    /// The caller a [`Guard`](super::Guard) identified for the POST this stream answers.
    caller: Option<super::Caller>,
    /// The endpoint's scan of the POST body this stream answers (a single object), handed to
    /// the session so that it does not scan the body again.
    pub(crate) split: Option<Box<crate::split::FrameSplit>>,
}

impl Outbound {
    /// A sender and the receiver the transport drains, holding up to `capacity` frames.
    pub(crate) fn channel(capacity: usize) -> (Outbound, FrameReceiver) {
        let (sender, receiver) = queue::channel(capacity);
        (
            Outbound {
                sender,
                close: None,
                caller: None,
                split: None,
            },
            receiver,
        )
    }

    /// This sender, whose stream's connection [`close_connection`](Self::close_connection)
    /// closes through `close` (a resumable stream).
    pub(crate) fn closable(mut self, close: Option<std::sync::Arc<tokio::sync::Notify>>) -> Self {
        self.close = close;
        self
    }

    /// This sender, answering a POST from `caller`.
    pub(crate) fn answering(mut self, caller: Option<super::Caller>) -> Self {
        self.caller = caller;
        self
    }

    /// This sender, carrying `split`, the endpoint's scan of the body it answers.
    pub(crate) fn reading(mut self, split: Option<Box<crate::split::FrameSplit>>) -> Self {
        self.split = split;
        self
    }

    /// The caller a [`Guard`](super::Guard) identified for the POST this stream answers:
    /// that request's own token, which in a session may be another token of the subject that
    /// opened it (after a step-up, say). `None` without a guard and for the GET stream.
    pub fn caller(&self) -> Option<&super::Caller> {
        self.caller.as_ref()
    }

    /// A sender whose stream is already closed (the client cannot take more than one frame).
    pub(crate) fn closed() -> Outbound {
        Outbound::channel(1).0
    }

    /// Queues one frame (one JSON-RPC message, serialized on one line), waiting while the
    /// stream is full; fails with [`Closed`] when the client can no longer be reached on this
    /// stream.
    pub async fn send(&self, frame: impl Into<Bytes>) -> Result<(), Closed> {
        self.sender.send(frame.into()).await.map_err(|_| Closed)
    }

    /// Closes the client's connection of this stream early without ending the stream (MCP
    /// 2025-11-25 SSE polling): the frames sent before are delivered first; what is sent
    /// from now on is kept in the [`EventStore`](super::EventStore), and the client resumes
    /// with `Last-Event-ID` (a GET) after the `retry` delay. Returns whether the stream is
    /// resumable (an event store is configured and this is a POST's stream of a session);
    /// otherwise nothing happens.
    pub async fn close_connection(&self) -> bool {
        // An empty frame, which no JSON-RPC message is, marks the point among the frames.
        self.close.is_some() && self.sender.send(Bytes::new()).await.is_ok()
    }

    /// Whether the stream is closed (sends would fail).
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// Completes when the stream closes.
    pub(crate) async fn until_closed(&self) {
        self.sender.closed().await
    }
}

/// What opening a session tells the [`HttpService`]'s new handler: who opened it (address,
/// [`Caller`](super::Caller)), the session's id, where its unsolicited messages go, and in
/// stateless mode the one POST's headers.
#[derive(Debug)]
pub struct SessionOpening {
    pub(crate) peer: SocketAddr,
    pub(crate) id: Option<SessionId>,
    pub(crate) unsolicited: Option<Outbound>,
    /// Changes (its sender is dropped) when the session ends: deleted, evicted or expired.
    /// `None` in stateless mode, where the end of the one POST is the handler's drop.
    pub(crate) ended: Option<tokio::sync::watch::Receiver<()>>,
    /// In stateless mode, the headers of the one POST the handler serves.
    pub(crate) request_headers: Option<hyper::HeaderMap>,
    /// The caller a [`Guard`](super::Guard) identified for the request that opened it.
    pub(crate) caller: Option<super::Caller>,
}

impl SessionOpening {
    /// The address of the client that opened the session.
    pub fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// The caller a [`Guard`](super::Guard) identified for the request that opened the session
    /// (in stateless mode, for the one POST); `None` without a guard. Every later request of
    /// the session comes from the same subject (another one's is refused 404).
    pub fn caller(&self) -> Option<&super::Caller> {
        self.caller.as_ref()
    }

    /// The session's id, `None` in stateless mode.
    pub fn session_id(&self) -> Option<&SessionId> {
        self.id.as_ref()
    }

    /// In stateless mode, where a handler serves one POST: that request's headers (MCP
    /// 2026-07-28 mirrors tool parameters in `Mcp-Param-*` headers). `None` for a session.
    pub fn request_headers(&self) -> Option<&hyper::HeaderMap> {
        self.request_headers.as_ref()
    }

    /// Whether the handler serves one POST statelessly (the request's headers are known),
    /// rather than a session.
    pub(crate) fn is_one_shot(&self) -> bool {
        self.request_headers.is_some()
    }

    /// The sender of unsolicited messages (delivered on the session's GET stream; queued up to
    /// the outbound capacity while no stream is open). `None` in stateless mode and when the
    /// service does not offer unsolicited messages.
    pub fn unsolicited(&self) -> Option<Outbound> {
        self.unsolicited.clone()
    }
}
