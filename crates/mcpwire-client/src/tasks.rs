//! The Tasks extension of MCP 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`) on the
//! client. [`ClientBuilder::tasks`](crate::ClientBuilder::tasks) declares the extension on
//! every 2026-07-28 request; a server may then answer a `tools/call` with a task handle.
//! [`Client::call_tool`] drives such a task itself (polls `tasks/get` at the interval the
//! server asks, answers its input requests with the registered handlers through
//! `tasks/update`) and returns the same [`ToolResult`] a direct call would;
//! [`Client::call_tool_as_task`] hands the task to the caller instead, to poll
//! ([`Client::task`]), wait for ([`Client::wait_task`]) or cancel ([`Client::cancel_task`]).
//! The extension has no `tasks/list`: a client keeps the ids of the tasks it started.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use mcpwire::RpcError;
use mcpwire::peer::Request;
use mcpwire_model::ToolResult;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::client::Client;
use crate::error::ClientError;
use crate::options::CallOptions;
use crate::session::Target;
use crate::violation::{Rule, Violation};

/// The extension's identifier.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The poll interval used when the server names none.
const DEFAULT_POLL: Duration = Duration::from_millis(500);

/// A task method: JSON-object params, the result kept as text.
macro_rules! task_method {
    ($name:ident, $method:literal) => {
        struct $name;
        impl Request for $name {
            const METHOD: &'static str = $method;
            type Params = Map<String, Value>;
            type Result = Box<RawValue>;
        }
    };
}

task_method!(TasksGet, "tasks/get");
task_method!(TasksUpdate, "tasks/update");
task_method!(TasksCancel, "tasks/cancel");

/// A task's status (`Task.status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskStatus {
    /// `working`.
    Working,
    /// `input_required`: [`TaskState::input_requests`] says what the server asks.
    InputRequired,
    /// `completed`: [`TaskState::result`] is the call's result.
    Completed,
    /// `failed`: [`TaskState::error`] is the JSON-RPC error.
    Failed,
    /// `cancelled`.
    Cancelled,
    /// A status this client does not know, as sent.
    Other(String),
}

impl TaskStatus {
    fn of(text: &str) -> Self {
        match text {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            other => TaskStatus::Other(other.to_owned()),
        }
    }

    /// Whether the task is over (`completed`, `failed`, `cancelled`).
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A task as the server last described it (`CreateTaskResult` or `tasks/get`).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskState {
    /// `taskId`.
    pub task_id: String,
    /// `status`.
    pub status: TaskStatus,
    /// `statusMessage`.
    pub status_message: Option<String>,
    /// `ttlMs` (`None`: unlimited, or not sent).
    pub ttl: Option<Duration>,
    /// `pollIntervalMs`.
    pub poll_interval: Option<Duration>,
    /// The whole object, as sent (`result`, `error`, `inputRequests` included).
    pub raw: Map<String, Value>,
}

impl TaskState {
    /// Reads a task object; `what` names it in the error.
    fn read(value: Value, what: &str) -> Result<Self, ClientError> {
        let shape = |reason: &str| {
            ClientError::Protocol(Violation::new(
                Rule::ResultShape,
                format!("{what}: {reason}"),
            ))
        };
        let Value::Object(raw) = value else {
            return Err(shape("not an object"));
        };
        let task_id = raw
            .get("taskId")
            .and_then(Value::as_str)
            .ok_or_else(|| shape("no string `taskId`"))?
            .to_owned();
        let status = raw
            .get("status")
            .and_then(Value::as_str)
            .map(TaskStatus::of)
            .ok_or_else(|| shape("no string `status`"))?;
        let millis = |key: &str| {
            raw.get(key)
                .and_then(Value::as_u64)
                .map(Duration::from_millis)
        };
        Ok(TaskState {
            status_message: raw
                .get("statusMessage")
                .and_then(Value::as_str)
                .map(str::to_owned),
            ttl: millis("ttlMs"),
            poll_interval: millis("pollIntervalMs"),
            task_id,
            status,
            raw,
        })
    }

    /// The call's result, once `completed`.
    pub fn result(&self) -> Option<&Value> {
        self.raw.get("result")
    }

    /// The JSON-RPC error, once `failed`.
    pub fn error(&self) -> Option<RpcError> {
        let error = self.raw.get("error")?;
        let code = error.get("code").and_then(Value::as_i64)?;
        let message = error.get("message").and_then(Value::as_str).unwrap_or("");
        let mut rpc = RpcError::new(code, message);
        if let Some(data) = error.get("data") {
            rpc = rpc.with_data(data);
        }
        Some(rpc)
    }

    /// What the task asks, while `input_required` (key → `{method, params}`).
    pub fn input_requests(&self) -> Option<&Map<String, Value>> {
        self.raw.get("inputRequests").and_then(Value::as_object)
    }
}

/// What a `tools/call` declaring the extension got back.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCall {
    /// The call's result, at once.
    Result(ToolResult),
    /// A task to follow.
    Task(TaskState),
}

/// Whether a result's text is a `CreateTaskResult` (`resultType: "task"`).
pub(crate) fn created_task(raw: &RawValue) -> Option<Result<TaskState, ClientError>> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(rename = "resultType", borrow, default)]
        result_type: Option<&'a str>,
    }
    let head: Head<'_> = serde_json::from_str(raw.get()).ok()?;
    if head.result_type != Some("task") {
        return None;
    }
    let value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
    Some(TaskState::read(value, "CreateTaskResult"))
}

impl Client {
    /// `tasks/get`: the task as the server describes it now.
    pub async fn task(&self, task_id: &str) -> Result<TaskState, ClientError> {
        let raw = self.task_request::<TasksGet>(task_id, Map::new()).await?;
        let value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
        TaskState::read(value, "tasks/get result")
    }

    /// `tasks/cancel`: asks the server to cancel the task (it acknowledges; the task's
    /// status says later whether it was).
    pub async fn cancel_task(&self, task_id: &str) -> Result<(), ClientError> {
        self.task_request::<TasksCancel>(task_id, Map::new())
            .await
            .map(drop)
    }

    /// `tasks/update`: answers some of the task's input requests (key → the answer).
    pub async fn update_task(
        &self,
        task_id: &str,
        input_responses: Map<String, Value>,
    ) -> Result<(), ClientError> {
        let mut params = Map::new();
        params.insert("inputResponses".into(), Value::Object(input_responses));
        self.task_request::<TasksUpdate>(task_id, params)
            .await
            .map(drop)
    }

    /// Follows the task of a `tools/call` to its end: polls `tasks/get` at the interval the
    /// server asks (500 ms when it names none), answers its input requests with the
    /// registered handlers (each key once), and returns the call's result. A `failed` task
    /// is [`ClientError::Rpc`] with its error; a `cancelled` one, or one still running when
    /// its time to live has passed, is a [`ClientError::Protocol`] saying so.
    pub async fn wait_task(&self, task_id: &str) -> Result<ToolResult, ClientError> {
        let started = Instant::now();
        let mut answered = HashSet::new();
        loop {
            let task = self.task(task_id).await?;
            let ended = |why: String| {
                ClientError::Protocol(Violation::new(
                    Rule::ResultShape,
                    format!("task {task_id}: {why}"),
                ))
            };
            match &task.status {
                TaskStatus::Completed => {
                    let result = task
                        .result()
                        .ok_or_else(|| ended("completed without a `result`".into()))?;
                    let text = RawValue::from_string(result.to_string())
                        .map_err(|e| ended(e.to_string()))?;
                    return crate::calls::read(
                        &text,
                        self.protocol_version(),
                        ToolResult::from_json,
                    );
                }
                TaskStatus::Failed => {
                    return Err(task
                        .error()
                        .map(ClientError::Rpc)
                        .unwrap_or_else(|| ended("failed without an `error`".into())));
                }
                TaskStatus::Cancelled => return Err(ended("cancelled".into())),
                TaskStatus::InputRequired => {
                    let asked = task.input_requests().cloned().unwrap_or_default();
                    let fresh: Map<String, Value> = asked
                        .into_iter()
                        .filter(|(key, _)| !answered.contains(key))
                        .collect();
                    if !fresh.is_empty() {
                        let responses = self.answer_input_requests(&fresh).await?;
                        answered.extend(responses.keys().cloned());
                        self.update_task(task_id, responses).await?;
                    }
                }
                TaskStatus::Working | TaskStatus::Other(_) => {}
            }
            if let Some(ttl) = task.ttl
                && started.elapsed() > ttl
            {
                return Err(ended(format!("still {:?} after its ttl", task.status)));
            }
            let pause = task.poll_interval.unwrap_or(DEFAULT_POLL);
            tokio::time::sleep(pause.clamp(Duration::from_millis(10), Duration::from_secs(30)))
                .await;
        }
    }

    /// `tools/call`, leaving a task to the caller: [`ToolCall::Task`] when the server
    /// answered with one (only when the client declared the extension,
    /// [`ClientBuilder::tasks`](crate::ClientBuilder::tasks)), else the result.
    pub async fn call_tool_as_task<A: serde::Serialize + ?Sized>(
        &self,
        name: &str,
        arguments: &A,
        options: &CallOptions,
    ) -> Result<ToolCall, ClientError> {
        self.call_tool_or_task(name, arguments, options).await
    }

    /// A task method on `task_id` (`Mcp-Name` carries it over HTTP).
    async fn task_request<R>(
        &self,
        task_id: &str,
        mut params: Map<String, Value>,
    ) -> Result<Box<RawValue>, ClientError>
    where
        R: Request<Params = Map<String, Value>, Result = Box<RawValue>>,
    {
        params.insert("taskId".into(), json!(task_id));
        let options = CallOptions::new();
        self.session()
            .call::<R>(params, Target::named(task_id), &options)
            .await
    }
}
