//! What a handler can say and ask beyond a result, on the wire: sampling requests with every
//! member (`SamplingRequest`), URL-mode elicitation, progress messages, log messages naming
//! their logger; the `_meta` of a client's elicitation result; and the server's lists in
//! registration order.

use crate::support;

use std::time::Duration;

use mcpwire_server::{
    Content, Context, Elicitation, IncludeContext, McpServer, ModelPreferences, NoArguments,
    Prompt, PromptMessage, Resource, ResourceContents, Role, SamplingRequest, ToolResult, Version,
};
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, ClientAnswers, connect, declines};

const WAIT: Duration = Duration::from_millis(500);

/// The full sampling request the `ask_model` tool sends.
fn full_request() -> SamplingRequest {
    SamplingRequest::new(300)
        .system_prompt("You are terse.")
        .user("What is 2+2?")
        .assistant("4")
        .message(Role::User, Content::audio("UklGRg==", "audio/wav"))
        .temperature(0.25)
        .stop_sequence("END")
        .include_context(IncludeContext::ThisServer)
        .model_preferences(ModelPreferences {
            hints: vec!["claude-3".into(), "gpt".into()],
            cost_priority: Some(0.5),
            speed_priority: None,
            intelligence_priority: Some(1.0),
        })
}

/// The form the `ask_name` tool asks for.
#[derive(Deserialize, schemars::JsonSchema)]
struct NameForm {
    name: String,
}

fn server() -> McpServer {
    McpServer::builder("asking", "1")
        .tool(
            "ask_name",
            "Asks for a name; answers with it and the result's _meta",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit_with_meta::<NameForm>("Your name?").await {
                    Ok(elicited) => {
                        let name = match elicited.answer {
                            Elicitation::Accepted(form) => form.name,
                            Elicitation::Declined => "declined".to_owned(),
                            Elicitation::Cancelled => "cancelled".to_owned(),
                        };
                        let meta = elicited.meta.map(Value::Object).unwrap_or(Value::Null);
                        ToolResult::text(format!("{name} {meta}"))
                    }
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "ask_model",
            "Asks the model",
            |_: NoArguments, ctx: Context| async move {
                match ctx.sample_with(&full_request()).await {
                    Ok(sampled) => ToolResult::text(sampled.text().unwrap_or("(not text)")),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "sign_in",
            "Sends the user to a URL",
            |_: NoArguments, ctx: Context| async move {
                match ctx
                    .elicit_url("Sign in, please", "https://example.com/login")
                    .await
                {
                    Ok(answer) => {
                        if let Some(id) = &answer.elicitation_id {
                            ctx.elicitation_complete(id).await;
                        }
                        let agreed = answer.answer == Elicitation::Accepted(());
                        ToolResult::text(format!("agreed: {agreed}"))
                    }
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "work",
            "Reports progress with a message and logs as a named logger",
            |_: NoArguments, ctx: Context| async move {
                ctx.progress_with_message(1.0, Some(2.0), Some("half way"))
                    .await;
                ctx.log_as(mcpwire_server::LogLevel::Info, Some("db"), "connected")
                    .await;
                ToolResult::text("done")
            },
        )
        .tool(
            "zeta",
            "Registered second",
            |_: NoArguments, _: Context| async { ToolResult::text("") },
        )
        .tool(
            "alpha",
            "Registered third",
            |_: NoArguments, _: Context| async { ToolResult::text("") },
        )
        .resource(Resource::new("z://last", "z", |_: Context| async {
            ResourceContents::text("z")
        }))
        .resource(Resource::new("a://first", "a", |_: Context| async {
            ResourceContents::text("a")
        }))
        .prompt(Prompt::new(
            "p2",
            "second",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("2")] },
        ))
        .prompt(Prompt::new(
            "p1",
            "first",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("1")] },
        ))
        .build()
        .unwrap()
}

fn answers() -> ClientAnswers {
    ClientAnswers {
        elicit: json!({ "action": "accept" }),
        sample: json!({
            "role": "assistant",
            "model": "m",
            "content": { "type": "text", "text": "four" },
        }),
    }
}

async fn call(client: &Client, tool: &str) -> Value {
    client
        .request("tools/call", json!({ "name": tool, "arguments": {} }))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_sampling_request_carries_every_member_the_builder_set() {
    let server = server();
    for version in [
        Version::V2025_03_26,
        Version::V2025_06_18,
        Version::V2025_11_25,
    ] {
        let client = connect(&server, version, answers());
        client.initialize(json!({ "sampling": {} })).await;
        let result = call(&client, "ask_model").await;
        assert_eq!(result["content"][0]["text"], "four", "{version}");
        let asked = client.asked();
        assert_eq!(asked[0].0, "sampling/createMessage");
        assert_eq!(
            asked[0].1,
            json!({
                "includeContext": "thisServer",
                "maxTokens": 300,
                "messages": [
                    { "content": { "text": "What is 2+2?", "type": "text" }, "role": "user" },
                    { "content": { "text": "4", "type": "text" }, "role": "assistant" },
                    { "content": { "data": "UklGRg==", "mimeType": "audio/wav", "type": "audio" }, "role": "user" },
                ],
                "modelPreferences": {
                    "costPriority": 0.5,
                    "hints": [{ "name": "claude-3" }, { "name": "gpt" }],
                    "intelligencePriority": 1.0,
                },
                "stopSequences": ["END"],
                "systemPrompt": "You are terse.",
                "temperature": 0.25,
            }),
            "{version}"
        );
        let message = json!({ "jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": asked[0].1 });
        support::assert_valid(version, "CreateMessageRequest", &message);
    }
    // 2024-11-05 has no audio: nothing is asked, the handler is told why.
    let client = connect(&server, Version::V2024_11_05, answers());
    client.initialize(json!({ "sampling": {} })).await;
    let result = call(&client, "ask_model").await;
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "cannot ask the client: `audio` content cannot be sent under MCP 2024-11-05"
    );
    assert!(client.asked().is_empty());
}

#[tokio::test]
async fn a_sampling_request_under_2026_07_28_is_an_input_request_of_that_shape() {
    let server = server();
    let client = connect(&server, Version::V2026_07_28, answers());
    let params = json!({
        "_meta": Client::meta(json!({ "sampling": {} })),
        "name": "ask_model",
        "arguments": {},
    });
    let result = client.request("tools/call", params).await.unwrap();
    assert_eq!(result["resultType"], "input_required");
    let request = result["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(request["params"]["systemPrompt"], "You are terse.");
    assert_eq!(
        request["params"]["modelPreferences"]["hints"][1]["name"],
        "gpt"
    );
}

#[tokio::test]
async fn url_elicitation_is_sent_in_url_mode_with_an_id_and_completed() {
    let server = server();
    let mut client = connect(&server, Version::V2025_11_25, answers());
    client
        .initialize(json!({ "elicitation": { "form": {}, "url": {} } }))
        .await;
    let result = call(&client, "sign_in").await;
    assert_eq!(result["content"][0]["text"], "agreed: true");
    let asked = client.asked();
    assert_eq!(asked[0].0, "elicitation/create");
    let params = &asked[0].1;
    assert_eq!(params["mode"], "url");
    assert_eq!(params["url"], "https://example.com/login");
    assert_eq!(params["message"], "Sign in, please");
    let id = params["elicitationId"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 32, "{id}");
    let message =
        json!({ "jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": params });
    support::assert_valid(Version::V2025_11_25, "ElicitRequest", &message);
    let (method, params) = client.notification(WAIT).await.expect("a notification");
    assert_eq!(method, "notifications/elicitation/complete");
    assert_eq!(params["elicitationId"], id);
}

#[tokio::test]
async fn url_elicitation_needs_the_url_capability_and_a_version_with_url_mode() {
    let server = server();
    let cases = [
        (
            Version::V2025_11_25,
            json!({ "elicitation": {} }),
            "the client did not declare the `elicitation.url` capability",
        ),
        (
            Version::V2025_06_18,
            json!({ "elicitation": { "url": {} } }),
            "MCP 2025-06-18 has no `elicitation/create (URL mode)` request to the client",
        ),
    ];
    for (version, capabilities, reason) in cases {
        let client = connect(&server, version, answers());
        client.initialize(capabilities).await;
        let result = call(&client, "sign_in").await;
        assert_eq!(result["isError"], true);
        assert_eq!(result["content"][0]["text"], reason, "{version}");
        assert!(client.asked().is_empty());
    }
    // 2026-07-28: an input request in URL mode, without an id (the version has none).
    let client = connect(&server, Version::V2026_07_28, declines());
    let params = json!({
        "_meta": Client::meta(json!({ "elicitation": { "url": {} } })),
        "name": "sign_in",
        "arguments": {},
    });
    let result = client.request("tools/call", params).await.unwrap();
    let request = result["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    assert_eq!(
        request["params"],
        json!({ "message": "Sign in, please", "mode": "url", "url": "https://example.com/login" })
    );
}

#[tokio::test]
async fn progress_carries_its_message_and_logs_name_their_logger() {
    let server = server();
    for version in [
        Version::V2024_11_05,
        Version::V2025_03_26,
        Version::V2025_11_25,
    ] {
        let mut client = connect(&server, version, declines());
        client.initialize(json!({})).await;
        let params = json!({ "name": "work", "arguments": {}, "_meta": { "progressToken": "p" } });
        client.request("tools/call", params).await.unwrap();
        let mut seen = Vec::new();
        while let Some(notification) = client.notification(WAIT).await {
            seen.push(notification);
        }
        let progress = seen
            .iter()
            .find(|(m, _)| m == "notifications/progress")
            .expect("progress");
        let expected = (version >= Version::V2025_03_26).then(|| json!("half way"));
        assert_eq!(progress.1.get("message").cloned(), expected, "{version}");
        let log = seen
            .iter()
            .find(|(m, _)| m == "notifications/message")
            .expect("a log message");
        assert_eq!(
            log.1,
            json!({ "level": "info", "logger": "db", "data": "connected" }),
            "{version}"
        );
    }
}

#[tokio::test]
async fn lists_come_back_in_registration_order() {
    let server = server();
    let client = connect(&server, Version::V2025_11_25, declines());
    client.initialize(json!({})).await;
    let names = |result: &Value, member: &str, key: &str| -> Vec<String> {
        result[member]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item[key].as_str().unwrap().to_owned())
            .collect()
    };
    let tools = client.request("tools/list", json!({})).await.unwrap();
    assert_eq!(
        names(&tools, "tools", "name"),
        ["ask_name", "ask_model", "sign_in", "work", "zeta", "alpha"]
    );
    let resources = client.request("resources/list", json!({})).await.unwrap();
    assert_eq!(
        names(&resources, "resources", "uri"),
        ["z://last", "a://first"]
    );
    let prompts = client.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(names(&prompts, "prompts", "name"), ["p2", "p1"]);
}

#[cfg(feature = "http")]
#[tokio::test]
async fn http_config_is_reexported() {
    let config = mcpwire_server::HttpConfig::default()
        .bind("127.0.0.1:0".parse().unwrap())
        .stateless(true);
    let http = server().http_server(config).unwrap();
    assert!(
        http.url().starts_with("http://127.0.0.1:"),
        "{}",
        http.url()
    );
}

#[tokio::test]
async fn an_elicitation_result_s_meta_reaches_the_handler_where_the_version_has_it() {
    let server = server();
    let answers = || ClientAnswers {
        elicit: json!({
            "action": "accept",
            "content": { "name": "Ada" },
            "_meta": { "trace": "t-1" },
        }),
        ..answers()
    };
    for version in [Version::V2025_06_18, Version::V2025_11_25] {
        let client = connect(&server, version, answers());
        client.initialize(json!({ "elicitation": {} })).await;
        let result = call(&client, "ask_name").await;
        assert_eq!(
            result["content"][0]["text"], r#"Ada {"trace":"t-1"}"#,
            "{version}"
        );
    }
}
