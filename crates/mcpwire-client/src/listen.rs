//! `subscriptions/listen` (MCP 2026-07-28): one long-lived request whose notifications
//! (tagged with its id in `_meta`) arrive on a [`Subscription`] stream until it is dropped.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;

use mcpwire_model::Change;

use crate::error::ClientError;
use crate::session::PendingCall;
use crate::violation::{Rule, Violation};

/// How many events a [`Subscription`] holds unread before newer ones are dropped.
pub const SUBSCRIPTION_CAPACITY: usize = 256;

/// What a `subscriptions/listen` asks for (the 2026-07-28 `SubscriptionFilter`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListenFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tools_list_changed: bool,
    /// `notifications/prompts/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prompts_list_changed: bool,
    /// `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resources_list_changed: bool,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_subscriptions: Vec<String>,
}

/// One event of a [`Subscription`].
#[derive(Debug, Clone)]
pub enum ListenEvent {
    /// `notifications/subscriptions/acknowledged`: the filter the server agreed to.
    Acknowledged(ListenFilter),
    /// A list changed, or a resource's contents (`Change::ResourceUpdated`, for a URI of
    /// the filter's `resource_subscriptions`).
    Changed(Change),
    /// Another notification of the subscription.
    Other {
        /// The method.
        method: String,
        /// The params.
        params: Option<Value>,
    },
    /// The server ended the subscription (with the error it answered, if any), or the
    /// connection ended.
    Ended(Option<ClientError>),
}

impl ListenEvent {
    /// The event of one notification tagged with a subscription's id.
    pub(crate) fn of_notification(method: &str, params: Option<&str>) -> Result<Self, Violation> {
        let shape =
            |reason: String| Violation::new(Rule::NotificationShape, format!("{method}: {reason}"));
        if let Some(change) = Change::from_notification(method, params) {
            return change
                .map(ListenEvent::Changed)
                .map_err(|e| shape(e.to_string()));
        }
        let value: Value = match params {
            Some(text) => serde_json::from_str(text).map_err(|e| shape(e.to_string()))?,
            None => Value::Null,
        };
        if method == "notifications/subscriptions/acknowledged" {
            let filter = value
                .get("notifications")
                .cloned()
                .unwrap_or(Value::Object(Default::default()));
            return serde_json::from_value(filter)
                .map(ListenEvent::Acknowledged)
                .map_err(|e| shape(e.to_string()));
        }
        Ok(ListenEvent::Other {
            method: method.to_owned(),
            params: params.map(|_| value),
        })
    }
}

/// An open `subscriptions/listen`: read its events with [`recv`](Self::recv); dropping it
/// ends the subscription (`notifications/cancelled`).
pub struct Subscription {
    pub(crate) events: mpsc::Receiver<ListenEvent>,
    pub(crate) request: Option<PendingCall>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription").finish_non_exhaustive()
    }
}

impl Subscription {
    /// The next event; `None` after [`ListenEvent::Ended`] was read.
    pub async fn recv(&mut self) -> Option<ListenEvent> {
        self.request.as_ref()?;
        let event = self.events.recv().await;
        if matches!(event, None | Some(ListenEvent::Ended(_)))
            && let Some(mut request) = self.request.take()
        {
            request.disarm();
        }
        event
    }
}
