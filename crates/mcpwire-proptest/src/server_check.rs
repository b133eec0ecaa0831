//! Running generated cases against a server built fresh for every case.
//!
//! A server keeps state between frames: an MCP server switches profile when it answers
//! `initialize`, so a generated `initialize` would change how the *next* case is decoded and
//! the checker (which knows only the case's own profile) would report a false failure.
//! [`check_server`] calls `make_server` for every case (shrinking included), so each case
//! meets a server in its initial state.
//!
//! ```
//! use mcpwire_proptest::server_check::{ServerCheck, check_server};
//! use mcpwire_proptest::Vocabulary;
//! use mcpwire_types::facts::MCP_LATEST;
//!
//! // Your server: a reply function holding its own state. Here the crate's reference.
//! let make_server = || |frame: &[u8]| mcpwire_proptest::faulty::reference_reply(&MCP_LATEST, frame);
//! check_server(make_server, &MCP_LATEST, Vocabulary::DEFAULT, &ServerCheck::with_cases(32)).unwrap();
//! ```

use std::fmt;

use mcpwire_types::ProfileFacts;
use proptest::test_runner::{TestCaseError, TestError, TestRunner};
use serde_json::Value;

use crate::check::check_expected;
use crate::config::config;
use crate::message::CallBodies;
use crate::methods::Vocabulary;
use crate::mutations::case_from;
use crate::typed::call_bodies;

/// How [`check_server`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerCheck {
    /// Cases to run (`MCPWIRE_PROPTEST_CASES` overrides it, see [`config::cases`](crate::config::cases)).
    pub cases: u32,
    /// Also fail on any -32603 `Internal error` reply. The wire rules allow -32603 for a known
    /// method, so the checker alone accepts it; but a runtime that catches a panicking handler
    /// answers exactly that, and a server under test should not panic on generated input.
    pub fail_on_internal_error: bool,
    /// Draw call bodies from the typed MCP strategies of the profile's version as well
    /// ([`call_bodies`]); otherwise only arbitrary names and params from the vocabulary.
    pub typed: bool,
}

impl Default for ServerCheck {
    /// 64 cases, -32603 accepted, typed bodies on.
    fn default() -> Self {
        Self::with_cases(64)
    }
}

impl ServerCheck {
    /// The default options with `cases` cases.
    pub fn with_cases(cases: u32) -> Self {
        Self {
            cases,
            fail_on_internal_error: false,
            typed: true,
        }
    }
}

/// The shrunk case a server failed on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCheckFailure {
    /// The name of the case's mutation.
    pub mutation: &'static str,
    /// The input frame.
    pub frame: Vec<u8>,
    /// What was wrong with the replies (violations of the wire rules, internal errors).
    pub problems: String,
}

impl fmt::Display for ServerCheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} case {}: {}",
            self.mutation,
            crate::violation::shorten(&String::from_utf8_lossy(&self.frame)),
            self.problems
        )
    }
}

impl std::error::Error for ServerCheckFailure {}

/// Runs generated cases of `profile` (methods from `vocabulary`, whose `known` must be
/// exactly the server's methods) through a server built by `make_server` for every case: a
/// reply function taking one input frame and returning the frames it writes. Returns the
/// shrunk failing case, if any.
pub fn check_server<F, R>(
    make_server: F,
    profile: &'static ProfileFacts,
    vocabulary: Vocabulary,
    options: &ServerCheck,
) -> Result<(), ServerCheckFailure>
where
    F: Fn() -> R,
    R: FnMut(&[u8]) -> Vec<Vec<u8>>,
{
    let bodies = if options.typed {
        call_bodies(profile, vocabulary)
    } else {
        CallBodies::arbitrary(profile, vocabulary)
    };
    let mut runner = TestRunner::new(config(options.cases));
    let outcome = runner.run(&case_from(profile, &bodies), |case| {
        let mut server = make_server();
        let replies = server(&case.frame);
        let replies: Vec<&[u8]> = replies.iter().map(Vec::as_slice).collect();
        let mut problems: Vec<String> = match check_expected(profile, &case.expected, &replies) {
            Ok(()) => Vec::new(),
            Err(violations) => violations.iter().map(ToString::to_string).collect(),
        };
        if options.fail_on_internal_error && replies.iter().any(|r| has_internal_error(r)) {
            problems.push("a reply is -32603 Internal error (did a handler panic?)".to_owned());
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(TestCaseError::fail(problems.join("; ")))
        }
    });
    match outcome {
        Ok(()) => Ok(()),
        Err(TestError::Fail(reason, case)) => Err(ServerCheckFailure {
            mutation: case.mutation.name(),
            frame: case.frame,
            problems: reason.to_string(),
        }),
        Err(TestError::Abort(reason)) => Err(ServerCheckFailure {
            mutation: "none",
            frame: Vec::new(),
            problems: format!("the run was aborted: {reason}"),
        }),
    }
}

/// Whether a reply frame (one reply or a batch of them) carries error code -32603.
fn has_internal_error(reply: &[u8]) -> bool {
    let is_internal = |value: &Value| value["error"]["code"].as_i64() == Some(-32603);
    match serde_json::from_slice::<Value>(reply) {
        Ok(Value::Array(replies)) => replies.iter().any(is_internal),
        Ok(reply) => is_internal(&reply),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_are_found_in_replies_and_batches() {
        assert!(has_internal_error(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}"#
        ));
        assert!(has_internal_error(
            br#"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}]"#
        ));
        assert!(!has_internal_error(
            br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#
        ));
        assert!(!has_internal_error(
            br#"{"jsonrpc":"2.0","id":1,"result":{"code":-32603}}"#
        ));
        assert!(!has_internal_error(b"not json"));
    }
}
