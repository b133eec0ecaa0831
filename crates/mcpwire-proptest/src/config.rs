//! Case counts: small by default so `cargo test` stays fast, raised for a soak run
//! (`MCPWIRE_PROPTEST_CASES`, or proptest's own `PROPTEST_CASES`).

use proptest::test_runner::{Config, FileFailurePersistence};

/// The environment variable that sets the number of cases per property for a soak run.
pub const CASES_VARIABLE: &str = "MCPWIRE_PROPTEST_CASES";

/// proptest's own variable for the number of cases, honoured when
/// [`CASES_VARIABLE`] is not set.
pub const PROPTEST_CASES_VARIABLE: &str = "PROPTEST_CASES";

/// The number of cases per property: `MCPWIRE_PROPTEST_CASES` when set to a number, else
/// proptest's `PROPTEST_CASES`, else `default`.
///
/// ```
/// let cases = mcpwire_proptest::config::cases(64);
/// assert!(cases >= 1);
/// ```
pub fn cases(default: u32) -> u32 {
    [CASES_VARIABLE, PROPTEST_CASES_VARIABLE]
        .iter()
        .find_map(|name| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .filter(|&n| n > 0)
        })
        .unwrap_or(default)
}

/// A proptest configuration running [`cases`]`(default)` cases, with proptest's default failure
/// persistence (`proptest-regressions/` beside the source file), which needs the source file the
/// `proptest!` macro supplies; a [`proptest::test_runner::TestRunner`] used directly has none, so
/// use [`config_at`] there.
///
/// ```
/// use mcpwire_proptest::config::config;
/// use proptest::prelude::*;
///
/// proptest!(config(32), |(x in 0u8..10)| {
///     prop_assert!(x < 10);
/// });
/// ```
pub fn config(default: u32) -> Config {
    Config {
        cases: cases(default),
        ..Config::default()
    }
}

/// Like [`config`], for a [`proptest::test_runner::TestRunner`] used directly (outside the
/// `proptest!` macro): `source_file` (pass `file!()`) tells proptest where to persist and
/// replay shrunk failures: in `<file>.proptest-regressions` beside the source file
/// (commit it).
///
/// ```
/// use mcpwire_proptest::config::config_at;
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::new(config_at(file!(), 16));
/// runner.run(&(0u8..10), |x| { assert!(x < 10); Ok(()) }).unwrap();
/// ```
pub fn config_at(source_file: &'static str, default: u32) -> Config {
    Config {
        source_file: Some(source_file),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..config(default)
    }
}
