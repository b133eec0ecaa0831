//! What a synchronous handler can see and change about the call it handles.

use crate::id::Id;
use crate::profile::Profile;
use mcpwire_types::ProfileFacts;

/// What a synchronous handler can see and change about the current call (an async handler
/// gets a `service::AsyncContext` instead).
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
