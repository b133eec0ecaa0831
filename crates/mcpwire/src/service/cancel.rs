//! A cancellation token: fired once, observed by polling or by awaiting.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Fired when the other side cancels the request (`notifications/cancelled`) or the
/// session ends. Cheap to clone; every clone observes the same state.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcpwire::service::CancellationToken;
///
/// let token = CancellationToken::new();
/// let seen = token.clone();
/// assert!(!seen.is_cancelled());
/// token.cancel();
/// seen.cancelled().await; // returns at once
/// assert!(seen.is_cancelled());
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct CancellationToken {
    /// Shared by every clone: one allocation per token. Firing it takes one lock and
    /// dropping it none (a `watch` channel, its former state, locked each of its eight
    /// waiter lists at both).
    state: Arc<State>,
}

#[derive(Debug, Default)]
struct State {
    fired: AtomicBool,
    /// Wakes the tasks in [`CancellationToken::cancelled`].
    fired_signal: Notify,
}

impl CancellationToken {
    /// A token not yet fired.
    pub fn new() -> Self {
        Self::default()
    }

    /// Fires the token (idempotent).
    pub fn cancel(&self) {
        if !self.state.fired.swap(true, Ordering::SeqCst) {
            self.state.fired_signal.notify_waiters();
        }
    }

    /// Whether the token was fired.
    pub fn is_cancelled(&self) -> bool {
        self.state.fired.load(Ordering::SeqCst)
    }

    /// Completes when the token is fired (at once if it already was).
    pub async fn cancelled(&self) {
        // Made before the flag is read: a `Notified` sees every `notify_waiters` called
        // after it was made, so a firing between the read and the wait is not missed.
        let fired = self.state.fired_signal.notified();
        if self.is_cancelled() {
            return;
        }
        fired.await;
    }
}

#[cfg(all(test, feature = "tokio"))]
mod tests {
    use super::CancellationToken;
    use std::time::Duration;

    /// Every clone sees the firing, whether it waits already, starts waiting after, or
    /// races it on another worker.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_waiter_wakes_however_it_meets_the_firing() {
        for _ in 0..500 {
            let token = CancellationToken::new();
            let early = token.clone();
            let waiting = tokio::spawn(async move { early.cancelled().await });
            let racing = token.clone();
            let racer = tokio::spawn(async move { racing.cancelled().await });
            tokio::task::yield_now().await;
            token.cancel();
            token.cancel(); // idempotent
            let both = async {
                waiting.await.unwrap();
                racer.await.unwrap();
            };
            tokio::time::timeout(Duration::from_secs(5), both)
                .await
                .expect("every waiter woke");
            assert!(token.clone().is_cancelled());
            token.cancelled().await; // at once
        }
    }
}
