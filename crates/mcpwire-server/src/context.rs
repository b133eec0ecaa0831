//! What a tool, resource or prompt handler can see and do: report progress, log, notice
//! cancellation, and ask the client (elicitation, sampling) when the client can answer.

use std::sync::Arc;

use mcpwire::peer::Request;
use mcpwire::service::{AsyncContext, CancellationToken};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::client::{ClientError, CreateMessage, ElicitCreate, Elicitation, Sampled};
use crate::input_round::InputRound;
use crate::logging::LogLevel;
use crate::schema::object_schema;
use crate::version::{Feature, Version};

/// The context of one call (see the [crate docs](crate) for an example).
#[derive(Debug, Clone)]
pub struct Context {
    request: AsyncContext,
    version: Version,
    client_capabilities: Map<String, Value>,
    log_threshold: Option<LogLevel>,
    /// Under 2026-07-28, on a request whose result may be input-required: the answers the
    /// client gave and the asks of this run.
    input: Option<Arc<InputRound>>,
}

impl Context {
    pub(crate) fn new(
        request: AsyncContext,
        version: Version,
        client_capabilities: Map<String, Value>,
        log_threshold: Option<LogLevel>,
    ) -> Self {
        Self {
            request,
            version,
            client_capabilities,
            log_threshold,
            input: None,
        }
    }

    /// The input round of this call, when it can ask the client under 2026-07-28.
    pub(crate) fn input_round(&self) -> Option<Arc<InputRound>> {
        self.input.clone()
    }

    /// This context, asking the client through `round` (2026-07-28).
    pub(crate) fn with_input(mut self, round: Arc<InputRound>) -> Self {
        self.input = Some(round);
        self
    }

    /// The MCP version of this call.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The capabilities the client declared (in `initialize`, or under 2026-07-28 in this
    /// request's `_meta`).
    pub fn client_capabilities(&self) -> &Map<String, Value> {
        &self.client_capabilities
    }

    /// Whether the client cancelled this call. Its reply will not be sent anyway; stop
    /// working when it is.
    pub fn is_cancelled(&self) -> bool {
        self.request.is_cancelled()
    }

    /// Completes when the client cancels this call.
    pub async fn cancelled(&self) {
        self.request.cancelled().await
    }

    /// The cancellation token of this call (to hand to other tasks).
    pub fn cancellation(&self) -> &CancellationToken {
        self.request.cancellation()
    }

    /// Sends `notifications/progress` when the client asked for progress (the request
    /// carried `_meta.progressToken`); returns whether it was sent.
    pub async fn progress(&self, progress: f64, total: Option<f64>) -> bool {
        matches!(self.request.progress(progress, total, None).await, Ok(true))
    }

    /// Sends a log message (`notifications/message`) at `level`, when the client's level
    /// (`logging/setLevel`, or under 2026-07-28 this request's `_meta` log level) lets it
    /// through; returns whether it was sent. Before `logging/setLevel` every level is sent
    /// (2024-11-05 to 2025-11-25); under 2026-07-28 nothing is sent unless the request
    /// names a level.
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) -> bool {
        let passes = match self.log_threshold {
            Some(threshold) => level >= threshold,
            None => !self.version.is_stateless(),
        };
        if !passes {
            return false;
        }
        let params = json!({ "level": level, "data": data.into() });
        self.request
            .notify_raw("notifications/message", &params)
            .await
            .is_ok()
    }

    /// Whether the client can answer `method` here: the version has a way to ask it during
    /// this request, and the client declared `capability`.
    fn can_ask(&self, method: &'static str, capability: &'static str) -> Result<(), ClientError> {
        // 2026-07-28 asks through the input-required results of the requests whose handlers
        // get a context (`tools/call`, `prompts/get`, `resources/read`), so through `input`.
        let reachable = if self.version.has(Feature::InputRequests) {
            self.input.is_some()
        } else {
            self.version.has_request(method)
        };
        if !reachable {
            return Err(ClientError::NotInVersion {
                method,
                version: self.version,
            });
        }
        if !self.client_capabilities.contains_key(capability) {
            return Err(ClientError::NotDeclared { capability });
        }
        Ok(())
    }

    /// Asks the client `R` with `params`: a request to the client up to 2025-11-25; under
    /// 2026-07-28 an ask of this run's [`InputRound`], which ends the handler here when the
    /// client has not answered yet (see [`elicit`](Self::elicit)).
    async fn ask<R: Request<Params = Value>>(
        &self,
        params: Value,
    ) -> Result<R::Result, ClientError> {
        match &self.input {
            Some(round) => {
                let answer = round.ask(R::METHOD, params).await;
                serde_json::from_value(answer).map_err(|e| {
                    ClientError::InvalidReply(format!("the answer to `{}`: {e}", R::METHOD))
                })
            }
            None => self
                .request
                .request::<R>(&params)
                .await
                .map_err(ClientError::Request),
        }
    }

    /// Whether [`elicit`](Self::elicit) can ask this client.
    pub fn can_elicit(&self) -> bool {
        self.can_ask("elicitation/create", "elicitation").is_ok()
    }

    /// Whether [`sample`](Self::sample) can ask this client.
    pub fn can_sample(&self) -> bool {
        self.can_ask("sampling/createMessage", "sampling").is_ok()
    }

    /// Asks the user, through the client, to fill in a form shaped like `T`
    /// (`elicitation/create`, from 2025-06-18). `T`'s fields should be strings, numbers,
    /// integers, booleans or string enums, as MCP allows in a form.
    ///
    /// Up to 2025-11-25 this sends the request and awaits the client's answer. Under
    /// 2026-07-28 (`tools/call`, `prompts/get`, `resources/read` only) the client answers by
    /// retrying the request: the first time, this ask ends the handler (its future is
    /// dropped, the reply is an input-required result carrying the question); on the retry
    /// the handler runs again from the start and this ask returns the answer. Work before an
    /// ask therefore runs once per round; see the [crate docs](crate#asking-the-client-under-2026-07-28).
    ///
    /// Fails with [`ClientError::NotDeclared`] when the client did not declare
    /// `elicitation`, and [`ClientError::NotInVersion`] under versions without it.
    pub async fn elicit<T: DeserializeOwned + schemars::JsonSchema>(
        &self,
        message: &str,
    ) -> Result<Elicitation<T>, ClientError> {
        self.can_ask("elicitation/create", "elicitation")?;
        let schema = object_schema::<T>()
            .map_err(|e| ClientError::InvalidReply(format!("form type: {e}")))?;
        let params = json!({
            "message": message,
            "requestedSchema": crate::client::form_schema(&schema),
        });
        self.ask::<ElicitCreate>(params).await?.into_elicitation()
    }

    /// Asks the client's model for a completion of one user message
    /// (`sampling/createMessage`), as [`elicit`](Self::elicit) asks: by request up to
    /// 2025-11-25, through an input-required result under 2026-07-28.
    ///
    /// Fails with [`ClientError::NotDeclared`] when the client did not declare `sampling`.
    pub async fn sample(&self, prompt: &str, max_tokens: u32) -> Result<Sampled, ClientError> {
        self.can_ask("sampling/createMessage", "sampling")?;
        let params = json!({
            "messages": [{ "role": "user", "content": { "type": "text", "text": prompt } }],
            "maxTokens": max_tokens,
        });
        self.ask::<CreateMessage>(params).await
    }

    /// Closes the client's connection of this call's SSE stream early, the stream staying
    /// resumable: what the handler sent before is delivered first; what it sends from now on, and its result, reach the client when
    /// it reconnects with `Last-Event-ID` (MCP 2025-11-25 SSE polling; Streamable HTTP
    /// sessions with an event store, see `mcpwire::http::HttpConfig::event_store`). Returns
    /// whether the transport could; otherwise nothing happens.
    pub async fn close_sse_stream(&self) -> bool {
        self.request.close_sse_stream().await
    }

    /// The async layer's context of this call, for what this type does not wrap.
    pub fn request(&self) -> &AsyncContext {
        &self.request
    }
}
