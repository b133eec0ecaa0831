//! One POST exchange: the handler runs on its own task; the answer is a single JSON body when
//! the handler returns before sending anything else, and an SSE stream (the frames it sent,
//! then the reply, then the end of the stream) as soon as it sends a frame first.

use std::sync::Arc;

use hyper::body::Bytes;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::task::JoinHandle;

use super::handler::{Outbound, SessionHandler};
use super::race::{First, race};
use super::response::{HttpResponse, Keep, event_stream, sse_event};

/// How an exchange ended up.
pub(crate) enum Outcome {
    /// The handler returned without streaming: its reply (`None`: nothing to answer).
    Reply(Option<Bytes>),
    /// The handler streamed: the SSE response, already being fed.
    Streaming(HttpResponse),
    /// The handler panicked before streaming.
    Failed,
}

/// SSE events queued between the forwarder and the connection.
const EVENT_QUEUE: usize = 4;

/// Runs `handler` on `frame`. `stream_capacity` is the outbound queue length, `None` when the
/// client cannot take a stream (its outbound is closed from the start). `held` (the body's
/// share of the in-flight budget) is released when the handler returns, not when the client
/// has read the answer, so a client that reads slowly holds no budget.
pub(crate) async fn run<H: SessionHandler>(
    handler: Arc<H>,
    frame: Bytes,
    stream_capacity: Option<usize>,
    held: Keep,
) -> Outcome {
    let (outbound, frames) = match stream_capacity {
        Some(capacity) => {
            let (outbound, frames) = Outbound::channel(capacity);
            (outbound, Some(frames))
        }
        None => (Outbound::closed(), None),
    };
    let mut task = tokio::spawn(async move {
        let reply = handler.handle(frame, outbound).await;
        drop(held);
        reply
    });
    let Some(mut frames) = frames else {
        return finished(task.await);
    };
    let first = race(frames.recv(), &mut task).await;
    match first {
        First::Left(Some(frame)) => Outcome::Streaming(stream(frame, frames, task)),
        // Every sender is gone without a frame: the reply decides.
        First::Left(None) => finished(task.await),
        First::Right(done) => match frames.try_recv() {
            // Frames sent just before returning still precede the reply.
            Ok(frame) => {
                let (sender, events) = mpsc::channel(EVENT_QUEUE);
                tokio::spawn(async move {
                    let _ = forward_rest(frame, frames, done.ok().flatten(), &sender).await;
                });
                Outcome::Streaming(event_stream(events))
            }
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => finished(done),
        },
    }
}

fn finished(done: Result<Option<Bytes>, tokio::task::JoinError>) -> Outcome {
    match done {
        Ok(reply) => Outcome::Reply(reply),
        Err(_) => Outcome::Failed,
    }
}

/// Starts the SSE stream of an exchange whose handler sent `first` and is still running.
fn stream(
    first: Bytes,
    frames: mpsc::Receiver<Bytes>,
    task: JoinHandle<Option<Bytes>>,
) -> HttpResponse {
    let (sender, events) = mpsc::channel(EVENT_QUEUE);
    tokio::spawn(async move {
        let mut frames = frames;
        let mut task = task;
        if sender.send(sse_event(&first)).await.is_err() {
            return;
        }
        // Forward frames until the handler returns or the client leaves.
        let done = loop {
            let next = race(race(frames.recv(), &mut task), sender.closed()).await;
            match next {
                First::Left(First::Left(Some(frame))) => {
                    if sender.send(sse_event(&frame)).await.is_err() {
                        return;
                    }
                }
                First::Left(First::Left(None)) => break (&mut task).await,
                First::Left(First::Right(done)) => break done,
                First::Right(()) => return,
            }
        };
        let Ok(frame) = frames.try_recv() else {
            let _ = send_reply(done.ok().flatten(), &sender).await;
            return;
        };
        let _ = forward_rest(frame, frames, done.ok().flatten(), &sender).await;
    });
    event_stream(events)
}

/// After the handler returned: `first` and whatever else is queued, then the reply. The
/// stream ends when this returns (the sender is dropped).
async fn forward_rest(
    first: Bytes,
    mut frames: mpsc::Receiver<Bytes>,
    reply: Option<Bytes>,
    sender: &mpsc::Sender<Bytes>,
) -> Result<(), ()> {
    sender.send(sse_event(&first)).await.map_err(drop)?;
    // Outbound clones kept by the handler's own tasks may still send; the reply closes the
    // stream, so only what is queued now precedes it.
    while let Ok(frame) = frames.try_recv() {
        sender.send(sse_event(&frame)).await.map_err(drop)?;
    }
    send_reply(reply, sender).await
}

async fn send_reply(reply: Option<Bytes>, sender: &mpsc::Sender<Bytes>) -> Result<(), ()> {
    match reply {
        Some(reply) => sender.send(sse_event(&reply)).await.map_err(drop),
        None => Ok(()),
    }
}
