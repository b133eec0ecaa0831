//! When a call becomes a task, and how the task's handler runs.
//!
//! The layer decides (SEP-2663: task creation is server-directed). A task-supporting call
//! from a client that declared the extension starts like any call, and its handler is
//! polled once:
//!
//! 1. it finished: the reply is its result (the extension's immediate-result shortcut);
//! 2. it asked the client something not answered yet: the reply is the input-required
//!    result of a plain call, so asks made before any waiting are settled synchronously
//!    (MRTR before the task, as SEP-2663 recommends), and the retry starts over here;
//! 3. it waits on anything else: a task is created (durably: `tasks/get` finds it as soon
//!    as the `CreateTaskResult` is sent) and the same handler future goes on running on
//!    its own tokio task. From then on its asks become the task's `inputRequests`.
//!
//! The task's handler stops when its outcome is kept, or when its context is cancelled:
//! by `tasks/cancel`, or when the task's time to live passes (the task is dropped then);
//! after [`TaskLimits::cancel_grace`](super::TaskLimits::cancel_grace) a handler still
//! running is dropped. A handler that panics fails its task with -32603. When the store is full for this owner (or in total)
//! the call runs to its result, as without the extension.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use mcpwire::RpcError;
use mcpwire::service::CancellationToken;
use serde_json::value::RawValue;

use super::{TaskInputs, TaskStore};
use crate::input_round::InputRound;

/// A call's work: its result, written once from the version's generated type, or the
/// protocol error it ends with.
pub(crate) type Work = Pin<Box<dyn Future<Output = Result<Box<RawValue>, RpcError>> + Send>>;

/// Runs `work` (a handler whose context is cancelled through `token` only) as a call that
/// may become a task of `owner` in `store`, as the module docs say; `round` is the call's
/// input round (2026-07-28). While the call is answered directly, the cancellation of the
/// request (`request`: the client cancelled it or left) reaches the handler through `token`.
pub(crate) async fn call(
    store: &Arc<TaskStore>,
    owner: &str,
    round: Option<Arc<InputRound>>,
    (request, token): (&CancellationToken, CancellationToken),
    mut work: Work,
) -> Result<Box<RawValue>, RpcError> {
    let polled = tokio::select! {
        biased;
        done = &mut work => Some(done),
        () = std::future::ready(()) => None,
    };
    if let Some(done) = polled {
        return done;
    }
    if round.as_ref().is_some_and(|r| r.is_waiting()) {
        return directly(request, &token, work).await;
    }
    let Some((id, expires, created)) = store.open(owner, token.clone()).await else {
        return directly(request, &token, work).await;
    };
    if let Some(round) = &round {
        round.escalate(TaskInputs::new(Arc::clone(store), id.clone()));
    }
    tokio::spawn(drive(Arc::clone(store), id, expires, token, work));
    Ok(created)
}

/// Runs `work` to the call's own result; the request's cancellation fires `token`.
async fn directly(
    request: &CancellationToken,
    token: &CancellationToken,
    mut work: Work,
) -> Result<Box<RawValue>, RpcError> {
    tokio::select! {
        done = &mut work => done,
        () = request.cancelled() => {
            token.cancel();
            work.await
        }
    }
}

/// Runs task `id`'s handler to its end (see the module docs).
async fn drive(
    store: Arc<TaskStore>,
    id: String,
    expires: Instant,
    token: CancellationToken,
    work: Work,
) {
    let mut handler = tokio::spawn(work);
    let expiry = tokio::time::sleep_until(expires.into());
    tokio::select! {
        joined = &mut handler => {
            let outcome = joined.unwrap_or_else(|_| {
                Err(RpcError::internal_error().with_data("the tool's handler panicked"))
            });
            store.finish(&id, outcome);
        }
        () = token.cancelled() => {}
        () = expiry => store.expire(&id),
    }
    // Cancelled (by `tasks/cancel`, or by the expiry, which fires the token too): the handler
    // has a grace to stop on its own; what it returns is not kept.
    let grace = store.limits().cancel_grace;
    if !handler.is_finished() && tokio::time::timeout(grace, &mut handler).await.is_err() {
        handler.abort();
    }
}
