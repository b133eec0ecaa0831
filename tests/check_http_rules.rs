//! The HTTP rules of MCP 2026-07-28 as `mcpwire check --http` judges them (issue 29, "Past the
//! envelope" item 4): a method the server lacks gets 404 with -32601; a request whose
//! `Mcp-Method` is missing or differs from the body, whose `Mcp-Name` differs from
//! `params.name`, or whose `MCP-Protocol-Version` differs from its `_meta` gets 400 with
//! -32020. Fixture: tests/fixtures/servers/http_2026_server.py (correct, or ignoring headers);
//! and mcpwire's own conformance server in stateless mode, which implements the rules.

use crate::check_support;

use check_support::{HttpServer, Run, assert_clean, check, fixture};
use serde_json::Value;

/// Only the handshake and the HTTP-rule cases, under 2026-07-28, against `url` (JSON report).
fn rules(url: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "--http",
        url,
        "--mcp-version",
        "2026-07-28",
        "--no-fixed",
        "--cases",
        "0",
        "--timeout",
        "2",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    check(&args)
}

/// `(kind, level, labels)` of every failure group.
fn groups(run: &Run) -> Vec<(String, String, Vec<String>)> {
    run.json()["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|g| {
            let labels = g["cases"]
                .as_array()
                .expect("cases")
                .iter()
                .map(|c| c["label"].as_str().unwrap().to_owned())
                .collect();
            (
                g["kind"].as_str().unwrap().to_owned(),
                g["level"].as_str().unwrap().to_owned(),
                labels,
            )
        })
        .collect()
}

fn fixture_server(mode: &str) -> HttpServer {
    HttpServer::start("python3", &[&fixture("http_2026_server.py"), mode])
}

#[test]
fn a_server_that_keeps_the_rules_gets_no_finding() {
    let server = fixture_server("correct");
    let run = rules(&server.url, &["--strict"]);
    assert_clean(&run, "the correct 2026-07-28 HTTP fixture");
    let report = run.json();
    assert_eq!(report["profile"], "mcp-2026-07-28", "{}", run.stdout);
    // server/discover and the six HTTP-rule cases (the fixture declares tools: Mcp-Name too).
    assert_eq!(report["cases"], 7, "{}", run.stdout);
}

#[test]
fn a_server_that_ignores_the_headers_and_answers_32601_with_200_is_reported() {
    let server = fixture_server("ignores-headers");
    let run = rules(&server.url, &[]);
    assert_eq!(run.code, 1, "violations fail the run: {}", run.stdout);
    let found = groups(&run);
    let labels_of = |kind: &str| -> Vec<String> {
        found
            .iter()
            .find(|(k, _, _)| k == kind)
            .unwrap_or_else(|| panic!("no {kind} in {found:?}"))
            .2
            .clone()
    };
    let level_of = |kind: &str| -> String {
        found
            .iter()
            .find(|(k, _, _)| k == kind)
            .map(|(_, level, _)| level.clone())
            .unwrap()
    };
    // Missing or contradicting headers answered with a result: a MUST broken, once per case.
    let accepted = labels_of("http-header-mismatch-accepted");
    assert_eq!(level_of("http-header-mismatch-accepted"), "violation");
    assert_eq!(accepted.len(), 3, "{accepted:?}");
    for header in [
        "without Mcp-Method",
        "Mcp-Method: tools/list",
        "MCP-Protocol-Version",
    ] {
        assert!(
            accepted.iter().any(|l| l.contains(header)),
            "{header}: {accepted:?}"
        );
    }
    // -32601 with 200 instead of 404, for initialize and an unknown method: the transport
    // page's MUST ("it MUST respond with `404 Not Found` and … -32601").
    let status = labels_of("http-method-not-found-status");
    assert_eq!(level_of("http-method-not-found-status"), "violation");
    assert_eq!(status.len(), 2, "{status:?}");
    assert!(
        status.iter().any(|l| l.starts_with("initialize")),
        "{status:?}"
    );
    // A wrong Mcp-Name refused only because the tool is unknown (-32602): strict.
    let code = labels_of("http-header-mismatch-code");
    assert_eq!(level_of("http-header-mismatch-code"), "strict");
    assert!(code[0].contains("Mcp-Name"), "{code:?}");
    assert_eq!(found.len(), 3, "no other finding: {found:?}");
    // The text report names what came back.
    let text = check(&[
        "--http",
        &server.url,
        "--mcp-version",
        "2026-07-28",
        "--no-fixed",
        "--cases",
        "0",
    ]);
    assert_eq!(text.code, 1);
    assert!(
        text.stdout.contains("got HTTP 200 with a result"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("got HTTP 200 with the error -32601"),
        "{}",
        text.stdout
    );
}

#[test]
fn the_stateless_conformance_server_keeps_the_2026_http_rules() {
    let server = HttpServer::start(
        env!("CARGO_BIN_EXE_conformance-server"),
        &["--http", "127.0.0.1:0", "--stateless"],
    );
    let run = rules(&server.url, &["--strict"]);
    assert_clean(&run, "the stateless conformance server under 2026-07-28");
    assert_eq!(
        run.json()["cases"],
        7,
        "every HTTP-rule case sent: {}",
        run.stdout
    );
    // The envelope cases too: every POST carries the routing headers the server requires.
    let run = check(&[
        "--http",
        &server.url,
        "--mcp-version",
        "2026-07-28",
        "--cases",
        "20",
        "--seed",
        "0",
        "--format",
        "json",
    ]);
    assert_clean(&run, "envelope cases on the stateless conformance server");
    let report: Value = run.json();
    assert_eq!(report["profile"], "mcp-2026-07-28");
}

/// Only the handshake, the HTTP-rule cases and the capability cases against the fixture.
fn capabilities(mode: &str) -> Run {
    let server = fixture_server(mode);
    rules(&server.url, &["--capabilities"])
}

#[test]
fn capabilities_that_match_behaviour_get_no_finding() {
    let run = capabilities("tools-listed");
    assert_clean(
        &run,
        "tools declared and listed, prompts and resources -32601",
    );
    // server/discover, six HTTP-rule cases, three list calls.
    assert_eq!(run.json()["cases"], 10, "{}", run.stdout);
}

#[test]
fn capabilities_that_server_discover_contradicts_are_reported() {
    // Under 2026-07-28 a declared list answered with an error breaks the tools and prompts
    // pages' MUST ("Servers that declare the `tools` capability MUST respond to `tools/list`
    // requests with the set of tools …"); a list answered although undeclared breaks none.
    let server = fixture_server("capabilities-lie");
    let (run, lenient) = (
        rules(&server.url, &["--capabilities", "--strict"]),
        rules(&server.url, &["--capabilities"]),
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(lenient.code, 1, "{}", lenient.stdout);
    let found = groups(&run);
    let kinds: Vec<(&str, &str, Vec<&str>)> = found
        .iter()
        .map(|(kind, level, labels)| {
            (
                kind.as_str(),
                level.as_str(),
                labels.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "declared-list-refused",
                "violation",
                vec![
                    "tools/list (tools declared by server/discover)",
                    "prompts/list (prompts declared by server/discover)"
                ]
            ),
            (
                "undeclared-capability-answered",
                "strict",
                vec!["resources/list (resources not declared by server/discover)"]
            ),
        ],
        "{}",
        run.stdout
    );
    // Without --capabilities the list methods are not called: only the HTTP rules run.
    let server = fixture_server("capabilities-lie");
    assert_clean(
        &rules(&server.url, &[]),
        "no capability cases without the flag",
    );
}

#[test]
fn the_conformance_server_answers_every_capability_it_declares() {
    let server = HttpServer::start(
        env!("CARGO_BIN_EXE_conformance-server"),
        &["--http", "127.0.0.1:0"],
    );
    let run = check(&[
        "--http",
        &server.url,
        "--no-fixed",
        "--cases",
        "0",
        "--capabilities",
        "--strict",
        "--format",
        "json",
    ]);
    assert_clean(
        &run,
        "--capabilities on the conformance server (2025-11-25)",
    );
    // initialize, the three list calls (each list on one page), resources/templates/list, and
    // each of the four list methods with a foreign cursor, refused with -32602.
    assert_eq!(run.json()["cases"], 9, "{}", run.stdout);
}
