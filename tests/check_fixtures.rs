//! `mcpwire check` against fixture servers, one per real defect class
//! (tests/fixtures/servers/faulty_mcp_server.py): each run exits 1 and names the right rule;
//! the same script without a defect passes; a crashing and a hanging server are reported and
//! restarted, not hung on; a server that cannot be checked exits 2 with a clear message.

use crate::check_support;

use std::time::Duration;

use check_support::{Run, both, check, fixture, in_parallel};

/// Checks the fixture server with `defect` (over stdio, MCP `version`), 20 generated cases
/// and a 0.5 s reply timeout unless `extra` sets them (an input left unanswered holds its case
/// for the whole timeout; the fixture answers in order within milliseconds, so the sentinel's
/// reply never needs that long).
fn check_defect(defect: &str, version: &str, extra: &[&str]) -> Run {
    let script = fixture("faulty_mcp_server.py");
    let mut args = vec!["--stdio", "--mcp-version", version, "--format", "json"];
    args.extend(extra);
    for (flag, default) in [("--cases", "20"), ("--timeout", "0.5")] {
        if !extra.contains(&flag) {
            args.extend([flag, default]);
        }
    }
    args.extend(["--", "python3", &script]);
    if !defect.is_empty() {
        args.push(defect);
    }
    check(&args)
}

/// The run exits 1 and reports `kind` under `rule`.
fn assert_caught(run: &Run, kind: &str, rule: &str) {
    assert_eq!(
        run.code, 1,
        "exit code\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    let kinds = run.failure_kinds();
    assert!(
        kinds.iter().any(|(k, r)| k == kind && r.starts_with(rule)),
        "expected {kind} under {rule}, got {kinds:?}"
    );
    assert_eq!(run.json()["passed"], false);
}

#[test]
fn the_fixture_without_a_defect_passes() {
    let versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
    let runs = in_parallel(
        versions
            .iter()
            .map(|version| move || check_defect("", version, &[]))
            .collect(),
    );
    for (version, run) in versions.iter().zip(runs) {
        assert_eq!(run.code, 0, "{version}: {}", run.stdout);
        assert_eq!(run.json()["profile"], format!("mcp-{version}"));
    }
}

macro_rules! defect {
    ($name:ident, $defect:literal, $version:literal, $kind:literal, $rule:literal) => {
        #[test]
        fn $name() {
            assert_caught(&check_defect($defect, $version, &[]), $kind, $rule);
        }
    };
}

#[test]
fn no_reply_to_envelope_errors() {
    // Issue 47 item 3: dropped input whose id was readable (an invalid call) leaves a client
    // waiting (`missing-reply`); dropped input with no readable id (not JSON) leaves nobody
    // waiting, and is its own kind under one rule, so one baseline line can accept it.
    // The JSON report and the table, side by side: each dropped input holds its case for the
    // whole 0.5 s timeout, so each run takes about half a minute of waiting.
    let script = fixture("faulty_mcp_server.py");
    let (run, text) = both(
        || check_defect("silent-envelope-errors", "2025-11-25", &[]),
        || {
            check(&[
                "--stdio",
                "--cases",
                "20",
                "--timeout",
                "0.5",
                "--",
                "python3",
                &script,
                "silent-envelope-errors",
            ])
        },
    );
    assert_caught(&run, "missing-reply", "wire rule 6");
    assert_caught(&run, "unreadable-input-unanswered", "wire rule 4");
    let report = run.json();
    let waiting = report["client_waiting_cases"].as_u64().unwrap();
    let missing = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "missing-reply")
        .map(|g| g["count"].as_u64().unwrap())
        .sum::<u64>();
    assert!(waiting >= missing && missing > 0, "{report}");
    assert!(
        !report["failures"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["kind"] == "unreadable-input-unanswered" && g["rule_id"] != "rule-4"),
        "{report}"
    );
    // The table leads with it: before the rule table.
    let lines: Vec<&str> = text.stdout.lines().collect();
    let at = |needle: &str| lines.iter().position(|l| l.contains(needle));
    let line = at("leave a client waiting").expect("the waiting line");
    assert!(
        lines[line].starts_with(&format!("{waiting} case(s) of")),
        "{}",
        text.stdout
    );
    assert!(
        line < at("passed").expect("the rule table"),
        "{}",
        text.stdout
    );
}

#[test]
fn one_baseline_line_accepts_silence_on_unreadable_input() {
    // The official SDKs stay silent on stdio input they cannot parse: one line accepts that
    // choice, and what is left to fail the run is what leaves a client waiting.
    let dir = std::env::temp_dir().join(format!("mcpwire-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("expect.txt");
    std::fs::write(&file, "rule-4 unreadable-input-unanswered\n").unwrap();
    let run = check_defect(
        "silent-envelope-errors",
        "2025-11-25",
        &["--expect-failures", file.to_str().unwrap()],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let report = run.json();
    let unexpected: Vec<&str> = report["unexpected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    assert!(
        unexpected.iter().all(|u| u.ends_with(" missing-reply")) && !unexpected.is_empty(),
        "{unexpected:?}"
    );
    assert!(report["stale"].as_array().unwrap().is_empty(), "{report}");
}
defect!(
    null_instead_of_the_readable_id,
    "null-id",
    "2025-11-25",
    "id-lost-although-recoverable",
    "wire rule 4"
);
defect!(
    invented_id,
    "invented-id",
    "2025-11-25",
    "fabricated-id",
    "wire rule 4"
);
defect!(
    parse_error_for_valid_json,
    "parse-error-for-valid-json",
    "2025-11-25",
    "unexpected-code",
    "wire rule 6"
);
defect!(
    reply_to_notifications,
    "reply-to-notifications",
    "2025-11-25",
    "reply-to-notification",
    "wire rule 7"
);
defect!(
    ids_through_f64,
    "f64-ids",
    "2025-11-25",
    "id-value-changed",
    "wire rule 4"
);
defect!(
    ids_echoed_as_strings,
    "string-ids",
    "2025-11-25",
    "id-value-changed",
    "wire rule 4"
);
defect!(
    bad_ids_turned_into_notifications,
    "bad-ids-as-notifications",
    "2025-11-25",
    "unreadable-input-unanswered",
    "wire rule 4"
);
#[test]
fn an_echoed_forbidden_id_is_named_as_echoed_not_invented() {
    // Issue 47: `{"id":1.5,…}` answered -32600 with "id":1.5 under MCP 2025-11-25 (ids are
    // strings or integers): the server echoed an id it could not read; it invented none.
    let run = check_defect("echo-forbidden-ids", "2025-11-25", &["--cases", "0"]);
    assert_caught(&run, "forbidden-id-echoed", "wire rule 4");
    let kinds = run.failure_kinds();
    assert!(
        !kinds.iter().any(|(k, _)| k == "fabricated-id"),
        "{kinds:?}"
    );
    let report = run.json();
    let cases = report["case_findings"].as_array().unwrap();
    let case = cases
        .iter()
        .find(|c| c["label"] == "id 1.5")
        .expect("id 1.5");
    assert_eq!(case["findings"][0]["kind"], "forbidden-id-echoed", "{case}");
}

#[test]
fn batch_replies_as_separate_lines_are_strict() {
    // JSON-RPC 2.0 §6 says a server "should" answer a batch with one array (lower-case): a
    // strict finding, which fails the run only under --strict.
    let (run, strict) = both(
        || check_defect("batch-as-lines", "2025-03-26", &[]),
        || check_defect("batch-as-lines", "2025-03-26", &["--strict"]),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report = run.json();
    let group = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "batch-replies-as-lines")
        .unwrap_or_else(|| panic!("reported: {report}"));
    assert_eq!(group["level"], "strict");
    assert_eq!(report["violations"], 0);
    assert_caught(&strict, "batch-replies-as-lines", "wire rule 9");
}
defect!(
    missing_jsonrpc,
    "missing-jsonrpc",
    "2025-11-25",
    "jsonrpc-missing-or-wrong",
    "wire rule 10"
);
defect!(
    error_as_a_string,
    "error-as-string",
    "2025-11-25",
    "error-object-malformed",
    "wire rule 10"
);
defect!(
    invalid_params_for_unknown_methods,
    "invalid-params-for-unknown",
    "2025-11-25",
    "unexpected-code",
    "wire rule 7"
);
defect!(
    reply_to_responses,
    "reply-to-responses",
    "2025-11-25",
    "reply-to-response",
    "wire rule 8"
);
defect!(
    id_always_omitted,
    "omit-id",
    "2025-11-25",
    "id-lost-although-recoverable",
    "wire rule 4"
);
defect!(
    id_always_omitted_where_null_is_required,
    "omit-id",
    "2025-06-18",
    "no-id-spelled-wrong",
    "wire rule 10"
);

#[test]
fn a_crashing_server_is_restarted_and_reported() {
    let run = check_defect("crash", "2025-11-25", &[]);
    assert_caught(&run, "server-exited", "server liveness");
    let report = run.json();
    assert!(
        report["restarts"].as_u64().unwrap() >= 1,
        "restarted: {report}"
    );
    let failure = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "server-exited")
        .map(|g| &g["cases"][0])
        .expect("server-exited");
    assert!(
        failure["message"]
            .as_str()
            .unwrap()
            .contains("server exited"),
        "{failure}"
    );
    // Every case still ran: the server came back after each crash.
    assert_eq!(
        report["cases"],
        report["fixed_cases"].as_u64().unwrap() + 20
    );
}

#[test]
fn a_hanging_server_is_reported_not_hung_on() {
    let run = check_defect("hang", "2025-11-25", &["--timeout", "0.5", "--cases", "0"]);
    assert_caught(&run, "no-reply-within-timeout", "server liveness");
    let report = run.json();
    let message = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "no-reply-within-timeout")
        .and_then(|g| g["cases"][0]["message"].as_str())
        .expect("no-reply-within-timeout")
        .to_owned();
    assert!(
        message.starts_with("no reply within 0.5s to id mcpwire-sentinel-"),
        "{message}"
    );
    assert!(
        run.elapsed < Duration::from_secs(60),
        "took {:?}",
        run.elapsed
    );
}

#[test]
fn a_command_that_cannot_start_exits_2() {
    let run = check(&["--stdio", "--", "/nonexistent/mcp-server", "--flag"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("cannot start the server command `/nonexistent/mcp-server --flag`"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn a_server_that_writes_nothing_exits_2_naming_the_startup_timeout() {
    let run = check(&[
        "--stdio",
        "--startup-timeout",
        "0.5",
        "--",
        "python3",
        "-c",
        "import time; time.sleep(30)",
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("the server wrote nothing on stdout within 0.5s of starting"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("raise --startup-timeout"),
        "{}",
        run.stderr
    );
    let run = check(&["--stdio", "--", "python3", "-c", "import sys; sys.exit(4)"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("did not answer initialize: server exited (exit status: 4)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_server_that_writes_a_log_line_and_exits_is_judged() {
    // It wrote bytes, so the checker ran: the log line and the unanswered initialize are
    // findings (exit 1), not a failure to run.
    let run = check(&[
        "--stdio",
        "--format",
        "json",
        "--",
        "python3",
        "-c",
        "print('not json')",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = run.json();
    let kinds: Vec<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"stdout-not-protocol"), "{kinds:?}");
    assert!(kinds.contains(&"server-exited"), "{kinds:?}");
    assert!(
        report["aborted"]
            .as_str()
            .unwrap()
            .contains("did not answer initialize"),
        "{report}"
    );
}

#[test]
fn an_unreachable_url_exits_2() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let run = check(&["--http", &url, "--timeout", "2"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("cannot reach the server at {url}")),
        "{}",
        run.stderr
    );
    // https is spoken now (tests/check_https.rs); a closed port is unreachable all the same.
    let run = check(&["--http", "https://127.0.0.1:1/mcp"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("cannot reach the server at https://127.0.0.1:1/mcp"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_http_url_that_is_not_an_mcp_endpoint_exits_2_naming_it() {
    // A static file server answers POST with 501; a wrong path on an MCP server with a 404
    // page. Neither is a server breaking rules: nothing of the protocol came back.
    let statics = check_support::HttpServer::start(
        "python3",
        &[
            "-c",
            "import http.server, sys\n\
             s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), http.server.SimpleHTTPRequestHandler)\n\
             sys.stderr.write('serving http://127.0.0.1:%d/\\n' % s.server_address[1]); sys.stderr.flush()\n\
             s.serve_forever()",
        ],
    );
    let mcp = check_support::HttpServer::start("python3", &[&fixture("faulty_mcp_http_server.py")]);
    let wrong = mcp.url.replace("/mcp", "/wrong");
    for (url, status) in [(&statics.url, "HTTP 501"), (&wrong, "HTTP 404")] {
        for format in ["table", "json"] {
            let run = check(&["--http", url, "--timeout", "5", "--format", format]);
            assert_eq!(run.code, 2, "{url}: {run:?}");
            assert!(
                run.stderr
                    .contains(&format!("{url} is not an MCP endpoint")),
                "{}",
                run.stderr
            );
            assert!(run.stderr.contains(status), "{}", run.stderr);
            assert!(run.stderr.contains("text/html"), "{}", run.stderr);
            if format == "json" {
                assert!(
                    run.json()["error"]
                        .as_str()
                        .unwrap()
                        .contains("is not an MCP endpoint")
                );
            }
        }
    }
}
