//! Compiling a JSON Schema that the server under test supplied (a tool's `inputSchema` or
//! `outputSchema`): the server is not trusted, so validating against its schema must cost time
//! linear in the instance, whatever the schema says.
//!
//! JSON Schema's `pattern` is an ECMA-262 regular expression. jsonschema's default engine,
//! fancy-regex, backtracks for lookaround and backreferences, bounded only by a limit of
//! 1,000,000 steps a string: a hostile pattern then costs milliseconds for every string of the
//! instance (issue 46). Here patterns run on the `regex` crate's finite automata (linear in
//! the string); only a schema whose patterns need backtracking falls back to fancy-regex, with
//! a limit of [`BACKTRACK_LIMIT`] steps a string.

use serde_json::Value;

/// The backtracking steps a `pattern` that needs them may take on one string.
pub const BACKTRACK_LIMIT: usize = 10_000;

/// A validator for `schema`, a JSON Schema from the server under test.
pub fn untrusted_validator(
    schema: &Value,
) -> Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    jsonschema::options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(schema)
        .or_else(|_| {
            jsonschema::options()
                .with_pattern_options(
                    jsonschema::PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT),
                )
                .build(schema)
        })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    /// A backreference inside nested quantifiers makes fancy-regex backtrack on every string
    /// that fails the pattern, up to its limit: each such string costs about 100 ms of CPU with
    /// jsonschema's default limit (a debug build), about 1 ms here; every error of 50 strings
    /// is asked for, as the checker does. Patterns that
    /// need no backtracking, or lookaround only, still give the same verdicts.
    #[test]
    fn a_hostile_pattern_costs_a_bounded_time_per_string() {
        let hostile = json!({ "type": "array", "items": { "pattern": "^((a+)\\2?)+$" } });
        let strings: Vec<String> = (0..50).map(|i| format!("{}c{i}", "a".repeat(28))).collect();
        let strings = json!(strings);
        let validator = untrusted_validator(&hostile).unwrap();
        let started = thread_cpu();
        assert!(validator.iter_errors(&strings).count() > 0);
        let took = thread_cpu() - started;
        assert!(took < Duration::from_secs(1), "{took:?} for 50 strings");

        let plain = untrusted_validator(&json!({ "pattern": "^(a+)+$" })).unwrap();
        assert!(plain.is_valid(&json!("aaaa")));
        assert!(!plain.is_valid(&json!(format!("{}b", "a".repeat(100_000)))));
        let lookahead = untrusted_validator(&json!({ "pattern": "^(?=x)x+$" })).unwrap();
        assert!(lookahead.is_valid(&json!("xx")));
        assert!(!lookahead.is_valid(&json!("yx")));
    }

    /// The CPU time this thread has used.
    fn thread_cpu() -> Duration {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
    }
}
