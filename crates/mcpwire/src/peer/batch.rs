//! Collecting the replies of a batch: they go out as one array, in input order, once every
//! request of the batch is answered. Invalid elements are answered while the batch is read;
//! notifications, responses and cancelled requests contribute nothing. A batch with nothing
//! to answer sends nothing.
//!
//! Each batch has a reply budget ([`Limits::max_batch_reply_bytes`](crate::Limits)) for its
//! request replies, counted in the order they are answered: a reply that would take the
//! array past it is replaced by the -32003 error with the request's id, and so is every
//! request reply answered after it. Invalid elements' -32600 replies are short and not
//! counted. The stored replies therefore never exceed the budget plus one short error per
//! element.

use std::collections::HashMap;

use crate::id::OwnedId;
use crate::profile::MissingId;
use crate::reply::{RpcError, write_error};

struct OpenBatch {
    replies: Vec<Option<Vec<u8>>>,
    unanswered: usize,
    /// Bytes the array would have now with only the request replies: `[`, the replies and
    /// their separators.
    bytes: usize,
    budget: usize,
    exhausted: bool,
}

impl OpenBatch {
    /// Stores a request's `reply` at `slot`, counting its bytes. A written reply may keep
    /// room beyond its bytes (up to 4 KiB, `answer.rs`); held until the whole batch is
    /// answered, that room would escape the budget, which counts bytes: it is given back.
    fn store_counted(&mut self, slot: usize, mut reply: Vec<u8>) {
        if let Some(cell) = self.replies.get_mut(slot) {
            reply.shrink_to_fit();
            self.bytes += reply.len() + usize::from(self.bytes > 1);
            *cell = Some(reply);
        }
    }

    /// Whether a reply of `len` bytes still fits the budget (the closing bracket included).
    fn fits(&self, len: usize) -> bool {
        !self.exhausted && self.bytes + usize::from(self.bytes > 1) + len < self.budget
    }
}

#[derive(Default)]
pub(crate) struct Batches {
    open: HashMap<u64, OpenBatch>,
    next_key: u64,
}

impl Batches {
    /// Opens a batch of `len` elements whose reply array may take `budget` bytes.
    pub(crate) fn open(&mut self, len: usize, budget: usize) -> u64 {
        self.next_key = self.next_key.wrapping_add(1);
        let replies = std::iter::repeat_with(|| None).take(len).collect();
        self.open.insert(
            self.next_key,
            OpenBatch {
                replies,
                unanswered: 0,
                bytes: 1,
                budget,
                exhausted: false,
            },
        );
        self.next_key
    }

    /// Whether a request reply of this batch was already refused for the budget (so later
    /// requests are answered -32003 without running their handlers).
    pub(crate) fn is_exhausted(&self, batch: u64) -> bool {
        self.open.get(&batch).is_some_and(|open| open.exhausted)
    }

    /// Records that element `slot` is a request whose reply is still to come.
    pub(crate) fn expect(&mut self, batch: u64) {
        if let Some(open) = self.open.get_mut(&batch) {
            open.unanswered += 1;
        }
    }

    /// Stores an invalid element's reply while the batch is read (short, always kept).
    pub(crate) fn put(&mut self, batch: u64, slot: usize, reply: Vec<u8>) {
        if let Some(cell) = self
            .open
            .get_mut(&batch)
            .and_then(|open| open.replies.get_mut(slot))
        {
            *cell = Some(reply);
        }
    }

    /// After reading: the batch's reply when nothing is left to answer.
    pub(crate) fn close_if_answered(&mut self, batch: u64) -> Option<Vec<u8>> {
        if self.open.get(&batch)?.unanswered > 0 {
            return None;
        }
        self.open
            .remove(&batch)
            .and_then(|open| assemble(open.replies))
    }

    /// Stores the reply of the request `id` (`None` when suppressed), or the -32003 error
    /// when it does not fit the budget; the batch's reply when it was the last.
    pub(crate) fn answer(
        &mut self,
        batch: u64,
        slot: usize,
        id: &OwnedId,
        reply: Option<Vec<u8>>,
    ) -> Option<Vec<u8>> {
        let open = self.open.get_mut(&batch)?;
        if let Some(reply) = reply {
            if open.fits(reply.len()) {
                open.store_counted(slot, reply);
            } else {
                open.exhausted = true;
                let mut error = Vec::new();
                let error_object = RpcError::batch_reply_too_large();
                write_error(
                    &mut error,
                    Some(&id.as_id()),
                    &error_object,
                    MissingId::Null,
                );
                open.store_counted(slot, error);
            }
        }
        open.unanswered = open.unanswered.saturating_sub(1);
        self.close_if_answered(batch)
    }
}

/// The replies as one JSON array, in input order; `None` when there is none.
fn assemble(replies: Vec<Option<Vec<u8>>>) -> Option<Vec<u8>> {
    let total: usize = replies.iter().flatten().map(|r| r.len() + 1).sum();
    if total == 0 {
        return None;
    }
    let mut out = Vec::with_capacity(total + 1);
    out.push(b'[');
    for reply in replies.into_iter().flatten() {
        if out.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(&reply);
    }
    out.push(b']');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(text: &str) -> OwnedId {
        crate::Id::parse(text).unwrap().to_owned_id()
    }

    #[test]
    fn replies_past_the_budget_become_errors_with_their_ids() {
        let mut batches = Batches::default();
        // `[` + 10-byte reply + `,` + 10-byte reply + `]` = 23 bytes: fits a budget of 23, not 22.
        for (budget, fits) in [(23, true), (22, false)] {
            let b = batches.open(3, budget);
            batches.expect(b);
            batches.expect(b);
            batches.expect(b);
            assert_eq!(batches.answer(b, 0, &id("0"), Some(vec![b'a'; 10])), None);
            assert_eq!(batches.answer(b, 1, &id("1"), Some(vec![b'b'; 10])), None);
            assert_eq!(batches.is_exhausted(b), !fits);
            let last = batches.answer(b, 2, &id("2"), Some(b"c".to_vec())).unwrap();
            let last = String::from_utf8(last).unwrap();
            let error = |id: &str| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32003,"message":"Batch reply too large"}}}}"#
                )
            };
            if fits {
                // The third reply no longer fits: it and nothing else is refused.
                assert_eq!(last, format!("[aaaaaaaaaa,bbbbbbbbbb,{}]", error("2")));
            } else {
                // Once exhausted, every later reply is refused, even a short one.
                assert_eq!(last, format!("[aaaaaaaaaa,{},{}]", error("1"), error("2")));
            }
        }
    }

    /// The budget counts bytes: a reply held for its batch keeps no room beyond them, or a
    /// batch of a thousand small calls would hold up to 4 KiB each, uncounted.
    #[test]
    fn a_reply_held_for_its_batch_keeps_no_room_beyond_its_bytes() {
        let mut batches = Batches::default();
        let b = batches.open(2, usize::MAX);
        batches.expect(b);
        batches.expect(b);
        let mut written = Vec::with_capacity(10 + 4096);
        written.extend_from_slice(b"0123456789");
        assert_eq!(batches.answer(b, 0, &id("0"), Some(written)), None);
        let held = batches.open[&b].replies[0].as_ref().unwrap();
        assert_eq!(held.as_slice(), b"0123456789");
        assert!(held.capacity() < 64, "{} bytes held", held.capacity());
    }

    #[test]
    fn replies_keep_input_order_whatever_the_answer_order() {
        let mut batches = Batches::default();
        let b = batches.open(4, usize::MAX);
        batches.expect(b);
        batches.expect(b);
        batches.put(b, 1, b"i".to_vec());
        assert_eq!(batches.close_if_answered(b), None);
        assert_eq!(batches.answer(b, 3, &id("3"), Some(b"r3".to_vec())), None);
        assert_eq!(
            batches.answer(b, 0, &id("0"), Some(b"r0".to_vec())),
            Some(b"[r0,i,r3]".to_vec())
        );
        // The batch is gone: a stray answer writes nothing.
        assert_eq!(batches.answer(b, 0, &id("0"), Some(b"x".to_vec())), None);
    }

    #[test]
    fn a_batch_with_nothing_to_answer_sends_nothing() {
        let mut batches = Batches::default();
        let b = batches.open(2, usize::MAX);
        batches.expect(b);
        assert_eq!(batches.answer(b, 0, &id("1"), None), None);
        assert!(batches.open.is_empty());
    }
}
