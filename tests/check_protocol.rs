//! `mcpwire check --protocol` (issue 47 item 1) against the protocol fixture server
//! (tests/fixtures/servers/protocol_server.py), which declares every server feature: the
//! correct server gets no finding at any version, even under `--strict`, and each planted
//! defect is found with its kind at the level its text gives (a capital MUST a violation, a
//! schema description strict).

use crate::check_support;

use check_support::{Run, assert_clean, case_findings as found, check, fixture, in_parallel};

/// Only the handshake and the protocol properties, against the fixture with `defect`.
fn protocol(defect: &str, extra: &[&str]) -> Run {
    let script = fixture("protocol_server.py");
    let mut args = vec![
        "--stdio",
        "--no-fixed",
        "--cases",
        "0",
        "--protocol",
        "--timeout",
        "2",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "python3", &script, defect]);
    check(&args)
}

/// The JUnit report (one test case per case) of a run of the correct fixture with `extra`.
fn junit_cases(extra: &[&str]) -> String {
    let script = fixture("protocol_server.py");
    let mut args = vec!["--stdio", "--no-fixed", "--cases", "0", "--format", "junit"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "python3", &script]);
    check(&args).stdout
}

#[test]
fn a_server_keeping_every_protocol_property_gets_no_finding() {
    let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    let runs = in_parallel(
        versions
            .iter()
            .map(|version| move || protocol("correct", &["--strict", "--mcp-version", version]))
            .collect(),
    );
    for (version, run) in versions.iter().zip(runs) {
        assert_clean(&run, version);
        let labels: Vec<String> = run.json()["case_findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["label"].as_str().unwrap().to_owned())
            .collect();
        assert!(labels.is_empty(), "{version}: {labels:?}");
    }
    // Every property was exercised: its case is in the report (JUnit lists every case).
    let junit = junit_cases(&["--protocol"]);
    for label in [
        "initialize asking for 1999-01-01 (a new session)",
        "initialize asking for 2025-11-25 (a new session)",
        "notifications/cancelled of a request never sent",
        "ping: an empty result",
        "logging/setLevel (logging declared)",
        "resources/subscribe note:///1",
        "resources/unsubscribe note:///1",
        "resources/read note:///1 (listed)",
        "resources/read mcpwire-check://no-such-resource (never listed)",
        "completion/complete prompt greet argument name",
        "completion/complete template note:///{id} argument id",
        "tool work: called with progressToken mcpwire-progress-1",
    ] {
        assert!(junit.contains(label), "{label}:\n{junit}");
    }
}

#[test]
fn each_planted_protocol_defect_is_found_at_the_level_its_text_gives() {
    let defects: &[(&str, &str, &str, &str)] = &[
        (
            "ping-not-empty",
            "ping: an empty result",
            "ping-result-not-empty",
            "violation",
        ),
        (
            "setlevel-refused",
            "logging/setLevel (logging declared)",
            "logging-set-level-refused",
            "strict",
        ),
        (
            "subscribe-refused",
            "resources/subscribe note:///1 (resources.subscribe declared)",
            "resource-subscribe-refused",
            "strict",
        ),
        (
            "completion-150",
            "completion/complete prompt greet argument name",
            "completion-too-many-values",
            "strict",
        ),
        (
            "completion-total",
            "completion/complete template note:///{id} argument id",
            "completion-total-inconsistent",
            "strict",
        ),
        (
            "progress-backwards",
            "tool work: called with progressToken mcpwire-progress-1",
            "progress-not-increasing",
            "violation",
        ),
        (
            "progress-wrong-token",
            "tool work: called with progressToken mcpwire-progress-1",
            "progress-token-unknown",
            "violation",
        ),
        (
            "progress-after-response",
            "tool work: called with progressToken mcpwire-progress-1",
            "progress-after-response",
            "violation",
        ),
        (
            "progress-over-total",
            "tool work: called with progressToken mcpwire-progress-1",
            "progress-exceeds-total",
            "strict",
        ),
        (
            "echo-any-version",
            "initialize asking for 1999-01-01 (a new session)",
            "unsupported-version-echoed",
            "violation",
        ),
        (
            "refuse-unknown-version",
            "initialize asking for 1999-01-01 (a new session)",
            "unsupported-version-refused",
            "strict",
        ),
        (
            "no-echo",
            "initialize asking for 2025-11-25 (a new session)",
            "supported-version-not-echoed",
            "violation",
        ),
        (
            "unreadable-resource",
            "resources/read note:///1 (listed)",
            "listed-resource-not-readable",
            "strict",
        ),
        (
            "unknown-uri-read",
            "resources/read mcpwire-check://no-such-resource (never listed)",
            "unknown-resource-code",
            "strict",
        ),
        (
            "answers-cancel",
            "notifications/cancelled of a request never sent",
            "reply-to-notification",
            "violation",
        ),
        (
            "no-structured",
            "tool work: called with progressToken mcpwire-progress-1",
            "tool-structured-content-invalid",
            "violation",
        ),
    ];
    let runs = in_parallel(
        defects
            .iter()
            .map(|&(defect, ..)| move || protocol(defect, &[]))
            .collect(),
    );
    for (&(defect, label, kind, level), run) in defects.iter().zip(runs) {
        let want = (label.to_owned(), kind.to_owned(), level.to_owned());
        let got = found(&run);
        assert!(got.contains(&want), "{defect}: {want:?} not in {got:?}");
        assert!(
            got.iter().all(|(_, k, _)| k == kind),
            "{defect}: only {kind}: {got:?}"
        );
        // A violation fails the run; a strict finding only under --strict.
        let code = if level == "violation" { 1 } else { 0 };
        assert_eq!(run.code, code, "{defect}: {}", run.stdout);
        // The finding names the text it rests on.
        let report = run.json();
        let group = report["failures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["kind"] == kind)
            .unwrap();
        let rule = match kind {
            "tool-structured-content-invalid" => "tools",
            // The envelope rules judge a reply to the cancellation like any notification's.
            "reply-to-notification" => "rule-7",
            _ => "protocol",
        };
        assert_eq!(group["rule_id"], rule, "{defect}");
        let message = group["cases"][0]["message"].as_str().unwrap();
        assert!(
            rule == "rule-7" || message.contains('"'),
            "{defect}: quotes its text: {message}"
        );
    }
}

#[test]
fn all_is_capabilities_tools_and_protocol() {
    let run = protocol("correct", &["--all", "--strict", "--tool-calls", "6"]);
    assert_clean(&run, "--all on the correct protocol server");
    let report = run.json();
    assert!(report["tools"].is_object(), "--all ran --tools: {report}");
    let junit = junit_cases(&["--all", "--tool-calls", "6"]);
    for label in [
        "tools/list (tools declared by initialize)",
        "ping: an empty result",
        "tool work: called with progressToken mcpwire-progress-1",
    ] {
        assert!(junit.contains(label), "{label}:\n{junit}");
    }
}

#[test]
fn list_kinds_names_every_protocol_kind() {
    let run = check(&["--list-kinds"]);
    for kind in [
        "unsupported-version-echoed",
        "unsupported-version-refused",
        "supported-version-not-echoed",
        "ping-result-not-empty",
        "progress-not-increasing",
        "progress-token-unknown",
        "progress-after-response",
        "progress-exceeds-total",
        "logging-set-level-refused",
        "resource-subscribe-refused",
        "completion-too-many-values",
        "completion-total-inconsistent",
        "listed-resource-not-readable",
        "unknown-resource-code",
    ] {
        assert!(run.stdout.contains(kind), "{kind}");
    }
}
