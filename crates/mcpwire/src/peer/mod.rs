//! The sans-IO peer: one side of a JSON-RPC 2.0 / MCP conversation, without any I/O or
//! runtime. A server and a client are the same [`Peer`].
//!
//! Feed it each incoming frame with [`Peer::receive`]: it returns [`Event`]s (requests to
//! answer, notifications, responses matched to the requests this side sent, with their
//! result decoded into the type that request named) plus any reply that is already complete.
//! Answer each request with [`Peer::reply`]; send requests with [`Peer::request`] and
//! notifications with [`Peer::notify`]; every method that produces bytes returns them, and
//! the caller writes them wherever it wants (the same stdout, or the stream of the HTTP
//! request that caused them).
//!
//! Rules it keeps:
//! - **Exactly one reply per incoming request.** Each request comes with a [`Call`] that
//!   [`Peer::reply`] consumes. Replies are written by [`reply`] with the
//!   request's original id text; invalid input is answered by the rules of [`decode()`](crate::decode()).
//! - **Batches** (where the profile has them): the replies of a batch go out as one array,
//!   in input order, when the last request of the batch is answered (invalid elements are
//!   answered while reading; notifications contribute nothing; an all-notification batch
//!   sends nothing).
//! - **Outgoing ids** are integers allocated from 1 upwards and never reused, so they never
//!   collide with another pending request of this side. A response whose id this side
//!   allocated but no longer waits for is a [`Event::LateResponse`], never delivered as a
//!   result; any other id is an [`Event::UnmatchedResponse`].
//! - **Bounded pending table**: at most [`Peer::max_pending`] requests wait at once
//!   (default [`DEFAULT_MAX_PENDING`]); beyond that [`Peer::request`] returns
//!   [`SendError::TooManyPending`] and sends nothing.
//! - **Deadlines** come from the caller's clock: pass one to [`Peer::request`], ask
//!   [`Peer::next_deadline`] when to wake up, and call [`Peer::handle_timeout`] with the
//!   current time.
//! - **Cancellation** (MCP profiles): [`Peer::cancel`] forgets a pending request and returns
//!   the `notifications/cancelled` line; an incoming `notifications/cancelled` naming a
//!   request in flight is reported as [`Event::Cancelled`], and that request's reply is
//!   dropped (`initialize` cannot be cancelled, as MCP says). A cancellation naming no
//!   request in flight is passed on as an ordinary notification.
//!
//! The peer keeps one entry per incoming request until it is answered: bound that number by
//! not reading more frames while too many requests are in flight ([`Peer::in_flight`]); the
//! async `service` (feature `tokio`) does.
//!
//! ```
//! use mcpwire::peer::{Event, Peer, Ping};
//! use mcpwire::Profile;
//!
//! let mut server = Peer::new(Profile::latest_mcp());
//! let mut client = Peer::new(Profile::latest_mcp());
//!
//! // The client sends a typed request...
//! let (id, frame) = client.request::<Ping>(&(), None).unwrap();
//! assert_eq!(frame, br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
//!
//! // ...the server receives it and answers.
//! let received = server.receive(&frame);
//! let Some(Event::Request { call, method, .. }) = received.events.into_iter().next() else { panic!() };
//! assert_eq!(method, "ping");
//! let reply = server.reply(call, Ok("{}")).unwrap();
//! assert_eq!(reply, br#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
//!
//! // The client gets the result decoded as `Ping`'s result type.
//! let received = client.receive(&reply);
//! let Some(Event::Response { id: answered, outcome, .. }) = received.events.into_iter().next() else { panic!() };
//! assert_eq!(answered, id);
//! let result: serde_json::Map<String, serde_json::Value> = outcome.unwrap().downcast().unwrap();
//! assert!(result.is_empty());
//! ```

mod batch;
mod event;
mod frames;
mod in_flight;
mod pending;
mod reply_frame;
mod request;
mod single_pass;

use std::borrow::Cow;
use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::answer::{Answer, ResultReply};
use crate::decode::{Decoded, Message, RawNotification, Response, ResponseBody, decode};
use crate::events::error_object;
use crate::id::{Id, OwnedId};
use crate::params::{decode_params, decode_text};
use crate::profile::Profile;
use crate::reply::{self, RpcError};
use crate::split::{FrameSplit, decode_with, utf8_with};

pub use event::{
    AnyResult, Call, CallKey, Event, OutgoingId, Received, ResultError, SendError, TimedOut,
};
pub use reply_frame::{ReplyFacts, ReplyFrame, ReplyKind};
pub use request::{
    Cancelled, CancelledParams, Notification, Ping, Progress, ProgressParams, Request,
};

use batch::Batches;
use in_flight::{BatchSlot, InFlight, InFlightTable};
use pending::{DecodeFn, Lookup, Pending, PendingTable};
use single_pass::PrefixDecodeFn;

/// The default bound of the pending table.
pub const DEFAULT_MAX_PENDING: usize = 1024;

/// One side of a conversation (see the [module docs](self)).
pub struct Peer {
    profile: Profile,
    pending: PendingTable,
    in_flight: InFlightTable,
    batches: Batches,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("profile", &self.profile.name())
            .field("pending", &self.pending.len())
            .field("in_flight", &self.in_flight.len())
            .finish()
    }
}

impl Peer {
    /// A peer decoding and replying under `profile`.
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            pending: PendingTable::new(DEFAULT_MAX_PENDING),
            in_flight: InFlightTable::default(),
            batches: Batches::default(),
        }
    }

    /// Sets the bound of the pending table.
    pub fn with_max_pending(mut self, max: usize) -> Self {
        self.pending.set_max(max);
        self
    }

    /// The current profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Replaces the profile for the frames received from now on.
    pub fn set_profile(&mut self, profile: Profile) {
        self.profile = profile;
    }

    /// The bound of the pending table.
    pub fn max_pending(&self) -> usize {
        self.pending.max()
    }

    /// How many requests this side sent still wait for a response.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// How many incoming requests are not answered yet.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether the incoming request `call` belongs to a batch whose reply budget
    /// ([`Limits::max_batch_reply_bytes`](crate::Limits)) is already spent: its reply will be
    /// the -32003 error whatever the handler answers, so the handler need not run.
    pub fn is_over_batch_budget(&self, call: CallKey) -> bool {
        self.in_flight
            .batch_of(call)
            .is_some_and(|at| self.batches.is_exhausted(at.batch))
    }

    /// Whether the incoming request `call` was cancelled by the other side.
    pub fn is_cancelled(&self, call: CallKey) -> bool {
        self.in_flight.is_cancelled(call)
    }

    /// Reads one frame (without its line terminator).
    ///
    /// A success response to a pending request written `{"jsonrpc":"2.0","id":N,"result":…}`
    /// is decoded in one pass, straight into the type its request named; any other frame, or
    /// any doubt, takes [`receive_two_pass`](Self::receive_two_pass). The events are the
    /// same either way.
    pub fn receive<'a>(&mut self, frame: &'a [u8]) -> Received<'a> {
        self.receive_split(frame, None)
    }

    /// [`receive`](Self::receive), the frame's envelope taken from `split` (the scan a
    /// transport already ran, see `split.rs`) instead of scanning the frame again: only the
    /// classification under this peer's profile runs. The events are the same.
    pub(crate) fn receive_split<'a>(
        &mut self,
        frame: &'a [u8],
        split: Option<&'a FrameSplit>,
    ) -> Received<'a> {
        match self.receive_single_pass(frame, split) {
            Some(event) => Received {
                events: vec![event],
                reply: None,
                reply_facts: ReplyFacts::batch(),
            },
            None => self.receive_decoded(decode_with(frame, split, &self.profile)),
        }
    }

    /// The single-pass path of [`receive`](Self::receive) (see `single_pass.rs`); `None`
    /// leaves the frame, and the pending table, untouched. The frame's text is `split`'s
    /// when `split` is the frame's own (its UTF-8 already checked), else checked here.
    fn receive_single_pass<'a>(
        &mut self,
        frame: &'a [u8],
        split: Option<&'a FrameSplit>,
    ) -> Option<Event<'a>> {
        if frame.len() > self.profile.limits().max_frame_bytes {
            return None;
        }
        let shape = single_pass::shape(frame)?;
        let decode = self.pending.prefix_decoder(shape.id)?;
        let text = utf8_with(frame, split)?;
        let result_text = &text[shape.result_at..];
        let (result, used) = decode(result_text)?;
        if !single_pass::closes_the_frame(&result_text[used..]) {
            return None;
        }
        match self.pending.take_for_response(shape.id) {
            Lookup::Pending(id, pending) => Some(Event::Response {
                id,
                method: pending.method,
                outcome: Ok(result),
            }),
            Lookup::Late(_) | Lookup::Unknown => None,
        }
    }

    /// Reads one frame the reference way: the envelope first (the whole frame validated,
    /// the id recovered), then the typed decode of a response's result. [`receive`](Self::receive)
    /// gives the same events; this is the path it falls back to.
    pub fn receive_two_pass<'a>(&mut self, frame: &'a [u8]) -> Received<'a> {
        self.receive_decoded(decode(frame, &self.profile))
    }

    /// The events and the reply of a decoded frame.
    fn receive_decoded<'a>(&mut self, decoded: Decoded<'a>) -> Received<'a> {
        // Sized for one event a message (a cancellation may add more): a single message's
        // one event would otherwise take a vector of four.
        let mut events = Vec::with_capacity(match &decoded {
            Decoded::Single(_) => 1,
            Decoded::Batch(messages) => messages.len(),
            Decoded::Rejected(_) => 0,
        });
        let mut reply_facts = ReplyFacts::batch();
        let reply = match decoded {
            Decoded::Rejected(rejection) => {
                reply_facts = ReplyFacts::error(rejection.error().code());
                Some(rejection.reply(&self.profile))
            }
            Decoded::Single(message) => {
                if let Message::Invalid { reason, .. } = &message {
                    reply_facts = ReplyFacts::error(reason.error().code());
                }
                self.accept(message, None, &mut events)
            }
            Decoded::Batch(messages) => {
                let budget = self.profile.limits().max_batch_reply_bytes;
                let batch = self.batches.open(messages.len(), budget);
                for (slot, message) in messages.into_iter().enumerate() {
                    let at = BatchSlot { batch, slot };
                    if let Some(reply) = self.accept(message, Some(at), &mut events) {
                        self.batches.put(batch, slot, reply);
                    }
                }
                self.batches.close_if_answered(batch)
            }
        };
        Received {
            events,
            reply,
            reply_facts,
        }
    }

    /// Takes one message; returns its reply when it is answered right away (invalid input).
    fn accept<'a>(
        &mut self,
        message: Message<'a>,
        batch: Option<BatchSlot>,
        events: &mut Vec<Event<'a>>,
    ) -> Option<Vec<u8>> {
        match message {
            Message::Request { id, method, params } => {
                let key = self.in_flight.insert(InFlight {
                    id: id.to_owned_id(),
                    cancelled: false,
                    cancellable: method != "initialize",
                    batch,
                });
                if let Some(at) = batch {
                    self.batches.expect(at.batch);
                }
                let call = Call {
                    key,
                    id: id.to_owned_id(),
                };
                events.push(Event::Request {
                    call,
                    id,
                    method,
                    params,
                });
                None
            }
            Message::Notification(notification) => {
                if self.is_cancellation(&notification.method) {
                    self.accept_cancellation(notification, events);
                } else {
                    events.push(Event::Notification(notification));
                }
                None
            }
            Message::Response(response) => {
                events.push(self.accept_response(response));
                None
            }
            invalid @ Message::Invalid { .. } => {
                let mut out = Vec::new();
                invalid.write_invalid_reply(&self.profile, &mut out);
                Some(out)
            }
        }
    }

    fn is_cancellation(&self, method: &str) -> bool {
        self.profile.protocol_version().is_some() && method == Cancelled::METHOD
    }

    /// Marks the requests a `notifications/cancelled` names: one [`Event::Cancelled`] per
    /// request in flight with that id (normally one).
    fn accept_cancellation<'a>(
        &mut self,
        notification: RawNotification<'a>,
        events: &mut Vec<Event<'a>>,
    ) {
        let max_depth = self.profile.limits().max_params_depth;
        let cancel = match decode_params::<CancelledParams>(notification.params, max_depth) {
            Ok(cancel) => cancel,
            Err(error) => {
                let method = notification.method;
                return events.push(Event::InvalidNotification { method, error });
            }
        };
        let Some(id) = OwnedId::parse(cancel.request_id.get()) else {
            let error = RpcError::invalid_params().with_data(&serde_json::json!({
                "pointer": "/requestId",
                "reason": "not a string or number",
            }));
            let method = notification.method;
            return events.push(Event::InvalidNotification { method, error });
        };
        let cancelled = self.in_flight.cancel(&id);
        if cancelled.is_empty() {
            return events.push(Event::Notification(notification));
        }
        events.extend(cancelled.into_iter().map(|call| Event::Cancelled {
            call,
            reason: cancel.reason.clone(),
        }));
    }

    fn accept_response<'a>(&mut self, response: Response<'a>) -> Event<'a> {
        let lookup = match response.id {
            Some(id) => self.pending.take_for_response(id.raw()),
            None => Lookup::Unknown,
        };
        let (id, pending) = match lookup {
            Lookup::Pending(id, pending) => (id, pending),
            Lookup::Late(id) => return Event::LateResponse { id, response },
            Lookup::Unknown => return Event::UnmatchedResponse(response),
        };
        let method = pending.method;
        match response.body {
            ResponseBody::Result(text) => match (pending.decode)(text) {
                Ok(result) => Event::Response {
                    id,
                    method,
                    outcome: Ok(result),
                },
                Err(error) => Event::InvalidResult { id, method, error },
            },
            ResponseBody::Error {
                code,
                message,
                data,
            } => Event::Response {
                id,
                method,
                outcome: Err(error_object(code, &message, data)),
            },
            ResponseBody::Malformed(defect) => Event::MalformedResponse { id, method, defect },
        }
    }

    /// Answers an incoming request: `Ok` with the result's JSON text, or `Err` with an error.
    /// Returns the bytes to send: the reply line, or for the last answered request of a batch
    /// the batch's array; `None` when nothing is to be sent (a batch still waiting for other
    /// replies, or a request the other side cancelled).
    pub fn reply(&mut self, call: Call, outcome: Result<&str, &RpcError>) -> Option<Vec<u8>> {
        self.reply_frame(call, outcome).map(ReplyFrame::into_bytes)
    }

    /// [`reply`](Self::reply), with what the reply is: one success (for `initialize`, with the
    /// version its result names), one error and its code, or a batch's array.
    pub fn reply_frame(
        &mut self,
        call: Call,
        outcome: Result<&str, &RpcError>,
    ) -> Option<ReplyFrame> {
        let body = match outcome {
            Ok(text) => Body::Text(text),
            Err(error) => Body::Error(error),
        };
        self.finish_reply(call, body)
    }

    /// [`reply_frame`](Self::reply_frame) with a handler's [`Answer`]: a
    /// [`ResultReply`] written for this request is closed and sent
    /// as it is (its result is not copied again); text is written into a reply as by
    /// `reply_frame`.
    pub fn reply_answer(
        &mut self,
        call: Call,
        outcome: Result<Answer, RpcError>,
    ) -> Option<ReplyFrame> {
        match outcome {
            Ok(Answer::Text(text)) => self.finish_reply(call, Body::Text(text.get())),
            Ok(Answer::Written(reply)) => self.finish_reply(call, Body::Written(reply)),
            Err(error) => self.finish_reply(call, Body::Error(&error)),
        }
    }

    fn finish_reply(&mut self, call: Call, body: Body<'_>) -> Option<ReplyFrame> {
        let entry = self.in_flight.remove(call.key)?;
        let facts = match &body {
            // Only `initialize` is not cancellable: its result names the version.
            Body::Text(_) | Body::Written(_) if !entry.cancellable => ReplyFacts {
                agreed_version: reply_frame::agreed_version(body.result()),
                ..ReplyFacts::result()
            },
            Body::Text(_) | Body::Written(_) => ReplyFacts::result(),
            Body::Error(error) => ReplyFacts::error(error.code()),
        };
        let bytes = (!entry.cancelled).then(|| {
            let id = call.id.as_id();
            match body {
                Body::Written(reply) if reply.answers(&id) => reply.close(),
                // Sized once for the whole line and the line end a transport appends: a
                // result given as text is copied into it once, never into a buffer that has
                // to grow.
                Body::Written(reply) => success_line(&id, reply.result()),
                Body::Text(text) => success_line(&id, text),
                Body::Error(error) => {
                    let mut out = Vec::with_capacity(reply::reply_capacity(&id, 0));
                    reply::write_error(&mut out, Some(&id), error, self.profile.missing_id());
                    out
                }
            }
        });
        match entry.batch {
            None => bytes.map(|bytes| ReplyFrame::new(bytes, facts)),
            Some(at) => self
                .batches
                .answer(at.batch, at.slot, &call.id, bytes)
                .map(|bytes| ReplyFrame::new(bytes, ReplyFacts::batch())),
        }
    }

    /// Sends a typed request: allocates its id, records it as pending (with an optional
    /// deadline) and returns the id and the request line. Its response is reported as
    /// [`Event::Response`] with the result decoded as `R::Result`.
    pub fn request<R: Request>(
        &mut self,
        params: &R::Params,
        deadline: Option<Instant>,
    ) -> Result<(OutgoingId, Vec<u8>), SendError> {
        self.request_as(
            Cow::Borrowed(R::METHOD),
            params,
            (
                decode_as::<R::Result>,
                single_pass::decode_prefix::<R::Result>,
            ),
            deadline,
        )
    }

    /// Sends a request by method name; its result is reported as a `Box<RawValue>`.
    pub fn request_raw<P: Serialize + ?Sized>(
        &mut self,
        method: impl Into<Cow<'static, str>>,
        params: &P,
        deadline: Option<Instant>,
    ) -> Result<(OutgoingId, Vec<u8>), SendError> {
        let decoders = (
            decode_as::<Box<RawValue>> as DecodeFn,
            single_pass::decode_prefix::<Box<RawValue>> as PrefixDecodeFn,
        );
        self.request_as(method.into(), params, decoders, deadline)
    }

    fn request_as<P: Serialize + ?Sized>(
        &mut self,
        method: Cow<'static, str>,
        params: &P,
        (decode, decode_prefix): (DecodeFn, PrefixDecodeFn),
        deadline: Option<Instant>,
    ) -> Result<(OutgoingId, Vec<u8>), SendError> {
        let params = frames::params_json(params)?;
        let frame_method = method.clone();
        let id = self.pending.insert(Pending {
            method,
            decode,
            decode_prefix,
            deadline,
        })?;
        Ok((id, frames::request(id.0, &frame_method, params.as_deref())))
    }

    /// The line of a typed notification.
    pub fn notify<N: Notification>(&self, params: &N::Params) -> Result<Vec<u8>, SendError> {
        Self::notification(N::METHOD, params)
    }

    /// The line of a notification by method name.
    pub fn notification<P: Serialize + ?Sized>(
        method: &str,
        params: &P,
    ) -> Result<Vec<u8>, SendError> {
        let params = frames::params_json(params)?;
        Ok(frames::notification(method, params.as_deref()))
    }

    /// Gives up on a pending request: forgets it (a response arriving later is an
    /// [`Event::LateResponse`]) and, under an MCP profile, returns the
    /// `notifications/cancelled` line naming it. `None` when it is not pending.
    pub fn cancel(&mut self, id: OutgoingId, reason: Option<&str>) -> Option<Vec<u8>> {
        self.pending.remove(id)?;
        self.cancellation_line(id, reason)
    }

    fn cancellation_line(&self, id: OutgoingId, reason: Option<&str>) -> Option<Vec<u8>> {
        self.profile.protocol_version()?;
        let params = CancelledParams {
            request_id: RawValue::from_string(id.0.to_string()).expect("an integer is JSON"),
            reason: reason.map(str::to_owned),
        };
        self.notify::<Cancelled>(&params).ok()
    }

    /// The earliest deadline of a pending request.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.pending.next_deadline()
    }

    /// Forgets the pending requests whose deadline is at or before `now`; each comes back
    /// with its `notifications/cancelled` line (MCP profiles), reason `"timed out"`.
    pub fn handle_timeout(&mut self, now: Instant) -> Vec<TimedOut> {
        self.pending
            .expire(now)
            .into_iter()
            .map(|(id, pending)| TimedOut {
                id,
                method: pending.method,
                cancel: self.cancellation_line(id, Some("timed out")),
            })
            .collect()
    }
}

/// Decodes a result text as `T`, naming the JSON pointer where it failed.
fn decode_as<T: DeserializeOwned + Send + 'static>(text: &str) -> Result<AnyResult, ResultError> {
    decode_text::<T>(text)
        .map(|value| AnyResult(Box::new(value)))
        .map_err(|failure| ResultError {
            pointer: failure.pointer,
            reason: failure.reason,
        })
}

/// What answers an incoming request, as the peer writes its reply.
enum Body<'a> {
    Text(&'a str),
    Written(ResultReply),
    Error(&'a RpcError),
}

impl Body<'_> {
    /// The result's JSON text (empty for an error).
    fn result(&self) -> &str {
        match self {
            Body::Text(text) => text,
            Body::Written(reply) => reply.result(),
            Body::Error(_) => "",
        }
    }
}

/// A success reply line to `id` around a copy of `result`.
fn success_line(id: &Id<'_>, result: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(reply::reply_capacity(id, result.len()));
    reply::write_success(&mut out, id, result);
    out
}

/// A handler's result as JSON text; a result that does not serialize is -32603.
pub fn result_json<R: Serialize>(result: &R) -> Result<String, RpcError> {
    serde_json::to_string(result).map_err(|e| crate::answer::unserializable(&e))
}

#[cfg(test)]
mod tests;
