//! What one conversation remembers: the version agreed in `initialize`, the client's
//! capabilities, the log level it asked for, the resources it subscribed to.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use mcpwire::service::PeerHandle;
use serde_json::{Map, Value};

use crate::param_headers::ParamHeaders;
use crate::shared::Shared;
use mcpwire_model::logging::LogLevel;
use mcpwire_model::version::Version;

/// The state of one session of an [`McpServer`](crate::McpServer) (the `S` of its
/// [`Session`](mcpwire::service::Session)); opaque.
pub struct SessionState {
    pub(crate) shared: Arc<Shared>,
    handle: OnceLock<PeerHandle>,
    agreed: Mutex<Option<Agreed>>,
    log_level: Mutex<Option<LogLevel>>,
    /// The URIs of `resources/subscribe`.
    subscriptions: Mutex<BTreeSet<String>>,
    /// The `Mcp-Param-*` headers of the HTTP request this (stateless) session serves; unset
    /// when the session does not serve one HTTP request.
    param_headers: OnceLock<ParamHeaders>,
    /// Who owns the tasks this session's requests create (see [`task_owner`](Self::task_owner)).
    task_owner: OnceLock<String>,
    /// The client's address, when it names the owner of the tasks (stateless HTTP without a
    /// guard): written into [`task_owner`](Self::task_owner) only if a task is ever created.
    owner_address: OnceLock<std::net::IpAddr>,
    /// The caller whose access token opened this session (feature `auth`).
    #[cfg(feature = "auth")]
    identity: OnceLock<Arc<crate::auth::Identity>>,
}

impl std::fmt::Debug for SessionState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionState")
            .field("agreed", &self.agreed().map(|a| a.version))
            .finish_non_exhaustive()
    }
}

/// What `initialize` agreed.
#[derive(Debug, Clone)]
pub(crate) struct Agreed {
    pub(crate) version: Version,
    pub(crate) client_capabilities: Map<String, Value>,
}

impl SessionState {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        Self {
            shared,
            handle: OnceLock::new(),
            agreed: Mutex::new(None),
            log_level: Mutex::new(None),
            subscriptions: Mutex::new(BTreeSet::new()),
            param_headers: OnceLock::new(),
            task_owner: OnceLock::new(),
            owner_address: OnceLock::new(),
            #[cfg(feature = "auth")]
            identity: OnceLock::new(),
        }
    }

    /// Remembers the caller whose token opened this session.
    #[cfg(feature = "auth")]
    pub(crate) fn set_identity(&self, identity: Arc<crate::auth::Identity>) {
        let _ = self.identity.set(identity);
    }

    /// The caller whose token opened this session, when it is protected.
    #[cfg(feature = "auth")]
    pub(crate) fn identity(&self) -> Option<Arc<crate::auth::Identity>> {
        self.identity.get().cloned()
    }

    /// Remembers the `Mcp-Param-*` headers of the one HTTP request this session serves.
    #[cfg(feature = "http")]
    pub(crate) fn set_param_headers(&self, headers: ParamHeaders) {
        let _ = self.param_headers.set(headers);
    }

    /// The `Mcp-Param-*` headers of the HTTP request this session serves, if it serves one.
    pub(crate) fn param_headers(&self) -> Option<&ParamHeaders> {
        self.param_headers.get()
    }

    /// Names who owns the tasks this session creates, for a transport that knows: the
    /// authenticated subject, the HTTP session, or the client's address (stateless HTTP).
    #[cfg(feature = "http")]
    pub(crate) fn set_task_owner(&self, owner: String) {
        let _ = self.task_owner.set(owner);
    }

    /// Names the client at `address` the owner of the tasks this session creates (stateless
    /// HTTP without a guard), unless [`set_task_owner`](Self::set_task_owner) named one.
    #[cfg(feature = "http")]
    pub(crate) fn set_task_owner_address(&self, address: std::net::IpAddr) {
        let _ = self.owner_address.set(address);
    }

    /// Who owns the tasks this session creates: as the transport named it, else this
    /// session alone (stdio, a transport that said nothing).
    pub(crate) fn task_owner(&self) -> &str {
        self.task_owner.get_or_init(|| {
            if let Some(address) = self.owner_address.get() {
                return format!("address:{address}");
            }
            let mut bytes = [0u8; 16];
            // Without randomness the address of this state still tells sessions apart.
            if getrandom::fill(&mut bytes).is_err() {
                return format!("session:{:p}", self as *const Self);
            }
            format!("session:{}", crate::hex::encode(&bytes))
        })
    }

    /// Remembers the handle that reaches the client outside any call.
    pub(crate) fn attach(&self, handle: PeerHandle) {
        let _ = self.handle.set(handle);
    }

    /// The handle for list_changed notifications, once a version with them was agreed.
    pub(crate) fn notifiable(&self) -> Option<PeerHandle> {
        self.agreed()?;
        self.handle.get().cloned()
    }

    pub(crate) fn agreed(&self) -> Option<Agreed> {
        self.agreed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn agree(&self, agreed: Agreed) {
        *self.agreed.lock().unwrap_or_else(PoisonError::into_inner) = Some(agreed);
    }

    pub(crate) fn log_level(&self) -> Option<LogLevel> {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn set_log_level(&self, level: LogLevel) {
        *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(level);
    }

    /// Subscribes to (or, with `false`, unsubscribes from) updates of `uri`.
    pub(crate) fn subscribe(&self, uri: String, subscribed: bool) {
        let mut subscriptions = self
            .subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if subscribed {
            subscriptions.insert(uri);
        } else {
            subscriptions.remove(&uri);
        }
    }

    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        self.subscriptions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(uri)
    }
}
