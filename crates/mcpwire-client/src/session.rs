//! The client session over the sans-IO [`Peer`]: outgoing requests and their pending
//! table, the reader task that dispatches every incoming frame (responses to the calls
//! waiting for them, server requests to the handlers, notifications to the callbacks), and
//! the end of the connection failing every pending call.
//!
//! One lock guards the peer and the tables; it is never held across an `await` or while
//! application code (a handler, a callback) runs.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use mcpwire::peer::{AnyResult, CallKey, Event, OutgoingId, Peer, ProgressParams, Request};
use mcpwire::{Decoded, Profile, RpcError};
use serde_json::{Map, Value};
use tokio::sync::{Notify, Semaphore, mpsc, oneshot};
use tokio::time::Instant;

use crate::error::ClientError;
use crate::handlers::Handlers;
use crate::listen::ListenEvent;
use crate::meta::{self, StatelessMeta};
use crate::notify::{Callbacks, ProgressEvent};
use crate::options::{CallOptions, ProgressSink, Timeout};
use crate::transport::{
    Connection, FrameKind, Incoming, IncomingReceiver, OutgoingFrame, TransportError,
};
use crate::versions;
use crate::violation::{Rule, Violation, excerpt};
use mcpwire_model::Version;

/// How many answered request ids are remembered to tell a duplicate response from a late
/// one.
const ANSWERED_MEMORY: usize = 256;

/// How many replies to invalid frames may be on their way at once; beyond that they are
/// dropped (a server flooding garbage while not reading cannot pile up tasks).
const MAX_REPLIES_IN_FLIGHT: usize = 32;

/// `R` sent with params as a JSON object (so `_meta` can be added): same method, same
/// result type.
pub(crate) struct WithMeta<R>(PhantomData<R>);

impl<R: Request> Request for WithMeta<R> {
    const METHOD: &'static str = R::METHOD;
    type Params = Map<String, Value>;
    type Result = R::Result;
}

/// What HTTP routes on, known when the call is made.
#[derive(Debug, Clone, Default)]
pub(crate) struct Target {
    /// The tool, prompt or resource URI the request is about.
    pub(crate) name: Option<String>,
    /// The `Mcp-Param-*` values.
    pub(crate) param_headers: Vec<(String, String)>,
}

impl Target {
    /// A target naming `name` (no parameter headers).
    pub(crate) fn named(name: &str) -> Self {
        Self {
            name: Some(name.to_owned()),
            param_headers: Vec::new(),
        }
    }
}

/// The settings of a session, fixed when it starts.
pub(crate) struct Settings {
    pub(crate) handlers: Handlers,
    pub(crate) callbacks: Callbacks,
    pub(crate) client_info: Value,
    pub(crate) default_timeout: Option<Duration>,
    pub(crate) max_pending: usize,
    pub(crate) max_serving: usize,
    pub(crate) check_results: bool,
}

/// A call waiting for its response.
struct Waiter {
    reply: oneshot::Sender<Result<AnyResult, ClientError>>,
    progress: Option<ProgressSink>,
    tick: Arc<Notify>,
    token: Option<u64>,
}

/// The mutable state behind the lock.
struct State {
    peer: Peer,
    /// The version frames are sent under; `None` before the handshake answered.
    version: Option<Version>,
    /// The `_meta` every request carries under a stateless version.
    stateless: Option<StatelessMeta>,
    waiting: HashMap<OutgoingId, Waiter>,
    tokens: HashMap<u64, OutgoingId>,
    next_token: u64,
    serving: HashMap<CallKey, oneshot::Sender<()>>,
    answered: VecDeque<OutgoingId>,
    listeners: HashMap<OutgoingId, mpsc::Sender<ListenEvent>>,
    ended: Option<TransportError>,
}

/// One client session.
pub(crate) struct Session {
    state: Mutex<State>,
    connection: Box<dyn Connection>,
    pub(crate) settings: Settings,
    serving_slots: Arc<Semaphore>,
    reply_slots: Arc<Semaphore>,
}

/// What the reader does after releasing the lock.
enum After {
    Serve {
        call: mcpwire::peer::Call,
        method: String,
        params: Option<String>,
    },
    Notify {
        method: String,
        params: Option<String>,
    },
    Violation(Violation),
}

impl Session {
    /// A session over `connection`, its peer under `profile`.
    pub(crate) fn new(
        connection: Box<dyn Connection>,
        profile: Profile,
        settings: Settings,
    ) -> Self {
        let peer = Peer::new(profile).with_max_pending(settings.max_pending);
        let serving_slots = Arc::new(Semaphore::new(settings.max_serving));
        Self {
            state: Mutex::new(State {
                peer,
                version: None,
                stateless: None,
                waiting: HashMap::new(),
                tokens: HashMap::new(),
                next_token: 1,
                serving: HashMap::new(),
                answered: VecDeque::new(),
                listeners: HashMap::new(),
                ended: None,
            }),
            connection,
            settings,
            serving_slots,
            reply_slots: Arc::new(Semaphore::new(MAX_REPLIES_IN_FLIGHT)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version in force (`None` before the handshake).
    pub(crate) fn version(&self) -> Option<Version> {
        self.lock().version
    }

    /// Settles the version: frames are sent under it, and what the server sends is judged
    /// by its rules. Under a stateless version every request states it in `_meta`.
    pub(crate) fn settle(&self, version: Version, stateless: Option<StatelessMeta>) {
        let mut state = self.lock();
        let profile = state.peer.profile().negotiated(version.facts());
        state.peer.set_profile(profile);
        state.version = Some(version);
        state.stateless = stateless;
    }

    /// Prepares the handshake under `requested`: its rules apply to the answer, and no
    /// version is stated on the wire until the server has answered.
    pub(crate) fn settle_handshake(&self, requested: Version) {
        let mut state = self.lock();
        let profile = state.peer.profile().negotiated(requested.facts());
        state.peer.set_profile(profile);
        state.version = None;
        state.stateless = None;
    }

    /// Sets the log level stated in every stateless request's `_meta`.
    pub(crate) fn set_stateless_log_level(&self, level: Option<String>) -> bool {
        match &mut self.lock().stateless {
            Some(meta) => {
                meta.log_level = level;
                true
            }
            None => false,
        }
    }

    /// Sends a request and waits for its result (see [`CallOptions`] for timeout and
    /// progress). Dropping the future sends `notifications/cancelled` (except for
    /// `initialize`, which MCP says cannot be cancelled).
    pub(crate) async fn call<R: Request>(
        self: &Arc<Self>,
        params: Map<String, Value>,
        target: Target,
        options: &CallOptions,
    ) -> Result<R::Result, ClientError> {
        let call = self.start::<R>(params, target, options, None)?;
        let pending = PendingCall {
            session: Arc::clone(self),
            id: call.id,
            armed: true,
            cancellable: R::METHOD != "initialize",
        };
        self.send_request(
            pending,
            call.frame,
            call.receiver,
            call.tick,
            options,
            R::METHOD,
        )
        .await
        .and_then(|result| downcast::<R::Result>(R::METHOD, result))
    }

    /// Allocates the request, records it as waiting and builds its frame.
    fn start<R: Request>(
        self: &Arc<Self>,
        mut params: Map<String, Value>,
        target: Target,
        options: &CallOptions,
        listener: Option<mpsc::Sender<ListenEvent>>,
    ) -> Result<Started, ClientError> {
        let mut state = self.lock();
        if let Some(error) = &state.ended {
            return Err(ClientError::Transport(error.clone()));
        }
        if let Some(stateless) = &state.stateless {
            stateless.inject(&mut params);
        }
        let token = options.wants_progress().then(|| {
            let token = state.next_token;
            state.next_token += 1;
            meta::set(&mut params, "progressToken", Value::from(token));
            token
        });
        let (id, bytes) = state
            .peer
            .request::<WithMeta<R>>(&params, None)
            .map_err(|error| match error {
                mcpwire::peer::SendError::TooManyPending { max } => {
                    ClientError::TooManyPending { max }
                }
                other => ClientError::Params(other.to_string()),
            })?;
        let (reply, receiver) = oneshot::channel();
        let tick = Arc::new(Notify::new());
        state.waiting.insert(
            id,
            Waiter {
                reply,
                progress: options.progress.clone(),
                tick: Arc::clone(&tick),
                token,
            },
        );
        if let Some(token) = token {
            state.tokens.insert(token, id);
        }
        if let Some(listener) = listener {
            state.listeners.insert(id, listener);
        }
        let protocol_version = match R::METHOD {
            "initialize" => None,
            _ => state
                .version
                .map(Version::as_str)
                .or_else(|| state.peer.profile().protocol_version()),
        };
        let frame = OutgoingFrame {
            bytes,
            kind: FrameKind::Request(id),
            method: Some(Cow::Borrowed(R::METHOD)),
            name: target.name,
            protocol_version,
            param_headers: target.param_headers,
        };
        Ok(Started {
            id,
            frame,
            receiver,
            tick,
        })
    }

    async fn send_request(
        &self,
        mut pending: PendingCall,
        frame: OutgoingFrame,
        receiver: oneshot::Receiver<Result<AnyResult, ClientError>>,
        tick: Arc<Notify>,
        options: &CallOptions,
        method: &str,
    ) -> Result<AnyResult, ClientError> {
        if let Err(error) = self.connection.send(frame).await {
            pending.forget();
            return Err(ClientError::Transport(error));
        }
        let timeout = match options.timeout {
            Timeout::Default => self.settings.default_timeout,
            Timeout::Never => None,
            Timeout::After(timeout) => Some(timeout),
        };
        let outcome = wait(receiver, &tick, timeout, options).await;
        match outcome {
            Some(outcome) => {
                pending.armed = false;
                outcome
            }
            None => {
                pending.cancel("timed out");
                Err(ClientError::Timeout {
                    method: method.to_owned(),
                    after: timeout.unwrap_or_default(),
                })
            }
        }
    }

    /// Opens a long-lived request (`subscriptions/listen`): its notifications go to
    /// `events`; the returned guard cancels it when dropped.
    pub(crate) async fn open_listen<R: Request>(
        self: &Arc<Self>,
        params: Map<String, Value>,
        events: mpsc::Sender<ListenEvent>,
    ) -> Result<PendingCall, ClientError> {
        let options = CallOptions::new().no_timeout();
        let call = self.start::<R>(params, Target::default(), &options, Some(events.clone()))?;
        let mut pending = PendingCall {
            session: Arc::clone(self),
            id: call.id,
            armed: true,
            cancellable: true,
        };
        if let Err(error) = self.connection.send(call.frame).await {
            pending.forget();
            return Err(ClientError::Transport(error));
        }
        // The listen request's own response (or error) ends the stream.
        tokio::spawn(async move {
            let end = match call.receiver.await {
                Ok(Ok(_)) => ListenEvent::Ended(None),
                Ok(Err(error)) => ListenEvent::Ended(Some(error)),
                Err(_) => ListenEvent::Ended(None),
            };
            let _ = events.send(end).await;
        });
        Ok(pending)
    }

    /// Sends a notification.
    pub(crate) async fn notify<P: serde::Serialize + ?Sized>(
        &self,
        method: &'static str,
        params: &P,
    ) -> Result<(), ClientError> {
        let bytes =
            Peer::notification(method, params).map_err(|e| ClientError::Params(e.to_string()))?;
        let version = {
            let state = self.lock();
            if let Some(error) = &state.ended {
                return Err(ClientError::Transport(error.clone()));
            }
            state.version
        };
        let frame = OutgoingFrame {
            method: Some(Cow::Borrowed(method)),
            protocol_version: version.map(Version::as_str),
            ..OutgoingFrame::new(bytes, FrameKind::Notification)
        };
        self.connection
            .send(frame)
            .await
            .map_err(ClientError::Transport)
    }

    /// Closes the connection: every pending call fails with [`TransportError::Closed`].
    pub(crate) async fn close(&self) {
        self.end(TransportError::Closed);
        self.connection.close().await;
    }

    /// Ends the session with `error`: every waiting call and listener fails with it, every
    /// handler still running is told to stop. Later calls fail at once.
    pub(crate) fn end(&self, error: TransportError) {
        let (waiting, serving) = {
            let mut state = self.lock();
            if state.ended.is_none() {
                state.ended = Some(error.clone());
            }
            state.tokens.clear();
            state.listeners.clear();
            (
                std::mem::take(&mut state.waiting),
                std::mem::take(&mut state.serving),
            )
        };
        for (_, waiter) in waiting {
            let _ = waiter
                .reply
                .send(Err(ClientError::Transport(error.clone())));
        }
        for (_, stop) in serving {
            let _ = stop.send(());
        }
    }

    /// The reader: takes every incoming event until the connection ends.
    pub(crate) async fn read(self: Arc<Self>, mut incoming: IncomingReceiver) {
        while let Some(event) = incoming.recv().await {
            match event {
                Incoming::Frame(frame) => self.receive(&frame),
                Incoming::Lost { id, error } => self.fail(id, ClientError::Transport(error)),
                Incoming::Discarded(error) => self
                    .settings
                    .callbacks
                    .violation(Violation::new(Rule::Message, error.to_string())),
                Incoming::Closed(error) => return self.end(error),
            }
        }
        self.end(TransportError::Closed);
    }

    /// Fails one waiting call (the peer forgets it; no cancellation is sent).
    fn fail(&self, id: OutgoingId, error: ClientError) {
        let waiter = {
            let mut state = self.lock();
            state.peer.cancel(id, None);
            state.remove_waiter(id)
        };
        if let Some(waiter) = waiter {
            let _ = waiter.reply.send(Err(error));
        }
    }

    /// Takes one frame from the server.
    fn receive(self: &Arc<Self>, frame: &[u8]) {
        let mut after = Vec::new();
        let (reply, version) = {
            let mut state = self.lock();
            let received = state.peer.receive(frame);
            let no_events = received.events.is_empty();
            for event in received.events {
                state.take(event, &mut after);
            }
            if let Some(reply) = &received.reply {
                let _ = reply;
                after.push(After::Violation(classify_invalid(
                    frame,
                    state.peer.profile(),
                    no_events,
                )));
            }
            (received.reply, state.version)
        };
        if let Some(reply) = reply {
            self.send_reply_detached(reply);
        }
        for action in after {
            match action {
                After::Serve {
                    call,
                    method,
                    params,
                } => self.serve(call, method, params, version),
                After::Notify { method, params } => {
                    self.notification(&method, params.as_deref(), version)
                }
                After::Violation(violation) => self.settings.callbacks.violation(violation),
            }
        }
    }

    /// Sends a reply on a task of its own, so the reader never waits on the server reading.
    fn send_reply_detached(self: &Arc<Self>, bytes: Vec<u8>) {
        let Ok(permit) = Arc::clone(&self.reply_slots).try_acquire_owned() else {
            return;
        };
        let session = Arc::clone(self);
        tokio::spawn(async move {
            let frame = OutgoingFrame {
                protocol_version: session.version().map(Version::as_str),
                ..OutgoingFrame::new(bytes, FrameKind::Response)
            };
            let _ = session.connection.send(frame).await;
            drop(permit);
        });
    }

    /// Answers one server request with its handler, on a task of its own.
    fn serve(
        self: &Arc<Self>,
        call: mcpwire::peer::Call,
        method: String,
        params: Option<String>,
        version: Option<Version>,
    ) {
        let handlers = &self.settings.handlers;
        let allowed = version.is_none_or(|v| versions::server_may_request(v, &method));
        if !allowed && handlers.answers(&method) {
            self.settings.callbacks.violation(Violation::new(
                Rule::MethodInVersion,
                format!(
                    "request {method} under {}",
                    version.map_or("?", Version::as_str)
                ),
            ));
        }
        if !allowed || !handlers.answers(&method) {
            return self.answer_detached(call, Err(RpcError::method_not_found()));
        }
        let params = match params.as_deref().map(serde_json::from_str::<Value>) {
            None => Value::Object(Map::new()),
            Some(Ok(params)) => params,
            Some(Err(error)) => {
                let error = RpcError::invalid_params().with_data(&error.to_string());
                return self.answer_detached(call, Err(error));
            }
        };
        let Ok(permit) = Arc::clone(&self.serving_slots).try_acquire_owned() else {
            let busy = RpcError::internal_error().with_data(
                "the client is busy: too many requests of the server are being answered",
            );
            return self.answer_detached(call, Err(busy));
        };
        let (stop, stopped) = oneshot::channel();
        self.lock().serving.insert(call.key(), stop);
        let session = Arc::clone(self);
        tokio::spawn(async move {
            let outcome = tokio::select! {
                outcome = session.settings.handlers.answer(&method, params) => outcome,
                _ = stopped => Err(RpcError::internal_error().with_data("cancelled")),
            };
            session.answer(call, outcome).await;
            drop(permit);
        });
    }

    fn answer_detached(
        self: &Arc<Self>,
        call: mcpwire::peer::Call,
        outcome: Result<Value, RpcError>,
    ) {
        let session = Arc::clone(self);
        tokio::spawn(async move { session.answer(call, outcome).await });
    }

    /// Sends the reply of one server request (nothing when the server cancelled it).
    async fn answer(&self, call: mcpwire::peer::Call, outcome: Result<Value, RpcError>) {
        let text = outcome.map(|value| value.to_string());
        let (bytes, version) = {
            let mut state = self.lock();
            state.serving.remove(&call.key());
            let bytes = state.peer.reply(call, text.as_ref().map(String::as_str));
            (bytes, state.version)
        };
        if let Some(bytes) = bytes {
            let frame = OutgoingFrame {
                protocol_version: version.map(Version::as_str),
                ..OutgoingFrame::new(bytes, FrameKind::Response)
            };
            let _ = self.connection.send(frame).await;
        }
    }

    /// Hands one notification to where it goes: a call's progress, a listen stream, or the
    /// application's callbacks.
    fn notification(&self, method: &str, params: Option<&str>, version: Option<Version>) {
        let callbacks = &self.settings.callbacks;
        if let Some(version) = version
            && !versions::has_notification(version, method)
        {
            return callbacks.violation(Violation::new(
                Rule::MethodInVersion,
                format!("notification {method} under {version}"),
            ));
        }
        if method == "notifications/progress" {
            return self.progress(params);
        }
        if let Some(subscription) = subscription_of(params) {
            return self.to_listener(subscription, method, params);
        }
        if let Err(violation) = callbacks.dispatch(method, params) {
            callbacks.violation(violation);
        }
    }

    fn progress(&self, params: Option<&str>) {
        let callbacks = &self.settings.callbacks;
        let progress: ProgressParams = match serde_json::from_str(params.unwrap_or("null")) {
            Ok(progress) => progress,
            Err(error) => {
                return callbacks.violation(Violation::new(
                    Rule::NotificationShape,
                    format!("notifications/progress params: {error}"),
                ));
            }
        };
        let found = {
            let state = self.lock();
            progress
                .progress_token
                .get()
                .parse::<u64>()
                .ok()
                .and_then(|token| state.tokens.get(&token))
                .and_then(|id| state.waiting.get(id))
                .map(|waiter| (waiter.progress.clone(), Arc::clone(&waiter.tick)))
        };
        // Progress for a call that is over (or a token never given) is dropped: the server
        // may race the response.
        if let Some((sink, tick)) = found {
            tick.notify_one();
            if let Some(sink) = sink {
                sink.deliver(ProgressEvent {
                    progress: progress.progress,
                    total: progress.total,
                    message: progress.message,
                });
            }
        }
    }

    fn to_listener(&self, subscription: String, method: &str, params: Option<&str>) {
        let sender = {
            let state = self.lock();
            subscription
                .parse::<u64>()
                .ok()
                .and_then(|n| state.listeners.iter().find(|(id, _)| id.get() == n))
                .map(|(_, sender)| sender.clone())
        };
        let Some(sender) = sender else {
            return;
        };
        match ListenEvent::of_notification(method, params) {
            Ok(event) => {
                let _ = sender.try_send(event);
            }
            Err(violation) => self.settings.callbacks.violation(violation),
        }
    }

    /// Forgets a listener (its request ended or was cancelled).
    pub(crate) fn drop_listener(&self, id: OutgoingId) {
        self.lock().listeners.remove(&id);
    }

    /// The handlers, for answering 2026-07-28 input requests.
    pub(crate) fn handlers(&self) -> &Handlers {
        &self.settings.handlers
    }
}

/// A request just built: its id, its frame, where its outcome and its progress ticks
/// arrive.
struct Started {
    id: OutgoingId,
    frame: OutgoingFrame,
    receiver: oneshot::Receiver<Result<AnyResult, ClientError>>,
    tick: Arc<Notify>,
}

/// Waits for the response, the timeout restarting at each progress tick when asked.
/// `None` when the timeout expired.
async fn wait(
    receiver: oneshot::Receiver<Result<AnyResult, ClientError>>,
    tick: &Notify,
    timeout: Option<Duration>,
    options: &CallOptions,
) -> Option<Result<AnyResult, ClientError>> {
    let closed = || Err(ClientError::Transport(TransportError::Closed));
    let Some(timeout) = timeout else {
        return Some(receiver.await.unwrap_or_else(|_| closed()));
    };
    let start = Instant::now();
    let last = options.max_total.map(|max| start + max);
    let bound = |at: Instant| last.map_or(at, |last| at.min(last));
    let sleep = tokio::time::sleep_until(bound(start + timeout));
    tokio::pin!(sleep, receiver);
    loop {
        tokio::select! {
            outcome = &mut receiver => return Some(outcome.unwrap_or_else(|_| closed())),
            () = &mut sleep => return None,
            () = tick.notified(), if options.reset_on_progress => {
                sleep.as_mut().reset(bound(Instant::now() + timeout));
            }
        }
    }
}

/// A request sent and not answered yet: dropping it cancels the request.
pub(crate) struct PendingCall {
    session: Arc<Session>,
    id: OutgoingId,
    armed: bool,
    cancellable: bool,
}

impl PendingCall {
    /// The call is over by the server's doing (answered, or its stream ended): nothing is
    /// sent on drop.
    pub(crate) fn disarm(&mut self) {
        self.armed = false;
        self.session.drop_listener(self.id);
    }

    /// Forgets the request without telling the server (it was never sent).
    fn forget(&mut self) {
        if self.armed {
            self.armed = false;
            let mut state = self.session.lock();
            state.peer.cancel(self.id, None);
            state.remove_waiter(self.id);
        }
    }

    /// Forgets the request and sends `notifications/cancelled` naming it.
    fn cancel(&mut self, reason: &str) {
        if !self.armed {
            return;
        }
        self.armed = false;
        let (line, version) = {
            let mut state = self.session.lock();
            state.remove_waiter(self.id);
            state.listeners.remove(&self.id);
            let line = state.peer.cancel(self.id, Some(reason));
            (line.filter(|_| self.cancellable), state.version)
        };
        let (Some(bytes), Ok(runtime)) = (line, tokio::runtime::Handle::try_current()) else {
            return;
        };
        let session = Arc::clone(&self.session);
        runtime.spawn(async move {
            let frame = OutgoingFrame {
                method: Some(Cow::Borrowed("notifications/cancelled")),
                protocol_version: version.map(Version::as_str),
                ..OutgoingFrame::new(bytes, FrameKind::Notification)
            };
            let _ = session.connection.send(frame).await;
        });
    }
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        self.cancel("the client no longer waits for the result");
    }
}

impl State {
    fn remove_waiter(&mut self, id: OutgoingId) -> Option<Waiter> {
        let waiter = self.waiting.remove(&id)?;
        if let Some(token) = waiter.token {
            self.tokens.remove(&token);
        }
        Some(waiter)
    }

    fn answered(&mut self, id: OutgoingId) {
        if self.answered.len() == ANSWERED_MEMORY {
            self.answered.pop_front();
        }
        self.answered.push_back(id);
    }

    fn complete(&mut self, id: OutgoingId, outcome: Result<AnyResult, ClientError>) {
        self.answered(id);
        if let Some(waiter) = self.remove_waiter(id) {
            let _ = waiter.reply.send(outcome);
        }
    }

    /// Acts on one event under the lock; what runs application code goes to `after`.
    fn take(&mut self, event: Event<'_>, after: &mut Vec<After>) {
        match event {
            Event::Response { id, outcome, .. } => {
                self.complete(id, outcome.map_err(ClientError::Rpc));
            }
            Event::InvalidResult { id, method, error } => {
                let detail = format!("{method} result at \"{}\": {}", error.pointer, error.reason);
                let violation = Violation::new(Rule::ResultShape, detail);
                self.complete(id, Err(ClientError::Protocol(violation)));
            }
            Event::MalformedResponse { id, method, defect } => {
                let violation = Violation::new(
                    Rule::ResponseShape(defect),
                    format!("the response to {method} (id {id})"),
                );
                self.complete(id, Err(ClientError::Protocol(violation)));
            }
            Event::LateResponse { id, .. } => {
                if self.answered.contains(&id) {
                    after.push(After::Violation(Violation::new(
                        Rule::OneResponse,
                        format!("a second response to request {id}"),
                    )));
                }
                // Otherwise the call was cancelled or timed out: the server raced it.
            }
            Event::UnmatchedResponse(response) => {
                after.push(After::Violation(self.unmatched(&response)));
            }
            Event::Request {
                call,
                method,
                params,
                ..
            } => after.push(After::Serve {
                call,
                method: method.into_owned(),
                params: params.map(|p| p.get().to_owned()),
            }),
            Event::Notification { method, params } => after.push(After::Notify {
                method: method.into_owned(),
                params: params.map(|p| p.get().to_owned()),
            }),
            Event::Cancelled { call, .. } => {
                if let Some(stop) = self.serving.remove(&call) {
                    let _ = stop.send(());
                }
            }
            Event::InvalidNotification { method, error } => {
                after.push(After::Violation(Violation::new(
                    Rule::NotificationShape,
                    format!("{method}: {}", error.data().map_or("", |d| d.get())),
                )));
            }
        }
    }

    /// The violation of a response that names no waiting call; when its id is a pending
    /// request's number spelled with another JSON type (`"3"` for `3`), that call fails
    /// with it (it would otherwise never be answered).
    fn unmatched(&mut self, response: &mcpwire::Response<'_>) -> Violation {
        let Some(id) = response.id else {
            return Violation::new(
                Rule::ResponseToKnownRequest,
                "a response without an id the client sent".to_owned(),
            );
        };
        let respelled = id
            .as_string()
            .and_then(|text| text.parse::<u64>().ok())
            .or_else(|| {
                id.raw()
                    .parse::<f64>()
                    .ok()
                    .filter(|n| n.fract() == 0.0 && *n >= 0.0)
                    .map(|n| n as u64)
            })
            .and_then(|n| {
                self.waiting
                    .keys()
                    .copied()
                    .find(|pending| pending.get() == n)
            });
        match respelled {
            Some(pending) => {
                let violation = Violation::new(
                    Rule::ResponseIdEcho,
                    format!("request {pending} was answered with id {}", id.raw()),
                );
                self.peer.cancel(pending, None);
                self.complete(pending, Err(ClientError::Protocol(violation.clone())));
                violation
            }
            None => Violation::new(
                Rule::ResponseToKnownRequest,
                format!("a response to id {}, which the client never sent", id.raw()),
            ),
        }
    }
}

/// The violation of a frame the peer answered at once (it is not a message at all, or
/// an invalid one).
fn classify_invalid(frame: &[u8], profile: &Profile, no_events: bool) -> Violation {
    let rule = match mcpwire::decode(frame, profile) {
        Decoded::Rejected(mcpwire::Rejection::Parse(_)) => Rule::Json,
        _ => Rule::Message,
    };
    let detail = if no_events {
        excerpt(frame)
    } else {
        format!("an invalid element in {}", excerpt(frame))
    };
    Violation::new(rule, detail)
}

/// The `_meta` subscription id of a notification, as JSON text.
fn subscription_of(params: Option<&str>) -> Option<String> {
    let params = params?;
    if !params.contains(meta::SUBSCRIPTION_ID_KEY) {
        return None;
    }
    let value: Value = serde_json::from_str(params).ok()?;
    let id = value.get("_meta")?.get(meta::SUBSCRIPTION_ID_KEY)?;
    Some(match id {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

/// The result as the type its request named.
pub(crate) fn downcast<T: 'static>(method: &str, result: AnyResult) -> Result<T, ClientError> {
    result.downcast::<T>().map_err(|_| {
        ClientError::Protocol(Violation::new(
            Rule::ResultShape,
            format!("{method}: the result is not of the type asked for"),
        ))
    })
}
