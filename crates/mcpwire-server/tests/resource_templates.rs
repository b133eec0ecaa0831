//! Resource templates in conversations with a client of the peer core, for every MCP version:
//! `resources/templates/list` (paged), `resources/read` of a URI a template matches (its
//! variables decoded for the reader), list_changed when templates change. Every result is
//! validated against the version's schema.

use crate::support;

use std::collections::BTreeMap;
use std::time::Duration;

use mcpwire_server::{
    BuildError, Context, McpServer, Resource, ResourceContents, ResourceTemplate, Version,
};
use serde::Deserialize;
use serde_json::{Value, json};
use support::{Client, connect, data, declines, pointer};

#[derive(Deserialize)]
struct Post {
    user: String,
    post: String,
}

/// A variables type asking for a variable the template does not have.
#[derive(Deserialize)]
struct NeedsLang {
    #[allow(dead_code)]
    lang: String,
}

fn posts() -> ResourceTemplate {
    ResourceTemplate::new(
        "users://{user}/posts/{post}",
        "post",
        |Post { user, post }: Post, _: Context| async move {
            ResourceContents::text(format!("{post} by {user}"))
        },
    )
    .mime_type("text/plain")
    .title("A post")
    .description("One post of one user")
}

fn server(page_size: usize) -> McpServer {
    McpServer::builder("templates", "1")
        .page_size(page_size)
        .resource_template(posts())
        .resource_template(ResourceTemplate::new(
            "file:///{name}.txt",
            "text file",
            |vars: BTreeMap<String, String>, _: Context| async move {
                ResourceContents::text(format!("contents of {}", vars["name"]))
            },
        ))
        .resource_template(ResourceTemplate::new(
            "docs://{page}",
            "doc in a language",
            |_: NeedsLang, _: Context| async { ResourceContents::text("never") },
        ))
        .resource(Resource::new(
            "file:///fixed.txt",
            "fixed",
            |_: Context| async { ResourceContents::text("the plain resource") },
        ))
        .build()
        .expect("level-1 templates")
}

const ALL: [Version; 5] = Version::ALL;

/// A connected client of `version`, initialized where the version has `initialize`, and the
/// params every request of it starts from.
async fn client(server: &McpServer, version: Version) -> (Client, Value) {
    let client = connect(server, version, declines());
    if version.has_handshake() {
        client.initialize(json!({})).await;
        (client, json!({}))
    } else {
        (client, json!({ "_meta": Client::meta(json!({})) }))
    }
}

fn with(base: &Value, members: Value) -> Value {
    let mut params = base.clone();
    for (name, value) in members.as_object().unwrap() {
        params[name] = value.clone();
    }
    params
}

#[tokio::test]
async fn templates_are_listed_page_by_page_under_every_version() {
    let server = server(2);
    for version in ALL {
        let (client, base) = client(&server, version).await;
        let first = client
            .request("resources/templates/list", base.clone())
            .await
            .unwrap();
        let templates = first["resourceTemplates"].as_array().unwrap();
        let uris: Vec<&str> = templates
            .iter()
            .map(|t| t["uriTemplate"].as_str().unwrap())
            .collect();
        // Registration order: `post` was registered first, `docs` last.
        assert_eq!(
            uris,
            ["users://{user}/posts/{post}", "file:///{name}.txt"],
            "{version}"
        );
        let cursor = first["nextCursor"].clone();
        assert!(cursor.is_string(), "{version}: {first}");
        let second = client
            .request(
                "resources/templates/list",
                with(&base, json!({ "cursor": cursor })),
            )
            .await
            .unwrap();
        assert_eq!(
            second["resourceTemplates"][0]["uriTemplate"],
            "docs://{page}"
        );
        let post = &first["resourceTemplates"][0];
        assert_eq!(post["uriTemplate"], "users://{user}/posts/{post}");
        assert_eq!(post["name"], "post");
        assert_eq!(post["mimeType"], "text/plain");
        assert_eq!(post["description"], "One post of one user");
        assert_eq!(
            post.get("title").is_some(),
            version >= Version::V2025_06_18,
            "{version}"
        );
        assert_eq!(second.get("nextCursor"), None);
    }
}

#[tokio::test]
async fn reading_a_uri_a_template_matches_runs_its_reader_with_the_variables() {
    let server = server(100);
    for version in ALL {
        let (client, base) = client(&server, version).await;
        let read = |uri: &str| client.request("resources/read", with(&base, json!({ "uri": uri })));
        let post = read("users://ada/posts/hello%20world").await.unwrap();
        assert_eq!(
            post["contents"],
            json!([{
                "uri": "users://ada/posts/hello%20world",
                "mimeType": "text/plain",
                "text": "hello world by ada",
            }]),
            "{version}"
        );
        let file = read("file:///notes.v2.txt").await.unwrap();
        assert_eq!(file["contents"][0]["text"], "contents of notes.v2");
        // A plain resource at the URI comes before any template.
        let fixed = read("file:///fixed.txt").await.unwrap();
        assert_eq!(fixed["contents"][0]["text"], "the plain resource");

        // Matched by no template: as for an unknown resource, -32002 up to 2025-11-25 and
        // -32602 from 2026-07-28 (SEP-2164).
        let error = read("users://ada/drafts/1").await.unwrap_err();
        let not_found = if version >= Version::V2026_07_28 {
            -32602
        } else {
            -32002
        };
        assert_eq!(error.code(), not_found, "{version}");
        assert_eq!(data(&error)["uri"], "users://ada/drafts/1");
        // Matched, but the variables do not decode as the reader's type: -32602 at /uri.
        let error = read("docs://intro").await.unwrap_err();
        assert_eq!((error.code(), pointer(&error)), (-32602, "/uri".to_owned()));
        assert_eq!(
            data(&error)["reason"],
            "template variable `lang`: missing field `lang`"
        );
    }
}

#[tokio::test]
async fn templates_alone_declare_resources_and_changes_are_announced() {
    let server = McpServer::builder("only-templates", "1")
        .resource_template(posts())
        .build()
        .unwrap();
    let mut client = connect(&server, Version::V2025_11_25, declines());
    let result = client.initialize(json!({})).await;
    assert_eq!(
        result["capabilities"]["resources"],
        json!({ "listChanged": true, "subscribe": true })
    );
    // resources/list is served (empty) because the resources capability is declared.
    let listed = client.request("resources/list", json!({})).await.unwrap();
    assert_eq!(listed["resources"], json!([]));

    let notes = ResourceTemplate::new(
        "notes://{id}",
        "note",
        |vars: BTreeMap<String, String>, _: Context| async move {
            ResourceContents::text(format!("note {}", vars["id"]))
        },
    );
    server.add_resource_template(notes).await.unwrap();
    let (method, _) = client
        .notification(Duration::from_secs(5))
        .await
        .expect("list_changed");
    assert_eq!(method, "notifications/resources/list_changed");
    let read = client
        .request("resources/read", json!({ "uri": "notes://7" }))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "note 7");

    assert!(server.remove_resource_template("notes://{id}").await);
    let (method, _) = client
        .notification(Duration::from_secs(5))
        .await
        .expect("list_changed");
    assert_eq!(method, "notifications/resources/list_changed");
    let error = client
        .request("resources/read", json!({ "uri": "notes://7" }))
        .await
        .unwrap_err();
    assert_eq!(error.code(), -32002);
    assert!(!server.remove_resource_template("notes://{id}").await);
}

#[tokio::test]
async fn templates_beyond_level_1_are_refused_when_built_or_added() {
    let plus = || {
        ResourceTemplate::new(
            "files://{+path}",
            "path",
            |_: BTreeMap<String, String>, _: Context| async { ResourceContents::text("") },
        )
    };
    let error = McpServer::builder("s", "1")
        .resource_template(plus())
        .build()
        .unwrap_err();
    assert!(
        matches!(&error, BuildError::UriTemplate { template, .. } if template == "files://{+path}")
    );
    assert!(
        error.to_string().contains("is not a level-1 variable"),
        "{error}"
    );
    let server = McpServer::builder("s", "1")
        .resource_template(posts())
        .build()
        .unwrap();
    assert!(server.add_resource_template(plus()).await.is_err());
    let twice = McpServer::builder("s", "1")
        .resource_template(posts())
        .resource_template(posts())
        .build()
        .unwrap_err();
    assert_eq!(
        twice,
        BuildError::Duplicate {
            name: "users://{user}/posts/{post}".into()
        }
    );
}

/// Issue 46: a `resources/read` of a 4 MiB URI cost the old template matcher hours of CPU
/// (every end of a variable tried, each prefix decoded again). Matched by a template, matched
/// by none, or matched only after a long ambiguous run, it is answered within a second of CPU
/// time in an optimised build (ten in a debug one), client and server together.
#[tokio::test]
async fn a_4_mib_uri_is_answered_in_linear_time() {
    let server = server(100);
    let letters = "a".repeat(4 << 20);
    let dots = ".".repeat(4 << 20);
    let budget = Duration::from_secs(if cfg!(debug_assertions) { 10 } else { 1 });
    for version in [Version::V2025_11_25, Version::V2026_07_28] {
        let (client, base) = client(&server, version).await;
        for (uri, text) in [
            (
                format!("users://{letters}/posts/x"),
                Some(format!("x by {letters}")),
            ),
            (
                format!("file:///{dots}txt"),
                Some(format!("contents of {}", &dots[1..])),
            ),
            (format!("users://{letters}"), None),
            (format!("users://{letters}/posts/{letters}%"), None),
        ] {
            let started = process_cpu();
            let read = client
                .request("resources/read", with(&base, json!({ "uri": uri })))
                .await;
            let took = process_cpu() - started;
            match (read, text) {
                (Ok(read), Some(text)) => assert_eq!(read["contents"][0]["text"], text),
                (Err(error), None) => assert_eq!(data(&error)["uri"], uri, "{version}"),
                (read, _) => panic!("{version}: {} bytes: {:?}", uri.len(), read.map(|_| ())),
            }
            assert!(took < budget, "{version}: {took:?} for {} bytes", uri.len());
        }
    }
}

/// The CPU time this process has used, all threads together.
fn process_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
}
