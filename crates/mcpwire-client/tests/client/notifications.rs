//! Notifications: list changes, resource updates, URL elicitation, roots changes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire_client::{CallOptions, ElicitAnswer, ListKind, Version, result_text};
use mcpwire_server::{Context, NoArguments, Tool, ToolResult};
use serde_json::{Map, json};

use crate::support::{Seen, builder, scripted, serve, server};

async fn eventually<T: Clone>(seen: &Mutex<Vec<T>>) -> Vec<T> {
    for _ in 0..500 {
        let now = seen.lock().unwrap().clone();
        if !now.is_empty() {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Vec::new()
}

#[tokio::test]
async fn list_changes_and_resource_updates_reach_their_callbacks() {
    let fixture = server(&Arc::new(Seen::default()));
    let lists = Arc::new(Mutex::new(Vec::new()));
    let updates = Arc::new(Mutex::new(Vec::new()));
    let (l, u) = (Arc::clone(&lists), Arc::clone(&updates));
    let client = builder()
        .protocol_version(Version::V2025_03_26)
        .on_list_changed(move |kind| l.lock().unwrap().push(kind))
        .on_resource_updated(move |uri| u.lock().unwrap().push(uri))
        .connect(serve(&fixture))
        .await
        .expect("connected");
    let tool = Tool::new("late", "Added later", |_: NoArguments, _: Context| async {
        ToolResult::text("late")
    });
    fixture.add_tool(tool).await.expect("added");
    assert_eq!(eventually(&lists).await, [ListKind::Tools]);
    client.subscribe("mem://alpha").await.expect("subscribed");
    assert_eq!(fixture.notify_resource_updated("mem://alpha"), 1);
    assert_eq!(eventually(&updates).await, ["mem://alpha"]);
    let late = client.call_tool("late", &(), &CallOptions::new()).await;
    assert_eq!(result_text(&late.expect("the new tool")), "late");
}

#[tokio::test]
async fn url_elicitation_is_answered_by_its_own_handler() {
    // 2025-11-25 names each URL elicitation; 2026-07-28 has no id (and asks through an
    // input-required result): both reach the handler.
    for (version, named) in [(Version::V2025_11_25, true), (Version::V2026_07_28, false)] {
        let urls = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&urls);
        let builder = builder().on_url_elicitation(move |request| {
            seen.lock()
                .unwrap()
                .push((request.url, request.elicitation_id.is_some()));
            async { Ok(ElicitAnswer::Accept(Map::new())) }
        });
        let (client, _) = crate::support::connect(version, builder).await;
        let result = client.call_tool("visit", &(), &CallOptions::new()).await;
        assert_eq!(
            result_text(&result.expect("visited")),
            "Accepted(())",
            "{version}"
        );
        assert_eq!(
            *urls.lock().unwrap(),
            [("https://example.com/login".to_owned(), named)],
            "{version}"
        );
        // Form mode has no handler: the server cannot ask in that mode.
        let asked = client.call_tool("ask", &(), &CallOptions::new()).await;
        match asked {
            Ok(result) => assert!(result.is_error(), "{version}: {result:?}"),
            // 2026-07-28: the capability the call needs is missing (-32021).
            Err(error) => assert!(version.is_stateless(), "{version}: {error}"),
        }
    }
}

#[tokio::test]
async fn roots_changes_are_announced() {
    let (client, mut server) = scripted(builder().roots(Vec::new())).await;
    client.notify_roots_list_changed().await.expect("sent");
    assert_eq!(
        server.recv().await,
        json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
    );
}
