//! Resumable SSE streams of a session (Streamable HTTP 2025-03-26 to 2025-11-25): every
//! event of a POST's stream is stored in the [`EventStore`] and sent with its id; the stream
//! opens with a priming event (an id, a `retry` hint, empty data) under 2025-11-25; the
//! server may close the connection early ([`Outbound::close_connection`]) while the handler
//! runs on; a GET with `Last-Event-ID` replays what followed that event on its stream and
//! then carries the stream on to its end.
//!
//! The session's own GET stream is resumable the same way: its unsolicited frames are stored
//! in a stream of its own and sent with their ids; a GET whose `Last-Event-ID` names an event
//! of it replays what followed and carries the stream on with the frames that come next.
//!
//! One writer per stream puts the handler's frames, then its reply, into the store; the
//! connection is fed by a reader of the store. A reconnection is only another reader.
//!
//! [`Outbound::close_connection`]: super::Outbound::close_connection

use std::sync::Arc;
use std::time::Duration;

use hyper::StatusCode;
use hyper::body::Bytes;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{Notify, mpsc, watch};

use super::FrameReceiver;
use super::event_store::{EventId, EventStore, StreamId};
use super::exchange::{EVENT_QUEUE, Failed, HandlerTask, Outcome, finished};
use super::handler::HandlerReply;
use super::race::{First, race};
use super::response::{HttpResponse, event_stream, sse_event};
use super::session_id::SessionId;
use super::sessions::{GetStream, Unsolicited};

/// What makes a session's POST streams resumable.
#[derive(Clone)]
pub(crate) struct Resume {
    pub(crate) store: Arc<dyn EventStore>,
    pub(crate) session: SessionId,
    /// The `retry` of the priming event; `None`: no priming event (before 2025-11-25, whose
    /// clients may not expect an event without data).
    pub(crate) priming: Option<Duration>,
}

/// The exchange of one POST whose stream is resumable: like [`super::exchange::run`], the
/// answer is JSON when the handler returns before sending anything (and before asking to
/// close the connection); otherwise a stored, resumable SSE stream.
pub(crate) async fn run(
    resume: Resume,
    mut frames: FrameReceiver,
    mut task: HandlerTask,
    close: Arc<Notify>,
) -> Outcome {
    let first = race(frames.recv(), &mut task).await;
    let (first, done) = match first {
        First::Left(Some(frame)) => (frame, None),
        // Every sender is gone without a frame: the reply decides.
        First::Left(None) => return finished(task.await),
        First::Right(done) => match frames.try_recv() {
            Ok(frame) => (frame, Some(done)),
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => return finished(done),
        },
    };
    // An empty frame asks to close the connection: before anything else, at once.
    let closed = first.is_empty();
    let first = (!closed).then_some(first);
    let Ok(stream) = StreamId::generate() else {
        return finished(task.await);
    };
    if resume.store.open(&resume.session, &stream).await.is_err() {
        return finished(task.await);
    }
    let writer = Writer {
        store: Arc::clone(&resume.store),
        stream: stream.clone(),
        close: Arc::clone(&close),
    };
    tokio::spawn(writer.write(first, frames, task, done));
    let (sender, events) = mpsc::channel(EVENT_QUEUE);
    let reader = Reader {
        store: resume.store,
        session: resume.session,
        stream,
        after: 0,
    };
    let close = if closed { Close::Now } else { Close::On(close) };
    tokio::spawn(reader.read(sender, resume.priming, close));
    Outcome::Streaming(event_stream(events))
}

/// A GET with `Last-Event-ID`: the events of that event's stream after it, then the rest of
/// the stream as it is written. Refused (`Err`, a message for a 400) when the id names no
/// stream of this session, or events after it were dropped.
pub(crate) async fn resume(
    store: Arc<dyn EventStore>,
    session: SessionId,
    last_event_id: &str,
) -> Result<HttpResponse, String> {
    let id = EventId::parse(last_event_id).ok_or_else(|| {
        format!("Last-Event-ID {last_event_id:?} is not an event id of this server")
    })?;
    // Checked before the stream is answered: a foreign or forgotten id is a 400, not an
    // empty stream. The check waits for nothing (a finished stream or its events answer).
    let probe = tokio::time::timeout(
        Duration::ZERO,
        store.read_after(&session, &id.stream, id.sequence),
    )
    .await;
    if let Ok(Err(error)) = probe {
        return Err(format!(
            "cannot resume from Last-Event-ID {last_event_id:?}: {error}"
        ));
    }
    let (sender, events) = mpsc::channel(EVENT_QUEUE);
    let reader = Reader {
        store,
        session,
        stream: id.stream,
        after: id.sequence,
    };
    tokio::spawn(reader.read(sender, None, Close::Never));
    Ok(event_stream(events))
}

/// The session's GET stream with an event store: a fresh stored stream that carries the
/// session's unsolicited frames (from `receiver`), each sent with its id, while the client
/// stays. The stream it supersedes is finished (it carries nothing more). `Err` gives the
/// receiver back when the store cannot open the stream.
pub(crate) async fn open_get_stream(
    resume: Resume,
    slot: Unsolicited,
    receiver: FrameReceiver,
    ended: watch::Receiver<()>,
) -> Result<HttpResponse, FrameReceiver> {
    let Ok(stream) = StreamId::generate() else {
        return Err(receiver);
    };
    if resume.store.open(&resume.session, &stream).await.is_err() {
        return Err(receiver);
    }
    let superseded = lock(&slot).stored.replace(stream.clone());
    if let Some(superseded) = superseded {
        resume.store.finish(&superseded).await;
    }
    let at = EventId {
        stream,
        sequence: 0,
    };
    Ok(carry_get_stream(resume, at, slot, receiver, ended))
}

/// A GET with `Last-Event-ID` naming an event of the session's GET stream: the events after
/// it, then the unsolicited frames as they come, on the same stream. `None` when the id names
/// no GET stream of the session ([`resume`] serves the streams of POSTs); `Some(Err)`, a
/// message for a 409, when the GET stream is open on another connection, or for a 400, when
/// the events after the id were dropped.
pub(crate) async fn resume_get_stream(
    resume: Resume,
    slot: Unsolicited,
    ended: watch::Receiver<()>,
    last_event_id: &str,
) -> Option<Result<HttpResponse, (StatusCode, String)>> {
    let id = EventId::parse(last_event_id)?;
    if lock(&slot).stored.as_ref() != Some(&id.stream) {
        return None;
    }
    let probe = tokio::time::timeout(
        Duration::ZERO,
        resume
            .store
            .read_after(&resume.session, &id.stream, id.sequence),
    )
    .await;
    if let Ok(Err(error)) = probe {
        let why = format!("cannot resume from Last-Event-ID {last_event_id:?}: {error}");
        return Some(Err((StatusCode::BAD_REQUEST, why)));
    }
    let taken = {
        let mut get = lock(&slot);
        // Checked again under the lock: a plain GET may have replaced the stream meanwhile.
        (get.stored.as_ref() == Some(&id.stream))
            .then(|| get.receiver.take())
            .flatten()
    };
    let Some(receiver) = taken else {
        let why = "this session's GET stream is open on another connection".to_owned();
        return Some(Err((StatusCode::CONFLICT, why)));
    };
    let resume = Resume {
        priming: None,
        ..resume
    };
    Some(Ok(carry_get_stream(resume, id, slot, receiver, ended)))
}

fn lock(slot: &Unsolicited) -> std::sync::MutexGuard<'_, GetStream> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Feeds the connection from the GET stream's stored stream after `at`, while a writer
/// stores the session's unsolicited frames in it.
fn carry_get_stream(
    resume: Resume,
    at: EventId,
    slot: Unsolicited,
    receiver: FrameReceiver,
    ended: watch::Receiver<()>,
) -> HttpResponse {
    let (sender, events) = mpsc::channel(EVENT_QUEUE);
    let writer = GetWriter {
        store: Arc::clone(&resume.store),
        stream: at.stream.clone(),
        slot,
        ended,
        client: sender.clone(),
    };
    tokio::spawn(writer.write(receiver));
    let reader = Reader {
        store: resume.store,
        session: resume.session,
        stream: at.stream,
        after: at.sequence,
    };
    tokio::spawn(reader.read(sender, resume.priming, Close::Never));
    event_stream(events)
}

/// Puts the session's unsolicited frames into its GET stream's stored stream while the
/// client is connected; then gives the receiver back to the session, for the next GET.
struct GetWriter {
    store: Arc<dyn EventStore>,
    stream: StreamId,
    slot: Unsolicited,
    ended: watch::Receiver<()>,
    /// The connection's events: closed when the client leaves.
    client: mpsc::Sender<Bytes>,
}

impl GetWriter {
    async fn write(mut self, mut receiver: FrameReceiver) {
        loop {
            let next = race(
                race(receiver.recv(), self.ended.changed()),
                self.client.closed(),
            )
            .await;
            match next {
                // A store that refuses loses the frame, as on a POST's stream.
                First::Left(First::Left(Some(frame))) => {
                    let _ = self.store.append(&self.stream, frame).await;
                }
                // The handler dropped its sender, or the session ended: the stream ends.
                First::Left(First::Left(None)) | First::Left(First::Right(_)) => {
                    self.store.finish(&self.stream).await;
                    return;
                }
                First::Right(()) => break,
            }
        }
        lock(&self.slot).receiver = Some(receiver);
    }
}

/// Puts one stream's frames into the store.
struct Writer {
    store: Arc<dyn EventStore>,
    stream: StreamId,
    /// Told when the handler asks to close the connection, once the frames before are stored.
    close: Arc<Notify>,
}

impl Writer {
    /// Stores `first`, the handler's frames until it returns (`done` when it already has),
    /// what is queued then, and the reply; then marks the stream finished.
    async fn write(
        self,
        first: Option<Bytes>,
        mut frames: FrameReceiver,
        mut task: HandlerTask,
        done: Option<Result<Option<HandlerReply>, Failed>>,
    ) {
        if let Some(frame) = first {
            self.put(frame).await;
        }
        let done = match done {
            Some(done) => done,
            None => loop {
                match race(frames.recv(), &mut task).await {
                    First::Left(Some(frame)) => self.put(frame).await,
                    First::Left(None) => break (&mut task).await,
                    First::Right(done) => break done,
                }
            },
        };
        // Outbound clones kept by the handler's own tasks may still send; the reply ends the
        // stream, so only what is queued now precedes it.
        while let Ok(frame) = frames.try_recv() {
            self.put(frame).await;
        }
        if let Ok(Some(answer)) = done {
            self.put(answer.reply).await;
        }
        self.store.finish(&self.stream).await;
    }

    async fn put(&self, frame: Bytes) {
        if frame.is_empty() {
            self.close.notify_one();
            return;
        }
        // A store that refuses loses the event for a reconnection; the live reader of a
        // store that lost it cannot send it either, and ends at the gap.
        let _ = self.store.append(&self.stream, frame).await;
    }
}

/// When a reader's connection closes before its stream ends.
enum Close {
    /// Never: it carries the stream to its end (or until the client leaves).
    Never,
    /// At once (the handler asked before sending anything).
    Now,
    /// When the handler asks.
    On(Arc<Notify>),
}

/// Feeds one connection from the store.
struct Reader {
    store: Arc<dyn EventStore>,
    session: SessionId,
    stream: StreamId,
    after: u64,
}

impl Reader {
    /// Sends the priming event (with `priming` as its `retry`), then every event after
    /// `self.after` as it is stored, until the stream is finished, the client leaves, or
    /// `close` says (the server closes the connection; the client resumes with the last id
    /// it saw).
    async fn read(mut self, sender: mpsc::Sender<Bytes>, priming: Option<Duration>, close: Close) {
        if let Some(retry) = priming {
            let id = EventId {
                stream: self.stream.clone(),
                sequence: self.after,
            };
            let event = format!("id: {id}\nretry: {}\ndata: \n\n", retry.as_millis());
            if sender.send(Bytes::from(event)).await.is_err() {
                return;
            }
        }
        let closed = match close {
            Close::Never => {
                self.forward(&sender).await;
                false
            }
            // Closed before the first event: the priming event is all this connection gets.
            Close::Now => true,
            Close::On(close) => {
                let closed = matches!(
                    race(self.forward(&sender), close.notified()).await,
                    First::Right(())
                );
                if closed {
                    // What was stored before the request to close still goes on this
                    // connection: one read of what is there now, without waiting (a store
                    // that cannot answer at once leaves it to the reconnection).
                    let read = self
                        .store
                        .read_after(&self.session, &self.stream, self.after);
                    if let Ok(Ok(stored)) = tokio::time::timeout(Duration::ZERO, read).await {
                        self.send(&sender, stored.events).await;
                    }
                }
                closed
            }
        };
        if let (true, Some(retry)) = (closed, priming) {
            // The stream is not over: a `retry` field before the connection closes says when
            // to reconnect.
            let _ = sender
                .send(Bytes::from(format!("retry: {}\n\n", retry.as_millis())))
                .await;
        }
    }

    /// Sends `events` with their ids; `false` when the client left.
    async fn send(&mut self, sender: &mpsc::Sender<Bytes>, events: Vec<(u64, Bytes)>) -> bool {
        for (sequence, frame) in events {
            let id = EventId {
                stream: self.stream.clone(),
                sequence,
            };
            let mut event = format!("id: {id}\n").into_bytes();
            event.extend_from_slice(&sse_event(&frame));
            if sender.send(Bytes::from(event)).await.is_err() {
                return false;
            }
            self.after = sequence;
        }
        true
    }

    /// Sends the stored events as they come until the stream is finished, the client leaves,
    /// or the store cannot serve the stream (a gap: the connection ends).
    async fn forward(&mut self, sender: &mpsc::Sender<Bytes>) {
        loop {
            let read = self
                .store
                .read_after(&self.session, &self.stream, self.after);
            let Ok(stored) = (match race(read, sender.closed()).await {
                First::Left(read) => read,
                First::Right(()) => return,
            }) else {
                return;
            };
            if !self.send(sender, stored.events).await {
                return;
            }
            if stored.finished {
                return;
            }
        }
    }
}
