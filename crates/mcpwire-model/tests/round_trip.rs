//! For every version, what the model can send reads back equal (neutral → the version's
//! generated type → JSON text → generated type → neutral), what the version cannot carry is
//! refused when sent, and the upstream 2026-07-28 examples of the results a client reads
//! decode and survive the same round trip.

use std::path::PathBuf;

use mcpwire_model::result::read::read_resource_result;
use mcpwire_model::result::wire::{CompletionPage, read_result};
use mcpwire_model::{
    Annotations, Content, DiscoverReply, EmbeddedResource, InitializeReply, ListCapability,
    PeerInfo, PromptMessage, PromptResult, ResourceContents, ResourceLink, ResourcesCapability,
    Role, ServerCapabilitySet, ToolHints, ToolInfo, ToolPage, ToolResult, Version,
};
use mcpwire_model::{
    ListPage, PromptArgumentEntry, PromptEntry, ResourceEntry, ResourceTemplateEntry,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

/// Every content block `version` can carry, annotated as far as it can be.
fn blocks(version: Version) -> Vec<Content> {
    let dated = version >= Version::V2025_06_18;
    let annotations = Annotations {
        audience: Some(vec![Role::User, Role::Assistant]),
        priority: Some(0.25),
        last_modified: dated.then(|| "2025-01-02T03:04:05Z".to_owned()),
    };
    let mut out = vec![
        Content::text("plain"),
        Content::text("annotated").annotated(annotations.clone()),
        Content::image("iVBORw0KGgo=", "image/png").annotated(Annotations {
            audience: Some(vec![]),
            ..Annotations::default()
        }),
        Content::resource(EmbeddedResource {
            mime_type: Some("text/plain".into()),
            ..EmbeddedResource::new("file:///a.txt", ResourceContents::text("a"))
        }),
        Content::resource(EmbeddedResource::new(
            "file:///b.bin",
            ResourceContents::Blob("AAEC".into()),
        ))
        .annotated(annotations.clone()),
    ];
    if version >= Version::V2025_03_26 {
        out.push(Content::audio("UklGRg==", "audio/wav").annotated(annotations.clone()));
    }
    if dated {
        out.push(Content::resource_link(ResourceLink::new("file:///c", "c")));
        out.push(
            Content::resource_link(ResourceLink {
                title: Some("C".into()),
                description: Some("the c file".into()),
                mime_type: Some("text/x-c".into()),
                size: Some(u64::MAX),
                ..ResourceLink::new("file:///c.c", "c.c")
            })
            .annotated(annotations.clone()),
        );
        let meta = object(json!({ "trace": "a1", "hops": [1, 2.5], "nested": { "k": null } }));
        out.push(Content::text("with meta").with_meta(meta.clone()));
        out.push(
            Content::resource_link(ResourceLink::new("file:///d", "d"))
                .annotated(annotations.clone())
                .with_meta(meta.clone()),
        );
        // The contents' `_meta` beside the block's own, and on a blob alone.
        let contents_meta = object(json!({ "ui": { "csp": ["https://a.example"] } }));
        out.push(
            Content::resource(EmbeddedResource {
                mime_type: Some("text/html".into()),
                meta: Some(contents_meta.clone()),
                ..EmbeddedResource::new("ui://widget", ResourceContents::text("<p>hi</p>"))
            })
            .annotated(annotations)
            .with_meta(meta),
        );
        out.push(Content::resource(EmbeddedResource {
            meta: Some(contents_meta),
            ..EmbeddedResource::new("file:///f.bin", ResourceContents::Blob("AAEC".into()))
        }));
    }
    if version >= Version::V2025_11_25 {
        out.push(Content::resource_link(ResourceLink {
            icons: Some(vec![
                object(json!({ "src": "https://example.com/c.png" })),
                object(json!({
                    "src": "data:image/svg+xml;base64,PHN2Zy8+",
                    "mimeType": "image/svg+xml",
                    "sizes": ["any"],
                    "theme": "dark"
                })),
            ]),
            ..ResourceLink::new("file:///e", "e")
        }));
    }
    out
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(members) => members,
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn tool_results_read_back_equal_under_every_version() {
    for version in Version::ALL {
        let mut results = vec![
            ToolResult::content(blocks(version)),
            ToolResult::error("it failed"),
            ToolResult::content(Vec::new()),
        ];
        if version >= Version::V2025_06_18 {
            results.push(ToolResult::structured(
                &json!({ "sum": 5, "parts": [2, 3.5] }),
            ));
        }
        for result in results {
            let sent = result.try_to_json(version).unwrap().to_string();
            let read = ToolResult::from_json(&sent, version).unwrap();
            assert_eq!(read, result, "{version}: {sent}");
        }
    }
}

#[test]
fn what_a_version_lacks_is_refused_when_sent() {
    let link = Content::resource_link(ResourceLink::new("file:///c", "c"));
    let audio = Content::audio("UklGRg==", "audio/wav");
    let with_meta = Content::text("t").with_meta(object(json!({ "k": 1 })));
    let contents_meta = Content::resource(EmbeddedResource {
        meta: Some(object(json!({ "k": 1 }))),
        ..EmbeddedResource::new("file:///a", ResourceContents::text("a"))
    });
    let icon = object(json!({ "src": "https://example.com/c.png" }));
    let with_icons = Content::resource_link(ResourceLink {
        icons: Some(vec![icon]),
        ..ResourceLink::new("file:///c", "c")
    });
    let without_src = Content::resource_link(ResourceLink {
        icons: Some(vec![object(json!({ "mimeType": "image/png" }))]),
        ..ResourceLink::new("file:///c", "c")
    });
    for (block, version, what) in [
        (&link, Version::V2025_03_26, "`resource_link` content"),
        (&audio, Version::V2024_11_05, "`audio` content"),
        (
            &with_meta,
            Version::V2024_11_05,
            "a content block's `_meta`",
        ),
        (
            &with_meta,
            Version::V2025_03_26,
            "a content block's `_meta`",
        ),
        (
            &contents_meta,
            Version::V2024_11_05,
            "an embedded resource's `_meta`",
        ),
        (
            &contents_meta,
            Version::V2025_03_26,
            "an embedded resource's `_meta`",
        ),
        (
            &with_icons,
            Version::V2025_06_18,
            "a resource link's `icons`",
        ),
    ] {
        let result = ToolResult::content(vec![block.clone()]);
        let error = result.try_to_json(version).unwrap_err();
        assert_eq!((error.what.as_str(), error.version), (what, version));
        let error = PromptMessage::new(Role::User, block.clone())
            .to_json(version)
            .unwrap_err();
        assert_eq!((error.what.as_str(), error.version), (what, version));
    }
    let error = ToolResult::content(vec![without_src])
        .try_to_json(Version::V2025_11_25)
        .unwrap_err();
    assert!(
        error.what.starts_with("an icon its schema refuses"),
        "{error}"
    );
    let titled = ToolInfo {
        title: Some("Add".into()),
        ..ToolInfo::new("add", object(json!({ "type": "object" })))
    };
    let error = titled.to_json(Version::V2025_03_26).unwrap_err();
    assert_eq!(
        error.to_string(),
        "a tool `title` cannot be sent under MCP 2025-03-26"
    );
    let hinted = ToolInfo {
        hints: Some(ToolHints::default()),
        ..ToolInfo::new("add", object(json!({ "type": "object" })))
    };
    assert!(hinted.to_json(Version::V2024_11_05).is_err());
    assert!(hinted.to_json(Version::V2025_03_26).is_ok());
    let array_input = ToolInfo::new("list", object(json!({ "type": "array" })));
    let error = array_input.to_json(Version::V2025_11_25).unwrap_err();
    assert!(error.what.contains("inputSchema"), "{error}");
    let reply = initialize_reply(Version::V2024_11_05);
    let with_completions = InitializeReply {
        capabilities: ServerCapabilitySet {
            completions: true,
            ..reply.capabilities.clone()
        },
        ..reply
    };
    assert!(with_completions.to_json(Version::V2024_11_05).is_err());
    assert!(
        initialize_reply(Version::V2025_11_25)
            .to_json(Version::V2026_07_28)
            .is_err()
    );
    assert!(discover_reply().to_json(Version::V2025_11_25).is_err());
}

#[test]
fn prompt_results_read_back_equal_under_every_version() {
    for version in Version::ALL {
        let messages = blocks(version)
            .into_iter()
            .enumerate()
            .map(|(i, block)| {
                let role = if i % 2 == 0 {
                    Role::User
                } else {
                    Role::Assistant
                };
                PromptMessage::new(role, block)
            })
            .collect();
        for description in [None, Some("a review".to_owned())] {
            let result = PromptResult {
                description,
                messages: Vec::clone(&messages),
            };
            let sent = result.try_to_json(version).unwrap().to_string();
            assert_eq!(PromptResult::from_json(&sent, version).unwrap(), result);
        }
    }
}

#[test]
fn resource_contents_and_completions_read_back_equal_under_every_version() {
    for version in Version::ALL {
        for (mime_type, contents) in [
            (Some("text/plain"), ResourceContents::text("hello")),
            (None, ResourceContents::Blob("AAEC".into())),
        ] {
            let sent: serde_json::Value =
                read_result("file:///x", mime_type, contents.clone(), version);
            let read = read_resource_result(&sent.to_string(), version).unwrap();
            let expected = EmbeddedResource {
                mime_type: mime_type.map(str::to_owned),
                ..EmbeddedResource::new("file:///x", contents)
            };
            assert_eq!(read, [expected]);
        }
        // Each item's `_meta` is kept where the version declares it, and left behind as an
        // undeclared member before 2025-06-18.
        let mut sent: serde_json::Value =
            read_result("file:///x", None, ResourceContents::text("hi"), version);
        sent["contents"] = json!([
            { "uri": "file:///x", "text": "hi", "_meta": { "k": [1] } },
            { "uri": "file:///y", "blob": "AAEC" }
        ]);
        let read = read_resource_result(&sent.to_string(), version).unwrap();
        let meta = (version >= Version::V2025_06_18).then(|| object(json!({ "k": [1] })));
        let expected = [
            EmbeddedResource {
                meta,
                ..EmbeddedResource::new("file:///x", ResourceContents::text("hi"))
            },
            EmbeddedResource::new("file:///y", ResourceContents::Blob("AAEC".into())),
        ];
        assert_eq!(read, expected, "{version}");
        for page in [
            CompletionPage {
                values: vec!["a".into(), "b".into()],
                total: Some(250),
                has_more: Some(true),
            },
            CompletionPage {
                values: Vec::new(),
                total: None,
                has_more: None,
            },
        ] {
            let sent: serde_json::Value =
                mcpwire_model::result::wire::complete_result(page.clone(), version);
            assert_eq!(
                CompletionPage::from_json(&sent.to_string(), version).unwrap(),
                page
            );
        }
    }
}

/// A tool with every member `version` has.
fn full_tool(version: Version) -> ToolInfo {
    let mut tool = ToolInfo {
        description: Some("Adds".into()),
        ..ToolInfo::new(
            "add",
            object(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "title": "Add",
                "properties": { "a": { "$ref": "#/$defs/N" } },
                "$defs": { "N": { "type": "integer" } },
                "required": ["a"],
                "additionalProperties": false,
            })),
        )
    };
    if version >= Version::V2025_03_26 {
        tool.hints = Some(ToolHints {
            title: Some("Adder".into()),
            read_only: Some(true),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: None,
        });
    }
    if version >= Version::V2025_06_18 {
        tool.title = Some("Add".into());
        tool.output_schema = Some(
            object(json!({
                "type": "object",
                "properties": { "sum": { "type": "integer" } },
            }))
            .into(),
        );
        tool.meta = Some(object(
            json!({ "example.com/owner": "math", "n": [1, 2.5] }),
        ));
    }
    if version >= Version::V2025_11_25 {
        tool.icons = Some(vec![object(json!({
            "src": "https://example.com/add.png",
            "mimeType": "image/png",
            "sizes": ["48x48"],
        }))]);
    }
    if version == Version::V2025_11_25 {
        tool.execution = Some(object(json!({ "taskSupport": "optional" })));
    }
    tool
}

#[test]
fn tool_members_a_version_lacks_are_errors_not_dropped() {
    let with = |edit: fn(&mut ToolInfo)| {
        let mut tool = ToolInfo::new("t", object(json!({"type": "object"})));
        edit(&mut tool);
        tool
    };
    let icons = with(|t| t.icons = Some(vec![object(json!({"src": "https://e.com/i.png"}))]));
    let execution = with(|t| t.execution = Some(object(json!({"taskSupport": "required"}))));
    let meta = with(|t| t.meta = Some(object(json!({"k": 1}))));
    for (tool, version, what) in [
        (&icons, Version::V2025_06_18, "tool `icons`"),
        (&execution, Version::V2026_07_28, "a tool `execution`"),
        (&execution, Version::V2025_06_18, "a tool `execution`"),
        (&meta, Version::V2025_03_26, "a tool `_meta`"),
    ] {
        let error = tool.to_json(version).unwrap_err();
        assert!(error.to_string().starts_with(what), "{version}: {error}");
    }
    // An icon its generated type refuses (no `src`) is refused, not sent.
    let bad = with(|t| t.icons = Some(vec![object(json!({"mimeType": "image/png"}))]));
    assert!(bad.to_json(Version::V2025_11_25).is_err());
}

#[test]
fn tools_and_tool_pages_read_back_equal_under_every_version() {
    for version in Version::ALL {
        let tool = full_tool(version);
        let sent = tool.to_json(version).unwrap().to_string();
        assert_eq!(ToolInfo::from_json(&sent, version).unwrap(), tool, "{sent}");
        for next_cursor in [None, Some("2".to_owned())] {
            let page = ToolPage {
                tools: vec![
                    tool.clone(),
                    ToolInfo::new("bare", object(json!({"type": "object"}))),
                ],
                next_cursor,
            };
            let sent = page.to_json(version).unwrap().to_string();
            assert_eq!(ToolPage::from_json(&sent, version).unwrap(), page);
        }
    }
}

#[test]
fn resource_template_and_prompt_pages_read_back_equal_under_every_version() {
    use mcpwire_model::Annotations;
    for version in Version::ALL {
        let titled = version >= Version::V2025_06_18;
        let iconed = version >= Version::V2025_11_25;
        let title = || titled.then(|| "Title".to_owned());
        let meta = || titled.then(|| object(json!({"example.com/k": [1]})));
        let icons = || {
            iconed.then(|| {
                vec![object(json!({"src": "https://example.com/i.png",
            "mimeType": "image/png", "sizes": ["48x48"]}))]
            })
        };
        let annotations = || Annotations {
            audience: Some(vec![Role::User]),
            priority: Some(0.5),
            last_modified: titled.then(|| "2025-01-12T15:00:58Z".to_owned()),
        };
        let resources = ListPage {
            items: vec![
                ResourceEntry {
                    uri: "file:///a".into(),
                    name: "a".into(),
                    title: title(),
                    description: Some("the a file".into()),
                    mime_type: Some("text/plain".into()),
                    size: Some(1024),
                    annotations: Some(annotations()),
                    icons: icons(),
                    meta: meta(),
                },
                ResourceEntry::new("file:///b", "b"),
            ],
            next_cursor: Some("2".into()),
        };
        let sent = resources.to_json(version).unwrap();
        assert_eq!(sent["resources"][0]["size"], 1024, "{version}");
        assert_eq!(sent["resources"][0]["annotations"]["priority"], 0.5);
        assert_eq!(sent["resources"][1].get("annotations"), None);
        let sent = sent.to_string();
        assert_eq!(
            ListPage::<ResourceEntry>::from_json(&sent, version).unwrap(),
            resources,
            "{version}"
        );
        let templates = ListPage {
            items: vec![ResourceTemplateEntry {
                uri_template: "users://{id}".into(),
                name: "user".into(),
                title: title(),
                description: Some("a user".into()),
                mime_type: None,
                annotations: Some(annotations()),
                icons: icons(),
                meta: meta(),
            }],
            next_cursor: None,
        };
        let sent = templates.to_json(version).unwrap().to_string();
        assert_eq!(
            ListPage::<ResourceTemplateEntry>::from_json(&sent, version).unwrap(),
            templates,
            "{version}"
        );
        let prompts = ListPage {
            items: vec![
                PromptEntry {
                    name: "review".into(),
                    title: title(),
                    description: Some("Review code".into()),
                    arguments: Some(vec![
                        PromptArgumentEntry {
                            name: "code".into(),
                            title: title(),
                            description: Some("The code".into()),
                            required: Some(true),
                        },
                        PromptArgumentEntry {
                            name: "style".into(),
                            title: None,
                            description: None,
                            required: None,
                        },
                    ]),
                    icons: icons(),
                    meta: meta(),
                },
                PromptEntry::new("bare"),
            ],
            next_cursor: None,
        };
        let sent = prompts.to_json(version).unwrap().to_string();
        assert_eq!(
            ListPage::<PromptEntry>::from_json(&sent, version).unwrap(),
            prompts,
            "{version}"
        );
        // A member the version lacks is refused by name, never dropped.
        if !iconed {
            let mut iconed_prompts = prompts.clone();
            iconed_prompts.items[1].icons = Some(vec![object(json!({"src": "a.png"}))]);
            let error = iconed_prompts.to_json(version).unwrap_err();
            assert_eq!(error.what, "a prompt `icons`", "{version}");
        }
        if !titled {
            let mut dated = resources.clone();
            dated.items[1].annotations = Some(Annotations {
                last_modified: Some("2025-01-12T15:00:58Z".into()),
                ..Annotations::default()
            });
            let error = dated.to_json(version).unwrap_err();
            assert_eq!(error.what, "a resource `annotations.lastModified`");
            let mut with_meta = templates.clone();
            with_meta.items[0].meta = Some(object(json!({"k": 1})));
            let error = with_meta.to_json(version).unwrap_err();
            assert_eq!(error.what, "a resource template `_meta`");
        }
        if !titled {
            let mut titled_prompts = prompts.clone();
            titled_prompts.items[1].title = Some("Bare".into());
            let error = titled_prompts.to_json(version).unwrap_err();
            assert_eq!(error.what, "a prompt `title`");
        }
    }
}

fn initialize_reply(version: Version) -> InitializeReply {
    let mut reply = InitializeReply {
        protocol_version: version.as_str().into(),
        capabilities: ServerCapabilitySet {
            logging: true,
            completions: version >= Version::V2025_03_26,
            tools: Some(ListCapability {
                list_changed: Some(true),
            }),
            prompts: Some(ListCapability::default()),
            resources: Some(ResourcesCapability {
                list_changed: Some(false),
                subscribe: Some(true),
            }),
            extensions: Default::default(),
        },
        server_info: PeerInfo::new("demo", "1.0.0"),
        instructions: Some("Use add.".into()),
    };
    if version >= Version::V2025_06_18 {
        reply.server_info.title = Some("Demo".into());
    }
    reply
}

fn discover_reply() -> DiscoverReply {
    DiscoverReply {
        supported_versions: vec!["2026-07-28".into(), "2025-11-25".into()],
        capabilities: ServerCapabilitySet {
            extensions: ["io.modelcontextprotocol/tasks".to_owned()].into(),
            ..initialize_reply(Version::V2026_07_28).capabilities
        },
        server_info: Some(PeerInfo {
            title: Some("Demo".into()),
            ..PeerInfo::new("demo", "1.0.0")
        }),
        instructions: None,
    }
}

#[test]
fn initialize_and_discover_results_read_back_equal() {
    for version in Version::ALL.into_iter().filter(|v| v.has_handshake()) {
        for reply in [
            initialize_reply(version),
            InitializeReply {
                protocol_version: version.as_str().into(),
                capabilities: ServerCapabilitySet::default(),
                server_info: PeerInfo::new("bare", "0"),
                instructions: None,
            },
        ] {
            let sent = reply.to_json(version).unwrap().to_string();
            assert_eq!(InitializeReply::from_json(&sent, version).unwrap(), reply);
        }
    }
    let version = Version::V2026_07_28;
    for reply in [
        discover_reply(),
        DiscoverReply {
            server_info: None,
            ..discover_reply()
        },
    ] {
        let sent = reply.to_json(version).unwrap();
        assert_eq!(sent["resultType"], "complete");
        assert_eq!(sent["ttlMs"], 0);
        assert_eq!(sent["cacheScope"], "public");
        let tasks = &sent["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"];
        assert_eq!(*tasks, serde_json::json!({}));
        let read = DiscoverReply::from_json(&sent.to_string(), version).unwrap();
        assert_eq!(read, reply);
    }
}

#[test]
fn an_input_required_or_malformed_reply_is_a_read_error() {
    let version = Version::V2026_07_28;
    let input_required = r#"{"resultType":"input_required","content":[]}"#;
    let error = ToolResult::from_json(input_required, version).unwrap_err();
    assert_eq!(
        error.to_string(),
        "not a CallToolResult of MCP 2026-07-28: its resultType is `input_required`, not `complete`"
    );
    let error = ToolResult::from_json(r#"{"content":[{"type":"audio"}]}"#, Version::V2025_03_26)
        .unwrap_err();
    assert_eq!(error.what, "CallToolResult");
    let link = r#"{"content":[{"type":"resource_link","uri":"u","name":"n","size":-1}]}"#;
    assert!(ToolResult::from_json(link, Version::V2025_06_18).is_err());
    assert!(InitializeReply::from_json("{}", Version::V2026_07_28).is_err());
}

/// The upstream MCP schema folder (`MCP_SCHEMA_DIR`, default `../shared/schemas/mcp` from
/// the workspace root).
fn mcp_dir() -> PathBuf {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    match std::env::var_os("MCP_SCHEMA_DIR") {
        Some(d) if !d.is_empty() => workspace.join(d),
        _ => workspace.join("../shared/schemas/mcp"),
    }
}

/// The texts of the 2026-07-28 examples of definition `name`.
fn examples(name: &str) -> Vec<(String, String)> {
    let dir = mcp_dir().join("2026-07-28/examples").join(name);
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set MCP_SCHEMA_DIR)", dir.display()));
    let mut out: Vec<(String, String)> = entries
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            (path.display().to_string(), text)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no examples in {}", dir.display());
    out
}

#[test]
fn the_upstream_2026_examples_read_and_survive_a_round_trip() {
    let v = Version::V2026_07_28;
    for (path, text) in examples("CallToolResult") {
        let read = ToolResult::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        let again = read.try_to_json(v).unwrap().to_string();
        assert_eq!(ToolResult::from_json(&again, v).unwrap(), read, "{path}");
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(read.is_error(), original["isError"] == true, "{path}");
        if let Some(structured) = original.get("structuredContent") {
            assert_eq!(read.structured_content(), Some(structured), "{path}");
        }
    }
    for (path, text) in examples("GetPromptResult") {
        let read = PromptResult::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(!read.messages.is_empty(), "{path}");
        let again = read.try_to_json(v).unwrap().to_string();
        assert_eq!(PromptResult::from_json(&again, v).unwrap(), read, "{path}");
    }
    for (path, text) in examples("ReadResourceResult") {
        let read = read_resource_result(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(!read.is_empty(), "{path}");
    }
    for (path, text) in examples("CompleteResult") {
        let read = CompletionPage::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        let again =
            mcpwire_model::result::wire::complete_result::<serde_json::Value>(read.clone(), v)
                .to_string();
        assert_eq!(
            CompletionPage::from_json(&again, v).unwrap(),
            read,
            "{path}"
        );
    }
    for (path, text) in examples("Tool") {
        let read = ToolInfo::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(read.input_schema, original["inputSchema"]);
        // Kept as the example writes it (pretty-printed), byte for byte.
        let members: std::collections::HashMap<String, Box<RawValue>> =
            serde_json::from_str(&text).unwrap();
        assert_eq!(read.input_schema.as_str(), members["inputSchema"].get());
        assert_eq!(
            read.output_schema.as_ref().map(|s| s.as_str()),
            members.get("outputSchema").map(|s| s.get()),
            "{path}"
        );
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(ToolInfo::from_json(&again, v).unwrap(), read, "{path}");
    }
    for (path, text) in examples("ListToolsResult") {
        let read = ToolPage::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            read.next_cursor.as_deref(),
            Some("next-page-cursor"),
            "{path}"
        );
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(ToolPage::from_json(&again, v).unwrap(), read, "{path}");
    }
    for (path, text) in examples("DiscoverResult") {
        let read = DiscoverReply::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            read.server_info,
            Some(PeerInfo::new("ExampleServer", "1.0.0"))
        );
        assert!(read.capabilities.tools.is_some() && read.capabilities.resources.is_some());
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(DiscoverReply::from_json(&again, v).unwrap(), read, "{path}");
    }
}

#[test]
fn asks_and_their_answers_read_back_equal_under_every_version() {
    use mcpwire_model::{
        ElicitAnswer, ElicitRequest, Form, IncludeContext, ModelPreferences, SamplingReply,
        SamplingRequest,
    };
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Contact {
        /// Your name.
        name: String,
        age: Option<u32>,
        subscribe: bool,
    }
    for version in Version::ALL {
        let mut request = SamplingRequest::new(64)
            .user("What is 2+2?")
            .assistant("4")
            .system_prompt("Be brief.")
            .temperature(0.5)
            .stop_sequence("\n")
            .include_context(IncludeContext::ThisServer)
            .model_preferences(ModelPreferences {
                hints: vec!["claude".into()],
                cost_priority: Some(0.25),
                ..ModelPreferences::default()
            });
        if version >= Version::V2025_03_26 {
            request = request.message(Role::User, Content::audio("UklGRg==", "audio/wav"));
        }
        let sent = request.to_json(version).unwrap().to_string();
        assert_eq!(
            SamplingRequest::from_json(&sent, version).unwrap(),
            request,
            "{version}"
        );
        let reply = SamplingReply::assistant_text("m", "4").stop_reason("endTurn");
        let sent = reply.to_json(version).unwrap().to_string();
        assert_eq!(SamplingReply::from_json(&sent, version).unwrap(), reply);
        // A resource has no place in a sampled message.
        let resource = SamplingReply {
            content: Content::resource(EmbeddedResource::new(
                "file:///a",
                ResourceContents::text("a"),
            ))
            .into(),
            ..reply.clone()
        };
        assert!(resource.to_json(version).is_err(), "{version}");

        if version < Version::V2025_06_18 {
            assert!(ElicitAnswer::Decline.to_json(version).is_err());
            continue;
        }
        let form = ElicitRequest::Form {
            message: "Who are you?".into(),
            form: Form::of::<Contact>().unwrap(),
            meta: None,
        };
        let sent = form.to_json(version).unwrap().to_string();
        assert_eq!(
            ElicitRequest::from_json(&sent, version).unwrap(),
            form,
            "{version}"
        );
        let mut content = Map::new();
        content.insert("name".into(), json!("Ada"));
        content.insert("subscribe".into(), json!(true));
        for answer in [
            ElicitAnswer::Accept(content.clone()),
            ElicitAnswer::Accept(Map::new()),
            ElicitAnswer::Decline,
            ElicitAnswer::Cancel,
        ] {
            let sent = answer.to_json(version).unwrap().to_string();
            assert_eq!(ElicitAnswer::from_json(&sent, version).unwrap(), answer);
        }
        // A number field's answer need not be whole (forms ask for `number`).
        let mut scored = content.clone();
        scored.insert("score".into(), json!(95.5));
        scored.insert("tags".into(), json!(["a", "b"]));
        let sent = ElicitAnswer::Accept(scored.clone())
            .to_json(version)
            .unwrap();
        assert_eq!(
            ElicitAnswer::from_json(&sent.to_string(), version).unwrap(),
            ElicitAnswer::Accept(scored)
        );
        // Content no form has (a nested object) is neither sent nor read.
        let mut nested = Map::new();
        nested.insert("address".into(), json!({"city": "Paris"}));
        assert!(ElicitAnswer::Accept(nested).to_json(version).is_err());
        let text = r#"{"action":"accept","content":{"address":{"city":"Paris"}}}"#;
        assert!(ElicitAnswer::from_json(text, version).is_err());
        assert!(ElicitAnswer::from_json(r#"{"action":"maybe"}"#, version).is_err());
        if version >= Version::V2025_11_25 {
            let url = ElicitRequest::Url {
                message: "Sign in".into(),
                url: "https://example.com/login".into(),
                elicitation_id: (version == Version::V2025_11_25).then(|| "e-1".to_owned()),
                meta: None,
            };
            let sent = url.to_json(version).unwrap().to_string();
            assert_eq!(ElicitRequest::from_json(&sent, version).unwrap(), url);
        }
    }
}

#[test]
fn the_upstream_2026_ask_examples_read_back_equal() {
    use mcpwire_model::{ElicitAnswer, ElicitRequest, SamplingReply, SamplingRequest};
    let v = Version::V2026_07_28;
    // Tool use, tool results and arrays of blocks are read, and written back the same.
    let mut tool_uses = 0;
    for (path, text) in examples("CreateMessageResult") {
        let read = SamplingReply::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        tool_uses += read.content.tool_uses().count();
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(SamplingReply::from_json(&again, v).unwrap(), read, "{path}");
    }
    assert!(tool_uses > 0, "no example result used a tool");
    let mut offered = 0;
    for (path, text) in examples("CreateMessageRequestParams") {
        let read = SamplingRequest::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(!read.messages.is_empty(), "{path}");
        offered += read.tools.as_ref().map_or(0, Vec::len);
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(
            SamplingRequest::from_json(&again, v).unwrap(),
            read,
            "{path}"
        );
    }
    assert!(offered > 0, "no example request offered a tool");
    for name in ["ElicitRequestFormParams", "ElicitRequestURLParams"] {
        for (path, text) in examples(name) {
            let read = ElicitRequest::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
            let again = read.to_json(v).unwrap().to_string();
            assert_eq!(ElicitRequest::from_json(&again, v).unwrap(), read, "{path}");
        }
    }
    for (path, text) in examples("ElicitResult") {
        let read = ElicitAnswer::from_json(&text, v).unwrap_or_else(|e| panic!("{path}: {e}"));
        let again = read.to_json(v).unwrap().to_string();
        assert_eq!(ElicitAnswer::from_json(&again, v).unwrap(), read, "{path}");
    }
}
