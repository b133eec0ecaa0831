//! One POST exchange: the handler runs on its own task in a session, and inside the
//! exchange's future in stateless mode, where it ends (its future dropped) when the client
//! leaves. The answer is a single JSON body when the handler returns before sending anything
//! else, and an SSE stream (the frames it sent, then the reply, then the end of the stream)
//! as soon as it sends a frame first.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::Bytes;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::task::JoinHandle;

use super::FrameReceiver;
use super::handler::{HandlerReply, Outbound, SessionHandler};
use super::race::{First, race};
use super::response::{HttpResponse, event_stream, sse_event};
use super::resumable::{self, Resume};
use crate::service::catch::CatchUnwind;

/// How an exchange ended up.
pub(crate) enum Outcome {
    /// The handler returned without streaming: its reply (`None`: nothing to answer).
    Reply(Option<HandlerReply>),
    /// The handler streamed: the SSE response, already being fed.
    Streaming(HttpResponse),
    /// The handler panicked before streaming.
    Failed,
}

/// SSE events queued between the forwarder and the connection.
pub(crate) const EVENT_QUEUE: usize = 4;

/// What becomes of the handler when the client leaves before its answer is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WhenClientLeaves {
    /// The handler runs on (sessions: "Disconnection SHOULD NOT be interpreted as the client
    /// cancelling its request"); only its [`Outbound`] closes.
    RunOn,
    /// The handler's future is dropped (stateless mode, MCP 2026-07-28: closing the response
    /// stream is how a client cancels).
    Abort,
}

/// The handler of one exchange, running: on a task of its own, which runs on when the
/// client leaves ([`WhenClientLeaves::RunOn`]), or inside the exchange's own future, dropped
/// with it ([`WhenClientLeaves::Abort`]: no task to spawn, and none to abort).
pub(crate) enum HandlerTask {
    /// On a task of its own.
    Spawned(JoinHandle<Option<HandlerReply>>),
    /// Polled by whoever holds it; a panic in it becomes [`Failed`].
    Inline(CatchUnwind<Option<HandlerReply>>),
}

/// The handler panicked before it returned a reply.
#[derive(Debug)]
pub(crate) struct Failed;

impl Future for HandlerTask {
    type Output = Result<Option<HandlerReply>, Failed>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            HandlerTask::Spawned(task) => {
                Pin::new(task).poll(cx).map(|done| done.map_err(|_| Failed))
            }
            HandlerTask::Inline(running) => {
                Pin::new(running).poll(cx).map(|done| done.ok_or(Failed))
            }
        }
    }
}

/// Runs `handler` on `frame`. `stream_capacity` is the outbound queue length, `None` when the
/// client cannot take a stream (its outbound is closed from the start). When this future is
/// dropped before the handler returns (the client hung up), or the client leaves the SSE
/// stream, `when_client_leaves` decides whether the handler runs on. With `resume` the stream
/// is resumable (see [`resumable`]), and the handler may close its connection early. The
/// handler's [`Outbound`] names `caller`, the POST's own, and carries `split`, the
/// endpoint's scan of `frame`.
///
/// A session's handler task is spawned at once (callers await the exchange right away); a
/// stateless one's future is boxed here and polled by the returned future. Either way the
/// arguments it takes are handed to it here: the returned future keeps only what it waits
/// on (an `async fn` would keep every argument twice, and that state sizes every POST's
/// future).
pub(crate) fn run<H: SessionHandler>(
    handler: Arc<H>,
    frame: Bytes,
    split: Option<Box<crate::split::FrameSplit>>,
    stream_capacity: Option<usize>,
    when_client_leaves: WhenClientLeaves,
    resume: Option<Resume>,
    caller: Option<super::Caller>,
) -> impl Future<Output = Outcome> {
    let close = resume
        .as_ref()
        .map(|_| Arc::new(tokio::sync::Notify::new()));
    let (outbound, frames) = match stream_capacity {
        Some(capacity) => {
            let (outbound, frames) = Outbound::channel(capacity);
            (outbound.closable(close.clone()), Some(frames))
        }
        None => (Outbound::closed(), None),
    };
    let outbound = outbound.answering(caller).reading(split);
    let handle = async move { handler.handle_reply(frame, outbound).await };
    let task = match when_client_leaves {
        WhenClientLeaves::RunOn => HandlerTask::Spawned(tokio::spawn(handle)),
        WhenClientLeaves::Abort => HandlerTask::Inline(CatchUnwind::new(Box::pin(handle))),
    };
    serve(task, frames, resume.zip(close))
}

/// Waits for the handler's task: its reply, or its frames streamed.
async fn serve(
    mut task: HandlerTask,
    frames: Option<FrameReceiver>,
    resume: Option<(Resume, Arc<tokio::sync::Notify>)>,
) -> Outcome {
    let Some(mut frames) = frames else {
        return finished(task.await);
    };
    if let Some((resume, close)) = resume {
        // Boxed: only with an event store; inline, it would size every exchange's future.
        return Box::pin(resumable::run(resume, frames, task, close)).await;
    }
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

pub(crate) fn finished(done: Result<Option<HandlerReply>, Failed>) -> Outcome {
    match done {
        Ok(reply) => Outcome::Reply(reply),
        Err(_) => Outcome::Failed,
    }
}

/// Starts the SSE stream of an exchange whose handler sent `first` and is still running.
fn stream(first: Bytes, frames: FrameReceiver, task: HandlerTask) -> HttpResponse {
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
    mut frames: FrameReceiver,
    reply: Option<HandlerReply>,
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

async fn send_reply(reply: Option<HandlerReply>, sender: &mpsc::Sender<Bytes>) -> Result<(), ()> {
    match reply {
        Some(answer) => sender.send(sse_event(&answer.reply)).await.map_err(drop),
        None => Ok(()),
    }
}
