//! `completion/complete` for prompt arguments and resource template variables, in
//! conversations with a client of the peer core under every MCP version; the `completions`
//! capability is declared where the version has it and only when something can complete.
//! Every result is validated against the version's schema.

use crate::support;

use std::collections::BTreeMap;

use mcpwire_server::{
    BuildError, CompletionRequest, Context, McpServer, NoArguments, Prompt, PromptMessage,
    ResourceContents, ResourceTemplate, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, connect, data, declines, pointer};

#[derive(Deserialize, JsonSchema)]
struct Translate {
    /// The target language.
    language: String,
    /// How formal to be.
    tone: Option<String>,
}

const LANGUAGES: [&str; 5] = ["Danish", "Dutch", "English", "French", "German"];

fn translate() -> Prompt {
    Prompt::new(
        "translate",
        "Translate text",
        |args: Translate, _: Context| async move {
            let tone = args.tone.as_deref().unwrap_or("neutral");
            vec![PromptMessage::user(format!(
                "Translate into {} ({tone})",
                args.language
            ))]
        },
    )
    .complete("language", |request: CompletionRequest| async move {
        LANGUAGES
            .into_iter()
            .filter(|l| l.starts_with(&request.value))
            .map(String::from)
            .collect()
    })
}

fn posts() -> ResourceTemplate {
    ResourceTemplate::new(
        "users://{user}/posts/{post}",
        "post",
        |vars: BTreeMap<String, String>, _: Context| async move {
            ResourceContents::text(vars["post"].clone())
        },
    )
    .complete("post", |request: CompletionRequest| async move {
        // The posts of the user chosen before, when the client says who it is.
        let user = request.context.get("user").cloned().unwrap_or_default();
        (0..150)
            .map(|n| format!("{user}{}{n}", request.value))
            .collect()
    })
}

fn server() -> McpServer {
    McpServer::builder("completing", "1")
        .prompt(translate())
        .resource_template(posts())
        .build()
        .expect("completers for known arguments")
}

async fn client(server: &McpServer, version: Version) -> (Client, Value, Value) {
    let client = connect(server, version, declines());
    if version.has_handshake() {
        let result = client.initialize(json!({})).await;
        (client, json!({}), result["capabilities"].clone())
    } else {
        let base = json!({ "_meta": Client::meta(json!({})) });
        let discovered = client.discover().await;
        (client, base, discovered["capabilities"].clone())
    }
}

fn complete_params(base: &Value, reference: Value, name: &str, value: &str) -> Value {
    let mut params = base.clone();
    params["ref"] = reference;
    params["argument"] = json!({ "name": name, "value": value });
    params
}

#[tokio::test]
async fn prompt_arguments_complete_under_every_version() {
    let server = server();
    for version in Version::ALL {
        let (client, base, capabilities) = client(&server, version).await;
        // 2024-11-05 has the method but no `completions` capability to declare.
        assert_eq!(
            capabilities.get("completions"),
            (version >= Version::V2025_03_26)
                .then(|| json!({}))
                .as_ref(),
            "{version}"
        );
        let reference = json!({ "type": "ref/prompt", "name": "translate" });
        let result = client
            .request(
                "completion/complete",
                complete_params(&base, reference.clone(), "language", "D"),
            )
            .await
            .unwrap();
        assert_eq!(
            result["completion"],
            json!({ "values": ["Danish", "Dutch"], "total": 2, "hasMore": false }),
            "{version}"
        );
        // An argument without a completer gets no values.
        let result = client
            .request(
                "completion/complete",
                complete_params(&base, reference, "tone", "f"),
            )
            .await
            .unwrap();
        assert_eq!(result["completion"]["values"], json!([]));
        // An unknown prompt is invalid params naming the reference.
        let unknown = json!({ "type": "ref/prompt", "name": "nope" });
        let error = client
            .request(
                "completion/complete",
                complete_params(&base, unknown, "language", ""),
            )
            .await
            .unwrap_err();
        assert_eq!(
            (error.code(), pointer(&error)),
            (-32602, "/ref/name".to_owned())
        );
    }
}

#[tokio::test]
async fn template_variables_complete_with_the_context_and_at_most_100_values() {
    let server = server();
    for version in Version::ALL {
        let (client, base, _) = client(&server, version).await;
        let reference = json!({ "type": "ref/resource", "uri": "users://{user}/posts/{post}" });
        let mut params = complete_params(&base, reference, "post", "p");
        // `context` exists from 2025-06-18.
        let with_context = version >= Version::V2025_06_18;
        if with_context {
            params["context"] = json!({ "arguments": { "user": "ada-" } });
        }
        let result = client.request("completion/complete", params).await.unwrap();
        let completion = &result["completion"];
        let values = completion["values"].as_array().unwrap();
        assert_eq!(values.len(), 100, "{version}");
        let first = if with_context { "ada-p0" } else { "p0" };
        assert_eq!(values[0], first, "{version}");
        assert_eq!(completion["total"], 150);
        assert_eq!(completion["hasMore"], true);

        let unknown = json!({ "type": "ref/resource", "uri": "users://{user}" });
        let error = client
            .request(
                "completion/complete",
                complete_params(&base, unknown, "user", ""),
            )
            .await
            .unwrap_err();
        assert_eq!(pointer(&error), "/ref/uri");
        assert_eq!(
            data(&error)["reason"],
            "no resource template `users://{user}`"
        );
    }
}

#[tokio::test]
async fn without_completers_nothing_is_declared_or_served() {
    let server = McpServer::builder("plain", "1")
        .prompt(Prompt::new(
            "hello",
            "Hello",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("hello")] },
        ))
        .tool("noop", "Nothing", |_: NoArguments, _: Context| async {
            ToolResult::text("")
        })
        .build()
        .unwrap();
    for version in Version::ALL {
        let (client, base, capabilities) = client(&server, version).await;
        assert_eq!(capabilities.get("completions"), None, "{version}");
        let reference = json!({ "type": "ref/prompt", "name": "hello" });
        let error = client
            .request(
                "completion/complete",
                complete_params(&base, reference, "x", ""),
            )
            .await
            .unwrap_err();
        assert_eq!(error.code(), -32601, "{version}");
    }
}

#[tokio::test]
async fn a_completer_for_an_argument_that_does_not_exist_is_refused() {
    let error = McpServer::builder("s", "1")
        .prompt(translate().complete("dialect", |_| async { Vec::new() }))
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        BuildError::Completion {
            item: "translate".into(),
            argument: "dialect".into(),
        }
    );
    assert_eq!(
        error.to_string(),
        "`translate` has no argument `dialect` to complete"
    );
    let error = McpServer::builder("s", "1")
        .resource_template(posts().complete("id", |_| async { Vec::new() }))
        .build()
        .unwrap_err();
    assert_eq!(
        error,
        BuildError::Completion {
            item: "users://{user}/posts/{post}".into(),
            argument: "id".into(),
        }
    );
    // Added while serving, the same check applies.
    let server = server();
    assert!(
        server
            .add_prompt(translate().complete("dialect", |_| async { Vec::new() }))
            .await
            .is_err()
    );
}
