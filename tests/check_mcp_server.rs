//! `mcpwire check` against the `mcpwire-server` example (`crates/mcpwire-server/examples/
//! mcp_server.rs`, built here as the `mcp-server-example` binary) over stdio, for every MCP
//! version it speaks, over stdio and Streamable HTTP: zero violations, zero strict findings
//! and exit 0.

use crate::check_support;

use check_support::{HttpServer, assert_clean, check, in_parallel};
use mcpwire::Profile;

/// Generated cases per run (plus the ~50 fixed cases); the whole file runs in a few seconds.
const CASES: &str = "60";

fn example_bin() -> &'static str {
    env!("CARGO_BIN_EXE_mcp-server-example")
}

#[test]
fn the_example_server_passes_over_stdio_under_every_mcp_version() {
    let versions: Vec<&str> = Profile::names()
        .into_iter()
        .filter(|name| name.starts_with("mcp-"))
        .collect();
    assert_eq!(versions.len(), 5, "{versions:?}");
    // Side by side, with a 1 s reply timeout: the example answers in order within
    // milliseconds, and an input it rightly leaves unanswered holds its case for the timeout.
    let runs = in_parallel(
        versions
            .into_iter()
            .map(|profile| move || (profile, stdio_run(profile)))
            .collect(),
    );
    for (profile, run) in runs {
        assert_clean(&run, &format!("stdio {profile}"));
        assert_eq!(run.json()["profile"], profile);
    }
}

fn stdio_run(profile: &str) -> check_support::Run {
    let args = [
        "--stdio",
        "--profile",
        profile,
        "--cases",
        CASES,
        "--timeout",
        "1",
        "--format",
        "json",
        "--",
        example_bin(),
    ];
    check(&args)
}

/// Over Streamable HTTP: sessions for the versions with `initialize`, a fresh session per
/// POST (`--stateless`) for 2026-07-28.
#[test]
fn the_example_server_passes_over_http_under_every_mcp_version() {
    let runs = in_parallel(
        Profile::names()
            .into_iter()
            .filter(|name| name.starts_with("mcp-"))
            .map(|profile| move || (profile, http_run(profile)))
            .collect(),
    );
    for (profile, run) in runs {
        assert_clean(&run, &format!("http {profile}"));
        assert_eq!(run.json()["profile"], profile);
    }
}

/// `--all` over Streamable HTTP at 2025-11-25: the example's slow `countdown` is called
/// and cancelled in flight, and the call's POST must still be answered as a request's is (an
/// event stream that ends without the response, not 202). The tools phase gets 12 calls, four
/// a tool: each valid `countdown` call runs its `n` steps of 100 ms, so the default budget of
/// 200 calls spent about a minute in that phase alone.
#[test]
fn the_example_server_keeps_the_protocol_over_http_a_cancelled_call_included() {
    let server = HttpServer::start(example_bin(), &["--http", "127.0.0.1:0"]);
    let run = check(&[
        "--http",
        server.url.as_str(),
        "--profile",
        "mcp-2025-11-25",
        "--all",
        "--strict",
        "--cases",
        "0",
        "--tool-calls",
        "12",
        "--timeout",
        "10",
        "--format",
        "json",
    ]);
    assert_clean(&run, "http mcp-2025-11-25 --all");
}

fn http_run(profile: &str) -> check_support::Run {
    let mut server_args = vec!["--http", "127.0.0.1:0"];
    if profile == "mcp-2026-07-28" {
        server_args.push("--stateless");
    }
    let server = HttpServer::start(example_bin(), &server_args);
    let args = [
        "--http",
        server.url.as_str(),
        "--profile",
        profile,
        "--cases",
        CASES,
        "--timeout",
        "10",
        "--format",
        "json",
    ];
    check(&args)
}

#[test]
fn the_example_refuses_a_malformed_http_address() {
    let output = std::process::Command::new(example_bin())
        .args(["--http", "localhost"])
        .output()
        .expect("the example starts");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--http takes IP:PORT"), "stderr: {stderr}");
}
