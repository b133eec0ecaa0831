//! A call in flight: the request just built, the wait for its outcome (with the timeout
//! that progress may restart), and the guard that cancels it when the caller gives up.

use super::*;

/// A request just built: its id, its frame, where its outcome and its progress ticks
/// arrive.
pub(super) struct Started {
    pub(super) id: OutgoingId,
    pub(super) frame: OutgoingFrame,
    pub(super) receiver: oneshot::Receiver<Result<AnyResult, ClientError>>,
    pub(super) tick: Arc<Notify>,
}

/// Waits for the response, the timeout restarting at each progress tick when asked.
/// `None` when the timeout expired.
pub(super) async fn wait(
    receiver: oneshot::Receiver<Result<AnyResult, ClientError>>,
    tick: &Notify,
    timeout: Option<Duration>,
    options: &CallOptions,
) -> Option<Result<AnyResult, ClientError>> {
    let closed = || Err(ClientError::Transport(TransportError::Closed));
    let Some(timeout) = timeout else {
        return Some(receiver.await.unwrap_or_else(|_| closed()));
    };
    let start = Instant::now();
    let last = options.max_total.map(|max| start + max);
    let bound = |at: Instant| last.map_or(at, |last| at.min(last));
    let sleep = tokio::time::sleep_until(bound(start + timeout));
    tokio::pin!(sleep, receiver);
    loop {
        tokio::select! {
            outcome = &mut receiver => return Some(outcome.unwrap_or_else(|_| closed())),
            () = &mut sleep => return None,
            () = tick.notified(), if options.reset_on_progress => {
                sleep.as_mut().reset(bound(Instant::now() + timeout));
            }
        }
    }
}

/// A request sent and not answered yet: dropping it cancels the request.
pub(crate) struct PendingCall {
    pub(super) session: Arc<Session>,
    pub(super) id: OutgoingId,
    pub(super) armed: bool,
    pub(super) cancellable: bool,
}

impl PendingCall {
    /// The call is over by the server's doing (answered, or its stream ended): nothing is
    /// sent on drop.
    pub(crate) fn disarm(&mut self) {
        self.armed = false;
        self.session.drop_listener(self.id);
    }

    /// Forgets the request without telling the server (it was never sent).
    pub(super) fn forget(&mut self) {
        if self.armed {
            self.armed = false;
            let mut state = self.session.lock();
            state.peer.cancel(self.id, None);
            state.remove_waiter(self.id);
        }
    }

    /// Forgets the request and sends `notifications/cancelled` naming it.
    pub(super) fn cancel(&mut self, reason: &str) {
        if !self.armed {
            return;
        }
        self.armed = false;
        let (line, version) = {
            let mut state = self.session.lock();
            state.remove_waiter(self.id);
            state.listeners.remove(&self.id);
            let line = state.peer.cancel(self.id, Some(reason));
            (line.filter(|_| self.cancellable), state.version)
        };
        let (Some(bytes), Ok(runtime)) = (line, tokio::runtime::Handle::try_current()) else {
            return;
        };
        let session = Arc::clone(&self.session);
        runtime.spawn(async move {
            let frame = OutgoingFrame {
                method: Some(Cow::Borrowed("notifications/cancelled")),
                protocol_version: version.map(Version::as_str),
                ..OutgoingFrame::new(bytes, FrameKind::Notification)
            };
            let _ = session.connection.send(frame).await;
        });
    }
}

impl Drop for PendingCall {
    fn drop(&mut self) {
        self.cancel("the client no longer waits for the result");
    }
}
