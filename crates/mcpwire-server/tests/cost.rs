//! Issue 46: what one request costs the server grows linearly with its size, for every input an
//! attacker controls on the server's request path. Each input is sent as a raw frame over a
//! session (the stdio path; HTTP hands the same bytes to the same session) at 16 KiB, 64 KiB and
//! 256 KiB, and the CPU time per byte (the process's own clock, client and server together, the
//! least of three runs) may not grow by more than 3× from the smallest size to the largest: a
//! quadratic path grows 16×. docs/http.md ("Cost per byte of input") names each input's cost.

use std::time::Duration;

use mcpwire_server::{
    CompletionRequest, Context, McpServer, Prompt, PromptMessage, ResourceContents,
    ResourceTemplate, Version,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

#[derive(Deserialize, JsonSchema)]
struct Text {
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct Topic {
    topic: String,
}

fn server() -> McpServer {
    McpServer::builder("cost", "1")
        .tool(
            "measure",
            "The length of a text",
            |Text { text }: Text, _: Context| async move { text.len().to_string() },
        )
        .prompt(
            Prompt::new(
                "about",
                "A prompt",
                |Topic { topic }: Topic, _: Context| async move {
                    vec![PromptMessage::user(format!("about {}", topic.len()))]
                },
            )
            .complete("topic", |request: CompletionRequest| async move {
                vec![request.value.len().to_string()]
            }),
        )
        .resource_template(ResourceTemplate::new(
            "test://template/{id}/data",
            "data",
            |Topic { topic }: Topic, _: Context| async move { ResourceContents::text(topic) },
        ))
        .build()
        .expect("a valid server")
}

/// One session of the server, spoken to in raw lines.
struct Wire {
    to_server: WriteHalf<DuplexStream>,
    from_server: BufReader<ReadHalf<DuplexStream>>,
    _served: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Wire {
    /// A session under `version`, past `initialize` where the version has it.
    async fn open(server: &McpServer, version: Version) -> Self {
        let (client, server_io) = tokio::io::duplex(1 << 16);
        let (server_in, server_out) = tokio::io::split(server_io);
        let (from_server, to_server) = tokio::io::split(client);
        let (_, served) = mcpwire::service::spawn(server.session(), server_in, server_out);
        let mut wire = Self {
            to_server,
            from_server: BufReader::new(from_server),
            _served: served,
        };
        if version.has_handshake() {
            let initialize = json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": version.as_str(),
                    "capabilities": {},
                    "clientInfo": { "name": "cost", "version": "0" },
                },
            });
            let reply = wire.exchange(&initialize.to_string()).await;
            assert!(reply.contains("\"result\""), "{reply}");
            wire.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
                .await;
        }
        wire
    }

    async fn send(&mut self, frame: &str) {
        self.to_server.write_all(frame.as_bytes()).await.unwrap();
        self.to_server.write_all(b"\n").await.unwrap();
        self.to_server.flush().await.unwrap();
    }

    /// Sends `frame` and returns the reply line.
    async fn exchange(&mut self, frame: &str) -> String {
        self.send(frame).await;
        let mut reply = String::new();
        let read = self.from_server.read_line(&mut reply);
        tokio::time::timeout(Duration::from_secs(60), read)
            .await
            .expect("a reply within a minute")
            .unwrap();
        reply
    }
}

/// One attacker-controlled input: its name, the version it is sent under, the frame carrying
/// `n` bytes of it, and a piece of text the reply must hold (so that the path was taken).
struct Input {
    name: &'static str,
    version: Version,
    frame: fn(usize) -> String,
    reply: &'static str,
}

/// The `_meta` of a 2026-07-28 request.
const META_2026: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;

fn inputs() -> Vec<Input> {
    let v11 = Version::V2025_11_25;
    vec![
        Input {
            name: "a tool argument's string",
            version: v11,
            frame: |n| call(&format!(r#"{{"text":"{}"}}"#, "a".repeat(n)), ""),
            reply: "\"result\"",
        },
        Input {
            name: "a string of escapes",
            version: v11,
            frame: |n| call(&format!(r#"{{"text":"{}"}}"#, r"\u00e9".repeat(n / 6)), ""),
            reply: "\"result\"",
        },
        Input {
            name: "members of `_meta`",
            version: v11,
            frame: |n| call(r#"{"text":"a"}"#, &members(n)),
            reply: "\"result\"",
        },
        Input {
            name: "members of a tool's arguments",
            version: v11,
            frame: |n| call(&format!(r#"{{"text":"a",{}}}"#, members(n)), ""),
            reply: "\"result\"",
        },
        Input {
            name: "a progress token",
            version: v11,
            frame: |n| {
                call(
                    r#"{"text":"a"}"#,
                    &format!(r#""progressToken":"{}""#, "a".repeat(n)),
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "a method name",
            version: v11,
            frame: |n| format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{}"}}"#, "a".repeat(n)),
            reply: "-32601",
        },
        Input {
            name: "a string id",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":"{}","method":"ping"}}"#,
                    "a".repeat(n)
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "a number id",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#,
                    "1".repeat(n)
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "members of a request's params",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{{}}}}}"#,
                    members(n)
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "a list cursor",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"cursor":"{}"}}}}"#,
                    "a".repeat(n)
                )
            },
            reply: "-32602",
        },
        Input {
            name: "a completion value",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{{"ref":{{"type":"ref/prompt","name":"about"}},"argument":{{"name":"topic","value":"{}"}}}}}}"#,
                    "a".repeat(n)
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "a resource URI against a template",
            version: v11,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"test://template/{}/x"}}}}"#,
                    "a".repeat(n)
                )
            },
            reply: "-32002",
        },
        Input {
            name: "a string nested 200 deep in a client capability (2026-07-28)",
            version: Version::V2026_07_28,
            frame: |n| {
                let nested = format!(
                    "{}\"{}\"{}",
                    "[".repeat(200),
                    "a".repeat(n),
                    "]".repeat(200)
                );
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"measure","arguments":{{"text":"a"}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"experimental":{{"x":{{"y":{nested}}}}}}}}}}}}}"#
                )
            },
            reply: "\"result\"",
        },
        Input {
            name: "a `requestState`",
            version: Version::V2026_07_28,
            frame: |n| {
                format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"measure","arguments":{{"text":"a"}},"requestState":"{}","_meta":{{{META_2026}}}}}}}"#,
                    "a".repeat(n)
                )
            },
            reply: "-32602",
        },
    ]
}

/// A `tools/call` of `measure` with `arguments`, and `meta` members in its `_meta`.
fn call(arguments: &str, meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"measure","arguments":{arguments},"_meta":{{{meta}}}}}}}"#
    )
}

/// About `n` bytes of distinct object members, without the braces.
fn members(n: usize) -> String {
    (0..n / 12)
        .map(|i| format!(r#""k{i:07}":0"#))
        .collect::<Vec<_>>()
        .join(",")
}

/// The CPU time this process has used, all threads together.
fn process_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
}

#[tokio::test]
async fn every_input_costs_linear_time_per_byte() {
    let server = server();
    let mut failures = Vec::new();
    for input in inputs() {
        let mut wire = Wire::open(&server, input.version).await;
        let mut per_byte = Vec::new();
        for size in [16 << 10, 64 << 10, 256 << 10] {
            let frame = (input.frame)(size);
            let mut least = Duration::MAX;
            for _ in 0..3 {
                let started = process_cpu();
                let reply = wire.exchange(&frame).await;
                least = least.min(process_cpu() - started);
                assert!(reply.contains(input.reply), "{}: {reply:.300}", input.name);
            }
            per_byte.push(least.as_secs_f64() * 1e9 / frame.len() as f64);
        }
        let growth = per_byte[2] / per_byte[0];
        if growth > 3.0 {
            failures.push(format!(
                "{}: {:.1} ns a byte at 16 KiB, {:.1} at 256 KiB ({growth:.1}×)",
                input.name, per_byte[0], per_byte[2]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
