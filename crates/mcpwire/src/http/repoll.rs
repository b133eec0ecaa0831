//! A connection's future polled again in place when it wakes itself while being polled.
//!
//! Serving one request, a connection's task wakes itself: hyper's body reader signals the
//! connection's own dispatcher, and the POST's exchange wakes its own wait when its outbound
//! queue closes. On tokio's multi-thread runtime a task woken during its own poll counts as
//! having yielded: it goes to the back of the worker's queue, and an idle worker is woken to
//! steal it. With one request in flight, that is a thread woken (and the task often moved
//! to it) for each self-wake: two or three a request, measured with `strace` at one client.
//!
//! [`RepollSelfWakes`] gives the future a waker of its own. A wake while the future is being
//! polled is noted, and the future is polled again before the task's poll returns; a wake at
//! any other time wakes the task as usual. Fairness stays tokio's: the future is polled again
//! only while the task has coop budget left, and at most [`MAX_REPOLLS`] times a poll, after
//! which the task yields as before.
//!
//! Only while the caller's `alone` says so (the listener: while the connection is the only
//! one open). Beside other connections a yield is what spreads the work: the worker it wakes
//! takes other connections' tasks. Polling in place there cost 10 to 20% of the requests a
//! second at 16 clients, measured, even when gated on the requests in progress (under load
//! most requests wait in their sockets, uncounted).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};

/// The most times one poll of the task polls the future again in place.
const MAX_REPOLLS: usize = 16;

/// Not being polled: a wake goes to the task.
const IDLE: u8 = 0;
/// Being polled: a wake is noted.
const POLLING: u8 = 1;
/// Woken while being polled: polled again before the task's poll returns.
const WOKEN: u8 = 2;

/// `future`, polled again in place when it wakes itself during its poll (see the module).
pub(crate) struct RepollSelfWakes<A, F> {
    alone: A,
    future: F,
    signal: Arc<Signal>,
    waker: Waker,
}

/// What the future's waker shares with its poller.
struct Signal {
    state: AtomicU8,
    /// The task's waker, as of its latest poll.
    task: Mutex<Option<Waker>>,
}

impl Wake for Signal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let mut state = self.state.load(Ordering::Acquire);
        loop {
            match state {
                WOKEN => return,
                POLLING => match self.state.compare_exchange_weak(
                    POLLING,
                    WOKEN,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => return,
                    Err(now) => state = now,
                },
                _ => {
                    let task = self.task.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(task) = task.as_ref() {
                        task.wake_by_ref();
                    }
                    return;
                }
            }
        }
    }
}

impl<A: Fn() -> bool, F: Future> RepollSelfWakes<A, F> {
    /// Wraps `future`, polled again in place while `alone()` is true.
    pub(crate) fn new(alone: A, future: F) -> Self {
        let signal = Arc::new(Signal {
            state: AtomicU8::new(IDLE),
            task: Mutex::new(None),
        });
        let waker = Waker::from(Arc::clone(&signal));
        Self {
            alone,
            future,
            signal,
            waker,
        }
    }
}

impl<A: Fn() -> bool + Unpin, F: Future + Unpin> Future for RepollSelfWakes<A, F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        {
            let mut task = this.signal.task.lock().unwrap_or_else(|e| e.into_inner());
            if !task.as_ref().is_some_and(|t| t.will_wake(cx.waker())) {
                *task = Some(cx.waker().clone());
            }
        }
        let mut inner = Context::from_waker(&this.waker);
        for _ in 0..MAX_REPOLLS {
            this.signal.state.store(POLLING, Ordering::Release);
            if let Poll::Ready(output) = Pin::new(&mut this.future).poll(&mut inner) {
                this.signal.state.store(IDLE, Ordering::Release);
                return Poll::Ready(output);
            }
            let settled = this.signal.state.compare_exchange(
                POLLING,
                IDLE,
                Ordering::AcqRel,
                Ordering::Acquire,
            );
            if settled.is_ok() {
                return Poll::Pending;
            }
            if !tokio::task::coop::has_budget_remaining() || !(this.alone)() {
                break;
            }
        }
        // Woken, but not alone, or out of budget or repolls: the task yields, and is polled
        // again later.
        this.signal.state.store(IDLE, Ordering::Release);
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::poll_fn;
    use std::sync::atomic::AtomicUsize;

    /// A waker counting its wakes.
    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_self_wake_is_polled_again_in_place_and_the_task_is_not_woken() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(Arc::clone(&count));
        let mut polls = 0;
        let mut future = RepollSelfWakes::new(
            || true,
            poll_fn(|cx| {
                polls += 1;
                if polls < 3 {
                    cx.waker().wake_by_ref();
                    Poll::Pending
                } else {
                    Poll::Ready(polls)
                }
            }),
        );
        let poll = Pin::new(&mut future).poll(&mut Context::from_waker(&task));
        assert_eq!(poll, Poll::Ready(3));
        assert_eq!(count.0.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_wake_after_the_poll_wakes_the_task() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(Arc::clone(&count));
        let kept: Arc<Mutex<Option<Waker>>> = Arc::default();
        let keep = Arc::clone(&kept);
        let mut future = RepollSelfWakes::new(
            || true,
            poll_fn(move |cx| {
                *keep.lock().unwrap() = Some(cx.waker().clone());
                Poll::<()>::Pending
            }),
        );
        let poll = Pin::new(&mut future).poll(&mut Context::from_waker(&task));
        assert!(poll.is_pending());
        assert_eq!(count.0.load(Ordering::SeqCst), 0);
        kept.lock().unwrap().take().unwrap().wake();
        assert_eq!(count.0.load(Ordering::SeqCst), 1);
    }

    /// Polls once a future that wakes itself at every poll: how many polls it had, and how
    /// many times the task was woken.
    fn poll_a_future_that_always_wakes_itself(alone: bool) -> (usize, usize) {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(Arc::clone(&count));
        let mut polls = 0;
        let mut future = RepollSelfWakes::new(
            || alone,
            poll_fn(|cx| {
                polls += 1;
                cx.waker().wake_by_ref();
                Poll::<()>::Pending
            }),
        );
        let poll = Pin::new(&mut future).poll(&mut Context::from_waker(&task));
        assert!(poll.is_pending());
        drop(future);
        (polls, count.0.load(Ordering::SeqCst))
    }

    #[test]
    fn not_alone_a_self_wake_wakes_the_task() {
        assert_eq!(poll_a_future_that_always_wakes_itself(false), (1, 1));
    }

    #[test]
    fn a_future_that_always_wakes_itself_yields_after_the_limit() {
        // Polled again up to the limit, then the task yields: woken once.
        assert_eq!(
            poll_a_future_that_always_wakes_itself(true),
            (MAX_REPOLLS, 1)
        );
    }
}
