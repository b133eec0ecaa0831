//! Sending requests and notifications to the other side, and awaiting typed results.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::oneshot;

use super::core::Core;
use super::outbound::{Outbound, PendingResponse, RequestGuard};
use super::sink::{Outgoing, Sink};
use crate::decode::ResponseDefect;
use crate::peer::{Notification, OutgoingId, Peer, Request, ResultError, SendError};
use crate::profile::Profile;
use crate::reply::RpcError;

/// Why a request to the other side brought no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// The other side answered with an error response.
    Rpc(RpcError),
    /// No response within the timeout; the request was cancelled (`notifications/cancelled`
    /// with reason `"timed out"` under MCP profiles).
    Timeout,
    /// The result does not decode as the request's result type.
    InvalidResult(ResultError),
    /// The response was malformed.
    MalformedResponse(ResponseDefect),
    /// The request was not sent (pending table full, params not an object or array).
    Send(SendError),
    /// The connection ended before a response arrived.
    Closed,
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Rpc(error) => write!(f, "error response: {error}"),
            RequestError::Timeout => f.write_str("no response in time"),
            RequestError::InvalidResult(error) => error.fmt(f),
            RequestError::MalformedResponse(defect) => write!(f, "malformed response: {defect}"),
            RequestError::Send(error) => error.fmt(f),
            RequestError::Closed => f.write_str("the connection is closed"),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<SendError> for RequestError {
    fn from(error: SendError) -> Self {
        RequestError::Send(error)
    }
}

/// Talks to the other side: typed requests with a timeout, notifications. Cheap to clone.
///
/// A handle from [`Session::handle`](super::Session::handle) writes to the session-wide
/// sink; the one inside a [`AsyncCallContext`](super::AsyncCallContext) writes to the sink of
/// the call being handled.
#[derive(Clone)]
pub struct PeerHandle {
    pub(crate) core: Arc<Core>,
    pub(crate) sink: Sink,
    pub(crate) timeout: Option<Duration>,
}

impl std::fmt::Debug for PeerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerHandle")
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl PeerHandle {
    /// The same handle with another timeout for its requests (`None`: wait forever).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// The session's current profile.
    pub fn profile(&self) -> Profile {
        self.core.lock().peer.profile().clone()
    }

    /// Sends a typed request and awaits its result, decoded as `R::Result`.
    ///
    /// On timeout the request is cancelled. Dropping the returned future before it completes
    /// cancels the request too (reason `"abandoned"`), best effort.
    pub async fn request<R: Request>(&self, params: &R::Params) -> Result<R::Result, RequestError> {
        let sent = self.core.lock().peer.request::<R>(params, None);
        let result = self.exchange(sent).await?;
        result
            .downcast::<R::Result>()
            .map_err(|_| RequestError::Closed)
    }

    /// Sends a request by method name and awaits its raw result.
    pub async fn request_raw<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<Box<RawValue>, RequestError> {
        let sent = self
            .core
            .lock()
            .peer
            .request_raw(method.to_owned(), params, None);
        let result = self.exchange(sent).await?;
        result
            .downcast::<Box<RawValue>>()
            .map_err(|_| RequestError::Closed)
    }

    /// Registers a typed request as pending without sending it: the caller sends
    /// [`Outbound::frame`] itself (a transport that states the method, version or name of
    /// each frame beside its bytes), awaits [`Outbound::response`] with the timeout it
    /// chooses (this handle's is not applied) and settles or cancels [`Outbound::guard`].
    /// The session routes the response as for [`request`](Self::request); the result is
    /// an `R::Result`.
    pub fn start<R: Request>(&self, params: &R::Params) -> Result<Outbound, RequestError> {
        let sent = self.core.lock().peer.request::<R>(params, None);
        self.register(sent)
    }

    /// Forgets the pending request `id` without telling the other side, for a transport
    /// that knows its response will never arrive: whoever awaits it gets
    /// [`RequestError::Closed`], and a late response is reported as late.
    pub fn forget(&self, id: OutgoingId) {
        self.core.forget(id, None);
    }

    fn register(
        &self,
        sent: Result<(OutgoingId, Vec<u8>), SendError>,
    ) -> Result<Outbound, RequestError> {
        let (id, frame) = sent?;
        let (tx, rx) = oneshot::channel();
        {
            let mut state = self.core.lock();
            if state.input_closed {
                state.peer.cancel(id, None);
                return Err(RequestError::Closed);
            }
            state.waiters.insert(id, tx);
        }
        Ok(Outbound {
            id,
            frame,
            response: PendingResponse(rx),
            guard: RequestGuard {
                core: Arc::clone(&self.core),
                sink: self.sink.clone(),
                id,
                armed: true,
            },
        })
    }

    async fn exchange(
        &self,
        sent: Result<(OutgoingId, Vec<u8>), SendError>,
    ) -> Result<crate::peer::AnyResult, RequestError> {
        let Outbound {
            frame,
            response,
            mut guard,
            ..
        } = self.register(sent)?;
        self.sink
            .send(Outgoing::Message(frame))
            .await
            .map_err(|_| RequestError::Closed)?;
        let answer = match self.timeout {
            Some(timeout) => match tokio::time::timeout(timeout, response).await {
                Ok(answer) => answer,
                Err(_elapsed) => {
                    if let Some(line) = guard.cancel("timed out") {
                        let _ = self.sink.try_send(Outgoing::Message(line));
                    }
                    return Err(RequestError::Timeout);
                }
            },
            None => response.await,
        };
        guard.settle();
        answer
    }

    /// Sends a typed notification.
    pub async fn notify<N: Notification>(&self, params: &N::Params) -> Result<(), RequestError> {
        self.notify_raw(N::METHOD, params).await
    }

    /// Sends a notification by method name.
    pub async fn notify_raw<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<(), RequestError> {
        let line = Peer::notification(method, params)?;
        self.sink
            .send(Outgoing::Message(line))
            .await
            .map_err(|_| RequestError::Closed)
    }
}
