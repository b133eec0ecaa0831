//! `mcpwire check` against the reference server (`mcpwire serve`), over stdio and over
//! Streamable HTTP, under every profile: zero violations and exit 0.

use crate::check_support;

use check_support::{HttpServer, assert_clean, both, check, in_parallel, reference_bin};
use mcpwire::Profile;

/// Generated cases per run (plus the ~50 fixed cases); the whole file runs in a few seconds.
const CASES: &str = "40";

/// The methods the reference server implements under `profile`, as `--method` arguments: the
/// checker's default (`ping` where the MCP version has it) except for plain JSON-RPC 2.0.
fn methods(profile: &str) -> Vec<&'static str> {
    if profile == "jsonrpc-2.0" {
        vec![
            "--method", "ping", "--method", "subtract", "--method", "sum", "--method", "get_data",
        ]
    } else {
        Vec::new()
    }
}

#[test]
fn reference_server_over_stdio_passes_under_every_profile() {
    // Every profile's run side by side; a 1 s reply timeout (the server answers in order
    // within milliseconds, and an input a correct server leaves unanswered that a lenient one
    // answers holds its case for the timeout).
    let runs = in_parallel(
        Profile::names()
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
    let mut args = vec![
        "--stdio",
        "--profile",
        profile,
        "--cases",
        CASES,
        "--timeout",
        "1",
        "--format",
        "json",
    ];
    args.extend(methods(profile));
    args.extend(["--", reference_bin(), "--profile", profile]);
    check(&args)
}

#[test]
fn reference_server_over_http_passes_under_every_profile() {
    let runs = in_parallel(
        Profile::names()
            .into_iter()
            .map(|profile| move || (profile, http_run(profile)))
            .collect(),
    );
    for (profile, run) in runs {
        assert_clean(&run, &format!("http {profile}"));
        let rules = run.json()["rules"].to_string();
        assert!(
            rules.contains("HTTP transport"),
            "HTTP statuses are checked: {rules}"
        );
    }
}

fn http_run(profile: &str) -> check_support::Run {
    let server = HttpServer::start(
        reference_bin(),
        &["--profile", profile, "--http", "127.0.0.1:0"],
    );
    let mut args = vec![
        "--http",
        &server.url,
        "--profile",
        profile,
        "--cases",
        CASES,
        "--timeout",
        "10",
    ];
    args.extend(["--format", "json"]);
    args.extend(methods(profile));
    check(&args)
}

#[test]
fn negotiation_selects_the_profile_the_server_chooses() {
    // The checker asks for the default version; a server started under an older version
    // negotiates the requested one when it supports it.
    let (run, older) = both(
        || {
            check(&[
                "--stdio",
                "--cases",
                "5",
                "--timeout",
                "1",
                "--format",
                "json",
                "--",
                reference_bin(),
                "--profile",
                "mcp-2024-11-05",
            ])
        },
        || {
            check(&[
                "--stdio",
                "--mcp-version",
                "2025-03-26",
                "--cases",
                "5",
                "--timeout",
                "1",
                "--format",
                "json",
                "--",
                reference_bin(),
            ])
        },
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["profile"], "mcp-2025-11-25");
    let run = older;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["profile"], "mcp-2025-03-26");
}
