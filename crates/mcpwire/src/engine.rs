//! The one dispatch path from a peer [`Event`] to the [`Router`]'s handler and back to the
//! peer's reply, for synchronous and async handlers alike.
//!
//! Synchronous handlers run in place, inside `catch_unwind` (a panicking request handler is
//! answered -32603 `Internal error` with the id, the panic message staying local; a
//! panicking notification or event handler is silent). Async handlers are started here and
//! handed to the host to run. The host is the async [`Session`](crate::service::Session),
//! the one driver (the blocking [`Server`](crate::Server) drives a session in place): where
//! the peer and the state live, and whether async handlers run at all.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::context::CallContext;
use crate::decode::RawNotification;
use crate::events::ProtocolEvent;
use crate::id::Id;
use crate::params::RawParams;
use crate::peer::{Call, Event, Peer, ReplyFrame};
use crate::profile::Profile;
use crate::reply::RpcError;
use crate::router::{FallbackHandler, NotificationHandler, RequestHandler, Route, Router};

#[cfg(feature = "tokio")]
use {crate::service::AsyncContext, crate::service::BoxFuture, std::sync::Arc};

/// Where the engine finds the peer and the state.
pub(crate) trait Host<S> {
    /// The state synchronous handlers and the event handler see.
    fn state(&self) -> &S;

    /// Runs `f` on the peer (no handler runs inside `f`).
    fn with_peer<T>(&mut self, f: impl FnOnce(&mut Peer) -> T) -> T;

    /// The state and context an async handler of this call runs with (`call` is `None` for a
    /// notification); `None` when this host cannot run async handlers.
    #[cfg(feature = "tokio")]
    fn async_call(
        &mut self,
        call: Option<&Call>,
        method: &str,
        params: Option<RawParams<'_>>,
    ) -> Option<(Arc<S>, AsyncContext)>;
}

/// What is left for the host once the engine has taken an event.
pub(crate) enum Next<'a> {
    /// Handled: this reply is to be sent, if any.
    Reply(Option<ReplyFrame>),
    /// An async request handler was started, or failed to start (bad params, a panic): the
    /// host runs it and passes `call` and its outcome to [`Peer::reply`].
    #[cfg(feature = "tokio")]
    Request {
        call: Call,
        started: Result<BoxFuture<Result<String, RpcError>>, RpcError>,
    },
    /// An async notification handler to run.
    #[cfg(feature = "tokio")]
    Notification(BoxFuture<()>),
    /// Not the router's business: the answer to a request this side sent, or a cancellation
    /// (the blocking driver, which sends no requests, has nothing to do with it).
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    Host(Event<'a>),
}

/// Takes one event of a frame. A handler's switch of the profile is left in `switch_to`, to
/// apply once the whole frame is taken.
pub(crate) fn dispatch<'a, S, H: Host<S>>(
    router: &Router<S>,
    host: &mut H,
    event: Event<'a>,
    switch_to: &mut Option<Profile>,
) -> Next<'a> {
    match event {
        Event::Request {
            call,
            id,
            method,
            params,
        } => request(router, host, call, id, &method, params, switch_to),
        Event::Notification(RawNotification { method, params }) => {
            notification(router, host, method, params, switch_to)
        }
        event @ (Event::InvalidNotification { .. }
        | Event::LateResponse { .. }
        | Event::UnmatchedResponse(_)) => {
            if let Some(reported) = event.protocol_event() {
                deliver(router, host.state(), reported);
            }
            Next::Reply(None)
        }
        other => Next::Host(other),
    }
}

fn request<'a, S, H: Host<S>>(
    router: &Router<S>,
    host: &mut H,
    call: Call,
    id: Id<'_>,
    method: &str,
    params: Option<RawParams<'_>>,
    switch_to: &mut Option<Profile>,
) -> Next<'a> {
    if host.with_peer(|peer| peer.is_over_batch_budget(call.key())) {
        let error = RpcError::batch_reply_too_large();
        return Next::Reply(host.with_peer(|peer| peer.reply_frame(call, Err(&error))));
    }
    let profile = host.with_peer(|peer| peer.profile().clone());
    let state = host.state();
    let in_place = |run: &dyn Fn(&mut CallContext<'_>) -> Result<String, RpcError>,
                    switch_to: &mut Option<Profile>| {
        run_sync(&profile, Some(id), method, switch_to, run)
            .unwrap_or_else(|| Err(RpcError::internal_error()))
    };
    let outcome = match router.request_route(method) {
        Route::None => Err(RpcError::method_not_found()),
        Route::Handler(RequestHandler::Sync(handler)) => {
            in_place(&|ctx| handler(state, params, ctx), switch_to)
        }
        Route::Fallback(FallbackHandler::Sync(fallback)) => in_place(
            &|ctx| fallback(state, params, ctx).map(into_string),
            switch_to,
        ),
        #[cfg(feature = "tokio")]
        Route::Handler(RequestHandler::Async(handler)) => {
            match host.async_call(Some(&call), method, params) {
                Some((state, ctx)) => {
                    let depth = profile.limits().max_params_depth;
                    let started =
                        catch_unwind(AssertUnwindSafe(|| handler(state, params, depth, ctx)))
                            .unwrap_or_else(|_panic| Err(RpcError::internal_error()));
                    return Next::Request { call, started };
                }
                None => Err(RpcError::internal_error()),
            }
        }
        #[cfg(feature = "tokio")]
        Route::Fallback(FallbackHandler::Async(fallback)) => {
            match host.async_call(Some(&call), method, params) {
                Some((state, ctx)) => {
                    let started = catch_unwind(AssertUnwindSafe(|| {
                        let future = fallback(state, params, ctx)?;
                        let boxed: BoxFuture<Result<String, RpcError>> =
                            Box::pin(async move { future.await.map(into_string) });
                        Ok(boxed)
                    }))
                    .unwrap_or_else(|_panic| Err(RpcError::internal_error()));
                    return Next::Request { call, started };
                }
                None => Err(RpcError::internal_error()),
            }
        }
    };
    Next::Reply(host.with_peer(|peer| peer.reply_frame(call, outcome.as_deref())))
}

fn notification<'a, S, H: Host<S>>(
    router: &Router<S>,
    host: &mut H,
    method: Cow<'_, str>,
    params: Option<RawParams<'_>>,
    switch_to: &mut Option<Profile>,
) -> Next<'a> {
    let profile = host.with_peer(|peer| peer.profile().clone());
    let state = host.state();
    let invalid = match router.notification_route(&method) {
        Route::None => None,
        Route::Handler(NotificationHandler::Sync(handler)) => {
            run_sync(&profile, None, &method, switch_to, &|ctx| {
                handler(state, params, ctx)
            })
            .flatten()
        }
        Route::Fallback(FallbackHandler::Sync(fallback)) => {
            run_sync(&profile, None, &method, switch_to, &|ctx| {
                let _ = fallback(state, params, ctx);
            });
            None
        }
        #[cfg(feature = "tokio")]
        Route::Handler(NotificationHandler::Async(handler)) => {
            let Some((state, ctx)) = host.async_call(None, &method, params) else {
                return Next::Reply(None);
            };
            let depth = profile.limits().max_params_depth;
            match catch_unwind(AssertUnwindSafe(|| handler(state, params, depth, ctx))) {
                Ok(Ok(future)) => return Next::Notification(future),
                Ok(Err(error)) => Some(error),
                Err(_panic) => None,
            }
        }
        #[cfg(feature = "tokio")]
        Route::Fallback(FallbackHandler::Async(fallback)) => {
            let Some((state, ctx)) = host.async_call(None, &method, params) else {
                return Next::Reply(None);
            };
            let started = catch_unwind(AssertUnwindSafe(|| {
                let future = fallback(state, params, ctx).ok()?;
                let boxed: BoxFuture<()> = Box::pin(async move {
                    let _ = future.await;
                });
                Some(boxed)
            }));
            // A fallback's answer to a notification, an error included, goes nowhere.
            return match started {
                Ok(Some(future)) => Next::Notification(future),
                Ok(None) | Err(_) => Next::Reply(None),
            };
        }
    };
    if let Some(error) = invalid {
        let method = method.into_owned();
        deliver(
            router,
            host.state(),
            ProtocolEvent::InvalidNotification { method, error },
        );
    }
    Next::Reply(None)
}

/// Runs a synchronous handler inside `catch_unwind` (`None`: it panicked), keeping the
/// profile it switched to.
fn run_sync<T>(
    profile: &Profile,
    id: Option<Id<'_>>,
    method: &str,
    switch_to: &mut Option<Profile>,
    run: &dyn Fn(&mut CallContext<'_>) -> T,
) -> Option<T> {
    let mut ctx = CallContext::new(profile, id, method);
    let outcome = catch_unwind(AssertUnwindSafe(|| run(&mut ctx))).ok();
    if let Some(profile) = ctx.take_profile_switch() {
        *switch_to = Some(profile);
    }
    outcome
}

/// Delivers a protocol event to the router's event handler (a panic there is silent).
pub(crate) fn deliver<S>(router: &Router<S>, state: &S, event: ProtocolEvent) {
    let _ = catch_unwind(AssertUnwindSafe(|| router.deliver_event(state, event)));
}

/// A fallback's raw result as the reply's text, without a copy (a tool's large result is
/// held once, not twice).
fn into_string(raw: Box<serde_json::value::RawValue>) -> String {
    Box::<str>::from(raw).into_string()
}
