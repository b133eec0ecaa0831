//! A call in flight: the request just registered, the wait for its outcome (with the
//! timeout that progress may restart), and the guard that cancels it when the caller gives
//! up.

use mcpwire::service::{PendingResponse, RequestGuard};
use tokio::time::Instant;

use super::*;

/// A request just registered: its frame, where its outcome and its progress ticks arrive.
pub(super) struct Started {
    pub(super) pending: PendingCall,
    pub(super) frame: OutgoingFrame,
    pub(super) response: PendingResponse,
    /// Fires when the client fails the call itself (the transport lost its response, the
    /// connection ended, the server answered under another id).
    pub(super) failed: oneshot::Receiver<ClientError>,
    pub(super) tick: Arc<Notify>,
}

/// The outcome of a call: its response as the service routed it, or the client's failure
/// of it.
pub(super) async fn outcome(
    response: &mut PendingResponse,
    failed: &mut oneshot::Receiver<ClientError>,
    method: &str,
    id: OutgoingId,
) -> Result<AnyResult, ClientError> {
    tokio::select! {
        biased;
        Ok(error) = &mut *failed => Err(error),
        answer = &mut *response => answer.map_err(|error| client_error(error, method, id)),
    }
}

/// The service's reason as the client's error.
fn client_error(error: RequestError, method: &str, id: OutgoingId) -> ClientError {
    match error {
        RequestError::Rpc(error) => ClientError::Rpc(error),
        RequestError::InvalidResult(error) => {
            let detail = format!("{method} result at \"{}\": {}", error.pointer, error.reason);
            ClientError::Protocol(Violation::new(Rule::ResultShape, detail))
        }
        RequestError::MalformedResponse(defect) => ClientError::Protocol(Violation::new(
            Rule::ResponseShape(defect),
            format!("the response to {method} (id {id})"),
        )),
        RequestError::Closed | RequestError::Timeout => {
            ClientError::Transport(TransportError::Closed)
        }
        RequestError::Send(error) => ClientError::Params(error.to_string()),
    }
}

/// Waits for the outcome, the timeout restarting at each progress tick when asked.
/// `None` when the timeout expired.
pub(super) async fn wait(
    response: &mut PendingResponse,
    failed: &mut oneshot::Receiver<ClientError>,
    tick: &Notify,
    timeout: Option<Duration>,
    options: &CallOptions,
    method: &str,
    id: OutgoingId,
) -> Option<Result<AnyResult, ClientError>> {
    let outcome = outcome(response, failed, method, id);
    let Some(timeout) = timeout else {
        return Some(outcome.await);
    };
    let start = Instant::now();
    let last = options.max_total.map(|max| start + max);
    let bound = |at: Instant| last.map_or(at, |last| at.min(last));
    let sleep = tokio::time::sleep_until(bound(start + timeout));
    tokio::pin!(sleep, outcome);
    loop {
        tokio::select! {
            outcome = &mut outcome => return Some(outcome),
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
    pub(super) guard: RequestGuard,
    pub(super) cancellable: bool,
}

impl PendingCall {
    /// The call is over by the server's doing (answered, or its stream ended): nothing is
    /// sent on drop.
    pub(crate) fn disarm(&mut self) {
        self.guard.settle();
        self.session.lock().listeners.remove(&self.id);
    }

    /// The call is over (answered, or failed by the client): nothing is sent on drop.
    pub(super) fn settle(&mut self) {
        self.guard.settle();
        self.session.lock().remove_waiter(self.id);
    }

    /// Forgets the request without telling the server (it was never sent).
    pub(super) fn forget(&mut self) {
        self.session.lock().remove_waiter(self.id);
        self.guard.forget();
    }

    /// Forgets the request and sends `notifications/cancelled` naming it.
    pub(super) fn cancel(&mut self, reason: &str) {
        let version = {
            let mut state = self.session.lock();
            state.remove_waiter(self.id);
            state.listeners.remove(&self.id);
            state.version
        };
        let line = self.guard.cancel(reason).filter(|_| self.cancellable);
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
