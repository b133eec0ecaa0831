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

#[test]
fn input_is_bounded_by_max_bytes_per_document_or_line() {
    let ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"; // 40 bytes
    assert_eq!(ping.len(), 40);
    // At the limit: decoded; one byte over: exit 2 naming the line and the flag.
    let at_limit = decode(&["--max-bytes", "40"], &format!("{ping}\n{ping}\r\n"));
    assert_eq!(at_limit.status.code(), Some(0), "{}", stdout(&at_limit));
    let long = format!("{ping}\n {ping}\n{ping}\n");
    let over = decode(&["--max-bytes", "40"], &long);
    assert_eq!(over.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&over.stderr);
    assert!(
        stderr.contains(
            "line 2 of standard input is longer than 40 bytes (raise the limit with --max-bytes)"
        ),
        "{stderr}"
    );
    // The lines before the long one were already reported.
    assert!(stdout(&over).starts_with("line 1:\ntype: JSONRPCMessage"));
    // A pretty-printed document counts as a whole.
    let pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"ping\"\n}\n";
    let fits = decode(&["--max-bytes", &pretty.len().to_string()], pretty);
    assert_eq!(fits.status.code(), Some(0));
    let too_big = decode(&["--max-bytes", "30"], pretty);
    assert_eq!(too_big.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&too_big.stderr)
            .contains("standard input is larger than 30 bytes (raise the limit with --max-bytes)")
    );
    // Files are bounded the same way.
    let path = std::env::temp_dir().join(format!("mcpwire-decode-{}.jsonl", std::process::id()));
    std::fs::write(&path, &long).expect("write the capture");
    let file = decode(
        &["--max-bytes", "40", path.to_str().expect("UTF-8 path")],
        "",
    );
    std::fs::remove_file(&path).ok();
    assert_eq!(file.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&file.stderr).contains("line 2 of "));
}

#[test]
fn json_lines_are_reported_while_the_input_is_still_open() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["decode", "--mcp-version", "2025-03-26"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn mcpwire decode");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let ping = |id: u32| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
    stdin
        .write_all(format!("{}{}", ping(1), ping(2)).as_bytes())
        .expect("write two lines");
    stdin.flush().expect("flush");
    // Read the reports on another thread, so a decoder that waits for the end of input
    // fails the test instead of hanging it.
    let (sender, receiver) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        while out.read_line(&mut line).is_ok_and(|n| n > 0) {
            if sender.send(std::mem::take(&mut line)).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    while !seen.contains("line 2:\ntype: JSONRPCMessage") {
        let line = receiver
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the second report arrives while standard input is still open");
        seen.push_str(&line);
    }
    assert!(seen.starts_with("line 1:\ntype: JSONRPCMessage > JSONRPCRequest"));
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    reader.join().expect("reader");
}

/// A 2025-11-25 `sampling/createMessage` request whose integers are spelled as no `f64`
/// keeps them: the id `1e3`, `_meta.progressToken` `-0` and `maxTokens` 2^64, all typed
/// positions (`RequestId`, `ProgressToken`, `integer`).
const EXACT_INTEGERS: &str = r#"{"jsonrpc":"2.0","id":1e3,"method":"sampling/createMessage","params":{"_meta":{"progressToken":-0},"messages":[],"maxTokens":18446744073709551616}}"#;

/// The JSON values of a report, in order: every `{` at the start of a line to the next
/// report header (`line N:`, `type:`), or the end.
fn printed_values(report: &str) -> Vec<serde_json::Value> {
    let mut values = Vec::new();
    let mut current: Option<String> = None;
    for line in report.lines() {
        if line == "{" {
            current = Some(String::new());
        }
        if let Some(text) = current.as_mut() {
            text.push_str(line);
            text.push('\n');
            if line == "}" {
                values.push(serde_json::from_str(text).expect("the printed value is JSON"));
                current = None;
            }
        }
    }
    values
}

/// The report of a run that decodes every value (exit 0), checked to start with `head`.
fn decoded_report(args: &[&str], input: &str, head: &str) -> String {
    let output = decode(args, input);
    let report = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{report}");
    assert!(report.starts_with(head), "not {head:?} first:\n{report}");
    report
}

/// Asserts the report prints the integers of [`EXACT_INTEGERS`] as they were sent.
fn assert_spelled_as_sent(report: &str) {
    for spelling in [
        "\"id\": 1e3,\n",
        "\"maxTokens\": 18446744073709551616,\n",
        "\"progressToken\": -0\n",
    ] {
        assert!(report.contains(spelling), "no {spelling:?} in:\n{report}");
    }
    assert!(
        !report.contains("1000.0") && !report.contains("e+19"),
        "{report}"
    );
}

#[test]
fn a_document_prints_its_integers_as_sent() {
    // Pretty-printed over several lines: decoded as one document.
    let document = EXACT_INTEGERS.replace(",\"", ",\n  \"");
    assert!(document.lines().count() > 3);
    let report = decoded_report(
        &["--mcp-version", "2025-11-25"],
        &document,
        "type: JSONRPCMessage > JSONRPCRequest > ServerRequest > CreateMessageRequest\n{\n",
    );
    assert_spelled_as_sent(&report);
    assert_eq!(printed_values(&report).len(), 1, "{report}");
}

#[test]
fn json_lines_print_their_integers_as_sent() {
    let cancel = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":18446744073709551617}}"#;
    let report = decoded_report(
        &["--mcp-version", "2025-11-25"],
        &format!("{EXACT_INTEGERS}\n{cancel}\n"),
        "line 1:\ntype: JSONRPCMessage > JSONRPCRequest > ServerRequest > CreateMessageRequest\n",
    );
    let second = report.find("line 2:\n").expect("a second report");
    assert_spelled_as_sent(&report[..second]);
    assert!(
        report[second..].contains("\"requestId\": 18446744073709551617\n"),
        "{report}"
    );
    assert_eq!(printed_values(&report).len(), 2, "{report}");
}

#[test]
fn as_definition_prints_its_integers_as_sent() {
    let report = decoded_report(
        &[
            "--mcp-version",
            "2025-11-25",
            "--as",
            "CreateMessageRequest",
        ],
        EXACT_INTEGERS,
        "type: CreateMessageRequest\n{\n",
    );
    assert_spelled_as_sent(&report);
    assert_eq!(printed_values(&report).len(), 1, "{report}");
}

#[test]
fn a_2026_server_notification_is_not_refused_as_a_client_notification() {
    // 2026-07-28's `ClientNotification` is one definition (`notifications/cancelled`), not a
    // union: a progress notification is a `ServerNotification`.
    let report = decoded_report(
        &["--mcp-version", "2026-07-28"],
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":-0,"progress":1}}"#,
        "type: JSONRPCMessage > JSONRPCNotification > ServerNotification > ProgressNotification\n",
    );
    assert!(report.contains("\"progressToken\": -0\n"), "{report}");
    // A cancellation still decodes as the client's notification, and still fails where it should.
    let cancelled = decode(
        &["--mcp-version", "2026-07-28"],
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#,
    );
    assert_eq!(cancelled.status.code(), Some(1), "{}", stdout(&cancelled));
    assert!(
        stdout(&cancelled).contains("error: does not decode as ClientNotification (MCP 2026-07-28)\n  at: /params/requestId\n"),
        "{}",
        stdout(&cancelled)
    );
}
