//! MCP 2026-07-28 asks the client through input-required results: `ctx.elicit` and
//! `ctx.sample` end the handler with an `InputRequiredResult`, the client retries the same
//! request with `inputResponses` and the `requestState` it was given, and the handler runs
//! again with the answers. A client of the peer core plays the client; every result is
//! validated against the 2026-07-28 schema (the result and its `*ResultResponse`).

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use mcpwire_server::{
    Context, Elicitation, MAX_REQUEST_STATE, McpServer, NoArguments, Prompt, PromptMessage,
    Resource, ResourceContents, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, assert_valid, connect, data, declines, pointer};

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Age {
    age: u32,
}

#[derive(Deserialize, JsonSchema)]
struct Topic {
    topic: String,
}

/// How many times the `profile` handler started.
type Runs = Arc<AtomicU32>;

async fn greet(_: NoArguments, ctx: Context) -> ToolResult {
    match ctx.elicit::<Name>("What is your name?").await {
        Ok(Elicitation::Accepted(Name { name })) => ToolResult::text(format!("Hello, {name}!")),
        Ok(Elicitation::Declined) => ToolResult::text("Hello, stranger!"),
        Ok(Elicitation::Cancelled) => ToolResult::text("Goodbye."),
        Err(error) => ToolResult::error(error),
    }
}

fn server_with(runs: Runs, secret: &str) -> McpServer {
    McpServer::builder("input-server", "1.0.0")
        .request_state_secret(secret)
        .tool("greet", "Greet by name", greet)
        .tool(
            "polite",
            "Greets plainly when it cannot ask",
            |_: NoArguments, ctx: Context| async move {
                if !ctx.can_elicit() {
                    return ToolResult::text("Hello, stranger!");
                }
                greet(NoArguments {}, ctx).await
            },
        )
        .tool(
            "profile",
            "Asks two questions",
            move |Topic { topic }: Topic, ctx: Context| {
                let runs = Arc::clone(&runs);
                async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    let Ok(Elicitation::Accepted(Name { name })) =
                        ctx.elicit::<Name>("Your name?").await
                    else {
                        return ToolResult::error("no name");
                    };
                    let Ok(Elicitation::Accepted(Age { age })) =
                        ctx.elicit::<Age>(&format!("{name}, your age?")).await
                    else {
                        return ToolResult::error("no age");
                    };
                    ToolResult::text(format!("{name} ({age}) likes {topic}"))
                }
            },
        )
        .tool("poem", "Asks the client's model", support::poem)
        .prompt(Prompt::new(
            "intro",
            "Introduces the user",
            |_: NoArguments, ctx: Context| async move {
                let name = match ctx.elicit::<Name>("Who are you?").await {
                    Ok(Elicitation::Accepted(Name { name })) => name,
                    _ => "someone".to_owned(),
                };
                vec![PromptMessage::user(format!("I am {name}."))]
            },
        ))
        .resource(Resource::new(
            "mem:///secret",
            "secret",
            |ctx: Context| async move {
                match ctx.elicit::<Name>("Who is reading?").await {
                    Ok(Elicitation::Accepted(Name { name })) => {
                        ResourceContents::text(format!("for {name}"))
                    }
                    _ => ResourceContents::text("for nobody"),
                }
            },
        ))
        .build()
        .expect("schemas fit")
}

fn server() -> McpServer {
    server_with(Runs::default(), "test secret, 32 bytes or more long")
}

fn client_2026(server: &McpServer) -> Client {
    connect(server, Version::V2026_07_28, declines())
}

/// `tools/call` params under 2026-07-28 for a client declaring `capabilities`.
fn call(tool: &str, arguments: Value, capabilities: Value) -> Value {
    json!({ "_meta": Client::meta(capabilities), "name": tool, "arguments": arguments })
}

/// The retry of `params` after `previous` (an input-required result): `answers` as
/// `inputResponses` and the state echoed.
fn retry(params: &Value, previous: &Value, answers: Value) -> Value {
    let mut params = params.clone();
    params["inputResponses"] = answers;
    params["requestState"] = previous["requestState"].clone();
    params
}

/// The one input request of an input-required result: its key and the request.
fn only_request(result: &Value) -> (String, Value) {
    assert_eq!(result["resultType"], "input_required", "{result:#}");
    let requests = result["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.len(), 1, "{requests:?}");
    let (key, request) = requests.iter().next().unwrap();
    (key.clone(), request.clone())
}

fn text(result: &Value) -> &str {
    assert_eq!(result["resultType"], "complete", "{result:#}");
    result["content"][0]["text"].as_str().expect("a text block")
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

#[tokio::test]
async fn an_elicitation_round_trip_ends_in_the_greeting() {
    let server = server();
    let client = client_2026(&server);
    let first = call("greet", json!({}), json!({ "elicitation": {} }));
    let asked = client.request("tools/call", first.clone()).await.unwrap();
    let (key, request) = only_request(&asked);
    assert!(key.starts_with("elicitation-0-"), "{key}");
    assert_eq!(
        request,
        json!({
            "method": "elicitation/create",
            "params": {
                "message": "What is your name?",
                "requestedSchema": {
                    "type": "object",
                    "properties": { "name": { "type": "string" } },
                    "required": ["name"],
                },
            },
        })
    );
    assert_valid(Version::V2026_07_28, "ElicitRequest", &request);
    assert!(asked["requestState"].as_str().unwrap().starts_with("rs1."));
    // Nothing went to the client as a request of its own.
    assert!(client.asked().is_empty());

    let answers = json!({ key: accept(json!({ "name": "Ada" })) });
    let done = client
        .request("tools/call", retry(&first, &asked, answers))
        .await
        .unwrap();
    assert_eq!(text(&done), "Hello, Ada!");
}

#[tokio::test]
async fn declined_and_cancelled_answers_reach_the_handler() {
    let server = server();
    let client = client_2026(&server);
    let first = call("greet", json!({}), json!({ "elicitation": {} }));
    let asked = client.request("tools/call", first.clone()).await.unwrap();
    let (key, _) = only_request(&asked);
    for (answer, greeting) in [("decline", "Hello, stranger!"), ("cancel", "Goodbye.")] {
        let answers = json!({ key.clone(): { "action": answer } });
        let done = client
            .request("tools/call", retry(&first, &asked, answers))
            .await
            .unwrap();
        assert_eq!(text(&done), greeting);
    }
    // An answer the form type cannot take is the handler's error, not a protocol error.
    let answers = json!({ key: accept(json!({ "name": 7 })) });
    let done = client
        .request("tools/call", retry(&first, &asked, answers))
        .await
        .unwrap();
    assert_eq!(done["isError"], true);
    assert!(
        done["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("invalid reply: content: invalid type: integer `7`"),
        "{done}"
    );
}

#[tokio::test]
async fn two_asks_take_two_retries_and_earlier_answers_ride_in_the_state() {
    let runs = Runs::default();
    let server = server_with(Arc::clone(&runs), "a secret of 32 bytes or more: s.");
    let client = client_2026(&server);
    let first = call(
        "profile",
        json!({ "topic": "maths" }),
        json!({ "elicitation": {} }),
    );
    let asked_name = client.request("tools/call", first.clone()).await.unwrap();
    let (name_key, name_request) = only_request(&asked_name);
    assert_eq!(name_request["params"]["message"], "Your name?");

    let answers = json!({ name_key.clone(): accept(json!({ "name": "Ada" })) });
    let second = retry(&first, &asked_name, answers);
    let asked_age = client.request("tools/call", second).await.unwrap();
    let (age_key, age_request) = only_request(&asked_age);
    assert!(age_key.starts_with("elicitation-1-"), "{age_key}");
    assert_eq!(age_request["params"]["message"], "Ada, your age?");

    // The last retry sends only the new answer: the name comes back from the state.
    let answers = json!({ age_key.clone(): accept(json!({ "age": 36 })) });
    let third = retry(&first, &asked_age, answers.clone());
    let done = client.request("tools/call", third).await.unwrap();
    assert_eq!(text(&done), "Ada (36) likes maths");
    // The handler ran once per round, from the start each time.
    assert_eq!(runs.load(Ordering::SeqCst), 3);

    // Without the state the name is not known, so it is asked again.
    let mut stateless = first.clone();
    stateless["inputResponses"] = answers;
    let again = client.request("tools/call", stateless).await.unwrap();
    assert_eq!(only_request(&again).0, name_key);
}

#[tokio::test]
async fn sampling_goes_through_an_input_request_too() {
    let server = server();
    let client = client_2026(&server);
    let first = call("poem", json!({}), json!({ "sampling": {} }));
    let asked = client.request("tools/call", first.clone()).await.unwrap();
    let (key, request) = only_request(&asked);
    assert!(key.starts_with("sampling-0-"), "{key}");
    assert_eq!(request["method"], "sampling/createMessage");
    assert_eq!(request["params"]["maxTokens"], 50);
    assert_valid(Version::V2026_07_28, "CreateMessageRequest", &request);
    let answer = json!({
        "role": "assistant",
        "model": "test-model",
        "content": { "type": "text", "text": "a haiku" },
    });
    let done = client
        .request("tools/call", retry(&first, &asked, json!({ key: answer })))
        .await
        .unwrap();
    assert_eq!(text(&done), "a haiku by test-model");
}

#[tokio::test]
async fn a_client_that_did_not_declare_the_capability_is_never_asked() {
    let server = server();
    let client = client_2026(&server);
    // Sampling declared, elicitation not: greet fails as under every other version.
    let result = client
        .request(
            "tools/call",
            call("greet", json!({}), json!({ "sampling": {} })),
        )
        .await
        .unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(
        result["content"][0]["text"],
        "the client did not declare the `elicitation` capability"
    );
    let plain = client
        .request(
            "tools/call",
            call("poem", json!({}), json!({ "elicitation": {} })),
        )
        .await
        .unwrap();
    assert_eq!(
        plain["content"][0]["text"],
        "the client did not declare the `sampling` capability"
    );
    // A handler that checks `can_elicit` goes on without asking.
    let polite = client
        .request("tools/call", call("polite", json!({}), json!({})))
        .await
        .unwrap();
    assert_eq!(text(&polite), "Hello, stranger!");
    // And with the capability the same handler asks.
    let asked = client
        .request(
            "tools/call",
            call("polite", json!({}), json!({ "elicitation": {} })),
        )
        .await
        .unwrap();
    assert_eq!(only_request(&asked).1["method"], "elicitation/create");
}

#[tokio::test]
async fn prompts_and_resources_can_ask_as_tools_do() {
    let server = server();
    let client = client_2026(&server);
    let meta = Client::meta(json!({ "elicitation": {} }));
    let first = json!({ "_meta": meta, "name": "intro", "arguments": {} });
    let asked = client.request("prompts/get", first.clone()).await.unwrap();
    let (key, _) = only_request(&asked);
    let answers = json!({ key: accept(json!({ "name": "Grace" })) });
    let got = client
        .request("prompts/get", retry(&first, &asked, answers))
        .await
        .unwrap();
    assert_eq!(got["messages"][0]["content"]["text"], "I am Grace.");

    let first = json!({ "_meta": meta, "uri": "mem:///secret" });
    let asked = client
        .request("resources/read", first.clone())
        .await
        .unwrap();
    // An input-required result is not cacheable: no ttlMs, no cacheScope.
    assert_eq!(asked.get("ttlMs"), None);
    let (key, _) = only_request(&asked);
    let answers = json!({ key: accept(json!({ "name": "Linus" })) });
    let read = client
        .request("resources/read", retry(&first, &asked, answers))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "for Linus");
    assert_eq!(read["ttlMs"], 0);
}

/// Takes the state of an input-required result apart: the payload JSON and the seal.
fn unseal(state: &str) -> (Value, String) {
    let (payload, seal) = state
        .strip_prefix("rs1.")
        .and_then(|rest| rest.split_once('.'))
        .expect("rs1.<payload>.<seal>");
    let bytes: Vec<u8> = (0..payload.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&payload[at..at + 2], 16).unwrap())
        .collect();
    (serde_json::from_slice(&bytes).unwrap(), seal.to_owned())
}

fn reseal(payload: &Value, seal: &str) -> String {
    let hex: String = serde_json::to_vec(payload)
        .unwrap()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("rs1.{hex}.{seal}")
}

#[tokio::test]
async fn a_forged_malformed_or_foreign_request_state_is_invalid_params() {
    let server = server();
    let client = client_2026(&server);
    let first = call(
        "profile",
        json!({ "topic": "maths" }),
        json!({ "elicitation": {} }),
    );
    let asked = client.request("tools/call", first.clone()).await.unwrap();
    let (key, _) = only_request(&asked);
    let answers = json!({ key.clone(): accept(json!({ "name": "Ada" })) });
    let asked_age = client
        .request("tools/call", retry(&first, &asked, answers))
        .await
        .unwrap();
    let state = asked_age["requestState"].as_str().unwrap();

    // The state carries the first answer; changing it breaks the seal.
    let (mut payload, seal) = unseal(state);
    assert_eq!(payload["answers"][&key]["content"]["name"], "Ada");
    payload["answers"][&key]["content"]["name"] = json!("Mallory");
    let forged = reseal(&payload, &seal);

    let oversized = format!("rs1.{}", "0".repeat(MAX_REQUEST_STATE));
    let cases = [
        (forged.as_str(), "its seal does not verify"),
        ("hello", "not a requestState this server issued"),
        ("rs1.zz.00", "not a requestState this server issued"),
        (oversized.as_str(), "-byte bound"),
    ];
    for (bad, reason) in cases {
        let mut params = first.clone();
        params["requestState"] = json!(bad);
        let error = client.request("tools/call", params).await.unwrap_err();
        assert_eq!(
            (error.code(), pointer(&error)),
            (-32602, "/requestState".to_owned())
        );
        let said = data(&error)["reason"].as_str().unwrap().to_owned();
        assert!(said.contains(reason), "{said}");
    }

    // Good state on another request (other arguments) is refused too.
    let mut other = call(
        "profile",
        json!({ "topic": "poetry" }),
        json!({ "elicitation": {} }),
    );
    other["requestState"] = json!(state);
    let error = client.request("tools/call", other).await.unwrap_err();
    assert!(
        data(&error)["reason"]
            .as_str()
            .unwrap()
            .contains("another request")
    );

    // Another server with another secret cannot open it; one with the same secret can.
    let mut replay = first.clone();
    replay["requestState"] = json!(state);
    let stranger = server_with(Runs::default(), "another secret, 32 bytes or more long");
    let error = client_2026(&stranger)
        .request("tools/call", replay.clone())
        .await
        .unwrap_err();
    assert!(
        data(&error)["reason"]
            .as_str()
            .unwrap()
            .contains("does not verify")
    );
    let sibling = server_with(Runs::default(), "test secret, 32 bytes or more long");
    let resumed = client_2026(&sibling)
        .request("tools/call", replay)
        .await
        .unwrap();
    assert_eq!(
        only_request(&resumed).1["params"]["message"],
        "Ada, your age?"
    );

    // inputResponses that are no client result at all: the version's schema refuses them.
    let mut params = first.clone();
    params["inputResponses"] = json!({ key: 5 });
    let error = client.request("tools/call", params).await.unwrap_err();
    assert_eq!(error.code(), -32602);
    assert!(
        pointer(&error).starts_with("/inputResponses"),
        "{}",
        pointer(&error)
    );
}

#[tokio::test]
async fn requests_that_cannot_be_input_required_never_are() {
    let server = server();
    let client = client_2026(&server);
    let meta = Client::meta(json!({ "elicitation": {} }));
    let listed = client
        .request("tools/list", json!({ "_meta": meta }))
        .await
        .unwrap();
    assert_eq!(listed["resultType"], "complete");
    // Earlier versions still ask by request, not by result.
    let old = connect(&server, Version::V2025_11_25, declines());
    old.initialize(json!({ "elicitation": {} })).await;
    let result = old
        .request("tools/call", json!({ "name": "greet", "arguments": {} }))
        .await
        .unwrap();
    assert_eq!(result["content"][0]["text"], "Hello, stranger!");
    assert_eq!(old.asked().len(), 1);
}
