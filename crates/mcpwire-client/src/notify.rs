//! Notifications from the server as the application sees them: log messages, list changes,
//! resource updates, and any other notification, each to a callback registered on the
//! [`ClientBuilder`](crate::ClientBuilder). Progress goes to the call it belongs to
//! ([`CallOptions`](crate::CallOptions)).

use std::sync::Arc;

use mcpwire_model::{Change, ListKind};
use serde::Deserialize;
use serde_json::Value;

use crate::violation::{Rule, Violation};
use mcpwire_types::support::fast_json;

/// A `notifications/message` log entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LogMessage {
    /// The severity (`debug` … `emergency`).
    pub level: String,
    /// The logger's name, if given.
    #[serde(default)]
    pub logger: Option<String>,
    /// The logged data (any JSON).
    pub data: Value,
}

/// One `notifications/progress` of a call.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProgressEvent {
    /// Progress so far.
    pub progress: f64,
    /// The total, when known.
    #[serde(default)]
    pub total: Option<f64>,
    /// A message, when given.
    #[serde(default)]
    pub message: Option<String>,
}

type Callback<T> = Arc<dyn Fn(T) + Send + Sync>;

/// The registered notification callbacks.
#[derive(Clone, Default)]
pub(crate) struct Callbacks {
    pub(crate) logging: Option<Callback<LogMessage>>,
    pub(crate) list_changed: Option<Callback<ListKind>>,
    pub(crate) resource_updated: Option<Callback<String>>,
    pub(crate) other: Option<Callback<(String, Option<Value>)>>,
    pub(crate) violation: Option<Callback<Violation>>,
}

/// A notification's params as `T`; a violation naming the method otherwise.
fn decode<T: serde::de::DeserializeOwned>(
    method: &str,
    params: Option<&str>,
) -> Result<T, Violation> {
    // serde_json's value and error, strings decoded faster.
    fast_json::from_str(params.unwrap_or("{}"))
        .map_err(|e| Violation::new(Rule::NotificationShape, format!("{method} params: {e}")))
}

impl Callbacks {
    /// Hands a server notification (not progress, not cancellation) to its callback; params
    /// that do not have the method's shape are a violation.
    pub(crate) fn dispatch(&self, method: &str, params: Option<&str>) -> Result<(), Violation> {
        if method == "notifications/message" {
            let message: LogMessage = decode(method, params)?;
            if let Some(callback) = &self.logging {
                callback(message);
            }
        } else if let Some(change) = Change::from_notification(method, params) {
            let change = change.map_err(|e| {
                Violation::new(Rule::NotificationShape, format!("{method} params: {e}"))
            })?;
            match change {
                Change::ListChanged(kind) => {
                    if let Some(callback) = &self.list_changed {
                        callback(kind);
                    }
                }
                Change::ResourceUpdated { uri } => {
                    if let Some(callback) = &self.resource_updated {
                        callback(uri);
                    }
                }
                // A change with no callback of its own.
                _ => self.other(method, params)?,
            }
        } else {
            self.other(method, params)?;
        }
        Ok(())
    }

    /// Hands a notification to the callback of the others.
    fn other(&self, method: &str, params: Option<&str>) -> Result<(), Violation> {
        if let Some(callback) = &self.other {
            let params = match params {
                Some(_) => Some(decode(method, params)?),
                None => None,
            };
            callback((method.to_owned(), params));
        }
        Ok(())
    }

    /// Reports a violation no call can be failed with.
    pub(crate) fn violation(&self, violation: Violation) {
        if let Some(callback) = &self.violation {
            callback(violation);
        }
    }
}
