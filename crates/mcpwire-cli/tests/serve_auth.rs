//! `mcpwire serve --http … --auth-issuer URL --auth-audience URL --auth-scope S`: the
//! reference server as an OAuth protected resource, seen from outside the process.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `mcpwire serve`, killed when dropped.
struct Serving {
    child: Child,
    authority: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire serve");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let _ = tx.send(line[at..].trim().to_owned());
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the URL on stderr");
    let authority = url["http://".len()..].split('/').next().unwrap().to_owned();
    Serving { child, authority }
}

/// Sends a request; the status, the `WWW-Authenticate` header and the body.
fn send(serving: &Serving, method: &str, path: &str, body: &str) -> (u16, Option<String>, String) {
    let mut stream = TcpStream::connect(&serving.authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        serving.authority,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("head and body");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let challenge = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("www-authenticate")
            .then(|| value.trim().to_owned())
    });
    (status, challenge, body.to_owned())
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

#[test]
fn serve_with_auth_flags_challenges_and_serves_its_metadata() {
    let serving = serve(&[
        "--http",
        "127.0.0.1:0",
        "--auth-issuer",
        "http://127.0.0.1:9/issuer",
        "--auth-audience",
        "http://127.0.0.1/mcp",
        "--auth-scope",
        "mcp:tools",
        "--auth-allow-loopback-http",
    ]);
    let (status, challenge, _) = send(&serving, "POST", "/mcp", INITIALIZE);
    assert_eq!(status, 401);
    assert_eq!(
        challenge.as_deref(),
        Some(
            "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\""
        )
    );
    let (status, _, body) = send(
        &serving,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        "",
    );
    assert_eq!(status, 200, "{body}");
    let document: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(document["resource"], "http://127.0.0.1/mcp");
    assert_eq!(
        document["authorization_servers"],
        serde_json::json!(["http://127.0.0.1:9/issuer"])
    );
    assert_eq!(
        document["scopes_supported"],
        serde_json::json!(["mcp:tools"])
    );
}

#[test]
fn an_http_issuer_is_refused_unless_loopback_http_is_asked_for() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args([
            "serve",
            "--http",
            "127.0.0.1:0",
            "--auth-issuer",
            "http://127.0.0.1:9",
            "--auth-audience",
            "http://127.0.0.1/mcp",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run mcpwire serve");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("loopback"), "{stderr}");
}
