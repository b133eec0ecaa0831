//! A request as this layer serves it: what the version's generated params type decoded
//! (see [`validate`](crate::validate)), kept and handed to dispatch, which matches on it.
//! Nothing on the way reads the params' bytes again.

use std::collections::BTreeMap;

use mcpwire_types::JsonObject;
use mcpwire_types::mcp::v2026_07_28::SubscriptionFilter;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::completion::{Argument, CompletionContext, Reference};
use mcpwire_model::logging::LogLevel;

/// One decoded request: the `_meta` members this layer reads and the method's own members.
#[derive(Debug)]
pub(crate) struct Validated {
    /// `_meta` of a request of a stateless version (2026-07-28); `None` before it.
    pub(crate) meta: Option<Meta>,
    /// `_meta.progressToken` (every version), as its JSON text.
    pub(crate) progress_token: Option<Box<RawValue>>,
    /// The method's members.
    pub(crate) request: Request,
}

/// The lists a server serves, one `*/list` method each ([`Method::List`](crate::method::Method)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listed {
    /// `tools/list`.
    Tools,
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    ResourceTemplates,
    /// `prompts/list`.
    Prompts,
}

/// The methods this layer serves, with the members each reads.
#[derive(Debug)]
pub(crate) enum Request {
    /// `ping`.
    Ping,
    /// `server/discover`.
    Discover,
    /// `initialize`, under the version it agrees.
    Initialize {
        /// The client's capabilities.
        capabilities: Map<String, Value>,
    },
    /// `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`.
    List {
        /// Which list.
        of: Listed,
        /// The page asked for.
        cursor: Option<String>,
    },
    /// `tools/call`.
    CallTool {
        /// The tool.
        name: String,
        /// Its arguments, as sent.
        arguments: Option<JsonObject>,
        /// The answers to an earlier input-required result.
        input: Input,
    },
    /// `resources/read`.
    ReadResource {
        /// The resource.
        uri: String,
        /// The answers to an earlier input-required result.
        input: Input,
    },
    /// `prompts/get`.
    GetPrompt {
        /// The prompt.
        name: String,
        /// Its arguments.
        arguments: Option<BTreeMap<String, String>>,
        /// The answers to an earlier input-required result.
        input: Input,
    },
    /// `logging/setLevel`.
    SetLevel(LogLevel),
    /// `completion/complete`.
    Complete {
        /// The prompt or template referred to.
        reference: Reference,
        /// The argument being completed.
        argument: Argument,
        /// The arguments already given.
        context: Option<CompletionContext>,
    },
    /// `resources/subscribe` (`true`) or `resources/unsubscribe` (`false`).
    Subscribe {
        /// The resource.
        uri: String,
        /// Subscribe rather than unsubscribe.
        subscribe: bool,
    },
    /// `subscriptions/listen`.
    Listen(SubscriptionFilter),
}

/// What a request answering an input-required result carries (2026-07-28).
#[derive(Debug, Default)]
pub(crate) struct Input {
    /// `inputResponses`.
    pub(crate) responses: Option<Map<String, Value>>,
    /// `requestState`, still sealed.
    pub(crate) request_state: Option<String>,
}

/// `_meta` of a 2026-07-28 request.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Meta {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", default)]
    pub(crate) protocol_version: Option<String>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", default)]
    pub(crate) client_capabilities: Option<Map<String, Value>>,
    #[serde(rename = "io.modelcontextprotocol/logLevel", default)]
    pub(crate) log_level: Option<LogLevel>,
    /// `progressToken`, as sent (the context takes only a string or a number).
    #[serde(rename = "progressToken", default)]
    pub(crate) progress_token: Option<Box<RawValue>>,
}

/// The params of a method no version's schema types here (the Tasks extension's methods,
/// `server/discover` and `subscriptions/listen` outside 2026-07-28): the members this layer
/// reads, decoded once.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Untyped {
    #[serde(rename = "_meta", default)]
    pub(crate) meta: Option<Meta>,
    #[serde(default)]
    pub(crate) cursor: Option<String>,
    /// The filter of `subscriptions/listen`.
    #[serde(default)]
    pub(crate) notifications: Option<SubscriptionFilter>,
    /// The task of `tasks/get`, `tasks/update` and `tasks/cancel` (Tasks extension).
    #[serde(rename = "taskId", default)]
    pub(crate) task_id: Option<String>,
    #[serde(rename = "inputResponses", default)]
    pub(crate) input_responses: Option<Map<String, Value>>,
}
