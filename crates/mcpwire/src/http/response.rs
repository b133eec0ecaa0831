//! Response bodies (one JSON body or an SSE stream), SSE event framing and the transport's own
//! error answers.

use std::any::Any;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};
use tokio::sync::mpsc;

use crate::envelope::{Field, read_object};
use crate::id::Id;
use crate::profile::MissingId;
use crate::reply::{RpcError, error_reply};
use crate::scan;

/// Whatever must live until the response has been sent (a body-budget permit, a session
/// lease, the connection's activity mark).
pub(crate) type Keep = Vec<Box<dyn Any + Send + Sync>>;

/// The body of every response the transport sends: one JSON body, or an SSE stream whose
/// events arrive as they are sent (an [`http_body::Body`](hyper::body::Body) of [`Bytes`]).
pub struct ResponseBody {
    kind: Kind,
    /// The first value kept, held without a vector (most bodies keep one).
    _held: Option<Box<dyn Any + Send + Sync>>,
    _keep: Keep,
}

enum Kind {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl std::fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            Kind::Full(bytes) => f.debug_tuple("Full").field(bytes).finish(),
            Kind::Stream(_) => f.write_str("Stream"),
        }
    }
}

impl ResponseBody {
    pub(crate) fn full(bytes: Bytes) -> ResponseBody {
        ResponseBody {
            kind: Kind::Full((!bytes.is_empty()).then_some(bytes)),
            _held: None,
            _keep: Vec::new(),
        }
    }

    pub(crate) fn stream(receiver: mpsc::Receiver<Bytes>) -> ResponseBody {
        ResponseBody {
            kind: Kind::Stream(receiver),
            _held: None,
            _keep: Vec::new(),
        }
    }

    /// The bytes of a complete body (`None` for a stream or an empty body).
    pub(crate) fn full_bytes(&self) -> Option<&Bytes> {
        match &self.kind {
            Kind::Full(bytes) => bytes.as_ref(),
            Kind::Stream(_) => None,
        }
    }

    /// Keeps `value` alive until the body has been sent or dropped.
    pub(crate) fn keep_one(&mut self, value: impl Any + Send + Sync) {
        let value = Box::new(value);
        if self._held.is_none() {
            self._held = Some(value);
        } else {
            self._keep.push(value);
        }
    }

    /// Keeps `value` alive until the body has been sent or dropped.
    pub(crate) fn keep(&mut self, value: Keep) {
        if self._keep.is_empty() {
            self._keep = value; // taken as it is, not copied into a vector grown for four
        } else {
            self._keep.extend(value);
        }
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        match &mut this.kind {
            Kind::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Kind::Stream(receiver) => receiver
                .poll_recv(cx)
                .map(|next| next.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.kind, Kind::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Stream(_) => SizeHint::default(),
        }
    }
}

/// A response the transport sends.
pub(crate) type HttpResponse = Response<ResponseBody>;

/// A response with no body.
pub(crate) fn empty(status: StatusCode) -> HttpResponse {
    let mut response = Response::new(ResponseBody::full(Bytes::new()));
    *response.status_mut() = status;
    response
}

/// An `application/json` response.
pub(crate) fn json(status: StatusCode, body: Bytes) -> HttpResponse {
    let mut response = Response::new(ResponseBody::full(body));
    *response.status_mut() = status;
    // Room for `Content-Type` (a map grows as more are added): the first insert into an
    // empty map makes room for six.
    *response.headers_mut() = hyper::HeaderMap::with_capacity(1);
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// An HTTP error answered with a JSON-RPC error response to the request whose id is `id`
/// (its JSON text, as sent), or, when the id could not be read, without one spelled as
/// `missing_id` says.
pub(crate) fn error_to(
    status: StatusCode,
    code: i64,
    message: &str,
    id: Option<&str>,
    missing_id: MissingId,
) -> HttpResponse {
    let id = id.and_then(Id::parse);
    let reply = error_reply(id.as_ref(), &RpcError::new(code, message), missing_id);
    json(status, Bytes::from(reply))
}

/// What the transport reads of one message frame (a request it answers itself, or an
/// answer it replaces) to address an error to the same request: the id, and how the frame
/// spells its absence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FrameId<'a> {
    /// The top-level `id` member of a single message, when present once with an id's type.
    pub(crate) id: Option<Id<'a>>,
    /// How the frame spells a missing id: [`MissingId::Null`] for `"id":null`, a batch or a
    /// frame that is not one object (batches exist only where the spelling is `null`);
    /// [`MissingId::Omit`] for a single object without the member. `None` when the frame has
    /// an id.
    pub(crate) spelled: Option<MissingId>,
}

/// Reads the id of `frame` from its top-level object's members only (the envelope reader:
/// one linear pass, no tree, no depth limit to set), never from text nested in its values.
pub(crate) fn frame_id(frame: &[u8]) -> FrameId<'_> {
    let unreadable = FrameId {
        id: None,
        spelled: Some(MissingId::Null),
    };
    let Ok(text) = std::str::from_utf8(frame) else {
        return unreadable;
    };
    let start = scan::skip_whitespace(frame, 0);
    if frame.get(start) != Some(&b'{') {
        return unreadable;
    }
    let Ok((envelope, _)) = read_object(text, start) else {
        return unreadable;
    };
    match envelope.id {
        Field::Absent => FrameId {
            id: None,
            spelled: Some(MissingId::Omit),
        },
        Field::Once(member) => match Id::parse(member.text) {
            Some(id) if member.text != "null" => FrameId {
                id: Some(id),
                spelled: None,
            },
            _ => unreadable,
        },
        Field::Duplicated => unreadable,
    }
}

/// A `text/event-stream` response fed by `events` (SSE-encoded bytes).
pub(crate) fn event_stream(events: mpsc::Receiver<Bytes>) -> HttpResponse {
    let mut response = Response::new(ResponseBody::stream(events));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// One SSE `message` event carrying `frame`: every line of the frame becomes a `data:` line
/// (a serialized JSON-RPC message has one), and a blank line ends the event.
pub(crate) fn sse_event(frame: &[u8]) -> Bytes {
    let mut event = Vec::with_capacity(frame.len() + 24);
    event.extend_from_slice(b"event: message\n");
    for line in frame.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        event.extend_from_slice(b"data: ");
        event.extend_from_slice(line);
        event.push(b'\n');
    }
    event.push(b'\n');
    Bytes::from(event)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_read_from_the_top_level_object_only() {
        let id = |frame: &[u8]| {
            let read = frame_id(frame);
            (read.id.map(|id| id.raw().to_owned()), read.spelled)
        };
        assert_eq!(
            id(br#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#),
            (Some(r#""a\"b""#.to_owned()), None)
        );
        assert_eq!(id(b" {\"id\":7}"), (Some("7".to_owned()), None));
        // `"id":null` nested in a value (data, a message) says nothing of the frame's id.
        let nested =
            br#"{"jsonrpc":"2.0","error":{"code":1,"message":"\"id\":null","data":{"id":null}}}"#;
        assert_eq!(id(nested), (None, Some(MissingId::Omit)));
        assert_eq!(
            id(br#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}"#),
            (None, Some(MissingId::Null))
        );
        assert_eq!(id(br#"[{"id":1}]"#), (None, Some(MissingId::Null)));
        assert_eq!(id(br#"{"id":1,"id":2}"#), (None, Some(MissingId::Null)));
        assert_eq!(id(br#"{"id":{}}"#), (None, Some(MissingId::Null)));
        assert_eq!(id(b"\xff"), (None, Some(MissingId::Null)));
    }

    #[test]
    fn an_event_carries_each_line_of_the_frame_as_data() {
        assert_eq!(
            &sse_event(br#"{"a":1}"#)[..],
            b"event: message\ndata: {\"a\":1}\n\n"
        );
        assert_eq!(
            &sse_event(b"{\r\n\"a\":1}")[..],
            b"event: message\ndata: {\ndata: \"a\":1}\n\n"
        );
    }
}
