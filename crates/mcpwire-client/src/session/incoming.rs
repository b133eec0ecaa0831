//! What the server sends, as the service hands it over: the reader taking the transport's
//! events, the observer of the service reporting every frame that breaks a rule, the
//! server's requests answered by the client's handlers, and notifications routed to a
//! call's progress, a listen stream or the application's callbacks.

use std::future::Future;
use std::pin::Pin;

use mcpwire::peer::{Event, ProgressParams};
use mcpwire::service::{AsyncCallContext, Observer};
use mcpwire::{Decoded, RawParams, RpcError};
use serde_json::value::RawValue;

use super::*;
use crate::notify::ProgressEvent;
use crate::result_check::check_message;
use crate::versions;
use crate::violation::excerpt;

/// What a server request's handler returns to the service.
type Answer = Pin<Box<dyn Future<Output = Result<Box<RawValue>, RpcError>> + Send>>;

impl Session {
    /// The reader: takes every incoming event until the connection ends.
    pub(crate) async fn read(self: Arc<Self>, mut incoming: IncomingReceiver) {
        let sink = self.service.session_sink();
        while let Some(event) = incoming.recv().await {
            match event {
                Incoming::Frame(frame) => self.service.receive(&frame, &sink).await,
                Incoming::Lost { id, error } => self.fail(id, ClientError::Transport(error)),
                Incoming::Discarded(error) => self
                    .settings()
                    .callbacks
                    .violation(Violation::new(Rule::Message, error.to_string())),
                Incoming::Closed(error) => return self.end(error),
            }
        }
        self.end(TransportError::Closed);
    }

    /// Fails one waiting call (the service forgets it; no cancellation is sent).
    fn fail(&self, id: OutgoingId, error: ClientError) {
        let waiter = self.lock().remove_waiter(id);
        self.handle.forget(id);
        if let Some(waiter) = waiter {
            let _ = waiter.fail.send(error);
        }
    }
}

/// The client's [`Observer`] of the service: what answers the client's calls is noted, what
/// breaks a rule becomes a [`Violation`].
pub(super) struct Watch {
    pub(super) shared: Arc<Shared>,
    pub(super) handle: PeerHandle,
}

impl Observer for Watch {
    fn event(&self, event: &Event<'_>) {
        let violation = match event {
            Event::Response { id, .. }
            | Event::InvalidResult { id, .. }
            | Event::MalformedResponse { id, .. } => {
                self.shared.lock().answered(*id);
                None
            }
            // Otherwise the call was cancelled or timed out: the server raced it.
            Event::LateResponse { id, .. } => self.shared.lock().answered.contains(id).then(|| {
                Violation::new(
                    Rule::OneResponse,
                    format!("a second response to request {id}"),
                )
            }),
            Event::UnmatchedResponse(response) => Some(self.unmatched(response)),
            Event::InvalidNotification { method, error } => Some(Violation::new(
                Rule::NotificationShape,
                format!("{method}: {}", error.data().map_or("", |d| d.get())),
            )),
            Event::Request { .. } | Event::Notification(_) | Event::Cancelled { .. } => None,
        };
        if let Some(violation) = violation {
            self.shared.settings.callbacks.violation(violation);
        }
    }

    fn answered_at_once(&self, frame: &[u8], with_events: bool) {
        let profile = self.handle.profile();
        let violation = classify_invalid(frame, &profile, !with_events);
        self.shared.settings.callbacks.violation(violation);
    }
}

impl Watch {
    /// The violation of a response that names no waiting call; when its id is a pending
    /// request's number spelled with another JSON type (`"3"` for `3`), that call fails
    /// with it (it would otherwise never be answered).
    fn unmatched(&self, response: &mcpwire::Response<'_>) -> Violation {
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
            });
        let waiter = respelled.and_then(|n| {
            let mut state = self.shared.lock();
            let pending = state.waiting.keys().copied().find(|p| p.get() == n)?;
            Some((pending, state.answered(pending)?))
        });
        match waiter {
            Some((pending, waiter)) => {
                let violation = Violation::new(
                    Rule::ResponseIdEcho,
                    format!("request {pending} was answered with id {}", id.raw()),
                );
                self.handle.forget(pending);
                let _ = waiter.fail.send(ClientError::Protocol(violation.clone()));
                violation
            }
            None => Violation::new(
                Rule::ResponseToKnownRequest,
                format!("a response to id {}, which the client never sent", id.raw()),
            ),
        }
    }
}

/// The client's one handler on the service's router: a notification is routed at once, in
/// order, on the reading task; a request is checked there and answered on a task.
pub(super) fn from_server(
    shared: Arc<Shared>,
    params: Option<RawParams<'_>>,
    ctx: AsyncCallContext,
) -> Result<Answer, RpcError> {
    let params = params.map(|params| params.get());
    if ctx.is_notification() {
        shared.notification(ctx.method(), params);
        return Ok(Box::pin(async { Ok(Box::<RawValue>::default()) }));
    }
    shared.serve(ctx, params)
}

impl Shared {
    /// Answers one server request with its handler; the service runs the answer on a task
    /// of its own, stops it when the server cancels it and replies with the id as the
    /// server sent it.
    fn serve(
        self: Arc<Self>,
        ctx: AsyncCallContext,
        params: Option<&str>,
    ) -> Result<Answer, RpcError> {
        let method = ctx.method().to_owned();
        let version = self.version();
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
            return Err(RpcError::method_not_found());
        }
        if let Some(version) = version
            && self.settings.check_results
            && let Err(reason) = check_message(
                version,
                "ServerRequest",
                ctx.id().map(|id| id.raw()),
                &method,
                params,
            )
        {
            return Err(RpcError::invalid_params().with_data(&reason));
        }
        let params = match params.map(serde_json::from_str::<Value>) {
            None => Value::Object(Map::new()),
            Some(Ok(params)) => params,
            Some(Err(error)) => {
                return Err(RpcError::invalid_params().with_data(&error.to_string()));
            }
        };
        let Ok(permit) = Arc::clone(&self.serving_slots).try_acquire_owned() else {
            return Err(RpcError::internal_error().with_data(
                "the client is busy: too many requests of the server are being answered",
            ));
        };
        // Before the handshake settles a version, the newest one with a handshake.
        let version = version.unwrap_or_else(Version::newest_with_handshake);
        Ok(Box::pin(async move {
            let outcome = tokio::select! {
                outcome = self.settings.handlers.answer(&method, params, version) => outcome,
                () = ctx.cancelled() => Err(RpcError::internal_error().with_data("cancelled")),
            };
            drop(permit);
            serde_json::value::to_raw_value(&outcome?).map_err(|_| RpcError::internal_error())
        }))
    }

    /// Hands one notification to where it goes: a call's progress, a listen stream, or the
    /// application's callbacks.
    fn notification(&self, method: &str, params: Option<&str>) {
        let callbacks = &self.settings.callbacks;
        let version = self.version();
        if let Some(version) = version
            && !versions::has_notification(version, method)
        {
            return callbacks.violation(Violation::new(
                Rule::MethodInVersion,
                format!("notification {method} under {version}"),
            ));
        }
        if let Some(version) = version
            && self.settings.check_results
            && let Err(reason) = check_message(version, "ServerNotification", None, method, params)
        {
            return callbacks.violation(Violation::new(Rule::NotificationShape, reason));
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
