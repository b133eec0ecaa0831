//! Reading a request body: a size limit, a deadline, a minimum rate and a share of the global
//! in-flight body budget taken as the bytes arrive, each refusal with its own status.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::Bytes;
use hyper::header::{CONTENT_LENGTH, HeaderMap, HeaderValue, RETRY_AFTER};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::response::{HttpResponse, error_to};
use crate::profile::MissingId;

/// The bytes of request bodies all connections may hold at once.
#[derive(Debug, Clone)]
pub(crate) struct BodyBudget {
    bytes: Arc<Semaphore>,
}

impl BodyBudget {
    pub(crate) fn new(bytes: usize) -> BodyBudget {
        BodyBudget {
            bytes: Arc::new(Semaphore::new(bytes.min(Semaphore::MAX_PERMITS))),
        }
    }

    /// Takes `bytes` of the budget without waiting; `None` when they are not free now.
    fn take(&self, bytes: usize) -> Option<OwnedSemaphorePermit> {
        let bytes = u32::try_from(bytes).ok()?;
        Arc::clone(&self.bytes).try_acquire_many_owned(bytes).ok()
    }
}

/// The limits a body is read under (from [`HttpConfig`](super::HttpConfig)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    /// The most bytes.
    pub(crate) max_bytes: usize,
    /// The longest the whole body may take.
    pub(crate) timeout: Duration,
    /// The slowest it may arrive, in bytes per second, after `grace` (`0`: no rate check).
    pub(crate) min_rate: u64,
    /// The time the body may take before the rate counts.
    pub(crate) grace: Duration,
}

impl BodyLimits {
    /// When the body counts as stalled with `received` bytes in after starting at `began`:
    /// the grace, plus one second for every `min_rate` bytes received (`None`: never).
    fn stalled_at(&self, began: Instant, received: usize) -> Option<Instant> {
        if self.min_rate == 0 {
            return None;
        }
        let earned = Duration::from_secs_f64(received as f64 / self.min_rate as f64);
        began.checked_add(self.grace)?.checked_add(earned)
    }
}

/// A body read in full, with the budget its bytes hold; the endpoint drops `budget` as soon as
/// it has decoded the body, before any handler runs.
pub(crate) struct ReadBody {
    pub(crate) bytes: Bytes,
    pub(crate) budget: Option<OwnedSemaphorePermit>,
}

/// Why a body was not read; each is answered with its own status.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// `Content-Length` declares more than the limit.
    DeclaredTooLarge { declared: u64, limit: usize },
    /// The body grew past the limit.
    TooLarge { limit: usize },
    /// The body ended before its declared length, or the connection failed mid-body.
    Truncated(String),
    /// The body did not arrive within the body timeout.
    TimedOut(Duration),
    /// The body arrived slower than the minimum rate (bytes per second).
    TooSlow(u64),
    /// The in-flight body budget is spent.
    Busy,
}

impl BodyError {
    /// The answer to the client; its JSON-RPC error has no id (the body was not read),
    /// spelled as `missing_id` says.
    pub(crate) fn response(&self, missing_id: MissingId) -> HttpResponse {
        let error = |status, message: &str| error_to(status, -32600, message, None, missing_id);
        match self {
            BodyError::DeclaredTooLarge { declared, limit } => error(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the body is {declared} bytes; this endpoint accepts at most {limit}"),
            ),
            BodyError::TooLarge { limit } => error(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the body is larger than this endpoint's limit of {limit} bytes"),
            ),
            BodyError::Truncated(why) => error(
                StatusCode::BAD_REQUEST,
                &format!("the body ended before it was complete: {why}"),
            ),
            BodyError::TimedOut(after) => error(
                StatusCode::REQUEST_TIMEOUT,
                &format!("the body did not arrive within {} ms", after.as_millis()),
            ),
            BodyError::TooSlow(rate) => error(
                StatusCode::REQUEST_TIMEOUT,
                &format!("the body arrived slower than {rate} bytes per second"),
            ),
            BodyError::Busy => {
                let mut response = error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server holds as many request bodies as it allows; retry shortly",
                );
                response
                    .headers_mut()
                    .insert(RETRY_AFTER, HeaderValue::from_static("1"));
                response
            }
        }
    }
}

/// The declared `Content-Length`, when there is one that reads as a number.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Reads `body` whole under `limits`: at most so many bytes, within the timeout and at the
/// minimum rate, holding of `budget` exactly the bytes that have arrived (a declared
/// `Content-Length` reserves nothing: a client that announces a large body and sends nothing
/// holds nothing, and is refused once the grace has passed). The body ends when it says it
/// has no more (hyper's, once its `Content-Length` has arrived), without a further poll for
/// its end: a POST whose future waits on that poll leaves hyper reading its connection
/// meanwhile (to notice a client that hangs up), into a fresh buffer while the body's bytes
/// still hold the old one.
pub(crate) async fn read<B>(
    headers: &HeaderMap,
    body: B,
    limits: &BodyLimits,
    budget: &BodyBudget,
) -> Result<ReadBody, BodyError>
where
    B: hyper::body::Body<Data = Bytes>,
    B::Error: std::fmt::Display,
{
    let limit = limits.max_bytes;
    if let Some(declared) = declared_length(headers)
        && declared > limit as u64
    {
        return Err(BodyError::DeclaredTooLarge { declared, limit });
    }
    let began = Instant::now();
    let deadline = began + limits.timeout;
    let mut held: Option<OwnedSemaphorePermit> = None;
    // A body that comes in one frame (most do) is kept as it came, not copied.
    let mut collected = Collected::default();
    let mut body = std::pin::pin!(body);
    loop {
        let stalled = limits
            .stalled_at(began, collected.len())
            .filter(|stalled| *stalled < deadline);
        let until = stalled.unwrap_or(deadline);
        let next =
            tokio::time::timeout_at(until, body.frame())
                .await
                .map_err(|_| match stalled {
                    Some(_) => BodyError::TooSlow(limits.min_rate),
                    None => BodyError::TimedOut(limits.timeout),
                })?;
        let frame = match next {
            None => break,
            Some(Ok(frame)) => frame,
            Some(Err(error)) => return Err(BodyError::Truncated(error.to_string())),
        };
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        if collected.len() + data.len() > limit {
            return Err(BodyError::TooLarge { limit });
        }
        if !data.is_empty() {
            let more = budget.take(data.len()).ok_or(BodyError::Busy)?;
            match &mut held {
                Some(permit) => permit.merge(more),
                None => held = Some(more),
            }
        }
        collected.push(data);
        // All the body says it has: done now (see above).
        if body.is_end_stream() {
            break;
        }
    }
    Ok(ReadBody {
        bytes: collected.into_bytes(),
        budget: held,
    })
}

/// The frames of a body read so far: a body of one frame as it came (as `to_bytes` of
/// `http-body-util` keeps it), one of several copied into one buffer.
#[derive(Default)]
struct Collected {
    first: Bytes,
    rest: Vec<u8>,
}

impl Collected {
    fn len(&self) -> usize {
        self.first.len() + self.rest.len()
    }

    fn push(&mut self, data: Bytes) {
        if self.len() == 0 {
            self.first = data;
            return;
        }
        if !self.first.is_empty() {
            let first = std::mem::take(&mut self.first);
            self.rest.reserve(first.len() + data.len());
            self.rest.extend_from_slice(&first);
        }
        self.rest.extend_from_slice(&data);
    }

    fn into_bytes(self) -> Bytes {
        if self.rest.is_empty() {
            self.first
        } else {
            Bytes::from(self.rest)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use hyper::body::{Body, Frame};

    use super::*;

    /// One data frame, then (when `ends`) the end said by `is_end_stream`; a poll after the
    /// frame never completes, as a body whose end signal has not come yet.
    struct OneFrame {
        data: Option<Bytes>,
        ends: bool,
    }

    impl Body for OneFrame {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            match self.data.take() {
                Some(data) => Poll::Ready(Some(Ok(Frame::data(data)))),
                None => Poll::Pending,
            }
        }

        fn is_end_stream(&self) -> bool {
            self.ends && self.data.is_none()
        }
    }

    #[tokio::test]
    async fn a_body_that_says_it_has_ended_is_read_without_waiting_for_its_end() {
        let limits = BodyLimits {
            max_bytes: 1024,
            timeout: Duration::from_millis(300),
            min_rate: 0,
            grace: Duration::from_secs(1),
        };
        let budget = BodyBudget::new(1024);
        let body = |ends| OneFrame {
            data: Some(Bytes::from_static(b"{}")),
            ends,
        };
        let started = Instant::now();
        let whole = read(&HeaderMap::new(), body(true), &limits, &budget).await;
        assert_eq!(whole.ok().map(|r| r.bytes), Some(Bytes::from_static(b"{}")));
        assert!(started.elapsed() < limits.timeout, "read at once");
        // A body that does not say so is waited for, up to the body's time limit.
        let waited = read(&HeaderMap::new(), body(false), &limits, &budget).await;
        assert_eq!(waited.err(), Some(BodyError::TimedOut(limits.timeout)));
        assert!(started.elapsed() >= limits.timeout);
    }
}
