//! The fixture server every test talks to, in process over `tokio::io::duplex`, and the
//! helpers that connect a client to it under one version.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcpwire_client::{Client, ClientBuilder, StreamTransport, Version};
use mcpwire_server::{
    Context, Elicitation, LogLevel, McpServer, NoArguments, Prompt, PromptMessage, Resource,
    ResourceContents, ResourceTemplate, Structured, ToolResult,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, JsonSchema)]
pub struct Add {
    pub a: i64,
    pub b: i64,
}

#[derive(Serialize, Deserialize, JsonSchema, Debug, PartialEq)]
pub struct Sum {
    pub sum: i64,
}

#[derive(Deserialize, JsonSchema)]
pub struct Countdown {
    pub n: u32,
    pub step_ms: u64,
}

#[derive(Deserialize, JsonSchema)]
pub struct Greet {
    pub name: String,
}

fn default_age() -> u32 {
    42
}

#[derive(Deserialize, JsonSchema, Debug)]
pub struct Person {
    pub name: String,
    #[serde(default = "default_age")]
    pub age: u32,
}

/// What the fixture's tools saw.
#[derive(Default)]
pub struct Seen {
    /// Calls of `wait` that ended because the client cancelled them.
    pub cancelled: AtomicUsize,
}

impl Seen {
    pub fn cancelled(&self) -> usize {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// The fixture: tools of every kind, a resource, a template, a prompt; lists paged by 2.
pub fn server(seen: &Arc<Seen>) -> McpServer {
    let waiting = Arc::clone(seen);
    McpServer::builder("fixture", "1.0.0")
        .page_size(2)
        .tool(
            "add",
            "Add two integers",
            |args: Add, _: Context| async move {
                Ok::<_, &str>(Structured(Sum {
                    sum: args.a + args.b,
                }))
            },
        )
        .tool(
            "echo",
            "Echo a text",
            |args: Greet, _: Context| async move { ToolResult::text(args.name) },
        )
        .tool(
            "countdown",
            "Progress every step",
            |args: Countdown, ctx: Context| async move {
                for step in 0..args.n {
                    ctx.progress(f64::from(step + 1), Some(f64::from(args.n)))
                        .await;
                    tokio::time::sleep(Duration::from_millis(args.step_ms)).await;
                }
                ToolResult::text("liftoff")
            },
        )
        .tool(
            "wait",
            "Wait until cancelled",
            move |_: NoArguments, ctx: Context| {
                let seen = Arc::clone(&waiting);
                async move {
                    ctx.cancelled().await;
                    seen.cancelled.fetch_add(1, Ordering::SeqCst);
                    ToolResult::text("cancelled")
                }
            },
        )
        .tool(
            "ask",
            "Elicit a person",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Person>("Who are you?").await {
                    Ok(Elicitation::Accepted(person)) => {
                        ToolResult::text(format!("{} {}", person.name, person.age))
                    }
                    Ok(other) => ToolResult::text(format!("{other:?}")),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "sample",
            "Sample a model",
            |_: NoArguments, ctx: Context| async move {
                match ctx.sample("Say hi", 10).await {
                    Ok(sampled) => ToolResult::text(sampled.text().unwrap_or_default()),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "roots",
            "List the client's roots",
            |_: NoArguments, ctx: Context| async move {
                match ctx.list_roots().await {
                    Ok(roots) => ToolResult::text(
                        roots
                            .iter()
                            .map(|r| r.uri.as_str())
                            .collect::<Vec<_>>()
                            .join(","),
                    ),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "visit",
            "Elicit in URL mode",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit_url("Sign in", "https://example.com/login").await {
                    Ok(answer) => ToolResult::text(format!("{:?}", answer.answer)),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .tool(
            "log",
            "Log a line",
            |_: NoArguments, ctx: Context| async move {
                ctx.log(LogLevel::Warning, "careful").await;
                ToolResult::text("logged")
            },
        )
        .resource(Resource::new("mem://alpha", "alpha", |_: Context| async {
            ResourceContents::text("the alpha text")
        }))
        .resource_template(
            ResourceTemplate::new(
                "users://{id}",
                "user",
                |vars: std::collections::BTreeMap<String, String>, _: Context| async move {
                    ResourceContents::text(format!("user {}", vars["id"]))
                },
            )
            .complete("id", |request| async move {
                ["ada", "alan", "grace"]
                    .into_iter()
                    .filter(|n| n.starts_with(&request.value))
                    .map(String::from)
                    .collect()
            }),
        )
        .prompt(
            Prompt::new(
                "greet",
                "Greet someone",
                |args: Greet, _: Context| async move {
                    vec![PromptMessage::user(format!("Hello {}", args.name))]
                },
            )
            .complete("name", |request| async move {
                ["ada", "alan"]
                    .into_iter()
                    .filter(|n| n.starts_with(&request.value))
                    .map(String::from)
                    .collect()
            }),
        )
        .build()
        .expect("the fixture builds")
}

/// Serves `server` in process; returns the client's transport.
pub fn serve(server: &McpServer) -> StreamTransport<tokio::io::ReadHalf<tokio::io::DuplexStream>> {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_io);
    let server = server.clone();
    tokio::spawn(async move { server.serve(server_read, server_write).await });
    let (read, write) = tokio::io::split(client_io);
    StreamTransport::new(read, write)
}

/// A client of a fresh fixture under `version`.
pub async fn connect(version: Version, builder: ClientBuilder) -> (Client, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let server = server(&seen);
    let client = builder
        .protocol_version(version)
        .connect(serve(&server))
        .await
        .unwrap_or_else(|e| panic!("{version}: {e}"));
    assert_eq!(client.protocol_version(), version);
    (client, seen)
}

/// A builder with no handlers.
pub fn builder() -> ClientBuilder {
    Client::builder("test-client", "0.1.0")
}

/// The server side of a scripted conversation: the test reads what the client sends and
/// writes exactly the bytes it wants the client to receive.
pub struct Scripted {
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    output: tokio::io::WriteHalf<tokio::io::DuplexStream>,
}

impl Scripted {
    /// The next message the client sent (within 5 s).
    pub async fn recv(&mut self) -> serde_json::Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.lines.next_line())
            .await
            .expect("the client sent something within 5 s")
            .expect("reading")
            .expect("a line");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Whether the client sends nothing within `wait`.
    pub async fn silent_for(&mut self, wait: Duration) -> Option<serde_json::Value> {
        match tokio::time::timeout(wait, self.lines.next_line()).await {
            Ok(Ok(Some(line))) => Some(serde_json::from_str(&line).expect("JSON")),
            _ => None,
        }
    }

    /// Sends `line` (a `\n` is added).
    pub async fn send(&mut self, line: &str) {
        use tokio::io::AsyncWriteExt;
        self.output
            .write_all(line.as_bytes())
            .await
            .expect("writing");
        self.output.write_all(b"\n").await.expect("writing");
    }
}

/// A client connected under 2025-06-18 to a scripted server that has answered the
/// handshake.
pub async fn scripted(builder: ClientBuilder) -> (Client, Scripted) {
    use tokio::io::AsyncBufReadExt;
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let (server_read, output) = tokio::io::split(server_io);
    let mut server = Scripted {
        lines: tokio::io::BufReader::new(server_read).lines(),
        output,
    };
    let (read, write) = tokio::io::split(client_io);
    let connecting = tokio::spawn(
        builder
            .protocol_version(Version::V2025_06_18)
            .connect(StreamTransport::new(read, write)),
    );
    let initialize = server.recv().await;
    assert_eq!(initialize["method"], "initialize");
    server
        .send(
            &serde_json::json!({"jsonrpc": "2.0", "id": initialize["id"], "result": {
                "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                "serverInfo": {"name": "scripted", "version": "1"}}})
            .to_string(),
        )
        .await;
    let client = connecting.await.expect("joined").expect("connected");
    assert_eq!(server.recv().await["method"], "notifications/initialized");
    (client, server)
}
