//! An `McpServer` in real async conversations with a client of the peer core, for every MCP
//! version: negotiation, discovery, ping, lists and pagination, tool calls and their errors,
//! progress, cancellation, elicitation, logging and list_changed. Every result and
//! notification the client receives is validated against that version's upstream schema.

use crate::add_tool;
use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use add_tool::{Add, Sum};
use mcpwire_server::{
    Context, Elicitation, LogLevel, McpServer, NoArguments, Prompt, PromptMessage, Resource,
    ResourceContents, Structured, Tool, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, ClientAnswers, connect, data, declines, pointer};

const WAIT: Duration = Duration::from_secs(5);

#[derive(Deserialize, JsonSchema)]
struct Countdown {
    n: u32,
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Review {
    /// The code to review.
    code: String,
    /// How strict to be.
    strictness: Option<String>,
}

/// The steps the last countdown completed.
type Steps = Arc<AtomicU32>;

fn server_with(steps: Steps, page_size: usize) -> McpServer {
    McpServer::builder("test-server", "9.9.9")
        .page_size(page_size)
        .tool(
            "add",
            "Add two integers",
            |Add { a, b }: Add, _: Context| async move {
                a.checked_add(b)
                    .map(|sum| Structured(Sum { sum }))
                    .ok_or("the sum overflows i64")
            },
        )
        .tool(
            "countdown",
            "Count down",
            move |Countdown { n }: Countdown, ctx: Context| {
                let steps = Arc::clone(&steps);
                async move {
                    for step in 1..=n {
                        tokio::select! {
                            _ = ctx.cancelled() => return ToolResult::error("cancelled"),
                            _ = tokio::time::sleep(Duration::from_millis(20)) => {}
                        }
                        steps.store(step, Ordering::SeqCst);
                        ctx.progress(f64::from(step), Some(f64::from(n))).await;
                    }
                    ToolResult::text("liftoff")
                }
            },
        )
        .tool(
            "greet",
            "Greet",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Name>("What is your name?").await {
                    Ok(Elicitation::Accepted(Name { name })) => {
                        ToolResult::text(format!("Hello, {name}!"))
                    }
                    Ok(Elicitation::Declined | Elicitation::Cancelled) => {
                        ToolResult::text("Hello, stranger!")
                    }
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool("poem", "Asks the client's model", support::poem)
        .tool(
            "log",
            "Logs at every level",
            |_: NoArguments, ctx: Context| async move {
                let mut sent = Vec::new();
                for level in [LogLevel::Debug, LogLevel::Warning, LogLevel::Emergency] {
                    if ctx.log(level, json!(format!("{level:?}"))).await {
                        sent.push(format!("{level:?}"));
                    }
                }
                ToolResult::text(sent.join(","))
            },
        )
        .resource(
            Resource::new("mem:///greeting", "greeting", |_: Context| async {
                ResourceContents::text("hello")
            })
            .mime_type("text/plain")
            .title("Greeting"),
        )
        .prompt(Prompt::new(
            "review",
            "Review code",
            |args: Review, _: Context| async move {
                vec![PromptMessage::user(format!(
                    "Review ({}):\n{}",
                    args.strictness.as_deref().unwrap_or("normal"),
                    args.code
                ))]
            },
        ))
        .build()
        .expect("schemas fit")
}

fn server() -> McpServer {
    server_with(Arc::default(), 100)
}

const HANDSHAKE_VERSIONS: [Version; 4] = [
    Version::V2024_11_05,
    Version::V2025_03_26,
    Version::V2025_06_18,
    Version::V2025_11_25,
];

async fn initialized(server: &McpServer, version: Version, capabilities: Value) -> Client {
    let client = connect(server, version, declines());
    client.initialize(capabilities).await;
    client
}

#[tokio::test]
async fn initialize_agrees_on_each_handshake_version_and_declares_what_was_registered() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = connect(&server, version, declines());
        let result = client.initialize(json!({})).await;
        assert_eq!(result["protocolVersion"], version.as_str());
        assert_eq!(
            result["capabilities"],
            json!({
                "logging": {},
                "tools": { "listChanged": true },
                "resources": { "listChanged": true, "subscribe": true },
                "prompts": { "listChanged": true },
            })
        );
        assert_eq!(
            result["serverInfo"],
            json!({ "name": "test-server", "version": "9.9.9" })
        );
    }
}

#[tokio::test]
async fn initialize_with_an_unknown_version_answers_the_newest_handshake_version() {
    let server = server();
    let client = connect(&server, Version::V2025_11_25, declines());
    let result = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2099-01-01",
                "capabilities": {},
                "clientInfo": { "name": "future", "version": "0" },
            }),
        )
        .await
        .unwrap();
    assert_eq!(result["protocolVersion"], "2025-11-25");
    // A client asking for 2026-07-28 through `initialize` gets the newest handshake too.
    let client = connect(&server, Version::V2025_11_25, declines());
    let result = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2026-07-28",
                "capabilities": {},
                "clientInfo": { "name": "c", "version": "0" },
            }),
        )
        .await
        .unwrap();
    assert_eq!(result["protocolVersion"], "2025-11-25");
    // An initialize the chosen version's schema refuses is -32602 naming the member.
    let client = connect(&server, Version::V2025_06_18, declines());
    let error = client
        .request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {} }),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), -32602);
    assert_eq!(pointer(&error), "/clientInfo");
}

#[tokio::test]
async fn version_2026_is_served_statelessly_through_discover_and_meta() {
    let server = server();
    let client = connect(&server, Version::V2026_07_28, declines());
    let meta = Client::meta(json!({}));
    let discovered = client.discover().await;
    assert_eq!(
        discovered["supportedVersions"],
        json!([
            "2026-07-28",
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2024-11-05"
        ])
    );
    assert_eq!(
        discovered["capabilities"]["tools"],
        json!({ "listChanged": true })
    );
    assert_eq!(
        discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "test-server"
    );
    assert_eq!(discovered["resultType"], "complete");

    let sum = client
        .request(
            "tools/call",
            json!({ "_meta": meta, "name": "add", "arguments": { "a": 2, "b": 3 } }),
        )
        .await
        .unwrap();
    assert_eq!(sum["structuredContent"], json!({ "sum": 5 }));
    assert_eq!(sum["resultType"], "complete");
    let listed = client
        .request("tools/list", json!({ "_meta": meta }))
        .await
        .unwrap();
    assert_eq!(
        (listed["ttlMs"].clone(), listed["cacheScope"].clone()),
        (json!(0), json!("public"))
    );

    // Every other method, each result validated against 2026-07-28's schema.
    let calls = [
        ("resources/list", json!({ "_meta": meta })),
        ("resources/templates/list", json!({ "_meta": meta })),
        (
            "resources/read",
            json!({ "_meta": meta, "uri": "mem:///greeting" }),
        ),
        ("prompts/list", json!({ "_meta": meta })),
        (
            "prompts/get",
            json!({ "_meta": meta, "name": "review", "arguments": { "code": "x" } }),
        ),
    ];
    for (method, params) in calls {
        let result = client.request(method, params).await.unwrap();
        assert_eq!(result["resultType"], "complete", "{method}");
    }

    // Without `_meta`: the version's schema requires it.
    let error = client
        .request(
            "tools/call",
            json!({ "name": "add", "arguments": { "a": 1, "b": 1 } }),
        )
        .await
        .unwrap_err();
    assert_eq!(
        (error.code(), pointer(&error)),
        (-32602, "/_meta".to_owned())
    );
    // A version not served statelessly: -32022 with what was asked and what is supported.
    let old = json!({
        "io.modelcontextprotocol/protocolVersion": "2025-11-25",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let error = client
        .request("tools/list", json!({ "_meta": old }))
        .await
        .unwrap_err();
    assert_eq!(error.code(), -32022);
    assert_eq!(
        data(&error),
        json!({ "requested": "2025-11-25", "supported": ["2026-07-28"] })
    );
    // Methods 2026-07-28 does not have are not found, whatever their params.
    for method in ["ping", "logging/setLevel", "resources/subscribe"] {
        let error = client
            .request(method, json!({ "_meta": meta }))
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32601, "{method}");
    }
}

#[tokio::test]
async fn ping_and_set_level_exist_where_the_version_has_them() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = initialized(&server, version, json!({})).await;
        assert_eq!(
            client.request("ping", Value::Null).await.unwrap(),
            json!({})
        );
        let set = client
            .request("logging/setLevel", json!({ "level": "warning" }))
            .await
            .unwrap();
        assert_eq!(set, json!({}));
        let error = client
            .request("logging/setLevel", json!({ "level": "loud" }))
            .await
            .unwrap_err();
        assert_eq!(
            (error.code(), pointer(&error)),
            (-32602, "/level".to_owned())
        );
        // Not offered by this server (no completer registered).
        let error = client
            .request("completion/complete", json!({}))
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32601, "completion/complete under {version}");
    }
}

#[tokio::test]
async fn tools_list_pages_with_an_opaque_cursor() {
    let server = server_with(Arc::default(), 3);
    let client = initialized(&server, Version::V2025_06_18, json!({})).await;
    let first = client.request("tools/list", json!({})).await.unwrap();
    let names = |page: &Value| -> Vec<String> {
        page["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&first), ["add", "countdown", "greet"]);
    let cursor = first["nextCursor"]
        .as_str()
        .expect("a next page")
        .to_owned();
    let second = client
        .request("tools/list", json!({ "cursor": cursor }))
        .await
        .unwrap();
    // Registration order: `poem` was added before `log`.
    assert_eq!(names(&second), ["poem", "log"]);
    assert!(second.get("nextCursor").is_none());
    let error = client
        .request("tools/list", json!({ "cursor": "add" }))
        .await
        .unwrap_err();
    assert_eq!(
        (error.code(), pointer(&error)),
        (-32602, "/cursor".to_owned())
    );
}

#[tokio::test]
async fn tool_definitions_keep_the_derived_schemas_and_follow_the_version() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = initialized(&server, version, json!({})).await;
        let listed = client.request("tools/list", Value::Null).await.unwrap();
        let add = &listed["tools"][0];
        assert_eq!(add["name"], "add");
        assert_eq!(add["inputSchema"]["type"], "object");
        assert_eq!(add["inputSchema"]["title"], "Add");
        assert_eq!(add["inputSchema"]["required"], json!(["a", "b"]));
        let has_output = version >= Version::V2025_06_18;
        assert_eq!(add.get("outputSchema").is_some(), has_output, "{version}");
        if has_output {
            assert_eq!(add["outputSchema"]["properties"]["sum"]["type"], "integer");
        }
    }
}

#[tokio::test]
async fn tool_calls_succeed_typed_and_fail_as_each_version_asks() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = initialized(&server, version, json!({})).await;
        let call = |arguments: Value| {
            client.request(
                "tools/call",
                json!({ "name": "add", "arguments": arguments }),
            )
        };
        let sum = call(json!({ "a": 40, "b": 2 })).await.unwrap();
        assert_eq!(
            sum["content"],
            json!([{ "type": "text", "text": "{\"sum\":42}" }])
        );
        assert_eq!(
            sum.get("structuredContent").cloned(),
            (version >= Version::V2025_06_18).then(|| json!({ "sum": 42 }))
        );
        assert_eq!(sum.get("isError"), None);

        // A tool execution error is a result with isError.
        let overflow = call(json!({ "a": i64::MAX, "b": 1 })).await.unwrap();
        assert_eq!(overflow["isError"], true);
        assert_eq!(overflow["content"][0]["text"], "the sum overflows i64");

        // Arguments that do not decode: -32602 naming the member up to 2025-06-18; a tool
        // execution error naming it from 2025-11-25.
        let wrong = call(json!({ "a": 1, "b": "two" })).await;
        if version >= Version::V2025_11_25 {
            let result = wrong.unwrap();
            assert_eq!(result["isError"], true);
            let text = result["content"][0]["text"].as_str().unwrap();
            assert!(
                text.starts_with("invalid arguments at /arguments/b: invalid type: string \"two\""),
                "{text}"
            );
        } else {
            let error = wrong.unwrap_err();
            assert_eq!(
                (error.code(), pointer(&error)),
                (-32602, "/arguments/b".to_owned())
            );
        }

        // An unknown tool is a protocol error in every version.
        let error = client
            .request("tools/call", json!({ "name": "nope", "arguments": {} }))
            .await
            .unwrap_err();
        assert_eq!(
            (error.code(), pointer(&error)),
            (-32602, "/name".to_owned())
        );
        assert_eq!(data(&error)["reason"], "no tool named `nope`");
    }
}

#[tokio::test]
async fn countdown_sends_one_progress_notification_per_step() {
    let server = server();
    // Every version, a string token and an integer one: the token is read by the version's
    // own decode (its `_meta` member from 2025-11-25, its undeclared `_meta` before).
    let versions = HANDSHAKE_VERSIONS.into_iter().chain([Version::V2026_07_28]);
    for (version, token) in versions.zip([
        json!("t-1"),
        json!(12),
        json!("t-3"),
        json!(40),
        json!("t-5"),
    ]) {
        let stateless = version == Version::V2026_07_28;
        let mut client = if stateless {
            connect(&server, version, declines())
        } else {
            initialized(&server, version, json!({})).await
        };
        let meta = |token: Option<&Value>| {
            let mut meta = if stateless {
                Client::meta(json!({}))
            } else {
                json!({})
            };
            if let Some(token) = token {
                meta["progressToken"] = token.clone();
            }
            meta
        };
        let result = client
            .request(
                "tools/call",
                json!({ "name": "countdown", "arguments": { "n": 3 }, "_meta": meta(Some(&token)) }),
            )
            .await
            .unwrap();
        assert_eq!(result["content"][0]["text"], "liftoff");
        let mut progress = Vec::new();
        while let Some((method, params)) = client.notification(Duration::from_millis(300)).await {
            assert_eq!(method, "notifications/progress");
            assert_eq!(params["progressToken"], token, "{version}");
            assert_eq!(params["total"], 3.0);
            progress.push(params["progress"].as_f64().unwrap());
        }
        progress.sort_by(f64::total_cmp);
        assert_eq!(progress, [1.0, 2.0, 3.0], "{version}");

        // Without a progress token, no progress is sent.
        client
            .request(
                "tools/call",
                json!({ "name": "countdown", "arguments": { "n": 2 }, "_meta": meta(None) }),
            )
            .await
            .unwrap();
        assert_eq!(client.notification(Duration::from_millis(200)).await, None);
    }
}

#[tokio::test]
async fn a_cancelled_countdown_stops_and_sends_no_reply() {
    let steps = Steps::default();
    let server = server_with(Arc::clone(&steps), 100);
    let mut client = initialized(&server, Version::V2025_06_18, json!({})).await;
    let params =
        json!({ "name": "countdown", "arguments": { "n": 1000 }, "_meta": { "progressToken": 7 } });
    let call = client.handle().request_raw("tools/call", &params);
    // Dropping the request's future cancels it (`notifications/cancelled`), once the
    // countdown has begun (1,000 steps of 20 ms cannot finish in the 10 s allowed).
    let begun = async {
        while steps.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::select! {
        _ = call => panic!("the countdown finished"),
        _ = tokio::time::timeout(WAIT, begun) => {}
    }
    // The handler stops: two looks 200 ms apart see the same step (at most 5 s).
    let mut stopped_at = steps.load(Ordering::SeqCst);
    for _ in 0..25 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = steps.load(Ordering::SeqCst);
        if now == stopped_at {
            break;
        }
        stopped_at = now;
    }
    assert!((1..400).contains(&stopped_at), "stopped at {stopped_at}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        steps.load(Ordering::SeqCst),
        stopped_at,
        "the handler stopped"
    );
    // Drain the progress sent before the cancellation; none comes after.
    while client
        .notification(Duration::from_millis(100))
        .await
        .is_some()
    {}
    // The session goes on.
    assert_eq!(
        client.request("ping", Value::Null).await.unwrap(),
        json!({})
    );
}

#[tokio::test]
async fn elicitation_asks_the_client_that_declared_it() {
    let server = server();
    let answers = ClientAnswers {
        elicit: json!({ "action": "accept", "content": { "name": "Ada" } }),
        ..declines()
    };
    for version in [Version::V2025_06_18, Version::V2025_11_25] {
        let client = connect(&server, version, answers.clone());
        client.initialize(json!({ "elicitation": {} })).await;
        let result = client
            .request("tools/call", json!({ "name": "greet", "arguments": {} }))
            .await
            .unwrap();
        assert_eq!(result["content"][0]["text"], "Hello, Ada!", "{version}");
        let asked = client.asked();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].0, "elicitation/create");
        assert_eq!(asked[0].1["message"], "What is your name?");
        assert_eq!(
            asked[0].1["requestedSchema"],
            json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] })
        );
        let request = json!({ "method": "elicitation/create", "params": asked[0].1, "jsonrpc": "2.0", "id": 1 });
        support::assert_valid(version, "ElicitRequest", &request);
    }
    // Declined by the user.
    let client = connect(&server, Version::V2025_06_18, declines());
    client.initialize(json!({ "elicitation": {} })).await;
    let result = client
        .request("tools/call", json!({ "name": "greet", "arguments": {} }))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Hello, stranger!");
}

#[tokio::test]
async fn elicitation_is_not_sent_without_the_capability_or_the_version() {
    let server = server();
    let cases = [
        (
            Version::V2025_06_18,
            "the client did not declare the `elicitation` capability",
        ),
        (
            Version::V2024_11_05,
            "MCP 2024-11-05 has no `elicitation/create` request to the client",
        ),
    ];
    for (version, reason) in cases {
        let client = connect(&server, version, declines());
        client.initialize(json!({})).await;
        let result = client
            .request("tools/call", json!({ "name": "greet", "arguments": {} }))
            .await
            .unwrap();
        assert_eq!(result["isError"], true);
        assert_eq!(result["content"][0]["text"], reason);
        assert!(client.asked().is_empty());
    }
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_set() {
    let server = server();
    let mut client = initialized(&server, Version::V2025_03_26, json!({})).await;
    let call = json!({ "name": "log", "arguments": {} });
    let all = client.request("tools/call", call.clone()).await.unwrap();
    assert_eq!(all["content"][0]["text"], "Debug,Warning,Emergency");
    client
        .request("logging/setLevel", json!({ "level": "warning" }))
        .await
        .unwrap();
    let some = client.request("tools/call", call).await.unwrap();
    assert_eq!(some["content"][0]["text"], "Warning,Emergency");
    let mut levels = Vec::new();
    while let Some((method, params)) = client.notification(Duration::from_millis(200)).await {
        assert_eq!(method, "notifications/message");
        levels.push(params["level"].as_str().unwrap().to_owned());
    }
    levels.sort();
    assert_eq!(
        levels,
        ["debug", "emergency", "emergency", "warning", "warning"]
    );
}

#[tokio::test]
async fn list_changed_is_sent_when_tools_change_while_serving() {
    let server = server();
    let mut client = initialized(&server, Version::V2025_11_25, json!({})).await;
    // A client that never initialized is not told.
    let _silent = connect(&server, Version::V2025_11_25, declines());
    let echo = Tool::new(
        "echo",
        "Echo",
        |Name { name }: Name, _: Context| async move { name },
    );
    server.add_tool(echo).await.unwrap();
    let (method, _) = client.notification(WAIT).await.expect("list_changed");
    assert_eq!(method, "notifications/tools/list_changed");
    let listed = client.request("tools/list", json!({})).await.unwrap();
    assert!(
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "echo")
    );
    let said = client
        .request(
            "tools/call",
            json!({ "name": "echo", "arguments": { "name": "hi" } }),
        )
        .await
        .unwrap();
    assert_eq!(said["content"][0]["text"], "hi");

    assert!(server.remove_tool("echo").await);
    let (method, _) = client.notification(WAIT).await.expect("list_changed");
    assert_eq!(method, "notifications/tools/list_changed");
    assert!(!server.remove_tool("echo").await);
    assert_eq!(client.notification(Duration::from_millis(200)).await, None);
}

#[tokio::test]
async fn resources_and_prompts_list_read_and_get() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = initialized(&server, version, json!({})).await;
        let listed = client.request("resources/list", json!({})).await.unwrap();
        let resource = &listed["resources"][0];
        assert_eq!(resource["uri"], "mem:///greeting");
        assert_eq!(
            resource.get("title").is_some(),
            version >= Version::V2025_06_18
        );
        let read = client
            .request("resources/read", json!({ "uri": "mem:///greeting" }))
            .await
            .unwrap();
        assert_eq!(
            read["contents"],
            json!([{ "uri": "mem:///greeting", "mimeType": "text/plain", "text": "hello" }])
        );
        let error = client
            .request("resources/read", json!({ "uri": "mem:///nope" }))
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32002);
        let templates = client
            .request("resources/templates/list", json!({}))
            .await
            .unwrap();
        assert_eq!(templates["resourceTemplates"], json!([]));

        let prompts = client.request("prompts/list", json!({})).await.unwrap();
        assert_eq!(
            prompts["prompts"][0]["arguments"],
            json!([
                { "name": "code", "description": "The code to review.", "required": true },
                { "name": "strictness", "description": "How strict to be.", "required": false },
            ])
        );
        let got = client
            .request(
                "prompts/get",
                json!({ "name": "review", "arguments": { "code": "x = 1" } }),
            )
            .await
            .unwrap();
        assert_eq!(
            got["messages"],
            json!([{ "role": "user", "content": { "type": "text", "text": "Review (normal):\nx = 1" } }])
        );
        let error = client
            .request("prompts/get", json!({ "name": "review", "arguments": {} }))
            .await
            .unwrap_err();
        assert_eq!(
            (error.code(), pointer(&error)),
            (-32602, "/arguments/code".to_owned())
        );
    }
}

#[tokio::test]
async fn only_what_was_registered_is_declared_and_served() {
    let server = McpServer::builder("tools-only", "1")
        .tool("add", "Add", |Add { a, b }: Add, _: Context| async move {
            ToolResult::text(a + b)
        })
        .build()
        .unwrap();
    let client = connect(&server, Version::V2025_06_18, declines());
    let result = client.initialize(json!({})).await;
    assert_eq!(
        result["capabilities"],
        json!({ "logging": {}, "tools": { "listChanged": true } })
    );
    for method in [
        "prompts/list",
        "resources/list",
        "resources/read",
        "prompts/get",
    ] {
        let error = client.request(method, json!({})).await.unwrap_err();
        assert_eq!(error.code(), -32601, "{method}");
    }
}

#[tokio::test]
async fn sampling_asks_the_client_that_declared_it() {
    let server = server();
    for version in HANDSHAKE_VERSIONS {
        let client = initialized(&server, version, json!({ "sampling": {} })).await;
        let result = client
            .request("tools/call", json!({ "name": "poem", "arguments": {} }))
            .await
            .unwrap();
        assert_eq!(
            result["content"][0]["text"], "a haiku by test-model",
            "{version}"
        );
        let asked = client.asked();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].0, "sampling/createMessage");
        let request = json!({ "method": "sampling/createMessage", "params": asked[0].1, "jsonrpc": "2.0", "id": 1 });
        support::assert_valid(version, "CreateMessageRequest", &request);
    }
    let client = initialized(&server, Version::V2025_11_25, json!({})).await;
    let result = client
        .request("tools/call", json!({ "name": "poem", "arguments": {} }))
        .await
        .unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "the client did not declare the `sampling` capability"
    );
    assert!(client.asked().is_empty());
}

#[tokio::test]
async fn under_2026_log_messages_follow_the_level_in_meta() {
    let server = server();
    let client = connect(&server, Version::V2026_07_28, declines());
    let call = |meta: Value| {
        client.request(
            "tools/call",
            json!({ "_meta": meta, "name": "log", "arguments": {} }),
        )
    };
    let silent = call(Client::meta(json!({}))).await.unwrap();
    assert_eq!(silent["content"][0]["text"], "");
    let mut meta = Client::meta(json!({}));
    meta["io.modelcontextprotocol/logLevel"] = json!("warning");
    let some = call(meta).await.unwrap();
    assert_eq!(some["content"][0]["text"], "Warning,Emergency");
}
