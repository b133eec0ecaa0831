//! The inputs of a check: fixed spec cases, then generated ones, each with its oracle.

use mcpwire_proptest::mutations::{Case, case};
use mcpwire_proptest::{Expected, Methods, Vocabulary, derive_expected};
use mcpwire_types::ProfileFacts;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::lenient::{Reading, readings};

/// One input frame and what a correct server must send back for it.
#[derive(Debug, Clone)]
pub struct CheckCase {
    /// A short label: the fixed case's name or the generated case's mutation.
    pub label: String,
    /// The frame sent (one line, no line ending).
    pub frame: Vec<u8>,
    /// The oracle.
    pub expected: Expected,
    /// For a generated case, its index among the generated trees.
    pub generated: Option<usize>,
    /// For a top-level array under a version without batches: the oracle of running it as a
    /// JSON-RPC 2.0 batch (the version's other rules kept), a permitted reading.
    pub batch_reading: Option<Expected>,
    /// The input's other readings that JSON-RPC 2.0 or RFC 8259 permit (lenient UTF-8,
    /// params by position, a call with `result`/`error` members), each with its strict kind.
    pub readings: Vec<Reading>,
}

/// What the checker assumes about the server's methods.
#[derive(Debug, Clone, Copy)]
pub struct Oracle {
    /// The session's profile.
    pub facts: &'static ProfileFacts,
    /// Methods the server implements (an empty list: every valid request gets -32601).
    pub known: &'static [&'static str],
}

/// Method names no server is expected to implement.
const UNKNOWN: &[&str] = &[
    "mcpwire/no-such-method",
    "no/such/method",
    "Ping",
    "ping ",
    "tools/unknown",
    "",
    "rpc-call",
    "é/✓",
];

impl Oracle {
    /// The vocabulary the generators draw method names from. With no known method, `ping`
    /// stands in for the generators and the oracle is derived with no known method instead.
    pub fn vocabulary(&self) -> Vocabulary {
        let known: &'static [&'static str] = if self.known.is_empty() {
            &["ping"]
        } else {
            self.known
        };
        let unknown: Vec<&'static str> = UNKNOWN
            .iter()
            .copied()
            .filter(|name| !known.contains(name))
            .collect();
        Vocabulary {
            known,
            unknown: Box::leak(unknown.into_boxed_slice()),
        }
    }

    /// The checker's knowledge of the methods.
    pub fn methods(&self) -> Methods<'static> {
        Methods::Known(self.known)
    }

    /// The oracle of a generated case: the mutation's own, unless the generators' vocabulary
    /// differs from the server's (no known method), where it is derived from the frame.
    pub fn expected(&self, case: &Case) -> Expected {
        if self.known.is_empty() {
            derive_expected(self.facts, &case.frame, self.methods())
        } else {
            case.expected.clone()
        }
    }

    /// A fixed case from its label and frame, with the oracle derived from the frame.
    fn fixed(&self, label: &str, frame: impl Into<Vec<u8>>) -> CheckCase {
        let frame = frame.into();
        let expected = derive_expected(self.facts, &frame, self.methods());
        CheckCase {
            label: label.to_owned(),
            batch_reading: self.batch_reading(&frame),
            readings: readings(self.facts, &frame, self.methods()),
            frame,
            expected,
            generated: None,
        }
    }

    /// Where the version has no batches, the oracle of a top-level array run as a JSON-RPC 2.0
    /// batch under the version's other rules (`None` for anything else).
    pub fn batch_reading(&self, frame: &[u8]) -> Option<Expected> {
        mcpwire_proptest::findings::batch_oracle(self.facts, frame, self.methods())
    }
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// The fixed cases: the inputs of the wire rules and of the upstream fixes this toolkit
/// generalises. Every id is distinct (replies are attributed by id). `stdio` adds the cases
/// only a stream has: a whitespace-only frame, and a frame with a leading byte order mark
/// (RFC 8259 §8.1 forbids senders to add one, so it is never POSTed over HTTP).
pub fn fixed_cases(oracle: &Oracle, stdio: bool) -> Vec<CheckCase> {
    let call =
        |id: &str, method: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#);
    let ping = oracle.known.first().copied().unwrap_or("ping");
    let unknown = "mcpwire/no-such-method";
    let mut cases = vec![
        oracle.fixed("request", call("1", ping)),
        oracle.fixed("unknown method", call("28", unknown)),
        oracle.fixed("id 0", call("0", ping)),
        oracle.fixed("id -1", call("-1", ping)),
        oracle.fixed("id string with escapes", call(r#""a\"b\\\u00e9/\u2028""#, ping)),
        oracle.fixed("id empty string", call(r#""""#, ping)),
        oracle.fixed("id 2^53+1", call("9007199254740993", ping)),
        oracle.fixed("id 2^64", call("18446744073709551616", ping)),
        oracle.fixed("id 1e3", call("1e3", ping)),
        oracle.fixed("id -0", call("-0", ping)),
        oracle.fixed("id 2.0", call("2.0", ping)),
        oracle.fixed("id 1.5", call("1.5", ping)),
        oracle.fixed("id true", call("true", ping)),
        oracle.fixed("id null", call("null", ping)),
        oracle.fixed("id array", call("[1]", ping)),
        oracle.fixed("id object", call(r#"{"a":1}"#, ping)),
        oracle.fixed("id duplicated", format!(r#"{{"jsonrpc":"2.0","id":31,"id":32,"method":"{ping}"}}"#)),
        oracle.fixed("id key escaped", format!(r#"{{"jsonrpc":"2.0","\u0069d":11,"method":"{ping}"}}"#)),
        oracle.fixed("jsonrpc 1.0", format!(r#"{{"jsonrpc":"1.0","id":3,"method":"{ping}"}}"#)),
        oracle.fixed("jsonrpc missing", format!(r#"{{"id":4,"method":"{ping}"}}"#)),
        oracle.fixed("jsonrpc number", format!(r#"{{"jsonrpc":2.0,"id":6,"method":"{ping}"}}"#)),
        oracle.fixed("method number", r#"{"jsonrpc":"2.0","id":8,"method":8}"#),
        oracle.fixed("method rpc.", call("5", "rpc.ping")),
        oracle.fixed("params scalar", format!(r#"{{"jsonrpc":"2.0","id":12,"method":"{ping}","params":3}}"#)),
        oracle.fixed("params null", format!(r#"{{"jsonrpc":"2.0","id":29,"method":"{ping}","params":null}}"#)),
        oracle.fixed("params array", format!(r#"{{"jsonrpc":"2.0","id":13,"method":"{ping}","params":[1]}}"#)),
        oracle.fixed(
            "result and error in a call",
            format!(r#"{{"jsonrpc":"2.0","id":14,"method":"{ping}","result":{{}},"error":{{"code":1,"message":"m"}}}}"#),
        ),
        oracle.fixed("notification", format!(r#"{{"jsonrpc":"2.0","method":"{ping}"}}"#)),
        oracle.fixed("notification of an unknown method", format!(r#"{{"jsonrpc":"2.0","method":"{unknown}","params":{{"x":1}}}}"#)),
        oracle.fixed("notification with params null", format!(r#"{{"jsonrpc":"2.0","method":"{ping}","params":null}}"#)),
        oracle.fixed("notification with params array", format!(r#"{{"jsonrpc":"2.0","method":"{ping}","params":[]}}"#)),
        oracle.fixed("invalid UTF-8 in a notification", b"{\"jsonrpc\":\"2.0\",\"method\":\"p\xed\xa0\x80i\\u006eg\"}".to_vec()),
        oracle.fixed("invalid notification", format!(r#"{{"jsonrpc":"1.0","method":"{unknown}"}}"#)),
        oracle.fixed("response", r#"{"jsonrpc":"2.0","id":99,"result":{}}"#),
        oracle.fixed("error response", r#"{"jsonrpc":"2.0","id":98,"error":{"code":-32000,"message":"m"}}"#),
        oracle.fixed("malformed response", r#"{"jsonrpc":"2.0","id":97,"result":{},"error":{"code":1,"message":"m"}}"#),
        oracle.fixed("id only", r#"{"id":7}"#),
        oracle.fixed("empty object", "{}"),
        oracle.fixed("truncated", r#"{"jsonrpc":"2.0","id":15,"method":"#),
        oracle.fixed("trailing bytes", format!(r#"{}x"#, call("16", ping))),
        oracle.fixed("NaN", "NaN"),
        oracle.fixed("leading zero", r#"{"jsonrpc":"2.0","id":017,"method":"ping"}"#),
        oracle.fixed("trailing comma", format!(r#"{{"jsonrpc":"2.0","id":18,"method":"{ping}",}}"#)),
        oracle.fixed("invalid UTF-8", b"{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"\xff\"}".to_vec()),
        oracle.fixed("top-level number", "1"),
        oracle.fixed("top-level string", r#""ping""#),
        oracle.fixed("empty batch", "[]"),
        oracle.fixed("batch of a number", "[1]"),
        oracle.fixed(
            "batch",
            format!(r#"[{},{{"jsonrpc":"2.0","method":"{ping}"}},{}]"#, call("20", ping), call("21", unknown)),
        ),
        oracle.fixed("batch of notifications", format!(r#"[{{"jsonrpc":"2.0","method":"{ping}"}}]"#)),
        oracle.fixed(
            "params 600 deep before the id",
            format!(r#"{{"jsonrpc":"2.0","params":{{"a":{}}},"id":22,"method":"{unknown}"}}"#, nested(600)),
        ),
        oracle.fixed(
            "member 100000 deep before the id",
            format!(r#"{{"jsonrpc":"2.0","deep":{},"id":23,"method":"{unknown}"}}"#, nested(100_000)),
        ),
        oracle.fixed("whitespace", format!(" {{ \"jsonrpc\" : \"2.0\" , \"id\" : 25 , \"method\" : \"{ping}\" }}\t\r")),
    ];
    if stdio {
        cases.push(oracle.fixed(
            "leading BOM",
            [&b"\xEF\xBB\xBF"[..], call("24", ping).as_bytes()].concat(),
        ));
        cases.push(oracle.fixed("blank line", " \t"));
    }
    cases
}

/// The random generator of `count` cases from `seed`: the same seed gives the same cases.
pub struct Generated {
    /// One value tree per case, kept for shrinking.
    pub trees: Vec<Box<dyn ValueTree<Value = Case>>>,
}

/// Generates `count` cases for `oracle` from `seed`.
pub fn generate(oracle: &Oracle, count: usize, seed: u64) -> Generated {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let strategy = case(oracle.facts, oracle.vocabulary());
    let trees = (0..count)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .collect();
    Generated { trees }
}

impl Generated {
    /// The check case of tree `index` in its current (possibly shrunk) state.
    pub fn case(&self, oracle: &Oracle, index: usize) -> CheckCase {
        let case = self.trees[index].current();
        CheckCase {
            label: case.mutation.name().to_owned(),
            expected: oracle.expected(&case),
            batch_reading: oracle.batch_reading(&case.frame),
            readings: readings(oracle.facts, &case.frame, oracle.methods()),
            frame: case.frame,
            generated: Some(index),
        }
    }
}
