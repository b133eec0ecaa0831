//! The session's GET stream and the session's next request: the client holds that request
//! back until the server answered the GET's head, so that the server always takes the GET
//! first (a GET merely written, on a new connection, can be read by a server after a request
//! sent later on a connection it already had); but only for
//! [`HttpLimits::stream_open_wait`]: a loopback server that answers the GET only after it has
//! answered the next request (as a server that holds its SSE headers back until it has an
//! event does) still gets that request.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire_client::{Client, HttpLimits, HttpTransport, Version};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// One HTTP/1.1 request: method, body.
async fn read_request(
    reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
) -> Option<(String, Vec<u8>)> {
    let mut line = String::new();
    if reader.read_line(&mut line).await.ok()? == 0 {
        return None;
    }
    let method = line.split_whitespace().next()?.to_owned();
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).await.ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.ok()?;
    Some((method, body))
}

/// Serves one connection: JSON answers to POSTs, the GET answered (405) only once a ping
/// has been answered (`pinged`).
async fn serve_connection(stream: TcpStream, pinged: Arc<watch::Sender<bool>>) {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    while let Some((method, body)) = read_request(&mut reader).await {
        let reply = match method.as_str() {
            "GET" => {
                let mut seen = pinged.subscribe();
                let _ = seen.wait_for(|pinged| *pinged).await;
                "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n".to_owned()
            }
            "POST" => {
                let message: Value = serde_json::from_slice(&body).expect("JSON");
                let result = match message["method"].as_str() {
                    Some("initialize") => json!({"protocolVersion": "2025-06-18",
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "held-get", "version": "1"}}),
                    Some(_) if message.get("id").is_none() => {
                        let empty = "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n";
                        write.write_all(empty.as_bytes()).await.expect("written");
                        continue;
                    }
                    _ => json!({}),
                };
                let text =
                    json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: {}\r\n\r\n{text}",
                    text.len()
                );
                if message["method"] == "ping" {
                    write.write_all(reply.as_bytes()).await.expect("written");
                    pinged.send_replace(true);
                    continue;
                }
                reply
            }
            _ => "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".to_owned(),
        };
        if write.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

#[tokio::test]
async fn a_get_whose_answer_is_held_back_does_not_delay_the_first_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    let pinged = Arc::new(watch::channel(false).0);
    let serving = Arc::clone(&pinged);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve_connection(stream, Arc::clone(&serving)));
        }
    });
    // Waiting for the GET's answer would take the whole (long) ack timeout.
    let limits = HttpLimits {
        ack_timeout: Duration::from_secs(120),
        ..HttpLimits::default()
    };
    let transport = HttpTransport::new(&url).expect("a URL").limits(limits);
    // The server answers the GET only after the ping: had the client waited for the GET's
    // answer (after `notifications/initialized`) without a bound, it would wait forever.
    let client = tokio::time::timeout(Duration::from_secs(30), async {
        let client = Client::builder("held-get", "1")
            .protocol_version(Version::V2025_06_18)
            .connect(transport)
            .await
            .expect("connected");
        client.ping().await.expect("pinged");
        client
    })
    .await
    .expect("neither connecting nor the ping is held back by the GET's answer");
    assert!(*pinged.borrow());
    client.close().await;
}

/// Serves one connection: JSON answers to POSTs, each request's method (a POST's JSON-RPC
/// method) noted in `seen` when the server takes it up; a GET only after 300 ms (as a server
/// busy with requests on its established connections takes up a new one late), then 405.
async fn serve_taking_gets_late(stream: TcpStream, seen: Arc<Mutex<Vec<String>>>) {
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    while let Some((method, body)) = read_request(&mut reader).await {
        if method == "GET" {
            tokio::time::sleep(Duration::from_millis(300)).await;
            seen.lock().expect("not poisoned").push("GET".to_owned());
            let refused = "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n";
            if write.write_all(refused.as_bytes()).await.is_err() {
                return;
            }
            continue;
        }
        let message: Value = serde_json::from_slice(&body).expect("JSON");
        let name = message["method"].as_str().unwrap_or("response").to_owned();
        seen.lock().expect("not poisoned").push(name.clone());
        let reply = if message.get("id").is_none() {
            "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n".to_owned()
        } else {
            let result = if name == "initialize" {
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                    "serverInfo": {"name": "late-get", "version": "1"}})
            } else {
                json!({})
            };
            let text = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
            format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nmcp-session-id: s-1\r\ncontent-length: {}\r\n\r\n{text}",
                text.len()
            )
        };
        if write.write_all(reply.as_bytes()).await.is_err() {
            return;
        }
    }
}

#[tokio::test]
async fn the_server_takes_the_get_before_the_next_request() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let serving = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve_taking_gets_late(stream, Arc::clone(&serving)));
        }
    });
    let transport = HttpTransport::new(&url).expect("a URL");
    let client = tokio::time::timeout(Duration::from_secs(30), async {
        let client = Client::builder("late-get", "1")
            .protocol_version(Version::V2025_06_18)
            .connect(transport)
            .await
            .expect("connected");
        client.ping().await.expect("pinged");
        client
    })
    .await
    .expect("connected and pinged");
    client.close().await;
    let seen = seen.lock().expect("not poisoned").clone();
    let position = |name: &str| seen.iter().position(|m| m == name);
    assert!(
        position("GET").is_some() && position("GET") < position("ping"),
        "the ping reached the server before the GET it was sent after: {seen:?}"
    );
}
