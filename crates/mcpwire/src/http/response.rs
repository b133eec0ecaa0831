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

use crate::id::Id;
use crate::profile::MissingId;
use crate::reply::{RpcError, error_reply};

/// Whatever must live until the response has been sent (a body-budget permit, a session
/// lease, the connection's activity mark).
pub(crate) type Keep = Vec<Box<dyn Any + Send + Sync>>;

/// The body of every response the transport sends.
pub(crate) struct ResponseBody {
    kind: Kind,
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
            _keep: Vec::new(),
        }
    }

    pub(crate) fn stream(receiver: mpsc::Receiver<Bytes>) -> ResponseBody {
        ResponseBody {
            kind: Kind::Stream(receiver),
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
    pub(crate) fn keep(&mut self, value: Keep) {
        self._keep.extend(value);
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
