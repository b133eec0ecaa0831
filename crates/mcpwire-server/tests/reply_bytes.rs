//! Issue 48: the exact bytes of every reply this layer writes, for a fixed set of requests of
//! every method under every version, compared with a golden file.
//!
//! The golden file (`tests/golden/reply_bytes.txt`) was written by the path that built every
//! result as a `serde_json::Value`, patched it and wrote it as text; the results are now
//! written once from the versions' generated types, and must be the same bytes. Run with
//! `UPDATE_GOLDEN=1` to rewrite the file (then read its diff: it is the wire changing).
//!
//! Each version's conversation goes over `McpServer::serve` on a `tokio::io::duplex` pipe, one
//! line in, one line out, as a stdio client speaks. The one part of a reply that changes from
//! run to run, an input-required result's sealed `requestState` (it holds its expiry), is
//! replaced by `<state>`.

use crate::add_tool;

use std::collections::HashMap;
use std::fmt::Write as _;

use add_tool::add;
use mcpwire::Profile;
use mcpwire_server::{
    Content, Context, Elicitation, McpServer, NoArguments, Prompt, PromptMessage, Resource,
    ResourceContents, ResourceTemplate, ToolResult, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/reply_bytes.txt");

#[derive(Deserialize, JsonSchema)]
struct Topic {
    /// What to write about, with "quotes" and é.
    topic: String,
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

fn server(profile: Profile) -> McpServer {
    McpServer::builder("reply-bytes", "1.0.0")
        .instructions("Ask for \"sums\"; é\n")
        .page_size(2)
        .profile(profile)
        .request_state_secret("a fixed secret for the golden replies, 32+ bytes")
        .tool("add", "Add two integers", add)
        .tool("hello", "Say hello", |_: NoArguments, _: Context| async {
            ToolResult::content(vec![
                Content::text("hello \u{1f}\"world\""),
                Content::image("AAAA", "image/png"),
            ])
        })
        .tool("fail", "A tool error", |_: NoArguments, _: Context| async {
            ToolResult::error("it failed")
        })
        .tool(
            "ask",
            "Asks a name",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Name>("Your name?").await {
                    Ok(Elicitation::Accepted(Name { name })) => ToolResult::text(name),
                    _ => ToolResult::text("nobody"),
                }
            },
        )
        .resource(
            Resource::new("mem://text", "text", |_: Context| async {
                ResourceContents::text("some \"text\"\n")
            })
            .mime_type("text/plain"),
        )
        .resource(Resource::new("mem://blob", "blob", |_: Context| async {
            ResourceContents::Blob("AAEC".into())
        }))
        .resource(Resource::new("mem://third", "third", |_: Context| async {
            ResourceContents::text("3")
        }))
        .resource_template(
            ResourceTemplate::new(
                "note://{id}",
                "note",
                |variables: HashMap<String, String>, _: Context| async move {
                    ResourceContents::text(format!("note {}", variables["id"]))
                },
            )
            .complete("id", |_| async { vec!["1".into(), "2".into()] }),
        )
        .prompt(
            Prompt::new(
                "write",
                "Write about a topic",
                |t: Topic, _: Context| async move {
                    vec![
                        PromptMessage::user(format!("Write about {}", t.topic)),
                        PromptMessage::assistant("Sure."),
                    ]
                },
            )
            .complete("topic", |request| async move {
                ["rust", "rivers", "json"]
                    .into_iter()
                    .filter(|t| t.starts_with(&request.value))
                    .map(String::from)
                    .collect()
            }),
        )
        .prompt(Prompt::new(
            "asking",
            "Asks a name",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Name>("Your name?").await {
                    Ok(Elicitation::Accepted(Name { name })) => vec![PromptMessage::user(name)],
                    _ => vec![PromptMessage::user("nobody")],
                }
            },
        ))
        .prompt(Prompt::new(
            "third",
            "third",
            |_: NoArguments, _: Context| async { vec![PromptMessage::user("3")] },
        ))
        .build()
        .expect("the server builds")
}

/// The requests sent under every version: method and params (without `_meta`).
fn requests() -> Vec<(&'static str, &'static str)> {
    vec![
        ("ping", "{}"),
        ("logging/setLevel", r#"{"level":"info"}"#),
        ("tools/list", "{}"),
        ("tools/list", r#"{"cursor":"c1.31"}"#),
        ("tools/call", r#"{"name":"add","arguments":{"a":40,"b":2}}"#),
        ("tools/call", r#"{"name":"hello"}"#),
        ("tools/call", r#"{"name":"fail"}"#),
        ("tools/call", r#"{"name":"add","arguments":{"a":"x"}}"#),
        ("tools/call", r#"{"name":"nope"}"#),
        ("resources/list", "{}"),
        ("resources/list", r#"{"cursor":"c1.31"}"#),
        ("resources/templates/list", "{}"),
        ("resources/read", r#"{"uri":"mem://text"}"#),
        ("resources/read", r#"{"uri":"mem://blob"}"#),
        ("resources/read", r#"{"uri":"note://7"}"#),
        ("resources/read", r#"{"uri":"mem://none"}"#),
        ("resources/subscribe", r#"{"uri":"mem://text"}"#),
        ("resources/unsubscribe", r#"{"uri":"mem://text"}"#),
        ("prompts/list", "{}"),
        ("prompts/list", r#"{"cursor":"c1.31"}"#),
        (
            "prompts/get",
            r#"{"name":"write","arguments":{"topic":"rust"}}"#,
        ),
        ("prompts/get", r#"{"name":"write"}"#),
        (
            "completion/complete",
            r#"{"ref":{"type":"ref/prompt","name":"write"},"argument":{"name":"topic","value":"r"}}"#,
        ),
        (
            "completion/complete",
            r#"{"ref":{"type":"ref/resource","uri":"note://{id}"},"argument":{"name":"id","value":""}}"#,
        ),
        ("server/discover", "{}"),
        ("tools/call", r#"{"name":"ask"}"#),
        ("prompts/get", r#"{"name":"asking"}"#),
        ("nothing/here", "{}"),
    ]
}

/// `params` with the 2026-07-28 `_meta` members added (its capabilities allow elicitation).
fn with_meta(params: &str) -> String {
    let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}"#;
    match params {
        "{}" => format!("{{{meta}}}"),
        _ => format!("{},{meta}}}", &params[..params.len() - 1]),
    }
}

/// The reply with a `requestState`'s value replaced by `<state>`.
fn normalized(reply: &str) -> String {
    const KEY: &str = r#""requestState":""#;
    match reply.find(KEY) {
        Some(at) => {
            let start = at + KEY.len();
            let end = start + reply[start..].find('"').expect("a closed string");
            format!("{}<state>{}", &reply[..start], &reply[end..])
        }
        None => reply.to_owned(),
    }
}

/// Every request of [`requests`] under `version`, each line followed by its reply.
async fn conversation(version: Version) -> String {
    let stateless = version.is_stateless();
    let profile = Profile::mcp(if stateless {
        "2026-07-28"
    } else {
        "2025-11-25"
    })
    .unwrap();
    let server = server(profile);
    let (client, end) = tokio::io::duplex(1 << 20);
    let served = tokio::spawn(async move {
        let (input, output) = tokio::io::split(end);
        server.serve(input, output).await
    });
    let (read, mut write) = tokio::io::split(client);
    let mut reader = BufReader::new(read);
    let mut transcript = String::new();
    let mut lines = Vec::new();
    if !stateless {
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        ));
    }
    for (id, (method, params)) in requests().into_iter().enumerate() {
        let params = if stateless {
            with_meta(params)
        } else {
            params.to_owned()
        };
        let id = id + 1;
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#
        ));
    }
    for (i, line) in lines.iter().enumerate() {
        write.write_all(line.as_bytes()).await.unwrap();
        write.write_all(b"\n").await.unwrap();
        let mut reply = String::new();
        reader.read_line(&mut reply).await.unwrap();
        writeln!(transcript, "> {line}\n< {}", normalized(reply.trim_end())).unwrap();
        if i == 0 && !stateless {
            let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
            write
                .write_all(format!("{initialized}\n").as_bytes())
                .await
                .unwrap();
        }
    }
    write.shutdown().await.unwrap();
    served.await.unwrap().unwrap();
    transcript
}

#[tokio::test]
async fn every_reply_is_the_bytes_of_the_golden_file() {
    let mut all = String::new();
    for version in Version::ALL {
        writeln!(all, "## {version}").unwrap();
        all.push_str(&conversation(version).await);
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(GOLDEN, &all).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("the golden file");
    for (line, (got, want)) in all.lines().zip(golden.lines()).enumerate() {
        assert_eq!(got, want, "line {} of {GOLDEN}", line + 1);
    }
    assert_eq!(all.lines().count(), golden.lines().count());
}
