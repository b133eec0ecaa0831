//! The request handlers of one frame, run inside the future that received it rather than on
//! tasks of their own: how a stateless POST is served, with no task spawned per request.
//!
//! When that future is dropped first (the client left, or the request's time limit passed),
//! the session ends with it and its handlers' cancellation tokens fire. The handlers still
//! running move to a task of their own for at most [`CANCELLED_GRACE`], time to see the
//! cancellation and end; those still running then are dropped. No handler outlives its
//! client by more than that, even one that never looks at its token.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::stream::{FuturesUnordered, StreamExt};

use super::catch::BoxFuture;

/// How long the handlers of a dropped exchange may run on after their cancellation.
const CANCELLED_GRACE: Duration = Duration::from_secs(1);

/// The request handlers started in place so far (see the module); those still running when
/// it is dropped are handed to a task for the grace.
#[derive(Default)]
pub(crate) struct InPlace {
    running: Running,
}

/// Request handlers, polled together. The first is held as it is; a batch's others go to a
/// set that polls only those woken. Nothing is allocated for a frame without a request, nor
/// a set for a frame with one.
#[derive(Default)]
struct Running {
    first: Option<BoxFuture<()>>,
    others: Option<FuturesUnordered<BoxFuture<()>>>,
}

impl Running {
    fn push(&mut self, handler: BoxFuture<()>) {
        if self.first.is_none() {
            self.first = Some(handler);
        } else {
            self.others
                .get_or_insert_with(FuturesUnordered::new)
                .push(handler);
        }
    }

    /// Polls every handler; ready once none is left.
    fn poll_all(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if let Some(first) = &mut self.first
            && first.as_mut().poll(cx).is_ready()
        {
            self.first = None;
        }
        if let Some(others) = &mut self.others {
            while let Poll::Ready(Some(())) = others.poll_next_unpin(cx) {}
        }
        if self.is_empty() {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    }

    /// Awaits every handler.
    async fn all(&mut self) {
        poll_fn(|cx| self.poll_all(cx)).await;
    }

    /// Whether every handler has ended.
    fn is_empty(&self) -> bool {
        self.first.is_none() && self.others.as_ref().is_none_or(FuturesUnordered::is_empty)
    }
}

impl InPlace {
    /// Adds a started handler.
    pub(crate) fn push(&mut self, handler: BoxFuture<()>) {
        self.running.push(handler);
    }

    /// Awaits `next` while driving the handlers already started: one of them may hold the
    /// handler slot `next` waits for.
    pub(crate) fn beside<F: Future>(&mut self, next: F) -> Beside<'_, F> {
        Beside {
            running: &mut self.running,
            next,
        }
    }

    /// Awaits every handler started.
    pub(crate) async fn finish(&mut self) {
        self.running.all().await;
    }
}

pin_project_lite::pin_project! {
    /// [`InPlace::beside`]'s future: `next`, held once, polled after the handlers.
    pub(crate) struct Beside<'a, F> {
        running: &'a mut Running,
        #[pin]
        next: F,
    }
}

impl<F: Future> Future for Beside<'_, F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _ = this.running.poll_all(cx);
        this.next.poll(cx)
    }
}

impl Drop for InPlace {
    fn drop(&mut self) {
        let mut running = std::mem::take(&mut self.running);
        if running.is_empty() {
            return;
        }
        // Outside a runtime (it is shutting down) they are dropped at once.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = tokio::time::timeout(CANCELLED_GRACE, running.all()).await;
            });
        }
    }
}
