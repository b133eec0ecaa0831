//! The client handle ([`Client`]) and how one is built and connected ([`ClientBuilder`]).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use mcpwire::Profile;
use mcpwire::peer::{DEFAULT_MAX_PENDING, Request};
use serde::Serialize;
use serde_json::{Value, json};

use crate::elicit::{FormElicitation, UrlElicitation};
use crate::error::ClientError;
use crate::handlers::{HandlerResult, Handlers, Root, boxed, into_reply};
use crate::known_tools::ToolCache;
use crate::meta;
use crate::negotiate::{Handshake, negotiate};
use crate::notify::{Callbacks, LogMessage};
use crate::options::CallOptions;
use crate::session::{Session, Settings, Target};
use crate::transport::{Transport, incoming_channel};
use crate::versions;
use crate::violation::Violation;
use mcpwire_model::ListKind;
use mcpwire_model::{ElicitReply, SamplingReply, SamplingRequest, Version};

/// The default timeout of a call (as the TypeScript SDK's): 60 s.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The notification that roots changed.
const ROOTS_CHANGED: &str = "notifications/roots/list_changed";

/// How many requests of the server are answered at once by default; more are refused with
/// an error.
pub const DEFAULT_MAX_SERVING: usize = 16;

/// Builds a [`Client`]: who it is, which version it asks for, what it answers, where
/// notifications go. Registering a handler declares its capability.
#[must_use]
pub struct ClientBuilder {
    name: String,
    version: String,
    protocol_version: Version,
    handlers: Handlers,
    callbacks: Callbacks,
    default_timeout: Option<Duration>,
    max_pending: usize,
    max_serving: usize,
    check_results: bool,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("protocol_version", &self.protocol_version)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// A client named `name` at `version` (its `clientInfo`).
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            protocol_version: versions::DEFAULT_VERSION,
            handlers: Handlers::default(),
            callbacks: Callbacks::default(),
            default_timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            max_pending: DEFAULT_MAX_PENDING,
            max_serving: DEFAULT_MAX_SERVING,
            check_results: true,
        }
    }

    /// The MCP version to ask for (default [`DEFAULT_VERSION`](crate::DEFAULT_VERSION)).
    /// A version with the handshake is asked for with `initialize` and the server may answer
    /// an older one; `2026-07-28` is asked for with `server/discover`, and a server that
    /// does not speak it is then asked with `initialize` for the newest version with the
    /// handshake.
    pub fn protocol_version(mut self, version: Version) -> Self {
        self.protocol_version = version;
        self
    }

    /// The timeout of every call without its own (default [`DEFAULT_REQUEST_TIMEOUT`];
    /// `None`: wait for ever).
    pub fn request_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// How many calls may wait for a response at once (default
    /// [`DEFAULT_MAX_PENDING`](mcpwire::peer::DEFAULT_MAX_PENDING)).
    pub fn max_pending(mut self, max: usize) -> Self {
        self.max_pending = max;
        self
    }

    /// How many requests of the server are answered at once (default
    /// [`DEFAULT_MAX_SERVING`]); more are refused with -32603.
    pub fn max_concurrent_server_requests(mut self, max: usize) -> Self {
        self.max_serving = max.max(1);
        self
    }

    /// Whether what the server sends is also held to the negotiated version's schema
    /// (default `true`): a handshake result (`initialize`, `server/discover`) or a list
    /// result the version's generated type does not decode is a
    /// [`Rule::ResultShape`](crate::Rule::ResultShape) violation naming the JSON pointer
    /// (the result is read from that same decoding: one parse); a notification whose params
    /// do not fit its method is a [`Rule::NotificationShape`](crate::Rule::NotificationShape)
    /// violation and is not delivered; a request of the server whose params do not fit is
    /// answered -32602. Off, those results are decoded in one pass into the client's own
    /// (lenient) types. Tool listings, tool results, prompts, resource contents and
    /// completions are always read through the version's types (that is how they reach the
    /// model).
    pub fn check_results(mut self, check: bool) -> Self {
        self.check_results = check;
        self
    }

    /// Answers `sampling/createMessage` (declares `sampling`). The handler gets the request
    /// read into the model ([`SamplingRequest`], the type a server built on the model sends
    /// it from) and returns a [`SamplingReply`], written as the version's
    /// `CreateMessageResult`. Params the version's schema refuses are answered -32602
    /// without calling the handler.
    pub fn on_sampling<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(SamplingRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<SamplingReply>> + Send + 'static,
    {
        self.handlers.sampling = Some(boxed(handler));
        self
    }

    /// Declares that the sampling handler takes tools (`sampling.tools`, from 2025-11-25):
    /// a server may then offer the model tools (`tools`, `toolChoice`) and expects tool uses
    /// back ([`SamplingReply::tool_use`]). Without it a server must not offer tools.
    pub fn sampling_tools(mut self) -> Self {
        self.handlers.sampling_tools = true;
        self
    }

    /// Declares the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on every
    /// 2026-07-28 request: a server may then answer `tools/call` with a task, which
    /// [`Client::call_tool`] follows to its result and
    /// [`Client::call_tool_as_task`] hands over.
    pub fn tasks(mut self) -> Self {
        self.handlers.tasks = true;
        self
    }

    /// Answers form-mode `elicitation/create` (declares `elicitation`, its `form` mode
    /// where the version has modes). Fields the answer leaves out get the schema's defaults.
    /// The handler returns an [`ElicitAnswer`](mcpwire_model::ElicitAnswer), or an [`ElicitReply`] to send the result's
    /// `_meta` too (2025-06-18 and 2025-11-25).
    pub fn on_elicitation<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(FormElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ElicitReply>,
    {
        self.handlers.form = Some(boxed(into_reply(handler)));
        self
    }

    /// Answers URL-mode `elicitation/create` (declares `elicitation.url`, from
    /// 2025-11-25), with an [`ElicitAnswer`](mcpwire_model::ElicitAnswer) or an [`ElicitReply`].
    pub fn on_url_elicitation<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(UrlElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<R>> + Send + 'static,
        R: Into<ElicitReply>,
    {
        self.handlers.url = Some(boxed(into_reply(handler)));
        self
    }

    /// Answers `roots/list` with what `handler` returns (declares `roots`).
    pub fn on_roots<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = HandlerResult<Vec<Root>>> + Send + 'static,
    {
        self.handlers.roots = Some(boxed(move |()| handler()));
        self
    }

    /// Answers `roots/list` with a fixed list (declares `roots`).
    pub fn roots(self, roots: Vec<Root>) -> Self {
        let roots = Arc::new(roots);
        self.on_roots(move || {
            let roots = Arc::clone(&roots);
            async move { Ok(roots.as_ref().clone()) }
        })
    }

    /// Hands each `notifications/message` to `callback`.
    pub fn on_logging(mut self, callback: impl Fn(LogMessage) + Send + Sync + 'static) -> Self {
        self.callbacks.logging = Some(Arc::new(callback));
        self
    }

    /// Hands each `notifications/*/list_changed` to `callback`.
    pub fn on_list_changed(mut self, callback: impl Fn(ListKind) + Send + Sync + 'static) -> Self {
        self.callbacks.list_changed = Some(Arc::new(callback));
        self
    }

    /// Hands the URI of each `notifications/resources/updated` to `callback`.
    pub fn on_resource_updated(
        mut self,
        callback: impl Fn(String) + Send + Sync + 'static,
    ) -> Self {
        self.callbacks.resource_updated = Some(Arc::new(callback));
        self
    }

    /// Hands every other notification (method and params) to `callback`.
    pub fn on_notification(
        mut self,
        callback: impl Fn(String, Option<Value>) + Send + Sync + 'static,
    ) -> Self {
        self.callbacks.other = Some(Arc::new(move |(method, params)| callback(method, params)));
        self
    }

    /// Hands each wire-rule violation of the server that no call can be failed with (a
    /// frame that is not JSON, a response to an unknown id, a duplicate response) to
    /// `callback`.
    pub fn on_violation(mut self, callback: impl Fn(Violation) + Send + Sync + 'static) -> Self {
        self.callbacks.violation = Some(Arc::new(callback));
        self
    }

    /// Starts `transport`, agrees on a version and returns the connected client. A failed
    /// negotiation closes the connection.
    pub async fn connect(self, transport: impl Transport) -> Result<Client, ClientError> {
        let requested = self.protocol_version;
        let (sender, receiver) = incoming_channel();
        let connection = Box::new(transport).open(sender).await?;
        let profile = Profile::latest_mcp().negotiated(requested.facts());
        let settings = Settings {
            handlers: self.handlers,
            callbacks: self.callbacks,
            client_info: json!({ "name": self.name, "version": self.version }),
            default_timeout: self.default_timeout,
            max_pending: self.max_pending,
            max_serving: self.max_serving,
            check_results: self.check_results,
        };
        let session = Arc::new(Session::new(connection, profile, settings));
        let reader = tokio::spawn(Arc::clone(&session).read(receiver)).abort_handle();
        let inner = Arc::new(Inner {
            session: Arc::clone(&session),
            reader,
            tools: ToolCache::default(),
        });
        match negotiate(&session, requested).await {
            Ok(handshake) => Ok(Client {
                inner,
                handshake: Arc::new(handshake),
            }),
            Err(error) => {
                session.close().await;
                Err(error)
            }
        }
    }
}

/// What every clone of a [`Client`] shares; the last one dropped closes the connection.
struct Inner {
    session: Arc<Session>,
    reader: tokio::task::AbortHandle,
    tools: ToolCache,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.reader.abort();
        self.session.end(crate::TransportError::Closed);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let session = Arc::clone(&self.session);
            runtime.spawn(async move { session.close().await });
        }
    }
}

/// A connected MCP client. Cheap to clone; the connection closes when the last clone is
/// dropped or [`close`](Self::close) is called.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    handshake: Arc<Handshake>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("protocol_version", &self.handshake.protocol_version)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A builder for a client named `name` at `version`.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> ClientBuilder {
        ClientBuilder::new(name, version)
    }

    pub(crate) fn session(&self) -> &Arc<Session> {
        &self.inner.session
    }

    pub(crate) fn tools(&self) -> &ToolCache {
        &self.inner.tools
    }

    /// What the server said when the version was agreed.
    pub fn handshake(&self) -> &Handshake {
        &self.handshake
    }

    /// The version agreed.
    pub fn protocol_version(&self) -> Version {
        self.handshake.protocol_version
    }

    /// Sends any request `R` (an extension method, or one this crate has no typed call
    /// for) and decodes its result as `R::Result`, in one pass. Under a stateless version
    /// `_meta` gets what the version requires.
    pub async fn request<R: Request>(
        &self,
        params: &R::Params,
        options: &CallOptions,
    ) -> Result<R::Result, ClientError> {
        let params = meta::params_object(params).map_err(ClientError::Params)?;
        self.session()
            .call::<R>(params, Target::default(), options)
            .await
    }

    /// Sends a notification.
    pub async fn notify<P: Serialize + ?Sized>(
        &self,
        method: &'static str,
        params: &P,
    ) -> Result<(), ClientError> {
        self.session().notify(method, params).await
    }

    /// Tells the server the roots changed (`notifications/roots/list_changed`), so that it
    /// asks `roots/list` again. Versions without server-to-client requests (2026-07-28)
    /// have no such notification: nothing is sent there.
    pub async fn notify_roots_list_changed(&self) -> Result<(), ClientError> {
        if !versions::has_notification(self.protocol_version(), ROOTS_CHANGED) {
            return Ok(());
        }
        self.notify(ROOTS_CHANGED, &Value::Null).await
    }

    /// Closes the connection (for a child process: its stdin, then its process group).
    /// Every pending call, on every clone, fails with
    /// [`TransportError::Closed`](crate::TransportError::Closed).
    pub async fn close(&self) {
        self.inner.reader.abort();
        self.session().close().await;
    }
}
