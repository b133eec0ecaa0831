//! Issue 48: what one `resources/read` and one `prompts/get` allocate in the server, in
//! process (`McpServer::serve` over a `tokio::io::duplex` pipe, one line a request), counted
//! by the counting global allocator of `alloc_tool_call` (thread-local, current-thread runtime).
//!
//! Each is counted inside a 2025-11-25 session and statelessly under 2026-07-28 (whose results
//! carry `resultType`, and for `resources/read` `ttlMs` and `cacheScope`). The bounds are a
//! little above what the server allocates now, and below what it allocated before; run with
//! `--nocapture` to read the counts.
//!
//! Per request (debug build), before and after the results were written once from the
//! versions' generated types instead of going model -> generated type -> `Value` -> patched
//! -> text, a prompt's messages moved into it (allocations, bytes):
//! - `resources/read`, 2025-11-25 session: 39, 7,244 -> 28, 5,743;
//! - `resources/read`, 2026-07-28 stateless: 59, 8,169 -> 39, 6,598;
//! - `prompts/get`, 2025-11-25 session: 70, 12,036 -> 42, 8,475;
//! - `prompts/get`, 2026-07-28 stateless: 87, 13,311 -> 56, 9,722.

use mcpwire::Profile;
use mcpwire_server::{
    Context, McpServer, Prompt, PromptMessage, Resource, ResourceContents, Version,
};
use mcpwire_tests::counting_alloc::{CountingAllocator, so_far};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Requests counted per way (after as many warm-up requests).
const CALLS: u64 = 200;

#[derive(Deserialize, JsonSchema)]
struct Topic {
    topic: String,
}

fn server(profile: Profile) -> McpServer {
    McpServer::builder("alloc-replies", "0.0.0")
        .resource(
            Resource::new("mem://note", "note", |_: Context| async {
                ResourceContents::text("a short note")
            })
            .mime_type("text/plain"),
        )
        .prompt(Prompt::new(
            "write",
            "Write about a topic",
            |Topic { topic }: Topic, _: Context| async move {
                vec![
                    PromptMessage::user(format!("Write about {topic}")),
                    PromptMessage::assistant("Sure."),
                ]
            },
        ))
        .profile(profile)
        .build()
        .expect("the server builds")
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const META: &str = r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// Per-request allocations (count, bytes) of `method` with `params` (without their closing
/// brace) under `version`, in process; each reply is checked to contain `expected`.
fn per_request(version: Version, method: &str, params: &str, expected: &str) -> (u64, u64) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime");
    runtime.block_on(async {
        let (client, end) = tokio::io::duplex(64 * 1024);
        let server = server(Profile::mcp(version.as_str()).unwrap());
        let served = tokio::spawn(async move {
            let (input, output) = tokio::io::split(end);
            server.serve(input, output).await
        });
        let (read, mut write) = tokio::io::split(client);
        let mut reader = BufReader::new(read);
        let mut reply = Vec::with_capacity(4096);
        let meta = if version.is_stateless() {
            META
        } else {
            write
                .write_all(format!("{INITIALIZE}\n{INITIALIZED}\n").as_bytes())
                .await
                .unwrap();
            reader.read_until(b'\n', &mut reply).await.unwrap();
            ""
        };
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}{meta}}}}}"#);
        let line = format!("{line}\n");
        let mut round = async || {
            write.write_all(line.as_bytes()).await.unwrap();
            reply.clear();
            reader.read_until(b'\n', &mut reply).await.unwrap();
            let text = String::from_utf8_lossy(&reply);
            assert!(text.contains(expected), "{method} {version}: {text}");
        };
        for _ in 0..CALLS {
            round().await;
        }
        let (count0, bytes0) = so_far();
        for _ in 0..CALLS {
            round().await;
        }
        let (count1, bytes1) = so_far();
        write.shutdown().await.unwrap();
        served.await.unwrap().unwrap();
        ((count1 - count0) / CALLS, (bytes1 - bytes0) / CALLS)
    })
}

/// Fails when `method` under `version` allocates more per request than its bound.
fn assert_within(
    method: &str,
    version: Version,
    (count, bytes): (u64, u64),
    (max_count, max_bytes): (u64, u64),
) {
    println!("{method} {version}: {count} allocations, {bytes} bytes per request");
    assert!(
        count <= max_count && bytes <= max_bytes,
        "{method} {version}: {count} allocations and {bytes} bytes per request; the bound is {max_count} and {max_bytes}"
    );
}

fn read(version: Version) -> (u64, u64) {
    let expected = r#""text":"a short note""#;
    per_request(
        version,
        "resources/read",
        r#"{"uri":"mem://note""#,
        expected,
    )
}

fn get(version: Version) -> (u64, u64) {
    let expected = r#""text":"Write about rust""#;
    let params = r#"{"name":"write","arguments":{"topic":"rust"}"#;
    per_request(version, "prompts/get", params, expected)
}

#[test]
fn a_resource_read_in_a_session_allocates_within_its_bound() {
    let version = Version::V2025_11_25;
    assert_within("resources/read", version, read(version), (31, 6_100));
}

#[test]
fn a_stateless_resource_read_allocates_within_its_bound() {
    let version = Version::V2026_07_28;
    assert_within("resources/read", version, read(version), (43, 7_000));
}

#[test]
fn a_prompt_get_in_a_session_allocates_within_its_bound() {
    let version = Version::V2025_11_25;
    assert_within("prompts/get", version, get(version), (46, 9_000));
}

#[test]
fn a_stateless_prompt_get_allocates_within_its_bound() {
    let version = Version::V2026_07_28;
    assert_within("prompts/get", version, get(version), (62, 10_300));
}
