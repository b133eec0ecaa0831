//! Running a handler's future so that a panic becomes a value instead of killing the task.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// A boxed, sendable future.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Polls the inner future inside `catch_unwind`: completes with `None` if a poll panicked.
pub(crate) struct CatchUnwind<T> {
    inner: BoxFuture<T>,
}

impl<T> CatchUnwind<T> {
    pub(crate) fn new(inner: BoxFuture<T>) -> Self {
        Self { inner }
    }
}

impl<T> Future for CatchUnwind<T> {
    type Output = Option<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        match catch_unwind(AssertUnwindSafe(|| self.inner.as_mut().poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Some(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_panic) => Poll::Ready(None),
        }
    }
}
