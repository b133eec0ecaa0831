//! The Streamable HTTP transport against `mcpwire-server`'s HTTP serving on loopback, in
//! session mode (2025-11-25) and stateless mode (2026-07-28). A recording proxy between the
//! two keeps every byte the client sends, so the tests read the requests as the server got
//! them: methods, headers, `Last-Event-ID`, the DELETE at the end.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire::http::{HttpConfig, MemoryEventStore};
use mcpwire_client::{
    CallOptions, Client, ClientError, ElicitAnswer, HttpLimits, HttpTransport, TransportError,
    Version, result_text,
};
use mcpwire_server::{Context, Elicitation, McpServer, NoArguments, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Deserialize, JsonSchema)]
struct Mirrored {
    /// Mirrored in `Mcp-Param-Region`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
}

#[derive(Deserialize, JsonSchema, Debug)]
struct Name {
    name: String,
}

fn server() -> McpServer {
    McpServer::builder("http-fixture", "1.0.0")
        .tool(
            "mirrored",
            "Echo the region",
            |args: Mirrored, _: Context| async move { ToolResult::text(args.region) },
        )
        .tool(
            "poll",
            "Close the stream early, then answer",
            |_: NoArguments, ctx: Context| async move {
                let closed = ctx.close_sse_stream().await;
                tokio::time::sleep(Duration::from_millis(100)).await;
                ToolResult::text(format!("answered after closing: {closed}"))
            },
        )
        .tool(
            "ask",
            "Elicit a name",
            |_: NoArguments, ctx: Context| async move {
                match ctx.elicit::<Name>("Who are you?").await {
                    Ok(Elicitation::Accepted(person)) => ToolResult::text(person.name),
                    Ok(other) => ToolResult::text(format!("{other:?}")),
                    Err(error) => ToolResult::error(error),
                }
            },
        )
        .build()
        .expect("the fixture builds")
}

/// Serves `server()` with `config` on loopback behind a recording proxy: the URL to give
/// the client, and what it sent.
async fn serve(config: HttpConfig) -> (String, Recording) {
    let http = server()
        .http_server(config.bind("127.0.0.1:0".parse().expect("an address")))
        .expect("the server binds");
    let upstream = http.local_addr();
    tokio::spawn(http.run());
    let (addr, recording) = recording_proxy(upstream).await;
    (format!("http://{addr}/mcp"), recording)
}

/// Every byte the client sent, over all its connections.
#[derive(Clone, Default)]
struct Recording(Arc<Mutex<Vec<u8>>>);

impl Recording {
    /// What was sent, lowercased (header names are case-insensitive).
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("not poisoned")).to_ascii_lowercase()
    }

    /// The request lines and headers of every request whose request line starts with
    /// `method`.
    fn heads(&self, method: &str) -> Vec<String> {
        self.text()
            .split("\r\n\r\n")
            .filter_map(|chunk| {
                let start =
                    chunk.find(&format!("{} /mcp http/1.1", method.to_ascii_lowercase()))?;
                Some(chunk[start..].to_owned())
            })
            .collect()
    }
}

/// A TCP proxy to `upstream` recording what clients send.
async fn recording_proxy(upstream: SocketAddr) -> (SocketAddr, Recording) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let recording = Recording::default();
    let kept = recording.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = TcpStream::connect(upstream).await else {
                continue;
            };
            let (mut client_read, mut client_write) = client.into_split();
            let (mut server_read, mut server_write) = server.into_split();
            let sent = kept.clone();
            tokio::spawn(async move {
                let mut buffer = [0u8; 8192];
                while let Ok(n @ 1..) = client_read.read(&mut buffer).await {
                    sent.0
                        .lock()
                        .expect("not poisoned")
                        .extend_from_slice(&buffer[..n]);
                    if server_write.write_all(&buffer[..n]).await.is_err() {
                        break;
                    }
                }
                let _ = server_write.shutdown().await;
            });
            tokio::spawn(async move {
                let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
                let _ = client_write.shutdown().await;
            });
        }
    });
    (addr, recording)
}

async fn connect(
    url: &str,
    version: Version,
    transport: impl FnOnce(HttpTransport) -> HttpTransport,
) -> Client {
    let transport = transport(HttpTransport::new(url).expect("an http URL"));
    Client::builder("http-test", "1.0.0")
        .protocol_version(version)
        .request_timeout(Some(Duration::from_secs(10)))
        .on_elicitation(|form| async move {
            assert_eq!(form.message, "Who are you?");
            let mut content = Map::new();
            content.insert("name".into(), json!("Ada"));
            Ok(ElicitAnswer::Accept(content))
        })
        .connect(transport)
        .await
        .expect("the client connects")
}

#[tokio::test]
async fn a_session_sends_its_id_opens_the_get_stream_and_is_deleted_on_close() {
    let (url, recording) = serve(HttpConfig::default()).await;
    let client = connect(&url, Version::V2025_11_25, |t| t).await;
    let result = client
        .call_tool("mirrored", &json!({"region": "eu"}), &CallOptions::new())
        .await
        .expect("the call succeeds");
    assert_eq!(result_text(&result), "eu");
    client.close().await;

    let posts = recording.heads("POST");
    assert!(
        posts.len() >= 3,
        "initialize, initialized, tools/call: {posts:?}"
    );
    assert!(
        !posts[0].contains("mcp-session-id"),
        "initialize has no session: {}",
        posts[0]
    );
    let session = posts[1]
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id: "))
        .expect("the session id on the next POST")
        .to_owned();
    for head in &posts[1..] {
        assert!(
            head.contains(&format!("mcp-session-id: {session}")),
            "{head}"
        );
        assert!(head.contains("mcp-protocol-version: 2025-11-25"), "{head}");
        assert!(
            head.contains("accept: application/json, text/event-stream"),
            "{head}"
        );
        assert!(
            !head.contains("mcp-method"),
            "no 2026-07-28 headers: {head}"
        );
    }
    let gets = recording.heads("GET");
    assert_eq!(gets.len(), 1, "one GET stream: {gets:?}");
    // The GET stream is open before the next request goes out, so a server never sees it
    // arrive in the middle of a call (where it could be taken for that call's reconnection).
    let text = recording.text();
    let get_at = text.find("get /mcp http/1.1").expect("the GET");
    let call_at = text.find(r#""method":"tools/call""#).expect("the call");
    assert!(get_at < call_at, "the GET stream opens before the call");
    assert!(gets[0].contains("accept: text/event-stream"), "{}", gets[0]);
    let deletes = recording.heads("DELETE");
    assert_eq!(deletes.len(), 1, "{deletes:?}");
    assert!(
        deletes[0].contains(&format!("mcp-session-id: {session}")),
        "{}",
        deletes[0]
    );
}

#[tokio::test]
async fn a_stateless_request_carries_the_standard_and_mirrored_headers() {
    let (url, recording) = serve(HttpConfig::default().stateless(true)).await;
    let client = connect(&url, Version::V2026_07_28, |t| t).await;
    assert!(client.handshake().is_stateless());
    client.list_all_tools().await.expect("the tools");
    // Not plain visible ASCII: base64 on the wire, and the server (which checks the header
    // against the argument) accepts it.
    let region = " Hello, \u{4e16}\u{754c}";
    let result = client
        .call_tool(
            "mirrored",
            &json!({ "region": region }),
            &CallOptions::new(),
        )
        .await
        .expect("the server accepts the mirrored header");
    assert_eq!(result_text(&result), region);
    // What the shared rule cannot mirror (the server refuses it with 400 and -32020) is
    // refused before anything is sent.
    for region in [json!({ "a": 1 }), json!(["us"]), json!(1.5)] {
        let refused = client
            .call_tool(
                "mirrored",
                &json!({ "region": region }),
                &CallOptions::new(),
            )
            .await;
        match refused {
            Err(mcpwire_client::ClientError::Params(reason)) => {
                assert!(reason.contains("Mcp-Param-Region"), "{reason}");
            }
            other => panic!("{region}: {other:?}"),
        }
    }
    client.close().await;

    let posts = recording.heads("POST");
    let calls = posts
        .iter()
        .filter(|head| head.contains("mcp-method: tools/call"));
    assert_eq!(calls.count(), 1, "only the mirrorable call was sent");
    let call = posts
        .iter()
        .find(|head| head.contains("mcp-method: tools/call"))
        .expect("the tools/call POST");
    assert!(call.contains("mcp-name: mirrored"), "{call}");
    assert!(call.contains("mcp-protocol-version: 2026-07-28"), "{call}");
    let encoded = mcpwire::http::encode_header_value(region).to_ascii_lowercase();
    assert!(encoded.starts_with("=?base64?"), "{encoded}");
    assert!(
        call.contains(&format!("mcp-param-region: {encoded}")),
        "{call}"
    );
    assert!(
        posts[0].contains("mcp-method: server/discover"),
        "{}",
        posts[0]
    );
    for head in &posts {
        assert!(!head.contains("mcp-session-id"), "stateless: {head}");
    }
    assert!(
        recording.heads("GET").is_empty(),
        "no GET stream when stateless"
    );
    assert!(recording.heads("DELETE").is_empty(), "no session to delete");
}

#[tokio::test]
async fn an_answer_stream_closed_early_is_resumed_after_its_last_event() {
    let config = HttpConfig::default()
        .event_store(MemoryEventStore::default())
        .sse_retry(Duration::from_millis(50));
    let (url, recording) = serve(config).await;
    let client = connect(&url, Version::V2025_11_25, |t| t.server_stream(false)).await;
    let result = client
        .call_tool("poll", &json!({}), &CallOptions::new())
        .await
        .expect("the answer arrives on the resumed stream");
    assert_eq!(result_text(&result), "answered after closing: true");
    client.close().await;
    let gets = recording.heads("GET");
    assert_eq!(gets.len(), 1, "one resumption: {gets:?}");
    assert!(gets[0].contains("last-event-id: "), "{}", gets[0]);
}

#[tokio::test]
async fn a_session_the_server_ended_fails_every_call_with_session_expired() {
    // Long enough that the first call surely comes in time on a loaded machine.
    let config = HttpConfig::default().session_idle_timeout(Duration::from_secs(1));
    let (url, _) = serve(config).await;
    // No GET stream: an open one would keep the session in use.
    let client = connect(&url, Version::V2025_11_25, |t| t.server_stream(false)).await;
    client.list_all_tools().await.expect("the session is alive");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for attempt in ["the 404", "a later call"] {
        let error = client.list_all_tools().await.expect_err(attempt);
        assert!(
            matches!(
                error,
                ClientError::Transport(TransportError::SessionExpired)
            ),
            "{attempt}: {error:?}"
        );
    }
}

#[tokio::test]
async fn an_input_required_result_is_answered_and_retried() {
    let (url, recording) = serve(HttpConfig::default().stateless(true)).await;
    let client = connect(&url, Version::V2026_07_28, |t| t).await;
    let result = client
        .call_tool("ask", &json!({}), &CallOptions::new())
        .await
        .expect("the retried call completes");
    assert_eq!(result_text(&result), "Ada");
    client.close().await;
    let text = recording.text();
    assert_eq!(
        text.matches("mcp-method: tools/call").count(),
        2,
        "the call and its retry"
    );
    assert!(
        text.contains("\"inputresponses\""),
        "the retry answers the input requests"
    );
}

#[tokio::test]
async fn an_answer_past_the_bound_fails_its_call() {
    // A JSON answer larger than the bound fails its call, naming the bound.
    let (url, _) = serve(HttpConfig::default().stateless(true)).await;
    let limits = HttpLimits {
        max_response_bytes: 64,
        ..HttpLimits::default()
    };
    let transport = HttpTransport::new(&url).expect("a URL").limits(limits);
    let error = Client::builder("http-test", "1.0.0")
        .protocol_version(Version::V2026_07_28)
        .connect(transport)
        .await
        .expect_err("the discover answer is longer than 64 bytes");
    assert!(error.to_string().contains("64 bytes"), "{error}");
}
