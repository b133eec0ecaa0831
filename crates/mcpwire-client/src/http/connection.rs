//! A started Streamable HTTP connection ([`HttpConnection`]): one POST per frame the client
//! sends, the session id the server issued, the server's GET stream, the tasks reading the
//! answers, and the DELETE that ends the session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::Incoming as Body;
use hyper::header::CONTENT_TYPE;
use hyper::{Request, Response};
use mcpwire::http::SESSION_HEADER;
use mcpwire::peer::OutgoingId;
use tokio::task::{AbortHandle, JoinSet};

use super::limits::HttpLimits;
use super::pool::{self, Pool};
use super::probe;
use super::request::{self, Common};
use crate::transport::{
    BoxFuture, Connection, FrameKind, Incoming, IncomingSender, OutgoingFrame, TransportError,
};
use mcpwire_model::Version;

/// What every task of one connection shares.
pub(crate) struct Shared {
    pub(crate) pool: Pool,
    pub(crate) limits: HttpLimits,
    pub(crate) incoming: IncomingSender,
    /// Whether to open the server's GET stream once the session is initialized.
    standalone: bool,
    /// The OAuth authorizer, if the transport has one.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub(crate) auth: Auth,
    state: Mutex<State>,
}

struct State {
    common: Common,
    closed: bool,
    /// The server answered 404 to the session: every later send fails with this.
    expired: bool,
    tasks: JoinSet<()>,
    /// The tasks reading the answer of each request still awaited.
    requests: HashMap<u64, AbortHandle>,
}

/// The kind of body an answer has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyKind {
    Json,
    EventStream,
    Other,
}

impl BodyKind {
    pub(crate) fn of(response: &Response<Body>) -> Self {
        let media = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|v| v.trim().to_ascii_lowercase());
        match media.as_deref() {
            Some("application/json") => BodyKind::Json,
            Some("text/event-stream") => BodyKind::EventStream,
            _ => BodyKind::Other,
        }
    }
}

impl Shared {
    pub(crate) fn new(
        pool: Pool,
        limits: HttpLimits,
        incoming: IncomingSender,
        standalone: bool,
        extra: Vec<(hyper::header::HeaderName, hyper::header::HeaderValue)>,
        auth: Auth,
    ) -> Self {
        Self {
            pool,
            limits,
            incoming,
            standalone,
            auth,
            state: Mutex::new(State {
                common: Common {
                    extra,
                    ..Common::default()
                },
                closed: false,
                expired: false,
                tasks: JoinSet::new(),
                requests: HashMap::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The headers of the next request (no session id under a stateless version: such a
    /// server neither issues nor reads one).
    pub(crate) fn common(&self) -> Common {
        self.lock().common.clone()
    }

    /// Whether a 404 now means the session is gone: a session id was sent.
    fn in_session(common: &Common) -> bool {
        common.session.is_some()
    }

    /// Ends the session after the server answered 404 to it: every pending call fails with
    /// [`TransportError::SessionExpired`], and so does every later send.
    pub(crate) async fn expire(&self) -> TransportError {
        let first = {
            let mut state = self.lock();
            let first = !state.expired;
            state.expired = true;
            state.common.session = None;
            first
        };
        if first {
            self.incoming
                .send(Incoming::Closed(TransportError::SessionExpired))
                .await;
        }
        TransportError::SessionExpired
    }

    /// Keeps the session id of an answer: the first one issued (on the answer to
    /// `initialize`) names the session from then on.
    fn note_session(&self, response: &Response<Body>, stateless: bool) {
        if stateless {
            return;
        }
        let Some(id) = response
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
        else {
            return;
        };
        let mut state = self.lock();
        if state.common.session.is_none() && !state.expired {
            state.common.session = Some(id.to_owned());
        }
    }

    /// Sends one HTTP request of this connection and returns the response head. A 404 to a
    /// request that named the session ends the session.
    pub(crate) async fn exchange(
        &self,
        request: Request<pool::Body>,
        common: &Common,
        stateless: bool,
    ) -> Result<Response<Body>, TransportError> {
        let sent = self.send(request).await?;
        self.checked(sent, common, stateless).await
    }

    /// A response head of this connection, its session noted; a 404 to a request that named
    /// the session ends the session.
    async fn checked(
        &self,
        response: Response<Body>,
        common: &Common,
        stateless: bool,
    ) -> Result<Response<Body>, TransportError> {
        if response.status() == StatusCode::NOT_FOUND && Self::in_session(common) && !stateless {
            return Err(self.expire().await);
        }
        self.note_session(&response, stateless);
        Ok(response)
    }

    /// Reads a JSON answer whole (at most [`HttpLimits::max_response_bytes`]) and hands it
    /// to the client (its connection goes back to the pool). Returns whether it answered
    /// `awaited`.
    pub(crate) async fn deliver_json(
        &self,
        response: Response<Body>,
        awaited: Option<OutgoingId>,
    ) -> Result<bool, TransportError> {
        let limit = self.limits.max_response_bytes;
        let mut body = response.into_body();
        let mut bytes = Vec::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|error| {
                TransportError::Io(format!("reading the answer failed: {error}"))
            })?;
            if let Ok(data) = frame.into_data() {
                if bytes.len() + data.len() > limit {
                    return Err(TransportError::FrameTooLarge { limit });
                }
                bytes.extend_from_slice(&data);
            }
        }
        if bytes.trim_ascii().is_empty() {
            return Ok(false);
        }
        let answered = awaited.is_some_and(|id| probe::answers(&bytes, id));
        self.incoming.frame(bytes).await;
        Ok(answered)
    }

    /// POSTs a request and reads its answer (JSON, or an SSE stream resumed as needed).
    async fn run_request(
        self: Arc<Self>,
        id: OutgoingId,
        request: Request<pool::Body>,
        common: Common,
        stateless: bool,
    ) {
        let outcome = self.answer_request(id, request, &common, stateless).await;
        self.lock().requests.remove(&id.get());
        match outcome {
            Ok(()) => {}
            Err(TransportError::SessionExpired) => {}
            Err(error) => {
                self.incoming.send(Incoming::Lost { id, error }).await;
            }
        }
    }

    async fn answer_request(
        &self,
        id: OutgoingId,
        request: Request<pool::Body>,
        common: &Common,
        stateless: bool,
    ) -> Result<(), TransportError> {
        let exchanged = self.exchange(request, common, stateless);
        let response = match self.limits.response_timeout {
            Some(limit) => tokio::time::timeout(limit, exchanged).await.map_err(|_| {
                TransportError::Http(format!("no answer to the request within {limit:?}"))
            })??,
            None => exchanged.await?,
        };
        let status = response.status();
        if status.is_redirection() {
            return Err(not_followed(&response));
        }
        let kind = BodyKind::of(&response);
        match kind {
            BodyKind::EventStream if status == StatusCode::OK => {
                self.read_answer_stream(id, response.into_body(), stateless)
                    .await
            }
            BodyKind::Json => {
                if self.deliver_json(response, Some(id)).await? {
                    return Ok(());
                }
                Err(TransportError::Http(format!(
                    "the server answered the request with HTTP {status} and no JSON-RPC response to it"
                )))
            }
            _ => Err(TransportError::Http(format!(
                "the server answered the request with HTTP {status}{} and no JSON-RPC response to it",
                match kind {
                    BodyKind::EventStream => " (an event stream)",
                    _ => "",
                }
            ))),
        }
    }

    /// Checks that the answer to a POSTed notification or response accepted it.
    async fn acknowledge(&self, response: Response<Body>) -> Result<(), TransportError> {
        let status = response.status();
        if status.is_redirection() {
            return Err(not_followed(&response));
        }
        if BodyKind::of(&response) == BodyKind::Json {
            // Some servers answer with a JSON body (an error, a stray message): the client
            // judges it.
            self.deliver_json(response, None).await?;
        } else {
            drop(response);
        }
        if status.is_success() {
            Ok(())
        } else {
            Err(TransportError::Http(format!(
                "the server refused the message with HTTP {status}"
            )))
        }
    }

    /// Spawns a task of this connection (aborted when it closes).
    pub(crate) fn spawn(
        &self,
        task: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Option<AbortHandle> {
        let mut state = self.lock();
        if state.closed {
            return None;
        }
        while state.tasks.try_join_next().is_some() {}
        Some(state.tasks.spawn(task))
    }

    /// Stops reading the answer of request `id` (the client cancelled it; under MCP
    /// 2026-07-28 closing the stream is how a request is cancelled).
    fn abandon(&self, id: u64) {
        if let Some(task) = self.lock().requests.remove(&id) {
            task.abort();
        }
    }

    /// Marks the connection closed, stops every task and returns the session to delete.
    fn shut(&self) -> Option<Common> {
        let mut state = self.lock();
        if state.closed {
            return None;
        }
        state.closed = true;
        state.tasks.abort_all();
        state.requests.clear();
        self.pool.clear();
        let common = state.common.clone();
        common.session.is_some().then_some(common)
    }

    /// DELETEs the session (best effort, bounded in time).
    async fn delete(&self, common: Common) {
        let Ok(request) = request::delete(self.pool.endpoint(), &common) else {
            return;
        };
        let _ = tokio::time::timeout(self.limits.ack_timeout, self.send(request)).await;
        self.pool.clear();
    }
}

/// The authorizer of a transport (feature `oauth`).
#[cfg(feature = "oauth")]
pub(crate) type Auth = Option<Arc<crate::auth::Authorizer>>;
/// Nothing, without the feature `oauth`.
#[cfg(not(feature = "oauth"))]
pub(crate) type Auth = ();

#[cfg(not(feature = "oauth"))]
impl Shared {
    /// Sends a request to the endpoint.
    pub(crate) async fn send(
        &self,
        request: Request<pool::Body>,
    ) -> Result<Response<Body>, TransportError> {
        self.pool.send(request).await
    }
}

/// The error of an answer that redirects: redirects are not followed, so no header (such as
/// `Authorization`) is ever sent to the origin a redirect names.
fn not_followed(response: &Response<Body>) -> TransportError {
    let location = response
        .headers()
        .get(hyper::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("no Location");
    TransportError::Http(format!(
        "the server redirected the request (HTTP {} to {location}); redirects are not followed: give the transport the URL of the MCP endpoint itself",
        response.status()
    ))
}

/// A started Streamable HTTP connection. Dropping it stops every task and DELETEs the
/// session in the background.
pub(crate) struct HttpConnection {
    pub(crate) shared: Arc<Shared>,
}

impl HttpConnection {
    async fn send_frame(&self, frame: OutgoingFrame) -> Result<(), TransportError> {
        let shared = &self.shared;
        let stateless = frame
            .protocol_version
            .and_then(Version::parse)
            .is_some_and(Version::is_stateless);
        let common = {
            let mut state = shared.lock();
            if state.expired {
                return Err(TransportError::SessionExpired);
            }
            if state.closed {
                return Err(TransportError::Closed);
            }
            if let Some(version) = frame.protocol_version {
                state.common.version = Some(version);
            }
            let mut common = state.common.clone();
            if stateless {
                common.session = None;
            }
            common
        };
        if frame.method.as_deref() == Some("notifications/cancelled")
            && let Some(id) = probe::cancelled_request(&frame.bytes)
        {
            shared.abandon(id);
        }
        let request = request::post(shared.pool.endpoint(), &common, &frame)?;
        match frame.kind {
            FrameKind::Request(id) => {
                let task = Arc::clone(shared).run_request(id, request, common, stateless);
                let mut state = shared.lock();
                if state.closed {
                    return Err(TransportError::Closed);
                }
                while state.tasks.try_join_next().is_some() {}
                let handle = state.tasks.spawn(task);
                state.requests.insert(id.get(), handle);
                Ok(())
            }
            FrameKind::Notification | FrameKind::Response => {
                let limit = shared.limits.ack_timeout;
                let acknowledged = async {
                    let answer = shared.exchange(request, &common, stateless).await?;
                    shared.acknowledge(answer).await
                };
                tokio::time::timeout(limit, acknowledged)
                    .await
                    .map_err(|_| {
                        TransportError::Http(format!("no answer to the POST within {limit:?}"))
                    })??;
                if frame.method.as_deref() == Some("notifications/initialized")
                    && shared.standalone
                    && !stateless
                {
                    // The session's next request waits until the server answered the GET
                    // (bounded: a server may hold that back until it has an event). Written
                    // is not enough: the GET may go on a new connection, which a server
                    // takes up after requests arriving later on one it already had, and a
                    // request the server reads first would find no stream open (the
                    // conformance suite's sse-retry then answers its call on the GET).
                    let (opened, answered) = tokio::sync::oneshot::channel();
                    let stream = Arc::clone(shared).run_server_stream(opened);
                    shared.spawn(stream);
                    let wait = shared.limits.stream_open_wait;
                    let _ = tokio::time::timeout(wait, answered).await;
                }
                Ok(())
            }
        }
    }
}

impl Connection for HttpConnection {
    fn send(&self, frame: OutgoingFrame) -> BoxFuture<'_, Result<(), TransportError>> {
        Box::pin(self.send_frame(frame))
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if let Some(common) = self.shared.shut() {
                self.shared.delete(common).await;
            }
        })
    }
}

impl Drop for HttpConnection {
    fn drop(&mut self) {
        if let Some(common) = self.shared.shut()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let shared = Arc::clone(&self.shared);
            runtime.spawn(async move { shared.delete(common).await });
        }
    }
}
