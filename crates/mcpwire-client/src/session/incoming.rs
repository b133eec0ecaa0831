//! The reader side of a session: every incoming event taken under the lock, responses
//! handed to their calls, frames that break a rule classified, notifications routed to a
//! call's progress, a listen stream or the application's callbacks.

use super::*;

/// What the reader does after releasing the lock.
pub(super) enum After {
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
    pub(super) fn receive(self: &Arc<Self>, frame: &[u8]) {
        let mut after = Vec::new();
        let (reply, version) = {
            let mut state = self.lock();
            let received = state.peer.receive(frame);
            let no_events = received.events.is_empty();
            for event in received.events {
                state.take(event, &mut after);
            }
            // A reply at once means the frame, or an element of it, was invalid.
            if received.reply.is_some() {
                let profile = state.peer.profile();
                let violation = classify_invalid(frame, profile, no_events);
                after.push(After::Violation(violation));
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

    /// Forgets a listener (its request ended or was cancelled).
    pub(crate) fn drop_listener(&self, id: OutgoingId) {
        self.lock().listeners.remove(&id);
    }
}

impl State {
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
            Event::Notification(mcpwire::RawNotification { method, params }) => {
                after.push(After::Notify {
                    method: method.into_owned(),
                    params: params.map(|p| p.get().to_owned()),
                })
            }
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
