//! Sampling with tools, end to end: a `mcpwire-server` tool asks the client's model with
//! tools offered and a tool result in the conversation; the client's handler sees them and
//! answers with a tool use, which the server reads. Versions before 2025-11-25 cannot send
//! the request: the server's tool says so instead of dropping the tools; nor can a server
//! whose client did not declare `sampling.tools`.

use mcpwire_client::{CallOptions, SamplingReply, SamplingRequest, Version, result_text};
use mcpwire_model::{
    Content, Role, SampledBlock, SampledContent, SampledToolResult, SampledToolUse, ToolChoice,
    ToolChoiceMode, ToolInfo,
};
use mcpwire_server::{Context, McpServer, NoArguments, ToolResult};
use serde_json::{Map, Value, json};

use crate::support::{builder, serve};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// What the server asks: a weather tool offered, one earlier use and its result.
fn asked() -> SamplingRequest {
    let weather = ToolInfo::new(
        "get_weather",
        object(json!({"type": "object", "properties": {"city": {"type": "string"}}})),
    );
    let earlier = SampledToolUse {
        id: "call_1".into(),
        name: "get_weather".into(),
        input: object(json!({"city": "Paris"})),
        meta: None,
    };
    SamplingRequest::new(200)
        .user("Weather in Paris, then London?")
        .message(Role::Assistant, SampledBlock::ToolUse(earlier))
        .message(
            Role::User,
            SampledContent::Blocks(vec![SampledBlock::ToolResult(SampledToolResult {
                tool_use_id: "call_1".into(),
                content: vec![Content::text("Paris: 18°C")],
                structured_content: None,
                is_error: None,
                meta: None,
            })]),
        )
        .tools(
            vec![weather],
            Some(ToolChoice {
                mode: Some(ToolChoiceMode::Required),
            }),
        )
}

fn server() -> McpServer {
    McpServer::builder("sampling-tools", "1")
        .tool(
            "plan",
            "Asks the model which tool to use next",
            |_: NoArguments, ctx: Context| async move {
                match ctx.sample_with(&asked()).await {
                    Ok(reply) => {
                        let uses: Vec<Value> = reply
                            .content
                            .tool_uses()
                            .map(|u| json!({"id": u.id, "name": u.name, "input": u.input}))
                            .collect();
                        ToolResult::text(
                            json!({"uses": uses, "stop": reply.stop_reason}).to_string(),
                        )
                    }
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .build()
        .expect("the server builds")
}

/// The client's model: tells what it was offered through the tool use it answers with.
fn model(request: SamplingRequest) -> SamplingReply {
    let offered: Vec<String> = request
        .tools
        .iter()
        .flatten()
        .map(|t| t.name.clone())
        .collect();
    let result_of = request
        .messages
        .iter()
        .flat_map(|m| m.content.blocks())
        .find_map(|b| match b {
            SampledBlock::ToolResult(r) => Some(r.tool_use_id.clone()),
            _ => None,
        });
    let input = json!({
        "city": "London",
        "offered": offered,
        "required": request.tool_choice.and_then(|c| c.mode) == Some(ToolChoiceMode::Required),
        "answered": result_of,
    });
    SamplingReply::tool_use(
        "tool-model",
        vec![SampledToolUse {
            id: "call_2".into(),
            name: "get_weather".into(),
            input: object(input),
            meta: None,
        }],
    )
}

/// The result of the server's `plan` tool, called by a client whose sampling handler is
/// [`model`], declaring `sampling.tools` when `declare` says so.
async fn plan(version: Version, declare: bool) -> mcpwire_client::ToolResult {
    let mut client = builder().on_sampling(|request| async move { Ok(model(request)) });
    if declare {
        client = client.sampling_tools();
    }
    let client = client
        .protocol_version(version)
        .connect(serve(&server()))
        .await
        .unwrap_or_else(|e| panic!("{version}: {e}"));
    client
        .call_tool("plan", &(), &CallOptions::new())
        .await
        .unwrap_or_else(|e| panic!("{version}: {e}"))
}

#[tokio::test]
async fn the_server_offers_tools_and_reads_the_clients_tool_use() {
    for version in Version::ALL {
        let result = plan(version, true).await;
        let text = result_text(&result);
        if version < Version::V2025_11_25 {
            assert!(result.is_error(), "{version}: {text}");
            assert!(text.contains("tool"), "{version}: {text}");
            continue;
        }
        let read: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            read,
            json!({
                "uses": [{"id": "call_2", "name": "get_weather", "input": {
                    "city": "London", "offered": ["get_weather"], "required": true,
                    "answered": "call_1"}}],
                "stop": "toolUse",
            }),
            "{version}"
        );
    }
}

#[tokio::test]
async fn without_sampling_tools_declared_the_server_offers_no_tools() {
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let result = plan(version, false).await;
        let text = result_text(&result);
        assert!(result.is_error(), "{version}: {text}");
        assert!(text.contains("sampling.tools"), "{version}: {text}");
    }
}
