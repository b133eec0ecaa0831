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
