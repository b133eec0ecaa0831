//! A bounded queue that allocates nothing until something is sent: the channel behind a
//! [`Sink`](super::Sink) (a session's outgoing messages, one per Streamable HTTP POST) and
//! behind an HTTP [`Outbound`](crate::http::Outbound) (the frames of one response stream).
//!
//! Most POSTs send nothing but their reply, and a stateless POST's session never uses its
//! session-wide sink, so a queue costs one small shared block, its buffer growing only as
//! items arrive (a tokio `mpsc` channel allocates a block of 32 slots up front: 1.3 KB for
//! a sink, 1.5 KB for a frame stream). It behaves as a bounded `mpsc` channel: `send` waits
//! while `capacity` items are queued and fails once the receiver is gone; `recv` ends
//! (`None`) once every sender is gone and the queue is empty.

use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};

pub use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{Notify, Semaphore};

/// What the senders and the receiver share.
struct Shared<T> {
    state: Mutex<State<T>>,
    /// One permit per free place; closed when the receiver is dropped.
    space: Semaphore,
    /// Told when the receiver is dropped.
    receiver_gone: Notify,
}

struct State<T> {
    items: VecDeque<T>,
    senders: usize,
    /// The receiver waiting for an item.
    waker: Option<Waker>,
}

impl<T> Shared<T> {
    fn state(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A queue holding up to `capacity` items (at least one).
pub(crate) fn channel<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            senders: 1,
            waker: None,
        }),
        space: Semaphore::new(capacity.clamp(1, Semaphore::MAX_PERMITS)),
        receiver_gone: Notify::new(),
    });
    (
        Sender {
            shared: Arc::clone(&shared),
        },
        Receiver { shared },
    )
}

/// The sending side; cheap to clone.
pub(crate) struct Sender<T> {
    shared: Arc<Shared<T>>,
}

impl<T> std::fmt::Debug for Sender<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sender")
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.shared.state().senders += 1;
        Sender {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let waker = {
            let mut state = self.shared.state();
            state.senders -= 1;
            if state.senders == 0 {
                state.waker.take()
            } else {
                None
            }
        };
        if let Some(waker) = waker {
            waker.wake(); // the last sender is gone: `recv` ends
        }
    }
}

impl<T> Sender<T> {
    /// Queues `item`, waiting while the queue is full; gives it back once the receiver is
    /// gone.
    pub(crate) async fn send(&self, item: T) -> Result<(), T> {
        // A free place is taken without waiting, and without tokio's cooperative budget (a
        // blocking server polls its session's sends once, in place).
        let permit = match self.shared.space.try_acquire() {
            Ok(permit) => permit,
            Err(tokio::sync::TryAcquireError::Closed) => return Err(item),
            Err(tokio::sync::TryAcquireError::NoPermits) => {
                let Ok(permit) = self.shared.space.acquire().await else {
                    return Err(item);
                };
                permit
            }
        };
        // The receiver hands the place back when it takes the item.
        permit.forget();
        self.push(item)
    }

    /// Queues `item` without waiting; gives it back when the queue is full or the receiver
    /// is gone.
    #[cfg_attr(not(feature = "tokio"), allow(dead_code))]
    pub(crate) fn try_send(&self, item: T) -> Result<(), T> {
        let Ok(permit) = self.shared.space.try_acquire() else {
            return Err(item);
        };
        permit.forget();
        self.push(item)
    }

    /// Queues `item`, its place already taken, and wakes the receiver.
    fn push(&self, item: T) -> Result<(), T> {
        let waker = {
            let mut state = self.shared.state();
            // Checked under the lock the receiver clears the queue under when it goes.
            if self.shared.space.is_closed() {
                return Err(item);
            }
            state.items.push_back(item);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        Ok(())
    }

    /// Whether the receiver is gone (sends fail).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn is_closed(&self) -> bool {
        self.shared.space.is_closed()
    }

    /// Completes once the receiver is gone.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) async fn closed(&self) {
        loop {
            // Created before the check: a drop between the two still wakes it.
            let gone = self.shared.receiver_gone.notified();
            if self.is_closed() {
                return;
            }
            gone.await;
        }
    }
}

/// The receiving side of a queue (of a [`Sink`](super::Sink): a [`SinkReceiver`](super::SinkReceiver)).
/// Dropping it closes the queue: sends fail from then on, and what was queued is dropped.
pub struct Receiver<T> {
    shared: Arc<Shared<T>>,
}

impl<T> std::fmt::Debug for Receiver<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver").finish_non_exhaustive()
    }
}

impl<T> Receiver<T> {
    /// The next item; `None` once every sender is gone and nothing is queued.
    pub fn recv(&mut self) -> impl Future<Output = Option<T>> + '_ {
        poll_fn(|cx| {
            let mut state = self.shared.state();
            if let Some(item) = state.items.pop_front() {
                drop(state);
                self.shared.space.add_permits(1);
                return Poll::Ready(Some(item));
            }
            if state.senders == 0 {
                return Poll::Ready(None);
            }
            match &mut state.waker {
                Some(waker) => waker.clone_from(cx.waker()),
                None => state.waker = Some(cx.waker().clone()),
            }
            Poll::Pending
        })
    }

    /// The next item if one is queued: `Empty` when none is, `Disconnected` when none will
    /// come.
    pub fn try_recv(&mut self) -> Result<T, TryRecvError> {
        let mut state = self.shared.state();
        match state.items.pop_front() {
            Some(item) => {
                drop(state);
                self.shared.space.add_permits(1);
                Ok(item)
            }
            None if state.senders == 0 => Err(TryRecvError::Disconnected),
            None => Err(TryRecvError::Empty),
        }
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.shared.space.close();
        let items = {
            let mut state = self.shared.state();
            state.waker = None;
            std::mem::take(&mut state.items)
        };
        drop(items);
        self.shared.receiver_gone.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bounded_in_order_and_closing_both_ways() {
        let (sender, mut receiver) = channel::<Vec<u8>>(2);
        sender.send(b"a".to_vec()).await.unwrap();
        sender.send(b"b".to_vec()).await.unwrap();
        // Full: a third send waits until an item is taken, and a try fails at once.
        {
            assert_eq!(sender.try_send(b"x".to_vec()), Err(b"x".to_vec()));
            let third = sender.send(b"c".to_vec());
            tokio::pin!(third);
            assert!(poll_once(third.as_mut()).await.is_none());
            assert_eq!(receiver.recv().await.as_deref(), Some(&b"a"[..]));
            third.await.unwrap();
        }
        assert_eq!(receiver.try_recv().unwrap(), b"b".to_vec());
        assert_eq!(receiver.recv().await.as_deref(), Some(&b"c"[..]));
        assert_eq!(receiver.try_recv(), Err(TryRecvError::Empty));
        // Every sender gone: the receiver ends.
        let clone = sender.clone();
        drop(sender);
        clone.send(b"d".to_vec()).await.unwrap();
        drop(clone);
        assert_eq!(receiver.recv().await.as_deref(), Some(&b"d"[..]));
        assert_eq!(receiver.recv().await, None);
        assert_eq!(receiver.try_recv(), Err(TryRecvError::Disconnected));
        // The receiver gone: sends fail, `closed` completes.
        let (sender, receiver) = channel::<Vec<u8>>(1);
        let waiting = sender.clone();
        let closed = tokio::spawn(async move { waiting.closed().await });
        tokio::task::yield_now().await;
        assert!(!sender.is_closed());
        drop(receiver);
        closed.await.unwrap();
        assert!(sender.is_closed());
        assert!(sender.send(b"e".to_vec()).await.is_err());
        assert!(sender.try_send(b"f".to_vec()).is_err());
    }

    /// Polls `future` once: its output, or `None` while it is pending.
    async fn poll_once<F: Future + Unpin>(mut future: F) -> Option<F::Output> {
        poll_fn(|cx| match std::pin::Pin::new(&mut future).poll(cx) {
            Poll::Ready(out) => Poll::Ready(Some(out)),
            Poll::Pending => Poll::Ready(None),
        })
        .await
    }
}
