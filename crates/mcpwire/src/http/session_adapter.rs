//! The adapter that puts an async [`Session`](crate::service::Session) behind the transport.

use hyper::body::Bytes;
use tokio::sync::{oneshot, watch};

use super::handler::{HandlerReply, HttpService, Outbound, SessionHandler, SessionOpening};
use crate::peer::ReplyFrame;
use crate::service::{Handlers, Outgoing, Session, Sink, SinkReceiver};

/// Messages of one POST queued between the session's handlers and the exchange.
const FRAME_SINK_CAPACITY: usize = 16;

/// Serves an async [`Session`] per HTTP session: `make` builds one for every new session (or
/// every POST in stateless mode), with its router, state and options.
///
/// - Each POST body goes to [`Session::receive`] with a sink of its own. What the body's
///   handlers send before the reply (progress, logging, requests to the client such as
///   `elicitation/create`) streams out as SSE events; the reply ends the stream. A body with
///   requests waits for its reply — one response, or one array for a batch — or, when every
///   request of it was cancelled, for its handlers to end (202, or the end of the stream).
/// - A body of notifications and responses only (the client's answer to a request sent over
///   an SSE stream, say) is delivered and answered 202 at once; what its notification handlers
///   send goes to the GET stream, as does whatever a POST's handlers send after its reply.
/// - What the session sends on its own ([`Session::handle`]) goes to the session's GET stream
///   (none in stateless mode: such sends fail with [`Closed`](crate::service::Closed)).
/// - When the HTTP session ends (DELETE, eviction, expiry, or an `initialize` that fails; in
///   stateless mode, once the POST is answered or its client has hung up, when the transport
///   drops the POST's handler) the service session is closed: the handlers in flight see their
///   [`CancellationToken`](crate::service::CancellationToken) fire, requests they are waiting
///   on fail with [`RequestError::Closed`](crate::service::RequestError::Closed). A stateless
///   POST's request handlers run inside its exchange, not on tasks of their own; dropped
///   first, they get a short grace to see that cancellation, and are then dropped.
///
/// ```
/// use std::sync::Arc;
/// use mcpwire::http::AsyncServer;
/// use mcpwire::service::{AsyncCallContext, Session};
/// use mcpwire::{Profile, Router, RpcError};
///
/// let service = AsyncServer::new(|| {
///     let router = Router::<()>::new()
///         .request_async("ping", |_: Arc<()>, _: (), _: AsyncCallContext| async {
///             Ok::<_, RpcError>(serde_json::json!({}))
///         });
///     Session::new(Profile::latest_mcp(), (), router)
/// });
/// # let _ = service;
/// ```
pub struct AsyncServer<F> {
    make: F,
}

impl<F> AsyncServer<F> {
    /// The adapter for sessions built by `make`.
    pub fn new(make: F) -> Self {
        AsyncServer { make }
    }
}

impl<F> std::fmt::Debug for AsyncServer<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AsyncServer")
    }
}

/// One HTTP session of an [`AsyncServer`] or a [`SyncServer`](super::SyncServer): its
/// service [`Session`].
pub struct AsyncSession<S> {
    session: Session<S>,
    /// Serving one POST statelessly: the transport drops this handler once that POST's
    /// answer has been sent or its client has left, and the service session ends then.
    one_shot: bool,
    /// Set for a [`SyncServer`](super::SyncServer), whose handlers may block: held while a
    /// body is read, on tokio's blocking pool and to its end (the synchronous handlers it
    /// calls run in place), so that the bodies of the session are taken in turn, as
    /// [`Server::handle_frame`](crate::Server::handle_frame) takes frames. Queued bodies wait
    /// here, on no thread of the blocking pool.
    turn: Option<tokio::sync::Mutex<()>>,
}

impl<S> Drop for AsyncSession<S> {
    fn drop(&mut self) {
        if self.one_shot {
            self.session.end_now();
        }
    }
}

impl<S> std::fmt::Debug for AsyncSession<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AsyncSession")
    }
}

impl<S> AsyncSession<S> {
    /// The service session behind this HTTP session.
    pub fn session(&self) -> &Session<S> {
        &self.session
    }
}

impl<S: Send + Sync + 'static> AsyncSession<S> {
    /// Puts `session` behind the transport for the HTTP session `opening` describes
    /// (`blocking`: bodies read in turn, on the blocking pool, see [`AsyncSession::turn`]).
    pub(crate) fn open(session: Session<S>, opening: &SessionOpening, blocking: bool) -> Self {
        // Without a GET stream the receiver is dropped: session-wide sends fail at once.
        if let (Some(lines), Some(stream)) = (session.take_unsolicited(), opening.unsolicited()) {
            tokio::spawn(forward(lines, stream));
        }
        // A session's end is signalled; a stateless POST's is this handler's drop.
        let one_shot = opening.is_one_shot();
        if let Some(ended) = opening.ended.clone() {
            tokio::spawn(close_when_ended(session.clone(), ended));
        }
        AsyncSession {
            session,
            one_shot,
            turn: blocking.then(|| tokio::sync::Mutex::new(())),
        }
    }

    /// One exchange (a stateless POST, async handlers): the body is read on this task,
    /// beside the wait for its reply, and read whole before this returns (every handler of
    /// a batch started); all of it is dropped with the exchange when the client leaves.
    async fn one_exchange(&self, frame: Bytes, mut outbound: Outbound) -> Option<HandlerReply> {
        let (sink, mut items, attached, split) = body_sink(&mut outbound);
        let (read, has_request) = oneshot::channel();
        let note = |has_request| {
            let _ = read.send(has_request);
        };
        let receive = self.session.receive_noting(
            &frame,
            split.as_deref(),
            &sink,
            attached,
            note,
            Handlers::InPlace,
        );
        let collect = async {
            if has_request.await.unwrap_or(false) {
                next_reply(&mut items, &outbound).await
            } else {
                None
            }
        };
        let ((), reply) = tokio::join!(receive, collect);
        // Without a request, a reply (to invalid input) was queued before `receive`
        // returned; what notification handlers send has no stream to go to.
        let reply = reply.or_else(|| {
            std::iter::from_fn(|| items.try_recv().ok()).find_map(|item| match item {
                Outgoing::Reply(bytes) => Some(*bytes),
                Outgoing::Message(_) => None,
            })
        });
        reply.map(HandlerReply::from)
    }
}

impl<F, S> HttpService for AsyncServer<F>
where
    F: Fn() -> Session<S> + Send + Sync + 'static,
    S: Send + Sync + 'static,
{
    type Handler = AsyncSession<S>;

    fn open(&self, opening: SessionOpening) -> AsyncSession<S> {
        AsyncSession::open((self.make)(), &opening, false)
    }

    fn unsolicited_messages(&self) -> bool {
        true
    }
}

impl<S: Send + Sync + 'static> SessionHandler for AsyncSession<S> {
    async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
        self.handle_reply(frame, outbound)
            .await
            .map(|answer| answer.reply)
    }

    async fn handle_reply(&self, frame: Bytes, mut outbound: Outbound) -> Option<HandlerReply> {
        if self.one_shot && self.turn.is_none() {
            // Boxed: its state must not size the future of every POST in a session.
            return Box::pin(self.one_exchange(frame, outbound)).await;
        }
        let turn = match &self.turn {
            Some(turn) => Some(turn.lock().await),
            None => None,
        };
        let (sink, mut items, attached, split) = body_sink(&mut outbound);
        let (read, has_request) = oneshot::channel();
        // On a task of its own: the batch's reply may come before its last notification has
        // started, and returning here must not stop the rest of the batch.
        let session = self.session.clone();
        let receive = async move {
            let note = |has_request| {
                let _ = read.send(has_request);
            };
            session
                .receive_noting(
                    &frame,
                    split.as_deref(),
                    &sink,
                    attached,
                    note,
                    Handlers::Spawned,
                )
                .await
        };
        let mut receiving = if turn.is_some() {
            // Synchronous handlers may block: they run on a thread of the blocking pool,
            // never on one of the runtime's workers.
            let runtime = tokio::runtime::Handle::current();
            tokio::task::spawn_blocking(move || runtime.block_on(receive))
        } else {
            tokio::spawn(receive)
        };
        // Known as soon as the session has read the body, before any handler starts.
        let reply = if has_request.await.unwrap_or(false) {
            let reply = next_reply(&mut items, &outbound).await;
            if turn.is_some() {
                // The whole body is read (a profile switch applied) before the next one.
                let _ = (&mut receiving).await;
            }
            reply
        } else {
            // Any reply (to invalid input) is sent before `receive` returns; notification
            // handlers' messages meanwhile go to the GET stream (not tied to an answer).
            let to_session = self.session.session_sink();
            let mut reply = None;
            loop {
                tokio::select! {
                    _ = &mut receiving => break,
                    item = items.recv() => match item {
                        Some(Outgoing::Reply(bytes)) => reply = Some(*bytes),
                        Some(message) if message.bytes().is_empty() => {}
                        Some(message) => { let _ = to_session.send(message).await; }
                        None => break,
                    },
                }
            }
            while let Ok(item) = items.try_recv() {
                match item {
                    Outgoing::Reply(bytes) => reply = Some(*bytes),
                    message if message.bytes().is_empty() => {}
                    message => {
                        let _ = to_session.send(message).await;
                    }
                }
            }
            reply
        };
        // What the body's handlers send after its answer is not tied to the answer any more:
        // it goes to the GET stream; a stateless POST has none, so it is dropped (sends fail).
        if !self.one_shot {
            tokio::spawn(forward_to_session(items, self.session.session_sink()));
        }
        reply.map(HandlerReply::from)
    }
}

/// What the session's read of one POST body is given: the sink its handlers' output goes to
/// (closable when the POST's stream can be closed early) and that sink's receiver; the
/// POST's own caller, for the handlers of its calls (`CallContext::attachment`); and the
/// transport's scan of the body, so that the session does not scan it again.
fn body_sink(
    outbound: &mut Outbound,
) -> (
    Sink,
    SinkReceiver,
    Option<crate::service::Attachment>,
    Option<Box<crate::split::FrameSplit>>,
) {
    let (sink, items) = Sink::channel(FRAME_SINK_CAPACITY);
    let sink = sink.closable(outbound.close.is_some());
    let attached = outbound
        .caller()
        .map(|caller| std::sync::Arc::new(caller.clone()) as crate::service::Attachment);
    (sink, items, attached, outbound.split.take())
}

/// The body's reply; the messages before it go to the client's stream of this POST (lost when
/// the client left or takes no stream). `None` when the body's handlers ended without one.
async fn next_reply(items: &mut SinkReceiver, outbound: &Outbound) -> Option<ReplyFrame> {
    while let Some(item) = items.recv().await {
        match item {
            Outgoing::Reply(bytes) => return Some(*bytes),
            Outgoing::Message(bytes) => {
                let _ = outbound.send(bytes).await;
            }
        }
    }
    None
}

/// Feeds the session's GET stream until the session or the stream ends.
async fn forward(mut items: SinkReceiver, stream: Outbound) {
    loop {
        tokio::select! {
            item = items.recv() => match item {
                Some(item) => {
                    if stream.send(item.into_bytes()).await.is_err() {
                        return;
                    }
                }
                None => return,
            },
            () = stream.until_closed() => return,
        }
    }
}

/// Moves a body's late messages to the session-wide sink (so to the GET stream).
async fn forward_to_session(mut items: SinkReceiver, session: Sink) {
    while let Some(item) = items.recv().await {
        if item.bytes().is_empty() {
            continue; // a request to close the POST's connection, answered already
        }
        if session.send(item).await.is_err() {
            return;
        }
    }
}

/// Closes the service session once the HTTP session has ended: it stops taking frames, its
/// handlers are cancelled and the requests they wait on fail.
async fn close_when_ended<S: Send + Sync + 'static>(
    session: Session<S>,
    mut ended: watch::Receiver<()>,
) {
    // Nothing is ever sent: `changed` fails once the sender is dropped with the session.
    while ended.changed().await.is_ok() {}
    session.close();
    session.cancel_in_flight();
    session.finish().await;
}
