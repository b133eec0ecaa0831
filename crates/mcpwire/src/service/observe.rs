//! Watching what a session reads: every message of a frame before the session acts on it,
//! and the frames it answers at once without a handler. For a side that reports its peer's
//! defects (a client telling its application that the server broke a wire rule) or keeps
//! tables of its own beside the session's.

use crate::peer::Event;

/// Watches the input of a [`Session`](super::Session) (see
/// [`Session::observe`](super::Session::observe)). Its methods run on the reading task,
/// in input order, while no lock is held: keep them short. Both default to doing nothing.
pub trait Observer: Send + Sync + 'static {
    /// One message of a frame, before the session acts on it: responses (matched, late,
    /// unmatched, malformed, with an invalid result), requests, notifications, cancellations.
    fn event(&self, event: &Event<'_>) {
        let _ = event;
    }

    /// A frame the peer answered at once, before any handler ran: it is not JSON, not a
    /// message, or an invalid one; with `with_events`, some of its elements were valid
    /// messages (already passed to [`event`](Self::event)) and others not. Called after the
    /// frame's events.
    fn answered_at_once(&self, frame: &[u8], with_events: bool) {
        let _ = (frame, with_events);
    }
}
