//! The server: what it offers (shared by every connection), built once, changed at runtime
//! through the same value, and served over any transport.

use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};

use mcpwire::Profile;
use mcpwire::Router;
use mcpwire::service::{self, Options, PeerHandle, Session};
use serde_json::{Value, json};

use crate::catalog::Catalog;
use crate::events::{EventSource, InProcessEvents};
use crate::prompt::Prompt;
use crate::request_state::StateKey;
use crate::resource::Resource;
use crate::resource_template::ResourceTemplate;
use crate::session::SessionState;
use crate::shared::{Offers, ServerInfo, Shared};
use crate::tasks::{TaskLimits, TaskStore, TaskSupport};
use crate::tool::Tool;
use mcpwire_model::schema::SchemaError;
use mcpwire_model::{Change, ListKind};

/// The default number of items per page of `tools/list`, `resources/list`, `prompts/list`.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How long a list_changed notification may wait for room in a session's stream.
const LIST_CHANGED_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Why the server could not be built, or an item not added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A type's schema does not fit MCP (e.g. tool arguments that are not an object).
    Schema {
        /// The tool or prompt.
        item: String,
        /// What is wrong.
        error: SchemaError,
    },
    /// Two items of the same kind with the same name (or URI, or URI template).
    Duplicate {
        /// The name or URI.
        name: String,
    },
    /// A completer for an argument (or template variable) the prompt (or template) does not
    /// have.
    Completion {
        /// The prompt's name or the template.
        item: String,
        /// The argument.
        argument: String,
    },
    /// A resource template that is not an RFC 6570 level-1 template.
    UriTemplate {
        /// The template.
        template: String,
        /// What is wrong.
        reason: String,
    },
    /// The operating system offered no random bytes for the key that seals 2026-07-28's
    /// `requestState`, and no [`McpServerBuilder::request_state_secret`] was given.
    NoRandomness(String),
    /// A tool marks a parameter `x-mcp-header` against the rule clients hold (MCP
    /// 2026-07-28, `mcpwire::http::param_headers`: a non-empty token, unique ignoring case,
    /// on a string, integer or boolean): clients would leave the tool out of their listings.
    ParamHeader {
        /// The tool.
        tool: String,
        /// Which declaration breaks the rule, and how.
        reason: String,
    },
    /// The event source is shared by several processes
    /// ([`EventSource::spans_processes`]) but no
    /// [`McpServerBuilder::request_state_secret`] was given: each process would seal
    /// `requestState` with a key of its own, which the others refuse.
    ClusterWithoutStateSecret,
    /// The [`McpServerBuilder::request_state_secret`] has fewer than
    /// [`MIN_STATE_SECRET`](crate::MIN_STATE_SECRET) bytes: too short to key HMAC-SHA256.
    ShortStateSecret {
        /// Its length in bytes.
        bytes: usize,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Schema { item, error } => write!(f, "`{item}`: {error}"),
            BuildError::Duplicate { name } => write!(f, "`{name}` is registered twice"),
            BuildError::ParamHeader { tool, reason } => write!(f, "`{tool}`: {reason}"),
            BuildError::UriTemplate { template, reason } => write!(f, "`{template}`: {reason}"),
            BuildError::Completion { item, argument } => {
                write!(f, "`{item}` has no argument `{argument}` to complete")
            }
            BuildError::ClusterWithoutStateSecret => f.write_str(
                "the event source is shared by several processes, so they must seal requestState with one secret: set request_state_secret (e.g. from MCPWIRE_STATE_SECRET)",
            ),
            BuildError::ShortStateSecret { bytes } => write!(
                f,
                "the requestState secret has {bytes} bytes; give at least {} (e.g. `openssl rand -hex 32`)",
                crate::MIN_STATE_SECRET
            ),
            BuildError::NoRandomness(why) => write!(
                f,
                "no random source for the requestState key ({why}): set request_state_secret"
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// An MCP server: its tools, resources and prompts, and how to serve them. Cheap to clone;
/// every clone (and every session) shares the same items.
///
/// Build one with [`McpServer::builder`]; serve it with [`serve_stdio`](Self::serve_stdio)
/// or [`serve`](Self::serve), or make one [`session`](Self::session) per connection for
/// another transport.
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    /// The live sessions, told when a list changes.
    sessions: Arc<Mutex<Vec<Weak<SessionState>>>>,
    /// The profile every session starts under ([`McpServerBuilder::profile`]).
    profile: Profile,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.shared.info.name)
            .field("version", &self.shared.info.version)
            .finish_non_exhaustive()
    }
}

/// An [`McpServer`] behind mcpwire's Streamable HTTP transport (see
/// [`McpServer::http_server`]): one [`session`](McpServer::session) per HTTP session, or per
/// POST in stateless mode, where the session also sees the POST's `Mcp-Param-*` headers.
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub struct McpHttpService {
    server: McpServer,
    /// The versions served per request: those without a handshake when sessions start
    /// under one of them (the builder's profile), else none.
    stateless_versions: Vec<&'static str>,
}

#[cfg(feature = "http")]
impl mcpwire::http::HttpService for McpHttpService {
    type Handler = mcpwire::http::AsyncSession<SessionState>;

    fn open(&self, opening: mcpwire::http::SessionOpening) -> Self::Handler {
        // A POST served statelessly never agrees a version, so no list change is ever sent
        // to it: it is left out of the sessions told.
        let session = if opening.request_headers().is_some() {
            self.server.unlisted_session(Options::default())
        } else {
            self.server.session()
        };
        match task_owner(&opening) {
            Some(owner) => session.state().set_task_owner(owner),
            None => session.state().set_task_owner_address(opening.peer().ip()),
        }
        if let Some(headers) = opening.request_headers() {
            session
                .state()
                .set_param_headers(crate::param_headers::ParamHeaders::of(headers));
        }
        #[cfg(feature = "auth")]
        if let Some(caller) = opening.caller()
            && let Ok(identity) = Arc::clone(&caller.details).downcast::<crate::auth::Identity>()
        {
            session.state().set_identity(identity);
        }
        mcpwire::http::AsyncServer::new(move || session.clone()).open(opening)
    }

    fn unsolicited_messages(&self) -> bool {
        true
    }

    fn stateless_versions(&self) -> &[&str] {
        &self.stateless_versions
    }
}

/// Who owns the tasks created through an HTTP session or POST: the subject a
/// [`Guard`](mcpwire::http::Guard) identified, else the session; `None` (stateless, no guard)
/// for the client's address, named only when a task is created.
#[cfg(feature = "http")]
fn task_owner(opening: &mcpwire::http::SessionOpening) -> Option<String> {
    match (opening.caller(), opening.session_id()) {
        (Some(caller), _) => Some(format!("subject:{}", caller.subject)),
        (None, Some(id)) => Some(format!("session:{id}")),
        (None, None) => None,
    }
}

/// Builds an [`McpServer`] (see the [crate docs](crate)).
#[derive(Debug)]
pub struct McpServerBuilder {
    info: ServerInfo,
    page_size: usize,
    tools: Vec<Tool>,
    resources: Vec<Resource>,
    resource_templates: Vec<ResourceTemplate>,
    prompts: Vec<Prompt>,
    /// The key from [`request_state_secret`](Self::request_state_secret), or the length of a
    /// secret too short for one.
    state_key: Option<Result<StateKey, usize>>,
    profile: Profile,
    events: Option<Arc<dyn EventSource>>,
    task_limits: TaskLimits,
    shared_tasks: Option<Arc<dyn crate::tasks::shared::SharedTasks>>,
}

impl McpServer {
    /// Starts building a server that calls itself `name`, version `version`.
    pub fn builder(name: impl Into<String>, version: impl Into<String>) -> McpServerBuilder {
        McpServerBuilder {
            info: ServerInfo {
                name: name.into(),
                version: version.into(),
                instructions: None,
            },
            page_size: DEFAULT_PAGE_SIZE,
            tools: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            prompts: Vec::new(),
            state_key: None,
            profile: Profile::latest_mcp(),
            events: None,
            task_limits: TaskLimits::default(),
            shared_tasks: None,
        }
    }

    /// One conversation with one client, independent of the transport: feed it frames with
    /// [`Session::receive`] and the sink their output goes to (see the
    /// [`mcpwire::service`] docs). It starts under the builder's [`profile`](McpServerBuilder::profile) (by default the newest MCP version), answers
    /// `initialize` by switching to the version agreed, and serves 2026-07-28 requests
    /// statelessly.
    pub fn session(&self) -> Session<SessionState> {
        self.session_with(Options::default())
    }

    /// [`session`](Self::session) with explicit options (concurrency limit, request timeout).
    pub fn session_with(&self, options: Options) -> Session<SessionState> {
        let session = self.unlisted_session(options);
        session.state().attach(session.handle());
        let mut sessions = self.lock_sessions();
        sessions.retain(|s| s.strong_count() > 0);
        sessions.push(Arc::downgrade(session.state()));
        session
    }

    /// A session that list changes never reach (see [`notify_sessions`](Self::notify_sessions)),
    /// and without the handle that would reach its client outside a call: what a POST
    /// served statelessly gets, which agrees no version in `initialize`, so nothing could
    /// be sent to it. [`session_with`](Self::session_with) adds both.
    fn unlisted_session(&self, options: Options) -> Session<SessionState> {
        let state = Arc::new(SessionState::new(Arc::clone(&self.shared)));
        let router = Router::new()
            .fallback_async_decoding(crate::dispatch::handle)
            .fallback_reads_progress_token();
        Session::with_options(self.profile.clone(), state, router, options)
    }

    /// What every session shares (for the crate's tests).
    #[cfg(test)]
    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Serves one client over stdin/stdout until stdin ends.
    pub async fn serve_stdio(&self) -> std::io::Result<()> {
        service::serve_stdio(&self.session()).await
    }

    /// The Streamable HTTP transport for this server, bound as `config` says (loopback,
    /// `/mcp`, Origin and Host checks and the other defaults of
    /// [`HttpConfig`](mcpwire::http::HttpConfig)). Each HTTP session gets its own
    /// [`session`](Self::session); with [`HttpConfig::stateless`](mcpwire::http::HttpConfig::stateless)
    /// every POST does, which is how MCP 2026-07-28 clients talk (`server/discover`, the
    /// version in `_meta`; tool parameters marked `x-mcp-header` are checked against their
    /// `Mcp-Param-*` headers). Run it with [`HttpServer::run`](mcpwire::http::HttpServer::run).
    ///
    /// ```no_run
    /// # async fn demo(server: mcpwire_server::McpServer) -> std::io::Result<()> {
    /// let http = server.http_server(mcpwire::http::HttpConfig::default())?;
    /// eprintln!("listening on {}", http.url());
    /// http.run().await
    /// # }
    /// ```
    #[cfg(feature = "http")]
    pub fn http_server(
        &self,
        config: mcpwire::http::HttpConfig,
    ) -> std::io::Result<mcpwire::http::HttpServer<McpHttpService>> {
        mcpwire::http::HttpServer::bind(config, self.http_service())
    }

    /// This server as an [`HttpService`](mcpwire::http::HttpService), for a
    /// [`HttpServer`](mcpwire::http::HttpServer) built by hand (what
    /// [`http_server`](Self::http_server) binds).
    #[cfg(feature = "http")]
    pub fn http_service(&self) -> McpHttpService {
        // A session answers per-request versions only when it starts under one; under an
        // older profile it waits for `initialize`.
        let starts_stateless = self
            .profile
            .protocol_version()
            .and_then(mcpwire_model::version::Version::parse)
            .is_some_and(mcpwire_model::version::Version::is_stateless);
        let stateless_versions = if starts_stateless {
            mcpwire_model::version::Version::ALL
                .into_iter()
                .rev()
                .filter(|v| v.is_stateless())
                .map(mcpwire_model::version::Version::as_str)
                .collect()
        } else {
            Vec::new()
        };
        McpHttpService {
            server: self.clone(),
            stateless_versions,
        }
    }

    /// Serves one client over a byte stream (one JSON-RPC message per line) until the input
    /// ends.
    pub async fn serve<R, W>(&self, input: R, output: W) -> std::io::Result<()>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        service::serve(&self.session(), input, output).await
    }

    /// Adds (or replaces) a tool while serving; every initialized session gets
    /// `notifications/tools/list_changed` (sent on a task of the current tokio runtime). Only when the server was built with tools.
    pub async fn add_tool(&self, tool: Tool) -> Result<(), BuildError> {
        tool_ok(&tool)?;
        let name = tool.name().to_owned();
        self.put(&self.shared.tools, name, tool, ListKind::Tools)
            .await;
        Ok(())
    }

    /// Removes a tool while serving; returns whether it was there (and the sessions were
    /// told).
    pub async fn remove_tool(&self, name: &str) -> bool {
        self.take(&self.shared.tools, name, ListKind::Tools).await
    }

    /// Adds (or replaces) a resource while serving (`notifications/resources/list_changed`).
    pub async fn add_resource(&self, resource: Resource) {
        let uri = resource.uri().to_owned();
        self.put(&self.shared.resources, uri, resource, ListKind::Resources)
            .await;
    }

    /// Removes a resource while serving; returns whether it was there.
    pub async fn remove_resource(&self, uri: &str) -> bool {
        self.take(&self.shared.resources, uri, ListKind::Resources)
            .await
    }

    /// Adds (or replaces) a resource template while serving
    /// (`notifications/resources/list_changed`); fails when it is not a level-1 template.
    pub async fn add_resource_template(
        &self,
        template: ResourceTemplate,
    ) -> Result<(), BuildError> {
        template_ok(&template)?;
        let key = template.uri_template().to_owned();
        self.put(
            &self.shared.resource_templates,
            key,
            template,
            ListKind::Resources,
        )
        .await;
        Ok(())
    }

    /// Removes a resource template (by its URI template) while serving; returns whether it
    /// was there.
    pub async fn remove_resource_template(&self, uri_template: &str) -> bool {
        self.take(
            &self.shared.resource_templates,
            uri_template,
            ListKind::Resources,
        )
        .await
    }

    /// Adds (or replaces) a prompt while serving (`notifications/prompts/list_changed`).
    pub async fn add_prompt(&self, prompt: Prompt) -> Result<(), BuildError> {
        prompt_ok(&prompt)?;
        let name = prompt.name().to_owned();
        self.put(&self.shared.prompts, name, prompt, ListKind::Prompts)
            .await;
        Ok(())
    }

    /// Removes a prompt while serving; returns whether it was there.
    pub async fn remove_prompt(&self, name: &str) -> bool {
        self.take(&self.shared.prompts, name, ListKind::Prompts)
            .await
    }

    /// Puts `item` under `key` in `catalog` (replacing what was there) and tells every
    /// initialized session that list `kind` changed.
    async fn put<T>(&self, catalog: &RwLock<Catalog<T>>, key: String, item: T, kind: ListKind) {
        write(catalog).insert(key, item);
        self.list_changed(kind).await;
    }

    /// Takes `key` out of `catalog`; when it was there, tells every initialized session that
    /// list `kind` changed. Returns whether it was there.
    async fn take<T>(&self, catalog: &RwLock<Catalog<T>>, key: &str, kind: ListKind) -> bool {
        let removed = write(catalog).remove(key);
        if removed {
            self.list_changed(kind).await;
        }
        removed
    }

    fn lock_sessions(&self) -> std::sync::MutexGuard<'_, Vec<Weak<SessionState>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells every session that agreed a version in `initialize` (the capability says
    /// `listChanged: true` to them) that a list changed.
    async fn list_changed(&self, kind: ListKind) {
        self.shared.events.publish(Change::ListChanged(kind));
        self.notify_sessions(kind.method(), Value::Null, |_| true);
    }

    /// Sends `notifications/resources/updated` for `uri` to every session subscribed to it
    /// (`resources/subscribe`, 2024-11-05 to 2025-11-25), and publishes it to the
    /// `subscriptions/listen` streams (2026-07-28) whose filter names it; returns how many
    /// sessions were told (listen streams not counted). Call it when the contents of a
    /// resource change.
    ///
    /// ```no_run
    /// # async fn demo(server: mcpwire_server::McpServer) {
    /// // ... the file behind `file:///log.txt` grew ...
    /// server.notify_resource_updated("file:///log.txt");
    /// # }
    /// ```
    pub fn notify_resource_updated(&self, uri: &str) -> usize {
        let change = Change::ResourceUpdated {
            uri: uri.to_owned(),
        };
        let method = change.method();
        self.shared.events.publish(change);
        self.notify_sessions(method, json!({ "uri": uri }), |session| {
            session.is_subscribed(uri)
        })
    }

    /// Sends `method` with `params` to every initialized session `to` picks, each on a task
    /// of the current tokio runtime; returns how many.
    fn notify_sessions(
        &self,
        method: &str,
        params: Value,
        to: impl Fn(&SessionState) -> bool,
    ) -> usize {
        let handles: Vec<PeerHandle> = {
            let mut sessions = self.lock_sessions();
            sessions.retain(|s| s.strong_count() > 0);
            sessions
                .iter()
                .filter_map(Weak::upgrade)
                .filter(|s| to(s))
                .filter_map(|s| s.notifiable())
                .collect()
        };
        let told = handles.len();
        for handle in handles {
            // Each session is told on its own task, bounded in time: a session whose
            // transport no longer drains its stream (gone, or no GET stream over HTTP) cannot
            // hold up the change or the other sessions.
            let method = method.to_owned();
            let params = params.clone();
            tokio::spawn(async move {
                let notify = async {
                    if params.is_null() {
                        handle.notify_raw(&method, &()).await
                    } else {
                        handle.notify_raw(&method, &params).await
                    }
                };
                let _ = tokio::time::timeout(LIST_CHANGED_TIMEOUT, notify).await;
            });
        }
        told
    }
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

fn template_ok(template: &ResourceTemplate) -> Result<(), BuildError> {
    if let Some(reason) = template.template_error() {
        return Err(BuildError::UriTemplate {
            template: template.uri_template().to_owned(),
            reason: reason.to_owned(),
        });
    }
    completions_ok(template.uri_template(), template.unknown_completion())
}

/// A tool's schemas fit MCP, and (served over HTTP) its `x-mcp-header` declarations keep
/// the rule clients hold.
fn tool_ok(tool: &Tool) -> Result<(), BuildError> {
    schema_ok(tool.name(), tool.schema_error())?;
    #[cfg(feature = "http")]
    if let Ok(schema) = tool.input_schema()
        && let Err(error) = mcpwire::http::param_headers(schema)
    {
        return Err(BuildError::ParamHeader {
            tool: tool.name().to_owned(),
            reason: error.to_string(),
        });
    }
    Ok(())
}

fn prompt_ok(prompt: &Prompt) -> Result<(), BuildError> {
    schema_ok(prompt.name(), prompt.schema_error())?;
    completions_ok(prompt.name(), prompt.unknown_completion())
}

fn completions_ok(item: &str, unknown: Option<&str>) -> Result<(), BuildError> {
    match unknown {
        None => Ok(()),
        Some(argument) => Err(BuildError::Completion {
            item: item.to_owned(),
            argument: argument.to_owned(),
        }),
    }
}

fn schema_ok(item: &str, error: Option<&SchemaError>) -> Result<(), BuildError> {
    match error {
        None => Ok(()),
        Some(error) => Err(BuildError::Schema {
            item: item.to_owned(),
            error: error.clone(),
        }),
    }
}

impl McpServerBuilder {
    /// Adds a tool whose arguments decode as `A` (see [`Tool::new`]).
    pub fn tool<A, R, F, Fut>(
        self,
        name: impl Into<String>,
        description: impl Into<String>,
        handler: F,
    ) -> Self
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + Send + 'static,
        R: crate::IntoToolResult + 'static,
        F: Fn(A, crate::Context) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = R> + Send + 'static,
    {
        self.add_tool(Tool::new(name, description, handler))
    }

    /// Adds a tool built with [`Tool::new`] (to set its title).
    pub fn add_tool(mut self, tool: Tool) -> Self {
        self.tools.push(tool);
        self
    }

    /// Adds a resource.
    pub fn resource(mut self, resource: Resource) -> Self {
        self.resources.push(resource);
        self
    }

    /// Adds a resource template (see [`ResourceTemplate::new`]).
    pub fn resource_template(mut self, template: ResourceTemplate) -> Self {
        self.resource_templates.push(template);
        self
    }

    /// Adds a prompt.
    pub fn prompt(mut self, prompt: Prompt) -> Self {
        self.prompts.push(prompt);
        self
    }

    /// Sets the `instructions` sent to the client.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.info.instructions = Some(instructions.into());
        self
    }

    /// Sets how many items a page of a list holds (default [`DEFAULT_PAGE_SIZE`], at
    /// least 1).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// Sets the profile every session starts under (default: [`Profile::latest_mcp`] with the
    /// default limits): an MCP version, and the limits and id policy the sessions keep when
    /// `initialize` switches them to the version agreed. A profile without a protocol version
    /// (`jsonrpc-2.0`) leaves no MCP method to serve: every request is -32601.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Sets the secret that seals the `requestState` of MCP 2026-07-28 input-required results
    /// (what [`Context::elicit`](crate::Context::elicit) and
    /// [`Context::sample`](crate::Context::sample) answer with under that version). Without
    /// it each server draws a random key, so a state is only good at the process that issued
    /// it: give every process behind one endpoint the same secret, at least
    /// [`MIN_STATE_SECRET`](crate::MIN_STATE_SECRET) (32) random bytes; a shorter one makes
    /// [`build`](Self::build) fail with [`BuildError::ShortStateSecret`].
    pub fn request_state_secret(mut self, secret: impl AsRef<[u8]>) -> Self {
        self.state_key = Some(StateKey::from_secret_checked(secret.as_ref()));
        self
    }

    /// Sets where changes travel to the `subscriptions/listen` streams of MCP 2026-07-28
    /// (default: an [`InProcessEvents`] of [`InProcessEvents::DEFAULT_CAPACITY`], reaching the
    /// streams of this process). Give every process behind one endpoint a source they share
    /// (a message bus) so that a change made at one reaches the listeners of all.
    pub fn event_source(mut self, events: impl EventSource) -> Self {
        self.events = Some(Arc::new(events));
        self
    }

    /// Sets the bounds of the task store and the timing it announces (the Tasks extension of
    /// 2026-07-28; see [`TaskLimits`] for the defaults). Used only when some tool may run as
    /// a task ([`Tool::tasks`]).
    pub fn task_limits(mut self, limits: TaskLimits) -> Self {
        self.task_limits = limits;
        self
    }

    /// Keeps tasks in Redis as well as in this process (default: in this process only), so
    /// that a task created at one process behind the endpoint is read, cancelled and answered
    /// at any other ([`RedisCluster::tasks`](crate::redis::RedisCluster::tasks); see
    /// `docs/tasks.md`). Every process must be given the same [`TaskLimits`].
    #[cfg(feature = "redis")]
    pub fn shared_tasks(mut self, tasks: crate::redis::RedisTasks) -> Self {
        self.shared_tasks = Some(Arc::new(tasks));
        self
    }

    /// The server; fails when a schema does not fit MCP or a name is registered twice.
    pub fn build(self) -> Result<McpServer, BuildError> {
        let offers = Offers {
            tools: !self.tools.is_empty(),
            resources: !self.resources.is_empty() || !self.resource_templates.is_empty(),
            prompts: !self.prompts.is_empty(),
            completions: self.prompts.iter().any(|p| !p.completers().is_empty())
                || self
                    .resource_templates
                    .iter()
                    .any(|t| !t.completers().is_empty()),
            tasks: self
                .tools
                .iter()
                .any(|t| t.task_support() != TaskSupport::Forbidden),
        };
        let mut tools = Catalog::default();
        for tool in self.tools {
            tool_ok(&tool)?;
            let name = tool.name().to_owned();
            if tools.insert(name.clone(), tool) {
                return Err(BuildError::Duplicate { name });
            }
        }
        let mut resources = Catalog::default();
        for resource in self.resources {
            let uri = resource.uri().to_owned();
            if resources.insert(uri.clone(), resource) {
                return Err(BuildError::Duplicate { name: uri });
            }
        }
        let mut resource_templates = Catalog::default();
        for template in self.resource_templates {
            template_ok(&template)?;
            let key = template.uri_template().to_owned();
            if resource_templates.insert(key.clone(), template) {
                return Err(BuildError::Duplicate { name: key });
            }
        }
        let mut prompts = Catalog::default();
        for prompt in self.prompts {
            prompt_ok(&prompt)?;
            let name = prompt.name().to_owned();
            if prompts.insert(name.clone(), prompt) {
                return Err(BuildError::Duplicate { name });
            }
        }
        let shared_events = self.events.as_ref().is_some_and(|e| e.spans_processes());
        let state_key = match self.state_key {
            Some(Ok(key)) => key,
            Some(Err(bytes)) => return Err(BuildError::ShortStateSecret { bytes }),
            None if shared_events => return Err(BuildError::ClusterWithoutStateSecret),
            None => StateKey::random().map_err(|e| BuildError::NoRandomness(e.to_string()))?,
        };
        Ok(McpServer {
            shared: Arc::new(Shared {
                info: self.info,
                page_size: self.page_size,
                offers,
                tools: RwLock::new(tools),
                resources: RwLock::new(resources),
                resource_templates: RwLock::new(resource_templates),
                prompts: RwLock::new(prompts),
                state_key,
                events: self
                    .events
                    .unwrap_or_else(|| Arc::new(InProcessEvents::default())),
                tasks: TaskStore::new(self.task_limits, self.shared_tasks),
            }),
            sessions: Arc::new(Mutex::new(Vec::new())),
            profile: self.profile,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, ToolResult};

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Args {
        #[allow(dead_code)]
        x: i64,
    }

    async fn tool(_: Args, _: Context) -> ToolResult {
        ToolResult::text("ok")
    }

    /// A source that says it is shared by several processes.
    #[derive(Debug, Default)]
    struct Bus(InProcessEvents);

    impl EventSource for Bus {
        fn publish(&self, event: Change) {
            self.0.publish(event);
        }

        fn subscribe(&self) -> crate::EventReceiver {
            self.0.subscribe()
        }

        fn spans_processes(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_shared_event_source_needs_a_request_state_secret() {
        let refused = McpServer::builder("s", "1")
            .event_source(Bus::default())
            .build()
            .unwrap_err();
        assert_eq!(refused, BuildError::ClusterWithoutStateSecret);
        assert!(refused.to_string().contains("request_state_secret"));
        let built = McpServer::builder("s", "1")
            .event_source(Bus::default())
            .request_state_secret("shared by every process of the cluster")
            .build();
        assert!(built.is_ok());
    }

    #[test]
    fn a_request_state_secret_shorter_than_32_bytes_is_refused() {
        let refused = McpServer::builder("s", "1")
            .request_state_secret("31 bytes, one short of the 32..")
            .build()
            .unwrap_err();
        assert_eq!(refused, BuildError::ShortStateSecret { bytes: 31 });
        assert!(
            refused
                .to_string()
                .contains("has 31 bytes; give at least 32")
        );
        let built = McpServer::builder("s", "1")
            .request_state_secret("32 bytes, just enough for a key.")
            .build();
        assert!(built.is_ok());
    }

    #[test]
    fn build_refuses_duplicates_and_arguments_that_are_not_objects() {
        let twice = McpServer::builder("s", "1")
            .tool("t", "first", tool)
            .tool("t", "second", tool)
            .build()
            .unwrap_err();
        assert_eq!(twice, BuildError::Duplicate { name: "t".into() });
        let scalar = McpServer::builder("s", "1")
            .tool("n", "takes a number", |_: i64, _: Context| async {
                ToolResult::text("")
            })
            .build()
            .unwrap_err();
        assert!(matches!(&scalar, BuildError::Schema { item, .. } if item == "n"));
        #[cfg(feature = "http")]
        {
            #[derive(serde::Deserialize, schemars::JsonSchema)]
            #[allow(dead_code)]
            struct Scored {
                #[schemars(extend("x-mcp-header" = "Score"))]
                score: f64,
            }
            let mirrored = McpServer::builder("s", "1")
                .tool(
                    "scored",
                    "mirrors a number",
                    |_: Scored, _: Context| async { ToolResult::text("") },
                )
                .build()
                .unwrap_err();
            assert!(
                matches!(&mirrored, BuildError::ParamHeader { tool, .. } if tool == "scored"),
                "{mirrored}"
            );
            assert!(mirrored.to_string().contains("`score`"), "{mirrored}");
        }
        assert_eq!(
            scalar.to_string(),
            "`n`: int64: MCP needs a JSON object here, but its schema has type \"integer\""
        );
    }
}
