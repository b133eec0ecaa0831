//! The checker is not vacuous (issue 4, property test 4): every reference defect is caught
//! by the right violation within the default case count, in every profile where the
//! defect is observable, and the failing case shrinks to a small frame.
//!
//! Default: 256 cases per (defect, profile) pair at most (the run stops at the first
//! failure and shrinks it); `MCPWIRE_PROPTEST_CASES` raises it.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use mcpwire_proptest::config::config_at;
use mcpwire_proptest::faulty::{self, ReplyFn};
use mcpwire_proptest::mutations::{Case, case};
use mcpwire_proptest::{ViolationKind as K, Vocabulary, check_expected};
use mcpwire_types::ProfileFacts;
use mcpwire_types::facts::ALL;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{TestCaseError, TestError, TestRunner};

const DEFAULT_CASES: u32 = 256;

struct Expectation {
    defect: ReplyFn,
    /// The violation the defect must be caught by.
    caught_by: K,
    /// Other violations the same defect may also cause (e.g. inside a batch).
    also: &'static [K],
    /// Profiles where the defect shows.
    observable: fn(&ProfileFacts) -> bool,
}

fn everywhere(_: &ProfileFacts) -> bool {
    true
}

fn with_batches(profile: &ProfileFacts) -> bool {
    profile.batches
}

/// The default number of generated cases for every profile, generated once and shared
/// by all the tests of this file.
fn shared_cases(profile: &ProfileFacts) -> &'static [Case] {
    static CASES: OnceLock<Vec<Vec<Case>>> = OnceLock::new();
    let all = CASES.get_or_init(|| {
        ALL.iter()
            .map(|profile| {
                let strategy = case(profile, Vocabulary::DEFAULT);
                let mut runner = TestRunner::new(config_at(file!(), DEFAULT_CASES));
                (0..runner.config().cases)
                    .map(|_| strategy.new_tree(&mut runner).expect("a case").current())
                    .collect()
            })
            .collect()
    });
    let index = ALL
        .iter()
        .position(|p| p == profile)
        .expect("a known profile");
    &all[index]
}

/// The kinds of all violations the checker finds in the defect's replies to the default
/// number of generated cases.
fn violations_seen(profile: &ProfileFacts, defect: ReplyFn) -> BTreeSet<K> {
    let mut seen = BTreeSet::new();
    for case in shared_cases(profile) {
        let replies = defect(profile, &case.frame);
        let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
        if let Err(violations) = check_expected(profile, &case.expected, &replies) {
            seen.extend(violations.iter().map(|v| v.kind()));
        }
    }
    seen
}

/// Runs the defect as a property until it fails and shrinks the failing case.
fn shrunk_failure(profile: &ProfileFacts, defect: ReplyFn) -> Option<Case> {
    let mut runner = TestRunner::new(config_at(file!(), DEFAULT_CASES));
    let result = runner.run(&case(profile, Vocabulary::DEFAULT), |case| {
        let replies = defect(profile, &case.frame);
        let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
        match check_expected(profile, &case.expected, &replies) {
            Ok(()) => Ok(()),
            Err(violations) => Err(TestCaseError::fail(violations[0].to_string())),
        }
    });
    match result {
        Err(TestError::Fail(_, case)) => Some(case),
        Err(TestError::Abort(reason)) => panic!("aborted: {reason}"),
        Ok(()) => None,
    }
}

fn assert_caught(name: &str, expectation: Expectation) {
    let allowed = |kind: &K| *kind == expectation.caught_by || expectation.also.contains(kind);
    let mut profiles = 0;
    for profile in ALL.iter().filter(|p| (expectation.observable)(p)) {
        profiles += 1;
        let seen = violations_seen(profile, expectation.defect);
        assert!(
            seen.contains(&expectation.caught_by),
            "{name} in {}: not caught as {:?} within {DEFAULT_CASES} cases; saw {seen:?}",
            profile.name,
            expectation.caught_by
        );
        let wrong: Vec<_> = seen.iter().filter(|k| !allowed(k)).collect();
        assert!(
            wrong.is_empty(),
            "{name} in {}: unrelated violations {wrong:?}",
            profile.name
        );

        // Shrinking: the minimal failing case is still caught, rightly, and is small.
        let minimal =
            shrunk_failure(profile, expectation.defect).expect("the defect fails the property");
        let replies = (expectation.defect)(profile, &minimal.frame);
        let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
        let violations =
            check_expected(profile, &minimal.expected, &replies).expect_err("minimal case fails");
        assert!(
            violations.iter().all(|v| allowed(&v.kind())),
            "{name}: {violations:?}"
        );
        assert!(
            minimal.frame.len() <= 200,
            "{name} in {}: shrunk to {} bytes: {minimal:?}",
            profile.name,
            minimal.frame.len()
        );
    }
    assert!(profiles > 0);
}

macro_rules! defect_test {
    ($name:ident, $caught_by:expr, $also:expr, $observable:expr) => {
        #[test]
        fn $name() {
            assert_caught(
                stringify!($name),
                Expectation {
                    defect: faulty::$name,
                    caught_by: $caught_by,
                    also: $also,
                    observable: $observable,
                },
            );
        }
    };
}

defect_test!(
    no_reply_to_envelope_errors,
    K::MissingReply,
    &[K::BatchCountMismatch, K::UnreadableInputUnanswered],
    everywhere
);
defect_test!(
    null_instead_of_readable_id,
    K::IdLostAlthoughRecoverable,
    &[],
    everywhere
);
defect_test!(invented_id, K::FabricatedId, &[K::IdNotEchoed], everywhere);
defect_test!(
    parse_error_for_valid_json,
    K::UnexpectedCode,
    &[],
    everywhere
);
defect_test!(
    reply_to_notifications,
    K::ReplyToNotification,
    &[K::ReplyToBatchWithoutRequests, K::BatchCountMismatch],
    everywhere
);
defect_test!(
    ids_through_f64,
    K::IdTypeOrPrecisionChanged,
    &[],
    everywhere
);
defect_test!(ids_as_strings, K::IdTypeOrPrecisionChanged, &[], everywhere);
defect_test!(
    bad_ids_as_notifications,
    K::UnreadableInputUnanswered,
    &[K::BatchCountMismatch],
    everywhere
);
defect_test!(
    batch_replies_as_lines,
    K::BatchRepliesAsLines,
    &[K::BatchReplyNotArray],
    with_batches
);
defect_test!(missing_jsonrpc, K::JsonrpcMissingOrWrong, &[], everywhere);
defect_test!(error_as_string, K::ErrorObjectMalformed, &[], everywhere);
defect_test!(
    invalid_params_for_unknown_methods,
    K::UnexpectedCode,
    &[],
    everywhere
);
defect_test!(
    reply_to_responses,
    K::ReplyToResponse,
    &[K::ReplyToBatchWithoutRequests, K::BatchCountMismatch],
    everywhere
);
defect_test!(
    id_always_omitted,
    K::IdLostAlthoughRecoverable,
    &[K::NoIdSpelledWrong],
    everywhere
);

/// The reference server itself passes: the failures above come from the defects.
#[test]
fn reference_reply_is_not_caught() {
    for profile in ALL {
        let seen = violations_seen(profile, faulty::reference_reply);
        assert!(seen.is_empty(), "{}: {seen:?}", profile.name);
    }
}

/// Every defect in the public list is covered above.
#[test]
fn every_listed_defect_is_tested() {
    let names: Vec<&str> = faulty::DEFECTS.iter().map(|(name, _)| *name).collect();
    let source: String = include_str!("prop_checker_not_vacuous.rs")
        .split_whitespace()
        .collect();
    for name in names {
        assert!(
            source.contains(&format!("defect_test!({name},")),
            "{name} has no test"
        );
    }
}
