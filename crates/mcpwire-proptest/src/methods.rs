//! What the checker knows about the methods a server implements.

use crate::expected::{Outcome, codes};

/// The methods a server under test implements.
///
/// With [`Methods::Unspecified`] any valid request may get a result or an error with any
/// code except the envelope codes -32700 and -32600. With [`Methods::Known`] a request for
/// any other method must get exactly -32601, and a known method must not get -32601.
///
/// ```
/// use mcpwire_proptest::Methods;
/// let methods = Methods::Known(&["ping"]);
/// assert!(methods.outcome_for("nope").allows(Some(-32601)));
/// assert!(!methods.outcome_for("nope").allows(Some(-32602)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Methods<'a> {
    /// Nothing is known about the server's methods.
    Unspecified,
    /// Exactly these methods exist.
    Known(&'a [&'a str]),
}

impl Methods<'_> {
    /// The outcome a correct server gives a valid request for `method`.
    pub fn outcome_for(&self, method: &str) -> Outcome {
        match self {
            Methods::Unspecified => {
                Outcome::ResultOrErrorExcept(vec![codes::PARSE_ERROR, codes::INVALID_REQUEST])
            }
            Methods::Known(known) => method_outcome(known.contains(&method)),
        }
    }
}

/// The outcome of a valid request for a method the server implements (`known`) or not:
/// a known method gets a result or any error except -32700, -32600 and -32601 (its params
/// may be rejected with -32602, its handler may fail); an unknown one gets exactly -32601.
pub fn method_outcome(known: bool) -> Outcome {
    if known {
        Outcome::ResultOrErrorExcept(vec![
            codes::PARSE_ERROR,
            codes::INVALID_REQUEST,
            codes::METHOD_NOT_FOUND,
        ])
    } else {
        Outcome::Error(vec![codes::METHOD_NOT_FOUND])
    }
}

/// Method names the generators draw from.
///
/// `known` must be exactly the methods the server under test implements (they are passed
/// to the checker as [`Methods::Known`]); `unknown` are names it must answer with -32601.
/// Generated unknown names are added to `unknown` (lowercase `word/word`, never in `known`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vocabulary {
    /// Methods the server implements.
    pub known: &'static [&'static str],
    /// Methods the server does not implement.
    pub unknown: &'static [&'static str],
}

impl Vocabulary {
    /// The vocabulary used by the crate's own tests and the reference server:
    /// `ping` and `tools/list` exist.
    pub const DEFAULT: Vocabulary = Vocabulary {
        known: &["ping", "tools/list"],
        unknown: &[
            "no/such/method",
            "Ping",
            "ping ",
            "tools/unknown",
            "",
            "rpc",
            "rpc-call",
            "é/✓",
        ],
    };

    /// The checker's knowledge matching this vocabulary.
    pub fn methods(&self) -> Methods<'static> {
        Methods::Known(self.known)
    }
}
