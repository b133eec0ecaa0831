//! A connection's request in progress as the listener sees it: whether its body is still on
//! its way, which id its answer goes to, whether its answer has begun, and the signal that
//! ends it early to make room for another connection of the same client.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

use hyper::StatusCode;
use hyper::header::{CONNECTION, HeaderValue, RETRY_AFTER};
use tokio::sync::watch;

use super::response::{HttpResponse, error_to};
use crate::profile::MissingId;

/// The JSON-RPC error code of a request ended to make room for another connection (see
/// [`HttpConfig::max_connections_per_peer`](super::HttpConfig::max_connections_per_peer);
/// in the range JSON-RPC 2.0 reserves for server errors), answered with HTTP 429.
pub const ENDED_FOR_SHARE: i64 = -32005;

/// What the listener and the endpoint share of one connection's current request (HTTP/1.1
/// serves a connection's requests one at a time).
pub(crate) struct RequestState {
    began: Mutex<Instant>,
    awaiting_body: AtomicBool,
    answered: AtomicBool,
    /// The id the answer goes to, as sent, and how the endpoint spells its absence.
    addressee: Mutex<(Option<String>, MissingId)>,
    /// Made when first asked for: only the listener sheds requests, and a request served
    /// through the tower `Service` allocates none.
    shed: OnceLock<watch::Sender<bool>>,
}

/// Where a request stands, for choosing which connection makes room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// Its head arrived and its body has not: it holds a slot for bytes that may never come.
    AwaitingBody,
    /// Its body arrived; a handler works on it, or its answer is being sent.
    Handling,
}

impl Default for RequestState {
    fn default() -> Self {
        RequestState {
            began: Mutex::new(Instant::now()),
            awaiting_body: AtomicBool::new(false),
            answered: AtomicBool::new(false),
            addressee: Mutex::new((None, MissingId::Omit)),
            shed: OnceLock::new(),
        }
    }
}

impl RequestState {
    /// A new request began on the connection (its head arrived).
    pub(crate) fn begin(&self) {
        *self.began.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        self.awaiting_body.store(false, Ordering::SeqCst);
        self.answered.store(false, Ordering::SeqCst);
        *self
            .addressee
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = (None, MissingId::Omit);
    }

    /// The endpoint starts reading the body; `missing_id` spells the absent id of an answer
    /// sent before the body is read.
    pub(crate) fn body_begins(&self, missing_id: MissingId) {
        self.address(None, missing_id);
        self.awaiting_body.store(true, Ordering::SeqCst);
    }

    /// The body has been read (or refused).
    pub(crate) fn body_ends(&self) {
        self.awaiting_body.store(false, Ordering::SeqCst);
    }

    /// The answer goes to `id` (as sent); without one it is spelled as `missing_id` says.
    pub(crate) fn address(&self, id: Option<&str>, missing_id: MissingId) {
        *self
            .addressee
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = (id.map(str::to_owned), missing_id);
    }

    /// The response head is out; its body (a stream, perhaps) may still be flowing.
    pub(crate) fn answered(&self) {
        self.answered.store(true, Ordering::SeqCst);
    }

    /// Whether the response head is out.
    pub(crate) fn is_answered(&self) -> bool {
        self.answered.load(Ordering::SeqCst)
    }

    /// Where the request stands and since when it began.
    pub(crate) fn stage(&self) -> (Stage, Instant) {
        let began = *self.began.lock().unwrap_or_else(PoisonError::into_inner);
        if self.awaiting_body.load(Ordering::SeqCst) {
            (Stage::AwaitingBody, began)
        } else {
            (Stage::Handling, began)
        }
    }

    /// Ends the request to make room: its answer, when not yet begun, becomes
    /// [`shed_answer`](Self::shed_answer), and the connection closes.
    pub(crate) fn shed(&self) {
        self.shed_sender().send_replace(true);
    }

    /// Whether the request was asked to end to make room.
    pub(crate) fn is_shed(&self) -> bool {
        self.shed.get().is_some_and(|shed| *shed.borrow())
    }

    /// The sender of the signal to end to make room.
    fn shed_sender(&self) -> &watch::Sender<bool> {
        self.shed.get_or_init(|| watch::Sender::new(false))
    }

    /// Completes once the request is to end to make room.
    pub(crate) async fn shed_signal(&self) {
        let mut shed = self.shed_sender().subscribe();
        let _ = shed.wait_for(|shed| *shed).await;
    }

    /// The answer of a request ended to make room: 429 with `Retry-After`, a JSON-RPC error
    /// ([`ENDED_FOR_SHARE`]) to its id when its body was read, and the connection closes.
    pub(crate) fn shed_answer(&self) -> HttpResponse {
        let (id, missing_id) = self
            .addressee
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let mut response = error_to(
            StatusCode::TOO_MANY_REQUESTS,
            ENDED_FOR_SHARE,
            "ended to make room for another connection: the server, or this client's share of \
             it, is at its connection limit with no connection idle; retry shortly",
            id.as_deref(),
            missing_id,
        );
        let headers = response.headers_mut();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("1"));
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
        response
    }
}
