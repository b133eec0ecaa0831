//! `subscriptions/listen` (MCP 2026-07-28): one long-lived request whose response stream
//! carries the notifications the client opted in to.
//!
//! 1. The filter agreed is what the client asked for and this server offers (no prompts: no
//!    `promptsListChanged`); the listener subscribes to the [`EventSource`] before anything
//!    is sent, so no change after the acknowledgement is missed.
//! 2. `notifications/subscriptions/acknowledged` goes first, with the agreed filter.
//! 3. Each event the filter admits goes out as its notification; every notification carries
//!    `_meta["io.modelcontextprotocol/subscriptionId"]`, the listen request's id as sent.
//! 4. The stream's end is the subscription's end: the client cancels (over HTTP, closes the
//!    response), and the handler returns, dropping its receiver. A listener that falls behind
//!    the source's bound is ended with an error; one whose source closes gets the result
//!    (`_meta` with the subscription id) that ends a subscription gracefully.

use mcpwire::RpcError;
use mcpwire::service::AsyncCallContext;
use mcpwire_model::Written;
use mcpwire_types::mcp::v2026_07_28::{
    NotificationMetaObject, RequestId, SubscriptionFilter,
    SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenResult,
    SubscriptionsListenResultMetaObject,
};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use mcpwire_model::{Change, ListKind};

use crate::events::{EventSource, ReceiveError};
use crate::shared::Offers;

/// The `_meta` key naming the subscription a notification belongs to.
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The acknowledgement's method.
const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// Serves one `subscriptions/listen` request until the client leaves or the source ends.
pub(crate) async fn listen(
    offers: Offers,
    events: &dyn EventSource,
    requested: SubscriptionFilter,
    request: &AsyncCallContext,
) -> Result<Box<RawValue>, RpcError> {
    let id = request
        .id()
        .map(|id| serde_json::from_str::<RequestId>(id.raw()))
        .and_then(Result::ok)
        .ok_or_else(|| {
            RpcError::invalid_request().with_data(&"subscriptions/listen needs an id")
        })?;
    let agreed = agreed(offers, requested);
    let mut receiver = events.subscribe();
    let meta =
        NotificationMetaObject::new().with_io_modelcontextprotocol_subscription_id(id.clone());
    let ack = SubscriptionsAcknowledgedNotificationParams::new(agreed.clone()).with_meta(meta);
    if !send(request, ACKNOWLEDGED, &ack).await {
        return Ok(ended(&id));
    }
    loop {
        let next = tokio::select! {
            () = request.cancelled() => return Ok(ended(&id)),
            next = receiver.next() => next,
        };
        match next {
            Ok(event) if admits(&agreed, &event) => {
                if !send(request, event.method(), &params(&event, &id)).await {
                    return Ok(ended(&id));
                }
            }
            Ok(_) => {}
            Err(ReceiveError::Closed) => return Ok(ended(&id)),
            Err(lagged @ ReceiveError::Lagged(_)) => {
                return Err(RpcError::internal_error().with_data(&lagged.to_string()));
            }
        }
    }
}

/// Sends one notification of the stream; `false` when the client is gone (cancelled, or its
/// stream closed).
async fn send<P: serde::Serialize>(request: &AsyncCallContext, method: &str, params: &P) -> bool {
    tokio::select! {
        () = request.cancelled() => false,
        sent = request.notify_raw(method, params) => sent.is_ok(),
    }
}

/// The filter this server honours: what the client asked for, of what it offers. Types not
/// agreed are left out (never `false`).
fn agreed(offers: Offers, requested: SubscriptionFilter) -> SubscriptionFilter {
    let wanted =
        |asked: Option<bool>, offered: bool| (asked == Some(true) && offered).then_some(true);
    let mut agreed = SubscriptionFilter::new();
    agreed.tools_list_changed = wanted(requested.tools_list_changed, offers.tools);
    agreed.prompts_list_changed = wanted(requested.prompts_list_changed, offers.prompts);
    agreed.resources_list_changed = wanted(requested.resources_list_changed, offers.resources);
    agreed.resource_subscriptions = requested
        .resource_subscriptions
        .filter(|uris| offers.resources && !uris.is_empty());
    agreed
}

/// Whether the agreed filter lets `event` through.
fn admits(agreed: &SubscriptionFilter, event: &Change) -> bool {
    match event {
        Change::ListChanged(ListKind::Tools) => agreed.tools_list_changed == Some(true),
        Change::ListChanged(ListKind::Prompts) => agreed.prompts_list_changed == Some(true),
        Change::ListChanged(ListKind::Resources) => agreed.resources_list_changed == Some(true),
        Change::ResourceUpdated { uri } => agreed
            .resource_subscriptions
            .as_ref()
            .is_some_and(|uris| uris.iter().any(|u| u == uri)),
        // A change this version's filter cannot name.
        _ => false,
    }
}

/// The params of the notification announcing `event` on subscription `id`.
fn params(event: &Change, id: &RequestId) -> Value {
    let mut params = json!({ "_meta": { SUBSCRIPTION_ID: id } });
    if let Change::ResourceUpdated { uri } = event {
        params["uri"] = uri.clone().into();
    }
    params
}

/// The result that ends subscription `id`, written once from its generated type.
fn ended(id: &RequestId) -> Box<RawValue> {
    let meta = SubscriptionsListenResultMetaObject::new(id.clone());
    Written::written(SubscriptionsListenResult::new(meta, "complete"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of a subscription is the bytes it was when built as a value and completed
    /// with `resultType`.
    #[test]
    fn the_end_is_the_bytes_of_the_value_it_was() {
        for id in [r#""listen-1""#, "7", r#""é\"q""#, "-3"] {
            let id: RequestId = serde_json::from_str(id).unwrap();
            let mut old = json!({ "_meta": { SUBSCRIPTION_ID: &id } });
            old["resultType"] = "complete".into();
            assert_eq!(ended(&id).get(), old.to_string());
        }
    }

    fn filter(text: &str) -> SubscriptionFilter {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn only_what_is_asked_for_and_offered_is_agreed() {
        let offers = Offers {
            tools: true,
            resources: false,
            prompts: true,
            completions: false,
            tasks: false,
        };
        let asked = filter(
            r#"{"toolsListChanged":true,"promptsListChanged":false,"resourcesListChanged":true,"resourceSubscriptions":["a://b"]}"#,
        );
        let agreed = agreed(offers, asked);
        assert_eq!(
            serde_json::to_value(&agreed).unwrap(),
            json!({ "toolsListChanged": true })
        );
        assert!(admits(&agreed, &Change::ListChanged(ListKind::Tools)));
        assert!(!admits(&agreed, &Change::ListChanged(ListKind::Prompts)));
        assert!(!admits(
            &agreed,
            &Change::ResourceUpdated {
                uri: "a://b".into()
            }
        ));
    }
}
