//! Method routing for async handlers with typed params and shared state.

use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::AsyncContext;
use super::catch::BoxFuture;
use crate::events::ProtocolEvent;
use crate::params::{RawParams, decode_params};
use crate::peer::result_json;
use crate::reply::RpcError;
use crate::routes::Routes;

/// A request handler after its params decoded: the future computing the result's JSON text.
type RequestFn<S> = dyn Fn(
        Arc<S>,
        Option<RawParams<'_>>,
        usize,
        AsyncContext,
    ) -> Result<BoxFuture<Result<String, RpcError>>, RpcError>
    + Send
    + Sync;
type NotificationFn<S> = dyn Fn(Arc<S>, Option<RawParams<'_>>, usize, AsyncContext) -> Result<BoxFuture<()>, RpcError>
    + Send
    + Sync;
type FallbackFn<S> = dyn Fn(Arc<S>, Option<Box<RawValue>>, AsyncContext) -> BoxFuture<Result<Box<RawValue>, RpcError>>
    + Send
    + Sync;
type EventFn<S> = dyn Fn(&S, ProtocolEvent) + Send + Sync;

/// Method name → async handler, for a session whose shared state is `S`.
///
/// Handlers get the state as `Arc<S>` (they run concurrently: use interior mutability for
/// what they change), their params decoded as `P` (invalid params are answered -32602 naming
/// the failing JSON pointer, without running the handler), and a [`AsyncContext`].
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use mcpwire::RpcError;
/// use mcpwire::service::{AsyncRouter, AsyncContext};
///
/// #[derive(serde::Deserialize)]
/// struct Add { a: i64, b: i64 }
///
/// let router = AsyncRouter::<AtomicU64>::new()
///     .request("add", |calls: Arc<AtomicU64>, p: Add, _ctx: AsyncContext| async move {
///         calls.fetch_add(1, Ordering::Relaxed);
///         p.a.checked_add(p.b).ok_or_else(|| RpcError::new(-32000, "overflow"))
///     })
///     .notification("log", |_: Arc<AtomicU64>, line: String, _ctx: AsyncContext| async move {
///         eprintln!("{line}");
///     });
/// assert!(router.has_request("add"));
/// ```
pub struct AsyncRouter<S> {
    routes: Routes<RequestFn<S>, NotificationFn<S>, FallbackFn<S>, EventFn<S>>,
}

impl<S: Send + Sync + 'static> Default for AsyncRouter<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S> std::fmt::Debug for AsyncRouter<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.routes.fmt_as("AsyncRouter", f)
    }
}

impl<S: Send + Sync + 'static> AsyncRouter<S> {
    /// An empty router: every request is answered -32601.
    pub fn new() -> Self {
        Self {
            routes: Routes::new(),
        }
    }

    /// Registers a request handler (replacing an earlier one of the same name). Absent
    /// params decode from `null`, else from `{}`; the result `R` is serialized into the reply
    /// (a result that does not serialize is -32603).
    pub fn request<P, R, F, Fut>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        R: Serialize,
        F: Fn(Arc<S>, P, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
    {
        let erased = move |state: Arc<S>, params: Option<RawParams<'_>>, max_depth, ctx| {
            let params: P = decode_params(params, max_depth)?;
            let future = handler(state, params, ctx);
            let boxed: BoxFuture<Result<String, RpcError>> =
                Box::pin(async move { result_json(&future.await?) });
            Ok(boxed)
        };
        self.routes
            .requests
            .insert(method.to_owned(), Box::new(erased));
        self
    }

    /// Registers a notification handler. Params that do not decode as `P` are never
    /// answered; the handler does not run and the event handler receives
    /// [`ProtocolEvent::InvalidNotification`].
    pub fn notification<P, F, Fut>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        F: Fn(Arc<S>, P, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let erased = move |state: Arc<S>, params: Option<RawParams<'_>>, max_depth, ctx| {
            let params: P = decode_params(params, max_depth)?;
            let boxed: BoxFuture<()> = Box::pin(handler(state, params, ctx));
            Ok(boxed)
        };
        self.routes
            .notifications
            .insert(method.to_owned(), Box::new(erased));
        self
    }

    /// Registers the handler for methods without a registered handler, requests and
    /// notifications alike ([`AsyncContext::is_notification`]); it gets the raw params
    /// and returns the raw result (discarded for a notification). Return
    /// [`RpcError::method_not_found`] to refuse a method.
    pub fn fallback<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(Arc<S>, Option<Box<RawValue>>, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Box<RawValue>, RpcError>> + Send + 'static,
    {
        self.routes.fallback = Some(Box::new(move |state, params, ctx| {
            Box::pin(handler(state, params, ctx))
        }));
        self
    }

    /// Registers the handler for [`ProtocolEvent`]s: responses that answer no pending request
    /// of this side, late responses, and notifications whose params do not decode. It runs
    /// on the reading task: keep it short.
    pub fn on_event<F>(mut self, handler: F) -> Self
    where
        F: Fn(&S, ProtocolEvent) + Send + Sync + 'static,
    {
        self.routes.on_event = Some(Box::new(handler));
        self
    }

    /// Whether a request handler is registered for `method`.
    pub fn has_request(&self, method: &str) -> bool {
        self.routes.requests.contains_key(method)
    }

    /// Whether a notification handler is registered for `method`.
    pub fn has_notification(&self, method: &str) -> bool {
        self.routes.notifications.contains_key(method)
    }

    /// Starts the request handler for the context's method (or the fallback).
    pub(crate) fn start_request(
        &self,
        state: &Arc<S>,
        params: Option<RawParams<'_>>,
        max_depth: usize,
        ctx: AsyncContext,
    ) -> Result<BoxFuture<Result<String, RpcError>>, RpcError> {
        if let Some(handler) = self.routes.requests.get(ctx.method()) {
            return handler(Arc::clone(state), params, max_depth, ctx);
        }
        let Some(fallback) = &self.routes.fallback else {
            return Err(RpcError::method_not_found());
        };
        let future = fallback(Arc::clone(state), owned(params), ctx);
        Ok(Box::pin(async move {
            future.await.map(|raw| String::from(raw.get()))
        }))
    }

    /// Starts the notification handler for the context's method (or the fallback); `Ok(None)`
    /// when there is none, `Err` when the params do not decode.
    pub(crate) fn start_notification(
        &self,
        state: &Arc<S>,
        params: Option<RawParams<'_>>,
        max_depth: usize,
        ctx: AsyncContext,
    ) -> Result<Option<BoxFuture<()>>, RpcError> {
        if let Some(handler) = self.routes.notifications.get(ctx.method()) {
            return handler(Arc::clone(state), params, max_depth, ctx).map(Some);
        }
        Ok(self.routes.fallback.as_ref().map(|fallback| {
            let future = fallback(Arc::clone(state), owned(params), ctx);
            let boxed: BoxFuture<()> = Box::pin(async move {
                let _ = future.await;
            });
            boxed
        }))
    }

    /// Delivers a protocol event, if an event handler is registered.
    pub(crate) fn deliver_event(&self, state: &S, event: ProtocolEvent) {
        if let Some(handler) = &self.routes.on_event {
            handler(state, event);
        }
    }
}

fn owned(params: Option<RawParams<'_>>) -> Option<Box<RawValue>> {
    params.and_then(|p| RawValue::from_string(p.get().to_owned()).ok())
}
