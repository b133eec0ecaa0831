//! Where a server's task records are shared with the other processes behind its endpoint
//! (the Redis store, feature `redis`). The [`TaskStore`](super::TaskStore) of each process
//! keeps the tasks whose handlers run there and mirrors every change of them here; a task
//! method naming a task this process does not hold is answered from here.

use std::future::Future;
use std::pin::Pin;
use std::sync::Weak;
use std::time::SystemTime;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::TaskStore;

/// A future a [`SharedTasks`] method returns.
pub(crate) type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The operations of a shared task store. Reads answer `None` for a task that is not there
/// or not `owner`'s (the same answer); while the shared store cannot be reached, reads find
/// nothing, writes are dropped and `admit` admits (the local bounds still hold).
pub(crate) trait SharedTasks: Send + Sync + std::fmt::Debug {
    /// Gives the local store whose handlers signals from other processes reach.
    fn attach(&self, local: Weak<TaskStore>);

    /// Counts new task `id` of `owner`, held until `expires`; `false` when `owner` or the
    /// whole cluster holds `bounds` (per owner, in total) tasks already.
    fn admit<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
        expires: SystemTime,
        bounds: (usize, usize),
    ) -> Pending<'a, bool>;

    /// Writes the `DetailedTask` of `id`, as the text of the `tasks/get` result that
    /// answers for it (queued: writes of one process land in order; a `terminal` record is
    /// never overwritten).
    fn write(&self, id: &str, owner: &str, task: &RawValue, terminal: bool, expires: SystemTime);

    /// Writes the first record of `id` at once (so that `tasks/get` at any process finds the
    /// task as soon as its `CreateTaskResult` is sent, while Redis is up).
    fn write_now<'a>(
        &'a self,
        id: &'a str,
        owner: &'a str,
        task: &'a RawValue,
        expires: SystemTime,
    ) -> Pending<'a, ()>;

    /// `tasks/get` of a task held elsewhere: its result, as written.
    fn get<'a>(&'a self, owner: &'a str, id: &'a str) -> Pending<'a, Option<Box<RawValue>>>;

    /// `tasks/cancel` of a task held elsewhere: its record is `cancelled` at once (unless
    /// done) and its process told to cancel the handler. `false`: not found.
    fn cancel<'a>(&'a self, owner: &'a str, id: &'a str) -> Pending<'a, bool>;

    /// `tasks/update` of a task held elsewhere: the answers go to its process. `false`: not
    /// found.
    fn update<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
        responses: Map<String, Value>,
    ) -> Pending<'a, bool>;
}
