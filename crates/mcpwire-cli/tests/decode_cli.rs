//! `mcpwire decode` as a user runs it: stdin or a file in, a report and an exit status out.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn decode(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .arg("decode")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire decode");
    // A process that refuses its arguments exits without reading: a broken pipe is fine.
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

#[test]
fn a_request_is_named_down_to_its_method_definition() {
    // typify's defect: without the method const, `tools/list` decodes as `PingRequest`.
    let output = decode(
        &["--mcp-version", "2025-06-18"],
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"c"}}"#,
    );
    assert_eq!(output.status.code(), Some(0));
    let report = stdout(&output);
    assert!(
        report.starts_with(
            "type: JSONRPCMessage > JSONRPCRequest > ClientRequest > ListToolsRequest\n"
        ),
        "{report}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&report[report.find('{').unwrap()..]).expect("re-serialized JSON");
    assert_eq!(
        json,
        serde_json::json!({"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"c"}})
    );
}

#[test]
fn a_failure_names_the_definition_and_the_json_pointer_and_exits_1() {
    let output = decode(
        &["--mcp-version", "2025-11-25"],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#,
    );
    assert_eq!(output.status.code(), Some(1));
    let report = stdout(&output);
    assert!(
        report.contains("error: does not decode as ClientRequest (MCP 2025-11-25)")
            && report.contains("  at: /params/name\n")
            && report.contains("missing field `name`"),
        "{report}"
    );
}

#[test]
fn as_definition_decodes_a_bare_value() {
    let output = decode(
        &["--mcp-version", "2026-07-28", "--as", "CallToolResult"],
        r#"{"resultType":"complete","content":[{"type":"text","text":"hi"}],"isError":false}"#,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).starts_with("type: CallToolResult\n"));

    let wrong = decode(
        &["--mcp-version", "2026-07-28", "--as", "CallToolResult"],
        r#"{"resultType":"complete","content":[{"type":"image","data":"AA=="}]}"#,
    );
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        stdout(&wrong).contains("  at: /content/0/mimeType\n"),
        "{}",
        stdout(&wrong)
    );
}

#[test]
fn json_lines_are_decoded_one_by_one() {
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
        "\n",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"vendor/thing\",\"params\":{}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":5}\n",
    );
    let output = decode(&["--mcp-version", "2025-03-26"], input);
    assert_eq!(output.status.code(), Some(1), "one line does not decode");
    let report = stdout(&output);
    for expected in [
        "line 1:\ntype: JSONRPCMessage > JSONRPCRequest > ClientRequest > PingRequest\n",
        "line 3:\ntype: JSONRPCMessage > JSONRPCRequest\nnote: method `vendor/thing` is not defined by MCP 2025-03-26",
        "line 4:\ntype: JSONRPCMessage > JSONRPCResponse\n",
        "line 5:\nerror: does not decode as JSONRPCMessage (MCP 2025-03-26)\n  at: /params\n",
    ] {
        assert!(
            report.contains(expected),
            "missing {expected:?} in:\n{report}"
        );
    }
}

#[test]
fn usage_errors_exit_2_and_say_what_was_needed() {
    let unknown = decode(&["--as", "CallToolResul"], "{}");
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(
        stderr.contains("has no definition `CallToolResul`") && stderr.contains("CallToolResult"),
        "{stderr}"
    );

    let missing = decode(&["/nonexistent/capture.jsonl"], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cannot read /nonexistent/capture.jsonl"),
    );

    let empty = decode(&[], "  \n");
    assert_eq!(empty.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no JSON value"));

    let version = decode(&["--mcp-version", "2020-01-01"], "{}");
    assert_eq!(version.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&version.stderr).contains("known versions: 2024-11-05"));
}

#[test]
fn list_prints_every_definition_of_the_version() {
    let output = decode(&["--mcp-version", "2024-11-05", "--list"], "");
    assert_eq!(output.status.code(), Some(0));
    let names: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(
        names,
        mcpwire_types::mcp::v2024_11_05::DEFINITIONS
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    );
    assert!(names.iter().any(|n| n == "JSONRPCMessage"));
}
