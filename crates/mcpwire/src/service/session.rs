//! One conversation: incoming frames dispatched to concurrent handlers, their output sent
//! to the sink of the frame that caused it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::core::{Awaited, Core};
use super::observe::Observer;
use super::sink::{Outgoing, Sink, SinkReceiver};
use super::trace::{self, RequestTrace};
use super::{Attachment, CancellationToken};
use crate::engine::{self, Host, Next};
use crate::peer::{Event, Peer, ReplyFrame};
use crate::profile::Profile;
use crate::reply::RpcError;
use crate::router::Router;
#[cfg(feature = "tokio")]
use {
    super::catch::{BoxFuture, CatchUnwind},
    super::context::progress_token_of,
    super::in_place::InPlace,
    super::{AsyncCallContext, Live, PeerHandle},
    crate::answer::Answer,
    crate::context::FrameCall,
    crate::params::RawParams,
    crate::peer::Call,
};

/// Where the handlers of a frame's requests run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handlers {
    /// Each on a task of its own, running on whatever becomes of the call that received the
    /// frame (a session's POST, a byte stream).
    Spawned,
    /// Inside the call that received the frame, which returns once every one of them has
    /// answered, and drops them if it is dropped first (a stateless POST; see
    /// `service/in_place.rs`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    InPlace,
}

/// A request handler [`Session::dispatch`] started and left to its caller to run
/// ([`Handlers::InPlace`]).
#[cfg(feature = "tokio")]
type Started = BoxFuture<()>;
/// Without tokio every handler runs in place, synchronously: none is left to the caller.
#[cfg(not(feature = "tokio"))]
type Started = std::convert::Infallible;

/// The largest [`Options::max_concurrency`] honoured.
pub const MAX_CONCURRENCY: u32 = 1 << 20;

/// The JSON-RPC error code of a request refused because [`Options::max_queued`] calls already
/// wait for a handler slot (in the range JSON-RPC 2.0 reserves for server errors).
pub const SESSION_BUSY: i64 = -32004;

/// How a [`Session`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Handlers running at once (requests and notifications together). When all are busy the
    /// session stops taking new calls, so the transport stops reading. Default 64; at least
    /// 1, at most [`MAX_CONCURRENCY`].
    ///
    /// A handler waiting for a response from the other side holds its place: keep the
    /// limit above the number of handlers that may wait at once, or their responses queue
    /// behind calls that cannot start (the request timeout ends such a wait).
    pub max_concurrency: usize,
    /// Calls that may wait for a handler slot while [`max_concurrency`](Self::max_concurrency)
    /// handlers run. A transport that hands frames over concurrently (Streamable HTTP: every
    /// POST at once) could otherwise queue calls without bound; beyond this a request is
    /// answered at once with error [`SESSION_BUSY`] carrying its id, and a notification is
    /// dropped. Over a byte stream the transport stops reading instead, so at most one call
    /// waits. Default 256.
    pub max_queued: usize,
    /// How long a request to the other side waits for its response. Default 60 s.
    pub request_timeout: Option<Duration>,
    /// Messages queued for the session-wide [`Sink`] before senders wait. Default 64.
    pub sink_capacity: usize,
    /// Bound of the table of requests sent to the other side (see [`Peer`]). Default 1024.
    pub max_pending: usize,
    /// How long [`serve`](super::serve) waits, once the input has ended (the client is gone)
    /// and the handlers in flight have been cancelled, for them to finish before it returns
    /// anyway. Default 5 s.
    pub end_of_input_grace: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_concurrency: 64,
            max_queued: 256,
            request_timeout: Some(Duration::from_secs(60)),
            sink_capacity: 64,
            max_pending: crate::peer::DEFAULT_MAX_PENDING,
            end_of_input_grace: Duration::from_secs(5),
        }
    }
}

struct Shared<S> {
    core: Arc<Core>,
    router: Router<S>,
    state: Arc<S>,
    limit: Arc<Semaphore>,
    /// Calls waiting for a permit of `limit`.
    queued: AtomicUsize,
    /// `options.max_concurrency`, at least 1 and at most [`MAX_CONCURRENCY`].
    concurrency: u32,
    options: Options,
    session_sink: Sink,
    unsolicited: Mutex<Option<SinkReceiver>>,
    /// Fired by [`Session::close`]: the transport stops reading.
    closing: CancellationToken,
    /// The session's `tracing` span, parent of its requests' spans.
    span: tracing::Span,
    /// Set by [`Session::observe`].
    observer: OnceLock<Box<dyn Observer>>,
    /// Whether async handlers run; when not (the blocking [`Server`](crate::Server)'s
    /// session), a call routed to one is answered -32603, and every frame is done with once
    /// [`Session::receive`] returns. Without feature `tokio` none can be registered.
    #[cfg(feature = "tokio")]
    runs_async: bool,
}

/// A conversation with one other side, independent of the transport. Cheap to clone.
///
/// The transport calls [`receive`](Self::receive) with each incoming frame and the sink that
/// frame's output goes to, and streams the [`take_unsolicited`](Self::take_unsolicited)
/// receiver for what is not tied to a call ([`handle`](Self::handle)). Over stdio
/// ([`serve`](super::serve)) both are the same stream.
pub struct Session<S> {
    shared: Arc<Shared<S>>,
}

impl<S> Clone for Session<S> {
    fn clone(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<S> std::fmt::Debug for Session<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("router", &self.shared.router)
            .field("options", &self.shared.options)
            .finish()
    }
}

impl<S> Session<S> {
    /// Ends the conversation at once, without waiting for its handlers: the transport stops
    /// reading ([`close`](Self::close)), the handlers in flight see their tokens fire
    /// ([`cancel_in_flight`](Self::cancel_in_flight)) and the requests they wait on fail with
    /// [`RequestError::Closed`](super::RequestError::Closed). For a conversation of one
    /// exchange (an HTTP POST served statelessly) whose answer is sent or whose client left.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn end_now(&self) {
        self.shared.closing.cancel();
        let mut state = self.shared.core.lock();
        for token in state.tokens.values() {
            token.cancel();
        }
        state.input_closed = true;
        state.waiters.clear();
    }
}

impl<S> Session<S> {
    /// A session under `profile` with the default [`Options`]. The router's synchronous
    /// handlers run in place on the reading task, its async ones concurrently.
    pub fn new(profile: Profile, state: S, router: Router<S>) -> Self {
        Self::with_options(profile, Arc::new(state), router, Options::default())
    }

    /// A session with shared `state` and explicit options.
    pub fn with_options(
        profile: Profile,
        state: Arc<S>,
        router: Router<S>,
        options: Options,
    ) -> Self {
        let concurrency = options.max_concurrency.clamp(1, MAX_CONCURRENCY as usize) as u32;
        let span = trace::session_span(&profile);
        let peer = Peer::new(profile).with_max_pending(options.max_pending);
        let (session_sink, unsolicited) = Sink::channel(options.sink_capacity);
        Self {
            shared: Arc::new(Shared {
                core: Arc::new(Core::new(peer)),
                router,
                state,
                limit: Arc::new(Semaphore::new(concurrency as usize)),
                queued: AtomicUsize::new(0),
                concurrency,
                options,
                session_sink,
                unsolicited: Mutex::new(Some(unsolicited)),
                closing: CancellationToken::new(),
                span,
                observer: OnceLock::new(),
                #[cfg(feature = "tokio")]
                runs_async: true,
            }),
        }
    }

    /// Sets the [`Observer`] of what this session reads, once; `false` (and `observer` is
    /// dropped) when one is set already.
    pub fn observe(&self, observer: impl Observer) -> bool {
        self.shared.observer.set(Box::new(observer)).is_ok()
    }

    /// Switches the session to `profile` for the frames read from now on (a client learns
    /// the version from the answer to its `initialize`), replacing a switch a handler left
    /// for the next frame boundary ([`CallContext::set_profile`](crate::CallContext::set_profile)).
    pub fn set_profile(&self, profile: Profile) {
        self.shared.core.lock().set_profile(profile);
    }

    /// The shared state.
    pub fn state(&self) -> &Arc<S> {
        &self.shared.state
    }

    /// Whether async handlers run: when not (the blocking [`Server`](crate::Server)'s
    /// session), one is answered -32603. `false` (nothing changed) while another clone of
    /// the session exists.
    #[cfg(feature = "tokio")]
    pub(crate) fn set_runs_async(&mut self, runs_async: bool) -> bool {
        Arc::get_mut(&mut self.shared)
            .map(|shared| shared.runs_async = runs_async)
            .is_some()
    }

    /// The state, mutably: `None` while another clone of the session, or a handler, holds it.
    pub(crate) fn state_mut(&mut self) -> Option<&mut S> {
        Arc::get_mut(&mut Arc::get_mut(&mut self.shared)?.state)
    }

    /// The state: `None` while another clone of the session, or a handler, holds it.
    pub(crate) fn into_state(self) -> Option<S> {
        Arc::try_unwrap(Arc::try_unwrap(self.shared).ok()?.state).ok()
    }

    /// The router.
    pub(crate) fn router(&self) -> &Router<S> {
        &self.shared.router
    }

    /// The current profile.
    pub fn profile(&self) -> Profile {
        self.shared.core.lock().peer.profile().clone()
    }

    /// A handle sending to the other side through the session-wide sink (feature `tokio`).
    #[cfg(feature = "tokio")]
    pub fn handle(&self) -> PeerHandle {
        self.handle_on(self.shared.session_sink.clone())
    }

    #[cfg(feature = "tokio")]
    fn handle_on(&self, sink: Sink) -> PeerHandle {
        PeerHandle {
            core: Arc::clone(&self.shared.core),
            sink,
            timeout: self.shared.options.request_timeout,
        }
    }

    /// The session-wide sink (what [`handle`](Self::handle) sends to); over stdio it is
    /// also the sink of every incoming frame.
    pub fn session_sink(&self) -> Sink {
        self.shared.session_sink.clone()
    }

    /// The receiving end of the session-wide sink; `None` once taken.
    pub fn take_unsolicited(&self) -> Option<SinkReceiver> {
        self.shared
            .unsolicited
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// How many handlers are running.
    pub fn running(&self) -> usize {
        self.shared.concurrency as usize - self.shared.limit.available_permits()
    }

    /// Handles one incoming frame: replies that are complete at once (invalid input) go to
    /// `sink` now; each request and notification starts a handler (waiting while
    /// [`Options::max_concurrency`] handlers run) whose output and reply go to `sink`;
    /// responses go to the callers waiting for them. Returns once every handler is started,
    /// and an `initialize` request's handler finished (it may switch the profile the next
    /// frames are read under).
    pub async fn receive(&self, frame: &[u8], sink: &Sink) {
        self.receive_noting(frame, None, sink, None, |_| {}, Handlers::Spawned)
            .await
    }

    /// [`receive`](Self::receive), telling `read` whether the frame holds a request (so an
    /// [`Outgoing::Reply`] will follow once its handlers are done) as soon as the frame is
    /// read, before any handler starts: how the HTTP adapter knows where a frame's messages
    /// go without decoding the frame a second time. The handlers the frame starts see
    /// `attached` through [`CallContext::attachment`](crate::CallContext::attachment). With `split` (the scan the transport
    /// ran), the frame's JSON is not scanned again. With [`Handlers::InPlace`] this returns
    /// once every request of the frame is answered, and its handlers end with it.
    pub(crate) async fn receive_noting(
        &self,
        frame: &[u8],
        split: Option<&crate::split::FrameSplit>,
        sink: &Sink,
        attached: Option<Attachment>,
        read: impl FnOnce(bool),
        handlers: Handlers,
    ) {
        let (switched, mut received) = {
            let mut state = self.shared.core.lock();
            (
                state.frame_boundary(),
                state.peer.receive_split(frame, split),
            )
        };
        if let Some(profile) = switched {
            trace::switched(&self.shared.span, &profile);
        }
        read(
            received
                .events
                .iter()
                .any(|event| matches!(event, Event::Request { .. })),
        );
        let observer = self.shared.observer.get();
        let with_events = !received.events.is_empty();
        let answered_at_once = received.reply.is_some();
        if let Some(reply) = received.take_reply() {
            let _ = sink.send(Outgoing::Reply(Box::new(reply))).await;
        }
        #[cfg(feature = "tokio")]
        let mut in_place = InPlace::default();
        for event in received.events {
            if let Some(observer) = observer {
                observer.event(&event);
            }
            let dispatched = self.dispatch(event, sink, attached.as_ref(), handlers);
            #[cfg(feature = "tokio")]
            if let Some(started) = in_place.beside(dispatched).await {
                in_place.push(started);
            }
            #[cfg(not(feature = "tokio"))]
            let _ = dispatched.await;
        }
        #[cfg(feature = "tokio")]
        in_place.finish().await;
        if let (Some(observer), true) = (observer, answered_at_once) {
            observer.answered_at_once(frame, with_events);
        }
        // The frame is done: a handler's switch of the profile applies from the next one.
        let switched = self.shared.core.lock().frame_boundary();
        if let Some(profile) = switched {
            trace::switched(&self.shared.span, &profile);
        }
    }

    /// Takes one event through the engine (one handler slot held while a handler starts or
    /// runs in place), then runs what it started: a request's async handler on a task of its
    /// own, or with [`Handlers::InPlace`] returned to the caller to run.
    async fn dispatch(
        &self,
        event: Event<'_>,
        sink: &Sink,
        attached: Option<&Attachment>,
        handlers: Handlers,
    ) -> Option<Started> {
        let permit = match &event {
            Event::Request { .. } | Event::Notification { .. } => match self.permit().await {
                Some(permit) => Some(permit),
                None => {
                    // The session's queue is full: a request is refused with its id; a
                    // notification is dropped, as no reply can say so.
                    if let Event::Request { call, .. } = event {
                        let busy = self.busy_error();
                        let line = self.shared.core.lock().peer.reply_frame(call, Err(&busy));
                        if let Some(line) = line {
                            let _ = sink.send(Outgoing::Reply(Box::new(line))).await;
                        }
                    }
                    return None;
                }
            },
            _ => None,
        };
        #[cfg(feature = "tokio")]
        let initialize = matches!(&event, Event::Request { method, .. } if method == "initialize");
        let trace = match &event {
            Event::Request { call, method, .. } => {
                let profile = self.shared.core.lock().peer.profile().clone();
                Some(RequestTrace::new(
                    &self.shared.span,
                    method,
                    call.id(),
                    &profile,
                ))
            }
            _ => None,
        };
        let mut host = SessionHost {
            session: self,
            sink,
            attached,
        };
        let next = {
            // A synchronous handler runs in place, inside its request's span.
            let _entered = trace.as_ref().map(|t| t.span().enter());
            engine::dispatch(&self.shared.router, &mut host, event)
        };
        match next {
            Next::Reply(reply) => {
                if let Some(trace) = &trace {
                    trace.replied(reply.as_ref().map(ReplyFrame::facts));
                }
                if let Some(reply) = reply {
                    let _ = sink.send(Outgoing::Reply(Box::new(reply))).await;
                }
            }
            #[cfg(feature = "tokio")]
            Next::Request { call, started } => {
                let permit = permit.expect("a request holds a permit");
                let handler = self.request_task(call, started, sink.clone(), permit, trace);
                // The handshake switches the profile to the version it agrees: the frames
                // after it are read under that version, in input order, as a blocking server
                // reads them (a client sends nothing else before its answer anyway).
                match handlers {
                    // Boxed: its state must not size every dispatch's future.
                    Handlers::InPlace if initialize => Box::pin(handler).await,
                    Handlers::InPlace => return Some(Box::pin(handler)),
                    Handlers::Spawned => {
                        let handler = tokio::spawn(handler);
                        if initialize {
                            let _ = handler.await;
                        }
                    }
                }
            }
            #[cfg(feature = "tokio")]
            Next::Notification(future) => {
                tokio::spawn(async move {
                    let _ = CatchUnwind::new(future).await;
                    drop(permit);
                });
            }
            Next::Host(event) => self.answer(event),
        }
        // Without async handlers every handler ran in place: its slot is free again.
        #[cfg(not(feature = "tokio"))]
        drop(permit);
        #[cfg(not(feature = "tokio"))]
        let _ = handlers;
        None
    }

    /// Acts on what concerns this side's own requests: cancellations of the requests in
    /// flight, and the answers to the requests it sent.
    fn answer(&self, event: Event<'_>) {
        let core = &self.shared.core;
        match event {
            Event::Cancelled { call, .. } => {
                if let Some(token) = core.lock().tokens.get(&call) {
                    token.cancel();
                }
            }
            Event::Response { id, outcome, .. } => core.answer(
                id,
                match outcome {
                    Ok(result) => Awaited::Result(result),
                    Err(error) => Awaited::Error(error),
                },
            ),
            Event::InvalidResult { id, error, .. } => {
                core.answer(id, Awaited::InvalidResult(error))
            }
            Event::MalformedResponse { id, defect, .. } => {
                core.answer(id, Awaited::Malformed(defect))
            }
            // The engine takes requests, notifications and what it reports.
            Event::Request { .. }
            | Event::Notification { .. }
            | Event::InvalidNotification { .. }
            | Event::LateResponse { .. }
            | Event::UnmatchedResponse(_) => {}
        }
    }

    /// A handler slot, waiting in the queue for one while every slot is busy; `None` when
    /// [`Options::max_queued`] calls wait already.
    async fn permit(&self) -> Option<OwnedSemaphorePermit> {
        let limit = &self.shared.limit;
        if let Ok(permit) = Arc::clone(limit).try_acquire_owned() {
            return Some(permit);
        }
        let queued = &self.shared.queued;
        let max = self.shared.options.max_queued;
        if queued
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .is_err()
        {
            return None;
        }
        /// Leaves the queue however the wait ends (the caller's future may be dropped).
        struct Waiting<'a>(&'a AtomicUsize);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let _waiting = Waiting(queued);
        let permit = Arc::clone(limit).acquire_owned().await;
        Some(permit.expect("the semaphore is never closed"))
    }

    fn busy_error(&self) -> RpcError {
        RpcError::new(
            SESSION_BUSY,
            format!(
                "server busy: {} calls already wait for one of this session's {} handler slots; retry later",
                self.shared.options.max_queued, self.shared.concurrency
            ),
        )
    }

    /// Registers the call's cancellation token (fired already if a cancellation read in
    /// the same frame named it).
    #[cfg(feature = "tokio")]
    fn track(&self, call: &Call) -> CancellationToken {
        let token = CancellationToken::new();
        let mut state = self.shared.core.lock();
        if state.peer.is_cancelled(call.key()) {
            token.cancel();
        }
        state.tokens.insert(call.key(), token.clone());
        token
    }

    /// A request's handler, to run: awaited, then answered on `sink` (its cancellation token
    /// dropped, its slot freed), inside the request's span.
    #[cfg(feature = "tokio")]
    fn request_task(
        &self,
        call: Call,
        started: Result<BoxFuture<Result<Answer, RpcError>>, RpcError>,
        sink: Sink,
        permit: OwnedSemaphorePermit,
        trace: Option<RequestTrace>,
    ) -> tracing::instrument::Instrumented<impl Future<Output = ()> + Send + 'static> {
        let core = Arc::clone(&self.shared.core);
        let span = trace
            .as_ref()
            .map_or_else(tracing::Span::none, |t| t.span().clone());
        let task = async move {
            let outcome = match started {
                Ok(future) => CatchUnwind::new(future)
                    .await
                    .unwrap_or_else(|| Err(RpcError::internal_error())),
                Err(error) => Err(error),
            };
            let error_code = outcome.as_ref().err().map(RpcError::code);
            let (line, version) = {
                let mut state = core.lock();
                state.tokens.remove(&call.key());
                // A reply the handler wrote becomes the line itself: the result is not copied.
                let line = state.peer.reply_answer(call, outcome);
                (line, trace::version_of(state.peer.profile()))
            };
            if let Some(trace) = &trace {
                trace.answered(error_code, line.is_some(), version);
            }
            if let Some(line) = line {
                let _ = sink.send(Outgoing::Reply(Box::new(line))).await;
            }
            drop(permit);
        };
        tracing::Instrument::instrument(task, span)
    }

    /// [`Options::end_of_input_grace`].
    #[cfg(feature = "tokio")]
    pub(crate) fn end_of_input_grace(&self) -> Duration {
        self.shared.options.end_of_input_grace
    }

    /// Fires the [`CancellationToken`] of every request whose handler is running, for a
    /// transport whose conversation ends while handlers run (a Streamable HTTP session that is
    /// deleted or expires). A handler that returns anyway is still answered on its frame's
    /// sink, if that is still read.
    pub fn cancel_in_flight(&self) {
        for token in self.shared.core.lock().tokens.values() {
            token.cancel();
        }
    }

    /// Hangs up: the transport stops reading as if the input had ended, so
    /// [`serve`](super::serve) lets the handlers in flight finish, writes what they sent,
    /// closes the output (the other side sees end of input) and returns. How a client ends a
    /// conversation.
    pub fn close(&self) {
        self.shared.closing.cancel();
    }

    /// No response can arrive any more: callers waiting for one get
    /// [`RequestError::Closed`](super::RequestError::Closed).
    fn end_input(&self) {
        let mut state = self.shared.core.lock();
        state.input_closed = true;
        state.waiters.clear();
    }

    /// Completes when [`close`](Self::close) is called.
    pub async fn closed(&self) {
        self.shared.closing.cancelled().await
    }

    /// Ends the session after its input ended: callers waiting for responses get
    /// [`RequestError::Closed`](super::RequestError::Closed) (no response can arrive any
    /// more); returns once every handler has finished and queued its reply.
    pub async fn finish(&self) {
        self.end_input();
        let _all = self
            .shared
            .limit
            .acquire_many(self.shared.concurrency)
            .await
            .expect("the semaphore is never closed");
    }
}

/// A session as the engine's host: the peer behind the session's lock, the shared state,
/// async handlers started with a context sending to the sink of the frame being read.
struct SessionHost<'s, S> {
    session: &'s Session<S>,
    /// Where an async handler's context sends.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    sink: &'s Sink,
    /// What the transport attached to the frame.
    attached: Option<&'s Attachment>,
}

impl<S> Host<S> for SessionHost<'_, S> {
    fn state(&self) -> &S {
        &self.session.shared.state
    }

    fn with_peer<T>(&mut self, f: impl FnOnce(&mut Peer) -> T) -> T {
        f(&mut self.session.shared.core.lock().peer)
    }

    fn core(&self) -> &Core {
        &self.session.shared.core
    }

    fn attached(&self) -> Option<&Attachment> {
        self.attached
    }

    #[cfg(feature = "tokio")]
    fn async_call(
        &mut self,
        call: Option<&Call>,
        method: &str,
        profile: &Profile,
        token_from: Option<RawParams<'_>>,
    ) -> Option<(Arc<S>, AsyncCallContext)> {
        let shared = &self.session.shared;
        if !shared.runs_async {
            return None;
        }
        let token = match call {
            Some(call) => self.session.track(call),
            None => CancellationToken::new(),
        };
        let live = Live::new(
            self.session.handle_on(self.sink.clone()),
            token,
            progress_token_of(token_from),
        );
        let call = FrameCall {
            id: call.map(|call| call.id().as_id()),
            method,
            profile,
            attached: self.attached,
            core: &shared.core,
        };
        let ctx = AsyncCallContext::new(&call, live);
        Some((Arc::clone(&shared.state), ctx))
    }
}
