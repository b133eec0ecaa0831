//! The adapter that puts an async [`Session`](crate::service::Session) behind the transport.

use hyper::body::Bytes;
use tokio::sync::watch;

use super::service::{HttpService, Outbound, SessionContext, SessionHandler};
use crate::decode::{Decoded, Message, decode};
use crate::profile::Profile;
use crate::service::{self, OutboundReceiver, Session};

/// Lines of one POST queued between the session's handlers and the exchange.
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
///   (none in stateless mode: such sends fail with [`service::Closed`]).
/// - When the HTTP session ends (DELETE, eviction, expiry, or an `initialize` that fails) the
///   service session is closed: the handlers in flight see their
///   [`CancellationToken`](crate::service::CancellationToken) fire, requests they are waiting
///   on fail with [`RequestError::Closed`](crate::service::RequestError::Closed).
///
/// ```
/// use std::sync::Arc;
/// use mcpwire::http::AsyncServer;
/// use mcpwire::service::{AsyncRouter, RequestContext, Session};
/// use mcpwire::{Profile, RpcError};
///
/// let service = AsyncServer::new(|| {
///     let router = AsyncRouter::<()>::new()
///         .request("ping", |_: Arc<()>, _: (), _: RequestContext| async {
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

/// One HTTP session of an [`AsyncServer`]: its service [`Session`].
pub struct AsyncSession<S> {
    session: Session<S>,
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

impl<F, S> HttpService for AsyncServer<F>
where
    F: Fn() -> Session<S> + Send + Sync + 'static,
    S: Send + Sync + 'static,
{
    type Handler = AsyncSession<S>;

    fn open(&self, context: SessionContext) -> AsyncSession<S> {
        let session = (self.make)();
        // Without a GET stream the receiver is dropped: session-wide sends fail at once.
        if let (Some(lines), Some(stream)) = (session.take_unsolicited(), context.unsolicited()) {
            tokio::spawn(forward(lines, stream));
        }
        if let Some(ended) = context.ended.clone() {
            tokio::spawn(close_when_ended(session.clone(), ended));
        }
        AsyncSession { session }
    }

    fn unsolicited_messages(&self) -> bool {
        true
    }
}

impl<S: Send + Sync + 'static> SessionHandler for AsyncSession<S> {
    async fn handle(&self, frame: Bytes, outbound: Outbound) -> Option<Bytes> {
        let expects_reply = has_request(&frame, &self.session.profile());
        let (sink, mut lines) = service::Outbound::channel(FRAME_SINK_CAPACITY);
        // On a task of its own: the batch's reply may come before its last notification has
        // started, and returning here must not stop the rest of the batch.
        let session = self.session.clone();
        let receiving = tokio::spawn(async move { session.receive(&frame, &sink).await });
        let reply = if expects_reply {
            next_reply(&mut lines, &outbound).await
        } else {
            // Any reply (to invalid input) is sent before `receive` returns; notification
            // handlers' lines meanwhile go to the GET stream (not tied to an answer).
            let to_session = self.session.session_sink();
            let mut reply = None;
            let mut receiving = receiving;
            loop {
                tokio::select! {
                    _ = &mut receiving => break,
                    line = lines.recv() => match line {
                        Some(line) if is_reply(&line) => reply = Some(line),
                        Some(line) => { let _ = to_session.send(line).await; }
                        None => break,
                    },
                }
            }
            while let Ok(line) = lines.try_recv() {
                if is_reply(&line) {
                    reply = Some(line);
                } else {
                    let _ = to_session.send(line).await;
                }
            }
            reply
        };
        // What the body's handlers send after its answer is not tied to the answer any more.
        tokio::spawn(forward_to_session(lines, self.session.session_sink()));
        reply.map(Bytes::from)
    }
}

/// The body's reply; the lines before it go to the client's stream of this POST (lost when the
/// client left or takes no stream). `None` when the body's handlers ended without one.
async fn next_reply(lines: &mut OutboundReceiver, outbound: &Outbound) -> Option<Vec<u8>> {
    while let Some(line) = lines.recv().await {
        if is_reply(&line) {
            return Some(line);
        }
        let _ = outbound.send(line).await;
    }
    None
}

/// Whether the body holds a request (one, or one in a batch) under the session's profile:
/// the peer starts a handler for it, whose reply comes later.
fn has_request(frame: &[u8], profile: &Profile) -> bool {
    let is_request = |message: &Message<'_>| matches!(message, Message::Request { .. });
    match decode(frame, profile) {
        Decoded::Single(message) => is_request(&message),
        Decoded::Batch(messages) => messages.iter().any(is_request),
        Decoded::Rejected(_) => false,
    }
}

/// Whether a line on a body's sink is its reply. The sink carries exactly two kinds of lines:
/// the requests and notifications its handlers send, and the reply (a response, an id-less
/// error, or a batch's array); the reply is whatever is not a request or a notification.
fn is_reply(line: &[u8]) -> bool {
    let profile = Profile::jsonrpc_2_0()
        .with_max_frame_bytes(usize::MAX)
        .with_max_batch_len(None);
    !matches!(
        decode(line, &profile),
        Decoded::Single(Message::Request { .. } | Message::Notification { .. })
    )
}

/// Feeds the session's GET stream until the session or the stream ends.
async fn forward(mut lines: OutboundReceiver, stream: Outbound) {
    loop {
        tokio::select! {
            line = lines.recv() => match line {
                Some(line) => {
                    if stream.send(line).await.is_err() {
                        return;
                    }
                }
                None => return,
            },
            () = stream.until_closed() => return,
        }
    }
}

/// Moves a body's late lines to the session-wide sink (so to the GET stream).
async fn forward_to_session(mut lines: OutboundReceiver, session: service::Outbound) {
    while let Some(line) = lines.recv().await {
        if session.send(line).await.is_err() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reply_is_what_is_not_a_request_or_notification() {
        assert!(is_reply(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
        assert!(is_reply(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#
        ));
        assert!(is_reply(br#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#));
        assert!(!is_reply(
            br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#
        ));
        assert!(!is_reply(
            br#"{"jsonrpc":"2.0","id":"s-1","method":"elicitation/create","params":{}}"#
        ));
    }

    #[test]
    fn bodies_with_a_request_expect_a_reply() {
        let profile = Profile::latest_mcp();
        assert!(has_request(
            br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            &profile
        ));
        assert!(!has_request(
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &profile
        ));
        assert!(!has_request(
            br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            &profile
        ));
        assert!(!has_request(b"{", &profile));
        let batches = Profile::jsonrpc_2_0();
        assert!(has_request(
            br#"[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"m"}]"#,
            &batches
        ));
    }
}
