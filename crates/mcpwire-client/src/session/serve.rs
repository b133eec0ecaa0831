//! The server's requests to the client: checked against the version, answered by the
//! registered handlers on tasks of their own (bounded in number), stopped when the server
//! cancels them, and replied to with the id as the server sent it.

use super::*;

impl Session {
    /// Answers one server request with its handler, on a task of its own.
    pub(super) fn serve(
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
        if let Some(version) = version
            && self.settings.check_results
            && let Err(reason) = check_message(
                version,
                "ServerRequest",
                Some(call.id().raw()),
                &method,
                params.as_deref(),
            )
        {
            let error = RpcError::invalid_params().with_data(&reason);
            return self.answer_detached(call, Err(error));
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
        // Before the handshake settles a version, the newest one with a handshake.
        let version = version.unwrap_or_else(Version::newest_with_handshake);
        tokio::spawn(async move {
            let outcome = tokio::select! {
                outcome = session.settings.handlers.answer(&method, params, version) => outcome,
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
}
