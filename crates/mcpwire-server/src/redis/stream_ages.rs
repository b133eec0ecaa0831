//! [`StreamAges`]: when each event of the streams this process writes was stored, so that
//! the events older than the age bound leave Redis while their stream is still being written.
//! Entry ids are `0-{sequence}` (a reader elsewhere asks for what follows a sequence number),
//! so Redis cannot trim by time on its own; the writer knows the times and names the first
//! entry to keep (`XTRIM MINID`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

/// How often, at most, the streams not written for longer than the age are forgotten here
/// (Redis expires their keys by itself).
const SWEEP_EVERY_MS: u64 = 1000;

/// The storage times of the events of the streams this process writes, per stream at most
/// the per-stream bound, and none older than the age bound: memory stays bounded.
#[derive(Debug)]
pub(crate) struct StreamAges {
    max_events: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Per stream, `(sequence, stored at in ms)` of its events still young, oldest first.
    streams: HashMap<String, VecDeque<(u64, u64)>>,
    swept_at: u64,
}

impl StreamAges {
    /// Keeps the times of at most `max_events` events per stream.
    pub(crate) fn new(max_events: usize) -> Self {
        StreamAges {
            max_events: max_events.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Records that event `sequence` of `stream` was stored at `now` (ms since the epoch);
    /// returns the first sequence number to keep when some of the stream's events were
    /// stored before `oldest` (their entries must go), `None` when none was.
    pub(crate) fn stored(&self, stream: &str, sequence: u64, now: u64, oldest: u64) -> Option<u64> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if now.saturating_sub(inner.swept_at) >= SWEEP_EVERY_MS {
            inner.swept_at = now;
            inner
                .streams
                .retain(|_, times| times.back().is_some_and(|(_, at)| *at >= oldest));
        }
        let times = inner.streams.entry(stream.to_owned()).or_default();
        times.push_back((sequence, now));
        let mut expired = false;
        while times.front().is_some_and(|(_, at)| *at < oldest) {
            times.pop_front();
            expired = true;
        }
        // Beyond the count bound, `XADD MAXLEN` trims them.
        while times.len() > self.max_events {
            times.pop_front();
        }
        if expired {
            times.front().map(|(sequence, _)| *sequence)
        } else {
            None
        }
    }

    /// Forgets `stream` (it carries nothing more: its keys expire with their age).
    pub(crate) fn forget(&self, stream: &str) {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .streams
            .remove(stream);
    }

    /// How many streams are remembered.
    #[cfg(test)]
    fn streams(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .streams
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_young_event_is_named_once_older_ones_expire() {
        let ages = StreamAges::new(100);
        // Events 1..=3 at 0, 500, 1000 ms; the age bound is 1000 ms.
        assert_eq!(ages.stored("s", 1, 0, 0), None);
        assert_eq!(ages.stored("s", 2, 500, 0), None);
        assert_eq!(ages.stored("s", 3, 1000, 0), None);
        // At 1600 ms, 1 and 2 (stored before 600) are too old: keep from 3.
        assert_eq!(ages.stored("s", 4, 1600, 600), Some(3));
        // Nothing newly expired: nothing to trim.
        assert_eq!(ages.stored("s", 5, 1700, 700), None);
    }

    #[test]
    fn memory_is_bounded_by_count_and_streams_left_behind_are_forgotten() {
        let ages = StreamAges::new(2);
        for sequence in 1..=10 {
            ages.stored("s", sequence, sequence, 0);
        }
        assert_eq!(ages.inner.lock().unwrap().streams["s"].len(), 2);
        ages.stored("left", 1, 20, 0);
        ages.forget("s");
        assert_eq!(ages.streams(), 1);
        // Long after, another stream's write sweeps the one no longer written.
        ages.stored("new", 1, 10_000, 9_000);
        assert_eq!(ages.streams(), 1);
    }
}
