//! `mcpwire serve --http` and its operator flags, seen from outside the process.

use crate::serving;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serving::{Serving, serve};

/// POSTs `body` to `path` with extra headers; returns the status and the body.
fn post(serving: &Serving, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let (status, _, body) = send(serving, "POST", path, headers, body);
    (status, body)
}

/// Sends `method` to `path` with extra headers (and `Content-Type: application/json`);
/// returns the status, the response head and the body.
fn send(
    serving: &Serving,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let authority = serving.url["http://".len()..].split('/').next().unwrap();
    let mut stream = TcpStream::connect(authority).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(b"\r\n").unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("head and body");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_owned(), body.to_owned())
}

/// The value of the header `name` in a response head.
fn header_in(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|line| {
        let (field, value) = line.split_once(':')?;
        field
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().to_owned())
    })
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"subtract","params":[3,1]}"#;

#[test]
fn a_non_loopback_address_is_refused_without_allow_remote() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["serve", "--http", "0.0.0.0:0"])
        .stdin(Stdio::null())
        .output()
        .expect("run mcpwire serve");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--allow-remote"), "{stderr}");
}

#[test]
fn path_origin_and_body_limit_flags_take_effect() {
    let serving = serve(&[
        "--profile",
        "jsonrpc-2.0",
        "--http",
        "127.0.0.1:0",
        "--path",
        "/rpc",
        "--allowed-origin",
        "https://app.example.com",
        "--max-body-bytes",
        "100",
    ]);
    assert!(serving.url.ends_with("/rpc"), "{}", serving.url);
    assert_eq!(
        post(&serving, "/rpc", &[], PING),
        (200, r#"{"jsonrpc":"2.0","id":1,"result":2}"#.to_owned())
    );
    assert_eq!(post(&serving, "/mcp", &[], PING).0, 404);
    let listed = [("Origin", "https://app.example.com")];
    assert_eq!(post(&serving, "/rpc", &listed, PING).0, 200);
    let foreign = [("Origin", "https://evil.example")];
    assert_eq!(post(&serving, "/rpc", &foreign, PING).0, 403);
    let (status, body) = post(&serving, "/rpc", &[], &" ".repeat(101));
    assert_eq!(status, 413);
    assert!(body.contains("at most 100"), "{body}");
}

/// User plus system CPU time of a process, in clock ticks (`/proc/PID/stat` fields 14 and 15).
#[cfg(target_os = "linux")]
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')').expect("comm") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn out_of_file_descriptors_the_accept_loop_backs_off_and_recovers() {
    // 24 descriptors: the runtime and the listener take some, the connections the rest.
    let mut child = Command::new("sh")
        .args([
            "-c",
            "ulimit -n 24 && exec \"$0\" serve --profile jsonrpc-2.0 --http 127.0.0.1:0",
            env!("CARGO_BIN_EXE_mcpwire"),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(at) = line.find("http://") {
                let _ = tx.send(line[at..].trim().to_owned());
            }
        }
    });
    let url = rx.recv_timeout(Duration::from_secs(20)).expect("URL");
    let serving = Serving { child, url };
    let authority = serving.url["http://".len()..]
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    // More connections than descriptors: the rest wait in the backlog, and accept fails.
    let held: Vec<TcpStream> = (0..40)
        .map(|_| TcpStream::connect(&authority).expect("connect"))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let pid = serving.child.id();
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(2));
    let spent = cpu_ticks(pid) - before;
    // A loop that spins on the failing accept burns about 200 ticks in 2 s.
    assert!(
        spent < 50,
        "{spent} ticks of CPU in 2 s while out of descriptors"
    );
    drop(held);
    let mut served = false;
    for _ in 0..50 {
        std::thread::sleep(Duration::from_millis(100));
        if post(&serving, "/mcp", &[], PING).0 == 200 {
            served = true;
            break;
        }
    }
    assert!(served, "serves again once descriptors are free");
}

/// Issue 33, item 4: `--max-connections-per-peer` takes effect: with a share of one, a second
/// connection from this machine makes the first give way at once (its request, whose body has
/// not arrived, is answered 429) and is served.
#[test]
fn the_per_client_connection_share_flag_takes_effect() {
    let serving = serve(&[
        "--profile",
        "jsonrpc-2.0",
        "--http",
        "127.0.0.1:0",
        "--max-connections-per-peer",
        "1",
        "--listen-backlog",
        "16",
    ]);
    let authority = serving.url["http://".len()..].split('/').next().unwrap();
    // The client's one connection is busy (its head is in, its declared body is not).
    let mut first = TcpStream::connect(authority).expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n"
    );
    first.write_all(head.as_bytes()).expect("write");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(post(&serving, "/mcp", &[], PING).0, 200);
    first
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = String::new();
    first.read_to_string(&mut answer).expect("read");
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
}

#[test]
fn a_redis_stream_bound_of_zero_is_refused_with_the_flag_named() {
    for flag in ["--redis-stream-age", "--redis-stream-events"] {
        let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
            .args(["serve", "--http", "127.0.0.1:0", "--redis"])
            .args(["redis://127.0.0.1:1/", flag, "0"])
            .output()
            .expect("run mcpwire serve");
        assert_eq!(output.status.code(), Some(2), "{flag}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(flag) && stderr.contains("'0'"), "{stderr}");
    }
}

#[test]
fn redis_without_a_shared_state_secret_refuses_to_start() {
    let refused = |envs: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcpwire"));
        command
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
                "--redis",
                "redis://127.0.0.1:1/",
            ])
            .env_remove("MCPWIRE_STATE_SECRET")
            .env_remove("MCPWIRE_REDIS_URL");
        for (name, value) in envs {
            command.env(name, value);
        }
        let output = command.output().expect("run mcpwire serve");
        assert_eq!(output.status.code(), Some(1));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let missing = refused(&[]);
    assert!(
        missing.contains("set MCPWIRE_STATE_SECRET or --state-secret-file"),
        "{missing}"
    );
    let short = refused(&[("MCPWIRE_STATE_SECRET", "short")]);
    assert!(short.contains("has 5 bytes; give at least 32"), "{short}");
}

/// Reads from `stream` until the server closes it; `false` when it is still open after
/// `limit`.
fn closes_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    let mut buf = [0u8; 1024];
    while std::time::Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

/// `--fresh-connection-grace-ms` takes effect: at a share of two, a connection silent for a
/// second, past a grace of 50 ms, is the idle one closed to make room (with the default
/// grace of 1 s, the kept-alive connection idle since its answer would be).
#[test]
fn the_fresh_connection_grace_flag_takes_effect() {
    let serving = serve(&[
        "--profile",
        "jsonrpc-2.0",
        "--http",
        "127.0.0.1:0",
        "--max-connections-per-peer",
        "2",
        "--fresh-connection-grace-ms",
        "50",
    ]);
    let authority = serving.url["http://".len()..].split('/').next().unwrap();
    let mut silent = TcpStream::connect(authority).expect("connect");
    std::thread::sleep(Duration::from_secs(1));
    // A kept-alive connection, idle since its answer (later than the silent one connected).
    let mut kept = TcpStream::connect(authority).expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        PING.len()
    );
    kept.write_all(head.as_bytes()).expect("write");
    kept.write_all(PING.as_bytes()).expect("write");
    kept.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    while !answer.ends_with(b"}") {
        let n = kept.read(&mut buf).expect("the kept-alive answer");
        assert_ne!(n, 0, "closed before its answer");
        answer.extend_from_slice(&buf[..n]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 200"));
    assert_eq!(post(&serving, "/mcp", &[], PING).0, 200);
    assert!(
        closes_within(&mut silent, Duration::from_secs(10)),
        "the silent connection, past the grace, is closed as the longest idle"
    );
    kept.set_nonblocking(true).unwrap();
    let still_open = matches!(kept.read(&mut buf), Err(e) if e.kind() == ErrorKind::WouldBlock);
    assert!(still_open, "the kept-alive connection stays open");
}

/// A grace of zero is refused by the flag's parser, one longer than the header timeout at
/// bind; both name the setting.
#[test]
fn a_zero_or_overlong_fresh_connection_grace_is_refused_with_the_setting_named() {
    let run = |ms: &str| {
        Command::new(env!("CARGO_BIN_EXE_mcpwire"))
            .args([
                "serve",
                "--http",
                "127.0.0.1:0",
                "--fresh-connection-grace-ms",
                ms,
            ])
            .output()
            .expect("run mcpwire serve")
    };
    let zero = run("0");
    assert_eq!(zero.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&zero.stderr);
    assert!(
        stderr.contains("--fresh-connection-grace-ms") && stderr.contains("'0'"),
        "{stderr}"
    );
    let overlong = run("10001");
    assert_eq!(overlong.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&overlong.stderr);
    assert!(
        stderr.contains("--fresh-connection-grace-ms") && stderr.contains("header timeout (10s)"),
        "{stderr}"
    );
}

/// Waits for `child` to exit, at most `limit`; kills it if it did not.
fn exits_within(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// SIGTERM (issue 48): new connections are refused at once, the request in flight is still
/// answered, and the process exits 0 within its `--shutdown-grace`.
#[cfg(unix)]
#[test]
fn sigterm_answers_the_request_in_flight_then_exits_0() {
    let mut serving = serve(&[
        "--profile",
        "jsonrpc-2.0",
        "--http",
        "127.0.0.1:0",
        "--shutdown-grace",
        "5",
    ]);
    let authority = serving.url["http://".len()..]
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let body = r#"{"jsonrpc":"2.0","id":7,"method":"subtract","params":[42,23]}"#;
    let mut stream = TcpStream::connect(&authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // The request is in flight: its head and half its body have arrived.
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body.as_bytes()[..20]).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let signalled = Instant::now();
    let kill = Command::new("kill")
        .args(["-TERM", &serving.child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut refused = false;
    while signalled.elapsed() < Duration::from_millis(600) {
        if TcpStream::connect(&authority).is_err() {
            refused = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    stream.write_all(&body.as_bytes()[20..]).unwrap();
    let mut raw = String::new();
    stream
        .read_to_string(&mut raw)
        .expect("the answer, then the close");
    assert!(raw.starts_with("HTTP/1.1 200"), "{raw}");
    assert!(
        raw.ends_with(r#"{"jsonrpc":"2.0","id":7,"result":19}"#),
        "{raw}"
    );
    let status = exits_within(&mut serving.child, Duration::from_secs(5)).expect("exits");
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert!(refused, "a connection was still accepted after SIGTERM");
}

/// `--trusted-proxy` takes an address or a network, nothing else.
#[test]
fn a_trusted_proxy_that_is_not_an_address_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["serve", "--http", "127.0.0.1:0", "--trusted-proxy", "nginx"])
        .stdin(Stdio::null())
        .output()
        .expect("run mcpwire serve");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`nginx` is not an IP address"), "{stderr}");
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;

#[test]
fn the_auth_flags_challenge_and_serve_the_metadata() {
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
    let accept = [("Accept", "application/json, text/event-stream")];
    let (status, head, _) = send(&serving, "POST", "/mcp", &accept, INITIALIZE);
    assert_eq!(status, 401);
    assert_eq!(
        header_in(&head, "www-authenticate").as_deref(),
        Some(
            "Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\""
        )
    );
    let metadata = "/.well-known/oauth-protected-resource/mcp";
    let (status, _, body) = send(&serving, "GET", metadata, &[], "");
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

/// The libraries log through `tracing`, and `mcpwire serve` shows their events on stderr: a
/// Redis that cannot be reached is reported once, as a warning naming the URL, while the
/// endpoint serves on. `MCPWIRE_LOG=error` silences it.
#[test]
fn a_redis_outage_is_logged_on_stderr_through_tracing() {
    let run = |filter: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcpwire"));
        command
            .args(["serve", "--http", "127.0.0.1:0", "--redis"])
            .arg("redis://127.0.0.1:1/")
            .env("MCPWIRE_STATE_SECRET", "0123456789abcdef0123456789abcdef")
            .env_remove("MCPWIRE_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(filter) = filter {
            command.env("MCPWIRE_LOG", filter);
        }
        let mut child = command.spawn().expect("spawn mcpwire serve");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut lines = Vec::new();
        let until = Instant::now() + Duration::from_secs(3);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(line) => lines.push(line),
                Err(_) => break,
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        lines
    };
    let lines = run(None);
    let outage: Vec<&String> = lines
        .iter()
        .filter(|line| line.contains("redis unreachable"))
        .collect();
    assert_eq!(outage.len(), 1, "one warning per outage: {lines:#?}");
    assert!(outage[0].contains("WARN"), "{}", outage[0]);
    assert!(outage[0].contains("redis://127.0.0.1:1/"), "{}", outage[0]);
    assert!(
        lines
            .iter()
            .any(|line| line.contains("listening on http://")),
        "{lines:#?}"
    );
    let quiet = run(Some("error"));
    assert!(
        !quiet.iter().any(|line| line.contains("redis unreachable")),
        "{quiet:#?}"
    );
}

/// A 2026-07-28 `server/discover` with its headers.
const DISCOVER: &str = r#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
const DISCOVER_HEADERS: [(&str, &str); 3] = [
    ("Accept", "application/json, text/event-stream"),
    ("MCP-Protocol-Version", "2026-07-28"),
    ("Mcp-Method", "server/discover"),
];

#[test]
fn by_default_one_endpoint_serves_both_eras_and_stateless_only_the_new_one() {
    let accept = [("Accept", "application/json, text/event-stream")];
    let serving = serve(&["--http", "127.0.0.1:0"]);
    let (status, head, body) = send(&serving, "POST", "/mcp", &accept, INITIALIZE);
    assert_eq!(status, 200, "{body}");
    assert!(header_in(&head, "mcp-session-id").is_some(), "{head}");
    let (status, head, body) = send(&serving, "POST", "/mcp", &DISCOVER_HEADERS, DISCOVER);
    assert_eq!(status, 200, "{body}");
    assert_eq!(header_in(&head, "mcp-session-id"), None, "{head}");
    assert!(body.contains(r#""supportedVersions""#), "{body}");
    drop(serving);

    let serving = serve(&["--http", "127.0.0.1:0", "--stateless"]);
    let (status, head, body) = send(&serving, "POST", "/mcp", &accept, INITIALIZE);
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("-32601"), "{body}");
    assert_eq!(header_in(&head, "mcp-session-id"), None, "{head}");
    let (status, _, body) = send(&serving, "POST", "/mcp", &DISCOVER_HEADERS, DISCOVER);
    assert_eq!(status, 200, "{body}");
}
