//! What a tool, resource or prompt handler can see and do: report progress, log, notice
//! cancellation, and ask the client (elicitation, sampling) when the client can answer.

use std::sync::Arc;

use mcpwire::peer::Request;
use mcpwire::service::{AsyncCallContext, CancellationToken};
use mcpwire_model::{ElicitAnswer, ElicitReply, SamplingReply};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::client::{
    ClientError, CreateMessage, ElicitCreate, Elicitation, Elicited, UrlElicitation, elicitation,
};
use crate::input_round::InputRound;
use mcpwire_model::ask::wire::{AskError, elicit_params, sampling_params};
use mcpwire_model::ask::{ElicitRequest, SamplingRequest};
use mcpwire_model::form::Form;
use mcpwire_model::logging::LogLevel;
use mcpwire_model::version::{Feature, Version};

/// The context of one call (see the [crate docs](crate) for an example).
#[derive(Debug, Clone)]
pub struct Context {
    request: AsyncCallContext,
    version: Version,
    client_capabilities: Map<String, Value>,
    log_threshold: Option<LogLevel>,
    /// Under 2026-07-28, on a request whose result may be input-required: the answers the
    /// client gave and the asks of this run.
    input: Option<Arc<InputRound>>,
    /// The key the asks of this context name their input request with (see
    /// [`Context::keyed`]); derived from each ask when `None`.
    input_key: Option<Arc<str>>,
    /// The caller whose access token opened the session (feature `auth`).
    #[cfg(feature = "auth")]
    pub(crate) identity: Option<Arc<crate::auth::Identity>>,
}

impl Context {
    pub(crate) fn new(
        request: AsyncCallContext,
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
            input_key: None,
            #[cfg(feature = "auth")]
            identity: None,
        }
    }

    /// The caller, on an endpoint protected by a
    /// [`ResourceServer`](crate::auth::ResourceServer): the subject, scopes and claims of this
    /// request's own access token. Within a session every request comes from the subject that
    /// opened it (another one's is refused 404), but a later request may carry another token
    /// of that subject, with other scopes after a step-up: the handler sees the one it came
    /// with. `None` on an unprotected endpoint and on stdio.
    #[cfg(feature = "auth")]
    pub fn identity(&self) -> Option<&crate::auth::Identity> {
        self.identity.as_deref()
    }

    /// This context, naming its asks `key` in an input-required result (2026-07-28): the
    /// client answers the ask under that key in `inputResponses`. Without it a key is derived
    /// from the ask's position and content (see the [crate docs](crate#asking-the-client-under-2026-07-28)).
    /// Give each ask of a handler its own key; up to 2025-11-25, where the server asks by
    /// request, the key is not used.
    ///
    /// ```
    /// # async fn demo(ctx: mcpwire_server::Context) {
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Name { name: String }
    /// let answer = ctx.keyed("user_name").elicit::<Name>("What is your name?").await;
    /// # let _ = answer;
    /// # }
    /// ```
    pub fn keyed(&self, key: impl Into<String>) -> Context {
        Context {
            input_key: Some(key.into().into()),
            ..self.clone()
        }
    }

    /// The input round of this call, when it can ask the client under 2026-07-28.
    pub(crate) fn input_round(&self) -> Option<Arc<InputRound>> {
        self.input.clone()
    }

    /// This context for a call that may become a task: cancelled through `token` only
    /// (`tasks/cancel`, the task's expiry), not by the request, which the task outlives.
    pub(crate) fn detached(mut self, token: mcpwire::service::CancellationToken) -> Self {
        self.request = self.request.detached(token);
        self
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
        self.progress_with_message(progress, total, None).await
    }

    /// [`progress`](Self::progress) with a message saying what is going on (sent from
    /// 2025-03-26; 2024-11-05's progress notification has no message, so there it is left
    /// out).
    pub async fn progress_with_message(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> bool {
        let message = message.filter(|_| self.version >= Version::V2025_03_26);
        matches!(
            self.request.progress(progress, total, message).await,
            Ok(true)
        )
    }

    /// Sends a log message (`notifications/message`) at `level`, when the client's level
    /// (`logging/setLevel`, or under 2026-07-28 this request's `_meta` log level) lets it
    /// through; returns whether it was sent. Before `logging/setLevel` every level is sent
    /// (2024-11-05 to 2025-11-25); under 2026-07-28 nothing is sent unless the request
    /// names a level.
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) -> bool {
        self.log_as(level, None, data).await
    }

    /// [`log`](Self::log) naming the `logger` that speaks (e.g. a module or subsystem).
    pub async fn log_as(
        &self,
        level: LogLevel,
        logger: Option<&str>,
        data: impl Into<Value>,
    ) -> bool {
        let passes = match self.log_threshold {
            Some(threshold) => level >= threshold,
            None => !self.version.is_stateless(),
        };
        if !passes {
            return false;
        }
        let params =
            mcpwire_model::logging::message_params(level, logger, data.into(), self.version);
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

    /// Asks the client `R` with `params` and reads its answer with `read`: a request to the
    /// client up to 2025-11-25; under 2026-07-28 an ask of this run's [`InputRound`], which
    /// ends the handler here when the client has not answered yet (see
    /// [`elicit`](Self::elicit)).
    async fn ask<R, T>(
        &self,
        params: Value,
        read: impl FnOnce(&str, Version) -> Result<T, String>,
    ) -> Result<T, ClientError>
    where
        R: Request<Params = Value, Result = Box<RawValue>>,
    {
        match &self.input {
            Some(round) => {
                let (key, answer) = round
                    .ask(self.input_key.as_deref(), R::METHOD, params)
                    .await;
                match read(&answer.to_string(), self.version) {
                    Ok(result) => Ok(result),
                    // The client's own input is malformed: the request is refused (-32602),
                    // the handler does not see it.
                    Err(e) => match round
                        .reject(&key, &format!("not a result of `{}`: {e}", R::METHOD))
                        .await {},
                }
            }
            None => {
                let raw = self
                    .request
                    .request::<R>(&params)
                    .await
                    .map_err(ClientError::Request)?;
                read(raw.get(), self.version).map_err(ClientError::InvalidReply)
            }
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
        self.elicit_with_meta(message)
            .await
            .map(|elicited| elicited.answer)
    }

    /// [`elicit`](Self::elicit), also giving the `_meta` the client put on its result
    /// (`ElicitResult` has one in 2025-06-18 and 2025-11-25).
    pub async fn elicit_with_meta<T: DeserializeOwned + schemars::JsonSchema>(
        &self,
        message: &str,
    ) -> Result<Elicited<T>, ClientError> {
        self.can_ask("elicitation/create", "elicitation")?;
        let form = Form::of::<T>().map_err(|e| ClientError::Unsendable(AskError::Form(e)))?;
        let request = ElicitRequest::Form {
            message: message.to_owned(),
            form,
            meta: None,
        };
        let params = elicit_params(&request, self.version).map_err(ClientError::Unsendable)?;
        let reply = self.ask::<ElicitCreate, _>(params, read_reply).await?;
        Ok(Elicited {
            answer: elicitation(reply.answer)?,
            meta: reply.meta,
        })
    }

    /// Whether the client can open a URL for [`elicit_url`](Self::elicit_url): the version
    /// has URL mode (from 2025-11-25) and the client declared `elicitation.url`.
    pub fn can_elicit_url(&self) -> bool {
        self.version >= Version::V2025_11_25
            && self.can_elicit()
            && self
                .client_capabilities
                .get("elicitation")
                .and_then(|e| e.get("url"))
                .is_some()
    }

    /// Asks the user, through the client, to open `url` (URL-mode elicitation, from
    /// 2025-11-25): for what the client must not see, such as signing in elsewhere. The
    /// answer says whether the user agreed to open it; under 2025-11-25 the returned
    /// [`UrlElicitation::elicitation_id`] is the id to name in
    /// [`elicitation_complete`](Self::elicitation_complete) when the interaction is done.
    ///
    /// Fails with [`ClientError::NotDeclared`] when the client did not declare
    /// `elicitation.url`, [`ClientError::NotInVersion`] before 2025-11-25.
    pub async fn elicit_url(
        &self,
        message: &str,
        url: &str,
    ) -> Result<UrlElicitation, ClientError> {
        self.can_ask("elicitation/create", "elicitation")?;
        if self.version < Version::V2025_11_25 {
            return Err(ClientError::NotInVersion {
                method: "elicitation/create (URL mode)",
                version: self.version,
            });
        }
        if !self.can_elicit_url() {
            return Err(ClientError::NotDeclared {
                capability: "elicitation.url",
            });
        }
        // 2025-11-25 names each URL elicitation; 2026-07-28 has no such id.
        let elicitation_id = match self.version {
            Version::V2025_11_25 => Some(random_id().map_err(|e| {
                ClientError::Unsendable(AskError::Lacking {
                    what: format!("an elicitation id without randomness ({e})"),
                    version: self.version,
                })
            })?),
            _ => None,
        };
        let request = ElicitRequest::Url {
            message: message.to_owned(),
            url: url.to_owned(),
            elicitation_id: elicitation_id.clone(),
            meta: None,
        };
        let params = elicit_params(&request, self.version).map_err(ClientError::Unsendable)?;
        let answer = elicitation::<serde::de::IgnoredAny>(
            self.ask::<ElicitCreate, _>(params, read_answer).await?,
        )?;
        Ok(UrlElicitation {
            answer: match answer {
                Elicitation::Accepted(_) => Elicitation::Accepted(()),
                Elicitation::Declined => Elicitation::Declined,
                Elicitation::Cancelled => Elicitation::Cancelled,
            },
            elicitation_id,
        })
    }

    /// Tells the client that the URL elicitation `elicitation_id` is done
    /// (`notifications/elicitation/complete`, 2025-11-25); returns whether it was sent.
    pub async fn elicitation_complete(&self, elicitation_id: &str) -> bool {
        if self.version != Version::V2025_11_25 {
            return false;
        }
        let params = mcpwire_types::mcp::v2025_11_25::ElicitationCompleteNotificationParams::new(
            elicitation_id,
        );
        self.request
            .notify_raw("notifications/elicitation/complete", &params)
            .await
            .is_ok()
    }

    /// Asks the client's model for a completion of one user message
    /// (`sampling/createMessage`), as [`elicit`](Self::elicit) asks: by request up to
    /// 2025-11-25, through an input-required result under 2026-07-28.
    ///
    /// Fails with [`ClientError::NotDeclared`] when the client did not declare `sampling`.
    pub async fn sample(
        &self,
        prompt: &str,
        max_tokens: u32,
    ) -> Result<SamplingReply, ClientError> {
        self.sample_with(&SamplingRequest::new(max_tokens).user(prompt))
            .await
    }

    /// Asks the client's model to continue a conversation, with a system prompt, model
    /// preferences, temperature, stop sequences and context as `request` says (see
    /// [`SamplingRequest`]); asked as [`sample`](Self::sample) asks.
    ///
    /// Fails with [`ClientError::Unsendable`] when the version cannot carry the request
    /// (audio before 2025-03-26, a resource in a message, a temperature that is not finite,
    /// tools before 2025-11-25), and with [`ClientError::NotDeclared`] when it offers tools
    /// (`tools`, `toolChoice`) and the client did not declare `sampling.tools`.
    pub async fn sample_with(
        &self,
        request: &SamplingRequest,
    ) -> Result<SamplingReply, ClientError> {
        self.can_ask("sampling/createMessage", "sampling")?;
        let offers_tools = request.tools.is_some() || request.tool_choice.is_some();
        let tools_declared = self
            .client_capabilities
            .get("sampling")
            .and_then(|sampling| sampling.get("tools"))
            .is_some();
        if offers_tools && !tools_declared && self.version >= mcpwire_model::Version::V2025_11_25 {
            return Err(ClientError::NotDeclared {
                capability: "sampling.tools",
            });
        }
        let params = sampling_params(request, self.version).map_err(ClientError::Unsendable)?;
        let read = |text: &str, version| {
            SamplingReply::from_json(text, version).map_err(|e| e.to_string())
        };
        self.ask::<CreateMessage, _>(params, read).await
    }

    /// Asks the client for its roots (`roots/list`), as [`elicit`](Self::elicit) asks: by
    /// request up to 2025-11-25, through an input-required result under 2026-07-28.
    ///
    /// Fails with [`ClientError::NotDeclared`] when the client did not declare `roots`.
    pub async fn list_roots(&self) -> Result<Vec<crate::Root>, ClientError> {
        self.can_ask("roots/list", "roots")?;
        let read = |text: &str, _| {
            serde_json::from_str::<crate::roots::RootsReply>(text).map_err(|e| e.to_string())
        };
        let reply = self
            .ask::<crate::roots::ListRoots, _>(Value::Object(Map::new()), read)
            .await?;
        Ok(reply.roots)
    }

    /// Closes the client's connection of this call's SSE stream early, the stream staying
    /// resumable: what the handler sent before is delivered first; what it sends from now on, and its result, reach the client when
    /// it reconnects with `Last-Event-ID` (MCP 2025-11-25 SSE polling; Streamable HTTP
    /// sessions with an event store, see `mcpwire::http::HttpConfig::event_store`). Returns
    /// whether the transport could; otherwise nothing happens.
    pub async fn close_sse_stream(&self) -> bool {
        self.request.close_sse_stream().await
    }

    /// The runtime's context of this call, for what this type does not wrap: its
    /// [`CallContext`](mcpwire::CallContext) (id, method, the profile it was decoded under,
    /// the transport's attachment) and the session's live parts.
    pub fn request(&self) -> &AsyncCallContext {
        &self.request
    }
}

/// A fresh random id (128 bits, hex): the `elicitationId` of a 2025-11-25 URL elicitation.
fn random_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(crate::hex::encode(&bytes))
}

/// The client's answer to an elicitation, read as the version's `ElicitResult`.
fn read_answer(text: &str, version: Version) -> Result<ElicitAnswer, String> {
    ElicitAnswer::from_json(text, version).map_err(|e| e.to_string())
}

/// Reads a client's `ElicitResult` with its `_meta`.
fn read_reply(text: &str, version: Version) -> Result<ElicitReply, String> {
    ElicitReply::from_json(text, version).map_err(|e| e.to_string())
}
