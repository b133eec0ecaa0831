//! [`RedisTasks`]: the task records of every process behind one endpoint, in Redis, so that
//! `tasks/get`, `tasks/cancel` and `tasks/update` are answered at whichever process a client
//! reaches. A task's handler runs in the process that created it; that process writes each
//! change of the task's record, and the others read it and send it signals.
//!
//! In Redis (under the cluster's prefix):
//! - `task:<id>`: a hash (`owner`, `process`, `terminal`, `expires`, `task`: the
//!   `DetailedTask` JSON, result or error included) expiring with the task; a record that is
//!   done (`terminal`) is never written again.
//! - `tasks:all` and `tasks:owner:<owner>`: sorted sets of task ids scored by expiry, which
//!   count tasks against [`TaskLimits`](crate::TaskLimits) across processes (checked and
//!   added in one script, so exact while Redis is up).
//! - channel `tasks:signal:<process>`: cancellations and input answers for the handlers a
//!   process runs.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, Weak};
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::{mpsc, watch};

use super::backoff::Backoff;
use super::events::PUBLISH_QUEUE;
use super::link::Link;
use crate::tasks::TaskStore;
use crate::tasks::shared::{Pending, SharedTasks};

/// Writes a record unless the one there is done (KEYS: record; ARGV: owner, process,
/// terminal, task, expires).
const WRITE: &str = r"
if redis.call('HGET', KEYS[1], 'terminal') == '1' then return 0 end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'process', ARGV[2], 'terminal', ARGV[3],
  'task', ARGV[4], 'expires', ARGV[5])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
return 1";

/// Marks an owner's record done with `task` unless it is already (KEYS: record; ARGV:
/// owner, task): -1 not the owner's, 0 already done, 1 marked.
const CANCEL: &str = r"
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
if redis.call('HGET', KEYS[1], 'terminal') == '1' then return 0 end
redis.call('HSET', KEYS[1], 'terminal', '1', 'task', ARGV[2])
return 1";

/// Counts a task unless a bound is reached (KEYS: owner's set, all; ARGV: now, expires, id,
/// per owner, total): 1 admitted, 0 refused.
const ADMIT: &str = r"
for i = 1, 2 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1]) end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4])
  or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', KEYS[i], ARGV[2])
end
return 1";

/// How long subscribing may take before Redis counts as away.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(2);

/// A cancellation (no `responses`) or input answers for a task's handler.
#[derive(Debug, Serialize, Deserialize)]
struct Signal {
    owner: String,
    id: String,
    #[serde(default)]
    responses: Option<Map<String, Value>>,
}

/// The tasks of a server shared through Redis (made by
/// [`RedisCluster::tasks`](super::RedisCluster::tasks), given to
/// [`McpServerBuilder::shared_tasks`](crate::McpServerBuilder::shared_tasks)). Its tasks end
/// when it is dropped.
#[derive(Debug)]
pub struct RedisTasks {
    link: Arc<Link>,
    prefix: String,
    process: String,
    writes: mpsc::Sender<redis::Cmd>,
    local: Arc<OnceLock<Weak<TaskStore>>>,
    /// Dropped with this value: the subscriber stops.
    _stop: watch::Sender<()>,
}

impl RedisTasks {
    /// Starts the writer and the signal subscriber of process `process` (on the current
    /// tokio runtime).
    pub(crate) fn start(
        client: redis::Client,
        link: Arc<Link>,
        prefix: String,
        process: String,
    ) -> Self {
        let (writes, queue) = mpsc::channel(PUBLISH_QUEUE);
        let (stop, stopped) = watch::channel(());
        let local = Arc::new(OnceLock::new());
        tokio::spawn(write(Arc::clone(&link), queue));
        let channel = format!("{prefix}:tasks:signal:{process}");
        tokio::spawn(listen(client, channel, Arc::clone(&local), stopped));
        RedisTasks {
            link,
            prefix,
            process,
            writes,
            local,
            _stop: stop,
        }
    }

    fn record(&self, id: &str) -> String {
        format!("{}:task:{id}", self.prefix)
    }

    /// The record of `id` when it is `owner`'s.
    async fn owned(&self, owner: &str, id: &str) -> Option<HashMap<String, String>> {
        let command = redis::cmd("HGETALL").arg(self.record(id)).clone();
        let fields: HashMap<String, String> = self.link.run(&command).await?.ok()?;
        (fields.get("owner").map(String::as_str) == Some(owner)).then_some(fields)
    }

    /// The script call writing the record of `id`.
    fn write_command(
        &self,
        id: &str,
        owner: &str,
        task: &RawValue,
        terminal: bool,
        expires: SystemTime,
    ) -> redis::Cmd {
        redis::cmd("EVAL")
            .arg(WRITE)
            .arg(1)
            .arg(self.record(id))
            .arg(owner)
            .arg(&self.process)
            .arg(if terminal { "1" } else { "0" })
            .arg(task.get())
            .arg(unix_millis(expires))
            .clone()
    }

    /// Sends `signal` to the process running the task.
    async fn signal(&self, process: &str, signal: &Signal) -> bool {
        let Ok(payload) = serde_json::to_string(signal) else {
            return false;
        };
        let channel = format!("{}:tasks:signal:{process}", self.prefix);
        let command = redis::cmd("PUBLISH").arg(channel).arg(payload).clone();
        matches!(self.link.run::<i64>(&command).await, Some(Ok(_)))
    }
}

impl SharedTasks for RedisTasks {
    fn attach(&self, local: Weak<TaskStore>) {
        let _ = self.local.set(local);
    }

    fn admit<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
        expires: SystemTime,
        (per_owner, total): (usize, usize),
    ) -> Pending<'a, bool> {
        Box::pin(async move {
            let command = redis::cmd("EVAL")
                .arg(ADMIT)
                .arg(2)
                .arg(format!("{}:tasks:owner:{owner}", self.prefix))
                .arg(format!("{}:tasks:all", self.prefix))
                .arg(unix_millis(SystemTime::now()))
                .arg(unix_millis(expires))
                .arg(id)
                .arg(per_owner)
                .arg(total)
                .clone();
            match self.link.run::<i64>(&command).await {
                Some(Ok(admitted)) => admitted == 1,
                // Redis away: this process's own bounds still hold.
                Some(Err(_)) | None => true,
            }
        })
    }

    fn write(&self, id: &str, owner: &str, task: &RawValue, terminal: bool, expires: SystemTime) {
        let command = self.write_command(id, owner, task, terminal, expires);
        if self.writes.try_send(command).is_err() {
            tracing::warn!(
                task = id,
                "task record not written to redis: the queue is full"
            );
        }
    }

    fn write_now<'a>(
        &'a self,
        id: &'a str,
        owner: &'a str,
        task: &'a RawValue,
        expires: SystemTime,
    ) -> Pending<'a, ()> {
        Box::pin(async move {
            let command = self.write_command(id, owner, task, false, expires);
            if !matches!(self.link.run::<i64>(&command).await, Some(Ok(_))) {
                tracing::debug!(task = id, "a task record was not written to redis");
            }
        })
    }

    fn get<'a>(&'a self, owner: &'a str, id: &'a str) -> Pending<'a, Option<Box<RawValue>>> {
        Box::pin(async move {
            let mut fields = self.owned(owner, id).await?;
            // Checked as JSON, kept as the text it is.
            RawValue::from_string(fields.remove("task")?).ok()
        })
    }

    fn cancel<'a>(&'a self, owner: &'a str, id: &'a str) -> Pending<'a, bool> {
        Box::pin(async move {
            let Some(fields) = self.owned(owner, id).await else {
                return false;
            };
            let Some(Value::Object(mut task)) = fields
                .get("task")
                .and_then(|t| serde_json::from_str(t).ok())
            else {
                return false;
            };
            task.insert("status".into(), "cancelled".into());
            task.insert("statusMessage".into(), "Cancelled by the client".into());
            task.insert(
                "lastUpdatedAt".into(),
                crate::tasks::iso8601(SystemTime::now()).into(),
            );
            task.remove("inputRequests");
            let command = redis::cmd("EVAL")
                .arg(CANCEL)
                .arg(1)
                .arg(self.record(id))
                .arg(owner)
                .arg(Value::Object(task).to_string())
                .clone();
            match self.link.run::<i64>(&command).await {
                Some(Ok(1)) => {
                    let signal = Signal {
                        owner: owner.to_owned(),
                        id: id.to_owned(),
                        responses: None,
                    };
                    let process = fields.get("process").map_or("", String::as_str);
                    if !self.signal(process, &signal).await {
                        tracing::warn!(task = id, "the cancellation did not reach its process");
                    }
                    true
                }
                Some(Ok(0)) => true,
                _ => false,
            }
        })
    }

    fn update<'a>(
        &'a self,
        owner: &'a str,
        id: &'a str,
        responses: Map<String, Value>,
    ) -> Pending<'a, bool> {
        Box::pin(async move {
            let Some(fields) = self.owned(owner, id).await else {
                return false;
            };
            if fields.get("terminal").map(String::as_str) != Some("1") {
                let signal = Signal {
                    owner: owner.to_owned(),
                    id: id.to_owned(),
                    responses: Some(responses),
                };
                let process = fields.get("process").map_or("", String::as_str);
                if !self.signal(process, &signal).await {
                    tracing::warn!(task = id, "the input answers did not reach their process");
                }
            }
            true
        })
    }
}

/// Runs the queued record writes, in order; one that fails (Redis away) is dropped.
async fn write(link: Arc<Link>, mut queue: mpsc::Receiver<redis::Cmd>) {
    while let Some(command) = queue.recv().await {
        if !matches!(link.run::<i64>(&command).await, Some(Ok(_))) {
            tracing::debug!("a task record was not written to redis");
        }
    }
}

/// Keeps a subscription to this process's signal `channel`, handing each signal to the
/// local store, until `stopped` says the store is gone; reconnects with backoff.
async fn listen(
    client: redis::Client,
    channel: String,
    local: Arc<OnceLock<Weak<TaskStore>>>,
    mut stopped: watch::Receiver<()>,
) {
    let mut backoff = Backoff::default();
    loop {
        let attempt = tokio::time::timeout(SUBSCRIBE_TIMEOUT, async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, redis::RedisError>(pubsub)
        });
        let subscribed = tokio::select! {
            _ = stopped.changed() => return,
            attempt = attempt => attempt,
        };
        if let Ok(Ok(mut pubsub)) = subscribed {
            backoff.reset();
            let mut messages = pubsub.on_message();
            loop {
                let message = tokio::select! {
                    _ = stopped.changed() => return,
                    message = messages.next() => message,
                };
                let Some(message) = message else { break };
                let Ok(signal) = serde_json::from_slice::<Signal>(message.get_payload_bytes())
                else {
                    continue; // not ours: ignored
                };
                let Some(store) = local.get().and_then(Weak::upgrade) else {
                    continue;
                };
                let _ = match signal.responses {
                    None => store.cancel(&signal.owner, &signal.id),
                    Some(responses) => store.update(&signal.owner, &signal.id, responses),
                };
            }
        }
        tracing::debug!("the task signal subscription is down; subscribing again");
        tokio::select! {
            _ = stopped.changed() => return,
            () = tokio::time::sleep(backoff.next_wait()) => {}
        }
    }
}

/// Unix milliseconds of `time` (0 before 1970).
fn unix_millis(time: SystemTime) -> u64 {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}
