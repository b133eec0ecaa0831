//! Typed outgoing messages: a request names its method, its params type and the type its
//! result decodes into; a notification names its method and params type.
//!
//! ```
//! use mcpwire::peer::Request;
//! use serde::{Deserialize, Serialize};
//!
//! /// MCP `roots/list`, answered with the client's roots.
//! struct ListRoots;
//!
//! #[derive(Deserialize, Debug)]
//! struct Roots { roots: Vec<serde_json::Value> }
//!
//! impl Request for ListRoots {
//!     const METHOD: &'static str = "roots/list";
//!     type Params = serde_json::Map<String, serde_json::Value>;
//!     type Result = Roots;
//! }
//! assert_eq!(ListRoots::METHOD, "roots/list");
//! ```

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A request this side sends: its method, params and the type of its result.
///
/// Params must serialize to a JSON object or array; `()` or `None` (JSON `null`) leaves the
/// `params` member out.
pub trait Request {
    /// The method name.
    const METHOD: &'static str;
    /// The params sent.
    type Params: Serialize;
    /// The type the response's `result` is decoded into.
    type Result: DeserializeOwned + Send + 'static;
}

/// A notification this side sends: its method and params.
pub trait Notification {
    /// The method name.
    const METHOD: &'static str;
    /// The params sent (see [`Request::Params`] for the allowed shapes).
    type Params: Serialize;
}

/// MCP `ping`: params none, result an empty object (any members are accepted).
#[derive(Debug, Clone, Copy)]
pub struct Ping;

impl Request for Ping {
    const METHOD: &'static str = "ping";
    type Params = ();
    type Result = serde_json::Map<String, serde_json::Value>;
}

/// MCP `notifications/cancelled`: the sender no longer wants the result of a request.
#[derive(Debug, Clone, Copy)]
pub struct Cancelled;

/// The params of [`Cancelled`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CancelledParams {
    /// The id of the request being cancelled, as JSON text.
    #[serde(rename = "requestId")]
    pub request_id: Box<RawValue>,
    /// Why, for logs.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
}

impl Notification for Cancelled {
    const METHOD: &'static str = "notifications/cancelled";
    type Params = CancelledParams;
}

/// MCP `notifications/progress`: progress of a request that carried `_meta.progressToken`.
#[derive(Debug, Clone, Copy)]
pub struct Progress;

/// The params of [`Progress`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProgressParams {
    /// The token from the request's `_meta.progressToken`, as JSON text.
    #[serde(rename = "progressToken")]
    pub progress_token: Box<RawValue>,
    /// Progress so far; increases with each notification.
    pub progress: f64,
    /// The total, when known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub total: Option<f64>,
    /// A human-readable message.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub message: Option<String>,
}

impl Notification for Progress {
    const METHOD: &'static str = "notifications/progress";
    type Params = ProgressParams;
}
