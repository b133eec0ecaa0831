//! `mcpwire check` run against `mcpwire serve`, both as the shipped binary.

use std::process::{Command, Stdio};

/// Checks `mcpwire serve <serve_args>` with `mcpwire check <check_args>`.
fn check(check_args: &[&str], serve_args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let exe = env!("CARGO_BIN_EXE_mcpwire");
    let output = Command::new(exe)
        .args(["check", "--cases", "25", "--seed", "3", "--format", "json"])
        .args(check_args)
        .args(["--stdio", "--", exe, "serve"])
        .args(serve_args)
        .stdin(Stdio::null())
        .output()
        .expect("run mcpwire check");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "report is JSON ({e}); stdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code(), report)
}

#[test]
fn the_reference_server_passes_its_own_check_under_the_default_handshake() {
    let (code, report) = check(&[], &[]);
    assert_eq!(code, Some(0), "report: {report:#}");
}

#[test]
fn the_reference_server_passes_its_own_check_as_plain_json_rpc() {
    // Plain JSON-RPC has no method table: declare what the server implements.
    let (code, report) = check(
        &["--profile", "jsonrpc-2.0", "--method", "ping"],
        &["--profile", "jsonrpc-2.0"],
    );
    assert_eq!(code, Some(0), "report: {report:#}");
}

#[test]
fn a_profile_mismatch_is_reported_as_violations() {
    // The server speaks MCP 2026-07-28 (MCP ids only), the checker expects plain JSON-RPC:
    // ids like `1.5` or `null` are answered without an id where JSON-RPC wants them echoed.
    // (Under plain JSON-RPC the checker needs a method the server answers as its sentinel;
    // the server answers `ping` with -32601 under 2026-07-28, which is an answer.)
    let (code, report) = check(&["--profile", "jsonrpc-2.0", "--method", "ping"], &[]);
    assert_eq!(code, Some(1), "report: {report:#}");
    assert!(
        !report["failures"].as_array().expect("failures").is_empty(),
        "{report:#}"
    );
}
