//! `resources/subscribe` and `resources/unsubscribe` (2024-11-05 to 2025-11-25) with
//! `notifications/resources/updated` sent by `McpServer::notify_resource_updated` to the
//! sessions subscribed to the URI, in conversations with clients of the peer core. Every
//! result and notification is validated against the version's schema.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use mcpwire_server::{Context, McpServer, Resource, ResourceContents, ResourceTemplate, Version};
use serde_json::json;
use support::{Client, connect, data, declines};

const WAIT: Duration = Duration::from_secs(5);
const QUIET: Duration = Duration::from_millis(200);

const SUBSCRIBING_VERSIONS: [Version; 4] = [
    Version::V2024_11_05,
    Version::V2025_03_26,
    Version::V2025_06_18,
    Version::V2025_11_25,
];

fn server() -> McpServer {
    McpServer::builder("subscriptions", "1")
        .resource(Resource::new(
            "file:///log.txt",
            "log",
            |_: Context| async { ResourceContents::text("line 1") },
        ))
        .resource_template(ResourceTemplate::new(
            "notes://{id}",
            "note",
            |vars: BTreeMap<String, String>, _: Context| async move {
                ResourceContents::text(vars["id"].clone())
            },
        ))
        .build()
        .unwrap()
}

async fn initialized(server: &McpServer, version: Version) -> Client {
    let client = connect(server, version, declines());
    let result = client.initialize(json!({})).await;
    assert_eq!(
        result["capabilities"]["resources"],
        json!({ "listChanged": true, "subscribe": true }),
        "{version}"
    );
    client
}

#[tokio::test]
async fn only_subscribed_sessions_hear_of_an_update_until_they_unsubscribe() {
    let server = server();
    for version in SUBSCRIBING_VERSIONS {
        let mut subscribed = initialized(&server, version).await;
        let mut other = initialized(&server, version).await;
        let done = subscribed
            .request("resources/subscribe", json!({ "uri": "file:///log.txt" }))
            .await
            .unwrap();
        assert_eq!(done, json!({}));

        assert_eq!(
            server.notify_resource_updated("file:///log.txt"),
            1,
            "{version}"
        );
        let (method, params) = subscribed.notification(WAIT).await.expect("updated");
        assert_eq!(method, "notifications/resources/updated");
        assert_eq!(params, json!({ "uri": "file:///log.txt" }));
        assert_eq!(other.notification(QUIET).await, None);
        // Another URI reaches nobody.
        assert_eq!(server.notify_resource_updated("notes://1"), 0);

        subscribed
            .request("resources/unsubscribe", json!({ "uri": "file:///log.txt" }))
            .await
            .unwrap();
        assert_eq!(server.notify_resource_updated("file:///log.txt"), 0);
        assert_eq!(subscribed.notification(QUIET).await, None);
    }
}

#[tokio::test]
async fn a_uri_a_template_matches_can_be_subscribed_and_an_unknown_one_cannot() {
    let server = server();
    let mut client = initialized(&server, Version::V2025_06_18).await;
    client
        .request("resources/subscribe", json!({ "uri": "notes://7" }))
        .await
        .unwrap();
    assert_eq!(server.notify_resource_updated("notes://7"), 1);
    let (_, params) = client.notification(WAIT).await.expect("updated");
    assert_eq!(params["uri"], "notes://7");

    let error = client
        .request("resources/subscribe", json!({ "uri": "file:///nope" }))
        .await
        .unwrap_err();
    assert_eq!(error.code(), -32002);
    assert_eq!(data(&error)["uri"], "file:///nope");
}

#[tokio::test]
async fn version_2026_has_no_subscribe_and_declares_none() {
    let server = server();
    let client = connect(&server, Version::V2026_07_28, declines());
    let discovered = client.discover().await;
    let meta = Client::meta(json!({}));
    assert_eq!(
        discovered["capabilities"]["resources"],
        json!({ "listChanged": true })
    );
    let error = client
        .request(
            "resources/subscribe",
            json!({ "_meta": meta, "uri": "file:///log.txt" }),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), -32601);
}
