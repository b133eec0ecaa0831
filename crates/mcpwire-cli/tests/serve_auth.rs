//! `mcpwire serve --http … --auth-introspection-url URL --auth-client-id ID`: opaque tokens
//! checked at an RFC 7662 introspection endpoint (a loopback responder here), the client's
//! secret from `MCPWIRE_AUTH_CLIENT_SECRET`; and `mcpwire check --auth` against it, whose
//! forged-JWT probes are "not run" for an opaque token.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// An introspection endpoint on loopback: `token=good` with the client's Basic credentials
/// `client:s3cret` is active for `audience`; anything else is inactive. Counts the requests.
fn introspection(audience: String) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!(
        "http://{}/introspect",
        listener.local_addr().expect("an address")
    );
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let credentials = format!("Basic {}", STANDARD.encode("client:s3cret"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let mut reader = BufReader::new(&stream);
            let (mut length, mut authorized) = (0usize, false);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                let (name, value) = line.split_once(':').unwrap_or(("", ""));
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
                if name.eq_ignore_ascii_case("authorization") {
                    authorized = value.trim() == credentials;
                }
                line.clear();
            }
            let mut body = vec![0u8; length.min(4096)];
            let _ = reader.read_exact(&mut body);
            let good = authorized && String::from_utf8_lossy(&body).contains("token=good");
            let answer = if good {
                serde_json::json!({"active": true, "sub": "alice", "aud": audience, "scope": "mcp", "exp": 4_102_444_800u64})
            } else {
                serde_json::json!({"active": false})
            }
            .to_string();
            let _ = write!(
                &stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (url, asked)
}

/// `mcpwire serve --http` on a free loopback port, protected by introspection with `secret`.
struct Served {
    child: Child,
    url: String,
    asked: Arc<AtomicUsize>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(secret: &str) -> Served {
    let free = TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = free.local_addr().expect("an address");
    drop(free);
    let url = format!("http://{addr}/mcp");
    let (introspect, asked) = introspection(url.clone());
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args([
            "serve",
            "--profile",
            "mcp-2025-11-25",
            "--http",
            &addr.to_string(),
        ])
        .args(["--auth-issuer", "https://issuer.mcpwire.test"])
        .args(["--auth-audience", &url, "--auth-scope", "mcp"])
        .args(["--auth-introspection-url", &introspect])
        .args(["--auth-client-id", "client", "--auth-allow-loopback-http"])
        .env("MCPWIRE_AUTH_CLIENT_SECRET", secret)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mcpwire serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    assert!(
        lines
            .by_ref()
            .map_while(Result::ok)
            .any(|l| l.contains("http://")),
        "the server prints its URL"
    );
    std::thread::spawn(move || lines.for_each(drop));
    Served { child, url, asked }
}

fn check(served: &Served, token: &str) -> serde_json::Value {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["check", "--http", &served.url, "--auth", "--bearer", token])
        .args([
            "--cases",
            "0",
            "--no-fixed",
            "--timeout",
            "5",
            "--format",
            "json",
        ])
        .output()
        .expect("mcpwire check runs");
    serde_json::from_slice(&output.stdout).expect("a JSON report")
}

fn status_of(report: &serde_json::Value, probe: &str) -> serde_json::Value {
    report["auth"]["probes"]
        .as_array()
        .expect("probes")
        .iter()
        .find(|p| p["probe"].as_str().is_some_and(|l| l.starts_with(probe)))
        .map(|p| p["status"].clone())
        .unwrap_or_else(|| panic!("{probe}: {report}"))
}

#[test]
fn opaque_tokens_are_checked_at_the_introspection_endpoint() {
    let served = serve("s3cret");
    let report = check(&served, "good");
    assert_eq!(report["passed"], true, "{report}");
    assert_eq!(status_of(&report, "POST with the --bearer token"), 200);
    assert_eq!(status_of(&report, "POST with Bearer garbage"), 401);
    assert_eq!(
        status_of(&report, "POST with the insufficient-scope token"),
        serde_json::Value::Null,
        "not run: no such token"
    );
    assert!(
        report["auth"]["probes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["outcome"] == "not run: the --bearer token is not a JWT"),
        "{report}"
    );
    assert!(served.asked.load(Ordering::SeqCst) >= 2);
}

#[test]
fn a_wrong_client_secret_refuses_even_the_good_token() {
    let served = serve("wrong");
    let report = check(&served, "good");
    let status = status_of(&report, "POST with the --bearer token");
    assert_ne!(status, 200, "{report}");
    assert!(served.asked.load(Ordering::SeqCst) >= 1);
}
