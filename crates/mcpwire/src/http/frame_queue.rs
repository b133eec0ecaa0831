//! The bounded queue between a handler's [`Outbound`](super::Outbound) and the stream that
//! carries its frames to the client: one per POST exchange (and one per session's GET
//! stream).
//!
//! Most POSTs send nothing before their reply, so the queue costs nothing until a frame is
//! sent: one small shared block, its buffer growing only as frames arrive (a tokio `mpsc`
//! channel allocates a block of 32 slots up front, about 1.5 KB per POST). It behaves as a
//! bounded `mpsc` channel of [`Bytes`]: `send` waits while `capacity` frames are queued and
//! fails once the receiver is gone; `recv` ends (`None`) once every sender is gone and the
//! queue is empty.

use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Poll, Waker};

use hyper::body::Bytes;
use tokio::sync::mpsc::error::TryRecvError;
use tokio::sync::{Notify, Semaphore};

/// What the senders and the receiver share.
struct Shared {
    state: Mutex<State>,
    /// One permit per free place; closed when the receiver is dropped.
    space: Semaphore,
    /// Told when the receiver is dropped.
    receiver_gone: Notify,
}

struct State {
    frames: VecDeque<Bytes>,
    senders: usize,
    /// The receiver waiting for a frame.
    waker: Option<Waker>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A queue holding up to `capacity` frames (at least one).
pub(crate) fn channel(capacity: usize) -> (FrameSender, FrameReceiver) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            frames: VecDeque::new(),
            senders: 1,
            waker: None,
        }),
        space: Semaphore::new(capacity.clamp(1, Semaphore::MAX_PERMITS)),
        receiver_gone: Notify::new(),
    });
    (
        FrameSender {
            shared: Arc::clone(&shared),
        },
        FrameReceiver { shared },
    )
}

/// The sending side; cheap to clone.
pub(crate) struct FrameSender {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for FrameSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameSender")
            .field("closed", &self.is_closed())
            .finish()
    }
}

impl Clone for FrameSender {
    fn clone(&self) -> Self {
        self.shared.state().senders += 1;
        FrameSender {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl Drop for FrameSender {
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

impl FrameSender {
    /// Queues `frame`, waiting while the queue is full; gives it back once the receiver is
    /// gone.
    pub(crate) async fn send(&self, frame: Bytes) -> Result<(), Bytes> {
        let Ok(permit) = self.shared.space.acquire().await else {
            return Err(frame);
        };
        // The receiver hands the place back when it takes the frame.
        permit.forget();
        let waker = {
            let mut state = self.shared.state();
            // Checked under the lock the receiver clears the queue under when it goes.
            if self.shared.space.is_closed() {
                return Err(frame);
            }
            state.frames.push_back(frame);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        Ok(())
    }

    /// Whether the receiver is gone (sends fail).
    pub(crate) fn is_closed(&self) -> bool {
        self.shared.space.is_closed()
    }

    /// Completes once the receiver is gone.
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

/// The receiving side.
pub(crate) struct FrameReceiver {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for FrameReceiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameReceiver").finish_non_exhaustive()
    }
}

impl FrameReceiver {
    /// The next frame; `None` once every sender is gone and nothing is queued.
    pub(crate) fn recv(&mut self) -> impl Future<Output = Option<Bytes>> + '_ {
        poll_fn(|cx| {
            let mut state = self.shared.state();
            if let Some(frame) = state.frames.pop_front() {
                drop(state);
                self.shared.space.add_permits(1);
                return Poll::Ready(Some(frame));
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

    /// The next frame if one is queued: `Empty` when none is, `Disconnected` when none will
    /// come.
    pub(crate) fn try_recv(&mut self) -> Result<Bytes, TryRecvError> {
        let mut state = self.shared.state();
        match state.frames.pop_front() {
            Some(frame) => {
                drop(state);
                self.shared.space.add_permits(1);
                Ok(frame)
            }
            None if state.senders == 0 => Err(TryRecvError::Disconnected),
            None => Err(TryRecvError::Empty),
        }
    }
}

impl Drop for FrameReceiver {
    fn drop(&mut self) {
        self.shared.space.close();
        let frames = {
            let mut state = self.shared.state();
            state.waker = None;
            std::mem::take(&mut state.frames)
        };
        drop(frames);
        self.shared.receiver_gone.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bounded_in_order_and_closing_both_ways() {
        let (sender, mut receiver) = channel(2);
        sender.send(Bytes::from_static(b"a")).await.unwrap();
        sender.send(Bytes::from_static(b"b")).await.unwrap();
        // Full: a third send waits until a frame is taken.
        {
            let third = sender.send(Bytes::from_static(b"c"));
            tokio::pin!(third);
            assert!(poll_once(third.as_mut()).await.is_none());
            assert_eq!(receiver.recv().await.as_deref(), Some(&b"a"[..]));
            third.await.unwrap();
        }
        assert_eq!(receiver.try_recv().unwrap(), Bytes::from_static(b"b"));
        assert_eq!(receiver.recv().await.as_deref(), Some(&b"c"[..]));
        assert_eq!(receiver.try_recv(), Err(TryRecvError::Empty));
        // Every sender gone: the receiver ends.
        let clone = sender.clone();
        drop(sender);
        clone.send(Bytes::from_static(b"d")).await.unwrap();
        drop(clone);
        assert_eq!(receiver.recv().await.as_deref(), Some(&b"d"[..]));
        assert_eq!(receiver.recv().await, None);
        assert_eq!(receiver.try_recv(), Err(TryRecvError::Disconnected));
        // The receiver gone: sends fail, `closed` completes.
        let (sender, receiver) = channel(1);
        let waiting = sender.clone();
        let closed = tokio::spawn(async move { waiting.closed().await });
        tokio::task::yield_now().await;
        assert!(!sender.is_closed());
        drop(receiver);
        closed.await.unwrap();
        assert!(sender.is_closed());
        assert!(sender.send(Bytes::from_static(b"e")).await.is_err());
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
