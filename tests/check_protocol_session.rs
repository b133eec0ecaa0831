//! `mcpwire check --protocol` (issue 47 item 1), the properties of a session as a whole,
//! against the protocol fixture server (tests/fixtures/servers/protocol_server.py) over stdio
//! and over Streamable HTTP (`--http` mode of the same script):
//!
//! - version negotiation in fresh sessions, over HTTP too (`initialize` without a session);
//! - no request but `ping` before `notifications/initialized` (`request-before-initialized`);
//! - a call cancelled while in flight gets no response (`reply-after-cancel`), and the session
//!   goes on serving (over HTTP the cancel is a POST of its own while the call's POST awaits
//!   its answer);
//! - log messages: none below the level `logging/setLevel` asked for (`log-below-level`), each
//!   valid against the schema (`log-message-schema-invalid`).
//!
//! The correct fixture gets no finding, even under `--strict`; each planted defect is found
//! with its kind at its level, and with no other finding.

use crate::check_support;

use check_support::{HttpServer, Run, assert_clean, case_findings, check, fixture, in_parallel};

/// The transports a run reaches the fixture over.
#[derive(Clone, Copy, Debug)]
enum Over {
    Stdio,
    Http,
}

/// Only the handshake and `--protocol`, against the fixture with `defect` over `over`, with
/// the report in `format`.
fn protocol_as(over: Over, defect: &str, format: &str, extra: &[&str]) -> Run {
    let script = fixture("protocol_server.py");
    let mut args = vec![
        "--no-fixed",
        "--cases",
        "0",
        "--protocol",
        "--timeout",
        "2",
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    match over {
        Over::Stdio => {
            args.extend_from_slice(&["--stdio", "--", "python3", &script, defect]);
            check(&args)
        }
        Over::Http => {
            let server = HttpServer::start("python3", &[&script, "--http", defect]);
            args.extend_from_slice(&["--http", &server.url]);
            check(&args)
        }
    }
}

/// [`protocol_as`] with the JSON report.
fn protocol(over: Over, defect: &str, extra: &[&str]) -> Run {
    protocol_as(over, defect, "json", extra)
}

/// The JUnit report of the correct fixture over `over`: it lists every case by its label.
fn junit(over: Over) -> String {
    protocol_as(over, "correct", "junit", &[]).stdout
}

#[test]
fn a_correct_server_gets_no_finding_over_stdio_and_http() {
    let runs = in_parallel(vec![
        || protocol(Over::Stdio, "correct", &["--strict"]),
        || protocol(Over::Http, "correct", &["--strict"]),
        || {
            protocol(
                Over::Http,
                "correct",
                &["--strict", "--mcp-version", "2025-06-18"],
            )
        },
    ]);
    for (what, run) in ["stdio", "http", "http 2025-06-18"].iter().zip(&runs) {
        assert_clean(run, what);
        assert!(case_findings(run).is_empty(), "{what}: {}", run.stdout);
    }
    // Each property was exercised, over HTTP as over stdio.
    let stdio = junit(Over::Stdio);
    let http = junit(Over::Http);
    for label in [
        "initialize asking for 1999-01-01 (a new session)",
        "initialize asking for 2025-11-25 (a new session)",
        "logging/setLevel (logging declared)",
        "tool work: called with progressToken mcpwire-progress-1",
    ] {
        assert!(stdio.contains(label), "stdio: {label}:\n{stdio}");
        assert!(http.contains(label), "http: {label}:\n{http}");
    }
    // A call cancelled in flight: behind the call on stdin, or POSTed on a connection of
    // its own while the call's POST awaits its answer (Streamable HTTP to 2025-11-25).
    assert!(
        stdio.contains("tool slow: cancelled right after the call"),
        "{stdio}"
    );
    assert!(
        http.contains("tool slow: cancelled right after the call"),
        "{http}"
    );
}

#[test]
fn each_planted_session_defect_is_found_at_its_level() {
    let defects: &[(Over, &str, &str, &str, &str)] = &[
        (
            Over::Http,
            "echo-any-version",
            "initialize asking for 1999-01-01 (a new session)",
            "unsupported-version-echoed",
            "violation",
        ),
        (
            Over::Http,
            "no-echo",
            "initialize asking for 2025-11-25 (a new session)",
            "supported-version-not-echoed",
            "violation",
        ),
        (
            Over::Http,
            "refuse-unknown-version",
            "initialize asking for 1999-01-01 (a new session)",
            "unsupported-version-refused",
            "strict",
        ),
        (
            Over::Stdio,
            "early-request",
            "initialize asking for 1999-01-01 (a new session)",
            "request-before-initialized",
            "strict",
        ),
        (
            Over::Http,
            "early-request",
            "initialize asking for 1999-01-01 (a new session)",
            "request-before-initialized",
            "strict",
        ),
        (
            Over::Stdio,
            "ignores-cancel",
            "tool slow: cancelled right after the call",
            "reply-after-cancel",
            "strict",
        ),
        (
            Over::Http,
            "ignores-cancel",
            "tool slow: cancelled right after the call",
            "reply-after-cancel",
            "strict",
        ),
        (
            Over::Stdio,
            "log-below-level",
            "tool work: called with progressToken mcpwire-progress-1",
            "log-below-level",
            "strict",
        ),
        (
            Over::Http,
            "log-below-level",
            "tool work: called with progressToken mcpwire-progress-1",
            "log-below-level",
            "strict",
        ),
        (
            Over::Stdio,
            "log-invalid",
            "tool work: called with progressToken mcpwire-progress-1",
            "log-message-schema-invalid",
            "violation",
        ),
    ];
    let runs = in_parallel(
        defects
            .iter()
            .map(|&(over, defect, ..)| move || protocol(over, defect, &[]))
            .collect(),
    );
    for (&(over, defect, label, kind, level), run) in defects.iter().zip(runs) {
        let got = case_findings(&run);
        assert!(
            got.iter()
                .any(|(l, k, v)| l.starts_with(label) && k == kind && v == level),
            "{over:?} {defect}: ({label}, {kind}, {level}) not in {got:?}"
        );
        assert!(
            got.iter().all(|(_, k, _)| k == kind),
            "{over:?} {defect}: only {kind}: {got:?}"
        );
        let code = if level == "violation" { 1 } else { 0 };
        assert_eq!(run.code, code, "{over:?} {defect}: {}", run.stdout);
        // The finding quotes the sentence it rests on and names the revision.
        let report = run.json();
        let group = report["failures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["kind"] == kind)
            .unwrap();
        assert_eq!(group["rule_id"], "protocol", "{defect}");
        let message = group["cases"][0]["message"].as_str().unwrap();
        assert!(
            message.contains('"') && message.contains("20"),
            "{defect}: quotes its text and revision: {message}"
        );
    }
}

#[test]
fn a_cancelled_call_answered_anyway_is_judged_as_a_reply_and_the_session_goes_on() {
    let run = protocol(Over::Stdio, "ignores-cancel", &["--strict"]);
    assert_eq!(run.code, 1, "--strict fails on the strict finding");
    let report = run.json();
    // The sentinel behind the cancel was answered: no liveness finding, no restart.
    assert_eq!(report["restarts"], 0, "{}", run.stdout);
    let message = report["failures"][0]["cases"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("SHOULD"), "{message}");
    assert!(message.contains("MAY ignore"), "both readings: {message}");
}

/// A tool call of `--protocol` is awaited for `--tool-timeout`, as under `--tools`: a tool that
/// takes longer than `--timeout` is doing its work, not failing to answer. Seen on
/// server-everything's `trigger-long-running-operation` (10 s) over HTTP, once reported as
/// `no-reply-within-timeout` under `--timeout 2`.
#[test]
fn a_tool_slower_than_the_case_timeout_is_waited_for_over_stdio_and_http() {
    let script = fixture("protocol_server.py");
    let args = [
        "--no-fixed",
        "--cases",
        "0",
        "--protocol",
        "--strict",
        "--timeout",
        "1",
        "--tool-timeout",
        "20",
        "--format",
        "json",
    ];
    let stdio: Box<dyn FnOnce() -> Run + Send> = Box::new(|| {
        let mut stdio = args.to_vec();
        stdio.extend_from_slice(&["--stdio", "--", "python3", &script, "slow-call"]);
        check(&stdio)
    });
    let http: Box<dyn FnOnce() -> Run + Send> = Box::new(|| {
        let server = HttpServer::start("python3", &[&script, "--http", "slow-call"]);
        let mut http = args.to_vec();
        http.extend_from_slice(&["--http", &server.url]);
        check(&http)
    });
    let runs = in_parallel(vec![stdio, http]);
    for (what, run) in ["stdio", "http"].iter().zip(&runs) {
        assert_clean(run, what);
    }
}

/// A call answered before its server read the cancel that follows it is a call that "MAY" be
/// answered ("Processing has already completed"): no finding, whatever an earlier call of the
/// tool took. Seen on server-sequential-thinking, whose instant tool looked slow on a loaded
/// machine and was once reported `reply-after-cancel`.
#[test]
fn a_call_answered_before_its_cancel_was_read_gets_no_finding() {
    let run = protocol(Over::Stdio, "answers-before-cancel", &["--strict"]);
    assert_clean(&run, "answers-before-cancel");
    // The cancellation was attempted: the call took long enough.
    let junit = protocol_as(Over::Stdio, "answers-before-cancel", "junit", &[]).stdout;
    assert!(
        junit.contains("tool slow: cancelled right after the call"),
        "{junit}"
    );
}
