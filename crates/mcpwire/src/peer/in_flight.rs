//! The incoming requests not yet answered, indexed by key and by id (for cancellation).

use std::collections::HashMap;

use super::event::CallKey;
use crate::id::OwnedId;

/// Where a request's reply goes when it belongs to a batch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BatchSlot {
    pub(crate) batch: u64,
    pub(crate) slot: usize,
}

pub(crate) struct InFlight {
    pub(crate) id: OwnedId,
    pub(crate) cancelled: bool,
    /// MCP forbids cancelling `initialize`.
    pub(crate) cancellable: bool,
    pub(crate) batch: Option<BatchSlot>,
}

#[derive(Default)]
pub(crate) struct InFlightTable {
    entries: HashMap<u64, InFlight>,
    by_id: HashMap<OwnedId, Vec<u64>>,
    next_key: u64,
}

impl InFlightTable {
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn insert(&mut self, entry: InFlight) -> CallKey {
        self.next_key = self.next_key.wrapping_add(1);
        let key = self.next_key;
        self.by_id.entry(entry.id.clone()).or_default().push(key);
        self.entries.insert(key, entry);
        CallKey(key)
    }

    pub(crate) fn remove(&mut self, key: CallKey) -> Option<InFlight> {
        let entry = self.entries.remove(&key.0)?;
        if let Some(keys) = self.by_id.get_mut(&entry.id) {
            keys.retain(|&k| k != key.0);
            if keys.is_empty() {
                self.by_id.remove(&entry.id);
            }
        }
        Some(entry)
    }

    /// Marks every cancellable, not yet cancelled request with this id (its JSON text)
    /// cancelled and returns their keys.
    pub(crate) fn cancel(&mut self, id: &OwnedId) -> Vec<CallKey> {
        let Some(keys) = self.by_id.get(id) else {
            return Vec::new();
        };
        let mut cancelled = Vec::new();
        for &key in keys {
            if let Some(entry) = self.entries.get_mut(&key)
                && entry.cancellable
                && !entry.cancelled
            {
                entry.cancelled = true;
                cancelled.push(CallKey(key));
            }
        }
        cancelled
    }

    pub(crate) fn batch_of(&self, key: CallKey) -> Option<BatchSlot> {
        self.entries.get(&key.0).and_then(|e| e.batch)
    }

    pub(crate) fn is_cancelled(&self, key: CallKey) -> bool {
        self.entries.get(&key.0).is_some_and(|e| e.cancelled)
    }
}
