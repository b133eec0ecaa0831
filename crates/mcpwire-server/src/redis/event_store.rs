//! [`RedisEventStore`]: an [`EventStore`] whose streams can be resumed at any process
//! connected to the same Redis. Each stream is written by the process that runs its handler:
//! into a [`MemoryEventStore`] (its own readers are served from memory, and keep being served
//! while Redis is away; memory forgets by the same age) and into a Redis Stream, `XADD` with
//! entry id `0-{sequence}` and `MAXLEN ~` the per-stream bound; entries older than the age
//! bound are trimmed (`XTRIM MINID`, exact) as the stream is written, so a long stream holds
//! only its recent events. Another process reading a stream it does not hold reads
//! it with `XRANGE` after the `Last-Event-ID`, checks that it belongs to the session asking,
//! that no event after that id was trimmed, and that none is older than the age bound; it
//! polls for more while the writing process is alive (a heartbeat key it refreshes), and
//! ends the stream when that process is gone.
//!
//! Keys, under the cluster's prefix: `{prefix}:stream:{id}` (the events: fields `d` the
//! frame, `t` when it was stored), `{prefix}:meta:{id}` (hash: `session`, `owner`, `last`,
//! `finished`), `{prefix}:alive:{process}` (expires 3 s after the process's last heartbeat).
//! Every key of a stream expires when its events are older than the age bound. Trimming by
//! `MINID` needs Redis 6.2 or later.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcpwire::http::{
    Bytes, EventStore, MemoryEventStore, SessionId, StoreError, StoreFuture, StoreResult,
    StoredEvents, StreamId,
};
use tokio::sync::watch;

use super::link::Link;
use super::stream_ages::StreamAges;

/// How often a process refreshes its heartbeat key.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// How long a heartbeat key outlives its last refresh: past it, the process counts as gone.
const ALIVE_FOR: Duration = Duration::from_secs(3);
/// How often a reader of another process's stream asks Redis for more.
const POLL: Duration = Duration::from_millis(100);
/// The most events one read returns.
const READ_BATCH: usize = 256;

/// The bounds of the events kept in Redis for each stream.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StreamBounds {
    /// Events kept per stream (trimmed with `MAXLEN ~`: at least this many).
    pub(crate) max_events: usize,
    /// How long an event is kept (trimmed with `XTRIM MINID` as its stream is written, never
    /// served once older), and a stream after its last event.
    pub(crate) max_age: Duration,
}

/// An [`EventStore`] shared through Redis Streams (made by
/// [`RedisCluster::event_store`](super::RedisCluster::event_store)): give it to
/// [`HttpConfig::event_store`](mcpwire::http::HttpConfig::event_store) in every process, and
/// a client whose connection to one process broke resumes with `Last-Event-ID` at any other
/// (session mode: a GET naming the session and the last event id; the session itself stays
/// with its process). Its heartbeat task ends when it is dropped.
#[derive(Debug)]
pub struct RedisEventStore {
    local: MemoryEventStore,
    link: Arc<Link>,
    prefix: String,
    process: String,
    bounds: StreamBounds,
    /// When the events of this process's streams were stored (for trimming by age).
    ages: StreamAges,
    /// Dropped with this value: the heartbeat stops.
    _stop: watch::Sender<()>,
}

impl RedisEventStore {
    /// Starts the heartbeat of `process` (on the current tokio runtime).
    pub(crate) fn start(
        link: Arc<Link>,
        prefix: String,
        process: String,
        bounds: StreamBounds,
    ) -> Self {
        let (stop, stopped) = watch::channel(());
        tokio::spawn(heartbeat(
            Arc::clone(&link),
            alive_key(&prefix, &process),
            stopped,
        ));
        RedisEventStore {
            // Memory forgets by the same age as Redis: a resume is refused alike everywhere.
            local: MemoryEventStore::new(
                MemoryEventStore::DEFAULT_MAX_EVENTS,
                MemoryEventStore::DEFAULT_MAX_BYTES,
                bounds.max_age,
            ),
            link,
            prefix,
            process,
            ages: StreamAges::new(bounds.max_events),
            bounds,
            _stop: stop,
        }
    }

    fn stream_key(&self, stream: &StreamId) -> String {
        format!("{}:stream:{}", self.prefix, stream.as_str())
    }

    fn meta_key(&self, stream: &StreamId) -> String {
        format!("{}:meta:{}", self.prefix, stream.as_str())
    }

    fn age_ms(&self) -> u64 {
        u64::try_from(self.bounds.max_age.as_millis()).unwrap_or(u64::MAX)
    }

    /// Adds to `pipeline` a `PEXPIRE` of each key by the age bound, so a stream nobody
    /// writes any more leaves Redis on its own.
    fn expire<const N: usize>(&self, pipeline: &mut redis::Pipeline, keys: [&String; N]) {
        for key in keys {
            pipeline.cmd("PEXPIRE").arg(key).arg(self.age_ms()).ignore();
        }
    }

    /// Runs `pipeline`, ignoring its result: a write Redis does not take only makes the
    /// stream unresumable elsewhere (a reader elsewhere sees the gap); this process's readers
    /// are served from memory.
    async fn write(&self, pipeline: redis::Pipeline) {
        let _ = self.link.run::<redis::Value>(&pipeline).await;
    }

    /// One read of a stream another process wrote: `Ok(None)` when there is nothing new yet
    /// and its writer is alive.
    async fn read_remote(
        &self,
        session: &SessionId,
        stream: &StreamId,
        after: u64,
    ) -> Result<Option<StoredEvents>, StoreError> {
        let mut pipeline = redis::pipe();
        pipeline
            .cmd("HMGET")
            .arg(self.meta_key(stream))
            .arg(&["session", "owner", "last", "finished"])
            .cmd("XRANGE")
            .arg(self.stream_key(stream))
            .arg(format!("(0-{after}"))
            .arg("+")
            .arg("COUNT")
            .arg(READ_BATCH);
        type Meta = (Option<String>, Option<String>, Option<u64>, Option<String>);
        type Entries = Vec<(String, Vec<Vec<u8>>)>;
        let (meta, entries): (Meta, Entries) = match self.link.run(&pipeline).await {
            Some(Ok(reply)) => reply,
            Some(Err(error)) => return Err(StoreError::Unavailable(error.to_string())),
            None => return Err(StoreError::Unavailable("Redis is not reachable".into())),
        };
        let (owner_session, owner, last, finished) = meta;
        if owner_session.as_deref() != Some(session.as_str()) {
            return Err(StoreError::UnknownStream);
        }
        let last = last.unwrap_or(0);
        if after > last {
            return Err(StoreError::UnknownStream); // an event never sent
        }
        let events = decode(&entries);
        let oldest_allowed = now_ms().saturating_sub(self.age_ms());
        if after < last {
            // The next event must be there, unexpired: otherwise the client cannot resume
            // without a gap.
            match events.first() {
                Some((sequence, at, _)) if *sequence == after + 1 && *at >= oldest_allowed => {}
                _ => return Err(StoreError::Evicted),
            }
        }
        let finished = finished.as_deref() == Some("1");
        if !events.is_empty() || finished {
            return Ok(Some(StoredEvents {
                events: events.into_iter().map(|(s, _, frame)| (s, frame)).collect(),
                finished,
            }));
        }
        // Nothing new: its writer either writes on, or is gone and never will.
        let alive = match owner {
            Some(owner) => {
                let command = redis::cmd("EXISTS")
                    .arg(alive_key(&self.prefix, &owner))
                    .clone();
                matches!(self.link.run::<u64>(&command).await, Some(Ok(1)))
            }
            None => false,
        };
        if alive {
            Ok(None)
        } else {
            Ok(Some(StoredEvents {
                events: Vec::new(),
                finished: true,
            }))
        }
    }
}

/// `(sequence, stored at in ms, frame)` of each entry of an `XRANGE` reply, skipping what
/// does not have that shape.
fn decode(entries: &[(String, Vec<Vec<u8>>)]) -> Vec<(u64, u64, Bytes)> {
    entries
        .iter()
        .filter_map(|(id, fields)| {
            let sequence = id.strip_prefix("0-")?.parse().ok()?;
            let mut frame = None;
            let mut at = None;
            for pair in fields.chunks_exact(2) {
                match pair[0].as_slice() {
                    b"d" => frame = Some(Bytes::from(pair[1].clone())),
                    b"t" => at = std::str::from_utf8(&pair[1]).ok()?.parse().ok(),
                    _ => {}
                }
            }
            Some((sequence, at?, frame?))
        })
        .collect()
}

fn alive_key(prefix: &str, process: &str) -> String {
    format!("{prefix}:alive:{process}")
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// Refreshes `key` every [`HEARTBEAT`] until `stopped` says the store is gone; this also
/// notices (and logs, once) Redis going away and coming back when nothing else is written.
async fn heartbeat(link: Arc<Link>, key: String, mut stopped: watch::Receiver<()>) {
    let alive_ms = u64::try_from(ALIVE_FOR.as_millis()).unwrap_or(u64::MAX);
    loop {
        let command = redis::cmd("SET")
            .arg(&key)
            .arg(1)
            .arg("PX")
            .arg(alive_ms)
            .clone();
        let _ = link.run::<redis::Value>(&command).await;
        tokio::select! {
            _ = stopped.changed() => return,
            () = tokio::time::sleep(HEARTBEAT) => {}
        }
    }
}

impl EventStore for RedisEventStore {
    fn open<'a>(&'a self, session: &'a SessionId, stream: &'a StreamId) -> StoreResult<'a, ()> {
        Box::pin(async move {
            self.local.open(session, stream).await?;
            let meta = self.meta_key(stream);
            let mut pipeline = redis::pipe();
            pipeline
                .cmd("HSET")
                .arg(&meta)
                .arg("session")
                .arg(session.as_str())
                .arg("owner")
                .arg(&self.process)
                .arg("last")
                .arg(0)
                .arg("finished")
                .arg(0)
                .ignore();
            self.expire(&mut pipeline, [&meta]);
            self.write(pipeline).await;
            Ok(())
        })
    }

    fn append<'a>(&'a self, stream: &'a StreamId, frame: Bytes) -> StoreResult<'a, u64> {
        Box::pin(async move {
            let sequence = self.local.append(stream, frame.clone()).await?;
            let (key, meta) = (self.stream_key(stream), self.meta_key(stream));
            let now = now_ms();
            let oldest = now.saturating_sub(self.age_ms());
            let mut pipeline = redis::pipe();
            pipeline
                .cmd("XADD")
                .arg(&key)
                .arg("MAXLEN")
                .arg("~")
                .arg(self.bounds.max_events)
                .arg(format!("0-{sequence}"))
                .arg("d")
                .arg(frame.as_ref())
                .arg("t")
                .arg(now)
                .ignore();
            if let Some(keep) = self.ages.stored(stream.as_str(), sequence, now, oldest) {
                // Exact: only what expired since the last append goes, a few entries.
                pipeline
                    .cmd("XTRIM")
                    .arg(&key)
                    .arg("MINID")
                    .arg(format!("0-{keep}"))
                    .ignore();
            }
            pipeline
                .cmd("HSET")
                .arg(&meta)
                .arg("last")
                .arg(sequence)
                .ignore();
            self.expire(&mut pipeline, [&key, &meta]);
            self.write(pipeline).await;
            Ok(sequence)
        })
    }

    fn finish<'a>(&'a self, stream: &'a StreamId) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.local.finish(stream).await;
            self.ages.forget(stream.as_str());
            let mut pipeline = redis::pipe();
            pipeline
                .cmd("HSET")
                .arg(self.meta_key(stream))
                .arg("finished")
                .arg(1)
                .ignore();
            self.write(pipeline).await;
        })
    }

    fn read_after<'a>(
        &'a self,
        session: &'a SessionId,
        stream: &'a StreamId,
        after: u64,
    ) -> StoreResult<'a, StoredEvents> {
        Box::pin(async move {
            // A stream of this process: from memory (at once, Redis or not).
            let here = self.local.read_after(session, stream, after);
            let mut here = std::pin::pin!(here);
            match tokio::time::timeout(Duration::ZERO, here.as_mut()).await {
                Ok(Err(StoreError::UnknownStream)) => {}
                Ok(found) => return found,
                Err(_waiting) => return here.await,
            }
            // Another process's: from Redis, polling while its writer is alive.
            loop {
                if let Some(found) = self.read_remote(session, stream, after).await? {
                    return Ok(found);
                }
                tokio::time::sleep(POLL).await;
            }
        })
    }
}
