//! Cancellation both ways, per-call timeouts, progress and the timeout it restarts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcpwire_client::{CallOptions, ClientError, Version, result_text};
use serde_json::json;

use crate::support::{builder, connect, scripted};

/// Waits until `done` holds (at most 5 s).
async fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..500 {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[tokio::test]
async fn dropping_a_call_cancels_it_at_the_server_under_every_version() {
    for version in Version::ALL {
        let (client, seen) = connect(version, builder()).await;
        let options = CallOptions::new();
        let call = client.call_tool("wait", &(), &options);
        let dropped = tokio::time::timeout(Duration::from_millis(50), call).await;
        assert!(dropped.is_err(), "{version}: the tool waits");
        assert!(
            eventually(|| seen.cancelled() == 1).await,
            "{version}: not cancelled"
        );
        // The client goes on.
        let echo = client
            .call_tool("echo", &json!({"name": "x"}), &CallOptions::new())
            .await;
        assert_eq!(result_text(&echo.expect("echo")), "x", "{version}");
    }
}

#[tokio::test]
async fn a_timeout_fails_the_call_and_cancels_it() {
    let (client, seen) = connect(Version::V2025_11_25, builder()).await;
    let options = CallOptions::new().timeout(Duration::from_millis(50));
    let error = client.call_tool("wait", &(), &options).await.unwrap_err();
    assert!(matches!(error, ClientError::Timeout { ref method, .. } if method == "tools/call"));
    assert!(eventually(|| seen.cancelled() == 1).await);
}

#[tokio::test]
async fn progress_restarts_the_timeout_and_reaches_the_stream() {
    for version in [Version::V2024_11_05, Version::V2026_07_28] {
        let (client, _) = connect(version, builder()).await;
        let args = json!({"n": 6, "step_ms": 150});
        // 6 steps of 150 ms outlast a 400 ms timeout that nothing restarts...
        let strict = CallOptions::new().timeout(Duration::from_millis(400));
        let error = client
            .call_tool("countdown", &args, &strict)
            .await
            .unwrap_err();
        assert!(
            matches!(error, ClientError::Timeout { .. }),
            "{version}: {error}"
        );
        // ...but not one each progress notification restarts (250 ms to spare per step).
        let (options, mut progress) = CallOptions::new()
            .timeout(Duration::from_millis(400))
            .reset_timeout_on_progress(true)
            .progress_stream();
        let result = client.call_tool("countdown", &args, &options).await;
        assert_eq!(
            result_text(&result.expect("reset by progress")),
            "liftoff",
            "{version}"
        );
        drop(options);
        let mut seen = Vec::new();
        while let Some(event) = progress.recv().await {
            assert_eq!(event.total, Some(6.0));
            seen.push(event.progress);
        }
        assert_eq!(seen, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "{version}");
        // The overall bound still holds.
        let bounded = CallOptions::new()
            .timeout(Duration::from_millis(400))
            .reset_timeout_on_progress(true)
            .max_total_timeout(Duration::from_millis(600));
        let error = client
            .call_tool("countdown", &args, &bounded)
            .await
            .unwrap_err();
        assert!(
            matches!(error, ClientError::Timeout { .. }),
            "{version}: {error}"
        );
    }
}

#[tokio::test]
async fn the_server_cancelling_its_request_stops_the_handler_and_gets_no_reply() {
    let stopped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped);
    let builder = builder().on_sampling(move |_| {
        let flag = Arc::clone(&flag);
        async move {
            struct SetOnDrop(Arc<AtomicBool>);
            impl Drop for SetOnDrop {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::SeqCst);
                }
            }
            let _guard = SetOnDrop(flag);
            std::future::pending::<()>().await;
            Ok(mcpwire_client::SamplingReply::assistant_text("m", "never"))
        }
    });
    let (_client, mut server) = scripted(builder).await;
    server
        .send(r#"{"jsonrpc":"2.0","id":"s-1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#)
        .await;
    tokio::time::sleep(Duration::from_millis(30)).await;
    server
        .send(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s-1"}}"#,
        )
        .await;
    assert!(
        eventually(|| stopped.load(Ordering::SeqCst)).await,
        "the handler runs on"
    );
    // A cancelled request is never answered.
    assert_eq!(server.silent_for(Duration::from_millis(100)).await, None);
    // A request of the server is answered with its id as sent.
    server
        .send(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)
        .await;
    assert_eq!(
        server.recv().await,
        json!({"jsonrpc": "2.0", "id": "p", "result": {}})
    );
}

#[tokio::test]
async fn dropping_a_call_sends_cancelled_with_its_id() {
    let (client, mut server) = scripted(builder()).await;
    let options = CallOptions::new();
    let call = client.call_tool("slow", &(), &options);
    let sent = tokio::time::timeout(Duration::from_millis(50), call);
    let (dropped, request) = tokio::join!(sent, server.recv());
    assert!(dropped.is_err());
    assert_eq!(request["method"], "tools/call");
    let cancelled = server.recv().await;
    assert_eq!(cancelled["method"], "notifications/cancelled");
    assert_eq!(cancelled["params"]["requestId"], request["id"]);
    // A response arriving after that is dropped quietly; the next call works.
    server
        .send(
            &json!({"jsonrpc": "2.0", "id": request["id"], "result": {"content": []}}).to_string(),
        )
        .await;
    let next = client.call_tool("x", &(), &options);
    let answer = async {
        let request = server.recv().await;
        server
            .send(
                &json!({"jsonrpc": "2.0", "id": request["id"],
                "result": {"content": [{"type": "text", "text": "ok"}]}})
                .to_string(),
            )
            .await;
    };
    let (result, ()) = tokio::join!(next, answer);
    assert_eq!(result_text(&result.expect("answered")), "ok");
}

#[tokio::test]
async fn a_call_given_up_while_its_frame_is_written_leaves_the_stream_whole() {
    let (client, mut server) = scripted(builder()).await;
    // Larger than the pipe: the server does not read, so the write waits.
    let big = "x".repeat(256 * 1024);
    let options = CallOptions::new().timeout(Duration::from_millis(30));
    let error = client
        .call_tool("t", &json!({ "big": big }), &options)
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Timeout { .. }), "{error:?}");
    // The frame still arrives whole, and the next one after it.
    let request = server.recv().await;
    assert_eq!(
        request["params"]["arguments"]["big"].as_str().map(str::len),
        Some(big.len())
    );
    let patient = CallOptions::new();
    let next = client.call_tool("u", &(), &patient);
    let answer = async {
        let request = server.recv().await;
        assert_eq!(request["params"]["name"], "u");
        let result = json!({"content": [{"type": "text", "text": "whole"}]});
        let line = json!({"jsonrpc": "2.0", "id": request["id"], "result": result});
        server.send(&line.to_string()).await;
    };
    let (result, ()) = tokio::join!(next, answer);
    assert_eq!(result_text(&result.expect("answered")), "whole");
}
