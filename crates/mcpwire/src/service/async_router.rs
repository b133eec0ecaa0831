//! The former async-only router, kept so that code written against it still builds: a
//! builder that registers on the one [`Router`] under the names it had.

use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::AsyncContext;
use crate::events::ProtocolEvent;
use crate::reply::RpcError;
use crate::router::Router;

/// The async registrations of [`Router`] under their former names: `request` is
/// [`Router::request_async`], `notification` [`Router::notification_async`], `fallback`
/// [`Router::fallback_async`]. Converts into the [`Router`] it builds.
#[deprecated(
    note = "use `mcpwire::Router` with `request_async`, `notification_async`, `fallback_async`"
)]
pub struct AsyncRouter<S>(Router<S>);

#[allow(deprecated)]
impl<S> std::fmt::Debug for AsyncRouter<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[allow(deprecated)]
impl<S: Send + Sync + 'static> Default for AsyncRouter<S> {
    fn default() -> Self {
        Self::new()
    }
}

#[allow(deprecated)]
impl<S> From<AsyncRouter<S>> for Router<S> {
    fn from(router: AsyncRouter<S>) -> Router<S> {
        router.0
    }
}

#[allow(deprecated)]
impl<S: Send + Sync + 'static> AsyncRouter<S> {
    /// An empty router.
    pub fn new() -> Self {
        Self(Router::new())
    }

    /// [`Router::request_async`].
    pub fn request<P, R, F, Fut>(self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        R: Serialize,
        F: Fn(Arc<S>, P, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, RpcError>> + Send + 'static,
    {
        Self(self.0.request_async(method, handler))
    }

    /// [`Router::notification_async`].
    pub fn notification<P, F, Fut>(self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        F: Fn(Arc<S>, P, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        Self(self.0.notification_async(method, handler))
    }

    /// [`Router::fallback_async`].
    pub fn fallback<F, Fut>(self, handler: F) -> Self
    where
        F: Fn(Arc<S>, Option<Box<RawValue>>, AsyncContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Box<RawValue>, RpcError>> + Send + 'static,
    {
        Self(self.0.fallback_async(handler))
    }

    /// [`Router::on_event`].
    pub fn on_event<F>(self, handler: F) -> Self
    where
        F: Fn(&S, ProtocolEvent) + Send + Sync + 'static,
    {
        Self(self.0.on_event(handler))
    }

    /// [`Router::has_request`].
    pub fn has_request(&self, method: &str) -> bool {
        self.0.has_request(method)
    }

    /// [`Router::has_notification`].
    pub fn has_notification(&self, method: &str) -> bool {
        self.0.has_notification(method)
    }
}
