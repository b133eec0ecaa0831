//! `mcpwire check --protocol` under MCP 2026-07-28 (issue 47 item 1, "2026-07-28"), against
//! tests/fixtures/servers/http_2026_server.py in its `protocol` mode: a request stating an
//! unsupported version gets -32022 with the supported list and 400; a -32021 reply carries
//! `requiredCapabilities` and 400; a list comes in the same order when asked again; GET and
//! DELETE get 405; every result has `resultType` and the cache hints the schema requires; no
//! reply carries an error code the version retired.
//! The correct fixture gets no finding; each planted defect is found at its level. Over stdio
//! (the fixture's `--stdio` mode, the same answers as lines) the properties that do not rest
//! on HTTP are judged the same way.

use crate::check_support;

use check_support::{HttpServer, Run, assert_clean, case_findings, check, fixture, in_parallel};

/// The handshake and `--protocol` under 2026-07-28 against the fixture in `mode`, with the
/// report in `format`.
fn protocol_as(mode: &str, format: &str, extra: &[&str]) -> Run {
    let server = HttpServer::start("python3", &[&fixture("http_2026_server.py"), mode]);
    let mut args = vec![
        "--http",
        &server.url,
        "--mcp-version",
        "2026-07-28",
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
    check(&args)
}

/// [`protocol_as`] with the JSON report.
fn protocol(mode: &str, extra: &[&str]) -> Run {
    protocol_as(mode, "json", extra)
}

#[test]
fn a_correct_2026_server_gets_no_finding() {
    let run = protocol("protocol", &["--strict"]);
    assert_clean(&run, "the correct 2026-07-28 fixture under --protocol");
    assert!(case_findings(&run).is_empty(), "{}", run.stdout);
    let junit = protocol_as("protocol", "junit", &[]).stdout;
    for label in [
        "server/discover stating protocol version 1999-01-01",
        "tools/list again (the order of its items)",
        "HTTP GET of the endpoint",
        "HTTP DELETE of the endpoint",
        "tool ask: called with progressToken",
    ] {
        assert!(junit.contains(label), "{label}:\n{junit}");
    }
}

#[test]
fn each_planted_2026_defect_is_found_at_its_level() {
    let defects: &[(&str, &str, &str, &str)] = &[
        (
            "protocol,accepts-any-version",
            "server/discover stating protocol version 1999-01-01",
            "unsupported-version-accepted",
            "violation",
        ),
        (
            "protocol,bare-version-error",
            "server/discover stating protocol version 1999-01-01",
            "unsupported-version-error-invalid",
            "violation",
        ),
        (
            "protocol,bare-capability-error",
            "tool ask: called with progressToken",
            "missing-capability-error-invalid",
            "violation",
        ),
        (
            "protocol,shuffles",
            "tools/list again (the order of its items)",
            "list-order-unstable",
            "strict",
        ),
        (
            "protocol,delete-200",
            "HTTP DELETE of the endpoint",
            "stateless-get-delete-not-405",
            "strict",
        ),
        (
            "protocol,logs",
            "tool echo: called with progressToken",
            "log-not-requested",
            "violation",
        ),
        (
            "protocol,retired-code",
            "tool echo: called with progressToken",
            "retired-code-emitted",
            "violation",
        ),
        (
            "protocol,no-result-type",
            "server/discover",
            "reply-schema-invalid",
            "violation",
        ),
        (
            "protocol,bad-cache-hints",
            "server/discover",
            "reply-schema-invalid",
            "violation",
        ),
    ];
    let runs = in_parallel(
        defects
            .iter()
            .map(|&(mode, ..)| move || protocol(mode, &[]))
            .collect(),
    );
    for (&(mode, label, kind, level), run) in defects.iter().zip(runs) {
        let got = case_findings(&run);
        assert!(
            got.iter()
                .any(|(l, k, v)| l.starts_with(label) && k == kind && v == level),
            "{mode}: ({label}, {kind}, {level}) not in {got:?}\n{}",
            run.stdout
        );
        assert!(
            got.iter().all(|(_, k, _)| k == kind),
            "{mode}: only {kind}: {got:?}"
        );
        let code = if level == "violation" { 1 } else { 0 };
        assert_eq!(run.code, code, "{mode}: {}", run.stdout);
    }
}

#[test]
fn the_2026_findings_quote_their_sentence() {
    let runs = in_parallel(vec![
        || protocol("protocol,bare-version-error", &[]),
        || protocol("protocol,no-result-type", &[]),
    ]);
    let message = |run: &Run| {
        run.json()["failures"][0]["cases"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let version = message(&runs[0]);
    assert!(
        version.contains("MUST be `400 Bad Request`") && version.contains("2026-07-28"),
        "{version}"
    );
    assert!(version.contains("data.supported"), "{version}");
    let result_type = message(&runs[1]);
    assert!(result_type.contains("resultType"), "{result_type}");
}

#[test]
fn all_on_the_correct_2026_server_takes_32021_as_the_protocols_answer() {
    // `--tools` calls `ask` with valid arguments; the checker declares no client capability,
    // so -32021 is the answer MCP 2026-07-28 requires, not the tool's error.
    let run = protocol("protocol", &["--all", "--strict", "--tool-calls", "4"]);
    assert_clean(&run, "--all on the correct 2026-07-28 fixture");
    assert!(run.json()["tools"].is_object(), "--all ran --tools");
}

/// The handshake and `--protocol` under 2026-07-28 against the fixture in `mode` over stdio.
fn protocol_over_stdio(mode: &str, format: &str) -> Run {
    check(&[
        "--mcp-version",
        "2026-07-28",
        "--no-fixed",
        "--cases",
        "0",
        "--protocol",
        "--timeout",
        "2",
        "--strict",
        "--format",
        format,
        "--stdio",
        "--",
        "python3",
        &fixture("http_2026_server.py"),
        "--stdio",
        mode,
    ])
}

#[test]
fn protocol_over_stdio_at_2026_07_28_judges_the_same_properties() {
    let run = protocol_over_stdio("protocol", "json");
    assert_clean(&run, "the correct 2026-07-28 fixture over stdio");
    assert_eq!(run.json()["profile"], "mcp-2026-07-28", "{}", run.stdout);
    let junit = protocol_over_stdio("protocol", "junit").stdout;
    for label in [
        "server/discover stating protocol version 1999-01-01",
        "tools/list again (the order of its items)",
        "tool ask: called with progressToken",
        "tool echo: called with progressToken",
    ] {
        assert!(junit.contains(label), "{label}:\n{junit}");
    }
    // No HTTP-only property runs over stdio.
    assert!(!junit.contains("HTTP GET of the endpoint"), "{junit}");
    let defects: &[(&str, &str, &str, &str)] = &[
        (
            "protocol,accepts-any-version",
            "server/discover stating protocol version 1999-01-01",
            "unsupported-version-accepted",
            "violation",
        ),
        (
            "protocol,bare-version-error",
            "server/discover stating protocol version 1999-01-01",
            "unsupported-version-error-invalid",
            "violation",
        ),
        (
            "protocol,bare-capability-error",
            "tool ask: called with progressToken",
            "missing-capability-error-invalid",
            "violation",
        ),
        (
            "protocol,shuffles",
            "tools/list again (the order of its items)",
            "list-order-unstable",
            "strict",
        ),
        (
            "protocol,logs",
            "tool echo: called with progressToken",
            "log-not-requested",
            "violation",
        ),
        (
            "protocol,retired-code",
            "tool echo: called with progressToken",
            "retired-code-emitted",
            "violation",
        ),
    ];
    let runs = in_parallel(
        defects
            .iter()
            .map(|&(mode, ..)| move || protocol_over_stdio(mode, "json"))
            .collect(),
    );
    for (&(mode, label, kind, level), run) in defects.iter().zip(runs) {
        let got = case_findings(&run);
        assert!(
            got.iter()
                .any(|(l, k, v)| l.starts_with(label) && k == kind && v == level),
            "stdio {mode}: ({label}, {kind}, {level}) not in {got:?}\n{}",
            run.stdout
        );
        assert!(
            got.iter().all(|(_, k, _)| k == kind),
            "stdio {mode}: only {kind}: {got:?}"
        );
        // --strict: a strict finding fails the run too.
        assert_eq!(run.code, 1, "stdio {mode}: {}", run.stdout);
    }
}
