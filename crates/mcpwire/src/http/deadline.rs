//! The time limit of a stateless request ([`HttpConfig::request_timeout`]): when its answer
//! is not complete in time, the request is cancelled as if its client had left, and the client
//! gets a JSON-RPC error carrying the request's id.
//!
//! [`HttpConfig::request_timeout`]: super::HttpConfig::request_timeout

use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::Bytes;
use hyper::header::CONTENT_TYPE;
use hyper::{Response, StatusCode};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use super::response::{HttpResponse, ResponseBody, frame_id, json, sse_event};
use crate::profile::MissingId;
use crate::reply::{RpcError, error_reply};

/// The JSON-RPC error code of a request that ran out of time (as the MCP SDKs use it).
pub(crate) const REQUEST_TIMEOUT: i64 = -32001;

/// The answer to `frame` when its exchange did not complete within `limit` (the exchange,
/// dropped, cancelled the request: stateless mode aborts a handler whose answer is dropped).
pub(crate) fn timed_out_answer(
    frame: &[u8],
    limit: Duration,
    missing_id: MissingId,
) -> HttpResponse {
    json(
        StatusCode::OK,
        Bytes::from(timed_out(frame, limit, missing_id)),
    )
}

/// `response`, the answer to `frame` made before `at` (the exchange's deadline, `limit` after
/// it began): a JSON answer as it is; an SSE stream relayed until `at` only, when the error
/// answer ends it and its body is dropped (which cancels the request).
pub(crate) fn limit_stream(
    at: Instant,
    limit: Duration,
    frame: &[u8],
    missing_id: MissingId,
    response: HttpResponse,
) -> HttpResponse {
    let streams = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"text/event-stream"));
    if !streams {
        return response;
    }
    let (parts, body) = response.into_parts();
    let (sender, events) = mpsc::channel(1);
    tokio::spawn(relay_until(
        at,
        body,
        sender,
        timed_out(frame, limit, missing_id),
    ));
    Response::from_parts(parts, ResponseBody::stream(events))
}

/// Passes the events of `body` on until it ends, the client leaves, or `at` comes: then the
/// error `reply` is the stream's last event and `body` is dropped.
async fn relay_until(
    at: Instant,
    mut body: ResponseBody,
    sender: mpsc::Sender<Bytes>,
    reply: Vec<u8>,
) {
    loop {
        tokio::select! {
            frame = body.frame() => match frame.and_then(|f| f.ok()).and_then(|f| f.into_data().ok()) {
                Some(data) => {
                    if sender.send(data).await.is_err() {
                        return;
                    }
                }
                None => return,
            },
            () = sleep_until(at) => {
                drop(body);
                let _ = sender.send(sse_event(&reply)).await;
                return;
            }
            () = sender.closed() => return,
        }
    }
}

/// The error reply to `frame` once its time is up: with the id of a single request, else
/// without one, spelled as `missing_id` says (the endpoint's spelling, not the frame's).
fn timed_out(frame: &[u8], limit: Duration, missing_id: MissingId) -> Vec<u8> {
    let id = frame_id(frame).id;
    let message = format!(
        "the request was cancelled: its answer was not complete within {} ms",
        limit.as_millis()
    );
    error_reply(
        id.as_ref(),
        &RpcError::new(REQUEST_TIMEOUT, message),
        missing_id,
    )
}
