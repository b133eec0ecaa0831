//! Collecting the replies of a batch: they go out as one array, in input order, once every
//! request of the batch is answered. Invalid elements are answered while the batch is read;
//! notifications, responses and cancelled requests contribute nothing. A batch with nothing
//! to answer sends nothing.

use std::collections::HashMap;

struct OpenBatch {
    replies: Vec<Option<Vec<u8>>>,
    unanswered: usize,
}

#[derive(Default)]
pub(crate) struct Batches {
    open: HashMap<u64, OpenBatch>,
    next_key: u64,
}

impl Batches {
    /// Opens a batch of `len` elements.
    pub(crate) fn open(&mut self, len: usize) -> u64 {
        self.next_key = self.next_key.wrapping_add(1);
        let replies = std::iter::repeat_with(|| None).take(len).collect();
        self.open.insert(
            self.next_key,
            OpenBatch {
                replies,
                unanswered: 0,
            },
        );
        self.next_key
    }

    /// Records that element `slot` is a request whose reply is still to come.
    pub(crate) fn expect(&mut self, batch: u64) {
        if let Some(open) = self.open.get_mut(&batch) {
            open.unanswered += 1;
        }
    }

    /// Stores an invalid element's reply while the batch is read.
    pub(crate) fn put(&mut self, batch: u64, slot: usize, reply: Vec<u8>) {
        if let Some(cell) = self
            .open
            .get_mut(&batch)
            .and_then(|o| o.replies.get_mut(slot))
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

    /// Stores a request's reply (`None` when suppressed); the batch's reply when it was the last.
    pub(crate) fn answer(
        &mut self,
        batch: u64,
        slot: usize,
        reply: Option<Vec<u8>>,
    ) -> Option<Vec<u8>> {
        let open = self.open.get_mut(&batch)?;
        if let Some(cell) = open.replies.get_mut(slot) {
            *cell = reply;
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

    #[test]
    fn replies_keep_input_order_whatever_the_answer_order() {
        let mut batches = Batches::default();
        let b = batches.open(4);
        batches.expect(b);
        batches.expect(b);
        batches.put(b, 1, b"i".to_vec());
        assert_eq!(batches.close_if_answered(b), None);
        assert_eq!(batches.answer(b, 3, Some(b"r3".to_vec())), None);
        assert_eq!(
            batches.answer(b, 0, Some(b"r0".to_vec())),
            Some(b"[r0,i,r3]".to_vec())
        );
        // The batch is gone: a stray answer writes nothing.
        assert_eq!(batches.answer(b, 0, Some(b"x".to_vec())), None);
    }

    #[test]
    fn a_batch_with_nothing_to_answer_sends_nothing() {
        let mut batches = Batches::default();
        let b = batches.open(2);
        batches.expect(b);
        assert_eq!(batches.answer(b, 0, None), None);
        assert!(batches.open.is_empty());
    }
}
