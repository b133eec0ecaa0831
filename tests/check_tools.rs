//! `mcpwire check --tools` against the tool fixture server (tests/fixtures/servers/
//! tool_server.py): a correct server gets no finding, one that accepts invalid arguments, one
//! whose structuredContent breaks its outputSchema and one with a content block no version
//! defines each get theirs, naming the tool and the schema path; seeds replay. Prompts and
//! resource templates get the same where it is cheap, and every declared list method is
//! walked to its last page (`--capabilities` too).

use crate::check_support;

use check_support::{HttpServer, Run, assert_clean, both, check, fixture, in_parallel};
use serde_json::Value;

/// Runs only the handshake and the tool tests against the fixture with `defect` (JSON report).
fn tools(defect: &str, extra: &[&str]) -> Run {
    tools_as("json", defect, extra)
}

/// [`tools`] with the report in `format`.
fn tools_as(format: &str, defect: &str, extra: &[&str]) -> Run {
    let script = fixture("tool_server.py");
    let mut args = vec![
        "--stdio",
        "--no-fixed",
        "--cases",
        "0",
        "--tools",
        "--tool-calls",
        "24",
        "--timeout",
        "2",
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "python3", &script, defect]);
    check(&args)
}

/// The failure group of `kind`, if the report has one.
fn group(run: &Run, kind: &str) -> Option<Value> {
    run.json()["failures"]
        .as_array()?
        .iter()
        .find(|g| g["kind"] == kind)
        .cloned()
}

#[test]
fn a_correct_tool_server_gets_no_finding_under_either_refusal_form() {
    let versions = ["2025-11-25", "2025-06-18"];
    let runs = in_parallel(
        versions
            .map(|version| {
                move || {
                    both(
                        || tools("correct", &["--mcp-version", version]),
                        || tools_as("junit", "correct", &["--mcp-version", version]),
                    )
                }
            })
            .to_vec(),
    );
    for (version, (run, junit)) in versions.into_iter().zip(runs) {
        assert_clean(&run, &format!("correct tools, {version}"));
        let report = run.json();
        let summary = &report["tools"];
        assert_eq!(summary["listed"], 2, "both pages listed: {summary}");
        assert_eq!(summary["pages"], 2, "{summary}");
        let calls = summary["calls"].as_u64().unwrap();
        assert!((4..=24).contains(&calls), "within the budget: {summary}");
        let notes = summary["notes"].to_string();
        assert!(notes.contains("add: "), "{notes}");
        // greet with its required argument, then without it; summary (no arguments) once.
        assert_eq!(summary["prompt_calls"], 3, "{summary}");
        assert_eq!(summary["resource_reads"], 1, "{summary}");
        assert!(
            notes.contains("resource template note:///{id}: read note:///"),
            "{notes}"
        );
        // Every case sent is a JUnit test case named by its label.
        assert_eq!(junit.code, 0, "{}", junit.stdout);
        let sent = junit.stdout;
        for needle in [
            "tool add: valid arguments",
            "tool add: wrong type a (schema /properties/a/type)",
            "tool add: missing required member",
            "tool add: undeclared member mcpwire_undeclared (schema /additionalProperties)",
            "tool echo: valid arguments",
            "tools/list with a foreign cursor",
            "prompts/list page 2",
            "prompts/list with a foreign cursor",
            "prompt greet: its required arguments (seed 0)",
            "prompt greet: missing required argument name",
            "prompt summary: no required arguments",
            "resources/templates/list with a foreign cursor",
        ] {
            assert!(sent.contains(needle), "{needle} was sent: {sent}");
        }
    }
}

#[test]
fn accepting_invalid_arguments_is_a_violation_naming_tool_and_schema_path() {
    let run = tools("accepts-invalid", &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let accepted = group(&run, "tool-accepted-invalid-arguments").expect("the finding");
    assert_eq!(accepted["level"], "violation");
    assert_eq!(accepted["rule_id"], "tools");
    let text = accepted.to_string();
    assert!(text.contains("tool add"), "{text}");
    assert!(text.contains("/properties/a/type"), "{text}");
    let undeclared = group(&run, "tool-accepted-undeclared-argument").expect("strict finding");
    assert_eq!(undeclared["level"], "strict");
    assert!(undeclared.to_string().contains("/additionalProperties"));
}

#[test]
fn structured_content_against_the_output_schema() {
    let run = tools("bad-structured", &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let found = group(&run, "tool-structured-content-invalid").expect("the finding");
    assert_eq!(found["level"], "violation");
    let text = found.to_string();
    assert!(text.contains("tool add"), "{text}");
    assert!(text.contains("/result/structuredContent/sum"), "{text}");
    assert!(
        text.contains("shrunk from"),
        "the failing call is shrunk: {text}"
    );
    // echo declares no outputSchema: its results are not judged by it.
    assert!(!text.contains("tool echo"), "{text}");
}

#[test]
fn a_content_block_invalid_for_the_version_breaks_the_call_tool_result() {
    let run = tools("bad-content", &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let found = group(&run, "reply-schema-invalid").expect("the finding");
    let text = found.to_string();
    assert!(text.contains("CallToolResult"), "{text}");
    assert!(text.contains("/result/content/0"), "{text}");
}

#[test]
fn a_protocol_error_for_valid_arguments_is_strict() {
    let (run, strict) = both(
        || tools("refuses-valid", &[]),
        || tools("refuses-valid", &["--strict"]),
    );
    assert_eq!(run.code, 0, "strict only: {}", run.stdout);
    let found = group(&run, "tool-error-on-valid-arguments").expect("the finding");
    assert_eq!(found["level"], "strict");
    // -32603 for invalid arguments is a refusal, in another form than the version names.
    let form = group(&run, "tool-refusal-form").expect("the refusal form");
    assert_eq!(form["level"], "strict");
    assert_eq!(strict.code, 1);
}

#[test]
fn the_seed_replays_the_arguments_and_tool_filters_apply() {
    let inputs = |run: &Run| -> Vec<String> {
        run.json()["case_findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["input"].as_str().map(str::to_owned))
            .collect()
    };
    let ((first, again), skipped) = both(
        || {
            both(
                || tools("accepts-invalid", &["--seed", "7", "--tool", "add"]),
                || tools("accepts-invalid", &["--seed", "7", "--tool", "add"]),
            )
        },
        || tools("accepts-invalid", &["--skip-tool", "add"]),
    );
    assert!(!inputs(&first).is_empty(), "{}", first.stdout);
    assert_eq!(inputs(&first), inputs(&again), "same seed, same calls");
    assert!(
        !first.stdout.contains("tool echo"),
        "--tool add calls only add: {}",
        first.stdout
    );
    assert!(!skipped.stdout.contains("tool add:"), "{}", skipped.stdout);
    assert!(skipped.stdout.contains("tool echo"), "{}", skipped.stdout);
}

/// The tool tests alone (no envelope cases) against `target` args, within `calls` calls.
fn tools_on(target: &[&str], calls: &str) -> Run {
    let mut args = vec![
        "--no-fixed",
        "--cases",
        "0",
        "--tools",
        "--tool-calls",
        calls,
        "--tool-timeout",
        "10",
        "--timeout",
        "3",
        "--format",
        "json",
    ];
    args.extend_from_slice(target);
    check(&args)
}

#[test]
fn the_example_server_passes_its_tool_tests() {
    let run = tools_on(
        &["--stdio", "--", env!("CARGO_BIN_EXE_mcp-server-example")],
        "30",
    );
    assert_clean(&run, "--tools on the example server");
    let report = run.json();
    assert_eq!(report["tools"]["listed"], 3, "{}", run.stdout);
    assert_eq!(report["tools"]["calls"], 30, "{}", run.stdout);
}

/// MCP 2026-07-28 Streamable HTTP, Custom Headers from Tool Parameters: "When constructing a
/// `tools/call` request via HTTP transport, the client MUST: … Append a `Mcp-Param-{Name}:
/// {Value}` header", and a server holding the rule refuses a call without them ("Client omits
/// header but value is in body … Server MUST reject the request", 400 with -32020). The
/// conformance server's `test_custom_headers` mirrors `region` and `priority`: without the
/// headers every call was refused and the checker blamed the server (`tool-refusal-form`,
/// `tool-error-on-valid-arguments`).
#[test]
fn tool_calls_at_2026_07_28_carry_the_declared_param_headers() {
    let server = HttpServer::start(
        env!("CARGO_BIN_EXE_conformance-server"),
        &["--http", "127.0.0.1:0", "--stateless"],
    );
    let run = tools_on(
        &[
            "--http",
            server.url.as_str(),
            "--mcp-version",
            "2026-07-28",
            "--tool",
            "test_custom_headers",
            "--strict",
        ],
        "20",
    );
    assert_clean(&run, "test_custom_headers at 2026-07-28 over HTTP");
    let report = run.json();
    assert_eq!(report["tools"]["calls"], 20, "{}", run.stdout);
    let notes = report["tools"]["notes"].to_string();
    assert!(
        notes.contains("test_custom_headers: 16 call(s) with valid arguments, 4 with invalid"),
        "valid and invalid arguments both sent: {notes}"
    );
}

#[test]
fn the_conformance_server_passes_its_tool_tests() {
    let server = HttpServer::start(
        env!("CARGO_BIN_EXE_conformance-server"),
        &["--http", "127.0.0.1:0"],
    );
    // `protocol_error_job` is the Tasks scenarios' fixture whose work fails with a JSON-RPC
    // error (its handler panics, -32603): the checker rightly finds that strict, so it is
    // left out here.
    let run = tools_on(
        &[
            "--http",
            server.url.as_str(),
            "--skip-tool",
            "protocol_error_job",
        ],
        "60",
    );
    assert_clean(&run, "--tools on the conformance server");
    let report = run.json();
    assert!(
        report["tools"]["listed"].as_u64().unwrap() >= 10,
        "{}",
        run.stdout
    );
    assert_eq!(report["tools"]["calls"], 60, "{}", run.stdout);
}

#[test]
fn a_foreign_cursor_answered_with_a_page_is_strict() {
    let (run, strict) = both(
        || tools("accepts-foreign-cursor", &[]),
        || tools("accepts-foreign-cursor", &["--strict"]),
    );
    assert_eq!(run.code, 0, "strict only: {}", run.stdout);
    let found = group(&run, "invalid-cursor-not-refused").expect("the finding");
    assert_eq!(found["level"], "strict");
    assert!(found.to_string().contains("mcpwire-check-foreign-cursor"));
    assert_eq!(strict.code, 1);
}

#[test]
fn a_prompt_rendered_without_its_required_argument_is_found_naming_the_prompt() {
    let run = tools("accepts-missing-prompt-argument", &["--strict"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let found = group(&run, "prompt-accepted-missing-argument").expect("the finding");
    // The prompts page says SHOULD (validate arguments, -32602 for a missing one): strict.
    assert_eq!(found["level"], "strict");
    assert_eq!(found["rule_id"], "tools");
    let text = found.to_string();
    assert!(text.contains("prompt greet"), "{text}");
    assert!(text.contains("\\\"name\\\""), "names the argument: {text}");
    assert_eq!(found["count"], 1, "{text}");
    // Nothing else: the tools, the other prompt and the template are correct.
    let kinds: Vec<String> = run.failure_kinds().into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        kinds,
        ["prompt-accepted-missing-argument"],
        "{}",
        run.stdout
    );
}

/// Only the handshake and the `--capabilities` cases (list calls and walks) against the
/// fixture with `defect`, the report in `format`.
fn walks(defect: &str, format: &str) -> Run {
    let script = fixture("tool_server.py");
    check(&[
        "--stdio",
        "--no-fixed",
        "--cases",
        "0",
        "--capabilities",
        "--strict",
        "--timeout",
        "2",
        "--format",
        format,
        "--",
        "python3",
        &script,
        defect,
    ])
}

#[test]
fn pages_that_repeat_an_item_or_a_cursor_are_found_and_correct_pages_are_not() {
    let runs = in_parallel(
        [
            ("correct", "json"),
            ("correct", "junit"),
            ("page-repeats", "json"),
            ("page-repeats", "junit"),
        ]
        .map(|(defect, format)| move || walks(defect, format))
        .to_vec(),
    );
    let [correct, correct_junit, repeats, repeats_junit] = <[Run; 4]>::try_from(runs).unwrap();
    assert_clean(&correct, "--capabilities on the correct fixture");
    // Every declared list method walked to its end, then asked with a foreign cursor.
    for walked in [
        "tools/list page 2",
        "prompts/list page 2",
        "resources/list page 2",
        "tools/list with a foreign cursor",
        "prompts/list with a foreign cursor",
        "resources/list with a foreign cursor",
        "resources/templates/list with a foreign cursor",
    ] {
        assert!(
            correct_junit.stdout.contains(&format!("name=\"{walked}\"")),
            "{walked}: {}",
            correct_junit.stdout
        );
    }
    assert!(
        !correct_junit.stdout.contains("page 3"),
        "{}",
        correct_junit.stdout
    );
    assert_eq!(repeats.code, 1, "{}", repeats.stdout);
    let found = group(&repeats, "page-repeats").expect("the finding");
    assert_eq!(found["level"], "strict");
    assert_eq!(found["rule_id"], "capabilities");
    assert_eq!(found["count"], 2, "{found}");
    let text = found.to_string();
    assert!(
        text.contains(
            "prompts/list page 2 lists 1 item(s) already listed: \\\"greet\\\" (listed on page 1)"
        ),
        "{text}"
    );
    assert!(
        text.contains("resources/list page 2 returns the nextCursor \\\"page-2\\\" it already returned on page 1"),
        "{text}"
    );
    // The walk stopped at the repeated cursor: no page 3 was asked for.
    assert!(
        repeats_junit
            .stdout
            .contains("name=\"resources/list page 2\""),
        "{}",
        repeats_junit.stdout
    );
    assert!(
        !repeats_junit.stdout.contains("page 3"),
        "{}",
        repeats_junit.stdout
    );
}

#[test]
fn an_installed_checker_validates_replies_from_any_directory() {
    // Issue 47: the released schemas are built into the binary. Run from a directory with no
    // `../shared/schemas/mcp` and without MCP_SCHEMA_DIR, the checker still validates every
    // reply, and finds a tools/list result without `tools` (ListToolsResult requires it).
    let cwd = std::env::temp_dir().join(format!("mcpwire-embedded-{}", std::process::id()));
    std::fs::create_dir_all(&cwd).unwrap();
    let script = fixture("tool_server.py");
    let run = |defect: &str| {
        let output = std::process::Command::new(check_support::check_bin())
            .current_dir(&cwd)
            .env_remove("MCP_SCHEMA_DIR")
            .args(["--stdio", "--no-fixed", "--cases", "0", "--capabilities"])
            .args([
                "--timeout",
                "2",
                "--format",
                "json",
                "--",
                "python3",
                &script,
            ])
            .arg(defect)
            .output()
            .expect("the checker runs");
        let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
        (output.status.code(), report)
    };
    let ((code, broken), (correct_code, correct)) =
        both(|| run("list-without-tools"), || run("correct"));
    let _ = std::fs::remove_dir_all(&cwd);
    for report in [&broken, &correct] {
        assert_eq!(report["reply_schema"]["checked"], true, "{report}");
        let file = report["reply_schema"]["file"].as_str().unwrap();
        assert!(file.contains("built into mcpwire"), "{file}");
    }
    assert_eq!(correct_code, Some(0), "{correct}");
    assert_eq!(code, Some(1), "{broken}");
    let cases = broken["case_findings"].as_array().unwrap();
    let listed = cases
        .iter()
        .find(|c| c["label"].as_str().unwrap().starts_with("tools/list"))
        .unwrap_or_else(|| panic!("no tools/list finding: {broken}"));
    assert_eq!(
        listed["findings"][0]["kind"], "reply-schema-invalid",
        "{listed}"
    );
}
