//! Method routing with typed params: one table for synchronous and async handlers.
//!
//! A [`Router`] maps method names to handlers. Request handlers take typed params
//! (`P: DeserializeOwned`) and return a typed result (`R: Serialize`) or an [`RpcError`];
//! notification handlers return nothing. An optional fallback receives unknown methods
//! with their raw params, and an optional event handler receives response-shaped input.
//!
//! Handlers are registered synchronous ([`request`](Router::request), run in place with the
//! state as `&S` and a `&mut` [`CallContext`]) or, with the `tokio` feature, async
//! (`request_async`, run concurrently with the state as `Arc<S>` and a
//! `service::AsyncCallContext`, which is a `CallContext` plus what a running session can
//! do), side by side on one router. The one
//! dispatch path (`engine.rs`) runs both: the async `service::Session` runs every kind on
//! tokio; the blocking [`Server`](crate::Server), which polls that session in place with no
//! runtime, the synchronous ones (an async handler under it is answered -32603: it needs a
//! runtime).
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use mcpwire::{CallContext, Router, RpcError};
//!
//! #[derive(serde::Deserialize)]
//! struct Add { a: i64, b: i64 }
//!
//! let router = Router::<AtomicU64>::new()
//!     .request("add", |calls: &AtomicU64, p: Add, _ctx: &mut CallContext<'_>| {
//!         calls.fetch_add(1, Ordering::Relaxed);
//!         p.a.checked_add(p.b).ok_or_else(|| RpcError::new(-32000, "overflow"))
//!     })
//!     .notification("log", |_: &AtomicU64, line: String, _ctx: &mut CallContext<'_>| eprintln!("{line}"));
//! assert!(router.has_request("add") && router.has_notification("log"));
//! ```

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::answer::Answer;
pub use crate::context::CallContext;
use crate::events::ProtocolEvent;
use crate::params::{RawParams, decode_params};
use crate::reply::RpcError;

#[cfg(feature = "tokio")]
use {
    crate::answer::{AnswerOf, IntoAnswer},
    crate::service::AsyncCallContext,
    crate::service::BoxFuture,
    serde_json::value::RawValue,
    std::future::Future,
    std::sync::Arc,
};

type SyncRequestFn<S> = dyn Fn(&S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Result<Answer, RpcError>
    + Send
    + Sync;
/// Returns the decode error when the params did not decode (the handler did not run).
type SyncNotificationFn<S> =
    dyn Fn(&S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Option<RpcError> + Send + Sync;
type SyncFallbackFn<S> = dyn Fn(&S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Result<Answer, RpcError>
    + Send
    + Sync;
/// After its params decoded: the future computing the answer.
#[cfg(feature = "tokio")]
type AsyncRequestFn<S> = dyn Fn(
        Arc<S>,
        Option<RawParams<'_>>,
        usize,
        AsyncCallContext,
    ) -> Result<BoxFuture<Result<Answer, RpcError>>, RpcError>
    + Send
    + Sync;
#[cfg(feature = "tokio")]
type AsyncNotificationFn<S> = dyn Fn(Arc<S>, Option<RawParams<'_>>, usize, AsyncCallContext) -> Result<BoxFuture<()>, RpcError>
    + Send
    + Sync;
#[cfg(feature = "tokio")]
type AsyncFallbackFn<S> = dyn Fn(
        Arc<S>,
        Option<RawParams<'_>>,
        AsyncCallContext,
    ) -> Result<BoxFuture<Result<Answer, RpcError>>, RpcError>
    + Send
    + Sync;
type EventFn<S> = dyn Fn(&S, ProtocolEvent) + Send + Sync;

/// A registered request handler.
pub(crate) enum RequestHandler<S> {
    Sync(Box<SyncRequestFn<S>>),
    #[cfg(feature = "tokio")]
    Async(Box<AsyncRequestFn<S>>),
}

/// A registered notification handler.
pub(crate) enum NotificationHandler<S> {
    Sync(Box<SyncNotificationFn<S>>),
    #[cfg(feature = "tokio")]
    Async(Box<AsyncNotificationFn<S>>),
}

/// The registered fallback.
pub(crate) enum FallbackHandler<S> {
    Sync(Box<SyncFallbackFn<S>>),
    #[cfg(feature = "tokio")]
    Async(Box<AsyncFallbackFn<S>>),
}

/// What runs for one method: its own handler, or the fallback.
pub(crate) enum Route<'r, H, S> {
    Handler(&'r H),
    Fallback(&'r FallbackHandler<S>),
    None,
}

/// Method name → handler, for a server whose state is `S`.
pub struct Router<S> {
    requests: HashMap<String, RequestHandler<S>>,
    notifications: HashMap<String, NotificationHandler<S>>,
    fallback: Option<FallbackHandler<S>>,
    /// Whether the async fallback's own decode gives its contexts their progress token.
    #[cfg(feature = "tokio")]
    pub(crate) fallback_reads_progress_token: bool,
    on_event: Option<Box<EventFn<S>>>,
}

impl<S> Default for Router<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S> fmt::Debug for Router<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut requests: Vec<_> = self.requests.keys().collect();
        requests.sort();
        let mut notifications: Vec<_> = self.notifications.keys().collect();
        notifications.sort();
        f.debug_struct("Router")
            .field("requests", &requests)
            .field("notifications", &notifications)
            .field("fallback", &self.fallback.is_some())
            .field("on_event", &self.on_event.is_some())
            .finish()
    }
}

impl<S> Router<S> {
    /// An empty router: every request is answered -32601.
    pub fn new() -> Self {
        Self {
            requests: HashMap::new(),
            notifications: HashMap::new(),
            fallback: None,
            #[cfg(feature = "tokio")]
            fallback_reads_progress_token: false,
            on_event: None,
        }
    }

    /// Registers a synchronous request handler. Params are decoded as `P` (invalid → -32602
    /// naming the failing JSON pointer; absent params decode from `null`, else from `{}`),
    /// the result `R` is serialized into the reply (a result that does not serialize is
    /// -32603). Replaces an earlier handler of the same name.
    pub fn request<P, R, F>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        R: Serialize,
        F: Fn(&S, P, &mut CallContext<'_>) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        let erased = move |state: &S, params: Option<RawParams<'_>>, ctx: &mut CallContext<'_>| {
            let params: P = decode_params(params, ctx.profile().limits().max_params_depth)?;
            let result = handler(state, params, ctx)?;
            Answer::to_call(ctx, &result)
        };
        let handler = RequestHandler::Sync(Box::new(erased));
        self.requests.insert(method.to_owned(), handler);
        self
    }

    /// Registers a synchronous notification handler. Params that do not decode as `P` are
    /// never answered (it is a notification); the handler does not run and the event handler
    /// receives [`ProtocolEvent::InvalidNotification`] with the -32602 error naming the
    /// failing JSON pointer.
    pub fn notification<P, F>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        F: Fn(&S, P, &mut CallContext<'_>) + Send + Sync + 'static,
    {
        let erased = move |state: &S, params: Option<RawParams<'_>>, ctx: &mut CallContext<'_>| {
            match decode_params::<P>(params, ctx.profile().limits().max_params_depth) {
                Ok(params) => {
                    handler(state, params, ctx);
                    None
                }
                Err(error) => Some(error),
            }
        };
        let handler = NotificationHandler::Sync(Box::new(erased));
        self.notifications.insert(method.to_owned(), handler);
        self
    }

    /// Registers the synchronous handler for methods without a registered handler, for
    /// requests and notifications alike (see [`CallContext::method`],
    /// [`CallContext::is_notification`]). It gets the raw params and returns the raw result
    /// (`Box<RawValue>`) or the reply it wrote ([`ResultReply`](crate::ResultReply)); a
    /// notification's result is discarded. Return [`RpcError::method_not_found`] to refuse a
    /// method.
    pub fn fallback<F, R>(mut self, handler: F) -> Self
    where
        F: Fn(&S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Result<R, RpcError>
            + Send
            + Sync
            + 'static,
        R: Into<Answer>,
    {
        let erased = move |state: &S, params: Option<RawParams<'_>>, ctx: &mut CallContext<'_>| {
            handler(state, params, ctx).map(Into::into)
        };
        self.fallback = Some(FallbackHandler::Sync(Box::new(erased)));
        self
    }

    /// Registers the handler for [`ProtocolEvent`]s: response-shaped input (well-formed
    /// responses that answer no pending request of this side, late responses, malformed ones)
    /// and notifications whose params do not decode. Without it, such input is dropped. It is
    /// never answered either way. It runs where the frame is read: keep it short.
    pub fn on_event<F>(mut self, handler: F) -> Self
    where
        F: Fn(&S, ProtocolEvent) + Send + Sync + 'static,
    {
        self.on_event = Some(Box::new(handler));
        self
    }

    /// Whether a request handler is registered for `method`.
    pub fn has_request(&self, method: &str) -> bool {
        self.requests.contains_key(method)
    }

    /// Whether a notification handler is registered for `method`.
    pub fn has_notification(&self, method: &str) -> bool {
        self.notifications.contains_key(method)
    }

    /// What runs for the request `method`.
    pub(crate) fn request_route(&self, method: &str) -> Route<'_, RequestHandler<S>, S> {
        route(self.requests.get(method), self.fallback.as_ref())
    }

    /// What runs for the notification `method`.
    pub(crate) fn notification_route(&self, method: &str) -> Route<'_, NotificationHandler<S>, S> {
        route(self.notifications.get(method), self.fallback.as_ref())
    }

    /// Delivers a protocol event, if an event handler is registered.
    pub(crate) fn deliver_event(&self, state: &S, event: ProtocolEvent) {
        if let Some(handler) = &self.on_event {
            handler(state, event);
        }
    }
}

fn route<'r, H, S>(
    handler: Option<&'r H>,
    fallback: Option<&'r FallbackHandler<S>>,
) -> Route<'r, H, S> {
    match (handler, fallback) {
        (Some(handler), _) => Route::Handler(handler),
        (None, Some(fallback)) => Route::Fallback(fallback),
        (None, None) => Route::None,
    }
}

#[cfg(feature = "tokio")]
/// Async registration (feature `tokio`), beside the synchronous one.
impl<S: Send + Sync + 'static> Router<S> {
    /// Registers an async request handler (replacing an earlier one of the same name). It
    /// runs concurrently with other handlers, gets the state as `Arc<S>` (use interior
    /// mutability for what it changes) and an [`AsyncCallContext`]. Params and result as for
    /// [`request`](Self::request); invalid params are answered without running it.
    pub fn request_async<P, R, F, Fut>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        R: Serialize,
        F: Fn(Arc<S>, P, AsyncCallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
    {
        let erased = move |state: Arc<S>, params: Option<RawParams<'_>>, max_depth, ctx| {
            let params: P = decode_params(params, max_depth)?;
            let call = AsyncCallContext::clone(&ctx);
            let boxed: BoxFuture<Result<Answer, RpcError>> =
                Box::pin(AnswerOf::new(handler(state, params, ctx), call));
            Ok(boxed)
        };
        let handler = RequestHandler::Async(Box::new(erased));
        self.requests.insert(method.to_owned(), handler);
        self
    }

    /// Registers an async notification handler. Params that do not decode as `P` are never
    /// answered; the handler does not run and the event handler receives
    /// [`ProtocolEvent::InvalidNotification`].
    pub fn notification_async<P, F, Fut>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        F: Fn(Arc<S>, P, AsyncCallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let erased = move |state: Arc<S>, params: Option<RawParams<'_>>, max_depth, ctx| {
            let params: P = decode_params(params, max_depth)?;
            let boxed: BoxFuture<()> = Box::pin(handler(state, params, ctx));
            Ok(boxed)
        };
        let handler = NotificationHandler::Async(Box::new(erased));
        self.notifications.insert(method.to_owned(), handler);
        self
    }

    /// Registers the async handler for methods without a registered handler, requests and
    /// notifications alike ([`CallContext::is_notification`]); it gets the raw params and
    /// returns the raw result or the reply it wrote, as for [`fallback`](Self::fallback)
    /// (discarded for a notification). Return [`RpcError::method_not_found`] to refuse a
    /// method.
    pub fn fallback_async<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(Arc<S>, Option<Box<RawValue>>, AsyncCallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
        R: Into<Answer> + 'static,
    {
        let erased = move |state, params: Option<RawParams<'_>>, ctx| {
            let future: BoxFuture<Result<Answer, RpcError>> =
                Box::pin(IntoAnswer::new(handler(state, owned(params), ctx)));
            Ok(future)
        };
        self.fallback = Some(FallbackHandler::Async(Box::new(erased)));
        self
    }

    /// [`fallback_async`](Self::fallback_async) for a handler that reads the params where
    /// they lie in the frame, before its future starts: it decodes what it needs and
    /// returns the future (or the error that answers the request), so the raw params are
    /// never copied for the future to own. It runs on the session's reading task, like
    /// the decode of an [`request_async`](Self::request_async) handler's params.
    pub fn fallback_async_decoding<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(Arc<S>, Option<RawParams<'_>>, AsyncCallContext) -> Result<Fut, RpcError>
            + Send
            + Sync
            + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
        R: Into<Answer> + 'static,
    {
        let erased = move |state, params: Option<RawParams<'_>>, ctx| {
            let future: BoxFuture<Result<Answer, RpcError>> =
                Box::pin(IntoAnswer::new(handler(state, params, ctx)?));
            Ok(future)
        };
        self.fallback = Some(FallbackHandler::Async(Box::new(erased)));
        self
    }
}

#[cfg(feature = "tokio")]
impl<S> Router<S> {
    /// Says that the async fallback reads each request's `_meta.progressToken` in its own
    /// decode of the params and gives it to the context
    /// ([`AsyncCallContext::set_progress_token`]): the runtime then does not read the params
    /// a second time for it, and a fallback request's context starts without a token.
    /// (Otherwise the runtime reads it, in a pass of its own, before the handler runs.)
    pub fn fallback_reads_progress_token(mut self) -> Self {
        self.fallback_reads_progress_token = true;
        self
    }
}

/// The raw params a [`Router::fallback_async`] handler owns: a copy of the frame's.
#[cfg(feature = "tokio")]
fn owned(params: Option<RawParams<'_>>) -> Option<Box<RawValue>> {
    params.and_then(|p| RawValue::from_string(p.get().to_owned()).ok())
}
