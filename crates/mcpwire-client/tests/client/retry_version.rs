//! A `server/discover` refused with UnsupportedProtocolVersion (-32022) is asked once more
//! with a version the error lists (2026-07-28).

use mcpwire_client::{Client, StreamTransport, Version};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

#[tokio::test]
async fn an_unsupported_version_error_is_retried_with_a_listed_version() {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let (server_read, mut server_write) = tokio::io::split(server_io);
    let server = tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(server_read).lines();
        let mut discovers = 0;
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).expect("JSON");
            if message["method"] != "server/discover" {
                continue;
            }
            discovers += 1;
            let reply = if discovers == 1 {
                json!({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32022,
                    "message": "Unsupported protocol version",
                    "data": {"supported": ["2026-07-28"], "requested": "2026-07-28"}}})
            } else {
                json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                    "resultType": "complete", "ttlMs": 0, "cacheScope": "public",
                "supportedVersions": ["2026-07-28"],
                    "capabilities": {}}})
            };
            let mut bytes = reply.to_string().into_bytes();
            bytes.push(b'\n');
            server_write.write_all(&bytes).await.expect("written");
        }
        discovers
    });
    let (read, write) = tokio::io::split(client_io);
    let client = Client::builder("retry", "1.0.0")
        .protocol_version(Version::V2026_07_28)
        .request_timeout(Some(std::time::Duration::from_secs(5)))
        .connect(StreamTransport::new(read, write))
        .await
        .expect("the second discover succeeds");
    assert_eq!(client.protocol_version(), Version::V2026_07_28);
    client.close().await;
    assert_eq!(server.await.expect("the script ends"), 2, "asked twice");
}
