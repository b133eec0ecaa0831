//! Asking the client from inside a task: the ask becomes one of the task's `inputRequests`
//! (the task is `input_required`), and the handler waits, suspended, until `tasks/update`
//! brings the answer. Unlike the input-required rounds of a plain call, nothing replays.

use std::sync::Arc;

use serde_json::Value;

use super::TaskStore;

/// Where the asks of one task's handler go.
#[derive(Debug, Clone)]
pub(crate) struct TaskInputs {
    store: Arc<TaskStore>,
    id: String,
}

impl TaskInputs {
    pub(crate) fn new(store: Arc<TaskStore>, id: String) -> Self {
        Self { store, id }
    }

    /// Asks `method` with `params` under `key` (suffixed when the task used it already) and
    /// waits for the answer; the final key comes back with it. Never completes when the
    /// task ends first (cancelled or expired: its handler is being stopped).
    pub(crate) async fn ask(&self, key: String, method: &str, params: Value) -> (String, Value) {
        if let Some((key, answer)) = self.store.ask(&self.id, key, method, params)
            && let Ok(answer) = answer.await
        {
            return (key, answer);
        }
        std::future::pending().await
    }
}
