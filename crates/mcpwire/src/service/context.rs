//! What an async handler can see and do while it handles one call (feature `tokio`), and
//! what a transport attaches to a frame for it.

#[cfg(feature = "tokio")]
use {
    super::{CancellationToken, PeerHandle, RequestError},
    crate::id::OwnedId,
    crate::params::RawParams,
    crate::peer::{Notification, Progress, ProgressParams, Request},
    crate::profile::Profile,
    mcpwire_types::ProfileFacts,
    serde::{Deserialize, Serialize},
    serde_json::value::RawValue,
};

/// The context of one incoming request (or notification) in an async handler.
///
/// Everything sent through it (notifications, progress, requests to the other side) goes
/// to the sink of the frame that carried the call, ahead of the call's reply.
///
/// ```no_run
/// use std::sync::Arc;
/// use mcpwire::{Router, RpcError};
/// use mcpwire::service::AsyncContext;
///
/// let router = Router::<()>::new().request_async("slow", |_: Arc<()>, steps: u32, ctx: AsyncContext| async move {
///     for step in 0..steps {
///         if ctx.is_cancelled() {
///             break; // the reply will not be sent anyway
///         }
///         // Sent only when the request carried `_meta.progressToken`.
///         ctx.progress(f64::from(step), Some(f64::from(steps)), None).await.ok();
///     }
///     Ok::<_, RpcError>("done")
/// });
/// ```
#[cfg(feature = "tokio")]
#[derive(Debug, Clone)]
pub struct AsyncContext {
    pub(crate) peer: PeerHandle,
    pub(crate) id: Option<OwnedId>,
    pub(crate) method: String,
    pub(crate) token: CancellationToken,
    pub(crate) progress_token: Option<Box<RawValue>>,
    /// What the transport attached to the frame that carried the call (see
    /// [`attachment`](Self::attachment)).
    pub(crate) attached: Option<Attachment>,
}

/// A value a transport attaches to one incoming frame, for the handlers of the calls it
/// carries (over HTTP: the [`Caller`](crate::http::Caller) a guard identified for the POST).
pub type Attachment = std::sync::Arc<dyn std::any::Any + Send + Sync>;

#[cfg(feature = "tokio")]
impl AsyncContext {
    /// The request id, exactly as received; `None` for a notification.
    pub fn id(&self) -> Option<&OwnedId> {
        self.id.as_ref()
    }

    /// The method name.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// Whether the call is a notification (no reply will be sent).
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }

    /// The session's current profile.
    pub fn profile(&self) -> Profile {
        self.peer.profile()
    }

    /// Switches the session to `profile` for the frames read from now on.
    pub fn set_profile(&self, profile: Profile) {
        self.peer.core.lock().peer.set_profile(profile);
    }

    /// Switches the session to the protocol `facts` (an MCP version agreed in `initialize`)
    /// keeping the whole policy (see [`Profile::negotiated`]), for the frames read from now
    /// on; returns the new profile.
    pub fn negotiate(&self, facts: &'static ProfileFacts) -> Profile {
        let mut state = self.peer.core.lock();
        let profile = state.peer.profile().negotiated(facts);
        state.peer.set_profile(profile.clone());
        profile
    }

    /// The token fired when the other side cancels this request.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.token
    }

    /// Whether the other side cancelled this request.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Completes when the other side cancels this request.
    pub async fn cancelled(&self) {
        self.token.cancelled().await
    }

    /// This context for work that may outlive the request (an MCP task): cancelled by
    /// `token` only, not by the request's cancellation or the end of its session, and
    /// without the request's progress token (progress is about the request, which ends).
    pub fn detached(&self, token: CancellationToken) -> AsyncContext {
        AsyncContext {
            token,
            progress_token: None,
            ..self.clone()
        }
    }

    /// What the transport attached to the frame that carried this call, when it is a `T`:
    /// over Streamable HTTP behind a [`Guard`](crate::http::Guard), the
    /// [`Caller`](crate::http::Caller) of this call's own POST (a later request of a session
    /// may carry another token of the same subject than the one that opened it).
    pub fn attachment<T: std::any::Any>(&self) -> Option<&T> {
        self.attached.as_deref()?.downcast_ref::<T>()
    }

    /// The request's `_meta.progressToken`, if it carried one.
    pub fn progress_token(&self) -> Option<&RawValue> {
        self.progress_token.as_deref()
    }

    /// Sends `notifications/progress` for this request. Returns `Ok(false)` without sending
    /// anything when the request carried no progress token.
    pub async fn progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Result<bool, RequestError> {
        let Some(token) = &self.progress_token else {
            return Ok(false);
        };
        let params = ProgressParams {
            progress_token: token.clone(),
            progress,
            total,
            message: message.map(str::to_owned),
        };
        self.peer.notify::<Progress>(&params).await?;
        Ok(true)
    }

    /// Sends a typed notification.
    pub async fn notify<N: Notification>(&self, params: &N::Params) -> Result<(), RequestError> {
        self.peer.notify::<N>(params).await
    }

    /// Sends a notification by method name (`notifications/message`, a list_changed ...).
    pub async fn notify_raw<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<(), RequestError> {
        self.peer.notify_raw(method, params).await
    }

    /// Sends a typed request to the other side (`sampling/createMessage`,
    /// `elicitation/create`, `roots/list` ...) and awaits its result, within the session's
    /// request timeout.
    pub async fn request<R: Request>(&self, params: &R::Params) -> Result<R::Result, RequestError> {
        self.peer.request::<R>(params).await
    }

    /// Closes the client's connection of this call's stream early, without ending the stream
    /// (MCP 2025-11-25 SSE polling): what it sent before is delivered first; what it sends
    /// from now on, and its reply, are kept until the client reconnects with
    /// `Last-Event-ID`. Returns whether the transport
    /// can (Streamable HTTP with an event store, `http::EventStore`); otherwise
    /// nothing happens.
    pub async fn close_sse_stream(&self) -> bool {
        self.peer.sink.close_connection().await
    }

    /// The handle this context sends through (the call's sink); clone it to keep talking to
    /// the other side from a task that outlives the handler.
    pub fn peer(&self) -> &PeerHandle {
        &self.peer
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
    let carrier: Carrier = serde_json::from_str(params.get()).ok()?;
    let token = carrier.meta?.progress_token?;
    matches!(
        token.get().as_bytes().first(),
        Some(b'"' | b'-' | b'0'..=b'9')
    )
    .then_some(token)
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
