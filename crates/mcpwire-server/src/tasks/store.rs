//! The tasks a server holds: bounded in count per owner and in total, and in the bytes of
//! the results kept; a task is gone once its time to live has passed, and only its owner
//! ever sees it.
//!
//! A record lives from `tools/call`'s `CreateTaskResult` to its expiry (`ttlMs` after its
//! creation), whatever its status: the time to live is the client's promise of how long it
//! can read the outcome, so a full store refuses new tasks rather than dropping live ones.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use mcpwire::RpcError;
use mcpwire::service::CancellationToken;
use serde::Serialize;
use serde_json::value::{RawValue, to_raw_value};
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;

use super::clock::iso8601;
use super::shared::SharedTasks;

/// The bounds of a server's task store and the timing it announces
/// ([`McpServerBuilder::task_limits`](crate::McpServerBuilder::task_limits)).
///
/// ```
/// use std::time::Duration;
/// use mcpwire_server::TaskLimits;
///
/// let limits = TaskLimits {
///     ttl: Duration::from_secs(300),
///     max_per_owner: 8,
///     ..TaskLimits::default()
/// };
/// assert!(limits.max_tasks >= limits.max_per_owner);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLimits {
    /// How long a task is kept after its creation (`ttlMs`), running or done: its work is
    /// cancelled and its outcome dropped when it passes. Default 10 minutes.
    pub ttl: Duration,
    /// How often clients should poll `tasks/get` (`pollIntervalMs`). Default 500 ms.
    pub poll_interval: Duration,
    /// The most tasks one owner (an authenticated subject, a session, or else a client
    /// address) holds at once; past it the owner's calls run without a task. Default 32.
    pub max_per_owner: usize,
    /// The most tasks the server holds at once, all owners together. Default 1024.
    pub max_tasks: usize,
    /// The largest result (or error) text one task keeps; a larger one fails the task with
    /// -32603. Default 1 MiB.
    pub max_result_bytes: usize,
    /// The bytes of result text all tasks together keep; a result that would pass it fails
    /// its task with -32603. Default 64 MiB.
    pub max_total_bytes: usize,
    /// How long a cancelled task's handler may take to stop after seeing the cancellation
    /// before its future is dropped. Default 5 s.
    pub cancel_grace: Duration,
}

impl Default for TaskLimits {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(600),
            poll_interval: Duration::from_millis(500),
            max_per_owner: 32,
            max_tasks: 1024,
            max_result_bytes: 1 << 20,
            max_total_bytes: 64 << 20,
            cancel_grace: Duration::from_secs(5),
        }
    }
}

/// A task's status (`Task.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// One task.
#[derive(Debug)]
struct Record {
    owner: String,
    status: Status,
    status_message: Option<String>,
    created: SystemTime,
    updated: SystemTime,
    expires: Instant,
    /// `expires` on the wall clock (the shared store's expiry).
    expires_at: SystemTime,
    /// The result (`completed`) or the JSON-RPC error (`failed`), as text.
    outcome: Option<Box<RawValue>>,
    /// The input requests not answered yet: key → `{method, params}`.
    inputs: Map<String, Value>,
    /// Where the answer to each of `inputs` goes.
    waiters: HashMap<String, oneshot::Sender<Value>>,
    /// Every input key this task has used (a key names one request over a task's life).
    keys: HashSet<String>,
    /// Fired by `tasks/cancel` and at expiry: the handler's context sees it.
    token: CancellationToken,
}

#[derive(Debug, Default)]
struct Inner {
    tasks: HashMap<String, Record>,
    per_owner: HashMap<String, usize>,
    /// Bytes of `outcome` text held.
    bytes: usize,
}

/// The tasks of one server (shared by its sessions): those whose handlers run in this
/// process, mirrored to a [`SharedTasks`] when there is one, which answers for the tasks of
/// the other processes.
#[derive(Debug)]
pub(crate) struct TaskStore {
    limits: TaskLimits,
    inner: Mutex<Inner>,
    shared: Option<Arc<dyn SharedTasks>>,
}

/// -32602 for a task id that names no task of this owner (unknown, expired, or someone
/// else's: the answers are the same, so an id says nothing about other owners' tasks).
pub(crate) fn not_found() -> RpcError {
    RpcError::new(
        RpcError::invalid_params().code(),
        "Failed to retrieve task: Task not found",
    )
    .with_data(&json!({ "pointer": "/taskId", "reason": "no such task (unknown or expired)" }))
}

impl TaskStore {
    /// A store bounded by `limits`, sharing its tasks through `shared` when given.
    pub(crate) fn new(limits: TaskLimits, shared: Option<Arc<dyn SharedTasks>>) -> Arc<Self> {
        let store = Arc::new(Self {
            limits,
            inner: Mutex::new(Inner::default()),
            shared,
        });
        if let Some(shared) = &store.shared {
            shared.attach(Arc::downgrade(&store));
        }
        store
    }

    /// The shared store, when tasks are shared with other processes.
    pub(crate) fn shared(&self) -> Option<&dyn SharedTasks> {
        self.shared.as_deref()
    }

    /// A new task as [`create`](Self::create) makes it, counted in the shared store too
    /// (whose bounds hold across processes) and written there.
    pub(crate) async fn open(
        &self,
        owner: &str,
        token: CancellationToken,
    ) -> Option<(String, Instant, Box<RawValue>)> {
        let (id, expires, created) = self.create(owner, token)?;
        let Some(shared) = &self.shared else {
            return Some((id, expires, created));
        };
        let expires_at = SystemTime::now() + expires.saturating_duration_since(Instant::now());
        let bounds = (self.limits.max_per_owner, self.limits.max_tasks);
        if !shared.admit(owner, &id, expires_at, bounds).await {
            self.lock().drop_record(&id);
            return None;
        }
        let first = self.lock().tasks.get(&id).map(|record| {
            (
                self.render(&id, record, View::Detailed),
                record.owner.clone(),
            )
        });
        if let Some((task, owner)) = first {
            shared.write_now(&id, &owner, &task, expires_at).await;
        }
        Some((id, expires, created))
    }

    /// Writes `record` to the shared store, if any.
    fn mirror(&self, id: &str, record: &Record) {
        if let Some(shared) = &self.shared {
            let task = self.render(id, record, View::Detailed);
            let terminal = record.status.is_terminal();
            shared.write(id, &record.owner, &task, terminal, record.expires_at);
        }
    }

    pub(crate) fn limits(&self) -> &TaskLimits {
        &self.limits
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.sweep(Instant::now());
        inner
    }

    /// A new `working` task of `owner`, cancelled through `token`: its id and its
    /// `CreateTaskResult`. `None` when the owner or the server holds as many tasks as
    /// allowed, or there is no random source for an id.
    pub(crate) fn create(
        &self,
        owner: &str,
        token: CancellationToken,
    ) -> Option<(String, Instant, Box<RawValue>)> {
        let mut inner = self.lock();
        let held = inner.per_owner.get(owner).copied().unwrap_or(0);
        if held >= self.limits.max_per_owner || inner.tasks.len() >= self.limits.max_tasks {
            return None;
        }
        let id = task_id()?;
        let now = SystemTime::now();
        let record = Record {
            expires_at: now + self.limits.ttl,
            owner: owner.to_owned(),
            status: Status::Working,
            status_message: None,
            created: now,
            updated: now,
            expires: Instant::now() + self.limits.ttl,
            outcome: None,
            inputs: Map::new(),
            waiters: HashMap::new(),
            keys: HashSet::new(),
            token,
        };
        let created = self.render(&id, &record, View::Created);
        let expires = record.expires;
        *inner.per_owner.entry(owner.to_owned()).or_default() += 1;
        inner.tasks.insert(id.clone(), record);
        Some((id, expires, created))
    }

    /// `tasks/get`: its result, the task as a `DetailedTask`.
    pub(crate) fn get(&self, owner: &str, id: &str) -> Result<Box<RawValue>, RpcError> {
        let inner = self.lock();
        let record = inner.owned(owner, id)?;
        Ok(self.render(id, record, View::Detailed))
    }

    /// `tasks/cancel`: a task not yet done is `cancelled` from now on and its handler's
    /// context is cancelled; a done one stays as it is (the ack is the same).
    pub(crate) fn cancel(&self, owner: &str, id: &str) -> Result<(), RpcError> {
        let mut inner = self.lock();
        let record = inner.owned_mut(owner, id)?;
        if !record.status.is_terminal() {
            record.status = Status::Cancelled;
            record.status_message = Some("Cancelled by the client".into());
            record.updated = SystemTime::now();
            record.inputs.clear();
            record.waiters.clear();
            record.token.cancel();
            self.mirror(id, record);
        }
        Ok(())
    }

    /// `tasks/update`: the answers to outstanding input requests go to the asks waiting for
    /// them; any other key is ignored. Once nothing is outstanding the task is `working`.
    pub(crate) fn update(
        &self,
        owner: &str,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), RpcError> {
        let mut inner = self.lock();
        let record = inner.owned_mut(owner, id)?;
        for (key, answer) in responses {
            if record.inputs.remove(&key).is_some()
                && let Some(waiter) = record.waiters.remove(&key)
            {
                let _ = waiter.send(answer);
            }
        }
        if record.status == Status::InputRequired && record.inputs.is_empty() {
            record.status = Status::Working;
            record.updated = SystemTime::now();
            self.mirror(id, record);
        }
        Ok(())
    }

    /// The handler of task `id` asks the client `method` with `params` under `key` (made
    /// unique over the task's life): the task is `input_required` until `tasks/update`
    /// answers. The final key and where the answer arrives; `None` when the task is over.
    pub(crate) fn ask(
        &self,
        id: &str,
        key: String,
        method: &str,
        params: Value,
    ) -> Option<(String, oneshot::Receiver<Value>)> {
        let mut inner = self.lock();
        let record = inner.tasks.get_mut(id)?;
        if record.status.is_terminal() {
            return None;
        }
        let mut unique = key.clone();
        let mut n = 1;
        while record.keys.contains(&unique) {
            n += 1;
            unique = format!("{key}-{n}");
        }
        record.keys.insert(unique.clone());
        let (sender, receiver) = oneshot::channel();
        record.inputs.insert(
            unique.clone(),
            json!({ "method": method, "params": params }),
        );
        record.waiters.insert(unique.clone(), sender);
        record.status = Status::InputRequired;
        record.updated = SystemTime::now();
        self.mirror(id, record);
        Some((unique, receiver))
    }

    /// The handler of task `id` finished with `outcome`: `completed` with its result (the
    /// text written once from the version's generated type, kept as it is), or `failed` with
    /// its error, unless the task was cancelled meanwhile (it stays so). An outcome past the
    /// byte limits fails the task with -32603 instead.
    pub(crate) fn finish(&self, id: &str, outcome: Result<Box<RawValue>, RpcError>) {
        let mut guard = self.lock();
        let inner = &mut *guard;
        let budget = self
            .limits
            .max_total_bytes
            .saturating_sub(inner.bytes)
            .min(self.limits.max_result_bytes);
        let Some(record) = inner.tasks.get_mut(id) else {
            return;
        };
        if record.status.is_terminal() {
            return;
        }
        let failed = |error: &RpcError| {
            let message = Some(error.message().to_owned());
            (Status::Failed, error_object(error), message)
        };
        let (status, outcome, message) = match outcome {
            Ok(result) if result.get().len() <= budget => (Status::Completed, result, None),
            Ok(result) => failed(&RpcError::internal_error().with_data(&format!(
                "the task's outcome ({} bytes) is more than the server keeps",
                result.get().len()
            ))),
            Err(error) => match failed(&error) {
                (_, text, _) if text.get().len() > budget => {
                    failed(&RpcError::internal_error().with_data(&format!(
                        "the task's outcome ({} bytes) is more than the server keeps",
                        text.get().len()
                    )))
                }
                kept => kept,
            },
        };
        let bytes = outcome.get().len();
        record.status = status;
        record.status_message = message;
        record.outcome = Some(outcome);
        record.updated = SystemTime::now();
        record.inputs.clear();
        record.waiters.clear();
        self.mirror(id, record);
        inner.bytes += bytes;
    }

    /// Drops task `id` (its time to live passed); its handler's context is cancelled.
    pub(crate) fn expire(&self, id: &str) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.remove(id);
    }

    /// How many tasks are held, and the bytes of their outcomes.
    #[cfg(test)]
    fn usage(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.tasks.len(), inner.bytes)
    }

    /// The result of a task method naming the task: `view` says which members it has.
    /// Written once into its text, the kept outcome copied in as it is.
    fn render(&self, id: &str, record: &Record, view: View) -> Box<RawValue> {
        let detailed = view == View::Detailed;
        let outcome = || record.outcome.as_deref().unwrap_or_else(|| empty_object());
        let task = TaskView {
            created_at: iso8601(record.created),
            error: (detailed && record.status == Status::Failed).then(outcome),
            input_requests: (detailed && record.status == Status::InputRequired)
                .then_some(&record.inputs),
            last_updated_at: iso8601(record.updated),
            poll_interval_ms: millis(self.limits.poll_interval).max(1),
            result: (detailed && record.status == Status::Completed).then(outcome),
            result_type: match view {
                View::Created => "task",
                View::Detailed => "complete",
            },
            status: record.status.as_str(),
            status_message: record.status_message.as_deref(),
            task_id: id,
            ttl_ms: millis(self.limits.ttl),
        };
        // Strings, integers, a map of values and kept JSON text: nothing here can fail.
        to_raw_value(&task).unwrap_or_else(|_| empty_object().to_owned())
    }
}

/// Which result of the Tasks extension names a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    /// `CreateTaskResult` (the answer to a `tools/call` that became a task): the `Task`
    /// members and `"resultType": "task"`.
    Created,
    /// The result of `tasks/get` (and the record the shared store keeps): the `Task`
    /// members, the `DetailedTask` payload of its status (`inputRequests`, `result` or
    /// `error`) and `"resultType": "complete"`. The extension is served under 2026-07-28
    /// only, whose results name their type.
    Detailed,
}

/// A task as the results of the Tasks extension carry it, written once. Its members are
/// declared in the order of their names, so its text is what a `serde_json::Value` of the
/// same members would write.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TaskView<'a> {
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<&'a Map<String, Value>>,
    last_updated_at: String,
    poll_interval_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a RawValue>,
    result_type: &'static str,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_message: Option<&'a str>,
    task_id: &'a str,
    ttl_ms: u64,
}

/// `{}`, as [`RawValue`].
fn empty_object() -> &'static RawValue {
    static EMPTY: std::sync::OnceLock<Box<RawValue>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| RawValue::from_string("{}".to_owned()).expect("`{}` is JSON"))
}

impl Inner {
    fn owned(&self, owner: &str, id: &str) -> Result<&Record, RpcError> {
        self.tasks
            .get(id)
            .filter(|r| r.owner == owner)
            .ok_or_else(not_found)
    }

    fn owned_mut(&mut self, owner: &str, id: &str) -> Result<&mut Record, RpcError> {
        self.tasks
            .get_mut(id)
            .filter(|r| r.owner == owner)
            .ok_or_else(not_found)
    }

    /// Drops every task whose time to live has passed.
    fn sweep(&mut self, now: Instant) {
        let expired: Vec<String> = self
            .tasks
            .iter()
            .filter(|(_, r)| r.expires <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in expired {
            self.remove(&id);
        }
    }

    fn remove(&mut self, id: &str) {
        if let Some(record) = self.drop_record(id) {
            record.token.cancel();
        }
    }

    /// Forgets task `id` and what it held, leaving its handler's context alone.
    fn drop_record(&mut self, id: &str) -> Option<Record> {
        let record = self.tasks.remove(id)?;
        self.bytes -= record.outcome.as_ref().map_or(0, |o| o.get().len());
        if let Some(held) = self.per_owner.get_mut(&record.owner) {
            *held -= 1;
            if *held == 0 {
                self.per_owner.remove(&record.owner);
            }
        }
        Some(record)
    }
}

/// A JSON-RPC error object (`code`, `message`, `data`), written once (`data` as it is).
fn error_object(error: &RpcError) -> Box<RawValue> {
    #[derive(Serialize)]
    struct ErrorObject<'a> {
        code: i64,
        #[serde(skip_serializing_if = "Option::is_none")]
        data: Option<&'a RawValue>,
        message: &'a str,
    }
    let object = ErrorObject {
        code: error.code(),
        data: error.data(),
        message: error.message(),
    };
    to_raw_value(&object).unwrap_or_else(|_| empty_object().to_owned())
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A fresh task id: 128 random bits, hex.
fn task_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(crate::hex::encode(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(value: Value) -> Box<RawValue> {
        to_raw_value(&value).unwrap()
    }

    fn store(ttl_ms: u64) -> Arc<TaskStore> {
        TaskStore::new(
            TaskLimits {
                ttl: Duration::from_millis(ttl_ms),
                max_per_owner: 2,
                max_tasks: 3,
                max_total_bytes: 100,
                ..TaskLimits::default()
            },
            None,
        )
    }

    #[test]
    fn counts_per_owner_and_in_total_are_bounded() {
        let store = store(60_000);
        let token = CancellationToken::new;
        assert!(store.create("a", token()).is_some());
        assert!(store.create("a", token()).is_some());
        assert!(store.create("a", token()).is_none(), "a's share is 2");
        assert!(store.create("b", token()).is_some());
        assert!(store.create("c", token()).is_none(), "3 in total");
        assert_eq!(store.usage().0, 3);
    }

    #[test]
    fn kept_bytes_are_bounded_and_released_at_expiry() {
        let store = store(50);
        let (first, _, _) = store.create("a", CancellationToken::new()).unwrap();
        let (second, _, _) = store.create("a", CancellationToken::new()).unwrap();
        store.finish(&first, Ok(raw(json!({ "text": "x".repeat(60) }))));
        let (_, held) = store.usage();
        assert!((60..=100).contains(&held), "{held}");
        // The second result would pass the total: its task fails instead, with a short error.
        store.finish(&second, Ok(raw(json!({ "text": "y".repeat(60) }))));
        let failed: Value = serde_json::from_str(store.get("a", &second).unwrap().get()).unwrap();
        assert_eq!(failed["status"], "failed");
        assert_eq!(failed["error"]["code"], -32603);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(
            store.usage(),
            (0, 0),
            "expired tasks and their bytes are gone"
        );
        assert_eq!(store.get("a", &first).unwrap_err().code(), -32602);
    }

    #[test]
    fn expiry_cancels_the_handlers_token() {
        let store = store(10);
        let token = CancellationToken::new();
        store.create("a", token.clone()).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(store.usage().0, 0);
        assert!(token.is_cancelled());
    }
}
