//! Method routing with typed params.
//!
//! A [`Router`] maps method names to handlers. Request handlers take typed params
//! (`P: DeserializeOwned`) and return a typed result (`R: Serialize`) or an [`RpcError`];
//! notification handlers return nothing. An optional fallback receives unknown methods
//! with their raw params, and an optional event handler receives response-shaped input.
//!
//! ```
//! use mcpwire::{CallContext, Router, RpcError};
//!
//! #[derive(serde::Deserialize)]
//! struct Add { a: i64, b: i64 }
//!
//! let router = Router::<u64>::new()
//!     .request("add", |calls: &mut u64, p: Add, _ctx: &mut CallContext<'_>| {
//!         *calls += 1;
//!         p.a.checked_add(p.b).ok_or_else(|| RpcError::new(-32000, "overflow"))
//!     })
//!     .notification("log", |_: &mut u64, line: String, _ctx: &mut CallContext<'_>| eprintln!("{line}"));
//! assert!(router.has_request("add") && router.has_notification("log"));
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::events::ProtocolEvent;
use crate::id::Id;
use crate::params::{RawParams, decode_params};
use crate::peer::result_json;
use crate::profile::Profile;
use crate::reply::RpcError;
use crate::routes::Routes;
use mcpwire_types::ProfileFacts;

/// What a handler can see and change about the current call.
pub struct CallContext<'a> {
    profile: &'a Profile,
    id: Option<Id<'a>>,
    method: &'a str,
    switch_to: Option<Profile>,
}

impl<'a> CallContext<'a> {
    pub(crate) fn new(profile: &'a Profile, id: Option<Id<'a>>, method: &'a str) -> Self {
        Self {
            profile,
            id,
            method,
            switch_to: None,
        }
    }

    /// The profile the current frame is decoded under.
    pub fn profile(&self) -> &Profile {
        self.profile
    }

    /// The request id; `None` for a notification.
    pub fn id(&self) -> Option<Id<'a>> {
        self.id
    }

    /// Whether the current call is a notification (no reply will be sent).
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }

    /// The method name.
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// Switches the server to `profile` for the frames after the current one (used by MCP
    /// `initialize` to adopt the negotiated protocol version). The current frame, including
    /// the rest of its batch, is finished under the current profile.
    pub fn set_profile(&mut self, profile: Profile) {
        self.switch_to = Some(profile);
    }

    /// Switches to the protocol `facts` (an MCP version agreed in `initialize`) keeping this
    /// profile's whole policy: limits, id policy, error details, and a missing-id spelling
    /// the user chose over the facts' default (see [`Profile::negotiated`]). Takes effect
    /// like [`set_profile`](Self::set_profile); returns the new profile.
    pub fn negotiate(&mut self, facts: &'static ProfileFacts) -> Profile {
        let profile = self.profile.negotiated(facts);
        self.switch_to = Some(profile.clone());
        profile
    }

    pub(crate) fn take_profile_switch(&mut self) -> Option<Profile> {
        self.switch_to.take()
    }
}

type RequestFn<S> = dyn Fn(&mut S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Result<String, RpcError>
    + Send
    + Sync;
/// Returns the decode error when the params did not decode (the handler did not run).
type NotificationFn<S> =
    dyn Fn(&mut S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Option<RpcError> + Send + Sync;
type FallbackFn<S> = dyn Fn(&mut S, Option<RawParams<'_>>, &mut CallContext<'_>) -> Result<Box<RawValue>, RpcError>
    + Send
    + Sync;
type EventFn<S> = dyn Fn(&mut S, ProtocolEvent) + Send + Sync;

/// Method name → handler, for a server whose state is `S`.
pub struct Router<S> {
    routes: Routes<RequestFn<S>, NotificationFn<S>, FallbackFn<S>, EventFn<S>>,
}

impl<S> Default for Router<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S> std::fmt::Debug for Router<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.routes.fmt_as("Router", f)
    }
}

impl<S> Router<S> {
    /// An empty router: every request is answered -32601.
    pub fn new() -> Self {
        Self {
            routes: Routes::new(),
        }
    }

    /// Registers a request handler. Params are decoded as `P` (invalid → -32602 naming the
    /// failing JSON pointer; absent params decode from `null`, else from `{}`), the
    /// result `R` is serialized into the reply. Replaces an earlier handler of the same name.
    pub fn request<P, R, F>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        R: Serialize,
        F: Fn(&mut S, P, &mut CallContext<'_>) -> Result<R, RpcError> + Send + Sync + 'static,
    {
        let erased =
            move |state: &mut S, params: Option<RawParams<'_>>, ctx: &mut CallContext<'_>| {
                let params: P = decode_params(params, ctx.profile().limits().max_params_depth)?;
                result_json(&handler(state, params, ctx)?)
            };
        self.routes
            .requests
            .insert(method.to_owned(), Box::new(erased));
        self
    }

    /// Registers a notification handler. Params that do not decode as `P` are never
    /// answered (it is a notification); the handler does not run and the event handler
    /// receives [`ProtocolEvent::InvalidNotification`] with the -32602 error naming the
    /// failing JSON pointer.
    pub fn notification<P, F>(mut self, method: &str, handler: F) -> Self
    where
        P: DeserializeOwned,
        F: Fn(&mut S, P, &mut CallContext<'_>) + Send + Sync + 'static,
    {
        let erased =
            move |state: &mut S, params: Option<RawParams<'_>>, ctx: &mut CallContext<'_>| {
                match decode_params::<P>(params, ctx.profile().limits().max_params_depth) {
                    Ok(params) => {
                        handler(state, params, ctx);
                        None
                    }
                    Err(error) => Some(error),
                }
            };
        self.routes
            .notifications
            .insert(method.to_owned(), Box::new(erased));
        self
    }

    /// Registers the handler for methods without a registered handler, for requests and
    /// notifications alike (see [`CallContext::method`], [`CallContext::is_notification`]). It gets
    /// the raw params and returns the raw result; a notification's result is discarded.
    /// Return [`RpcError::method_not_found`] to refuse a method.
    pub fn fallback<F>(mut self, handler: F) -> Self
    where
        F: Fn(
                &mut S,
                Option<RawParams<'_>>,
                &mut CallContext<'_>,
            ) -> Result<Box<RawValue>, RpcError>
            + Send
            + Sync
            + 'static,
    {
        self.routes.fallback = Some(Box::new(handler));
        self
    }

    /// Registers the handler for [`ProtocolEvent`]s: response-shaped input (well-formed
    /// responses for the caller's pending-request table, and malformed ones) and
    /// notifications whose params do not decode. Without it, such input is dropped. It is
    /// never answered either way.
    pub fn on_event<F>(mut self, handler: F) -> Self
    where
        F: Fn(&mut S, ProtocolEvent) + Send + Sync + 'static,
    {
        self.routes.on_event = Some(Box::new(handler));
        self
    }

    /// Whether a request handler is registered for `method`.
    pub fn has_request(&self, method: &str) -> bool {
        self.routes.requests.contains_key(method)
    }

    /// Whether a notification handler is registered for `method`.
    pub fn has_notification(&self, method: &str) -> bool {
        self.routes.notifications.contains_key(method)
    }

    /// Runs the request handler for `method` (or the fallback); the `Ok` value is the
    /// result's JSON text. Unknown methods give -32601.
    pub(crate) fn call_request(
        &self,
        state: &mut S,
        params: Option<RawParams<'_>>,
        ctx: &mut CallContext<'_>,
    ) -> Result<String, RpcError> {
        if let Some(handler) = self.routes.requests.get(ctx.method()) {
            return handler(state, params, ctx);
        }
        match &self.routes.fallback {
            Some(fallback) => fallback(state, params, ctx).map(|raw| String::from(raw.get())),
            None => Err(RpcError::method_not_found()),
        }
    }

    /// Runs the notification handler for `method` (or the fallback), if any; returns the
    /// decode error of params that did not decode.
    pub(crate) fn call_notification(
        &self,
        state: &mut S,
        params: Option<RawParams<'_>>,
        ctx: &mut CallContext<'_>,
    ) -> Option<RpcError> {
        if let Some(handler) = self.routes.notifications.get(ctx.method()) {
            return handler(state, params, ctx);
        }
        if let Some(fallback) = &self.routes.fallback {
            let _ = fallback(state, params, ctx);
        }
        None
    }

    /// Delivers a protocol event, if an event handler is registered.
    pub(crate) fn deliver_event(&self, state: &mut S, event: ProtocolEvent) {
        if let Some(handler) = &self.routes.on_event {
            handler(state, event);
        }
    }
}
