//! A client asking for 2026-07-28 of a Streamable HTTP server that keeps sessions and refuses
//! the session-less `server/discover` at the HTTP level, as the TypeScript SDK's servers do
//! (HTTP 400, a JSON-RPC error whose id is `null`): the client falls back to `initialize` and
//! works on. Found by `scripts/client-interop/run.sh` against
//! `@modelcontextprotocol/server-everything`. The server behind the front is `mcpwire-server`
//! in session mode, on loopback.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcpwire_client::{CallOptions, Client, HttpTransport, Rule, Version, result_text};
use mcpwire_server::{Context, McpServer, ToolResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the TypeScript SDK's server answers a POST without a session that is not
/// `initialize`.
const REFUSAL: &str = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#;

/// The most bytes the front reads of one request before it decides.
const MAX_REQUEST: usize = 64 * 1024;

#[derive(Deserialize, JsonSchema)]
struct Echo {
    text: String,
}

fn server() -> McpServer {
    McpServer::builder("legacy-http-fixture", "1.0.0")
        .tool(
            "echo",
            "Echo the text",
            |args: Echo, _: Context| async move { ToolResult::text(args.text) },
        )
        .build()
        .expect("the fixture builds")
}

/// The first request of a connection: its bytes, once its head and `Content-Length` body
/// are in (`None` when the connection ends first or it is too long).
async fn first_request(client: &mut TcpStream) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    while bytes.len() < MAX_REQUEST {
        let n = client.read(&mut buffer).await.ok().filter(|&n| n > 0)?;
        bytes.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
        let Some(end) = text.find("\r\n\r\n") else {
            continue;
        };
        let length = text[..end]
            .lines()
            .find_map(|line| line.strip_prefix("content-length:"))
            .and_then(|value| value.trim().parse::<usize>().ok())
            .unwrap_or(0);
        if bytes.len() >= end + 4 + length {
            return Some(bytes);
        }
    }
    None
}

/// A front on loopback that refuses every `server/discover` POST as the TypeScript SDK does
/// (and closes that connection), and passes every other connection to `upstream`; the URL,
/// and how many discovers it refused.
async fn legacy_front(upstream: std::net::SocketAddr) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let refused = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&refused);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let counted = Arc::clone(&counted);
            tokio::spawn(async move {
                let Some(request) = first_request(&mut client).await else {
                    return;
                };
                if String::from_utf8_lossy(&request).contains(r#""method":"server/discover""#) {
                    counted.fetch_add(1, Ordering::SeqCst);
                    let answer = format!(
                        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{REFUSAL}",
                        REFUSAL.len()
                    );
                    let _ = client.write_all(answer.as_bytes()).await;
                    let _ = client.shutdown().await;
                    return;
                }
                let Ok(mut server) = TcpStream::connect(upstream).await else {
                    return;
                };
                if server.write_all(&request).await.is_ok() {
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    (format!("http://{addr}/mcp"), refused)
}

#[tokio::test]
async fn a_discover_refused_at_the_http_level_falls_back_to_initialize() {
    let http = server()
        .http_server(mcpwire::http::HttpConfig::default().bind("127.0.0.1:0".parse().unwrap()))
        .expect("the server binds");
    let upstream = http.local_addr();
    tokio::spawn(http.run());
    let (url, refused) = legacy_front(upstream).await;

    let violations = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&violations);
    let client = Client::builder("legacy-http-test", "1.0.0")
        .protocol_version(Version::V2026_07_28)
        .request_timeout(Some(Duration::from_secs(10)))
        .on_violation(move |violation| seen.lock().unwrap().push(violation))
        .connect(HttpTransport::new(&url).expect("an http URL"))
        .await
        .expect("the client falls back to initialize");

    assert_eq!(refused.load(Ordering::SeqCst), 1, "one discover was sent");
    assert_eq!(client.protocol_version(), Version::V2025_11_25);
    let result = client
        .call_tool(
            "echo",
            &json!({"text": "after the fallback"}),
            &CallOptions::new(),
        )
        .await
        .expect("the session works");
    assert_eq!(result_text(&result), "after the fallback");

    // The refusal's `null` id is one the server could have read: reported, not fatal.
    let deadline = Instant::now() + Duration::from_secs(5);
    while violations.lock().unwrap().is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let violations = violations.lock().unwrap().clone();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].rule, Rule::ResponseToKnownRequest);
    client.close().await;
}
