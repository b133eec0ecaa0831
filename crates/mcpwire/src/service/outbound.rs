//! A request whose frame the caller delivers itself: registered as pending and given an id
//! by the session, sent by a transport that needs to know more about each frame than its
//! bytes (Streamable HTTP states the method, the version and the request's name in
//! headers), its response routed back by the session like any other.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::sync::oneshot;

use super::RequestError;
use super::core::{Awaited, Core};
use super::sink::{Outgoing, Sink};
use crate::peer::{AnyResult, OutgoingId};

/// A request registered as pending and not sent yet (see
/// [`PeerHandle::start`](super::PeerHandle::start)): its id, its frame, the response to
/// await and the guard that cancels it.
#[derive(Debug)]
pub struct Outbound {
    /// The id the session gave the request.
    pub id: OutgoingId,
    /// The request, serialized without a line terminator: the caller sends it.
    pub frame: Vec<u8>,
    /// Completes with the response (or [`RequestError::Closed`] when none can arrive).
    pub response: PendingResponse,
    /// Cancels the request when dropped before it is [`settled`](RequestGuard::settle).
    pub guard: RequestGuard,
}

/// The response to an [`Outbound`] request: a future of its result, which may be polled by
/// reference (`&mut`) in a `select!`.
pub struct PendingResponse(pub(crate) oneshot::Receiver<Awaited>);

impl std::fmt::Debug for PendingResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingResponse").finish_non_exhaustive()
    }
}

impl Future for PendingResponse {
    type Output = Result<AnyResult, RequestError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|answer| match answer {
            Ok(answer) => answer.into_result(),
            Err(_) => Err(RequestError::Closed),
        })
    }
}

/// Cancels a request whose caller stopped waiting: dropped while armed, it forgets the
/// request and sends `notifications/cancelled` (reason `"abandoned"`) to the session-wide
/// sink, best effort. [`settle`](Self::settle) once the response arrived,
/// [`cancel`](Self::cancel) to send the cancellation yourself, [`forget`](Self::forget) when
/// the request never reached the other side.
pub struct RequestGuard {
    pub(crate) core: Arc<Core>,
    pub(crate) sink: Sink,
    pub(crate) id: OutgoingId,
    pub(crate) armed: bool,
}

impl std::fmt::Debug for RequestGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestGuard")
            .field("id", &self.id)
            .field("armed", &self.armed)
            .finish()
    }
}

impl RequestGuard {
    /// The request's id.
    pub fn id(&self) -> OutgoingId {
        self.id
    }

    /// The response arrived (or the request is over by the other side's doing): nothing is
    /// sent on drop.
    pub fn settle(&mut self) {
        self.armed = false;
    }

    /// Forgets the request without telling the other side (it was never sent, or the
    /// transport knows its response will never arrive).
    pub fn forget(&mut self) {
        if std::mem::take(&mut self.armed) {
            self.core.forget(self.id, None);
        }
    }

    /// Forgets the request and returns its `notifications/cancelled` frame for the caller to
    /// send (`None` when the profile has no cancellation, or the request is over already).
    pub fn cancel(&mut self, reason: &str) -> Option<Vec<u8>> {
        if !std::mem::take(&mut self.armed) {
            return None;
        }
        self.core.forget(self.id, Some(reason))
    }
}

impl Drop for RequestGuard {
    fn drop(&mut self) {
        if let Some(line) = self.cancel("abandoned") {
            // Best effort: a full or closed sink loses the notification, which only costs
            // the other side some wasted work.
            let _ = self.sink.try_send(Outgoing::Message(line));
        }
    }
}

impl Awaited {
    /// The answer as the caller's result.
    pub(crate) fn into_result(self) -> Result<AnyResult, RequestError> {
        match self {
            Awaited::Result(result) => Ok(result),
            Awaited::Error(error) => Err(RequestError::Rpc(error)),
            Awaited::InvalidResult(error) => Err(RequestError::InvalidResult(error)),
            Awaited::Malformed(defect) => Err(RequestError::MalformedResponse(defect)),
        }
    }
}
