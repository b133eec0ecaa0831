//! A cancellation token: fired once, observed by polling or by awaiting.

use tokio::sync::watch;

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
#[derive(Debug, Clone)]
pub struct CancellationToken {
    /// Every clone is a sender of the same channel (one allocation per token).
    state: watch::Sender<bool>,
}

impl Default for CancellationToken {
    fn default() -> Self {
        Self::new()
    }
}

impl CancellationToken {
    /// A token not yet fired.
    pub fn new() -> Self {
        Self {
            state: watch::Sender::new(false),
        }
    }

    /// Fires the token (idempotent).
    pub fn cancel(&self) {
        self.state.send_replace(true);
    }

    /// Whether the token was fired.
    pub fn is_cancelled(&self) -> bool {
        *self.state.borrow()
    }

    /// Completes when the token is fired (at once if it already was).
    pub async fn cancelled(&self) {
        let mut seen = self.state.subscribe();
        // The sender lives in `self`, so the channel cannot close while this waits.
        let _ = seen.wait_for(|fired| *fired).await;
    }
}
