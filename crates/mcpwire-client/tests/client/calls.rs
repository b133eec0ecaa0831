//! Every call kind under every version.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire_client::{
    CallOptions, ClientError, CompletionTarget, Content, ListenEvent, ListenFilter, LogMessage,
    ResourceContents, Role, Version, result_text,
};
use serde_json::json;

use crate::support::{Sum, builder, connect};

const TOOLS: [&str; 9] = [
    "add",
    "echo",
    "countdown",
    "wait",
    "ask",
    "sample",
    "roots",
    "visit",
    "log",
];

#[tokio::test]
async fn every_call_kind_under_every_version() {
    for version in Version::ALL {
        let logs = Arc::new(Mutex::new(Vec::<LogMessage>::new()));
        let logged = Arc::clone(&logs);
        let builder = builder().on_logging(move |m| logged.lock().unwrap().push(m));
        let (client, _) = connect(version, builder).await;
        let context = format!("under {version}");

        // Lists: one page, then all pages.
        let first = client.list_tools(None).await.expect(&context);
        assert_eq!(first.items.len(), 2, "{context}");
        assert!(first.next_cursor.is_some(), "{context}");
        let tools = client.list_all_tools().await.expect(&context);
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, TOOLS, "{context}");
        let add = &tools[0];
        assert_eq!(
            add.input_schema["properties"]["a"]["type"], "integer",
            "{context}"
        );
        assert_eq!(
            add.output_schema.is_some(),
            version >= Version::V2025_06_18,
            "{context}"
        );

        let resources = client.list_all_resources().await.expect(&context);
        assert_eq!(resources[0].uri, "mem://alpha", "{context}");
        let templates = client.list_all_resource_templates().await.expect(&context);
        assert_eq!(templates[0].uri_template, "users://{id}", "{context}");
        let prompts = client.list_all_prompts().await.expect(&context);
        assert_eq!(prompts[0].name, "greet", "{context}");
        let arguments = prompts[0].arguments.as_deref().unwrap_or_default();
        assert_eq!(arguments[0].required, Some(true), "{context}");

        // Tools: typed arguments, typed structured output.
        let echo = client
            .call_tool("echo", &json!({"name": "hi"}), &CallOptions::new())
            .await
            .expect(&context);
        assert_eq!(result_text(&echo), "hi", "{context}");
        if version >= Version::V2025_06_18 {
            let typed = client
                .call_tool_typed::<_, Sum>("add", &json!({"a": 2, "b": 3}), &CallOptions::new())
                .await
                .expect(&context);
            assert_eq!(typed.output, Sum { sum: 5 }, "{context}");
        } else {
            let add = client
                .call_tool("add", &json!({"a": 2, "b": 3}), &CallOptions::new())
                .await
                .expect(&context);
            assert!(add.structured_content().is_none(), "{context}");
            assert!(result_text(&add).contains('5'), "{context}");
        }

        // Resources, templates, prompts, completion.
        let read = client.read_resource("mem://alpha").await.expect(&context);
        assert_eq!(read[0].uri, "mem://alpha", "{context}");
        assert_eq!(
            read[0].contents,
            ResourceContents::text("the alpha text"),
            "{context}"
        );
        let user = client.read_resource("users://ada").await.expect(&context);
        assert_eq!(
            user[0].contents,
            ResourceContents::text("user ada"),
            "{context}"
        );
        let prompt = client
            .get_prompt("greet", &[("name", "Ada")])
            .await
            .expect(&context);
        assert_eq!(prompt.messages[0].role, Role::User, "{context}");
        assert_eq!(
            prompt.messages[0].content,
            Content::text("Hello Ada"),
            "{context}"
        );
        let completion = client
            .complete(CompletionTarget::Prompt("greet".into()), "name", "a", &[])
            .await
            .expect(&context);
        assert_eq!(completion.values, ["ada", "alan"], "{context}");
        let completion = client
            .complete(
                CompletionTarget::Template("users://{id}".into()),
                "id",
                "g",
                &[],
            )
            .await
            .expect(&context);
        assert_eq!(completion.values, ["grace"], "{context}");

        // Logging: a level asked for, then a message.
        client.set_log_level("info").await.expect(&context);
        let logged = client
            .call_tool("log", &(), &CallOptions::new())
            .await
            .expect(&context);
        assert_eq!(result_text(&logged), "logged", "{context}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while logs.lock().unwrap().is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let first_log = logs.lock().unwrap().first().cloned();
        let first_log = first_log.unwrap_or_else(|| panic!("no log message {context}"));
        assert_eq!(first_log.level, "warning", "{context}");
        assert_eq!(first_log.data, json!("careful"), "{context}");

        // What only some versions have.
        if version.is_stateless() {
            assert!(matches!(
                client.ping().await,
                Err(ClientError::NotInVersion { .. })
            ));
            assert!(matches!(
                client.subscribe("mem://alpha").await,
                Err(ClientError::NotInVersion { .. })
            ));
            let filter = ListenFilter {
                tools_list_changed: true,
                resource_subscriptions: vec!["mem://alpha".into()],
                ..ListenFilter::default()
            };
            let mut subscription = client.listen(&filter).await.expect(&context);
            match subscription.recv().await {
                Some(ListenEvent::Acknowledged(agreed)) => {
                    assert!(agreed.tools_list_changed, "{context}");
                    assert_eq!(agreed.resource_subscriptions, ["mem://alpha"], "{context}");
                }
                other => panic!("{context}: {other:?}"),
            }
        } else {
            client.ping().await.expect(&context);
            client.subscribe("mem://alpha").await.expect(&context);
            client.unsubscribe("mem://alpha").await.expect(&context);
            assert!(matches!(
                client.listen(&ListenFilter::default()).await,
                Err(ClientError::NotInVersion { .. })
            ));
        }
        client.close().await;
        let after = client.list_tools(None).await;
        assert!(
            matches!(after, Err(ClientError::Transport(_))),
            "{context}: {after:?}"
        );
    }
}

#[tokio::test]
async fn a_server_error_is_the_rpc_error_it_sent() {
    let (client, _) = connect(Version::V2025_06_18, builder()).await;
    let error = client.get_prompt("nope", &[]).await.unwrap_err();
    let rpc = error.rpc().expect("an RPC error");
    assert_eq!(rpc.code(), -32602);
    let error = client
        .call_tool("add", &json!({"a": "x"}), &CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(error.rpc().map(|e| e.code()), Some(-32602));
}
