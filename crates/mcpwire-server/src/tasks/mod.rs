//! The Tasks extension of MCP 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`): a
//! `tools/call` answered with a task handle (`CreateTaskResult`, `resultType: "task"`)
//! instead of its result, which the client then polls with `tasks/get`, answers with
//! `tasks/update` and stops with `tasks/cancel`.
//!
//! - [`TaskSupport`] is declared per tool ([`Tool::tasks`](crate::Tool::tasks)); the
//!   handler does not change. A call becomes a task only when its request declares the
//!   extension in `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` and its
//!   handler does not finish at once (see [`run`]); a `Required` tool called without the
//!   extension is -32021 naming it, before the handler runs.
//! - The server advertises the extension in `server/discover` when some tool supports
//!   tasks; `tasks/get`, `tasks/update` and `tasks/cancel` without the extension declared
//!   are -32021; `tasks/result` and `tasks/list` (the 2025-11-25 design) stay -32601.
//! - Tasks live in a bounded [`store`] (see [`TaskLimits`]); each belongs to the owner of
//!   the request that created it and no one else sees it. With a [`shared`] store (Redis),
//!   a task created at one process is read, cancelled and answered at any other.

mod clock;
mod inputs;
pub(crate) mod run;
pub(crate) mod shared;
pub(crate) mod store;

use mcpwire::RpcError;
use mcpwire_types::mcp::v2026_07_28::ErrorCode;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

#[cfg(feature = "redis")]
pub(crate) use clock::iso8601;
pub(crate) use inputs::TaskInputs;
pub use store::TaskLimits;
pub(crate) use store::TaskStore;

/// The extension's identifier.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether a tool's calls may run as tasks ([`Tool::tasks`](crate::Tool::tasks)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// Never a task: the call is answered with its result (the default).
    #[default]
    Forbidden,
    /// A task when the client declared the extension and the handler does not finish at
    /// once; otherwise the call is answered with its result.
    Optional,
    /// As `Optional`, but a client that did not declare the extension gets -32021 (Missing
    /// Required Client Capability) naming it, and the handler does not run.
    Required,
}

/// A task method of the extension, served under 2026-07-28.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskMethod {
    /// `tasks/get`: the task as it stands.
    Get,
    /// `tasks/update`: the client's answers to the task's input requests.
    Update,
    /// `tasks/cancel`: the task stopped.
    Cancel,
}

/// Whether the client capabilities of a request declare the extension.
pub(crate) fn declared(capabilities: &Map<String, Value>) -> bool {
    capabilities
        .get("extensions")
        .and_then(|e| e.get(TASKS_EXTENSION))
        .is_some()
}

/// -32021 naming the extension in `data.requiredCapabilities` (SEP-2663, "Capability
/// Negotiation").
pub(crate) fn missing_extension() -> RpcError {
    RpcError::new(
        ErrorCode::MissingRequiredClientCapability.code(),
        format!("Missing required client capability: extension {TASKS_EXTENSION}"),
    )
    .with_data(&json!({
        "requiredCapabilities": { "extensions": { TASKS_EXTENSION: {} } }
    }))
}

/// `tasks/get`, `tasks/update` or `tasks/cancel` of `owner`, whose request declared
/// `capabilities`: the result, written: the task, or the empty acknowledgement.
pub(crate) async fn serve(
    store: &TaskStore,
    owner: &str,
    method: TaskMethod,
    capabilities: &Map<String, Value>,
    task_id: Option<String>,
    input_responses: Option<Map<String, Value>>,
) -> Result<Box<RawValue>, RpcError> {
    if !declared(capabilities) {
        return Err(missing_extension());
    }
    let invalid = |pointer: &str, reason: &str| {
        RpcError::invalid_params().with_data(&json!({ "pointer": pointer, "reason": reason }))
    };
    let id = task_id.ok_or_else(|| invalid("/taskId", "missing field `taskId`"))?;
    let responses = match method {
        TaskMethod::Update => Some(
            input_responses
                .ok_or_else(|| invalid("/inputResponses", "missing field `inputResponses`"))?,
        ),
        TaskMethod::Get | TaskMethod::Cancel => None,
    };
    // Kept for the shared store (a copy only when there is one).
    let kept = store.shared().and_then(|_| responses.clone());
    let local = match method {
        TaskMethod::Get => store.get(owner, &id),
        TaskMethod::Cancel => store.cancel(owner, &id).map(|()| acknowledged()),
        TaskMethod::Update => store
            .update(owner, &id, responses.unwrap_or_default())
            .map(|()| acknowledged()),
    };
    // Not held here: another process of the cluster may hold it.
    let Some(shared) = store.shared().filter(|_| local.is_err()) else {
        return local;
    };
    let found = match method {
        TaskMethod::Get => return shared.get(owner, &id).await.ok_or_else(store::not_found),
        TaskMethod::Cancel => shared.cancel(owner, &id).await,
        TaskMethod::Update => shared.update(owner, &id, kept.unwrap_or_default()).await,
    };
    if found {
        Ok(acknowledged())
    } else {
        Err(store::not_found())
    }
}

/// The result acknowledging `tasks/cancel` and `tasks/update`: empty, but for its type (the
/// extension is served under 2026-07-28 only, whose results name it).
fn acknowledged() -> Box<RawValue> {
    mcpwire_model::result::wire::empty_result(mcpwire_model::Version::V2026_07_28)
}
