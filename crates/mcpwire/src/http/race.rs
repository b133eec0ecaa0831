//! Waiting for the first of two futures as a value ([`First`]), which the listener, the
//! POST exchange and the GET stream match on; elsewhere (the session adapter, stdio) the
//! crate uses `tokio::select!`, which does the same job inline.

use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;

/// Which of two futures finished first.
pub(crate) enum First<A, B> {
    /// The first future.
    Left(A),
    /// The second future.
    Right(B),
}

/// Polls `left` then `right` until one is ready; the other is dropped.
pub(crate) async fn race<A: Future, B: Future>(left: A, right: B) -> First<A::Output, B::Output> {
    let mut left = pin!(left);
    let mut right = pin!(right);
    poll_fn(|cx| {
        if let Poll::Ready(value) = left.as_mut().poll(cx) {
            return Poll::Ready(First::Left(value));
        }
        if let Poll::Ready(value) = right.as_mut().poll(cx) {
            return Poll::Ready(First::Right(value));
        }
        Poll::Pending
    })
    .await
}
