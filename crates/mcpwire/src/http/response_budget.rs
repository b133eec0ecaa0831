//! The response budget: bytes of answers that clients have not taken yet, over all
//! connections. A response's bytes are counted from when the transport hands them to the
//! connection until the client has read them (the connection's writes give them back), so
//! clients that do not read cannot make the server hold answers without bound.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Bytes, Frame, SizeHint};
use hyper::header::{HeaderValue, RETRY_AFTER};
use hyper::{Response, StatusCode};
use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

use super::response::{HttpResponse, Keep, ResponseBody, error_to, frame_id};
use crate::profile::MissingId;

/// The bytes of answers held for clients, all connections together.
#[derive(Debug, Clone)]
pub(crate) struct ResponseBudget {
    bytes: Arc<Semaphore>,
    total: usize,
}

impl ResponseBudget {
    pub(crate) fn new(bytes: usize) -> ResponseBudget {
        let total = bytes.clamp(1, Semaphore::MAX_PERMITS);
        ResponseBudget {
            bytes: Arc::new(Semaphore::new(total)),
            total,
        }
    }

    /// What a frame of `len` bytes takes: never more than the whole budget, so that one
    /// answer larger than it can still be sent alone.
    fn need(&self, len: usize) -> u32 {
        u32::try_from(len.min(self.total)).unwrap_or(u32::MAX)
    }
}

/// One connection's bytes handed to it and not yet written to the client; given back to the
/// budget as its writes make progress, the rest when the connection ends.
#[derive(Debug)]
pub(crate) struct Unsent {
    budget: ResponseBudget,
    bytes: AtomicUsize,
}

impl Unsent {
    pub(crate) fn new(budget: ResponseBudget) -> Arc<Unsent> {
        Arc::new(Unsent {
            budget,
            bytes: AtomicUsize::new(0),
        })
    }

    fn hold(&self, permit: OwnedSemaphorePermit) {
        self.bytes.fetch_add(permit.num_permits(), Ordering::SeqCst);
        permit.forget();
    }

    /// `written` bytes reached the client's socket: as many held bytes go back (the head
    /// and chunk framing are counted too, which gives back a few bytes early).
    pub(crate) fn written(&self, written: usize) {
        let mut back = 0;
        let _ = self
            .bytes
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                back = held.min(written);
                Some(held - back)
            });
        if back > 0 {
            self.budget.bytes.add_permits(back);
        }
    }
}

impl Drop for Unsent {
    fn drop(&mut self) {
        let held = *self.bytes.get_mut();
        if held > 0 {
            self.budget.bytes.add_permits(held);
        }
    }
}

/// A response body whose data frames take their bytes of the budget before the connection
/// gets them. A complete (JSON) answer takes its bytes up front, in [`admit`]; a streamed
/// one (SSE) takes each event's as it comes, waiting for room at most `wait`.
pub(crate) struct Budgeted {
    inner: ResponseBody,
    unsent: Arc<Unsent>,
    upfront: Option<OwnedSemaphorePermit>,
    wait: Duration,
    waiting: Option<Waiting>,
    /// A frame taken from `inner` that waits for room.
    pending: Option<Bytes>,
}

type Acquire = Pin<Box<dyn Future<Output = Result<OwnedSemaphorePermit, AcquireError>> + Send>>;

struct Waiting {
    acquire: Acquire,
    deadline: Pin<Box<Sleep>>,
}

/// Why a budgeted stream ended early: its event found no room within the wait.
#[derive(Debug)]
pub(crate) struct NoRoom;

impl std::fmt::Display for NoRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no room in the response budget within the write timeout")
    }
}

impl std::error::Error for NoRoom {}

/// Puts `response` under the budget for the connection of `unsent`. A complete answer whose
/// bytes do not fit now is replaced by 503 with `Retry-After` (the answer is dropped).
pub(crate) fn admit(
    response: HttpResponse,
    unsent: &Arc<Unsent>,
    wait: Duration,
) -> Response<Budgeted> {
    let budget = &unsent.budget;
    let mut upfront = None;
    let response = match response.body().size_hint().exact() {
        Some(0) | None => response,
        Some(len) => {
            let need = budget.need(usize::try_from(len).unwrap_or(usize::MAX));
            match Arc::clone(&budget.bytes).try_acquire_many_owned(need) {
                Ok(permit) => {
                    upfront = Some(permit);
                    response
                }
                Err(_) => over_budget(response.body().full_bytes()),
            }
        }
    };
    response.map(|inner| Budgeted {
        inner,
        unsent: Arc::clone(unsent),
        upfront,
        wait,
        waiting: None,
        pending: None,
    })
}

/// The 503 that replaces an answer finding no room. It carries the answer's id (the
/// request's, as sent); an answer without one (a batch's, or one to unreadable input) gives
/// no id, spelled as that answer spelled it.
fn over_budget(answer: Option<&Bytes>) -> HttpResponse {
    let read = answer.map(|bytes| frame_id(bytes));
    let id = read.and_then(|read| read.id);
    let missing_id = read
        .and_then(|read| read.spelled)
        .unwrap_or(MissingId::Null);
    let mut response = error_to(
        StatusCode::SERVICE_UNAVAILABLE,
        -32600,
        "the server holds as many unread answers as it allows; retry shortly",
        id.as_ref().map(|id| id.raw()),
        missing_id,
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

impl Budgeted {
    /// Keeps `value` alive until the body has been sent or dropped.
    pub(crate) fn keep(&mut self, value: Keep) {
        self.inner.keep(value);
    }

    /// Takes room for `data` (from the up-front permit, now, or after waiting).
    fn poll_room(&mut self, cx: &mut Context<'_>, len: usize) -> Poll<Result<(), NoRoom>> {
        let need = self.unsent.budget.need(len);
        if let Some(mut permit) = self.upfront.take() {
            if permit.num_permits() >= need as usize {
                let rest = permit.split(permit.num_permits() - need as usize);
                self.unsent.hold(permit);
                self.upfront = rest;
                return Poll::Ready(Ok(()));
            }
            self.unsent.hold(permit);
        }
        let budget = &self.unsent.budget.bytes;
        let wait = self.wait;
        let waiting = self.waiting.get_or_insert_with(|| Waiting {
            acquire: Box::pin(Arc::clone(budget).acquire_many_owned(need)),
            deadline: Box::pin(tokio::time::sleep(wait)),
        });
        if let Poll::Ready(acquired) = waiting.acquire.as_mut().poll(cx) {
            self.waiting = None;
            let permit = acquired.map_err(|_| NoRoom)?;
            self.unsent.hold(permit);
            return Poll::Ready(Ok(()));
        }
        if waiting.deadline.as_mut().poll(cx).is_ready() {
            self.waiting = None;
            return Poll::Ready(Err(NoRoom));
        }
        Poll::Pending
    }
}

impl Body for Budgeted {
    type Data = Bytes;
    type Error = NoRoom;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, NoRoom>>> {
        let this = self.get_mut();
        let data = match this.pending.take() {
            Some(data) => data,
            None => match Pin::new(&mut this.inner).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => data,
                    Err(other) => return Poll::Ready(Some(Ok(other))),
                },
                Poll::Ready(Some(Err(never))) => match never {},
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            },
        };
        match this.poll_room(cx, data.len()) {
            Poll::Ready(Ok(())) => Poll::Ready(Some(Ok(Frame::data(data)))),
            Poll::Ready(Err(no_room)) => Poll::Ready(Some(Err(no_room))),
            Poll::Pending => {
                this.pending = Some(data);
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.pending.is_none() && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        match &self.pending {
            None => self.inner.size_hint(),
            Some(data) => {
                let mut hint = self.inner.size_hint();
                let len = data.len() as u64;
                hint.set_lower(hint.lower() + len);
                if let Some(upper) = hint.upper() {
                    hint.set_upper(upper + len);
                }
                hint
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(response: HttpResponse) -> String {
        use http_body_util::BodyExt;
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[tokio::test]
    async fn the_refusal_spells_a_missing_id_as_the_answer_did() {
        // No top-level id, though `"id":null` appears inside the error's data and message.
        let omitted = Bytes::from_static(
            br#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"\"id\":null","data":{"id":null}}}"#,
        );
        let refusal = over_budget(Some(&omitted));
        assert_eq!(refusal.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = body_of(refusal).await;
        assert!(!body.contains("\"id\""), "{body}");
        let null = Bytes::from_static(
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}"#,
        );
        assert!(
            body_of(over_budget(Some(&null)))
                .await
                .contains("\"id\":null")
        );
        let answered = Bytes::from_static(br#"{"jsonrpc":"2.0","id":"7","result":{}}"#);
        assert!(
            body_of(over_budget(Some(&answered)))
                .await
                .contains("\"id\":\"7\"")
        );
    }

    #[test]
    fn written_bytes_go_back_and_the_rest_when_the_connection_ends() {
        let budget = ResponseBudget::new(100);
        let unsent = Unsent::new(budget.clone());
        let permit = Arc::clone(&budget.bytes)
            .try_acquire_many_owned(60)
            .unwrap();
        unsent.hold(permit);
        assert_eq!(budget.bytes.available_permits(), 40);
        unsent.written(25);
        assert_eq!(budget.bytes.available_permits(), 65);
        unsent.written(1000); // head bytes beyond what is held give nothing extra
        assert_eq!(budget.bytes.available_permits(), 100);
        let permit = Arc::clone(&budget.bytes)
            .try_acquire_many_owned(30)
            .unwrap();
        unsent.hold(permit);
        drop(unsent);
        assert_eq!(budget.bytes.available_permits(), 100);
    }
}
