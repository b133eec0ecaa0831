//! What the peer reports after reading a frame, and the handles it gives out.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;

use crate::decode::{RawNotification, Response, ResponseDefect};
use crate::events::ProtocolEvent;
use crate::id::{Id, OwnedId};
use crate::params::RawParams;
use crate::reply::RpcError;

/// The id of a request this side sent: the integer the peer allocated for it. Not to be
/// confused with the JSON-RPC `RequestId` of the generated types, which is any id the other
/// side may send ([`OwnedId`] here).
///
/// Ids are allocated in increasing order from 1 and never reused within one [`Peer`](super::Peer),
/// so a response can tell "never sent" apart from "sent, but no longer pending".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutgoingId(pub(crate) u64);

impl OutgoingId {
    /// The id as the number written on the wire.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for OutgoingId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Names one incoming request while it is in flight (see [`Call`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CallKey(pub(crate) u64);

/// The right to answer one incoming request: [`Peer::reply`](super::Peer::reply) consumes it,
/// so a request is answered at most once. Not `Clone`.
///
/// Every `Call` must eventually be passed to `reply` (with an error if need be): until then the
/// request stays in flight, and the batch it belongs to is not sent.
#[derive(Debug, PartialEq, Eq)]
pub struct Call {
    pub(crate) key: CallKey,
    pub(crate) id: OwnedId,
}

impl Call {
    /// The key under which a cancellation of this request is reported.
    pub fn key(&self) -> CallKey {
        self.key
    }

    /// The request's id, exactly as received.
    pub fn id(&self) -> &OwnedId {
        &self.id
    }
}

/// A decoded result, of the type the request named ([`Request::Result`](super::Request::Result)).
pub struct AnyResult(pub(crate) Box<dyn Any + Send>);

impl AnyResult {
    /// The result as `T`; gives the value back when `T` is not the type the request named.
    pub fn downcast<T: 'static>(self) -> Result<T, Self> {
        self.0.downcast::<T>().map(|b| *b).map_err(AnyResult)
    }
}

impl fmt::Debug for AnyResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AnyResult(..)")
    }
}

/// Why a response's `result` did not decode into the type its request named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultError {
    /// JSON pointer into `result` where decoding failed (`""` for the whole value).
    pub pointer: String,
    /// What went wrong.
    pub reason: String,
}

impl fmt::Display for ResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result at \"{}\": {}", self.pointer, self.reason)
    }
}

impl std::error::Error for ResultError {}

/// Something the other side sent, as the peer understood it.
///
/// Built from a stateless [`decode::Message`](crate::decode::Message) with the peer's state:
/// a request gets its [`Call`] (not `Clone`: the right to answer once), a response is matched
/// to this side's pending request and its result decoded, a cancellation names a call in
/// flight. Borrowed from the frame; [`Event::protocol_event`] gives the owned form of the
/// events nobody answers.
#[derive(Debug)]
pub enum Event<'a> {
    /// A request to answer: pass `call` to [`Peer::reply`](super::Peer::reply) exactly once.
    Request {
        /// The right to answer it.
        call: Call,
        /// The id, borrowed from the frame.
        id: Id<'a>,
        /// The method.
        method: Cow<'a, str>,
        /// The raw params.
        params: Option<RawParams<'a>>,
    },
    /// A notification (never answered), as the frame spelled it.
    Notification(RawNotification<'a>),
    /// MCP `notifications/cancelled` named a request still in flight: its reply will not be
    /// sent (the peer drops it); the handler may stop.
    Cancelled {
        /// The cancelled call.
        call: CallKey,
        /// The reason given, if any.
        reason: Option<String>,
    },
    /// A notification the peer itself interprets (`notifications/cancelled`) had params that
    /// do not decode; it is ignored otherwise.
    InvalidNotification {
        /// The method.
        method: Cow<'a, str>,
        /// The -32602 error that a request with these params would have been answered with.
        error: RpcError,
    },
    /// The response to a pending request, its result decoded as the request's type.
    Response {
        /// The request it answers.
        id: OutgoingId,
        /// The request's method.
        method: Cow<'static, str>,
        /// The decoded result or the error response.
        outcome: Result<AnyResult, RpcError>,
    },
    /// A success response to a pending request whose `result` does not decode as the
    /// request's result type. The request is no longer pending.
    InvalidResult {
        /// The request it answers.
        id: OutgoingId,
        /// The request's method.
        method: Cow<'static, str>,
        /// Where and why decoding failed.
        error: ResultError,
    },
    /// A malformed response whose id names a pending request. The request is no longer pending.
    MalformedResponse {
        /// The request it answers.
        id: OutgoingId,
        /// The request's method.
        method: Cow<'static, str>,
        /// What is wrong.
        defect: ResponseDefect,
    },
    /// A response to a request this side sent that is no longer pending (cancelled, timed
    /// out, or already answered). Never delivered as a result.
    LateResponse {
        /// The request's id.
        id: OutgoingId,
        /// The response.
        response: Response<'a>,
    },
    /// A response whose id names no request this side sent (or has no usable id).
    UnmatchedResponse(Response<'a>),
}

impl Event<'_> {
    /// The [`ProtocolEvent`] this event is reported to the application as, if any: a
    /// notification whose params did not decode, or a response that no request of this side
    /// waits for ([`LateResponse`](Event::LateResponse), [`UnmatchedResponse`](Event::UnmatchedResponse)).
    /// `ProtocolEvent` is the owned form of these events; every other event is acted on by
    /// the caller (answered, or handed to the request waiting for it).
    pub fn protocol_event(&self) -> Option<ProtocolEvent> {
        match self {
            Event::InvalidNotification { method, error } => {
                Some(ProtocolEvent::InvalidNotification {
                    method: method.clone().into_owned(),
                    error: error.clone(),
                })
            }
            Event::LateResponse { response, .. } | Event::UnmatchedResponse(response) => {
                Some(ProtocolEvent::from_response(response))
            }
            _ => None,
        }
    }
}

/// What [`Peer::receive`](super::Peer::receive) found in one frame.
#[derive(Debug)]
pub struct Received<'a> {
    /// The messages to act on, in input order.
    pub events: Vec<Event<'a>>,
    /// A reply already complete: the rejection of the whole frame, the -32600 of an invalid
    /// message, or a batch whose elements were all answered while reading it.
    pub reply: Option<Vec<u8>>,
    /// What [`reply`](Self::reply) is, when there is one.
    pub(crate) reply_facts: super::ReplyFacts,
}

impl Received<'_> {
    /// The complete reply with what it is (see [`reply`](Self::reply)), taken out.
    pub fn take_reply(&mut self) -> Option<super::ReplyFrame> {
        let facts = std::mem::take(&mut self.reply_facts);
        self.reply
            .take()
            .map(|bytes| super::ReplyFrame::new(bytes, facts))
    }
}

/// A pending request whose deadline passed (see [`Peer::handle_timeout`](super::Peer::handle_timeout)).
#[derive(Debug)]
pub struct TimedOut {
    /// The request's id.
    pub id: OutgoingId,
    /// The request's method.
    pub method: Cow<'static, str>,
    /// The `notifications/cancelled` line to send (MCP profiles only).
    pub cancel: Option<Vec<u8>>,
}

/// Why the peer refused to send a request or notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// The pending table is full: nothing was sent.
    TooManyPending {
        /// The bound.
        max: usize,
    },
    /// The params do not serialize to a JSON object or array.
    Params(String),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::TooManyPending { max } => {
                write!(f, "{max} requests are already pending")
            }
            SendError::Params(reason) => write!(f, "params: {reason}"),
        }
    }
}

impl std::error::Error for SendError {}
