//! Issue 35's proof: the newcomer's hand-written serde_json server under `check_server`, with
//! `mcpwire-proptest` as the only dev-dependency. Each planted defect is found and reported with
//! the exact input, replies and seed; the server's strict-only deviations pass by default and
//! fail under `strict(true)`; a failure is saved and replayed first by the next run.

use std::path::PathBuf;

use mcpwire_newcomer_server::{Defect, METHODS, reply};
use mcpwire_proptest::facts::MCP_2025_11_25;
use mcpwire_proptest::findings::judge;
use mcpwire_proptest::literal::byte_literal;
use mcpwire_proptest::{
    Level, Methods, ServerCheck, ServerCheckFailure, Vocabulary, check_server, derive_expected,
};

/// The server's methods, and names it must answer -32601.
const VOCABULARY: Vocabulary = Vocabulary {
    known: METHODS,
    unknown: &["no/such/method", "tools/unknown", "Ping", ""],
};

/// A scratch copy of a test source file in a fresh directory, so a test that expects a
/// failure saves it there (its regression file) and not beside this file.
fn scratch_source(name: &str) -> &'static str {
    let dir = std::env::temp_dir().join(format!("mcpwire-newcomer-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source: PathBuf = dir.join(format!("{name}.rs"));
    std::fs::write(&source, "// stands for a test file\n").expect("scratch source");
    let _ = std::fs::remove_file(source.with_extension("proptest-regressions"));
    Box::leak(source.to_string_lossy().into_owned().into_boxed_str())
}

fn check_defect(defect: Defect, seed: u64) -> Box<ServerCheckFailure> {
    let source = scratch_source(&format!("{defect:?}-{seed}"));
    let make = || move |frame: &[u8]| reply(defect, frame);
    let options = ServerCheck::with_cases(64)
        .seed(seed)
        .regressions_beside(source);
    let failure =
        check_server(make, &MCP_2025_11_25, VOCABULARY, &options).expect_err("the defect is found");
    let _ = std::fs::remove_dir_all(PathBuf::from(source).parent().expect("dir"));
    failure
}

/// The message carries the exact input and replies as pasteable byte literals, the expected
/// reply, the rule and the seed; pasting the input into the server reproduces the finding.
fn assert_reproducible(defect: Defect, failure: &ServerCheckFailure, kind: &str) {
    let message = failure.to_string();
    assert_eq!(format!("{failure:?}"), message, "Debug reads like Display");
    assert!(message.contains(&byte_literal(&failure.frame)), "{message}");
    for reply in &failure.replies {
        assert!(message.contains(&byte_literal(reply)), "{message}");
    }
    assert!(
        message.contains(&format!("PROPTEST_RNG_SEED={}", failure.seed)),
        "{message}"
    );
    assert!(message.contains("expected: "), "{message}");
    let finding = failure.findings.iter().find(|f| f.kind == kind);
    let finding = finding.unwrap_or_else(|| panic!("{kind} expected:\n{message}"));
    assert_eq!(finding.level, Level::Violation, "{message}");
    assert!(
        message.contains(&format!("{kind} (violation) under {}", finding.rule)),
        "{message}"
    );
    // Replaying the exact input gives the exact replies and the same finding.
    let replies = reply(defect, &failure.frame);
    assert_eq!(replies, failure.replies, "{message}");
    let expected = derive_expected(&MCP_2025_11_25, &failure.frame, Methods::Known(METHODS));
    let methods = Methods::Known(METHODS);
    let again = judge(
        &MCP_2025_11_25,
        methods,
        &failure.frame,
        &expected,
        &replies,
    );
    assert!(again.iter().any(|f| f.kind == kind), "{message}");
}

#[test]
fn ids_through_f64_are_found_with_a_pasteable_report() {
    for seed in [1, 2] {
        let failure = check_defect(Defect::IdsThroughF64, seed);
        assert_reproducible(Defect::IdsThroughF64, &failure, "id-value-changed");
        assert_eq!(failure.seed, seed);
    }
}

#[test]
fn a_null_id_on_an_invalid_request_is_found() {
    for seed in [1, 2] {
        let failure = check_defect(Defect::NullIdOnInvalidRequest, seed);
        // MCP 2025-11-25 omits the id it cannot read, so `"id":null` is also spelt wrong: where
        // the id is beyond 2^53 (whose refusal is permitted) that is the finding left.
        let kind = if failure.has("id-lost-although-recoverable") {
            "id-lost-although-recoverable"
        } else {
            "no-id-spelled-wrong"
        };
        assert_reproducible(Defect::NullIdOnInvalidRequest, &failure, kind);
    }
}

#[test]
fn a_dropped_parse_error_is_found_and_shrunk_small() {
    for seed in [1, 2] {
        let failure = check_defect(Defect::DroppedParseError, seed);
        assert_reproducible(
            Defect::DroppedParseError,
            &failure,
            "unreadable-input-unanswered",
        );
        assert!(
            failure.frame.len() <= 16,
            "shrunk to {} bytes:\n{failure}",
            failure.frame.len()
        );
    }
}

/// The server deviates from mcpwire's policy only where the specs permit it: it passes by
/// default, and fails on a strict finding with `strict(true)`.
#[test]
fn strict_only_deviations_pass_by_default_and_fail_under_strict() {
    let make = || |frame: &[u8]| reply(Defect::None, frame);
    let options = ServerCheck::with_cases(192);
    if let Err(failure) = check_server(make, &MCP_2025_11_25, VOCABULARY, &options) {
        panic!("the server without a defect must pass:\n{failure}");
    }
    let source = scratch_source("strict");
    let strict = options.strict(true).seed(3).regressions_beside(source);
    let failure = check_server(make, &MCP_2025_11_25, VOCABULARY, &strict)
        .expect_err("a strict finding under strict(true)");
    assert!(failure.strict);
    assert!(
        failure.findings.iter().all(|f| f.level == Level::Strict),
        "only strict findings:\n{failure}"
    );
    assert!(failure.failing().count() > 0, "{failure}");
    let _ = std::fs::remove_dir_all(PathBuf::from(source).parent().expect("dir"));
}

/// The crate's reference server follows mcpwire's policy exactly: it passes even under strict.
#[test]
fn the_correct_server_passes_even_under_strict() {
    let make = || |frame: &[u8]| mcpwire_proptest::faulty::reference_reply(&MCP_2025_11_25, frame);
    let options = ServerCheck::with_cases(128).strict(true);
    if let Err(failure) = check_server(make, &MCP_2025_11_25, Vocabulary::DEFAULT, &options) {
        panic!("the reference server must pass under strict:\n{failure}");
    }
}

/// A failure is saved beside the calling test and the next run replays it before any new case,
/// whatever its seed.
#[test]
fn a_failure_is_saved_and_replayed_first() {
    let source = scratch_source("persist");
    let file = PathBuf::from(source).with_extension("proptest-regressions");
    let make = || |frame: &[u8]| reply(Defect::IdsThroughF64, frame);
    let first = check_server(
        make,
        &MCP_2025_11_25,
        VOCABULARY,
        &ServerCheck::with_cases(64)
            .seed(11)
            .regressions_beside(source),
    )
    .expect_err("found");
    assert!(!first.replayed, "{first}");
    let saved = std::fs::read_to_string(&file).expect("the regression file is written");
    assert!(saved.lines().any(|l| l.starts_with("cc ")), "{saved}");
    assert_eq!(first.regressions.as_deref(), Some(file.as_path()));
    assert!(
        first.to_string().contains(&file.display().to_string()),
        "{first}"
    );

    let second = check_server(
        make,
        &MCP_2025_11_25,
        VOCABULARY,
        &ServerCheck::with_cases(64)
            .seed(12)
            .regressions_beside(source),
    )
    .expect_err("replayed");
    assert!(second.replayed, "{second}");
    assert!(
        second
            .to_string()
            .contains("replayed from the regression file"),
        "{second}"
    );
    assert_eq!(second.frame, first.frame);
    assert_eq!(
        std::fs::read_to_string(&file).expect("still there"),
        saved,
        "not rewritten"
    );
    let _ = std::fs::remove_dir_all(file.parent().expect("dir"));
}

/// Runs the check over a correct server and prints how many servers were built (one per case).
/// Run by `case_counts_follow_the_environment` in a child process with its environment.
#[test]
#[ignore]
fn count_cases() {
    let built = std::cell::Cell::new(0u32);
    let make = || {
        built.set(built.get() + 1);
        |frame: &[u8]| reply(Defect::None, frame)
    };
    let options = ServerCheck::with_cases(64).seed(5);
    check_server(make, &MCP_2025_11_25, VOCABULARY, &options).expect("passes");
    println!("BUILT {}", built.get());
}

/// `PROPTEST_CASES` sets the case count; `MCPWIRE_PROPTEST_CASES` wins when both are set.
#[test]
fn case_counts_follow_the_environment() {
    let built = |env: &[(&str, &str)]| {
        let mut child = std::process::Command::new(std::env::current_exe().expect("test binary"));
        child.args(["--exact", "count_cases", "--ignored", "--nocapture"]);
        child
            .env_remove("PROPTEST_CASES")
            .env_remove("MCPWIRE_PROPTEST_CASES");
        child.envs(env.iter().copied());
        let output = child.output().expect("run the test binary");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let count = stdout.lines().find_map(|l| l.strip_prefix("BUILT "));
        count
            .unwrap_or_else(|| panic!("no count:\n{stdout}"))
            .parse::<u32>()
            .expect("number")
    };
    assert_eq!(built(&[]), 64);
    assert_eq!(built(&[("PROPTEST_CASES", "7")]), 7);
    assert_eq!(
        built(&[("PROPTEST_CASES", "7"), ("MCPWIRE_PROPTEST_CASES", "9")]),
        9
    );
}
