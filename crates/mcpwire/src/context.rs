//! What every handler of the runtime sees of the call it handles, whether it runs
//! synchronously or async: [`CallContext`].

// Without feature `http` the docs still name its items (docs.rs builds with all features),
// whose links then have nothing to resolve to.
#![cfg_attr(not(feature = "http"), allow(rustdoc::broken_intra_doc_links))]

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use crate::id::Id;
use crate::profile::Profile;
use crate::service::core::Core;
use mcpwire_types::ProfileFacts;

/// A value a transport attaches to one incoming frame, for the handlers of the calls it
/// carries (over HTTP: the [`Caller`](crate::http::Caller) a guard identified for the POST);
/// a handler reads it with [`CallContext::attachment`].
pub type Attachment = Arc<dyn Any + Send + Sync>;

/// The call a handler handles: its id, its method, the profile it was decoded under, what
/// the transport attached to its frame, and the switch of the session's profile.
///
/// It is the one context of the runtime. A synchronous handler (registered with
/// [`Router::request`](crate::Router::request) and its siblings) gets it as
/// `&mut CallContext<'_>`, borrowing the frame: building it allocates nothing. An async
/// handler (feature `tokio`, `Router::request_async` ...) gets a
/// `service::AsyncCallContext`, which holds a `CallContext<'static>` and dereferences to
/// it, adding what only a running session can do (progress, notifications, requests to the
/// other side, cancellation). Logic written against `&CallContext<'_>` serves both kinds
/// alike:
///
/// ```
/// use mcpwire::{CallContext, Router, RpcError};
///
/// fn whoami(ctx: &CallContext<'_>) -> String {
///     let id = ctx.id().map_or("-", |id| id.raw());
///     format!("{} {id} under {}", ctx.method(), ctx.profile().name())
/// }
///
/// let router = Router::<()>::new().request("whoami", |_: &(), _: (), ctx: &mut CallContext<'_>| {
///     Ok::<_, RpcError>(whoami(ctx))
/// });
/// # #[cfg(feature = "tokio")]
/// let router = router.request_async(
///     "whoami_async",
///     |_: std::sync::Arc<()>, _: (), ctx: mcpwire::service::AsyncCallContext| async move {
///         Ok::<_, RpcError>(whoami(&ctx))
///     },
/// );
/// ```
#[derive(Clone)]
pub struct CallContext<'a> {
    call: Call<'a>,
}

/// Where a context's call lies: in the frame (a synchronous handler's: nothing copied) or
/// in the one allocation an async handler's context shares with its clones.
#[derive(Clone)]
enum Call<'a> {
    Frame(&'a FrameCall<'a>),
    #[cfg(feature = "tokio")]
    Owned(Arc<OwnedCall>),
}

/// A call handled in place, as the engine finds it in the frame.
pub(crate) struct FrameCall<'a> {
    pub(crate) id: Option<Id<'a>>,
    pub(crate) method: &'a str,
    /// The profile the frame was decoded under.
    pub(crate) profile: &'a Profile,
    pub(crate) attached: Option<&'a Attachment>,
    /// Where a switch of the profile waits for the frame boundary.
    pub(crate) core: &'a Core,
}

/// A call an async handler owns (it may outlive the frame), with what the running session
/// gives its handler: one allocation for the context and its clones, besides its text.
#[cfg(feature = "tokio")]
#[derive(Debug)]
pub(crate) struct OwnedCall {
    /// The id's JSON text (when there is one), then the method.
    text: Box<str>,
    /// The id's length in `text`, and its kind.
    id: Option<(usize, crate::id::IdKind)>,
    profile: Profile,
    attached: Option<Attachment>,
    /// What the session gives an async handler beyond the call.
    pub(crate) live: crate::service::Live,
}

#[cfg(feature = "tokio")]
impl OwnedCall {
    /// `call` copied out of its frame (the id and the method in one allocation), with `live`.
    pub(crate) fn new(call: &FrameCall<'_>, live: crate::service::Live) -> Self {
        let id = call.id.map_or("", |id| id.raw());
        let mut text = String::with_capacity(id.len() + call.method.len());
        text.push_str(id);
        text.push_str(call.method);
        Self {
            text: text.into_boxed_str(),
            id: call.id.map(|id| (id.raw().len(), id.kind())),
            profile: call.profile.clone(),
            attached: call.attached.cloned(),
            live,
        }
    }

    /// This call again, with other `live` parts.
    pub(crate) fn with_live(&self, live: crate::service::Live) -> Self {
        Self {
            text: self.text.clone(),
            id: self.id,
            profile: self.profile.clone(),
            attached: self.attached.clone(),
            live,
        }
    }
}

impl<'a> CallContext<'a> {
    /// The context of a call handled in place, borrowing what it shows: nothing is copied.
    pub(crate) fn new(call: &'a FrameCall<'a>) -> Self {
        Self {
            call: Call::Frame(call),
        }
    }

    /// The context of a call an async handler owns.
    #[cfg(feature = "tokio")]
    pub(crate) fn owned(call: Arc<OwnedCall>) -> CallContext<'static> {
        CallContext {
            call: Call::Owned(call),
        }
    }

    /// The request id, exactly as received; `None` for a notification.
    pub fn id(&self) -> Option<Id<'_>> {
        match &self.call {
            Call::Frame(call) => call.id,
            #[cfg(feature = "tokio")]
            Call::Owned(call) => call
                .id
                .map(|(len, kind)| Id::from_parts(&call.text[..len], kind)),
        }
    }

    /// Whether the call is a notification (no reply will be sent).
    pub fn is_notification(&self) -> bool {
        self.id().is_none()
    }

    /// The method name.
    pub fn method(&self) -> &str {
        match &self.call {
            Call::Frame(call) => call.method,
            #[cfg(feature = "tokio")]
            Call::Owned(call) => &call.text[call.id.map_or(0, |(len, _)| len)..],
        }
    }

    /// The profile the call was decoded under: the one its frame was read under, also
    /// after a [`set_profile`](Self::set_profile) (which is for the frames after it).
    pub fn profile(&self) -> &Profile {
        match &self.call {
            Call::Frame(call) => call.profile,
            #[cfg(feature = "tokio")]
            Call::Owned(call) => &call.profile,
        }
    }

    /// What the transport attached to the frame that carried this call, when it is a `T`:
    /// over Streamable HTTP behind a [`Guard`](crate::http::Guard), the
    /// [`Caller`](crate::http::Caller) of this call's own POST (a later request of a session
    /// may carry another token of the same subject than the one that opened it). `None`
    /// over stdio and from the blocking [`Server`](crate::Server), which attach nothing.
    pub fn attachment<T: Any>(&self) -> Option<&T> {
        let attached = match &self.call {
            Call::Frame(call) => call.attached,
            #[cfg(feature = "tokio")]
            Call::Owned(call) => call.attached.as_ref(),
        };
        attached?.downcast_ref::<T>()
    }

    /// Switches the session to `profile` at the next frame boundary: the frames read after
    /// the one that carried this call are decoded and answered under `profile`; that frame,
    /// the rest of its batch included, is finished under the profile it was decoded under
    /// ([`profile`](Self::profile)). An async handler that switches once its frame is done
    /// switches from the next frame read. When several calls switch, the last one before
    /// the boundary wins. MCP `initialize` uses it (through [`negotiate`](Self::negotiate))
    /// to adopt the agreed version: the session reads nothing after an `initialize` frame
    /// until its handler has finished, so the next frame is read under the agreed version.
    ///
    /// The same for synchronous and async handlers. At a boundary, not at once: a frame is
    /// classified whole when it is read (each element of a batch decoded under one profile
    /// before any handler runs), so a switch in the middle of it would handle one frame
    /// under two profiles: the calls after the switch decoded under the old one, but their
    /// params limited, and their handlers told, under the new one.
    pub fn set_profile(&self, profile: Profile) {
        let core = match &self.call {
            Call::Frame(call) => call.core,
            #[cfg(feature = "tokio")]
            Call::Owned(call) => &call.live.peer.core,
        };
        core.switch_at_boundary(profile);
    }

    /// Switches to the protocol `facts` (an MCP version agreed in `initialize`) keeping this
    /// call's profile's whole policy: limits, id policy, error details, and a missing-id
    /// spelling the user chose over the facts' default (see [`Profile::negotiated`]). Takes
    /// effect like [`set_profile`](Self::set_profile); returns the new profile.
    pub fn negotiate(&self, facts: &'static ProfileFacts) -> Profile {
        let profile = self.profile().negotiated(facts);
        self.set_profile(profile.clone());
        profile
    }
}

impl fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("id", &self.id())
            .field("method", &self.method())
            .field("profile", &self.profile().name())
            .finish()
    }
}
