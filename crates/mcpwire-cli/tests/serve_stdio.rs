//! `mcpwire serve` driven over a pipe: the bytes a client would see.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `mcpwire serve` with `args`, writes `input` to its stdin, closes it, and returns
/// (exit success, stdout lines).
fn serve(args: &[&str], input: &[u8]) -> (bool, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire serve");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    (
        output.status.success(),
        stdout.lines().map(str::to_owned).collect(),
    )
}

#[test]
fn jsonrpc_spec_session_over_a_pipe() {
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":[42,23],\"id\":1}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"subtract\",\"params\":{\"subtrahend\":23,\"minuend\":42},\"id\":3}\r\n",
        "\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"update\",\"params\":[1,2,3,4,5]}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"foobar\",\"id\":\"1\"}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"foobar,\"params\":\"bar\",\"baz]\n",
        "[]\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"sum\",\"params\":[1,2,4],\"id\":9007199254740993}\n",
        "{\"jsonrpc\":\"2.0\",\"result\":19,\"id\":1}\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"get_data\",\"id\":1e3}\n",
    );
    let (ok, lines) = serve(&["--profile", "jsonrpc-2.0"], input.as_bytes());
    assert!(ok, "serve exits 0 at end of input");
    assert_eq!(
        lines,
        [
            r#"{"jsonrpc":"2.0","id":1,"result":19}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":19}"#,
            r#"{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#,
            r#"{"jsonrpc":"2.0","id":9007199254740993,"result":7}"#,
            r#"{"jsonrpc":"2.0","id":1e3,"result":["hello",5]}"#,
        ]
    );
}

#[test]
fn unknown_profile_is_a_usage_error_naming_the_known_ones() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["serve", "--profile", "mcp-1999-01-01"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown profile `mcp-1999-01-01`") && stderr.contains("mcp-2025-11-25"),
        "stderr: {stderr}"
    );
}
