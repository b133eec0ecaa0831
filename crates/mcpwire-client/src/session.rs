//! The client session, run by the one engine of both sides, [`mcpwire::service::Session`]:
//! it gives outgoing requests their ids and pending entries and routes the server's
//! responses to them, runs the server's requests on the client's handlers (registered on
//! its [`Router`](mcpwire::Router)) and stops them when the server cancels them.
//!
//! What the client adds on top stays here: the frames go through the client's
//! [`Connection`] with what HTTP needs to know about each ([`OutgoingFrame`]); the
//! timeouts restarted by progress; the version settled by the handshake and the
//! stateless `_meta`; progress routed to the call that asked and `subscriptions/listen`
//! notifications to their stream; and every frame breaking a wire rule reported to the
//! application as a [`Violation`] (`incoming.rs`). `pending.rs`: a call in flight, its
//! wait and its cancellation.
//!
//! The client's lock guards its own tables; it is never held across an `await` or while
//! application code runs. The service's lock may be taken under it, never the reverse (the
//! service calls the client's handlers and observer without holding its lock).

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use mcpwire::peer::{AnyResult, OutgoingId, Peer, Request};
use mcpwire::service::{self, Options, Outgoing, PeerHandle, RequestError, SinkReceiver};
use mcpwire::{Profile, Router, code};
use serde_json::{Map, Value};
use tokio::sync::{Notify, Semaphore, mpsc, oneshot};

use crate::error::ClientError;
use crate::handlers::Handlers;
use crate::listen::ListenEvent;
use crate::meta::{self, StatelessMeta};
use crate::notify::Callbacks;
use crate::options::{CallOptions, ProgressSink, Timeout};
use crate::transport::{
    Connection, FrameKind, Incoming, IncomingReceiver, OutgoingFrame, TransportError,
};
use crate::violation::{Rule, Violation};
use mcpwire_model::Version;

mod incoming;
mod pending;

pub(crate) use pending::PendingCall;
use pending::{Started, wait};

/// How many answered request ids are remembered to tell a duplicate response from a late
/// one.
const ANSWERED_MEMORY: usize = 256;

/// How many replies to invalid frames may be on their way at once; beyond that they are
/// dropped (a server flooding garbage while not reading cannot pile up tasks).
const MAX_REPLIES_IN_FLIGHT: usize = 32;

/// Handler slots of the service beside the client's `max_serving` (its notifications are
/// taken in place but hold a slot while their task ends).
const NOTIFICATION_SLOTS: usize = 64;

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

/// A call waiting for its response: how to fail it, where its progress goes.
struct Waiter {
    fail: oneshot::Sender<ClientError>,
    progress: Option<ProgressSink>,
    tick: Arc<Notify>,
    token: Option<u64>,
}

/// The client's tables, behind its lock.
struct State {
    /// The version frames are sent under; `None` before the handshake answered.
    version: Option<Version>,
    /// The `_meta` every request carries under a stateless version.
    stateless: Option<StatelessMeta>,
    waiting: HashMap<OutgoingId, Waiter>,
    tokens: HashMap<u64, OutgoingId>,
    next_token: u64,
    answered: VecDeque<OutgoingId>,
    listeners: HashMap<OutgoingId, mpsc::Sender<ListenEvent>>,
    ended: Option<TransportError>,
}

/// What the client's handlers and its observer of the service share: the state of the
/// service's router.
pub(crate) struct Shared {
    state: Mutex<State>,
    settings: Settings,
    serving_slots: Arc<Semaphore>,
}

/// One client session.
pub(crate) struct Session {
    service: service::Session<Shared>,
    handle: PeerHandle,
    shared: Arc<Shared>,
    connection: Arc<dyn Connection>,
}

impl Session {
    /// A session over `connection`, under `profile`. Starts the task writing what the
    /// service sends on its own (replies to the server's requests, cancellations).
    pub(crate) fn new(
        connection: Box<dyn Connection>,
        profile: Profile,
        settings: Settings,
    ) -> Self {
        let max_serving = settings.max_serving;
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                version: None,
                stateless: None,
                waiting: HashMap::new(),
                tokens: HashMap::new(),
                next_token: 1,
                answered: VecDeque::new(),
                listeners: HashMap::new(),
                ended: None,
            }),
            serving_slots: Arc::new(Semaphore::new(max_serving)),
            settings,
        });
        let options = Options {
            max_concurrency: max_serving
                .saturating_add(NOTIFICATION_SLOTS)
                .min(service::MAX_CONCURRENCY as usize),
            request_timeout: None,
            max_pending: shared.settings.max_pending,
            ..Options::default()
        };
        let router = Router::new().fallback_async_decoding(incoming::from_server);
        let service = service::Session::with_options(profile, Arc::clone(&shared), router, options);
        let handle = service.handle();
        service.observe(incoming::Watch {
            shared: Arc::clone(&shared),
            handle: handle.clone(),
        });
        let connection: Arc<dyn Connection> = Arc::from(connection);
        if let Some(output) = service.take_unsolicited() {
            tokio::spawn(write(Arc::clone(&connection), Arc::clone(&shared), output));
        }
        Self {
            service,
            handle,
            shared,
            connection,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// The settings the session started with.
    pub(crate) fn settings(&self) -> &Settings {
        &self.shared.settings
    }

    /// Settles the version: frames are sent under it, and what the server sends is judged
    /// by its rules. Under a stateless version every request states it in `_meta`.
    pub(crate) fn settle(&self, version: Version, stateless: Option<StatelessMeta>) {
        let mut state = self.lock();
        self.negotiate(version);
        state.version = Some(version);
        state.stateless = stateless;
    }

    /// Prepares the handshake under `requested`: its rules apply to the answer, and no
    /// version is stated on the wire until the server has answered.
    pub(crate) fn settle_handshake(&self, requested: Version) {
        let mut state = self.lock();
        self.negotiate(requested);
        state.version = None;
        state.stateless = None;
    }

    fn negotiate(&self, version: Version) {
        let profile = self.service.profile().negotiated(version.facts());
        self.service.set_profile(profile);
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
        self.send_request(call, options, R::METHOD)
            .await
            .and_then(|result| downcast::<R::Result>(R::METHOD, result))
    }

    /// Registers the request with the service, records it as waiting and builds its frame.
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
        let outbound = self
            .handle
            .start::<WithMeta<R>>(&params)
            .map_err(|error| match error {
                RequestError::Send(mcpwire::peer::SendError::TooManyPending { max }) => {
                    ClientError::TooManyPending { max }
                }
                RequestError::Closed => ClientError::Transport(TransportError::Closed),
                other => ClientError::Params(other.to_string()),
            })?;
        let id = outbound.id;
        let (fail, failed) = oneshot::channel();
        let tick = Arc::new(Notify::new());
        state.waiting.insert(
            id,
            Waiter {
                fail,
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
                .or_else(|| self.service.profile().protocol_version()),
        };
        let frame = OutgoingFrame {
            bytes: outbound.frame,
            kind: FrameKind::Request(id),
            method: Some(Cow::Borrowed(R::METHOD)),
            name: target.name,
            protocol_version,
            param_headers: target.param_headers,
        };
        Ok(Started {
            pending: PendingCall {
                session: Arc::clone(self),
                id,
                guard: outbound.guard,
                // MCP: `initialize` cannot be cancelled.
                cancellable: R::METHOD != "initialize",
            },
            frame,
            response: outbound.response,
            failed,
            tick,
        })
    }

    async fn send_request(
        &self,
        call: Started,
        options: &CallOptions,
        method: &str,
    ) -> Result<AnyResult, ClientError> {
        let Started {
            mut pending,
            frame,
            mut response,
            mut failed,
            tick,
        } = call;
        let timeout = match options.timeout {
            Timeout::Default => self.settings().default_timeout,
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
        let id = pending.id;
        let outcome = wait(
            &mut response,
            &mut failed,
            &tick,
            timeout,
            options,
            method,
            id,
        )
        .await;
        match outcome {
            Some(outcome) => {
                // Answered, or failed by the client (which had the service forget it).
                pending.settle();
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
        let Started {
            mut pending,
            frame,
            response,
            failed,
            ..
        } = self.start::<R>(params, Target::default(), &options, Some(events.clone()))?;
        let id = pending.id;
        if let Err(error) = self.connection.send(frame).await {
            pending.forget();
            return Err(ClientError::Transport(error));
        }
        // The listen request's own response (or error) ends the stream.
        tokio::spawn(async move {
            let mut response = response;
            let mut failed = failed;
            let end = match pending::outcome(&mut response, &mut failed, R::METHOD, id).await {
                Ok(_) => ListenEvent::Ended(None),
                Err(error) => ListenEvent::Ended(Some(error)),
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
        let waiting = {
            let mut state = self.lock();
            if state.ended.is_none() {
                state.ended = Some(error.clone());
            }
            state.tokens.clear();
            state.listeners.clear();
            std::mem::take(&mut state.waiting)
        };
        for (id, waiter) in waiting {
            self.handle.forget(id);
            let _ = waiter.fail.send(ClientError::Transport(error.clone()));
        }
        self.service.cancel_in_flight();
    }

    /// The handlers, for answering 2026-07-28 input requests.
    pub(crate) fn handlers(&self) -> &Handlers {
        &self.settings().handlers
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn version(&self) -> Option<Version> {
        self.lock().version
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

    /// The response to `id` arrived: remembered (to tell a second one), and the call no
    /// longer takes progress.
    fn answered(&mut self, id: OutgoingId) -> Option<Waiter> {
        if self.answered.len() == ANSWERED_MEMORY {
            self.answered.pop_front();
        }
        self.answered.push_back(id);
        self.remove_waiter(id)
    }
}

/// Writes what the service sends on its own (its replies to the server's requests and the
/// cancellations of abandoned requests) to the connection, each send on a task of its own so
/// that one slow send holds neither the others nor the reader. Replies to invalid frames (and
/// batch replies) are dropped while [`MAX_REPLIES_IN_FLIGHT`] of them are on their way (a server flooding
/// garbage while not reading cannot pile up tasks); the others are bounded already, by the
/// requests being served and the calls pending.
async fn write(connection: Arc<dyn Connection>, shared: Arc<Shared>, mut output: SinkReceiver) {
    let slots = Arc::new(Semaphore::new(MAX_REPLIES_IN_FLIGHT));
    while let Some(message) = output.recv().await {
        let to_invalid = match &message {
            Outgoing::Reply(reply) => match reply.facts().error_code() {
                Some(code) => matches!(code, code::PARSE_ERROR | code::INVALID_REQUEST),
                // A batch's array (legacy versions), which may hold such answers.
                None => !reply.facts().is_result(),
            },
            Outgoing::Message(_) => false,
        };
        let permit = match to_invalid {
            true => match Arc::clone(&slots).try_acquire_owned() {
                Ok(permit) => Some(permit),
                Err(_) => continue,
            },
            false => None,
        };
        let protocol_version = shared.version().map(Version::as_str);
        let frame = match message {
            Outgoing::Reply(reply) => OutgoingFrame {
                protocol_version,
                ..OutgoingFrame::new((*reply).into_bytes(), FrameKind::Response)
            },
            Outgoing::Message(bytes) => OutgoingFrame {
                method: method_of(&bytes).map(Cow::Owned),
                protocol_version,
                ..OutgoingFrame::new(bytes, FrameKind::Notification)
            },
        };
        let connection = Arc::clone(&connection);
        tokio::spawn(async move {
            let _ = connection.send(frame).await;
            drop(permit);
        });
    }
}

/// The method of a notification the service built (a cancellation), for the transports
/// that state it beside the frame.
fn method_of(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Head {
        method: String,
    }
    serde_json::from_slice::<Head>(bytes)
        .ok()
        .map(|head| head.method)
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
