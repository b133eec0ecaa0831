//! The stdio transport: a child process server, its stderr, its death mid-call, and its
//! process group killed on close.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpwire_client::{CallOptions, ChildProcess, ClientError, Stderr, TransportError, Version};

use crate::support::builder;

/// A shell server: answers `initialize` (id 1), reads `notifications/initialized`, starts
/// a process in the background (its pid on stderr), then reads one request and exits 3.
const DYING_SERVER: &str = r#"
read -r init
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}'
read -r initialized
sleep 1000 &
echo "grandchild $!" >&2
read -r call
echo "dying" >&2
exit 3
"#;

fn running(pid: u32) -> bool {
    // A zombie is not running; a process that is gone is not either.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

fn shell(script: &str, lines: &Arc<Mutex<Vec<String>>>) -> ChildProcess {
    let lines = Arc::clone(lines);
    ChildProcess::new("sh")
        .arg("-c")
        .arg(script)
        .stderr(Stderr::Lines(Arc::new(move |line| {
            lines.lock().unwrap().push(line)
        })))
}

async fn grandchild(lines: &Mutex<Vec<String>>) -> u32 {
    for _ in 0..500 {
        let found = lines
            .lock()
            .unwrap()
            .iter()
            .find_map(|l| l.strip_prefix("grandchild ").and_then(|p| p.parse().ok()));
        if let Some(pid) = found {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no grandchild pid on stderr");
}

#[tokio::test]
async fn a_child_that_dies_mid_call_fails_it_with_its_exit_status() {
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let client = builder()
        .protocol_version(Version::V2025_06_18)
        .connect(shell(DYING_SERVER, &stderr))
        .await
        .expect("the shell server answers initialize");
    let error = client
        .call_tool("anything", &(), &CallOptions::new().no_timeout())
        .await
        .unwrap_err();
    match error {
        ClientError::Transport(TransportError::Exited(status)) => {
            assert!(status.contains('3'), "{status}");
        }
        other => panic!("{other:?}"),
    }
    let later = client.list_tools(None).await.unwrap_err();
    assert!(matches!(later, ClientError::Transport(_)), "{later:?}");
    assert!(stderr.lock().unwrap().iter().any(|l| l == "dying"));
    // The child's group is killed on close: its background process too.
    let pid = grandchild(&stderr).await;
    client.close().await;
    for _ in 0..1000 {
        if !running(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("process {pid} of the child's group outlived close");
}

#[tokio::test]
async fn dropping_the_client_kills_the_child_group() {
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let script = DYING_SERVER.replace("read -r call", "read -r call; read -r more");
    let client = builder()
        .protocol_version(Version::V2025_06_18)
        .connect(shell(&script, &stderr))
        .await
        .expect("connected");
    let pid = grandchild(&stderr).await;
    assert!(running(pid));
    drop(client);
    for _ in 0..1000 {
        if !running(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("process {pid} of the child's group outlived the client");
}

#[tokio::test]
async fn a_program_that_does_not_exist_is_an_io_error() {
    let error = builder()
        .connect(ChildProcess::new("/nonexistent/mcp-server"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, ClientError::Transport(TransportError::Io(_))),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_server_that_stops_reading_cannot_hold_a_call_past_its_timeout() {
    // Answers the handshake, then never reads again: the pipe fills and writes block.
    let script = r#"
read -r init
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"sh","version":"1"}}}'
read -r initialized
sleep 1000
"#;
    let client = builder()
        .protocol_version(Version::V2025_06_18)
        .connect(ChildProcess::new("sh").arg("-c").arg(script))
        .await
        .expect("connected");
    let big = "x".repeat(1 << 20);
    let options = CallOptions::new().timeout(Duration::from_millis(200));
    let started = std::time::Instant::now();
    let error = client
        .call_tool("t", &serde_json::json!({ "big": big }), &options)
        .await
        .unwrap_err();
    assert!(matches!(error, ClientError::Timeout { .. }), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
}
