//! The MCP endpoint: checks every request against the allow-lists and the transport's header
//! rules, then serves POST, GET and DELETE.

use std::net::SocketAddr;
use std::sync::{Arc, PoisonError};

use hyper::body::{Bytes, Incoming};
use hyper::header::{
    ACCEPT, ALLOW, CONTENT_ENCODING, CONTENT_TYPE, HOST, HeaderValue, ORIGIN, RETRY_AFTER,
};
use hyper::{Method, Request, StatusCode};
use tokio::sync::mpsc;

use super::body::{self, BodyBudget};
use super::classify::BodyKind;
use super::config::HttpConfig;
use super::cors;
use super::exchange::{self, Outcome, WhenClientLeaves};
use super::handler::{HttpService, Outbound, SessionContext};
use super::headers::{self, METHOD_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER, SessionHeader};
use super::race::{First, race};
use super::response::{HttpResponse, empty, error, error_with_code, event_stream, json, sse_event};
use super::resumable::{self, Resume};
use super::session_id::SessionId;
use super::sessions::{Found, Opened, PeerKey, Refusal, Sessions, Unsolicited};

/// The first version whose SSE streams open with a priming event (an id and empty data).
const PRIMING_FROM: &str = "2025-11-25";

/// The header a reconnecting SSE client names the last event it received with.
const LAST_EVENT_ID: &str = "last-event-id";

/// JSON-RPC error code of MCP 2026-07-28 for headers that contradict the body.
const HEADER_MISMATCH: i64 = -32020;

/// Everything a request needs: the settings, the user's service, the sessions, the budget.
pub(crate) struct Endpoint<S: HttpService> {
    pub(crate) config: HttpConfig,
    service: S,
    sessions: Arc<Sessions<S::Handler>>,
    budget: BodyBudget,
}

impl<S: HttpService> Endpoint<S> {
    pub(crate) fn new(config: HttpConfig, service: S) -> Endpoint<S> {
        Endpoint {
            sessions: Arc::new(Sessions::new(
                config.max_sessions,
                config.max_sessions_per_peer,
                config.session_idle_timeout,
            )),
            budget: BodyBudget::new(config.body_budget_bytes),
            config,
            service,
        }
    }

    /// Ends expired sessions every [`Sessions::sweep_period`], for as long as the returned
    /// future runs (never completes).
    pub(crate) async fn sweep_sessions(&self) {
        let mut timer = tokio::time::interval(self.sessions.sweep_period());
        timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            timer.tick().await;
            self.sessions.sweep_expired();
        }
    }

    /// Answers one request from `peer`.
    pub(crate) async fn respond(
        &self,
        request: Request<Incoming>,
        peer: SocketAddr,
    ) -> HttpResponse {
        if let Err((status, why)) = self.check_host_and_origin(&request) {
            return error(status, why);
        }
        if request.uri().path() != self.config.path {
            return error(
                StatusCode::NOT_FOUND,
                &format!("no MCP endpoint at {}", request.uri().path()),
            );
        }
        // Present only when allowed: any other origin got 403 above.
        let origin = request.headers().get(ORIGIN).cloned();
        let mut response = match *request.method() {
            Method::POST => self.post(request, peer).await,
            Method::GET => self.get(&request).await,
            Method::DELETE => self.delete(&request),
            Method::OPTIONS if origin.is_some() => cors::preflight(self.allow()),
            _ => self.method_not_allowed(),
        };
        if let Some(origin) = &origin {
            cors::allow_origin(&mut response, origin);
        }
        response
    }

    /// `Host` must name an allowed host; `Origin`, when present, an allowed origin (403).
    fn check_host_and_origin<B>(
        &self,
        request: &Request<B>,
    ) -> Result<(), (StatusCode, &'static str)> {
        let headers = request.headers();
        if headers.get_all(HOST).iter().nth(1).is_some() {
            // RFC 9112 §3.2: more than one Host field line is a 400.
            return Err((StatusCode::BAD_REQUEST, "more than one Host header"));
        }
        let host = headers.get(HOST).and_then(|v| v.to_str().ok());
        match host {
            None => return Err((StatusCode::BAD_REQUEST, "the Host header is missing")),
            Some(host) if !self.config.hosts.admits_host(host) => {
                return Err((
                    StatusCode::FORBIDDEN,
                    "the Host header names a host this server does not serve",
                ));
            }
            Some(_) => {}
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let allowed = origin
                .to_str()
                .is_ok_and(|origin| self.config.origins.admits_origin(origin));
            if !allowed {
                return Err((
                    StatusCode::FORBIDDEN,
                    "requests from this Origin are not allowed",
                ));
            }
        }
        Ok(())
    }

    fn allow(&self) -> &'static str {
        if self.config.stateless {
            "POST"
        } else if self.service.unsolicited_messages() {
            "GET, POST, DELETE"
        } else {
            "POST, DELETE"
        }
    }

    fn method_not_allowed(&self) -> HttpResponse {
        let mut response = empty(StatusCode::METHOD_NOT_ALLOWED);
        response
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static(self.allow()));
        response
    }

    /// The session a request names: `Ok(None)` without the header, `Err` (answered 404) for
    /// one that is not (or no longer) open.
    fn find_session<B>(&self, request: &Request<B>) -> Result<Option<Found<S::Handler>>, Unknown> {
        match headers::session(request.headers()) {
            SessionHeader::Absent => Ok(None),
            SessionHeader::Foreign => Err(Unknown),
            SessionHeader::Id(id) => self.sessions.lease(&id).map(Some).ok_or(Unknown),
        }
    }

    async fn post(&self, request: Request<Incoming>, peer: SocketAddr) -> HttpResponse {
        let request_headers = request.headers();
        if !headers::media_type_is(request_headers.get(CONTENT_TYPE), "application/json") {
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Content-Type must be application/json",
            );
        }
        if let Some(coding) = content_coding(request_headers) {
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                &format!("Content-Encoding {coding:?} is not supported; send the body unencoded"),
            );
        }
        let accept = request_headers.get(ACCEPT);
        if !headers::accepts(accept, "application/json") {
            return error(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must list application/json and text/event-stream",
            );
        }
        let streams = headers::accepts(accept, "text/event-stream");
        if let Err(why) =
            headers::check_protocol_version(request_headers, &self.config.protocol_versions)
        {
            return error(StatusCode::BAD_REQUEST, &why);
        }
        let session = if self.config.stateless {
            None // MCP 2026-07-28: an Mcp-Session-Id header is ignored.
        } else {
            match self.find_session(&request) {
                Ok(found) => found,
                Err(Unknown) => return unknown_session(),
            }
        };
        let agreed = session.as_ref().and_then(|f| f.protocol_version.as_deref());
        if let Some(why) = version_differs(request.headers(), agreed) {
            return error(StatusCode::BAD_REQUEST, &why);
        }
        let (parts, incoming) = request.into_parts();
        let read = body::read(
            &parts.headers,
            incoming,
            self.config.max_body_bytes,
            self.config.body_timeout,
            &self.budget,
        )
        .await;
        let read = match read {
            Ok(read) => read,
            Err(refusal) => return refusal.response(),
        };
        let kind = BodyKind::of(&read.bytes, self.config.max_batch_len);
        if let Some((len, max)) = kind.batch_too_long {
            // The array top level leaves no id to echo: the error has none.
            return error(
                StatusCode::BAD_REQUEST,
                &format!("a batch of {len} messages; this endpoint accepts at most {max}"),
            );
        }
        // Decoded: the body's share of the budget goes back now, not when its handler returns
        // (a slow handler must not hold other clients' budget).
        drop(read.budget);
        let capacity = streams.then_some(self.config.outbound_capacity);
        if self.config.stateless {
            if let Some(refused) = method_mismatch(&parts.headers, &kind) {
                return refused;
            }
            return self.post_stateless(read.bytes, capacity, &kind, peer).await;
        }
        if let Some(found) = session {
            let resume = self.resume(&parts.headers, found.protocol_version.as_deref());
            let outcome = exchange::run(
                found.handler,
                read.bytes,
                capacity,
                WhenClientLeaves::RunOn,
                resume,
            )
            .await;
            let mut response = answer(outcome, &kind);
            response.body_mut().keep(vec![Box::new(found.lease)]);
            response
        } else if kind.is_initialize() {
            self.open_session(read.bytes, &kind, peer).await
        } else {
            error(
                StatusCode::BAD_REQUEST,
                "no Mcp-Session-Id: send initialize first and name its session in every later request",
            )
        }
    }

    /// A stateless POST: a fresh handler whose work ends with its client. Its session "ends"
    /// (the handler's [`SessionContext`] says so) once the answer has been sent or the client
    /// has left, and its task is aborted if the client leaves first.
    async fn post_stateless(
        &self,
        frame: Bytes,
        capacity: Option<usize>,
        kind: &BodyKind,
        peer: SocketAddr,
    ) -> HttpResponse {
        // Dropped with this future (the client hung up while the handler ran) or with the
        // response body (sent, or the client left the stream).
        let (ended, ended_signal) = tokio::sync::watch::channel(());
        let handler = Arc::new(self.service.open(SessionContext {
            peer,
            id: None,
            unsolicited: None,
            ended: Some(ended_signal),
        }));
        let outcome = exchange::run(handler, frame, capacity, WhenClientLeaves::Abort, None).await;
        let mut response = answer(outcome, kind);
        response.body_mut().keep(vec![Box::new(ended)]);
        response
    }

    /// Runs an `initialize` without a session and opens one when it succeeds. The handler
    /// cannot stream here (the session header must go out with the reply).
    async fn open_session(&self, frame: Bytes, kind: &BodyKind, peer: SocketAddr) -> HttpResponse {
        let peer_key = PeerKey::of(peer.ip());
        if let Err(refusal) = self.sessions.admit(peer_key) {
            return refused(refusal);
        }
        let Ok(id) = SessionId::generate() else {
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "no random source for a session id",
            );
        };
        let (unsolicited, receiver) = if self.service.unsolicited_messages() {
            let (outbound, receiver) = Outbound::channel(self.config.outbound_capacity);
            (Some(outbound), Some(receiver))
        } else {
            (None, None)
        };
        // Dropped with the session's entry (or here, when `initialize` fails): the handler
        // learns that its session ended.
        let (ended, ended_signal) = tokio::sync::watch::channel(());
        let handler = Arc::new(self.service.open(SessionContext {
            peer,
            id: Some(id.clone()),
            unsolicited,
            ended: Some(ended_signal),
        }));
        let outcome = exchange::run(
            Arc::clone(&handler),
            frame,
            None,
            WhenClientLeaves::RunOn,
            None,
        )
        .await;
        let Some(agreed) = (match &outcome {
            Outcome::Reply(Some(reply)) => initialized(reply),
            _ => None,
        }) else {
            return answer(outcome, kind);
        };
        let opened = Opened {
            handler,
            peer: peer_key,
            unsolicited: receiver,
            ended,
            protocol_version: agreed.protocol_version,
        };
        if let Err(refusal) = self.sessions.insert(id.clone(), opened) {
            return refused(refusal);
        }
        let mut response = answer(outcome, kind);
        if let Ok(value) = HeaderValue::from_str(id.as_str()) {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
        response
    }

    /// What makes the streams of the session `headers` name resumable, when an event store
    /// is configured; `agreed` is the version it agreed (a priming event from 2025-11-25).
    fn resume(&self, headers: &hyper::HeaderMap, agreed: Option<&str>) -> Option<Resume> {
        let store = self.config.event_store.clone()?;
        let SessionHeader::Id(session) = headers::session(headers) else {
            return None;
        };
        let priming = agreed
            .is_some_and(|version| version >= PRIMING_FROM)
            .then_some(self.config.sse_retry);
        Some(Resume {
            store,
            session,
            priming,
        })
    }

    /// GET: the session's stream of unsolicited messages, or 405 when there is none; with
    /// `Last-Event-ID` (and an event store), the rest of the stream that event belongs to.
    async fn get(&self, request: &Request<Incoming>) -> HttpResponse {
        if self.config.stateless || !self.service.unsolicited_messages() {
            return self.method_not_allowed();
        }
        if !headers::accepts(request.headers().get(ACCEPT), "text/event-stream") {
            return error(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must list text/event-stream",
            );
        }
        if let Err(why) =
            headers::check_protocol_version(request.headers(), &self.config.protocol_versions)
        {
            return error(StatusCode::BAD_REQUEST, &why);
        }
        let found = match self.find_session(request) {
            Ok(Some(found)) => found,
            Ok(None) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "GET needs an Mcp-Session-Id header",
                );
            }
            Err(Unknown) => return unknown_session(),
        };
        if let Some(why) = version_differs(request.headers(), found.protocol_version.as_deref()) {
            return error(StatusCode::BAD_REQUEST, &why);
        }
        if let Some(last_event_id) = request.headers().get(LAST_EVENT_ID)
            && let Some(resume) = self.resume(request.headers(), None)
        {
            // A reconnection to a stream of this session, not the session's own GET stream.
            let last_event_id = String::from_utf8_lossy(last_event_id.as_bytes());
            let mut response =
                match resumable::resume(resume.store, resume.session, &last_event_id).await {
                    Ok(response) => response,
                    Err(why) => return error(StatusCode::BAD_REQUEST, &why),
                };
            response.body_mut().keep(vec![Box::new(found.lease)]);
            return response;
        }
        let Some(slot) = found.unsolicited.clone() else {
            return self.method_not_allowed();
        };
        let taken = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        let Some(receiver) = taken else {
            return error(
                StatusCode::CONFLICT,
                "this session already has an open GET stream",
            );
        };
        let (sender, events) = mpsc::channel(4);
        let ended = found.ended.clone();
        tokio::spawn(forward_unsolicited(receiver, slot, ended, sender));
        let mut response = event_stream(events);
        response.body_mut().keep(vec![Box::new(found.lease)]);
        response
    }

    /// DELETE: ends the session.
    fn delete(&self, request: &Request<Incoming>) -> HttpResponse {
        if self.config.stateless {
            return self.method_not_allowed();
        }
        if let Err(why) =
            headers::check_protocol_version(request.headers(), &self.config.protocol_versions)
        {
            return error(StatusCode::BAD_REQUEST, &why);
        }
        match headers::session(request.headers()) {
            SessionHeader::Absent => error(
                StatusCode::BAD_REQUEST,
                "DELETE needs an Mcp-Session-Id header",
            ),
            SessionHeader::Foreign => unknown_session(),
            SessionHeader::Id(id) => {
                if self.sessions.remove(&id) {
                    empty(StatusCode::NO_CONTENT)
                } else {
                    unknown_session()
                }
            }
        }
    }
}

/// Feeds a GET stream from the session's unsolicited frames until the client leaves or the
/// session ends; then the receiver goes back to the session for the next GET.
async fn forward_unsolicited(
    mut receiver: mpsc::Receiver<Bytes>,
    slot: Unsolicited,
    mut ended: tokio::sync::watch::Receiver<()>,
    sender: mpsc::Sender<Bytes>,
) {
    loop {
        let next = race(race(receiver.recv(), ended.changed()), sender.closed()).await;
        match next {
            First::Left(First::Left(Some(frame))) => {
                if sender.send(sse_event(&frame)).await.is_err() {
                    break; // the client left as this frame was taken
                }
            }
            // The handler dropped its sender, or the session ended: the stream ends.
            First::Left(First::Left(None)) | First::Left(First::Right(_)) => return,
            First::Right(()) => break,
        }
    }
    *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(receiver);
}

/// The HTTP answer to an exchange's outcome: 202 without a reply; 400 for rejected input (an
/// unreadable body, or a reply that is a single parse-error or invalid-request error, which
/// carries the request's id whenever it could be read); 200 otherwise; 500 when the handler
/// failed.
fn answer(outcome: Outcome, kind: &BodyKind) -> HttpResponse {
    match outcome {
        Outcome::Reply(None) => empty(StatusCode::ACCEPTED),
        Outcome::Reply(Some(reply)) => {
            let status = if kind.unreadable || rejects_input(&reply) {
                StatusCode::BAD_REQUEST
            } else {
                StatusCode::OK
            };
            json(status, reply)
        }
        Outcome::Streaming(response) => response,
        Outcome::Failed => error_with_code(
            StatusCode::INTERNAL_SERVER_ERROR,
            -32603,
            "the server failed while handling the message",
        ),
    }
}

/// A `Content-Encoding` other than `identity` (this endpoint decodes none), as sent.
fn content_coding(headers: &hyper::HeaderMap) -> Option<String> {
    headers
        .get_all(CONTENT_ENCODING)
        .iter()
        .flat_map(|value| {
            value
                .as_bytes()
                .split(|&b| b == b',')
                .map(<[u8]>::trim_ascii)
        })
        .find(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case(b"identity"))
        .map(|coding| String::from_utf8_lossy(coding).into_owned())
}

/// A session header that names no open session.
struct Unknown;

fn unknown_session() -> HttpResponse {
    error(
        StatusCode::NOT_FOUND,
        "unknown or ended session; initialize again",
    )
}

fn refused(refusal: Refusal) -> HttpResponse {
    let mut response = match refusal {
        Refusal::PeerLimit(max) => error(
            StatusCode::TOO_MANY_REQUESTS,
            &format!(
                "this client already holds {max} sessions, the most allowed; end one with DELETE"
            ),
        ),
        Refusal::Full(max) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!("all {max} session slots are in use"),
        ),
    };
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from_static("5"));
    response
}

/// MCP 2026-07-28: an `Mcp-Method` header must name the body's method (400, -32020).
fn method_mismatch(headers: &hyper::HeaderMap, kind: &BodyKind) -> Option<HttpResponse> {
    let header = headers.get(METHOD_HEADER)?;
    let body = kind.method.as_deref()?;
    if header.as_bytes() == body.as_bytes() {
        return None;
    }
    let header = String::from_utf8_lossy(header.as_bytes());
    Some(error_with_code(
        StatusCode::BAD_REQUEST,
        HEADER_MISMATCH,
        &format!(
            "Header mismatch: Mcp-Method header value {header:?} does not match body value {body:?}"
        ),
    ))
}

/// JSON-RPC's codes for input that was rejected as such: -32700 (parse error) and -32600
/// (invalid request).
const REJECTED_INPUT_CODES: [i64; 2] = [-32700, -32600];

/// Whether a reply is one error response saying the input itself was rejected (a batch's
/// array reply is not: its elements stand on their own).
fn rejects_input(reply: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Reply {
        error: Option<ErrorCode>,
    }
    #[derive(serde::Deserialize)]
    struct ErrorCode {
        code: i64,
    }
    reply.first() == Some(&b'{')
        && serde_json::from_slice::<Reply>(reply)
            .ok()
            .and_then(|reply| reply.error)
            .is_some_and(|error| REJECTED_INPUT_CODES.contains(&error.code))
}

/// What a successful `initialize` reply says.
struct Initialized {
    /// The protocol version the server agreed (`result.protocolVersion`), when it names one.
    protocol_version: Option<String>,
}

/// The agreement of a success reply (one with a `result` member at the top level); `None`
/// for any other reply.
fn initialized(reply: &[u8]) -> Option<Initialized> {
    let value = serde_json::from_slice::<serde_json::Value>(reply).ok()?;
    let result = value.get("result")?;
    let protocol_version = result
        .get("protocolVersion")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned);
    Some(Initialized { protocol_version })
}

/// A known `MCP-Protocol-Version` that is not the one the session agreed: the message for a
/// 400. Absent, or a session without a recorded version: no objection.
fn version_differs(headers: &hyper::HeaderMap, agreed: Option<&str>) -> Option<String> {
    let agreed = agreed?;
    let sent = headers.get(PROTOCOL_VERSION_HEADER)?;
    (sent.as_bytes() != agreed.as_bytes()).then(|| {
        format!(
            "MCP-Protocol-Version {:?} is not the version this session agreed, {agreed:?}",
            String::from_utf8_lossy(sent.as_bytes())
        )
    })
}
