//! The table of requests this side sent and still waits for: bounded, with optional
//! deadlines.

use std::borrow::Cow;
use std::collections::HashMap;
use std::time::Instant;

use super::event::{AnyResult, OutgoingId, ResultError, SendError};
use super::single_pass::PrefixDecodeFn;

/// Decodes a response's `result` text into the type its request named.
pub(crate) type DecodeFn = fn(&str) -> Result<AnyResult, ResultError>;

/// One request waiting for its response.
pub(crate) struct Pending {
    pub(crate) method: Cow<'static, str>,
    pub(crate) decode: DecodeFn,
    /// The same decode from the start of a longer text (the single-pass path).
    pub(crate) decode_prefix: PrefixDecodeFn,
    pub(crate) deadline: Option<Instant>,
}

/// What a response id names.
pub(crate) enum Lookup {
    /// A pending request (now removed from the table).
    Pending(OutgoingId, Pending),
    /// An id this side allocated that is no longer pending.
    Late(OutgoingId),
    /// Anything else.
    Unknown,
}

pub(crate) struct PendingTable {
    entries: HashMap<u64, Pending>,
    last_allocated: u64,
    max: usize,
}

impl PendingTable {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            entries: HashMap::new(),
            last_allocated: 0,
            max,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn max(&self) -> usize {
        self.max
    }

    pub(crate) fn set_max(&mut self, max: usize) {
        self.max = max;
    }

    /// Allocates the next id for a request; refuses when the table is full.
    pub(crate) fn insert(&mut self, pending: Pending) -> Result<OutgoingId, SendError> {
        if self.entries.len() >= self.max {
            return Err(SendError::TooManyPending { max: self.max });
        }
        // 2^64 - 1 requests cannot be sent in the lifetime of a process; saturate rather
        // than wrap so an id is never reused.
        self.last_allocated = self.last_allocated.saturating_add(1);
        self.entries.insert(self.last_allocated, pending);
        Ok(OutgoingId(self.last_allocated))
    }

    pub(crate) fn remove(&mut self, id: OutgoingId) -> Option<Pending> {
        self.entries.remove(&id.0)
    }

    /// The single-pass decoder of the pending request a response id names, leaving it
    /// pending.
    pub(crate) fn prefix_decoder(&self, raw_id: &str) -> Option<PrefixDecodeFn> {
        let n = allocated_id(raw_id)?;
        self.entries.get(&n).map(|pending| pending.decode_prefix)
    }

    /// Finds (and removes) the pending request a response id names.
    pub(crate) fn take_for_response(&mut self, raw_id: &str) -> Lookup {
        let Some(n) = allocated_id(raw_id).filter(|&n| n <= self.last_allocated) else {
            return Lookup::Unknown;
        };
        match self.entries.remove(&n) {
            Some(pending) => Lookup::Pending(OutgoingId(n), pending),
            None => Lookup::Late(OutgoingId(n)),
        }
    }

    /// Removes and returns the requests whose deadline is at or before `now`, oldest id first.
    pub(crate) fn expire(&mut self, now: Instant) -> Vec<(OutgoingId, Pending)> {
        let mut due: Vec<u64> = self
            .entries
            .iter()
            .filter(|(_, p)| p.deadline.is_some_and(|d| d <= now))
            .map(|(&n, _)| n)
            .collect();
        due.sort_unstable();
        due.into_iter()
            .filter_map(|n| self.entries.remove(&n).map(|p| (OutgoingId(n), p)))
            .collect()
    }

    pub(crate) fn next_deadline(&self) -> Option<Instant> {
        self.entries.values().filter_map(|p| p.deadline).min()
    }
}

/// The number an id this side allocated is written as: digits only, no leading zero, not 0.
/// Any other spelling (`1.0`, `1e0`, `"1"`) names no request of ours.
fn allocated_id(raw: &str) -> Option<u64> {
    let bytes = raw.as_bytes();
    if bytes.is_empty() || bytes[0] == b'0' || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    raw.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_spelling_names_an_allocated_id() {
        assert_eq!(allocated_id("12"), Some(12));
        for other in [
            "0",
            "012",
            "1.0",
            "1e0",
            "\"1\"",
            "-1",
            "",
            "99999999999999999999",
        ] {
            assert_eq!(allocated_id(other), None, "{other}");
        }
    }
}
