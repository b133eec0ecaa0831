//! Every content block (text, image, audio, embedded resource, resource link), annotated,
//! in a tool result and a prompt message under every version: what the client receives is
//! valid for the version's schema, and a block the version lacks is an explicit error.

use crate::support;

use mcpwire_server::{
    Annotations, Content, Context, EmbeddedResource, McpServer, Prompt, PromptMessage,
    ResourceContents, ResourceLink, Role, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, assert_valid, connect, declines};

const KINDS: [&str; 6] = [
    "text",
    "image",
    "audio",
    "resource",
    "blob",
    "resource_link",
];

#[derive(Deserialize, JsonSchema)]
struct Kind {
    /// Which block to return.
    kind: String,
}

/// The block named `kind`, with every annotation the version may carry.
fn block(kind: &str, version_has_last_modified: bool) -> Content {
    let content = match kind {
        "text" => Content::text("hello"),
        "image" => Content::image("iVBORw0KGgo=", "image/png"),
        "audio" => Content::audio("UklGRg==", "audio/wav"),
        "resource" => Content::resource(EmbeddedResource {
            mime_type: Some("text/plain".into()),
            ..EmbeddedResource::new("test://doc", ResourceContents::text("the doc"))
        }),
        "blob" => Content::resource(EmbeddedResource::new(
            "test://bin",
            ResourceContents::Blob("AAEC".into()),
        )),
        _ => Content::resource_link(ResourceLink {
            title: Some("Doc".into()),
            mime_type: Some("text/plain".into()),
            size: Some(7),
            ..ResourceLink::new("test://doc", "doc")
        }),
    };
    content.annotated(Annotations {
        audience: Some(vec![Role::User, Role::Assistant]),
        priority: Some(0.5),
        last_modified: version_has_last_modified.then(|| "2025-01-01T00:00:00Z".into()),
    })
}

/// What `kind` is on the wire.
fn wire_type(kind: &str) -> &str {
    if kind == "blob" { "resource" } else { kind }
}

/// Whether `version` has the block `kind`.
fn has(version: Version, kind: &str) -> bool {
    match kind {
        "audio" => version >= Version::V2025_03_26,
        "resource_link" => version >= Version::V2025_06_18,
        _ => true,
    }
}

fn server() -> McpServer {
    McpServer::builder("content-server", "1.0.0")
        .tool(
            "block",
            "Returns one block",
            |k: Kind, ctx: Context| async move {
                let dated = ctx.version() >= Version::V2025_06_18;
                ToolResult::content(vec![block(&k.kind, dated)])
            },
        )
        .prompt(Prompt::new(
            "block",
            "One message of one block",
            |k: Kind, ctx: Context| async move {
                let dated = ctx.version() >= Version::V2025_06_18;
                vec![PromptMessage::new(Role::Assistant, block(&k.kind, dated))]
            },
        ))
        .build()
        .unwrap()
}

async fn client(server: &McpServer, version: Version) -> (Client, Value) {
    let client = connect(server, version, declines());
    if version.has_handshake() {
        client.initialize(json!({})).await;
        (client, Value::Null)
    } else {
        (client, Client::meta(json!({})))
    }
}

fn params(meta: &Value, kind: &str) -> Value {
    let mut params = json!({ "name": "block", "arguments": { "kind": kind } });
    if !meta.is_null() {
        params["_meta"] = meta.clone();
    }
    params
}

#[tokio::test]
async fn every_block_is_sent_valid_or_refused_under_every_version() {
    let server = server();
    for version in Version::ALL {
        let (client, meta) = client(&server, version).await;
        for kind in KINDS {
            let called = client
                .request("tools/call", params(&meta, kind))
                .await
                .unwrap();
            let got = client.request("prompts/get", params(&meta, kind)).await;
            if has(version, kind) {
                assert_valid(version, "CallToolResult", &called);
                assert_eq!(called.get("isError"), None, "{version} {kind}: {called}");
                let sent = &called["content"][0];
                assert_eq!(sent["type"], wire_type(kind), "{version}: {called}");
                assert_eq!(
                    sent["annotations"]["audience"],
                    json!(["user", "assistant"])
                );
                assert_eq!(sent["annotations"]["priority"], json!(0.5));
                assert_eq!(
                    sent["annotations"].get("lastModified").is_some(),
                    version >= Version::V2025_06_18
                );
                let got = got.unwrap();
                assert_valid(version, "GetPromptResult", &got);
                assert_eq!(got["messages"][0]["role"], "assistant");
                assert_eq!(&got["messages"][0]["content"], sent);
            } else {
                assert_valid(version, "CallToolResult", &called);
                assert_eq!(called["isError"], true, "{version} {kind}");
                let text = called["content"][0]["text"].as_str().unwrap();
                assert_eq!(
                    text,
                    format!(
                        "the tool's result cannot be sent: `{kind}` content cannot be sent \
                         under MCP {version}"
                    )
                );
                let error = got.unwrap_err();
                assert_eq!(error.code(), -32603, "{version} {kind}");
                assert!(
                    support::data(&error).as_str().unwrap().contains(&format!(
                        "`{kind}` content cannot be sent under MCP {version}"
                    )),
                    "{error:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn embedded_resources_and_links_carry_their_members() {
    let server = server();
    let (client, _) = client(&server, Version::V2025_11_25).await;
    let called = |kind: &'static str| client.request("tools/call", params(&Value::Null, kind));
    assert_eq!(
        called("resource").await.unwrap()["content"][0]["resource"],
        json!({ "uri": "test://doc", "mimeType": "text/plain", "text": "the doc" })
    );
    assert_eq!(
        called("blob").await.unwrap()["content"][0]["resource"],
        json!({ "uri": "test://bin", "blob": "AAEC" })
    );
    let link = &called("resource_link").await.unwrap()["content"][0];
    assert_eq!(
        (&link["uri"], &link["name"], &link["title"], &link["size"]),
        (
            &json!("test://doc"),
            &json!("doc"),
            &json!("Doc"),
            &json!(7)
        )
    );
}
