//! `mcpwire check` reports: the table, JSON and JUnit outputs agree; `--expect-failures` marks
//! stale and unlisted kinds; failures are shrunk and reproducible by seed; the HTTP transport's
//! statuses are checked.

use crate::check_support;

use std::collections::BTreeMap;
use std::process::Command;

use check_support::{HttpServer, Run, both, check, fixture, in_parallel};
use serde_json::Value;

/// Checks the fixture with `defect` over stdio with a 0.5 s reply timeout (the fixture answers
/// in order within milliseconds; an input left unanswered holds its case for the timeout).
fn check_stdio(defect: &str, extra: &[&str]) -> Run {
    let script = fixture("faulty_mcp_server.py");
    let mut args = vec!["--stdio", "--timeout", "0.5"];
    args.extend(extra);
    args.extend(["--", "python3", &script, defect]);
    check(&args)
}

/// `rule -> (passed, failed)` from the JSON report.
fn json_counts(report: &Value) -> BTreeMap<String, (u64, u64)> {
    report["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_owned(),
                (r["passed"].as_u64().unwrap(), r["failed"].as_u64().unwrap()),
            )
        })
        .collect()
}

/// `rule -> (passed, failed)` from the table's rows.
fn table_counts(table: &str) -> BTreeMap<String, (u64, u64)> {
    table
        .lines()
        .skip_while(|line| !line.starts_with("rule "))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let n = fields.len();
            (
                fields[..n - 2].join(" "),
                (
                    fields[n - 2].parse().unwrap(),
                    fields[n - 1].parse().unwrap(),
                ),
            )
        })
        .collect()
}

/// `(tests, failures)` from the JUnit XML, parsed by Python's XML parser: the attributes,
/// checked against the `<testcase>` and `<failure>` elements.
fn junit_counts(xml: &str) -> (u64, u64) {
    let script = r#"
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
tests = failed = 0
for suite in root.iter("testsuite"):
    cases = suite.findall("testcase")
    bad = sum(1 for c in cases if c.find("failure") is not None)
    assert int(suite.get("tests")) == len(cases), suite.get("name")
    assert int(suite.get("failures")) == bad, suite.get("name")
    tests += len(cases)
    failed += bad
print(json.dumps([tests, failed]))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(xml.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the JUnit XML parses:\n{xml}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn table_json_and_junit_carry_the_same_counts() {
    let args = ["--cases", "30", "--seed", "3"];
    let [table, json, junit]: [Run; 3] = in_parallel(
        [&[][..], &["--format", "json"], &["--format", "junit"]]
            .map(|format| {
                move || check_stdio("reply-to-notifications", &[&args[..], format].concat())
            })
            .to_vec(),
    )
    .try_into()
    .expect("three runs");
    for run in [&table, &json, &junit] {
        assert_eq!(run.code, 1, "{run:?}");
        assert!(
            run.stderr.is_empty(),
            "no progress bar off a terminal: {}",
            run.stderr
        );
    }
    assert!(!table.stdout.contains('\x1b'), "no colour off a terminal");
    let report = json.json();
    let from_json = json_counts(&report);
    assert!(from_json.values().any(|&(_, failed)| failed > 0));
    assert_eq!(table_counts(&table.stdout), from_json);
    let (tests, failures) = junit_counts(&junit.stdout);
    assert_eq!(tests, report["cases"].as_u64().unwrap());
    assert_eq!(failures, report["failing_cases"].as_u64().unwrap());
    assert!(
        table
            .stdout
            .contains("FAIL reply-to-notification (violation) [wire rule 7"),
        "{}",
        table.stdout
    );
    let failure = junit
        .stdout
        .split("<failure ")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .expect("a <failure> element");
    assert!(
        failure.contains("type=\"rule-7 reply-to-notification\""),
        "{failure}"
    );
}

#[test]
fn expect_failures_passes_listed_kinds_and_fails_stale_or_unlisted_ones() {
    let dir = std::env::temp_dir().join(format!("mcpwire-check-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let exact = file(
        "exact.txt",
        "# known defects\nrule-4 id-lost-although-recoverable  # null ids\n",
    );
    let stale = file(
        "stale.txt",
        "rule-4 id-lost-although-recoverable\nrule-7 reply-to-notification\n",
    );
    let empty = file("empty.txt", "\n# nothing known\n");

    let json_with = |file: &str| {
        let file = file.to_owned();
        move || {
            check_stdio(
                "null-id",
                &[
                    "--cases",
                    "10",
                    "--format",
                    "json",
                    "--expect-failures",
                    &file,
                ],
            )
        }
    };
    let stale_table = {
        let stale = stale.clone();
        move || check_stdio("null-id", &["--cases", "10", "--expect-failures", &stale])
    };
    let ((exact_run, stale_run), (table_run, empty_run)) = both(
        || both(json_with(&exact), json_with(&stale)),
        || both(stale_table, json_with(&empty)),
    );
    let run = exact_run;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.json()["failures"][0]["known"], true);

    let run = stale_run;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.json()["stale"],
        serde_json::json!(["rule-7 reply-to-notification"])
    );
    assert_eq!(run.json()["unexpected"], serde_json::json!([]));

    let run = table_run;
    assert!(
        run.stdout
            .contains("stale expectation: rule-7 reply-to-notification"),
        "{}",
        run.stdout
    );

    let run = empty_run;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.json()["unexpected"],
        serde_json::json!(["rule-4 id-lost-although-recoverable"])
    );

    let run = check_stdio(
        "null-id",
        &[
            "--expect-failures",
            &dir.join("missing.txt").display().to_string(),
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read the expect-failures file"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generated_failures_are_shrunk_and_reproducible_by_seed() {
    let args = [
        "--no-fixed",
        "--cases",
        "60",
        "--seed",
        "11",
        "--format",
        "json",
    ];
    let (first, second) = both(
        || check_stdio("f64-ids", &args),
        || check_stdio("f64-ids", &args),
    );
    assert_eq!(first.code, 1, "{}", first.stdout);
    let report = first.json();
    let group = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["cases"][0])
        .find(|example| !example["shrunk_from"].is_null())
        .unwrap_or_else(|| panic!("a shrunk example: {report}"));
    let shrunk_from = group["shrunk_from"]
        .as_u64()
        .expect("the example was shrunk");
    assert!(
        group["input_len"].as_u64().unwrap() < shrunk_from,
        "{group}"
    );
    assert!(
        !group["observed"].as_array().unwrap().is_empty(),
        "the shrunk input still fails: {group}"
    );

    assert_eq!(
        first.json()["failures"],
        second.json()["failures"],
        "same seed, same report"
    );
}

fn check_http_fixture(defect: &str) -> Run {
    let server = HttpServer::start("python3", &[&fixture("faulty_mcp_http_server.py"), defect]);
    check(&[
        "--http",
        &server.url,
        "--cases",
        "20",
        "--timeout",
        "5",
        "--format",
        "json",
    ])
}

#[test]
fn http_statuses_and_content_types_are_checked() {
    let [correct, notifications, plain, f64_ids]: [Run; 4] = in_parallel(
        [
            "correct",
            "http-200-for-notifications",
            "http-text-plain",
            "f64-ids",
        ]
        .map(|defect| move || check_http_fixture(defect))
        .to_vec(),
    )
    .try_into()
    .expect("four runs");
    let run = correct;
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = notifications;
    assert_eq!(run.code, 1);
    assert!(
        run.failure_kinds()
            .contains(&("http-status".into(), "HTTP transport".into())),
        "{}",
        run.stdout
    );
    let run = plain;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.failure_kinds(),
        vec![("http-content-type".into(), "HTTP transport".into())]
    );
    let run = f64_ids;
    assert!(
        run.failure_kinds()
            .iter()
            .any(|(kind, _)| kind == "id-value-changed")
    );
}

/// The failure groups' cases as `(kind, level, case)`.
fn cases_by_kind(report: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for group in report["failures"].as_array().into_iter().flatten() {
        for case in group["cases"].as_array().into_iter().flatten() {
            out.push((
                group["kind"].as_str().unwrap_or_default().to_owned(),
                group["level"].as_str().unwrap_or_default().to_owned(),
                case.clone(),
            ));
        }
    }
    out
}

/// The kinds reported for the case labelled `label`.
fn kinds_of(report: &Value, label: &str) -> Vec<(String, String)> {
    cases_by_kind(report)
        .into_iter()
        .filter(|(_, _, case)| case["label"] == label)
        .map(|(kind, level, _)| (kind, level))
        .collect()
}

fn strict(kind: &str) -> Vec<(String, String)> {
    vec![(kind.to_owned(), "strict".to_owned())]
}

/// The verdicts of the `lenient-sdk` fixture both transports share: a notification with
/// `"params":null` left unanswered (a 202 over HTTP) is right under the reading "null is absent";
/// the 2025-11-25 batch answered request by request (two lines, or two SSE events, ids 20 and
/// 21) is a batch run as JSON-RPC 2.0 runs it; `[]` left unanswered (a 202 over HTTP) is the
/// one missing reply, not again as a status.
fn assert_lenient_verdicts(report: &Value) {
    assert_eq!(
        kinds_of(report, "notification with params null"),
        strict("params-null-accepted"),
        "{report}"
    );
    assert_eq!(
        kinds_of(report, "batch"),
        strict("batch-in-version-without-batches")
    );
    assert_eq!(
        kinds_of(report, "empty batch"),
        vec![(
            "unreadable-input-unanswered".to_owned(),
            "violation".to_owned()
        )]
    );
}

#[test]
fn lenient_readings_the_specs_permit_are_strict_over_stdio() {
    let run = check_stdio("lenient-sdk", &["--cases", "0", "--format", "json"]);
    let report = run.json();
    assert_lenient_verdicts(&report);
    // Neither a request nor a response, answered as JSON-RPC 2.0 answers an invalid Request.
    assert_eq!(
        kinds_of(&report, "malformed response"),
        strict("reply-to-malformed-response")
    );
    // Invalid UTF-8 read leniently: the reply carries the id the checker could not read.
    let utf8: Vec<Value> = cases_by_kind(&report)
        .into_iter()
        .filter(|(_, _, case)| case["label"] == "invalid UTF-8")
        .map(|(_, _, case)| case)
        .collect();
    assert_eq!(utf8.len(), 1, "{report}");
    assert_eq!(
        utf8[0]["note"],
        "1 reply attributed by arrival order because the input's id is unreadable (the reply's id matches no id sent)"
    );
    // failing_cases counts cases with a violation, cases_with_findings cases with any finding.
    let mut failing = std::collections::BTreeSet::new();
    let mut any = std::collections::BTreeSet::new();
    for (_, level, case) in cases_by_kind(&report) {
        let label = case["label"].as_str().unwrap_or_default().to_owned();
        if level == "violation" {
            failing.insert(label.clone());
        }
        any.insert(label);
    }
    assert_eq!(report["failing_cases"], failing.len(), "{report}");
    assert_eq!(report["cases_with_findings"], any.len());
    assert!(any.len() > failing.len());
    assert_eq!(run.code, 1);
}

#[test]
fn lenient_readings_over_http_count_one_finding_per_defect() {
    let run = check_http_fixture("lenient-sdk");
    assert_lenient_verdicts(&run.json());
    assert_eq!(run.code, 1);
}

// Issue 29: a headline by failing case, reports on exit 2, exact baselines, SARIF.

#[test]
fn the_headline_counts_failing_cases_with_their_kinds_under_each() {
    // null-id breaks id recovery and, in 2025-11-25 where "no id" is an omitted member, the
    // spelling of "no id" in the same reply: two kinds, one failing case.
    let (json, table) = both(
        || check_stdio("null-id", &["--cases", "0", "--format", "json"]),
        || check_stdio("null-id", &["--cases", "0"]),
    );
    let report = json.json();
    let cases = report["case_findings"].as_array().unwrap();
    let failing: Vec<&Value> = cases.iter().filter(|c| c["fails"] == true).collect();
    assert_eq!(report["failing_cases"], failing.len(), "{report}");
    assert_eq!(report["violations"], failing.len());
    let findings: usize = cases
        .iter()
        .map(|c| c["findings"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        findings as u64,
        report["findings"]["violation"].as_u64().unwrap()
            + report["findings"]["strict"].as_u64().unwrap()
    );
    let headline = table.stdout.lines().last().unwrap().to_owned();
    assert!(
        headline.starts_with(&format!(
            "FAIL: {} failing case(s) of {}",
            failing.len(),
            report["cases"]
        )),
        "{headline}"
    );
    assert!(table.stdout.contains("cases with findings:"));
    for case in failing {
        let kinds: Vec<String> = case["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {} ({})",
                    f["rule_id"].as_str().unwrap(),
                    f["kind"].as_str().unwrap(),
                    f["level"].as_str().unwrap()
                )
            })
            .collect();
        let line = format!("{}: {}", case["label"].as_str().unwrap(), kinds.join(", "));
        assert!(table.stdout.contains(&line), "{line}\n{}", table.stdout);
    }
}

#[test]
fn a_run_that_cannot_check_still_writes_json_junit_and_sarif() {
    for format in ["json", "junit", "sarif"] {
        let run = check(&[
            "--stdio",
            "--format",
            format,
            "--",
            "/nonexistent/mcp-server",
        ]);
        assert_eq!(run.code, 2, "{run:?}");
        assert!(run.stderr.contains("cannot start the server command"));
        match format {
            "json" => {
                let report = run.json();
                assert!(
                    report["error"]
                        .as_str()
                        .unwrap()
                        .contains("cannot start the server command"),
                    "{report}"
                );
                assert_eq!(report["passed"], false);
                assert_eq!(report["schema"], "mcpwire-check/3");
            }
            "junit" => {
                assert_eq!(junit_counts(&run.stdout), (1, 0));
                for piece in [
                    "<testcase name=\"could not run\" classname=\"mcpwire check: stdio: /nonexistent/mcp-server\">",
                    "<error message=\"cannot start the server command",
                    "type=\"could-not-run\">cannot start the server command",
                ] {
                    assert!(run.stdout.contains(piece), "{piece}\n{}", run.stdout);
                }
            }
            _ => {
                let log: Value = serde_json::from_str(&run.stdout).unwrap();
                let invocation = &log["runs"][0]["invocations"][0];
                assert_eq!(invocation["executionSuccessful"], false);
                assert!(
                    invocation["toolExecutionNotifications"][0]["message"]["text"]
                        .as_str()
                        .unwrap()
                        .contains("cannot start the server command")
                );
            }
        }
    }
}

#[test]
fn help_describes_the_junit_output_it_writes() {
    let run = check(&["--help"]);
    assert_eq!(run.code, 0);
    assert!(
        !run.stdout.contains("one test suite per rule"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("one test suite, one test case per case sent"),
        "{}",
        run.stdout
    );
    let junit = check_stdio("null-id", &["--cases", "0", "--format", "junit"]);
    assert_eq!(junit.stdout.matches("<testsuite ").count(), 1);
}

#[test]
fn a_baseline_can_require_the_exact_number_of_cases() {
    let report = check_stdio("null-id", &["--cases", "0", "--format", "json"]).json();
    let lost = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "id-lost-although-recoverable")
        .expect("id lost");
    let count = lost["count"].as_u64().unwrap();
    let others =
        check_support::baseline_lines(&report, |g| g["kind"] != "id-lost-although-recoverable");
    let dir = std::env::temp_dir().join(format!("mcpwire-check-count-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run_with = |n: u64| {
        let path = dir.join(format!("n{n}.txt"));
        std::fs::write(
            &path,
            format!("{others}rule-4 id-lost-although-recoverable cases={n}\n"),
        )
        .unwrap();
        check_stdio(
            "null-id",
            &[
                "--cases",
                "0",
                "--format",
                "json",
                "--expect-failures",
                &path.display().to_string(),
            ],
        )
    };
    let run_with = &run_with;
    let [exact, fewer, more]: [Run; 3] = in_parallel(
        [count, count - 1, count + 1]
            .map(|n| move || run_with(n))
            .to_vec(),
    )
    .try_into()
    .expect("three runs");
    assert_eq!(exact.code, 0, "{}", exact.stdout);
    // One case more than the baseline counts: a new case of a known kind fails the run.
    assert_eq!(fewer.code, 1);
    assert_eq!(
        fewer.json()["unexpected"],
        serde_json::json!(["rule-4 id-lost-although-recoverable"])
    );
    // One fewer: the line is stale and says how many cases there are now.
    assert_eq!(more.code, 1);
    assert_eq!(
        more.json()["stale"],
        serde_json::json!([format!(
            "rule-4 id-lost-although-recoverable cases={} (now {count} case(s))",
            count + 1
        )])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sarif_report_validates_against_the_sarif_2_1_0_schema() {
    let schema_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sarif/sarif-2.1.0-rtm.5.json");
    // The schema's `language` pattern has a stray `]` (fixtures/sarif/README.md) that the
    // meta-schema check rejects as a regex: it is read with that one character removed.
    let text = std::fs::read_to_string(schema_path)
        .unwrap()
        .replace("[a-zA-Z]{2}]?$", "[a-zA-Z]{2}?$");
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let dir = std::env::temp_dir().join(format!("mcpwire-check-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let known = dir.join("known.txt");
    std::fs::write(&known, "rule-4 id-lost-although-recoverable\n").unwrap();
    let known = known.display().to_string();
    let (run, json) = both(
        || {
            check_stdio(
                "null-id",
                &[
                    "--cases",
                    "5",
                    "--format",
                    "sarif",
                    "--expect-failures",
                    &known,
                ],
            )
        },
        || {
            check_stdio(
                "null-id",
                &[
                    "--cases",
                    "5",
                    "--format",
                    "json",
                    "--expect-failures",
                    &known,
                ],
            )
        },
    );
    let json = json.json();
    let log: Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{}", run.stdout);
    assert_eq!(log["version"], "2.1.0");
    // The validation can fail: a level SARIF does not know is refused.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&broken));
    let results = log["runs"][0]["results"].as_array().unwrap();
    // One result per case and kind, as the JSON report's case_findings list them.
    let expected: usize = json["case_findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["findings"].as_array().unwrap().len())
        .sum();
    assert_eq!(results.len(), expected);
    let lost: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "id-lost-although-recoverable")
        .collect();
    assert!(!lost.is_empty());
    assert!(
        lost.iter()
            .all(|r| r["level"] == "error" && r["suppressions"][0]["kind"] == "external")
    );
    // A run that could not check the server validates too.
    let failed = check(&["--stdio", "--format", "sarif", "--", "/nonexistent/server"]);
    let log: Value = serde_json::from_str(&failed.stdout).unwrap();
    assert!(validator.is_valid(&log), "{}", failed.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_verdict_resting_on_arrival_order_is_marked_in_every_format() {
    // {"id":19,"method":"\xff"} answered with id 19: the input's id is unreadable, so the reply
    // is the case's by arrival order, which the table, JSON and JUnit all say on that case.
    let note = "1 reply attributed by arrival order because the input's id is unreadable";
    let [json, table, junit, sarif]: [Run; 4] = in_parallel(
        [
            &["--cases", "0", "--format", "json"][..],
            &["--cases", "0"],
            &["--cases", "0", "--format", "junit", "--strict"],
            &["--cases", "0", "--format", "sarif"],
        ]
        .map(|args| move || check_stdio("lenient-sdk", args))
        .to_vec(),
    )
    .try_into()
    .expect("four runs");
    let json = json.json();
    let case = json["case_findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "invalid UTF-8")
        .unwrap_or_else(|| panic!("{json}"));
    assert!(case["note"].as_str().unwrap().starts_with(note), "{case}");
    assert!(
        table.stdout.contains(&format!("by arrival order: {note}")),
        "{}",
        table.stdout
    );
    let testcase = junit
        .stdout
        .split("<testcase ")
        .find(|t| t.contains("name=\"invalid UTF-8\""))
        .expect("the case");
    assert!(
        testcase.contains(&format!(
            "by arrival order: {}",
            note.replace('\'', "&apos;")
        )),
        "{testcase}"
    );
    let sarif: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let result = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["properties"]["case"] == "invalid UTF-8")
        .expect("the case's result");
    assert!(
        result["properties"]["note"]
            .as_str()
            .unwrap()
            .starts_with(note),
        "{result}"
    );
}
