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

use crate::answer::Answer;
use crate::context::{Attachment, CallContext, FrameCall};
use crate::decode::RawNotification;
use crate::events::ProtocolEvent;
use crate::id::Id;
use crate::params::RawParams;
use crate::peer::{Call, Event, Peer, ReplyFrame};
use crate::profile::Profile;
use crate::reply::RpcError;
use crate::router::{FallbackHandler, NotificationHandler, RequestHandler, Route, Router};
use crate::service::core::Core;

#[cfg(feature = "tokio")]
use {crate::service::AsyncCallContext, crate::service::BoxFuture, std::sync::Arc};

/// Where the engine finds the peer and the state.
pub(crate) trait Host<S> {
    /// The state synchronous handlers and the event handler see.
    fn state(&self) -> &S;

    /// Runs `f` on the peer (no handler runs inside `f`).
    fn with_peer<T>(&mut self, f: impl FnOnce(&mut Peer) -> T) -> T;

    /// The session's core, where a handler's switch of the profile waits for the end of
    /// the frame.
    fn core(&self) -> &Core;

    /// What the transport attached to the frame being taken.
    fn attached(&self) -> Option<&Attachment>;

    /// The state and context an async handler of this call, decoded under `profile`, runs
    /// with (`call` is `None` for a notification); `None` when this host cannot run async
    /// handlers. The context's progress token is read from `token_from`'s
    /// `_meta.progressToken` (`None`: the handler gives it, or there is none).
    #[cfg(feature = "tokio")]
    fn async_call(
        &mut self,
        call: Option<&Call>,
        method: &str,
        profile: &Profile,
        token_from: Option<RawParams<'_>>,
    ) -> Option<(Arc<S>, AsyncCallContext)>;
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
        started: Result<BoxFuture<Result<Answer, RpcError>>, RpcError>,
    },
    /// An async notification handler to run.
    #[cfg(feature = "tokio")]
    Notification(BoxFuture<()>),
    /// Not the router's business: the answer to a request this side sent, or a cancellation
    /// (the blocking driver, which sends no requests, has nothing to do with it).
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    Host(Event<'a>),
}

/// Takes one event of a frame. A handler's switch of the profile waits in the host's core
/// for the end of the frame (see [`CallContext::set_profile`]).
pub(crate) fn dispatch<'a, S, H: Host<S>>(
    router: &Router<S>,
    host: &mut H,
    event: Event<'a>,
) -> Next<'a> {
    match event {
        Event::Request {
            call,
            id,
            method,
            params,
        } => request(router, host, call, id, &method, params),
        Event::Notification(RawNotification { method, params }) => {
            notification(router, host, method, params)
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
) -> Next<'a> {
    if host.with_peer(|peer| peer.is_over_batch_budget(call.key())) {
        let error = RpcError::batch_reply_too_large();
        return Next::Reply(host.with_peer(|peer| peer.reply_frame(call, Err(&error))));
    }
    let profile = host.with_peer(|peer| peer.profile().clone());
    let state = host.state();
    let in_place = |run: &dyn Fn(&mut CallContext<'_>) -> Result<Answer, RpcError>| {
        let call = frame_call(host, Some(id), method, &profile);
        run_sync(&call, run).unwrap_or_else(|| Err(RpcError::internal_error()))
    };
    let outcome = match router.request_route(method) {
        Route::None => Err(RpcError::method_not_found()),
        Route::Handler(RequestHandler::Sync(handler)) => {
            in_place(&|ctx| handler(state, params, ctx))
        }
        Route::Fallback(FallbackHandler::Sync(fallback)) => {
            in_place(&|ctx| fallback(state, params, ctx))
        }
        #[cfg(feature = "tokio")]
        Route::Handler(RequestHandler::Async(handler)) => {
            match host.async_call(Some(&call), method, &profile, params) {
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
            // A fallback that reads `_meta` itself gives the context its token: the params
            // are not read for it here.
            let token_from = params.filter(|_| !router.fallback_reads_progress_token);
            match host.async_call(Some(&call), method, &profile, token_from) {
                Some((state, ctx)) => {
                    let started = catch_unwind(AssertUnwindSafe(|| fallback(state, params, ctx)))
                        .unwrap_or_else(|_panic| Err(RpcError::internal_error()));
                    return Next::Request { call, started };
                }
                None => Err(RpcError::internal_error()),
            }
        }
    };
    Next::Reply(host.with_peer(|peer| peer.reply_answer(call, outcome)))
}

fn notification<'a, S, H: Host<S>>(
    router: &Router<S>,
    host: &mut H,
    method: Cow<'_, str>,
    params: Option<RawParams<'_>>,
) -> Next<'a> {
    let profile = host.with_peer(|peer| peer.profile().clone());
    let state = host.state();
    let invalid = match router.notification_route(&method) {
        Route::None => None,
        Route::Handler(NotificationHandler::Sync(handler)) => {
            let call = frame_call(host, None, &method, &profile);
            run_sync(&call, &|ctx| handler(state, params, ctx)).flatten()
        }
        Route::Fallback(FallbackHandler::Sync(fallback)) => {
            let call = frame_call(host, None, &method, &profile);
            run_sync(&call, &|ctx| {
                let _ = fallback(state, params, ctx);
            });
            None
        }
        #[cfg(feature = "tokio")]
        Route::Handler(NotificationHandler::Async(handler)) => {
            let Some((state, ctx)) = host.async_call(None, &method, &profile, params) else {
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
            let Some((state, ctx)) = host.async_call(None, &method, &profile, params) else {
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

/// The call a synchronous handler runs for, as it lies in the frame `host` is taking.
fn frame_call<'a, S, H: Host<S>>(
    host: &'a H,
    id: Option<Id<'a>>,
    method: &'a str,
    profile: &'a Profile,
) -> FrameCall<'a> {
    FrameCall {
        id,
        method,
        profile,
        attached: host.attached(),
        core: host.core(),
    }
}

/// Runs a synchronous handler for `call` inside `catch_unwind` (`None`: it panicked).
fn run_sync<T>(call: &FrameCall<'_>, run: &dyn Fn(&mut CallContext<'_>) -> T) -> Option<T> {
    let mut ctx = CallContext::new(call);
    catch_unwind(AssertUnwindSafe(|| run(&mut ctx))).ok()
}

/// Delivers a protocol event to the router's event handler (a panic there is silent).
pub(crate) fn deliver<S>(router: &Router<S>, state: &S, event: ProtocolEvent) {
    let _ = catch_unwind(AssertUnwindSafe(|| router.deliver_event(state, event)));
}
