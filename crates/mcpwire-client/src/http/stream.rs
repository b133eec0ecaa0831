//! Reading the server's SSE streams: the stream answering a POSTed request, resumed with GET
//! and `Last-Event-ID` when the server closes it before the answer, and the session's own GET
//! stream, reopened when it ends. Every resumption waits what the server's `retry` asks
//! (bounded by [`HttpLimits::max_retry_wait`](super::HttpLimits)), and a stream resumed
//! [`HttpLimits::max_reconnects`](super::HttpLimits) times in a row without a message is
//! given up.

use std::sync::Arc;
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::Incoming as Body;
use mcpwire::http::sse::{SseItem, SseParser};
use mcpwire::peer::OutgoingId;
use tokio::sync::oneshot;

use super::connection::{BodyKind, Shared};
use super::probe;
use super::request;
use crate::transport::{Incoming, TransportError};

/// How long a stream that delivered its answer is read on for its end (so its connection
/// can be reused) before it is dropped.
const DRAIN: Duration = Duration::from_millis(100);

/// How one read of a stream ended.
#[derive(Debug, Default)]
struct Read {
    /// The awaited response arrived.
    answered: bool,
    /// At least one message arrived.
    delivered: bool,
    /// The client stopped listening.
    gone: bool,
}

impl Shared {
    /// Reads one stream body into the client until it ends (or, with `awaited`, until that
    /// response arrived and the stream then ended or [`DRAIN`] passed).
    async fn pump(
        &self,
        parser: &mut SseParser,
        mut body: Body,
        awaited: Option<OutgoingId>,
    ) -> Read {
        let mut read = Read::default();
        loop {
            let next = if read.answered {
                match tokio::time::timeout(DRAIN, body.frame()).await {
                    Ok(next) => next,
                    Err(_) => return read,
                }
            } else {
                body.frame().await
            };
            let data = match next {
                None => return read,
                Some(Err(_)) => return read,
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => data,
                    Err(_) => continue,
                },
            };
            for item in parser.push(&data) {
                let delivered = match item {
                    SseItem::Event(event) => {
                        if event.data.trim_ascii().is_empty() {
                            continue; // a priming event, a keep-alive
                        }
                        read.delivered = true;
                        if awaited.is_some_and(|id| probe::answers(&event.data, id)) {
                            read.answered = true;
                        }
                        self.incoming.frame(event.data).await
                    }
                    SseItem::TooLarge { limit } => {
                        self.incoming
                            .send(Incoming::Discarded(TransportError::FrameTooLarge { limit }))
                            .await
                    }
                };
                if !delivered {
                    read.gone = true;
                    return read;
                }
            }
        }
    }

    /// The wait before resuming a stream: what the server asked, bounded.
    fn retry_wait(&self, parser: &SseParser) -> Duration {
        parser
            .retry()
            .unwrap_or(self.limits.default_retry)
            .min(self.limits.max_retry_wait)
    }

    /// Reads the SSE answer of request `id`, resuming the stream with GET and
    /// `Last-Event-ID` each time the server ends it before the answer.
    pub(crate) async fn read_answer_stream(
        &self,
        id: OutgoingId,
        body: Body,
        stateless: bool,
    ) -> Result<(), TransportError> {
        let mut parser = SseParser::new(self.limits.max_event_bytes);
        let mut body = body;
        let mut idle = 0;
        loop {
            let read = self.pump(&mut parser, body, Some(id)).await;
            if read.answered || read.gone {
                return Ok(());
            }
            idle = if read.delivered { 0 } else { idle + 1 };
            let Some(last) = parser.last_event_id().map(str::to_owned) else {
                return Err(TransportError::Http(
                    "the server ended the SSE stream before the response, without an event id to resume it from".into(),
                ));
            };
            if idle > self.limits.max_reconnects {
                return Err(TransportError::Http(format!(
                    "the server ended the SSE stream {idle} times in a row without a message; gave up resuming it"
                )));
            }
            tokio::time::sleep(self.retry_wait(&parser)).await;
            let common = self.common();
            let get = request::get(self.pool.endpoint(), &common, Some(&last))?;
            let response = self.exchange(get, &common, stateless).await?;
            let status = response.status();
            if status != StatusCode::OK || BodyKind::of(&response) != BodyKind::EventStream {
                return Err(TransportError::Http(format!(
                    "resuming the SSE stream after event {last:?}: the server answered HTTP {status}"
                )));
            }
            parser.resume();
            body = response.into_body();
        }
    }

    /// The session's own stream (server requests and notifications outside any request):
    /// opened with GET, reopened (after its last event id, if it had one) when it ends. A
    /// server without one (405, or any other refusal) is left alone. `opened` is dropped once
    /// the server answered the first GET's head (or it could not be sent), so that the caller
    /// can hold back the session's next request until then
    /// ([`HttpLimits::stream_open_wait`](super::HttpLimits) at most): a server then takes the
    /// GET stream before any later request, never racing it (a stream opened in the middle of
    /// a call could be taken for that call's reconnection).
    pub(crate) async fn run_server_stream(self: Arc<Self>, opened: oneshot::Sender<()>) {
        let mut opened = Some(opened);
        let mut parser = SseParser::new(self.limits.max_event_bytes);
        let mut idle = 0;
        loop {
            let common = self.common();
            let Ok(get) = request::get(self.pool.endpoint(), &common, parser.last_event_id())
            else {
                return;
            };
            let answer = self.exchange(get, &common, false).await;
            // Answered (or refused): the session's next request may go.
            drop(opened.take());
            match answer {
                Ok(response) => {
                    if response.status() != StatusCode::OK
                        || BodyKind::of(&response) != BodyKind::EventStream
                    {
                        return;
                    }
                    let read = self.pump(&mut parser, response.into_body(), None).await;
                    if read.gone {
                        return;
                    }
                    idle = if read.delivered { 0 } else { idle + 1 };
                }
                Err(TransportError::SessionExpired) => return,
                Err(_) => idle += 1,
            }
            if idle > self.limits.max_reconnects {
                return;
            }
            tokio::time::sleep(self.retry_wait(&parser)).await;
            parser.resume();
        }
    }
}
