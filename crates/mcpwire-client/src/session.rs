//! The client session over the sans-IO [`Peer`]: outgoing requests and their pending
//! table, the reader task that dispatches every incoming frame (responses to the calls
//! waiting for them, server requests to the handlers, notifications to the callbacks), and
//! the end of the connection failing every pending call.
//!
//! One lock guards the peer and the tables; it is never held across an `await` or while
//! application code (a handler, a callback) runs. Here: sending and the session's state;
//! `incoming.rs`: the reader; `serve.rs`: the server's requests; `pending.rs`: a call in
//! flight, its wait and its cancellation.

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
use crate::result_check::check_message;
use crate::transport::{
    Connection, FrameKind, Incoming, IncomingReceiver, OutgoingFrame, TransportError,
};
use crate::versions;
use crate::violation::{Rule, Violation, excerpt};
use mcpwire_model::Version;

mod incoming;
mod pending;
mod serve;

pub(crate) use pending::PendingCall;
use pending::{Started, wait};

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
        let timeout = match options.timeout {
            Timeout::Default => self.settings.default_timeout,
            Timeout::Never => None,
            Timeout::After(timeout) => Some(timeout),
        };
        let timed_out = || ClientError::Timeout {
            method: method.to_owned(),
            after: timeout.unwrap_or_default(),
        };
        // A server that stops reading cannot hold the call past its timeout either.
        let sent = match timeout {
            Some(timeout) => tokio::time::timeout(timeout, self.connection.send(frame))
                .await
                .map_err(|_| timed_out()),
            None => Ok(self.connection.send(frame).await),
        };
        match sent {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                pending.forget();
                return Err(ClientError::Transport(error));
            }
            Err(timed_out) => {
                pending.forget();
                return Err(timed_out);
            }
        }
        let outcome = wait(receiver, &tick, timeout, options).await;
        match outcome {
            Some(outcome) => {
                pending.armed = false;
                outcome
            }
            None => {
                pending.cancel("timed out");
                Err(timed_out())
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

    /// The handlers, for answering 2026-07-28 input requests.
    pub(crate) fn handlers(&self) -> &Handlers {
        &self.settings.handlers
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
