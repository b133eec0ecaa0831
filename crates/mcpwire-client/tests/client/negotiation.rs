//! Negotiation against servers that answer other versions, or none the client speaks.

use mcpwire_client::{ClientError, StreamTransport, Version};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

use crate::support::builder;

/// Runs a scripted server: for each message the client sends, `answer` gives the lines to
/// send back. Returns the client's transport and a handle to what the client sent.
fn scripted_by(
    answer: impl Fn(&Value) -> Vec<Value> + Send + 'static,
) -> (
    StreamTransport<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    tokio::task::JoinHandle<Vec<Value>>,
) {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let (server_read, mut server_write) = tokio::io::split(server_io);
    let server = tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(server_read).lines();
        let mut seen = Vec::new();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).expect("the client sends JSON");
            for reply in answer(&message) {
                let mut bytes = reply.to_string().into_bytes();
                bytes.push(b'\n');
                if server_write.write_all(&bytes).await.is_err() {
                    break;
                }
            }
            seen.push(message);
        }
        seen
    });
    let (read, write) = tokio::io::split(client_io);
    (StreamTransport::new(read, write), server)
}

/// A server that speaks only `version` by `initialize` (and has no `server/discover`).
fn handshake_only(version: &'static str) -> impl Fn(&Value) -> Vec<Value> + Send + 'static {
    move |message| match message["method"].as_str() {
        Some("initialize") => vec![json!({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocolVersion": version, "capabilities": {},
            "serverInfo": {"name": "old", "version": "1"}}})],
        Some("server/discover") => vec![json!({"jsonrpc": "2.0", "id": message["id"],
            "error": {"code": -32601, "message": "Method not found"}})],
        Some("ping") => vec![json!({"jsonrpc": "2.0", "id": message["id"], "result": {}})],
        _ => Vec::new(),
    }
}

#[tokio::test]
async fn a_2026_client_falls_back_to_the_handshake_of_an_older_server() {
    let (transport, server) = scripted_by(handshake_only("2025-11-25"));
    let client = connected_2026(transport).await;
    assert_eq!(client.protocol_version(), Version::V2025_11_25);
    client.ping().await.expect("ping under 2025-11-25");
    client.close().await;
    let sent = server.await.expect("joined");
    let methods: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        [
            "server/discover",
            "initialize",
            "notifications/initialized",
            "ping"
        ]
    );
    // The discover request stated the version in `_meta`; initialize asked for the newest
    // version with the handshake.
    assert_eq!(
        sent[0]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert_eq!(sent[1]["params"]["protocolVersion"], "2025-11-25");
    assert!(sent[3]["params"].get("_meta").is_none(), "{}", sent[3]);
}

#[tokio::test]
async fn the_client_follows_a_server_that_answers_an_older_version() {
    let (transport, _server) = scripted_by(handshake_only("2024-11-05"));
    let client = builder().connect(transport).await.expect("connected");
    assert_eq!(client.protocol_version(), Version::V2024_11_05);
    // 2024-11-05 has no `subscriptions/listen`: refused before anything is sent.
    let error = client.listen(&Default::default()).await.unwrap_err();
    assert!(matches!(
        error,
        ClientError::NotInVersion {
            version: "2024-11-05",
            ..
        }
    ));
}

#[tokio::test]
async fn a_version_the_client_does_not_speak_fails_the_connection() {
    let (transport, server) = scripted_by(handshake_only("1999-01-01"));
    let error = builder().connect(transport).await.unwrap_err();
    match error {
        ClientError::Negotiation(reason) => assert!(reason.contains("1999-01-01"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // The connection is closed: the server sees the end of its input.
    let sent = server.await.expect("the server's input ended");
    assert_eq!(sent.len(), 1);
}

/// A server whose handshake result is `result`, under both handshakes.
fn handshake_answering(result: Value) -> impl Fn(&Value) -> Vec<Value> + Send + 'static {
    move |message| match message["method"].as_str() {
        Some("initialize" | "server/discover") => {
            vec![json!({"jsonrpc": "2.0", "id": message["id"], "result": result})]
        }
        _ => Vec::new(),
    }
}

#[tokio::test]
async fn a_handshake_result_its_version_schema_refuses_fails_naming_the_pointer() {
    // `serverInfo` without its `version`, under the version the server answered.
    let initialize = json!({"protocolVersion": "2025-06-18", "capabilities": {},
        "serverInfo": {"name": "no-version"}});
    // `supportedVersions` of numbers: a malformed reply, not a server without discover.
    let discover = json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "public",
        "supportedVersions": [2026],
        "capabilities": {}});
    for (requested, result, pointer) in [
        (Version::V2025_06_18, &initialize, "\"/serverInfo\""),
        (Version::V2026_07_28, &discover, "\"/supportedVersions/0\""),
    ] {
        let (transport, server) = scripted_by(handshake_answering(result.clone()));
        let error = builder()
            .protocol_version(requested)
            .connect(transport)
            .await
            .unwrap_err();
        match error {
            ClientError::Protocol(v) => {
                assert_eq!(v.rule, mcpwire_client::Rule::ResultShape, "{v}");
                assert!(v.detail.contains(pointer), "{v}");
            }
            other => panic!("{requested}: {other:?}"),
        }
        // No fallback: the one handshake request was all the client sent.
        assert_eq!(server.await.expect("joined").len(), 1, "{requested}");
    }
    // Without the check, the same `initialize` result is taken as it is.
    let (transport, _server) = scripted_by(handshake_answering(initialize));
    let client = builder()
        .check_results(false)
        .protocol_version(Version::V2025_06_18)
        .connect(transport)
        .await
        .expect("taken unchecked");
    assert_eq!(client.handshake().server_info["name"], "no-version");
}

#[tokio::test]
async fn a_2026_result_without_result_type_is_complete() {
    let (transport, _server) = scripted_by(|message| {
        let id = &message["id"];
        match message["method"].as_str() {
            Some("server/discover") => discovered(id, json!({"tools": {}})),
            Some("tools/call") => vec![json!({"jsonrpc": "2.0", "id": id, "result": {
                "content": [{"type": "text", "text": "done"}]}})],
            _ => Vec::new(),
        }
    });
    let client = connected_2026(transport).await;
    let options = mcpwire_client::CallOptions::new();
    let result = client
        .call_tool("t", &(), &options)
        .await
        .expect("complete");
    assert_eq!(mcpwire_client::result_text(&result), "done");
}

/// A client of 2026-07-28 over a scripted server's `transport`.
async fn connected_2026(
    transport: StreamTransport<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
) -> mcpwire_client::Client {
    builder()
        .protocol_version(Version::V2026_07_28)
        .connect(transport)
        .await
        .expect("connected")
}

/// A 2026-07-28 server's answer to `server/discover` (request `id`) offering `capabilities`.
fn discovered(id: &Value, capabilities: Value) -> Vec<Value> {
    vec![json!({"jsonrpc": "2.0", "id": id, "result": {
        "resultType": "complete", "ttlMs": 0, "cacheScope": "public",
        "supportedVersions": ["2026-07-28"], "capabilities": capabilities}})]
}

#[tokio::test]
async fn a_dropped_subscription_cancels_its_listen_request() {
    let (heard_cancel, mut cancel_heard) = tokio::sync::mpsc::unbounded_channel();
    let (transport, server) = scripted_by(move |message| {
        let id = &message["id"];
        match message["method"].as_str() {
            Some("server/discover") => discovered(id, json!({"tools": {"listChanged": true}})),
            Some("subscriptions/listen") => {
                let meta = json!({"io.modelcontextprotocol/subscriptionId": id});
                vec![
                    json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                        "params": {"notifications": {"toolsListChanged": true}, "_meta": meta}}),
                    json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                        "params": {"_meta": meta}}),
                ]
            }
            Some("notifications/cancelled") => {
                let _ = heard_cancel.send(());
                Vec::new()
            }
            _ => Vec::new(),
        }
    });
    let client = connected_2026(transport).await;
    let filter = mcpwire_client::ListenFilter {
        tools_list_changed: true,
        ..Default::default()
    };
    let mut subscription = client.listen(&filter).await.expect("listening");
    assert!(matches!(
        subscription.recv().await,
        Some(mcpwire_client::ListenEvent::Acknowledged(agreed)) if agreed.tools_list_changed
    ));
    assert!(matches!(
        subscription.recv().await,
        Some(mcpwire_client::ListenEvent::Changed(
            mcpwire_client::Change::ListChanged(mcpwire_client::ListKind::Tools)
        ))
    ));
    drop(subscription);
    // The cancellation is sent by a task of its own: wait for the server to hear it.
    let heard = tokio::time::timeout(std::time::Duration::from_secs(10), cancel_heard.recv());
    assert_eq!(heard.await, Ok(Some(())), "no cancellation was sent");
    client.close().await;
    let sent = server.await.expect("joined");
    let listen = sent
        .iter()
        .find(|m| m["method"] == "subscriptions/listen")
        .expect("sent");
    let cancelled = sent.last().expect("something");
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], listen["id"]);
}

#[tokio::test]
async fn a_listen_stream_carries_a_resources_change_as_the_models() {
    let (transport, _server) = scripted_by(move |message| {
        let id = &message["id"];
        match message["method"].as_str() {
            Some("server/discover") => discovered(id, json!({"resources": {"subscribe": true}})),
            Some("subscriptions/listen") => {
                let meta = json!({"io.modelcontextprotocol/subscriptionId": id});
                vec![
                    json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                        "params": {"notifications": {"resourceSubscriptions": ["file:///a"]},
                            "_meta": meta}}),
                    json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                        "params": {"uri": "file:///a", "_meta": meta}}),
                ]
            }
            _ => Vec::new(),
        }
    });
    let client = connected_2026(transport).await;
    let filter = mcpwire_client::ListenFilter {
        resource_subscriptions: vec!["file:///a".into()],
        ..Default::default()
    };
    let mut subscription = client.listen(&filter).await.expect("listening");
    assert!(matches!(
        subscription.recv().await,
        Some(mcpwire_client::ListenEvent::Acknowledged(agreed))
            if agreed.resource_subscriptions == ["file:///a"]
    ));
    let changed = match subscription.recv().await {
        Some(mcpwire_client::ListenEvent::Changed(change)) => change,
        other => panic!("not a change: {other:?}"),
    };
    assert_eq!(
        changed,
        mcpwire_client::Change::ResourceUpdated {
            uri: "file:///a".into()
        }
    );
    assert_eq!(changed.method(), "notifications/resources/updated");
    client.close().await;
}
