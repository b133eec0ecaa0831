//! Issue 35: `mcpwire check` and `mcpwire-proptest` judge by one table of finding kinds and
//! levels. The shipped binary's `--list-kinds` is the library's table, line for line, and the
//! kinds and levels a user relies on are pinned here.

use std::process::Command;

use mcpwire_proptest::findings::{KINDS, Level, listing};

/// Kinds whose level users build baselines on (`--expect-failures`, `ServerCheck::strict`).
const PINNED: &[(&str, Level)] = &[
    ("missing-reply", Level::Violation),
    ("unexpected-code", Level::Violation),
    ("id-value-changed", Level::Violation),
    ("id-lost-although-recoverable", Level::Violation),
    ("fabricated-id", Level::Violation),
    ("forbidden-id-echoed", Level::Violation),
    ("no-id-spelled-wrong", Level::Violation),
    ("reply-to-notification", Level::Violation),
    ("reply-to-response", Level::Violation),
    ("id-spelling-changed", Level::Strict),
    ("duplicate-member-accepted", Level::Strict),
    ("duplicate-id-in-reply", Level::Strict),
    ("rpc-method-code", Level::Strict),
    ("params-null-accepted", Level::Strict),
    ("big-id-refused", Level::Strict),
    ("nesting-limit", Level::Strict),
    ("size-limit", Level::Strict),
    ("non-json-accepted", Level::Strict),
    ("leading-bom-refused", Level::Strict),
    ("reply-to-blank-line", Level::Strict),
    ("params-array-accepted", Level::Strict),
    ("result-or-error-in-call-accepted", Level::Strict),
    ("reply-schema-invalid", Level::Violation),
];

#[test]
fn list_kinds_prints_the_librarys_table() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpwire"))
        .args(["check", "--list-kinds"])
        .output()
        .expect("run mcpwire check --list-kinds");
    assert_eq!(output.status.code(), Some(0));
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(printed, listing());
    for (name, level) in PINNED {
        let line = format!("{name:<32} {level}");
        assert!(
            printed.lines().any(|l| l == line),
            "{line} not listed:\n{printed}"
        );
    }
}

#[test]
fn the_cli_reads_the_same_kinds_and_levels() {
    for (name, level) in PINNED {
        let kind = mcpwire_cli::check::kinds::kind(name).expect(name);
        assert_eq!(kind.level, *level, "{name}");
        assert_eq!(mcpwire_proptest::findings::level_of(name), *level, "{name}");
    }
    assert!(std::ptr::eq(mcpwire_cli::check::kinds::KINDS, KINDS));
}

/// `mcpwire check`'s judge and `check_server`'s judge give the same kinds at the same levels for
/// the same exchange: generated cases answered by the reference server and by each of its
/// reference defects.
#[test]
fn both_judges_agree_on_generated_exchanges() {
    use mcpwire_cli::check::cases::CheckCase;
    use mcpwire_cli::check::exchange::Exchange;
    use mcpwire_proptest::facts::{MCP_2025_03_26, MCP_2025_11_25};
    use mcpwire_proptest::findings::{batch_oracle, judge, readings};
    use mcpwire_proptest::{Vocabulary, faulty, mutations::case};
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, TestRunner};

    let servers: &[faulty::ReplyFn] = &[
        faulty::reference_reply,
        faulty::ids_through_f64,
        faulty::null_instead_of_readable_id,
        faulty::no_reply_to_envelope_errors,
        faulty::ids_as_strings,
        faulty::batch_replies_as_lines,
        faulty::reply_to_responses,
    ];
    let methods = Vocabulary::DEFAULT.methods();
    let mut runner = TestRunner::new(Config {
        rng_seed: proptest::test_runner::RngSeed::Fixed(35),
        ..Config::default()
    });
    let (mut compared, mut violations, mut strict) = (0, 0, 0);
    for facts in [&MCP_2025_11_25, &MCP_2025_03_26] {
        let strategy = case(facts, Vocabulary::DEFAULT);
        for _ in 0..60 {
            let generated = strategy.new_tree(&mut runner).expect("a case").current();
            for server in servers {
                let replies = server(facts, &generated.frame);
                let library: Vec<_> = judge(
                    facts,
                    methods,
                    &generated.frame,
                    &generated.expected,
                    &replies,
                )
                .into_iter()
                .map(|f| (f.kind.to_owned(), f.level))
                .collect();
                let case = CheckCase {
                    label: generated.mutation.name().to_owned(),
                    frame: generated.frame.clone(),
                    expected: generated.expected.clone(),
                    generated: None,
                    batch_reading: batch_oracle(facts, &generated.frame, methods),
                    readings: readings(facts, &generated.frame, methods),
                };
                let exchange = Exchange {
                    replies,
                    ..Exchange::default()
                };
                let cli: Vec<_> = mcpwire_cli::check::judge::judge(facts, &case, &exchange)
                    .into_iter()
                    .map(|f| (f.kind, f.level))
                    .collect();
                assert_eq!(
                    cli,
                    library,
                    "{}",
                    String::from_utf8_lossy(&generated.frame)
                );
                compared += 1;
                violations += library.iter().filter(|f| f.1 == Level::Violation).count();
                strict += library.iter().filter(|f| f.1 == Level::Strict).count();
            }
        }
    }
    assert_eq!(compared, 2 * 60 * servers.len());
    // Not vacuous: both levels were judged, many times.
    assert!(
        violations > 50 && strict > 5,
        "{violations} violations, {strict} strict"
    );
}

/// The inputs JSON-RPC 2.0 or RFC 8259 read another way than the MCP schema (issue 29: invalid
/// UTF-8 decoded leniently, params by position, a call with `result`/`error` members) are judged
/// alike by both: strict where the reply is right under the other reading, a violation for what
/// is wrong under both.
#[test]
fn both_judges_read_inputs_the_same_other_ways() {
    use mcpwire_cli::check::cases::CheckCase;
    use mcpwire_cli::check::exchange::Exchange;
    use mcpwire_proptest::facts::MCP_2025_11_25 as FACTS;
    use mcpwire_proptest::findings::{batch_oracle, judge, readings};
    use mcpwire_proptest::{Methods, derive_expected};

    let methods = Methods::Known(&["ping"]);
    /// An input, the server's replies, and the findings both judges must give.
    type Exchanged<'a> = (&'a [u8], &'a [&'a str], &'a [(&'a str, Level)]);
    let exchanges: &[Exchanged<'_>] = &[
        (
            b"{\"jsonrpc\":\"2.0\",\"method\":\"p\xed\xa0\x80i\\u006eg\"}",
            &[],
            &[("non-json-accepted", Level::Strict)],
        ),
        (
            br#"{"jsonrpc":"2.0","method":"ping","params":[]}"#,
            &[],
            &[("params-array-accepted", Level::Strict)],
        ),
        (
            br#"{"jsonrpc":"2.0","id":14,"method":"ping","result":{}}"#,
            &[r#"{"jsonrpc":"2.0","id":14,"result":{}}"#],
            &[("result-or-error-in-call-accepted", Level::Strict)],
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"\xff\"}",
            &[r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32603,"message":"m"}}"#],
            &[
                ("fabricated-id", Level::Violation),
                ("non-json-accepted", Level::Strict),
            ],
        ),
    ];
    for (frame, replies, want) in exchanges {
        let expected = derive_expected(&FACTS, frame, methods);
        let replies: Vec<Vec<u8>> = replies.iter().map(|r| r.as_bytes().to_vec()).collect();
        let mut library: Vec<_> = judge(&FACTS, methods, frame, &expected, &replies)
            .into_iter()
            .map(|f| (f.kind.to_owned(), f.level))
            .collect();
        let case = CheckCase {
            label: "reading".into(),
            frame: frame.to_vec(),
            expected,
            generated: None,
            batch_reading: batch_oracle(&FACTS, frame, methods),
            readings: readings(&FACTS, frame, methods),
        };
        let exchange = Exchange {
            replies,
            ..Exchange::default()
        };
        let mut cli: Vec<_> = mcpwire_cli::check::judge::judge(&FACTS, &case, &exchange)
            .into_iter()
            .map(|f| (f.kind, f.level))
            .collect();
        library.sort();
        cli.sort();
        let want: Vec<_> = want.iter().map(|(k, l)| ((*k).to_owned(), *l)).collect();
        let shown = String::from_utf8_lossy(frame);
        assert_eq!(library, want, "library: {shown}");
        assert_eq!(cli, want, "cli: {shown}");
    }
}
