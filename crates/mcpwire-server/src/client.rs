//! Requests a handler sends to the client: elicitation and sampling, their results read
//! into the model's [`ElicitAnswer`] and [`SamplingReply`](mcpwire_model::SamplingReply) (the types the client writes them
//! from).

use mcpwire::peer::Request;
use mcpwire::service::RequestError;
use mcpwire_model::ElicitAnswer;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use mcpwire_model::ask::wire::AskError;
use mcpwire_model::result::ToolResult;
use mcpwire_model::version::Version;

/// Why a request to the client brought no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// The client did not declare this capability: the request was not sent.
    NotDeclared {
        /// The capability (`elicitation`, `sampling`).
        capability: &'static str,
    },
    /// The negotiated version has no such request from server to client (2024-11-05 has no
    /// elicitation): nothing was asked.
    NotInVersion {
        /// The method.
        method: &'static str,
        /// The version in force.
        version: Version,
    },
    /// The client answered with an error, did not answer in time, or the connection ended.
    Request(RequestError),
    /// The client's answer is not what the request asked for.
    InvalidReply(String),
    /// The request cannot be sent under the version in force (a form type that is not a
    /// flat form, a shape the version lacks): nothing was asked.
    Unsendable(AskError),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NotDeclared { capability } => {
                write!(
                    f,
                    "the client did not declare the `{capability}` capability"
                )
            }
            ClientError::NotInVersion { method, version } => {
                write!(f, "MCP {version} has no `{method}` request to the client")
            }
            ClientError::Request(error) => error.fmt(f),
            ClientError::InvalidReply(reason) => write!(f, "invalid reply: {reason}"),
            ClientError::Unsendable(error) => write!(f, "cannot ask the client: {error}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// What a failed ask of the client means for the call: a capability the client did not
/// declare is [`ToolResult::missing_capability`]; any other failure is a tool execution error
/// saying what went wrong.
impl From<ClientError> for ToolResult {
    fn from(error: ClientError) -> Self {
        match error {
            ClientError::NotDeclared { capability } => Self::missing_capability(capability),
            other => Self::error(other),
        }
    }
}

/// The user's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted the form.
    Accepted(T),
    /// The user declined.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
}

/// The user's answer to a form elicitation with the `_meta` the client put on its result
/// ([`Context::elicit_with_meta`](crate::Context::elicit_with_meta)).
#[derive(Debug, Clone, PartialEq)]
pub struct Elicited<T> {
    /// The answer.
    pub answer: Elicitation<T>,
    /// The result's `_meta` as the client sent it; `None` when it sent none, or under a
    /// version whose `ElicitResult` has no `_meta`.
    pub meta: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The answer to a URL-mode elicitation ([`Context::elicit_url`](crate::Context::elicit_url)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitation {
    /// Whether the user agreed to open the URL.
    pub answer: Elicitation<()>,
    /// The id of this elicitation (2025-11-25; 2026-07-28 has none).
    pub elicitation_id: Option<String>,
}

/// `elicitation/create`; its result is read by [`ElicitAnswer::from_json`].
pub(crate) struct ElicitCreate;

impl Request for ElicitCreate {
    const METHOD: &'static str = "elicitation/create";
    type Params = Value;
    type Result = Box<RawValue>;
}

/// The [`Elicitation`] of a client's answer, its content decoded as `T`.
pub(crate) fn elicitation<T: DeserializeOwned>(
    answer: ElicitAnswer,
) -> Result<Elicitation<T>, ClientError> {
    match answer {
        ElicitAnswer::Accept(content) => serde_json::from_value(Value::Object(content))
            .map(Elicitation::Accepted)
            .map_err(|e| ClientError::InvalidReply(format!("content: {e}"))),
        ElicitAnswer::Decline => Ok(Elicitation::Declined),
        ElicitAnswer::Cancel => Ok(Elicitation::Cancelled),
    }
}

/// `sampling/createMessage`; its result is read by [`SamplingReply::from_json`](mcpwire_model::SamplingReply::from_json).
pub(crate) struct CreateMessage;

impl Request for CreateMessage {
    const METHOD: &'static str = "sampling/createMessage";
    type Params = Value;
    type Result = Box<RawValue>;
}
