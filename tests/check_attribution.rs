//! `mcpwire check` verdicts a server author can defend (issue 12): replies matched by id when
//! a server answers out of order, stdout noise set aside without hiding real defects, a broken
//! handshake reported as findings (exit 1) rather than "could not run", Streamable HTTP
//! rejections accepted as the transport allows, and every finding at its level.

use crate::check_support;

use check_support::{HttpServer, Run, both, check, fixture, in_parallel, reference_bin};
use serde_json::Value;

/// Checks the fixture over stdio; `--timeout` is 0.5 s unless `extra` sets it (an input left
/// unanswered holds its case for the whole timeout; the fixture answers in order within
/// milliseconds unless its defect delays replies).
fn check_defect(defect: &str, extra: &[&str]) -> Run {
    let script = fixture("faulty_mcp_server.py");
    let mut args = vec!["--stdio", "--format", "json"];
    if !extra.contains(&"--timeout") {
        args.extend(["--timeout", "0.5"]);
    }
    args.extend(extra);
    args.extend(["--", "python3", &script, defect]);
    check(&args)
}

/// The failure group of `kind`, if the report has one.
fn group<'a>(report: &'a Value, kind: &str) -> Option<&'a Value> {
    report["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .find(|g| g["kind"] == kind)
}

fn kinds(report: &Value) -> Vec<String> {
    report["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|g| g["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn replies_that_overtake_each_other_are_matched_by_id() {
    // Numeric-id replies come 0.3 s late, after the sentinel's (string id) reply: each case's
    // window stays open for its owed reply, which is judged as its own.
    let run = check_defect("out-of-order", &["--cases", "10", "--timeout", "2"]);
    let report = run.json();
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(report["violations"], 0, "{report}");
    assert_eq!(report["strict"], 0, "{report}");
    assert_eq!(report["case_findings"], serde_json::json!([]), "{report}");
}

#[test]
fn an_out_of_order_server_under_jsonrpc_2_0_keeps_every_reply_with_its_case() {
    // Under a plain JSON-RPC 2.0 profile the sentinel is the declared method, so a server that
    // answers ping asynchronously keeps the case's reply ahead of the sentinel's.
    let run = check_defect(
        "out-of-order",
        &[
            "--profile",
            "jsonrpc-2.0",
            "--method",
            "ping",
            "--cases",
            "0",
            "--timeout",
            "1",
        ],
    );
    let report = run.json();
    assert!(
        group(&report, "missing-reply").is_none_or(|g| {
            g["cases"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["label"] != "id 0")
        }),
        "{{\"id\":0,\"method\":\"ping\"}} is answered: {report}"
    );
    assert!(group(&report, "id-not-echoed").is_none(), "{report}");
    // Without a method the server answers, the checker cannot delimit cases: exit 2.
    let run = check(&[
        "--stdio",
        "--profile",
        "jsonrpc-2.0",
        "--",
        "python3",
        &fixture("faulty_mcp_server.py"),
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("--method NAME"), "{}", run.stderr);
}

#[test]
fn log_lines_on_stdout_are_one_finding_and_do_not_hide_dropped_input() {
    let run = check_defect("stdout-logs", &["--cases", "20"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    let noise = group(&report, "stdout-not-protocol").expect("noise reported");
    assert_eq!(noise["level"], "violation");
    assert_eq!(noise["count"], 1);
    assert_eq!(
        noise["cases"][0]["observed"][0], "INFO:server:handled a message",
        "{noise}"
    );
    assert_eq!(
        noise["cases"][0]["observed"][1], r#"{"level":"info","msg":"handled a message"}"#,
        "a JSON object without JSON-RPC members is a log line too: {noise}"
    );
    let message = noise["cases"][0]["message"].as_str().unwrap();
    let lines: u64 = message.split(' ').next().unwrap().parse().unwrap();
    assert!(lines > 20, "every reply came with a log line: {message}");
    // The real defect still shows under the rules it breaks, and no log line is a reply.
    let missing = group(&report, "missing-reply").expect("dropped input found");
    let rules: Vec<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "missing-reply")
        .map(|g| g["rule_id"].as_str().unwrap())
        .collect();
    // Issue 47: input with a readable id (rule 6) is `missing-reply`; input without one (not
    // JSON, not an object, an unreadable id) is `unreadable-input-unanswered`, under rule 4.
    assert!(rules.contains(&"rule-6"), "rule-6 in {rules:?}");
    let unreadable = group(&report, "unreadable-input-unanswered").expect("dropped garbage");
    assert_eq!(unreadable["rule_id"], "rule-4", "{unreadable}");
    assert!(missing["count"].as_u64().unwrap() > 0);
    for absent in [
        "reply-not-json",
        "reply-to-notification",
        "more-than-one-reply",
    ] {
        assert!(group(&report, absent).is_none(), "{absent}: {report}");
    }
}

#[test]
fn a_pretty_printed_handshake_is_a_violation_not_a_failure_to_run() {
    let run = check_defect("pretty", &["--cases", "5"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let group = group(&report, "reply-not-one-line").expect("found");
    assert_eq!(group["level"], "violation");
    assert_eq!(group["rule_id"], "rule-1");
    let first = group["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "initialize")
        .unwrap_or_else(|| panic!("the handshake is judged: {group}"));
    assert!(
        first["observed"][0]
            .as_str()
            .unwrap()
            .contains("\n  \"jsonrpc\""),
        "the bytes are shown: {first}"
    );
    // The run went on under the negotiated profile.
    assert_eq!(report["profile"], "mcp-2025-11-25");
    assert!(report["generated_cases"].as_u64().unwrap() == 5);
}

#[test]
fn result_beside_error_null_in_the_handshake_is_a_violation() {
    let run = check_defect("error-null", &["--cases", "5"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    let group = group(&report, "result-and-error-not-exclusive").expect("found");
    assert_eq!(group["level"], "violation");
    let labels: Vec<&str> = group["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"initialize"), "{labels:?}");
    assert!(
        group["cases"][0]["observed"][0]
            .as_str()
            .unwrap()
            .contains("\"error\":null")
    );
}

#[test]
fn strict_findings_fail_only_under_strict() {
    // The f64 defect rounds 2^53+1 (a changed value: violation) and spells 1e3 as 1000 and
    // -0 as 0 (the same value: strict).
    let run = check_defect("f64-ids", &["--cases", "0"]);
    let report = run.json();
    assert_eq!(run.code, 1);
    let changed = group(&report, "id-value-changed").expect("value changed");
    assert_eq!(changed["level"], "violation");
    assert!(
        changed["cases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["label"] == "id 2^53+1")
    );
    let spelling = group(&report, "id-spelling-changed").expect("spelling changed");
    assert_eq!(spelling["level"], "strict");
    let labels: Vec<&str> = spelling["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"id 1e3") && labels.contains(&"id -0"),
        "{labels:?}"
    );
    assert!(report["violations"].as_u64().unwrap() > 0);
    assert!(report["strict"].as_u64().unwrap() >= 2);
    // Violations come first in the report.
    let levels: Vec<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["level"].as_str().unwrap())
        .collect();
    assert!(
        levels
            .windows(2)
            .all(|w| w[0] <= w[1] || w[0] == "violation"),
        "{levels:?}"
    );

    // A baseline listing the violations passes without --strict, fails with it.
    let dir = std::env::temp_dir().join(format!("mcpwire-check-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("known.txt");
    let lines = check_support::baseline_lines(&report, |g| g["level"] == "violation");
    std::fs::write(&file, lines).unwrap();
    let file = file.display().to_string();
    let (run, strict) = both(
        || check_defect("f64-ids", &["--cases", "0", "--expect-failures", &file]),
        || {
            check_defect(
                "f64-ids",
                &["--cases", "0", "--expect-failures", &file, "--strict"],
            )
        },
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.json()["strict_only"]
            .as_array()
            .unwrap()
            .contains(&Value::from("rule-4 id-spelling-changed"))
    );
    let run = strict;
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.json()["unexpected"]
            .as_array()
            .unwrap()
            .contains(&Value::from("rule-4 id-spelling-changed"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duplicated_ids_read_last_wins_are_strict() {
    // The reference server is strict everywhere; a server that reads duplicated members
    // last-wins is checked through the fixed case `id duplicated`, which the correct fixture
    // answers -32600 without an id: no finding at all.
    let run = check_defect("correct", &["--cases", "0", "--strict"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["strict"], 0);
}

#[test]
fn an_http_server_rejecting_notifications_with_400_passes() {
    let server = HttpServer::start(
        "python3",
        &[&fixture("faulty_mcp_http_server.py"), "reject-with-400"],
    );
    let run = check(&[
        "--http",
        &server.url,
        "--cases",
        "30",
        "--timeout",
        "5",
        "--format",
        "json",
        "--strict",
    ]);
    // Under --strict too: no byte order mark is ever POSTed (the fixture would answer it 400
    // with -32700, a strict finding), and 400 with an id-less error for a notification or a
    // response is what the transport allows.
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    assert_eq!(report["violations"], 0);
    assert_eq!(report["strict"], 0);
    assert!(report["skipped_cases"].as_u64().is_some());
}

#[test]
fn http_findings_use_http_wording() {
    let server = HttpServer::start(
        "python3",
        &[&fixture("faulty_mcp_http_server.py"), "sse-twice"],
    );
    let run = check(&["--http", &server.url, "--cases", "0", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    let twice = group(&report, "more-than-one-reply").unwrap_or_else(|| panic!("{report}"));
    let message = twice["cases"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("2 JSON-RPC messages came back for one POSTed message"),
        "{message}"
    );
    assert!(!run.stdout.contains("reply line"), "{}", run.stdout);
    assert!(!run.stdout.contains("on one line"), "{}", run.stdout);
}

#[test]
fn kinds_are_listed_and_unknown_kinds_rejected() {
    let run = check(&["--list-kinds"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("missing-reply                    violation")
    );
    assert!(
        run.stdout
            .contains("id-spelling-changed              strict")
    );
    let dir = std::env::temp_dir().join(format!("mcpwire-check-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("typo.txt");
    std::fs::write(&file, "rule-2 missing-replies\n").unwrap();
    let run = check_defect(
        "correct",
        &["--expect-failures", &file.display().to_string()],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("unknown finding kind `missing-replies`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("valid kinds: missing-reply"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn junit_has_one_test_case_per_case_with_its_bytes_and_verbose_lists_every_input() {
    let script = fixture("faulty_mcp_server.py");
    let plain = ["--stdio", "--cases", "0", "--timeout", "0.5"];
    let tail = ["--", "python3", &script, "null-id"];
    let [run, json, table, verbose]: [Run; 4] = check_support::check_each(&[
        &[&plain[..], &["--format", "junit"], &tail].concat(),
        &[&plain[..], &["--format", "json"], &tail].concat(),
        &[&plain[..], &tail].concat(),
        &[&plain[..], &["--verbose"], &tail].concat(),
    ])
    .try_into()
    .expect("four runs");
    assert_eq!(run.code, 1);
    let json = json.json();
    let cases = json["cases"].as_u64().unwrap() as usize;
    assert_eq!(
        run.stdout.matches("<testcase ").count(),
        cases,
        "{}",
        run.stdout
    );
    let failing = json["failing_cases"].as_u64().unwrap() as usize;
    assert_eq!(run.stdout.matches("<failure ").count(), failing);
    assert!(
        run.stdout.contains("name=\"jsonrpc 1.0\""),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("input: {&quot;jsonrpc&quot;:&quot;1.0&quot;,&quot;id&quot;:3"),
        "the failure carries the input bytes"
    );
    assert!(
        run.stdout
            .contains("observed: {&quot;jsonrpc&quot;:&quot;2.0&quot;,&quot;id&quot;:null")
    );

    // The JSON report lists every failing case of a kind; the table does under --verbose.
    let lost = group(&json, "id-lost-although-recoverable").unwrap();
    assert_eq!(lost["count"], lost["cases"].as_array().unwrap().len());
    assert!(lost["count"].as_u64().unwrap() > 1);
    assert!(
        table.stdout.contains("--verbose lists them"),
        "{}",
        table.stdout
    );
    for case in lost["cases"].as_array().unwrap() {
        let label = case["label"].as_str().unwrap();
        assert!(
            verbose.stdout.contains(&format!("input ({label},")),
            "{label}"
        );
    }
}

#[test]
fn a_2026_check_confirms_the_version_with_server_discover() {
    let script = fixture("faulty_mcp_server.py");
    let (run, without) = both(
        || {
            check(&[
                "--stdio",
                "--mcp-version",
                "2026-07-28",
                "--cases",
                "5",
                "--timeout",
                "1",
                "--format",
                "json",
                "--",
                reference_bin(),
                "--profile",
                "mcp-2026-07-28",
            ])
        },
        || {
            check(&[
                "--stdio",
                "--mcp-version",
                "2026-07-28",
                "--",
                "python3",
                &script,
            ])
        },
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let report = run.json();
    assert_eq!(report["profile"], "mcp-2026-07-28");
    assert_eq!(report["requested_version"], "2026-07-28");
    // A server that does not implement server/discover does not speak 2026-07-28.
    let run = without;
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("server/discover"), "{}", run.stderr);
    assert!(
        run.stderr.contains("does not speak 2026-07-28"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_reply_to_an_id_never_sent_is_its_own_finding() {
    let run = check_defect("unsolicited", &["--cases", "5"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = run.json();
    assert_eq!(kinds(&report), ["reply-id-unknown"], "{report}");
    let unknown = group(&report, "reply-id-unknown").unwrap();
    assert_eq!(unknown["level"], "violation");
    assert_eq!(unknown["cases"][0]["label"], "(as a reply to no request)");
    assert_eq!(
        unknown["cases"][0]["observed"][0],
        r#"{"jsonrpc":"2.0","id":"never-sent","result":{}}"#
    );
}

#[test]
fn an_over_long_reply_is_a_finding_and_the_run_goes_on() {
    let run = check_defect("huge-reply", &["--cases", "5", "--timeout", "2"]);
    let report = run.json();
    let long = group(&report, "reply-too-long").unwrap_or_else(|| panic!("{report}"));
    assert_eq!(long["level"], "strict");
    assert_eq!(long["cases"][0]["label"], "request");
    assert!(
        long["cases"][0]["message"]
            .as_str()
            .unwrap()
            .contains("4194304 bytes"),
        "{long}"
    );
    // Only that case is affected; strict findings alone do not fail the run.
    assert_eq!(kinds(&report), ["reply-too-long"], "{report}");
    assert_eq!(run.code, 0);
    assert_eq!(report["generated_cases"], 5);
}

// Issue 29: verdicts a maintainer cannot reject.

/// `(kind, level)` of every finding of the case labelled `label` (JSON report's
/// `case_findings`).
fn case_kinds(report: &Value, label: &str) -> Vec<(String, String)> {
    report["case_findings"]
        .as_array()
        .expect("case_findings")
        .iter()
        .filter(|c| c["label"] == label)
        .flat_map(|c| c["findings"].as_array().unwrap().iter())
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_owned(),
                f["level"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn one(kind: &str, level: &str) -> Vec<(String, String)> {
    vec![(kind.to_owned(), level.to_owned())]
}

fn lenient_http(defect: &str, extra: &[&str]) -> Run {
    let server = HttpServer::start("python3", &[&fixture("faulty_mcp_http_server.py"), defect]);
    let mut args = vec!["--http", &server.url, "--format", "json", "--timeout", "2"];
    args.extend(extra);
    check(&args)
}

#[test]
fn a_notification_decoded_leniently_and_left_unanswered_is_strict_not_missing() {
    // {"jsonrpc":"2.0","method":"p\xed\xa0\x80i\u006eg"}: not UTF-8, so not JSON; decoded with
    // U+FFFD (RFC 8259 §9 lets a parser accept it) it is a notification, which gets no reply.
    let [stdio, http, correct]: [Run; 3] = in_parallel(vec![
        Box::new(|| check_defect("lenient-sdk", &["--cases", "0"]))
            as Box<dyn FnOnce() -> Run + Send>,
        Box::new(|| lenient_http("lenient-sdk", &["--cases", "0"])),
        Box::new(|| check_defect("correct", &["--cases", "0", "--strict"])),
    ])
    .try_into()
    .expect("three runs");
    for run in [&stdio, &http] {
        let report = run.json();
        assert_eq!(
            case_kinds(&report, "invalid UTF-8 in a notification"),
            one("non-json-accepted", "strict"),
            "{report}"
        );
    }
    // A strict server answers it -32700 without an id: no finding at all.
    assert_eq!(correct.code, 0, "{}", correct.stdout);
}

#[test]
fn where_json_rpc_allows_what_the_mcp_schema_refuses_the_finding_is_strict() {
    // "params":[] is by-position params (JSON-RPC 2.0 §4.2), refused only by the MCP schema's
    // object type; a call with result/error members is a call JSON-RPC 2.0 does not forbid.
    let (stdio, http) = both(
        || check_defect("lenient-sdk", &["--cases", "0"]),
        || lenient_http("lenient-sdk", &["--cases", "0"]),
    );
    for run in [stdio, http] {
        let report = run.json();
        assert_eq!(
            case_kinds(&report, "notification with params array"),
            one("params-array-accepted", "strict"),
            "{report}"
        );
        assert_eq!(
            case_kinds(&report, "params array"),
            one("params-array-accepted", "strict")
        );
        assert_eq!(
            case_kinds(&report, "result and error in a call"),
            one("result-or-error-in-call-accepted", "strict")
        );
    }
}

#[test]
fn every_defect_of_a_reply_is_judged_on_its_own() {
    // {"jsonrpc":"2.0","id":19,"method":"\xff"} answered with the invented id "server-error":
    // -32602 instead of -32700 is what a lenient parser's reading gives (strict), the id is
    // one no reading of the input has (a violation), exactly as for the input `1`.
    let run = check_defect("server-error-id", &["--cases", "0"]);
    assert_eq!(run.code, 1);
    let report = run.json();
    let mut utf8 = case_kinds(&report, "invalid UTF-8");
    utf8.sort();
    assert_eq!(
        utf8,
        [
            ("fabricated-id".to_owned(), "violation".to_owned()),
            ("non-json-accepted".to_owned(), "strict".to_owned())
        ],
        "{report}"
    );
    assert!(
        case_kinds(&report, "top-level number")
            .contains(&("fabricated-id".to_owned(), "violation".to_owned())),
        "{report}"
    );
}

#[test]
fn an_http_400_with_an_id_less_error_to_a_bad_notification_is_no_violation() {
    // Streamable HTTP: a notification the server does not accept gets "an HTTP error status
    // code", whose body "MAY comprise a JSON-RPC error response that has no id": its code and
    // its "id":null are not a reply's. The same body to input that is no notification is.
    let run = lenient_http("http-400-parse-error-null-id", &["--cases", "0"]);
    let report = run.json();
    for label in [
        "invalid notification",
        "notification with params null",
        "notification with params array",
    ] {
        assert_eq!(case_kinds(&report, label), [], "{label}: {report}");
    }
    assert!(
        case_kinds(&report, "NaN")
            .contains(&("no-id-spelled-wrong".to_owned(), "violation".to_owned())),
        "{report}"
    );
}

/// The report's verdicts without what may differ between runs: wall time, the target's
/// command line, and how many replies were matched by id after their case's window.
fn verdicts(report: &Value) -> Value {
    let mut report = report.clone();
    for key in ["elapsed_seconds", "target", "attributed_late"] {
        report.as_object_mut().unwrap().remove(key);
    }
    report
}

#[test]
fn verdicts_do_not_depend_on_how_late_error_replies_come() {
    // The same servers, with every error reply written 300 ms late (after the sentinel's
    // reply): identical reports, case by case. (Shrinking is bounded by wall time, so which
    // smaller input it reaches may differ: it is off here.)
    let script = fixture("faulty_mcp_server.py");
    // `id-less-errors` (issue 47) answers every error late and without an id, and refuses
    // the id `1e3` with such an error: each must still land in its own case's window.
    let runs = [
        ("null-id", "0"),
        ("null-id", "0.3"),
        ("lenient-sdk", "0"),
        ("lenient-sdk", "0.3"),
        ("id-less-errors", "0"),
        ("id-less-errors", "0.3"),
    ];
    let mut reports = in_parallel(
        runs.iter()
            .map(|&(defect, delay)| {
                let script: &str = &script;
                move || {
                    check(&[
                        "--stdio",
                        "--format",
                        "json",
                        "--timeout",
                        "2",
                        "--cases",
                        "12",
                        "--seed",
                        "4",
                        "--no-shrink",
                        "--",
                        "python3",
                        script,
                        defect,
                        delay,
                    ])
                }
            })
            .collect(),
    )
    .into_iter();
    for defect in ["null-id", "lenient-sdk", "id-less-errors"] {
        let (prompt, late) = (reports.next().unwrap(), reports.next().unwrap());
        assert_eq!(prompt.code, late.code, "{defect}");
        let (prompt, late) = (verdicts(&prompt.json()), verdicts(&late.json()));
        assert_eq!(
            prompt["case_findings"], late["case_findings"],
            "{defect}: case by case, 0 ms\n{:#}\n300 ms\n{:#}",
            prompt["case_findings"], late["case_findings"]
        );
        assert_eq!(prompt, late, "{defect}: the whole report");
        if defect == "id-less-errors" {
            // The late id-less error to `1e3` is that case's own, blamed on no later case.
            let mut kinds = case_kinds(&late, "id 1e3");
            kinds.sort();
            assert_eq!(
                kinds,
                [
                    (
                        "id-lost-although-recoverable".to_owned(),
                        "violation".to_owned()
                    ),
                    ("unexpected-code".to_owned(), "violation".to_owned())
                ],
                "{late}"
            );
            for kind in ["more-than-one-reply", "reply-to-notification"] {
                assert!(group(&late, kind).is_none(), "{kind}: {late}");
            }
        }
    }
}

#[test]
fn every_reply_is_validated_against_the_versions_schema() {
    // The initialize result's capabilities is an array and serverInfo is missing: the
    // envelope is right, the result breaks MCP 2025-11-25's InitializeResult.
    let [stdio, http, correct, missing]: [Run; 4] = in_parallel(vec![
        Box::new(|| check_defect("bad-initialize-result", &["--cases", "0"]))
            as Box<dyn FnOnce() -> Run + Send>,
        Box::new(|| lenient_http("bad-initialize-result", &["--cases", "0"])),
        Box::new(|| check_defect("correct", &["--cases", "5"])),
        Box::new(|| {
            check_defect(
                "correct",
                &["--cases", "0", "--schema-dir", "/nonexistent/schemas"],
            )
        }),
    ])
    .try_into()
    .expect("four runs");
    for run in [&stdio, &http] {
        assert_eq!(run.code, 1, "{}", run.stdout);
        let report = run.json();
        assert_eq!(report["reply_schema"]["checked"], true, "{report}");
        assert_eq!(
            case_kinds(&report, "initialize"),
            one("reply-schema-invalid", "violation"),
            "{report}"
        );
        let group = group(&report, "reply-schema-invalid").unwrap();
        assert_eq!(group["count"], 1, "only the handshake breaks it: {group}");
        let message = group["cases"][0]["message"].as_str().unwrap();
        assert!(
            message.contains("InitializeResult: at /result"),
            "{message}"
        );
    }
    // The same server with a valid result: every reply validates.
    assert_eq!(correct.code, 0, "{}", correct.stdout);
    assert_eq!(correct.json()["reply_schema"]["checked"], true);
    // A schema folder asked for that does not hold the version's schema: exit 2.
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(
        missing
            .stderr
            .contains("cannot read the MCP schema /nonexistent/schemas/2025-11-25/schema.json"),
        "{}",
        missing.stderr
    );
}
