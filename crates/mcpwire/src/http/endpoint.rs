//! The MCP endpoint: checks every request against the allow-lists and the transport's header
//! rules, then serves POST, GET and DELETE.

use std::net::SocketAddr;
use std::sync::{Arc, PoisonError};

use hyper::body::Bytes;
use hyper::header::{
    ACCEPT, ALLOW, CONTENT_ENCODING, CONTENT_TYPE, HOST, HeaderValue, ORIGIN, RETRY_AFTER,
};
use hyper::http::request::Parts;
use hyper::{Method, Request, StatusCode};
use tokio::sync::mpsc;

use super::FrameReceiver;
use super::body::{self, BodyBudget, BodyLimits};
use super::classify::BodyKind;
use super::config::{Eras, HttpConfig};
use super::cors;
use super::deadline;
use super::exchange::{self, Outcome, WhenClientLeaves};
use super::guard::{Caller, Gate, MessageTarget};
use super::handler::{HandlerReply, HttpService, Outbound, SessionOpening};
use super::headers::{self, SessionHeader, names};
use super::race::{First, race};
use super::request_state::RequestState;
use super::response::{HttpResponse, ResponseBody, empty, error_to, event_stream, json, sse_event};
use super::resumable::{self, Resume};
use super::routing::{self, HEADER_MISMATCH};
use super::session_id::SessionId;
use super::sessions::{Found, Opened, PeerKey, Refusal, Sessions, Unsolicited};
use crate::profile::{MissingId, Profile};
use crate::split::FrameSplit;

/// The first version whose SSE streams open with a priming event (an id and empty data).
const PRIMING_FROM: &str = "2025-11-25";

/// The header a reconnecting SSE client names the last event it received with.
const LAST_EVENT_ID: &str = "last-event-id";

/// Everything a request needs: the settings, the user's service, the sessions, the budget.
pub(crate) struct Endpoint<S: HttpService> {
    pub(crate) config: HttpConfig,
    /// The eras served: [`HttpConfig::eras`], except that `Both` is `Legacy` for a service
    /// that serves no version per request.
    eras: Eras,
    service: S,
    sessions: Arc<Sessions<S::Handler>>,
    budget: BodyBudget,
    body_limits: BodyLimits,
}

impl<S: HttpService> Endpoint<S> {
    pub(crate) fn new(config: HttpConfig, service: S) -> Endpoint<S> {
        let eras = match config.eras {
            Eras::Both if service.stateless_versions().is_empty() => Eras::Legacy,
            eras => eras,
        };
        Endpoint {
            eras,
            sessions: Arc::new(Sessions::new(
                config.max_sessions,
                config.max_sessions_per_peer,
                config.session_idle_timeout,
            )),
            budget: BodyBudget::new(config.body_budget_bytes),
            body_limits: BodyLimits {
                max_bytes: config.max_body_bytes,
                timeout: config.body_timeout,
                min_rate: config.min_body_rate,
                grace: config.body_rate_grace,
            },
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

    /// Answers one request from `peer`, its head `head` and its body `body`, telling `state`
    /// how far it got (its body on its way, the id its answer goes to), when a listener
    /// watches it (the tower `Service` has none to tell).
    ///
    /// The head is borrowed, not moved: every future a value is moved into keeps its own copy
    /// of it (an `async fn` keeps its arguments twice), so a moved head would be held four
    /// times over in the future of one request. The GET stream's path, rarer, is boxed so
    /// that its state does not size every POST's.
    pub(crate) async fn respond<B>(
        &self,
        head: &mut Parts,
        body: B,
        peer: &SocketAddr,
        state: Option<&RequestState>,
    ) -> HttpResponse
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: std::fmt::Display,
    {
        // Behind a trusted proxy, the client it names (the connection's address otherwise).
        let peer =
            super::forwarded::client_address(*peer, &head.headers, &self.config.trusted_proxies);
        // Refused before the body is read: no id to echo.
        let refuse = Refuse {
            id: None,
            missing_id: self.missing_id(&head.headers, None),
        };
        if let Err((status, why)) = self.check_host_and_origin(&head.headers) {
            return refuse.error(status, why);
        }
        if let Some(guard) = &self.config.guard {
            let gate = guard.0.check(&head.method, &head.uri, &head.headers).await;
            match gate {
                Gate::Pass(caller) => {
                    if let Some(caller) = caller {
                        head.extensions.insert(caller);
                    }
                }
                Gate::Answer(answer) => return guarded(answer, &head.headers),
            }
        }
        if let Some(check) = &self.config.health
            && head.uri.path() == super::health::HEALTH_PATH
        {
            return super::health::answer(check.as_ref(), &without_body(head));
        }
        if head.uri.path() != self.config.path {
            return refuse.error(
                StatusCode::NOT_FOUND,
                &format!("no MCP endpoint at {}", head.uri.path()),
            );
        }
        // Present only when allowed: any other origin got 403 above.
        let origin = head.headers.get(ORIGIN).cloned();
        let mut response = match head.method {
            Method::POST => self.post(head, body, &peer, state, refuse.missing_id).await,
            // Without their bodies (which these methods do not read), so that the request
            // held across the await need not be `Sync`.
            Method::GET => {
                let request = without_body(head);
                Box::pin(async move { self.get(&request).await }).await
            }
            Method::DELETE => self.delete(&without_body(head)),
            Method::OPTIONS if origin.is_some() => cors::preflight(self.allow()),
            _ => self.method_not_allowed(),
        };
        if let Some(origin) = &origin {
            cors::allow_origin(&mut response, origin);
        }
        response
    }

    /// `Host` must name an allowed host; `Origin`, when present, an allowed origin (403).
    fn check_host_and_origin(
        &self,
        headers: &hyper::HeaderMap,
    ) -> Result<(), (StatusCode, &'static str)> {
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
        if self.eras == Eras::Modern {
            MODERN_ALLOW
        } else if self.service.unsolicited_messages() {
            "GET, POST, DELETE"
        } else {
            "POST, DELETE"
        }
    }

    fn method_not_allowed(&self) -> HttpResponse {
        not_allowed(self.allow())
    }

    /// Whether a POST is served statelessly: always in stateless mode, never with sessions
    /// only; serving both eras, when it states a version per request, in its `_meta` or in
    /// `MCP-Protocol-Version` (MCP 2026-07-28, "Versioning and Compatibility": "A request
    /// carrying modern per-request `_meta` is served statelessly according to this
    /// revision"; "An `Mcp-Session-Id` header on a request: ignore it").
    fn serves_statelessly(&self, headers: &hyper::HeaderMap, kind: &BodyKind) -> bool {
        match self.eras {
            Eras::Modern => true,
            Eras::Legacy => false,
            Eras::Both => kind.meta_version.is_some() || self.names_stateless_version(headers),
        }
    }

    /// Whether `MCP-Protocol-Version` names a version the service serves per request.
    fn names_stateless_version(&self, headers: &hyper::HeaderMap) -> bool {
        headers
            .get(&names::PROTOCOL_VERSION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| self.service.stateless_versions().contains(&v))
    }

    /// Whether a GET or DELETE is one of the modern era, which has neither (405): in
    /// stateless mode every one; serving both eras, one whose `MCP-Protocol-Version` names
    /// a version served per request.
    fn modern_get_or_delete(&self, headers: &hyper::HeaderMap) -> bool {
        match self.eras {
            Eras::Modern => true,
            Eras::Legacy => false,
            Eras::Both => self.names_stateless_version(headers),
        }
    }

    /// The refusal of `initialize` under a version that has none, naming what to do instead.
    fn initialize_refusal(&self, refuse: &Refuse<'_>) -> HttpResponse {
        let message = if self.eras == Eras::Both {
            let modern = self.service.stateless_versions();
            let legacy: Vec<&str> = self
                .config
                .protocol_versions
                .iter()
                .map(String::as_str)
                .filter(|v| !modern.contains(v))
                .collect();
            format!(
                "Method not found: initialize is not a method of {}; use server/discover, or send \
                 initialize without a version of that era in _meta or MCP-Protocol-Version to open \
                 a session ({})",
                modern.join(", "),
                legacy.join(", ")
            )
        } else {
            "Method not found: MCP 2026-07-28 has no initialize; use server/discover".to_owned()
        };
        refuse.error_with_code(StatusCode::NOT_FOUND, METHOD_NOT_FOUND, &message)
    }

    /// The session a request names: `Ok(None)` without the header, `Err` (answered 404) for
    /// one that is not (or no longer) open.
    /// A session opened by another caller than the request's is unknown to it.
    fn find_session_in(
        &self,
        headers: &hyper::HeaderMap,
        extensions: &hyper::http::Extensions,
    ) -> Result<Option<Found<S::Handler>>, Unknown> {
        match headers::session(headers) {
            SessionHeader::Absent => Ok(None),
            SessionHeader::Foreign => Err(Unknown),
            SessionHeader::Id(id) => {
                let found = self.sessions.lease(&id).ok_or(Unknown)?;
                if found.owner.as_deref() != owner_of(extensions) {
                    return Err(Unknown);
                }
                Ok(Some(found))
            }
        }
    }

    /// How this endpoint spells "no id" in an error answer (see [`missing_id`]).
    fn missing_id(&self, headers: &hyper::HeaderMap, agreed: Option<&str>) -> MissingId {
        missing_id(headers, agreed, self.eras == Eras::Modern)
    }

    /// POST. The body is read before anything else is checked, so that every refusal
    /// answers the request's id when it can be read. `missing_id` is the spelling of an
    /// absent id the headers give (a session's agreed version may change it).
    async fn post<B>(
        &self,
        parts: &mut Parts,
        incoming: B,
        peer: &SocketAddr,
        state: Option<&RequestState>,
        missing_id: MissingId,
    ) -> HttpResponse
    where
        B: hyper::body::Body<Data = Bytes>,
        B::Error: std::fmt::Display,
    {
        let request_headers = &parts.headers;
        if let Some(state) = state {
            state.body_begins(missing_id);
        }
        let read = body::read(request_headers, incoming, &self.body_limits, &self.budget).await;
        if let Some(state) = state {
            state.body_ends();
        }
        let read = match read {
            Ok(read) => read,
            Err(refusal) => return refusal.response(missing_id),
        };
        let mut kind = BodyKind::of(&read.bytes, self.config.max_batch_len);
        // The scan goes on to the session's peer: moved, not copied.
        let split = kind.split.take();
        // Decoded: the body's share of the budget goes back now, not when its handler returns
        // (a slow handler must not hold other clients' budget).
        drop(read.budget);
        let mut refuse = Refuse {
            id: kind.id.as_deref(),
            missing_id,
        };
        if !headers::media_type_is(request_headers.get(CONTENT_TYPE), "application/json") {
            return refuse.error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Content-Type must be application/json",
            );
        }
        if let Some(coding) = content_coding(request_headers) {
            return refuse.error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                &format!("Content-Encoding {coding:?} is not supported; send the body unencoded"),
            );
        }
        let accept = request_headers.get(ACCEPT);
        if !headers::accepts(accept, "application/json") {
            return refuse.error(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must list application/json and text/event-stream",
            );
        }
        if let Some(guard) = &self.config.guard {
            let batch = !kind.unreadable
                && kind.method.is_none()
                && read.bytes.trim_ascii_start().starts_with(b"[");
            let message = MessageTarget {
                method: kind.method.as_deref(),
                target: kind.target.as_deref(),
                batch,
            };
            if let Some(answer) = guard.0.authorize(parts.extensions.get::<Caller>(), message) {
                return guarded(answer, request_headers);
            }
        }
        let streams = headers::accepts(accept, "text/event-stream");
        let stateless = self.serves_statelessly(request_headers, &kind);
        // Stateless (2026-07-28): a version stated in `_meta` is the server's to accept or
        // refuse (-32022, naming the versions it serves); the header must only repeat it.
        let version_is_the_servers = stateless && kind.meta_version.is_some();
        if !version_is_the_servers
            && let Err(why) =
                headers::check_protocol_version(request_headers, &self.config.protocol_versions)
        {
            return refuse.error(StatusCode::BAD_REQUEST, &why);
        }
        let session = if stateless {
            None // MCP 2026-07-28: an Mcp-Session-Id header is ignored.
        } else {
            match self.find_session_in(request_headers, &parts.extensions) {
                Ok(found) => found,
                Err(Unknown) => return refuse.unknown_session(),
            }
        };
        let agreed = session.as_ref().and_then(|f| f.protocol_version.as_deref());
        if agreed.is_some() {
            refuse.missing_id = self.missing_id(request_headers, agreed);
        }
        if let Some(state) = state {
            state.address(refuse.id, refuse.missing_id);
        }
        if let Some(why) = version_differs(request_headers, agreed) {
            return refuse.error(StatusCode::BAD_REQUEST, &why);
        }
        if let Some((len, max)) = kind.batch_too_long {
            // The array top level leaves no id to echo: the error has none.
            return refuse.error(
                StatusCode::BAD_REQUEST,
                &format!("a batch of {len} messages; this endpoint accepts at most {max}"),
            );
        }
        let capacity = streams.then_some(self.config.outbound_capacity);
        if stateless {
            if kind.is_initialize() {
                // MCP 2026-07-28 has no `initialize`: a method the version lacks.
                return self.initialize_refusal(&refuse);
            }
            if let Err(why) = routing::check(request_headers, &kind) {
                return refuse.error_with_code(StatusCode::BAD_REQUEST, HEADER_MISMATCH, &why);
            }
            // Awaited here, not in a function of its own: an `async fn` would keep each of
            // its arguments twice, in a state that sizes every POST's future.
            let (handler, caller, statuses) = self.open_stateless(&kind, *peer, parts);
            let frame = read.bytes;
            // Stateless: the version the transport assumes, whatever the headers say.
            let missing_id = Profile::latest_mcp().missing_id();
            let start = || {
                let handler = Arc::clone(&handler);
                let abort = WhenClientLeaves::Abort;
                exchange::run(handler, frame.clone(), split, capacity, abort, None, caller)
            };
            let limit = self.config.effective_request_timeout();
            let (outcome, deadline) = match limit {
                Some(limit) => {
                    let at = tokio::time::Instant::now() + limit;
                    match tokio::time::timeout_at(at, start()).await {
                        Ok(outcome) => (outcome, Some((at, limit))),
                        Err(_) => return deadline::timed_out_answer(&frame, limit, missing_id),
                    }
                }
                None => (start().await, None),
            };
            let mut response = answer(outcome, &kind, statuses, missing_id);
            // Dropped with the response body (sent, or the client left the stream), or here
            // with this future (the client hung up while the handler ran).
            response.body_mut().keep_one(handler);
            return match deadline {
                Some((at, limit)) => {
                    deadline::limit_stream(at, limit, &frame, missing_id, response)
                }
                None => response,
            };
        }
        if let Some(found) = session {
            let resume = self.resume(&parts.headers, found.protocol_version.as_deref());
            let outcome = exchange::run(
                found.handler,
                read.bytes,
                split,
                capacity,
                WhenClientLeaves::RunOn,
                resume,
                parts.extensions.get::<Caller>().cloned(),
            )
            .await;
            let mut response = answer(outcome, &kind, Statuses::Session, refuse.missing_id);
            response.body_mut().keep_one(found.lease);
            response
        } else if kind.is_initialize() {
            let caller = parts.extensions.get::<Caller>().cloned();
            // Boxed: once a session, its state need not size every POST's future.
            let open =
                self.open_session(read.bytes, split, &kind, *peer, caller, refuse.missing_id);
            Box::pin(open).await
        } else {
            refuse.error(
                StatusCode::BAD_REQUEST,
                "no Mcp-Session-Id: send initialize first and name its session in every later request",
            )
        }
    }

    /// The handler of a stateless POST: a fresh one whose work ends with its client (the
    /// POST drops it once the answer has been sent or the client has left, and its task is
    /// aborted if the client leaves first); the POST's caller, and the statuses its answer
    /// gets.
    fn open_stateless(
        &self,
        kind: &BodyKind,
        peer: SocketAddr,
        parts: &mut Parts,
    ) -> (Arc<S::Handler>, Option<Caller>, Statuses) {
        let parts_caller = parts.extensions.get::<Caller>().cloned();
        let request_headers = std::mem::take(&mut parts.headers);
        // An MCP client (one that names its version) gets the statuses of 2026-07-28; plain
        // JSON-RPC behind a stateless endpoint keeps those of JSON-RPC over HTTP.
        let statuses = if kind.meta_version.is_some()
            || request_headers.contains_key(&names::PROTOCOL_VERSION)
        {
            Statuses::Stateless
        } else {
            Statuses::Session
        };
        let handler = Arc::new(self.service.open(SessionOpening {
            peer,
            id: None,
            unsolicited: None,
            ended: None,
            caller: parts_caller.clone(),
            request_headers: Some(request_headers),
        }));
        (handler, parts_caller, statuses)
    }

    /// Runs an `initialize` without a session and opens one when it succeeds. The handler
    /// cannot stream here (the session header must go out with the reply).
    async fn open_session(
        &self,
        frame: Bytes,
        split: Option<Box<FrameSplit>>,
        kind: &BodyKind,
        peer: SocketAddr,
        caller: Option<Caller>,
        missing_id: MissingId,
    ) -> HttpResponse {
        let owner = caller
            .as_ref()
            .map(|caller| Arc::from(caller.subject.as_str()));
        let refuse = Refuse {
            id: kind.id.as_deref(),
            missing_id,
        };
        let peer_key = PeerKey::of(peer.ip());
        if let Err(refusal) = self.sessions.admit(peer_key) {
            return refuse.refused(refusal);
        }
        let Ok(id) = SessionId::generate_tagged(self.config.session_id_tag) else {
            return refuse.error_with_code(
                StatusCode::INTERNAL_SERVER_ERROR,
                -32603,
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
        let handler = Arc::new(self.service.open(SessionOpening {
            peer,
            id: Some(id.clone()),
            unsolicited,
            ended: Some(ended_signal),
            caller: caller.clone(),
            request_headers: None,
        }));
        let outcome = exchange::run(
            Arc::clone(&handler),
            frame,
            split,
            None,
            WhenClientLeaves::RunOn,
            None,
            caller,
        )
        .await;
        let Some(agreed) = (match &outcome {
            Outcome::Reply(Some(reply)) => initialized(reply),
            _ => None,
        }) else {
            return answer(outcome, kind, Statuses::Session, missing_id);
        };
        let opened = Opened {
            handler,
            peer: peer_key,
            unsolicited: receiver,
            ended,
            protocol_version: agreed.protocol_version,
            owner,
        };
        if let Err(refusal) = self.sessions.insert(id.clone(), opened) {
            return refuse.refused(refusal);
        }
        let mut response = answer(outcome, kind, Statuses::Session, missing_id);
        if let Ok(value) = HeaderValue::from_str(id.as_str()) {
            response.headers_mut().insert(names::SESSION.clone(), value);
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
    async fn get<B>(&self, request: &Request<B>) -> HttpResponse {
        if self.modern_get_or_delete(request.headers()) {
            return not_allowed(MODERN_ALLOW);
        }
        if !self.service.unsolicited_messages() {
            return self.method_not_allowed();
        }
        // A GET has no JSON-RPC id: its errors have none, spelled as the version says.
        let refuse = Refuse {
            id: None,
            missing_id: self.missing_id(request.headers(), None),
        };
        if !headers::accepts(request.headers().get(ACCEPT), "text/event-stream") {
            return refuse.error(
                StatusCode::NOT_ACCEPTABLE,
                "Accept must list text/event-stream",
            );
        }
        if let Err(why) =
            headers::check_protocol_version(request.headers(), &self.config.protocol_versions)
        {
            return refuse.error(StatusCode::BAD_REQUEST, &why);
        }
        let found = match self.find_session_in(request.headers(), request.extensions()) {
            Ok(Some(found)) => found,
            Ok(None) => {
                return refuse.error(
                    StatusCode::BAD_REQUEST,
                    "GET needs an Mcp-Session-Id header",
                );
            }
            Err(Unknown) => return self.resume_elsewhere(request.headers(), &refuse).await,
        };
        let agreed = found.protocol_version.as_deref();
        let refuse = Refuse {
            id: None,
            missing_id: self.missing_id(request.headers(), agreed),
        };
        if let Some(why) = version_differs(request.headers(), agreed) {
            return refuse.error(StatusCode::BAD_REQUEST, &why);
        }
        if let Some(last_event_id) = request.headers().get(LAST_EVENT_ID)
            && let Some(resume) = self.resume(request.headers(), None)
        {
            let last_event_id = String::from_utf8_lossy(last_event_id.as_bytes());
            // A reconnection to the session's own GET stream: it goes on.
            if let Some(slot) = found.unsolicited.clone() {
                let ended = found.ended.clone();
                let resumed =
                    resumable::resume_get_stream(resume.clone(), slot, ended, &last_event_id);
                match resumed.await {
                    Some(Ok(mut response)) => {
                        response.body_mut().keep_one(found.lease);
                        return response;
                    }
                    Some(Err((status, why))) => return refuse.error(status, &why),
                    None => {}
                }
            }
            // A reconnection to the stream of one of the session's POSTs.
            let mut response =
                match resumable::resume(resume.store, resume.session, &last_event_id).await {
                    Ok(response) => response,
                    Err(why) => return refuse.error(StatusCode::BAD_REQUEST, &why),
                };
            response.body_mut().keep_one(found.lease);
            return response;
        }
        let Some(slot) = found.unsolicited.clone() else {
            return self.method_not_allowed();
        };
        let taken = slot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .receiver
            .take();
        let Some(mut receiver) = taken else {
            return refuse.error(
                StatusCode::CONFLICT,
                "this session already has an open GET stream",
            );
        };
        // With an event store, the GET stream is stored and its events carry ids.
        if let Some(resume) = self.resume(request.headers(), agreed) {
            let ended = found.ended.clone();
            match resumable::open_get_stream(resume, slot.clone(), receiver, ended).await {
                Ok(mut response) => {
                    response.body_mut().keep_one(found.lease);
                    return response;
                }
                Err(back) => receiver = back,
            }
        }
        let (sender, events) = mpsc::channel(4);
        let ended = found.ended.clone();
        tokio::spawn(forward_unsolicited(receiver, slot, ended, sender));
        let mut response = event_stream(events);
        response.body_mut().keep_one(found.lease);
        response
    }

    /// A GET with `Last-Event-ID` naming a session this process does not hold: with an event
    /// store shared by several processes, the stream may have been written by another one
    /// (which may be gone); the store says whether it belongs to that session. Anything else
    /// is the unknown session's 404, so the client initializes again.
    async fn resume_elsewhere(
        &self,
        headers: &hyper::HeaderMap,
        refuse: &Refuse<'_>,
    ) -> HttpResponse {
        let (Some(last_event_id), Some(resume)) =
            (headers.get(LAST_EVENT_ID), self.resume(headers, None))
        else {
            return refuse.unknown_session();
        };
        let last_event_id = String::from_utf8_lossy(last_event_id.as_bytes()).into_owned();
        let Some(id) = super::EventId::parse(&last_event_id) else {
            return refuse.unknown_session();
        };
        // A shared store answers over the network: give the check a moment (a stream still
        // being written, with nothing new yet, is one that exists).
        let probe = tokio::time::timeout(
            std::time::Duration::from_millis(500),
            resume
                .store
                .read_after(&resume.session, &id.stream, id.sequence),
        )
        .await;
        if let Ok(Err(_)) = probe {
            return refuse.unknown_session();
        }
        match resumable::resume(resume.store, resume.session, &last_event_id).await {
            Ok(response) => response,
            Err(_) => refuse.unknown_session(),
        }
    }

    /// DELETE: ends the session.
    fn delete<B>(&self, request: &Request<B>) -> HttpResponse {
        if self.modern_get_or_delete(request.headers()) {
            return not_allowed(MODERN_ALLOW);
        }
        let refuse = Refuse {
            id: None,
            missing_id: self.missing_id(request.headers(), None),
        };
        if let Err(why) =
            headers::check_protocol_version(request.headers(), &self.config.protocol_versions)
        {
            return refuse.error(StatusCode::BAD_REQUEST, &why);
        }
        match headers::session(request.headers()) {
            SessionHeader::Absent => refuse.error(
                StatusCode::BAD_REQUEST,
                "DELETE needs an Mcp-Session-Id header",
            ),
            SessionHeader::Foreign => refuse.unknown_session(),
            SessionHeader::Id(id) => {
                if self
                    .sessions
                    .remove_owned(&id, owner_of(request.extensions()))
                {
                    empty(StatusCode::NO_CONTENT)
                } else {
                    refuse.unknown_session()
                }
            }
        }
    }
}

/// Feeds a GET stream from the session's unsolicited frames until the client leaves or the
/// session ends; then the receiver goes back to the session for the next GET.
async fn forward_unsolicited(
    mut receiver: FrameReceiver,
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
    slot.lock().unwrap_or_else(PoisonError::into_inner).receiver = Some(receiver);
}

/// Which statuses the answer to a single error reply gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Statuses {
    /// Sessions (up to 2025-11-25), and plain JSON-RPC: 400 for rejected input (-32700,
    /// -32600), else 200.
    Session,
    /// Stateless (2026-07-28): besides, 404 for a method the server lacks (-32601), 400 for
    /// invalid params (-32602, invalid `_meta` included), header mismatch (-32020), a
    /// missing client capability (-32021) and an unsupported version (-32022).
    Stateless,
}

impl Statuses {
    /// The status of a reply that is one error response with `code`.
    fn of_error(self, code: i64) -> StatusCode {
        match (self, code) {
            (_, -32700 | -32600) => StatusCode::BAD_REQUEST,
            (Statuses::Stateless, METHOD_NOT_FOUND) => StatusCode::NOT_FOUND,
            (Statuses::Stateless, -32602 | -32022..=-32020) => StatusCode::BAD_REQUEST,
            _ => StatusCode::OK,
        }
    }
}

/// The HTTP answer to an exchange's outcome: 202 without a reply to a notification or a
/// response, an ended event stream without a reply to a request; 400 for an unreadable
/// body; for a reply that is one error response, the status `statuses` gives its code (the
/// reply carries the request's id whenever it could be read); 200 otherwise; 500 when the
/// handler failed (its error echoes the id, or has none spelled as `missing_id` says).
fn answer(
    outcome: Outcome,
    kind: &BodyKind,
    statuses: Statuses,
    missing_id: MissingId,
) -> HttpResponse {
    match outcome {
        // A request that got no response (cancelled while in flight) still gets what a
        // request's POST gets: "the server MUST either return `Content-Type:
        // text/event-stream` … or `Content-Type: application/json`" (MCP transports
        // 2025-03-26 on). The stream ends without the response, which a cancelled request
        // never gets; 202 is for notifications and responses alone.
        Outcome::Reply(None) if kind.is_request => event_stream(mpsc::channel(1).1),
        Outcome::Reply(None) => empty(StatusCode::ACCEPTED),
        Outcome::Reply(Some(HandlerReply { reply, facts })) => {
            // What the reply is comes with it from the peer that wrote it; only a handler of
            // the user's own that returns bytes alone leaves it to be read here.
            let code = match facts {
                Some(facts) => facts.error_code(),
                None => single_error_code(&reply),
            };
            let status = match code {
                _ if kind.unreadable => StatusCode::BAD_REQUEST,
                Some(code) => statuses.of_error(code),
                None => StatusCode::OK,
            };
            json(status, reply)
        }
        Outcome::Streaming(response) => response,
        Outcome::Failed => error_to(
            StatusCode::INTERNAL_SERVER_ERROR,
            -32603,
            "the server failed while handling the message",
            kind.id.as_deref(),
            missing_id,
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

/// The transport's own refusals of one HTTP request: JSON-RPC error responses with the
/// request's id when it could be read, else without one, spelled as the version says.
struct Refuse<'a> {
    /// The request's id, as sent.
    id: Option<&'a str>,
    missing_id: MissingId,
}

impl Refuse<'_> {
    /// `status` with -32600 (the input is refused as such) and `message`.
    fn error(&self, status: StatusCode, message: &str) -> HttpResponse {
        self.error_with_code(status, -32600, message)
    }

    fn error_with_code(&self, status: StatusCode, code: i64, message: &str) -> HttpResponse {
        error_to(status, code, message, self.id, self.missing_id)
    }

    fn unknown_session(&self) -> HttpResponse {
        self.error(
            StatusCode::NOT_FOUND,
            "unknown or ended session; initialize again",
        )
    }

    fn refused(&self, refusal: Refusal) -> HttpResponse {
        let mut response = match refusal {
            Refusal::PeerLimit(max) => self.error(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "this client already holds {max} sessions, the most allowed; end one with DELETE"
                ),
            ),
            Refusal::Full(max) => self.error(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("all {max} session slots are in use"),
            ),
        };
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from_static("5"));
        response
    }
}

/// How a transport error without a readable id spells the missing id: as the version in
/// force says (the session's, else the `MCP-Protocol-Version` header's, else the one the
/// transport assumes: 2026-07-28 when stateless, 2025-03-26 otherwise). 2025-11-25 and
/// later leave `id` out; earlier versions write `"id":null`.
fn missing_id(headers: &hyper::HeaderMap, agreed: Option<&str>, stateless: bool) -> MissingId {
    let assumed = if stateless {
        Profile::latest_mcp()
    } else {
        Profile::mcp("2025-03-26").unwrap_or_else(Profile::latest_mcp)
    };
    let stated = agreed.or_else(|| {
        headers
            .get(&names::PROTOCOL_VERSION)
            .and_then(|v| v.to_str().ok())
    });
    stated
        .and_then(Profile::mcp)
        .unwrap_or(assumed)
        .missing_id()
}

/// The methods of the endpoint in the modern era (no GET stream, no sessions to DELETE).
const MODERN_ALLOW: &str = "POST";

/// 405 with `Allow: allow`.
fn not_allowed(allow: &'static str) -> HttpResponse {
    let mut response = empty(StatusCode::METHOD_NOT_ALLOWED);
    response
        .headers_mut()
        .insert(ALLOW, HeaderValue::from_static(allow));
    response
}

/// -32601, Method not found.
const METHOD_NOT_FOUND: i64 = -32601;

/// The longest reply [`single_error_code`] looks into: the transport's and the server's
/// error replies are far shorter (their `data`, if any, is small).
const ERROR_REPLY_MAX: usize = 64 * 1024;

/// The error code of a reply that is one error response (a batch's array reply is not: its
/// elements stand on their own), read from a reply that came without its facts (a handler
/// of the user's own). A long reply (a large result) is not parsed again.
fn single_error_code(reply: &[u8]) -> Option<i64> {
    #[derive(serde::Deserialize)]
    struct Reply {
        error: Option<ErrorCode>,
    }
    #[derive(serde::Deserialize)]
    struct ErrorCode {
        code: i64,
    }
    if reply.first() != Some(&b'{') || reply.len() > ERROR_REPLY_MAX {
        return None;
    }
    serde_json::from_slice::<Reply>(reply)
        .ok()
        .and_then(|reply| reply.error)
        .map(|error| error.code)
}

/// What a successful `initialize` reply says.
struct Initialized {
    /// The protocol version the server agreed (`result.protocolVersion`), when it names one.
    protocol_version: Option<String>,
}

/// The agreement of a success reply (one with a `result` member at the top level); `None`
/// for any other reply. Known from the reply's facts; only a handler of the user's own that
/// returns bytes alone leaves the reply to be read here.
fn initialized(answer: &HandlerReply) -> Option<Initialized> {
    if let Some(facts) = &answer.facts {
        return facts.is_result().then(|| Initialized {
            protocol_version: facts.agreed_version.as_deref().map(str::to_owned),
        });
    }
    let value = serde_json::from_slice::<serde_json::Value>(&answer.reply).ok()?;
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
    let sent = headers.get(&names::PROTOCOL_VERSION)?;
    (sent.as_bytes() != agreed.as_bytes()).then(|| {
        format!(
            "MCP-Protocol-Version {:?} is not the version this session agreed, {agreed:?}",
            String::from_utf8_lossy(sent.as_bytes())
        )
    })
}

/// `request`'s head, its body dropped.
/// A guard's answer, readable by the (allowed) origin of the request.
fn guarded(answer: hyper::Response<Bytes>, request_headers: &hyper::HeaderMap) -> HttpResponse {
    let (parts, bytes) = answer.into_parts();
    let mut response = HttpResponse::from_parts(parts, ResponseBody::full(bytes));
    if let Some(origin) = request_headers.get(ORIGIN) {
        cors::allow_origin(&mut response, origin);
    }
    response
}

/// The subject of the caller a [`Guard`](super::Guard) identified for a request.
fn owner_of(extensions: &hyper::http::Extensions) -> Option<&str> {
    extensions
        .get::<Caller>()
        .map(|caller| caller.subject.as_str())
}

fn without_body(head: &mut Parts) -> Request<()> {
    let (empty, ()) = Request::new(()).into_parts();
    Request::from_parts(std::mem::replace(head, empty), ())
}
