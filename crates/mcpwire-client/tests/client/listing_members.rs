//! Resources, templates and prompts listed through the client into the model's entries,
//! the types `mcpwire-server` lists them with: size, annotations, icons, `_meta` and titles
//! arrive as served wherever the version has them, and a version without a member never
//! has it on the wire.

use mcpwire_client::{
    Annotations, CallOptions, PromptEntry, ResourceEntry, ResourceTemplateEntry, Role, Version,
};
use mcpwire_server::{
    Context, McpServer, Prompt, PromptMessage, Resource, ResourceContents, ResourceTemplate,
};
use serde_json::{Map, Value, json};

use crate::support::{builder, serve};

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn icon() -> Map<String, Value> {
    object(json!({"src": "https://example.com/a.png", "mimeType": "image/png"}))
}

fn annotations() -> Annotations {
    Annotations {
        audience: Some(vec![Role::Assistant]),
        priority: Some(0.25),
        last_modified: Some("2025-01-12T15:00:58Z".into()),
    }
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Topic {
    /// What to talk about.
    topic: String,
}

fn server() -> McpServer {
    McpServer::builder("listing", "1")
        .resource(
            Resource::new("mem://a", "a", |_: Context| async {
                ResourceContents::text("a")
            })
            .title("A")
            .mime_type("text/plain")
            .size(1234)
            .annotations(annotations())
            .icons(vec![icon()])
            .meta(object(json!({"example.com/r": 1}))),
        )
        .resource_template(
            ResourceTemplate::new(
                "users://{id}",
                "user",
                |_: std::collections::BTreeMap<String, String>, _: Context| async {
                    ResourceContents::text("u")
                },
            )
            .annotations(annotations())
            .icons(vec![icon()])
            .meta(object(json!({"example.com/t": 2}))),
        )
        .prompt(
            Prompt::new("talk", "Talk", |args: Topic, _: Context| async move {
                vec![PromptMessage::user(args.topic)]
            })
            .icons(vec![icon()])
            .meta(object(json!({"example.com/p": 3}))),
        )
        .build()
        .expect("the server builds")
}

/// A raw list result, as the server sent it.
struct RawList;

impl mcpwire::peer::Request for RawList {
    const METHOD: &'static str = "resources/list";
    type Params = Map<String, Value>;
    type Result = Value;
}

#[tokio::test]
async fn listed_entries_carry_every_member_the_version_has() {
    for version in Version::ALL {
        let dated = version >= Version::V2025_06_18;
        let iconed = version >= Version::V2025_11_25;
        let client = builder()
            .protocol_version(version)
            .connect(serve(&server()))
            .await
            .unwrap_or_else(|e| panic!("{version}: {e}"));
        let icons = iconed.then(|| vec![icon()]);
        let served_annotations = Annotations {
            last_modified: annotations().last_modified.filter(|_| dated),
            ..annotations()
        };

        let resources = client.list_all_resources().await.expect("resources");
        assert_eq!(
            resources,
            vec![ResourceEntry {
                title: dated.then(|| "A".into()),
                mime_type: Some("text/plain".into()),
                size: Some(1234),
                annotations: Some(served_annotations.clone()),
                icons: icons.clone(),
                meta: dated.then(|| object(json!({"example.com/r": 1}))),
                ..ResourceEntry::new("mem://a", "a")
            }],
            "{version}"
        );
        let templates = client
            .list_all_resource_templates()
            .await
            .expect("templates");
        assert_eq!(
            templates,
            vec![ResourceTemplateEntry {
                annotations: Some(served_annotations),
                icons: icons.clone(),
                meta: dated.then(|| object(json!({"example.com/t": 2}))),
                ..ResourceTemplateEntry::new("users://{id}", "user")
            }],
            "{version}"
        );
        let prompts = client.list_all_prompts().await.expect("prompts");
        assert_eq!(prompts.len(), 1, "{version}");
        let PromptEntry {
            icons: got, meta, ..
        } = &prompts[0];
        assert_eq!(got, &icons, "{version}");
        let want_meta = dated.then(|| object(json!({"example.com/p": 3})));
        assert_eq!(meta, &want_meta, "{version}");

        // On the wire: what the version lacks is not there at all.
        if version.has_handshake() {
            let raw = client
                .request::<RawList>(&Map::new(), &CallOptions::new())
                .await
                .expect("raw list");
            let sent = &raw["resources"][0];
            assert_eq!(sent["size"], 1234, "{version}: {raw}");
            assert_eq!(sent.get("icons").is_some(), iconed, "{version}: {raw}");
            assert_eq!(sent.get("_meta").is_some(), dated, "{version}: {raw}");
            assert_eq!(sent.get("title").is_some(), dated, "{version}: {raw}");
            assert_eq!(
                sent["annotations"].get("lastModified").is_some(),
                dated,
                "{version}: {raw}"
            );
        }
        client.close().await;
    }
}
