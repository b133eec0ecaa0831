//! Where the events of resumable SSE streams are kept, so that a client whose connection
//! closed (its network failed, or the server closed it early) gets what it missed by
//! reconnecting with `Last-Event-ID`: a trait, with a bounded in-memory store as the default
//! (a store shared by several processes can implement it too).

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use hyper::body::Bytes;
use tokio::sync::Notify;

use super::session_id::SessionId;

/// A boxed future, as the methods of [`EventStore`] return them.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A [`StoreFuture`] of a result that may fail with a [`StoreError`].
pub type StoreResult<'a, T> = StoreFuture<'a, Result<T, StoreError>>;

/// One resumable SSE stream: 32 hex digits of 128 random bits, unique across processes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StreamId(String);

impl StreamId {
    /// A fresh stream id; fails only when the operating system has no random source.
    pub fn generate() -> Result<StreamId, getrandom::Error> {
        SessionId::generate().map(|id| StreamId(id.as_str().to_owned()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An SSE event id: the stream and the event's sequence number in it (`0` is the stream's
/// priming event, before every stored event). Spelled `{stream}-{sequence}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventId {
    /// The stream the event belongs to.
    pub stream: StreamId,
    /// Its sequence number in the stream (stored events count from 1).
    pub sequence: u64,
}

impl EventId {
    /// The id a `Last-Event-ID` header names, when it has the shape of one.
    pub fn parse(text: &str) -> Option<EventId> {
        let (stream, sequence) = text.split_once('-')?;
        let stream = SessionId::parse(stream)?;
        let sequence = sequence.parse().ok()?;
        Some(EventId {
            stream: StreamId(stream.as_str().to_owned()),
            sequence,
        })
    }
}

impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.stream.0, self.sequence)
    }
}

/// What [`EventStore::read_after`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvents {
    /// The events after the one asked for, oldest first, with their sequence numbers.
    pub events: Vec<(u64, Bytes)>,
    /// The stream carries nothing more (its reply is among the events, or it ended without
    /// one).
    pub finished: bool,
}

/// Why a store cannot serve a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// No such stream for this session: never opened, of another session, or forgotten.
    UnknownStream,
    /// Events after the one asked for were dropped (the store's bounds): the client cannot
    /// resume without a gap.
    Evicted,
    /// The store cannot be reached.
    Unavailable(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::UnknownStream => f.write_str("no such stream in this session"),
            StoreError::Evicted => f.write_str("the events after this one are no longer kept"),
            StoreError::Unavailable(why) => write!(f, "the event store is unavailable: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// Keeps the events of resumable SSE streams (see
/// [`HttpConfig::event_store`](super::HttpConfig::event_store)). Every stream belongs to one
/// session; a stream is read only on behalf of the session that owns it, so an event id
/// lets no session read another's events.
pub trait EventStore: std::fmt::Debug + Send + Sync + 'static {
    /// Opens stream `stream` of `session`, with no events yet.
    fn open<'a>(&'a self, session: &'a SessionId, stream: &'a StreamId) -> StoreResult<'a, ()>;

    /// Appends `frame` to `stream`; returns its sequence number (1, 2, ...).
    fn append<'a>(&'a self, stream: &'a StreamId, frame: Bytes) -> StoreResult<'a, u64>;

    /// Records that `stream` carries nothing more.
    fn finish<'a>(&'a self, stream: &'a StreamId) -> StoreFuture<'a, ()>;

    /// The events of `stream` after sequence number `after`, for `session`: waits until there
    /// is at least one, unless the stream is finished. A stream `session` does not own is
    /// [`StoreError::UnknownStream`], exactly as one that does not exist.
    fn read_after<'a>(
        &'a self,
        session: &'a SessionId,
        stream: &'a StreamId,
        after: u64,
    ) -> StoreResult<'a, StoredEvents>;
}

/// The default [`EventStore`]: in memory, bounded by the number of events, their bytes and
/// their age (the oldest go first), and by the number of streams.
#[derive(Debug)]
pub struct MemoryEventStore {
    state: Mutex<State>,
    changed: Notify,
    limits: Limits,
}

#[derive(Debug, Clone, Copy)]
struct Limits {
    max_events: usize,
    max_bytes: usize,
    max_age: Duration,
}

#[derive(Debug, Default)]
struct State {
    streams: HashMap<StreamId, Stream>,
    /// Every stored event, oldest first: when it was stored, its stream, its size.
    log: VecDeque<(Instant, StreamId, usize)>,
    /// Every stream, in the order opened.
    opened: VecDeque<(Instant, StreamId)>,
    bytes: usize,
}

#[derive(Debug)]
struct Stream {
    session: SessionId,
    events: VecDeque<(u64, Bytes)>,
    next: u64,
    /// The highest sequence number dropped by the bounds (0: none).
    dropped_through: u64,
    finished: bool,
}

impl MemoryEventStore {
    /// The default bound on events kept, all streams together.
    pub const DEFAULT_MAX_EVENTS: usize = 1024;
    /// The default bound on the bytes of the events kept.
    pub const DEFAULT_MAX_BYTES: usize = 16 * 1024 * 1024;
    /// The default age after which an event (and a stream) is forgotten.
    pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(5 * 60);

    /// A store keeping at most `max_events` events (at least 1), `max_bytes` bytes of them,
    /// none older than `max_age`; as many streams as events.
    pub fn new(max_events: usize, max_bytes: usize, max_age: Duration) -> Self {
        MemoryEventStore {
            state: Mutex::new(State::default()),
            changed: Notify::new(),
            limits: Limits {
                max_events: max_events.max(1),
                max_bytes,
                max_age,
            },
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The number of events kept now.
    pub fn len(&self) -> usize {
        let mut state = self.lock();
        state.evict(self.limits);
        state.log.len()
    }

    /// Whether no event is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read_now(
        &self,
        session: &SessionId,
        stream: &StreamId,
        after: u64,
    ) -> Result<StoredEvents, StoreError> {
        let mut state = self.lock();
        state.evict(self.limits);
        let found = state
            .streams
            .get(stream)
            .filter(|s| &s.session == session)
            .ok_or(StoreError::UnknownStream)?;
        if after < found.dropped_through || after >= found.next {
            // Before what is kept, or an event that was never sent.
            return Err(if after < found.dropped_through {
                StoreError::Evicted
            } else {
                StoreError::UnknownStream
            });
        }
        let events = found
            .events
            .iter()
            .filter(|(sequence, _)| *sequence > after)
            .cloned()
            .collect();
        Ok(StoredEvents {
            events,
            finished: found.finished,
        })
    }
}

impl Default for MemoryEventStore {
    fn default() -> Self {
        MemoryEventStore::new(
            Self::DEFAULT_MAX_EVENTS,
            Self::DEFAULT_MAX_BYTES,
            Self::DEFAULT_MAX_AGE,
        )
    }
}

impl State {
    /// Drops what the bounds no longer admit: old or surplus events, then streams that are
    /// old or surplus and hold no events.
    fn evict(&mut self, limits: Limits) {
        let now = Instant::now();
        while let Some((at, _, _)) = self.log.front() {
            let over = self.log.len() > limits.max_events
                || self.bytes > limits.max_bytes
                || now.duration_since(*at) > limits.max_age;
            if !over {
                break;
            }
            let Some((_, stream, size)) = self.log.pop_front() else {
                break;
            };
            self.bytes = self.bytes.saturating_sub(size);
            if let Some(stream) = self.streams.get_mut(&stream)
                && let Some((sequence, _)) = stream.events.pop_front()
            {
                stream.dropped_through = sequence;
            }
        }
        // A stream still being written is kept past its age (its handler still runs), unless
        // there are too many streams.
        while let Some((at, id)) = self.opened.front() {
            let stream = self.streams.get(id);
            let empty = stream.is_none_or(|s| s.events.is_empty());
            let done = stream.is_none_or(|s| s.finished);
            let over = self.opened.len() > limits.max_events
                || (done && now.duration_since(*at) > limits.max_age);
            if !(over && empty) {
                break;
            }
            if let Some((_, id)) = self.opened.pop_front() {
                self.streams.remove(&id);
            }
        }
    }
}

impl EventStore for MemoryEventStore {
    fn open<'a>(&'a self, session: &'a SessionId, stream: &'a StreamId) -> StoreResult<'a, ()> {
        Box::pin(async move {
            let mut state = self.lock();
            state.opened.push_back((Instant::now(), stream.clone()));
            state.streams.insert(
                stream.clone(),
                Stream {
                    session: session.clone(),
                    events: VecDeque::new(),
                    next: 1,
                    dropped_through: 0,
                    finished: false,
                },
            );
            state.evict(self.limits);
            Ok(())
        })
    }

    fn append<'a>(&'a self, stream: &'a StreamId, frame: Bytes) -> StoreResult<'a, u64> {
        Box::pin(async move {
            let sequence = {
                let mut state = self.lock();
                let size = frame.len();
                let found = state
                    .streams
                    .get_mut(stream)
                    .ok_or(StoreError::UnknownStream)?;
                let sequence = found.next;
                found.next += 1;
                found.events.push_back((sequence, frame));
                state.log.push_back((Instant::now(), stream.clone(), size));
                state.bytes += size;
                state.evict(self.limits);
                sequence
            };
            self.changed.notify_waiters();
            Ok(sequence)
        })
    }

    fn finish<'a>(&'a self, stream: &'a StreamId) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if let Some(found) = self.lock().streams.get_mut(stream) {
                found.finished = true;
            }
            self.changed.notify_waiters();
        })
    }

    fn read_after<'a>(
        &'a self,
        session: &'a SessionId,
        stream: &'a StreamId,
        after: u64,
    ) -> StoreResult<'a, StoredEvents> {
        Box::pin(async move {
            loop {
                // Registered before looking, so that an append in between wakes this reader.
                let changed = self.changed.notified();
                let mut changed = std::pin::pin!(changed);
                changed.as_mut().enable();
                let found = self.read_now(session, stream, after)?;
                if !found.events.is_empty() || found.finished {
                    return Ok(found);
                }
                changed.await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids() -> (SessionId, StreamId) {
        (
            SessionId::generate().unwrap(),
            StreamId::generate().unwrap(),
        )
    }

    #[tokio::test]
    async fn events_are_read_after_a_sequence_number_by_their_session_only() {
        let store = MemoryEventStore::default();
        let (session, stream) = ids();
        store.open(&session, &stream).await.unwrap();
        assert_eq!(store.append(&stream, Bytes::from("a")).await, Ok(1));
        assert_eq!(store.append(&stream, Bytes::from("b")).await, Ok(2));
        let read = store.read_after(&session, &stream, 1).await.unwrap();
        assert_eq!(read.events, vec![(2, Bytes::from("b"))]);
        assert!(!read.finished);
        let other = SessionId::generate().unwrap();
        assert_eq!(
            store.read_after(&other, &stream, 0).await,
            Err(StoreError::UnknownStream)
        );
        assert_eq!(
            store.read_after(&session, &stream, 7).await,
            Err(StoreError::UnknownStream),
            "an event never sent"
        );
        store.finish(&stream).await;
        let rest = store.read_after(&session, &stream, 2).await.unwrap();
        assert!(rest.events.is_empty() && rest.finished);
    }

    #[tokio::test]
    async fn the_bounds_drop_the_oldest_events_and_a_reader_behind_them_is_told() {
        let store = MemoryEventStore::new(2, usize::MAX, Duration::from_secs(60));
        let (session, stream) = ids();
        store.open(&session, &stream).await.unwrap();
        for frame in ["a", "b", "c"] {
            store.append(&stream, Bytes::from(frame)).await.unwrap();
        }
        assert_eq!(store.len(), 2);
        assert_eq!(
            store.read_after(&session, &stream, 0).await,
            Err(StoreError::Evicted)
        );
        let kept = store.read_after(&session, &stream, 1).await.unwrap();
        assert_eq!(kept.events.len(), 2);
        let aged = MemoryEventStore::new(10, usize::MAX, Duration::ZERO);
        aged.open(&session, &stream).await.unwrap();
        aged.append(&stream, Bytes::from("x")).await.unwrap();
        std::thread::sleep(Duration::from_millis(2));
        assert!(aged.is_empty());
    }

    #[tokio::test]
    async fn a_reader_waits_for_the_next_event() {
        let store = std::sync::Arc::new(MemoryEventStore::default());
        let (session, stream) = ids();
        store.open(&session, &stream).await.unwrap();
        let reader = {
            let (store, session, stream) = (store.clone(), session.clone(), stream.clone());
            tokio::spawn(async move { store.read_after(&session, &stream, 0).await })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        store.append(&stream, Bytes::from("late")).await.unwrap();
        let read = reader.await.unwrap().unwrap();
        assert_eq!(read.events, vec![(1, Bytes::from("late"))]);
    }

    #[test]
    fn event_ids_round_trip_and_refuse_other_shapes() {
        let id = EventId {
            stream: StreamId::generate().unwrap(),
            sequence: 42,
        };
        assert_eq!(EventId::parse(&id.to_string()), Some(id));
        assert_eq!(EventId::parse("abc-1"), None);
        assert_eq!(EventId::parse("42"), None);
    }
}
