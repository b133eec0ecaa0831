//! The `tracing` spans of a session: one per session (`mcp_session`: a number unique in the
//! process, the protocol version in force), and inside it one per request (`mcp_request`: its
//! method, its id as sent, the version it was read under, and once answered its outcome and
//! duration). Handlers run inside their request's span, so what they log is tied to it.
//!
//! Outcomes: `result`, `error` (with `error_code`), `cancelled` (the other side cancelled it,
//! so no reply was sent), and for a synchronous handler, answered in place, inside a batch
//! whose reply is not this request's alone, `replied`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use crate::id::OwnedId;
use crate::peer::{ReplyFacts, ReplyKind};
use crate::profile::Profile;

/// The version a profile stands for: the MCP protocol version, else the profile's name.
pub(crate) fn version_of(profile: &Profile) -> &'static str {
    profile
        .facts()
        .protocol_version
        .unwrap_or_else(|| profile.name())
}

/// A new session's span.
pub(crate) fn session_span(profile: &Profile) -> Span {
    static SESSIONS: AtomicU64 = AtomicU64::new(1);
    let number = SESSIONS.fetch_add(1, Ordering::Relaxed);
    tracing::info_span!(
        "mcp_session",
        session = number,
        version = version_of(profile)
    )
}

/// Records the version a session switched to (an `initialize` agreed it).
pub(crate) fn switched(session: &Span, profile: &Profile) {
    session.record("version", version_of(profile));
}

/// One request's span and when it began.
#[derive(Debug, Clone)]
pub(crate) struct RequestTrace {
    span: Span,
    /// The session's span, whose version an async handler may switch (`initialize`).
    #[cfg(feature = "tokio")]
    session: Span,
    began: Instant,
}

impl RequestTrace {
    /// The span of request `id` of `method`, read under `profile`, inside `session`'s.
    pub(crate) fn new(session: &Span, method: &str, id: &OwnedId, profile: &Profile) -> Self {
        let span = tracing::info_span!(
            parent: session,
            "mcp_request",
            method = method,
            id = %id,
            version = version_of(profile),
            outcome = Empty,
            error_code = Empty,
            duration_us = Empty,
        );
        Self {
            span,
            #[cfg(feature = "tokio")]
            session: session.clone(),
            began: Instant::now(),
        }
    }

    /// The span.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Records how an async handler ended: `error_code` is its error's code (`None` for a
    /// result), `sent` whether a reply went out (not for a cancelled request); and the
    /// session's `version` now (the handler may have negotiated it: see [`version_of`]).
    #[cfg(feature = "tokio")]
    pub(crate) fn answered(&self, error_code: Option<i64>, sent: bool, version: &'static str) {
        self.session.record("version", version);
        let label = match error_code {
            _ if !sent => "cancelled",
            None => "result",
            Some(code) => {
                self.span.record("error_code", code);
                "error"
            }
        };
        self.end(label);
    }

    /// Records how a synchronous handler, answered in place, ended: by the facts of the
    /// reply written (`result`, or `error` with its code); `replied` when the reply is not the
    /// request's alone (a batch's array, or a batch still waiting for other answers).
    pub(crate) fn replied(&self, reply: Option<&ReplyFacts>) {
        let label = match reply.map(|facts| facts.kind) {
            Some(ReplyKind::Result) => "result",
            Some(ReplyKind::Error(code)) => {
                self.span.record("error_code", code);
                "error"
            }
            Some(ReplyKind::Batch) | None => "replied",
        };
        self.end(label);
    }

    fn end(&self, outcome: &str) {
        let micros = u64::try_from(self.began.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.span.record("outcome", outcome);
        self.span.record("duration_us", micros);
    }
}
