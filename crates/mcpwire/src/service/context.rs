//! What an async handler can do beyond seeing its call (feature `tokio`):
//! [`AsyncCallContext`].

#[cfg(feature = "tokio")]
use {
    super::{CancellationToken, PeerHandle, RequestError},
    crate::context::{CallContext, FrameCall, OwnedCall},
    crate::params::RawParams,
    crate::peer::{Notification, Progress, ProgressParams, Request},
    serde::{Deserialize, Serialize},
    serde_json::value::RawValue,
    std::sync::{Arc, OnceLock},
};

/// The context of one incoming request (or notification) in an async handler: the
/// [`CallContext`] every handler sees (it dereferences to it: id, method, profile,
/// attachment, the profile switch, with the same meaning as for a synchronous handler),
/// plus what only a running session can do: progress, notifications and requests to the
/// other side, cancellation.
///
/// Everything sent through it (notifications, progress, requests to the other side) goes
/// to the sink of the frame that carried the call, ahead of the call's reply.
///
/// ```no_run
/// use std::sync::Arc;
/// use mcpwire::{Router, RpcError};
/// use mcpwire::service::AsyncCallContext;
///
/// let router = Router::<()>::new().request_async("slow", |_: Arc<()>, steps: u32, ctx: AsyncCallContext| async move {
///     for step in 0..steps {
///         if ctx.is_cancelled() {
///             break; // the reply will not be sent anyway
///         }
///         // Sent only when the request carried `_meta.progressToken`.
///         ctx.progress(f64::from(step), Some(f64::from(steps)), None).await.ok();
///     }
///     Ok::<_, RpcError>(ctx.method().to_owned())
/// });
/// ```
#[cfg(feature = "tokio")]
#[derive(Debug, Clone)]
pub struct AsyncCallContext {
    /// The call, in `owned`.
    call: CallContext<'static>,
    /// The call and the live parts: one allocation, shared by the context's clones.
    owned: Arc<OwnedCall>,
}

/// What the running session gives an async handler beyond its call.
#[cfg(feature = "tokio")]
#[derive(Debug)]
pub(crate) struct Live {
    /// Sends to the sink of the frame that carried the call.
    pub(crate) peer: PeerHandle,
    pub(crate) token: CancellationToken,
    /// `_meta.progressToken`: read by the runtime when the call is taken, or given later by
    /// a handler whose own decode read it ([`AsyncCallContext::set_progress_token`]).
    pub(crate) progress_token: OnceLock<Box<RawValue>>,
}

#[cfg(feature = "tokio")]
impl Live {
    /// The live parts with `progress_token`, if any.
    pub(crate) fn new(
        peer: PeerHandle,
        token: CancellationToken,
        progress_token: Option<Box<RawValue>>,
    ) -> Self {
        Self {
            peer,
            token,
            progress_token: progress_token.map(OnceLock::from).unwrap_or_default(),
        }
    }
}

#[cfg(feature = "tokio")]
impl std::ops::Deref for AsyncCallContext {
    type Target = CallContext<'static>;

    fn deref(&self) -> &CallContext<'static> {
        &self.call
    }
}

#[cfg(feature = "tokio")]
impl AsyncCallContext {
    /// The context of `call`, copied out of its frame, with the session's `live` parts.
    pub(crate) fn new(call: &FrameCall<'_>, live: Live) -> Self {
        Self::of(OwnedCall::new(call, live))
    }

    fn of(owned: OwnedCall) -> Self {
        let owned = Arc::new(owned);
        Self {
            call: CallContext::owned(Arc::clone(&owned)),
            owned,
        }
    }

    fn live(&self) -> &Live {
        &self.owned.live
    }

    /// The token fired when the other side cancels this request.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.live().token
    }

    /// Whether the other side cancelled this request.
    pub fn is_cancelled(&self) -> bool {
        self.live().token.is_cancelled()
    }

    /// Completes when the other side cancels this request.
    pub async fn cancelled(&self) {
        self.live().token.cancelled().await
    }

    /// This context for work that may outlive the request (an MCP task): cancelled by
    /// `token` only, not by the request's cancellation or the end of its session, and
    /// without the request's progress token (progress is about the request, which ends).
    pub fn detached(&self, token: CancellationToken) -> AsyncCallContext {
        let live = Live::new(self.live().peer.clone(), token, None);
        Self::of(self.owned.with_live(live))
    }

    /// The request's `_meta.progressToken`, if it carried one.
    pub fn progress_token(&self) -> Option<&RawValue> {
        self.live().progress_token.get().map(|token| &**token)
    }

    /// Gives this context the request's `_meta.progressToken`, for a handler that reads
    /// `_meta` itself: the fallback of a [`Router`](crate::Router) built with
    /// [`fallback_reads_progress_token`](crate::Router::fallback_reads_progress_token),
    /// whose contexts start without one. Takes a JSON string or number (anything else is no
    /// token) when the context has none yet, and returns whether it took it; the context's
    /// clones see it too.
    pub fn set_progress_token(&self, token: Box<RawValue>) -> bool {
        is_progress_token(&token) && self.live().progress_token.set(token).is_ok()
    }

    /// Sends `notifications/progress` for this request. Returns `Ok(false)` without sending
    /// anything when the request carried no progress token.
    pub async fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<bool, RequestError> {
        let Some(token) = self.live().progress_token.get() else {
            return Ok(false);
        };
        let params = ProgressParams {
            progress_token: token.clone(),
            progress,
            total,
            message: message.map(str::to_owned),
        };
        self.live().peer.notify::<Progress>(&params).await?;
        Ok(true)
    }

    /// Sends a typed notification.
    pub async fn notify<N: Notification>(&self, params: &N::Params) -> Result<(), RequestError> {
        self.live().peer.notify::<N>(params).await
    }

    /// Sends a notification by method name (`notifications/message`, a list_changed ...).
    pub async fn notify_raw<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<(), RequestError> {
        self.live().peer.notify_raw(method, params).await
    }

    /// Sends a typed request to the other side (`sampling/createMessage`,
    /// `elicitation/create`, `roots/list` ...) and awaits its result, within the session's
    /// request timeout.
    pub async fn request<R: Request>(&self, params: &R::Params) -> Result<R::Result, RequestError> {
        self.live().peer.request::<R>(params).await
    }

    /// Closes the client's connection of this call's stream early, without ending the stream
    /// (MCP 2025-11-25 SSE polling): what it sent before is delivered first; what it sends
    /// from now on, and its reply, are kept until the client reconnects with
    /// `Last-Event-ID`. Returns whether the transport
    /// can (Streamable HTTP with an event store, `http::EventStore`); otherwise
    /// nothing happens.
    pub async fn close_sse_stream(&self) -> bool {
        self.live().peer.sink.close_connection().await
    }

    /// The handle this context sends through (the call's sink); clone it to keep talking to
    /// the other side from a task that outlives the handler.
    pub fn peer(&self) -> &PeerHandle {
        &self.live().peer
    }
}

/// Reads `_meta.progressToken` from object params (a string or a number; anything else is
/// no token).
#[cfg(feature = "tokio")]
pub(crate) fn progress_token_of(params: Option<RawParams<'_>>) -> Option<Box<RawValue>> {
    #[derive(Deserialize)]
    struct Carrier {
        #[serde(rename = "_meta", default)]
        meta: Option<Meta>,
    }
    #[derive(Deserialize)]
    struct Meta {
        #[serde(rename = "progressToken", default)]
        progress_token: Option<Box<RawValue>>,
    }
    let params = params.filter(RawParams::is_object)?;
    // A second read of the params, after the engine's: recorded as one, so that a trace
    // (`tests/scan_once.rs`) shows it where it happens.
    crate::split::trace_read(crate::split::Read::Params, params.get().len());
    let carrier: Carrier = serde_json::from_str(params.get()).ok()?;
    let token = carrier.meta?.progress_token?;
    is_progress_token(&token).then_some(token)
}

/// Whether `token` can be a progress token: a JSON string or number.
#[cfg(feature = "tokio")]
fn is_progress_token(token: &RawValue) -> bool {
    matches!(
        token.get().as_bytes().first(),
        Some(b'"' | b'-' | b'0'..=b'9')
    )
}

#[cfg(all(test, feature = "tokio"))]
mod tests {
    use super::*;

    #[test]
    fn the_progress_token_is_read_from_meta() {
        let token =
            |text: &str| progress_token_of(RawParams::parse(text)).map(|t| t.get().to_owned());
        assert_eq!(
            token(r#"{"_meta":{"progressToken":"p-1"},"x":1}"#).as_deref(),
            Some("\"p-1\"")
        );
        assert_eq!(
            token(r#"{"_meta":{"progressToken":7}}"#).as_deref(),
            Some("7")
        );
        assert_eq!(token(r#"{"_meta":{"progressToken":null}}"#), None);
        assert_eq!(token(r#"{"_meta":{"progressToken":[1]}}"#), None);
        assert_eq!(token(r#"{"_meta":{}}"#), None);
        assert_eq!(token(r#"{"progressToken":1}"#), None);
        assert_eq!(token(r#"[{"_meta":{"progressToken":1}}]"#), None);
    }
}
