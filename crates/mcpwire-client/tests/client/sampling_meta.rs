//! `_meta` on sampling, both ways, nothing lost: a `mcpwire-server` tool asks the client's
//! model with `_meta` on each message (2025-11-25 on) and on the params (2025-11-25); the
//! client's handler sees them and answers with a `_meta` of its own, which the server reads
//! back. A version without a member refuses it by name rather than dropping it. The
//! client's answers (sampling and elicitation) carry `_meta` on the wire (2025-06-18,
//! scripted).

use mcpwire_client::{CallOptions, SamplingReply, SamplingRequest, Version, result_text};
use mcpwire_server::{Context, McpServer, NoArguments, ToolResult};
use serde_json::{Map, Value, json};

use crate::support::{builder, scripted, serve};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// What the server asks under `version`: two messages, the first with `_meta` where the
/// version's messages have it, and the params' `_meta` under 2025-11-25.
fn asked(version: Version) -> SamplingRequest {
    let mut request = SamplingRequest::new(20).user("first").assistant("second");
    if version >= Version::V2025_11_25 {
        request.messages[0].meta = Some(object(json!({"example.com/turn": 1})));
    }
    if version == Version::V2025_11_25 {
        request.meta = Some(object(json!({"example.com/trace": "t-1"})));
    }
    request
}

/// A server whose `ask` tool samples and reports the reply's `_meta`; `ask_with_meta`
/// sends a message `_meta` whatever the version.
fn server() -> McpServer {
    let report = |sent: Result<SamplingReply, _>| match sent {
        Ok(reply) => ToolResult::text(json!({ "meta": reply.meta }).to_string()),
        Err(error) => ToolResult::error(error),
    };
    McpServer::builder("sampling-meta", "1")
        .tool(
            "ask",
            "Samples with _meta where the version has it",
            move |_: NoArguments, ctx: Context| async move {
                report(ctx.sample_with(&asked(ctx.version())).await)
            },
        )
        .tool(
            "ask_with_meta",
            "Samples with a message _meta under any version",
            move |_: NoArguments, ctx: Context| async move {
                let mut request = SamplingRequest::new(20).user("first");
                request.messages[0].meta = Some(object(json!({"k": 1})));
                report(ctx.sample_with(&request).await)
            },
        )
        .build()
        .expect("the server builds")
}

#[tokio::test]
async fn message_and_params_meta_reach_the_handler_and_the_replys_meta_the_server() {
    for version in Version::ALL {
        let client = builder()
            .on_sampling(move |request: SamplingRequest| async move {
                // The reply's `_meta` tells the server what the handler saw.
                let seen = json!({
                    "messages": request.messages.iter().map(|m| m.meta.clone()).collect::<Vec<_>>(),
                    "params": request.meta,
                });
                Ok(SamplingReply::assistant_text("m", "ok").meta(object(json!({"seen": seen}))))
            })
            .protocol_version(version)
            .connect(serve(&server()))
            .await
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let result = client
            .call_tool("ask", &(), &CallOptions::new())
            .await
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let text = result_text(&result);
        assert!(!result.is_error(), "{version}: {text}");
        let read: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let first = (version >= Version::V2025_11_25).then(|| json!({"example.com/turn": 1}));
        let params = (version == Version::V2025_11_25).then(|| json!({"example.com/trace": "t-1"}));
        assert_eq!(
            read,
            json!({"meta": {"seen": {"messages": [first, null], "params": params}}}),
            "{version}"
        );

        // A message `_meta` the version has no place for is refused by name, not dropped.
        let result = client
            .call_tool("ask_with_meta", &(), &CallOptions::new())
            .await
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let text = result_text(&result);
        if version < Version::V2025_11_25 {
            assert!(result.is_error(), "{version}: {text}");
            assert!(text.contains("`_meta`"), "{version}: {text}");
        } else {
            assert!(!result.is_error(), "{version}: {text}");
        }
        client.close().await;
    }
}

#[tokio::test]
async fn the_replys_meta_is_on_the_wire() {
    let handler = builder().on_sampling(|request: SamplingRequest| async move {
        let mut meta = Map::new();
        meta.insert("asked".into(), request.messages.len().into());
        Ok(SamplingReply::assistant_text("m", "ok").meta(meta))
    });
    let (_client, mut server) = scripted(handler).await;
    server
        .send(
            &json!({"jsonrpc": "2.0", "id": "s-1", "method": "sampling/createMessage",
                "params": {"maxTokens": 5, "messages": [
                    {"role": "user", "content": {"type": "text", "text": "hi"}}]}})
            .to_string(),
        )
        .await;
    let answer = server.recv().await;
    assert_eq!(answer["id"], "s-1", "{answer}");
    assert_eq!(answer["result"]["_meta"], json!({"asked": 1}), "{answer}");
    assert_eq!(answer["result"]["content"]["text"], "ok", "{answer}");
}

#[tokio::test]
async fn an_elicitation_results_meta_is_on_the_wire() {
    let handler = builder().on_elicitation(|form: mcpwire_client::FormElicitation| async move {
        let mut meta = Map::new();
        meta.insert("fields".into(), form.form.fields.len().into());
        Ok(mcpwire_client::ElicitAnswer::Decline.with_meta(meta))
    });
    let (_client, mut server) = scripted(handler).await;
    server
        .send(
            &json!({"jsonrpc": "2.0", "id": "e-1", "method": "elicitation/create",
                "params": {"message": "Name?", "requestedSchema": {"type": "object",
                    "properties": {"name": {"type": "string"}}}}})
            .to_string(),
        )
        .await;
    let answer = server.recv().await;
    assert_eq!(answer["id"], "e-1", "{answer}");
    assert_eq!(
        answer["result"],
        json!({"action": "decline", "_meta": {"fields": 1}}),
        "{answer}"
    );
}
