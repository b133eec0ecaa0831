//! The official SDK clients against the `mcp_server` example over stdio: they initialize,
//! list the tools and call every one (progress, elicitation, an argument error).
//!
//! Opt-in, because it needs the SDKs installed:
//! - `MCPWIRE_INTEROP_PYTHON=/path/to/python` with the Python SDK `mcp` 2.x installed
//!   (`python3 -m venv /tmp/v && /tmp/v/bin/pip install mcp`);
//! - `MCPWIRE_INTEROP_NODE_MODULES=/path/to/node_modules` holding `@modelcontextprotocol/sdk`
//!   1.x (`npm install --prefix /tmp/n @modelcontextprotocol/sdk`).
//!
//! Without them each test says it was skipped and passes.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

/// The example binary, built by `cargo test` next to this test's directory.
fn example() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let debug = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    let example = debug.join("examples").join("mcp_server");
    assert!(
        example.exists(),
        "build the example first: {}",
        example.display()
    );
    example
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk_clients")
        .join(name)
}

/// Runs a client script and returns the JSON it printed.
fn run(command: &mut Command) -> Value {
    let output = command.output().expect("the client starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "client failed ({}):\nstdout:\n{stdout}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn opt_in(var: &str) -> Option<String> {
    let value = std::env::var(var).ok().filter(|v| !v.is_empty());
    if value.is_none() {
        eprintln!("skipped: set {var} to run this interop test");
    }
    value
}

#[test]
fn the_python_sdk_client_calls_every_tool_by_handshake_and_by_discovery() {
    let Some(python) = opt_in("MCPWIRE_INTEROP_PYTHON") else {
        return;
    };
    let handshake = run(Command::new(&python)
        .arg(script("python_client.py"))
        .arg(example())
        .arg("handshake"));
    assert_eq!(
        handshake,
        json!({
            "version": "2025-11-25",
            "tools": ["add", "countdown", "greet"],
            "add": { "sum": 5 },
            "add_wrong_is_error": true,
            "countdown": "liftoff",
            "progress": [[1.0, 3.0], [2.0, 3.0], [3.0, 3.0]],
            "greet": "Hello, Py!",
            "greet_retries": 0,
        })
    );
    // 2026-07-28: stateless; the elicitation comes as an input-required result, which the
    // client answers by retrying the call once.
    let discovery = run(Command::new(&python)
        .arg(script("python_client.py"))
        .arg(example())
        .arg("discover"));
    assert_eq!(discovery["version"], "2026-07-28");
    assert_eq!(discovery["add"], json!({ "sum": 5 }));
    assert_eq!(discovery["progress"], handshake["progress"]);
    assert_eq!(discovery["greet"], "Hello, Py!");
    assert_eq!(discovery["greet_retries"], 1);
}

#[test]
fn the_typescript_sdk_client_calls_every_tool() {
    let Some(node_modules) = opt_in("MCPWIRE_INTEROP_NODE_MODULES") else {
        return;
    };
    let seen = run(Command::new("node")
        .arg(script("ts_client.mjs"))
        .arg(node_modules)
        .arg(example()));
    assert_eq!(seen["server"], "mcpwire-example");
    assert_eq!(seen["tools"], json!(["add", "countdown", "greet"]));
    assert_eq!(seen["add"], json!({ "sum": 5 }));
    assert_eq!(seen["add_wrong_is_error"], true);
    assert_eq!(seen["countdown"], "liftoff");
    assert_eq!(seen["greet"], "Hello, Ts!");
    // The TS SDK drops a progress notification that arrives in the same read as the
    // response (it settles the response before it dispatches the notification), so the
    // last step may be missing here although it is on the wire before the reply.
    let progress = seen["progress"].as_array().unwrap();
    assert!(progress.len() >= 2, "{progress:?}");
    for (step, seen) in progress.iter().enumerate() {
        assert_eq!(seen, &json!([step + 1, 3]));
    }
}
