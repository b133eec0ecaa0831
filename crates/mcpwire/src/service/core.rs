//! The state shared by a session's reader and its handlers: the sans-IO peer, the callers
//! waiting for responses and the cancellation tokens of the requests in flight.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::oneshot;

use super::CancellationToken;
use crate::decode::ResponseDefect;
use crate::peer::{AnyResult, CallKey, OutgoingId, Peer, ResultError};
use crate::profile::Profile;
use crate::reply::RpcError;

/// How a request this side sent ended. Read by its caller's
/// [`PeerHandle`](super::PeerHandle) (feature `tokio`; without it this side sends none).
#[cfg_attr(not(feature = "tokio"), allow(dead_code))]
pub(crate) enum Awaited {
    Result(AnyResult),
    Error(RpcError),
    InvalidResult(ResultError),
    Malformed(ResponseDefect),
}

pub(crate) struct CoreState {
    pub(crate) peer: Peer,
    pub(crate) waiters: HashMap<OutgoingId, oneshot::Sender<Awaited>>,
    pub(crate) tokens: HashMap<CallKey, CancellationToken>,
    /// Set when input ended: no response can arrive any more.
    pub(crate) input_closed: bool,
    /// The profile a handler switched to, for the frames after the next frame boundary
    /// (see [`CallContext::set_profile`](crate::CallContext::set_profile)).
    switch_to: Option<Profile>,
}

impl CoreState {
    /// A frame boundary: the profile a handler switched to since the last one, if any, now
    /// applies; returns it.
    pub(crate) fn frame_boundary(&mut self) -> Option<Profile> {
        let profile = self.switch_to.take()?;
        self.peer.set_profile(profile.clone());
        Some(profile)
    }

    /// Switches to `profile` at once, forgetting a switch left for the next boundary.
    pub(crate) fn set_profile(&mut self, profile: Profile) {
        self.switch_to = None;
        self.peer.set_profile(profile);
    }
}

pub(crate) struct Core {
    state: Mutex<CoreState>,
}

impl Core {
    pub(crate) fn new(peer: Peer) -> Self {
        Self {
            state: Mutex::new(CoreState {
                peer,
                waiters: HashMap::new(),
                tokens: HashMap::new(),
                input_closed: false,
                switch_to: None,
            }),
        }
    }

    /// Locks the state. No user code runs under the lock, so it is never poisoned by a
    /// handler; a poisoned lock is used as is.
    pub(crate) fn lock(&self) -> MutexGuard<'_, CoreState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Forgets the pending request `id`: its caller is told nothing more, and a late
    /// response is reported as late. With a `reason`, the `notifications/cancelled` line to
    /// send (`None` when the profile has none, or the request is over).
    #[cfg(feature = "tokio")]
    pub(crate) fn forget(&self, id: OutgoingId, reason: Option<&str>) -> Option<Vec<u8>> {
        let mut state = self.lock();
        state.waiters.remove(&id);
        state.peer.cancel(id, reason)
    }

    /// Leaves `profile` to switch to at the next frame boundary (the last one left wins).
    pub(crate) fn switch_at_boundary(&self, profile: Profile) {
        self.lock().switch_to = Some(profile);
    }

    /// Delivers a response to the caller waiting for it (if it still waits).
    pub(crate) fn answer(&self, id: OutgoingId, answer: Awaited) {
        if let Some(waiter) = self.lock().waiters.remove(&id) {
            let _ = waiter.send(answer);
        }
    }
}
