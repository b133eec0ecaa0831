//! Running generated cases against a server built fresh for every case, judging the replies as
//! `mcpwire check` does (finding kinds and levels from [`crate::findings`]), and reporting the
//! smallest failing input so it can be pasted into a test and replayed.
//!
//! A server keeps state between frames: an MCP server switches profile when it answers
//! `initialize`, so a generated `initialize` would change how the *next* case is decoded and
//! the checker (which knows only the case's own profile) would report a false failure.
//! [`check_server`] calls `make_server` for every case (shrinking included), so each case
//! meets a server in its initial state.
//!
//! ```
//! use mcpwire_proptest::facts::MCP_2025_11_25;
//! use mcpwire_proptest::{ServerCheck, Vocabulary, check_server};
//!
//! // Your server: a reply function holding its own state. Here the crate's reference.
//! let make_server =
//!     || |frame: &[u8]| mcpwire_proptest::faulty::reference_reply(&MCP_2025_11_25, frame);
//! check_server(make_server, &MCP_2025_11_25, Vocabulary::DEFAULT, &ServerCheck::with_cases(32))
//!     .unwrap();
//! ```
//!
//! - **Schemas.** Every reply whose envelope broke no MUST is validated against the upstream
//!   schema of the profile's MCP version ([`crate::reply_schema`], the same code as
//!   `mcpwire check`): a result against its method's result type (`InitializeResult` for
//!   `initialize`, `ListToolsResult` for `tools/list`, …), an error against the error
//!   response. A reply the schema refuses is `reply-schema-invalid` (a violation) with the
//!   JSON pointer of each error. The schemas are read from `MCP_SCHEMA_DIR`
//!   ([`SchemaSource::FromEnv`], the default) or a folder you name ([`SchemaSource::Dir`]).
//! - **Levels.** A violation (a broken MUST) fails the check; a strict finding (mcpwire's
//!   stricter policy where the specs permit more, e.g. duplicated members read last-wins)
//!   fails it only with [`ServerCheck::strict`].
//! - **Shrinking.** The first failing case is shrunk to the smallest input that still shows
//!   the same finding kind.
//! - **Seed.** Every run has a seed, printed on failure: `PROPTEST_RNG_SEED=<seed>` (or
//!   [`ServerCheck::seed`]) runs the same cases again.
//! - **Persistence.** A failure is saved in `<test file>.proptest-regressions` beside the
//!   calling test (commit it) and replayed first on every later run.

use std::cell::RefCell;
use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcpwire_types::ProfileFacts;
use proptest::test_runner::{RngSeed, TestCaseError, TestRunner};
use serde_json::Value;

use crate::config::config_at;
use crate::expected::{Expected, ExpectedReply, ReplyId, Silence};
use crate::findings::{Finding, Level, judge, level_of};
use crate::literal::byte_literal;
use crate::message::CallBodies;
use crate::methods::{Methods, Vocabulary};
use crate::model::derive_expected;
use crate::mutations::{Case, case_from};
use crate::reply_schema::{REPLY_SCHEMA_INVALID, ReplySchemas, first_schema_error};
use crate::shrink::shrink_bytes;
use crate::typed::call_bodies;
use crate::violation::rules;

/// How [`check_server`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerCheck {
    /// Cases to run (`MCPWIRE_PROPTEST_CASES` or `PROPTEST_CASES` overrides it, see
    /// [`config::cases`](crate::config::cases)).
    pub cases: u32,
    /// Also fail on any -32603 `Internal error` reply. The wire rules allow -32603 for a known
    /// method, so the checker alone accepts it; but a runtime that catches a panicking handler
    /// answers exactly that, and a server under test should not panic on generated input.
    pub fail_on_internal_error: bool,
    /// Draw call bodies from the typed MCP strategies of the profile's version as well
    /// ([`call_bodies`]); otherwise only arbitrary names and params from the vocabulary.
    pub typed: bool,
    /// Fail on strict findings too (mcpwire's stricter policy, `mcpwire check --strict`), not
    /// only on violations.
    pub strict: bool,
    /// The seed of the generated cases; `None`: `PROPTEST_RNG_SEED` when set, else a fresh one.
    pub seed: Option<u64>,
    /// Shrinking steps at most, in each of the two stages (the generators' value trees, then
    /// removing bytes, which also stops after 10 s); each step runs one case through a fresh
    /// server.
    pub shrink_steps: u32,
    /// Where the MCP schemas every reply is validated against are read from.
    pub schemas: SchemaSource,
    /// The source file failures are saved beside, as `<file without extension>.proptest-regressions`
    /// (e.g. `file!()`, or an absolute path; the file must exist); `None`: the file of the test
    /// that called [`check_server`].
    pub regressions_beside: Option<&'static str>,
}

/// Where [`check_server`] reads the upstream MCP schemas (`<version>/schema.json`) every reply
/// is validated against (finding `reply-schema-invalid`). A plain JSON-RPC 2.0 profile has no
/// schema: only the envelope rules are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaSource {
    /// The folder named by `MCP_SCHEMA_DIR` when it is set (then a missing file, or a file
    /// other than the one the profile was generated from, stops the check with a panic
    /// saying so); no schema check when it is unset.
    FromEnv,
    /// This folder, holding `<version>/schema.json`; a missing or other file stops the check
    /// with a panic saying so.
    Dir(&'static str),
    /// No schema check: only the envelope rules.
    Off,
}

impl SchemaSource {
    /// The compiled schemas of `profile`'s version, `None` when there is nothing to check.
    ///
    /// # Panics
    ///
    /// When a folder is named but its schema cannot be used.
    fn load(self, profile: &'static ProfileFacts) -> Option<ReplySchemas> {
        let dir = match self {
            SchemaSource::Off => return None,
            SchemaSource::Dir(dir) => PathBuf::from(dir),
            SchemaSource::FromEnv => PathBuf::from(std::env::var_os("MCP_SCHEMA_DIR")?),
        };
        match ReplySchemas::load(profile, &dir, true) {
            Ok((schemas, _)) => schemas,
            Err(error) => panic!("check_server: {error}"),
        }
    }
}

impl Default for ServerCheck {
    /// 64 cases, -32603 accepted, typed bodies on, violations only, a fresh seed, schemas from
    /// `MCP_SCHEMA_DIR`.
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
            strict: false,
            seed: None,
            shrink_steps: 4096,
            schemas: SchemaSource::FromEnv,
            regressions_beside: None,
        }
    }

    /// These options, failing on strict findings too when `strict` is true.
    ///
    /// ```
    /// use mcpwire_proptest::ServerCheck;
    /// assert!(ServerCheck::default().strict(true).strict);
    /// ```
    pub fn strict(self, strict: bool) -> Self {
        Self { strict, ..self }
    }

    /// These options with a fixed seed (as `PROPTEST_RNG_SEED=<seed>` does).
    pub fn seed(self, seed: u64) -> Self {
        Self {
            seed: Some(seed),
            ..self
        }
    }

    /// These options with the schemas read from `schemas`.
    ///
    /// ```
    /// use mcpwire_proptest::{SchemaSource, ServerCheck};
    /// let options = ServerCheck::default().schemas(SchemaSource::Off);
    /// assert_eq!(options.schemas, SchemaSource::Off);
    /// ```
    pub fn schemas(self, schemas: SchemaSource) -> Self {
        Self { schemas, ..self }
    }

    /// These options with failures saved beside `source_file` rather than beside the test that
    /// called [`check_server`] (see [`regressions_beside`](Self::regressions_beside)).
    ///
    /// ```
    /// use mcpwire_proptest::ServerCheck;
    /// let options = ServerCheck::default().regressions_beside(file!());
    /// assert_eq!(options.regressions_beside, Some(file!()));
    /// ```
    pub fn regressions_beside(self, source_file: &'static str) -> Self {
        Self {
            regressions_beside: Some(source_file),
            ..self
        }
    }

    /// Whether a finding of `level` fails the check.
    fn fails(&self, level: Level) -> bool {
        level == Level::Violation || self.strict
    }
}

/// The smallest failing case a server was caught on, with everything needed to reproduce it.
///
/// Its `Debug` is its `Display`, so `check_server(..).unwrap()` prints the report:
///
/// ```text
/// check_server: mcp-2025-11-25 failed (seed 42: PROPTEST_RNG_SEED=42 runs these cases again)
///   input (generated as id-duplicated, shrunk to 40 bytes):
///     b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"id\":1}"
///   replies (1):
///     b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}"
///   expected: one reply: no id member, an error with code -32600
///   findings:
///     no-id-spelled-wrong (violation) under wire rule 10 (reply shape): …
///   regression file: tests/my_server.proptest-regressions (replayed first on every run; commit it)
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ServerCheckFailure {
    /// The profile checked.
    pub profile: &'static str,
    /// The name of the generated case's mutation (the input may since have been shrunk by its
    /// bytes).
    pub mutation: &'static str,
    /// The exact input frame (one line, without its line ending).
    pub frame: Vec<u8>,
    /// The exact frames the server wrote for it.
    pub replies: Vec<Vec<u8>>,
    /// What a correct server sends for it, in words.
    pub expected: String,
    /// Every finding on the replies (strict ones included, whether or not they fail).
    pub findings: Vec<Finding>,
    /// A reply carries -32603 and [`ServerCheck::fail_on_internal_error`] is set.
    pub internal_error: bool,
    /// The seed of the run (`PROPTEST_RNG_SEED=<seed>` runs the same cases again).
    pub seed: u64,
    /// Whether strict findings failed the check too ([`ServerCheck::strict`]).
    pub strict: bool,
    /// Whether the case came from the regression file (a failure saved by an earlier run).
    pub replayed: bool,
    /// The regression file the failure is saved in, when it could be located.
    pub regressions: Option<PathBuf>,
}

impl ServerCheckFailure {
    /// The findings that failed the check (violations, and strict ones under `strict`).
    pub fn failing(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| self.strict || f.level == Level::Violation)
    }

    /// Whether a finding of `kind` was found.
    pub fn has(&self, kind: &str) -> bool {
        self.findings.iter().any(|f| f.kind == kind)
    }
}

/// Inputs longer than this are shown by their start only (the whole is in
/// [`ServerCheckFailure::frame`] and replays from the regression file).
const SHOWN_BYTES: usize = 64 << 10;

fn show(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    if bytes.len() <= SHOWN_BYTES {
        return writeln!(f, "    {}", byte_literal(bytes));
    }
    writeln!(
        f,
        "    {} … (the first {SHOWN_BYTES} of {} bytes)",
        byte_literal(&bytes[..SHOWN_BYTES]),
        bytes.len()
    )
}

impl fmt::Display for ServerCheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "check_server: {} failed (seed {}: ",
            self.profile, self.seed
        )?;
        if self.replayed {
            writeln!(f, "replayed from the regression file)")?;
        } else {
            writeln!(f, "PROPTEST_RNG_SEED={} runs these cases again)", self.seed)?;
        }
        writeln!(
            f,
            "  input (generated as {}, shrunk to {} bytes):",
            self.mutation,
            self.frame.len()
        )?;
        show(f, &self.frame)?;
        writeln!(f, "  replies ({}):", self.replies.len())?;
        for reply in &self.replies {
            show(f, reply)?;
        }
        writeln!(f, "  expected: {}", self.expected)?;
        writeln!(f, "  findings:")?;
        for finding in &self.findings {
            writeln!(
                f,
                "    {} ({}) under {}: {}",
                finding.kind, finding.level, finding.rule, finding.message
            )?;
        }
        if self.internal_error {
            writeln!(
                f,
                "    internal-error: a reply is -32603 Internal error (did a handler panic?)"
            )?;
        }
        match &self.regressions {
            Some(path) => write!(
                f,
                "  regression file: {} (replayed first on every run; commit it)",
                path.display()
            ),
            None => write!(
                f,
                "  regression file: none (the test's source file was not found)"
            ),
        }
    }
}

impl fmt::Debug for ServerCheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ServerCheckFailure {}

/// What a correct server sends for an input with this oracle, in words.
fn expected_in_words(profile: &ProfileFacts, expected: &Expected) -> String {
    let reply = |reply: &ExpectedReply| {
        let id = match &reply.id {
            ReplyId::Echo(text) => format!("id {text} echoed exactly"),
            ReplyId::Absent if profile.error_response_requires_id => "\"id\":null".into(),
            ReplyId::Absent => "no id member".into(),
        };
        format!("{}, {id} ({})", reply.outcome, reply.cause)
    };
    match expected {
        Expected::NoReply(Silence::Notification) => "no reply (a notification)".into(),
        Expected::NoReply(Silence::Response) => "no reply (a response)".into(),
        Expected::NoReply(Silence::BlankLine) => "no reply (a blank line)".into(),
        Expected::Reply(one) => format!("one reply: {}", reply(one)),
        Expected::ReplyOptional(one) => format!("one reply or none: {}", reply(one)),
        Expected::Batch(elements) => {
            let replies: Vec<String> = elements
                .iter()
                .filter_map(|e| match e {
                    Expected::Reply(one) => Some(reply(one)),
                    Expected::ReplyOptional(one) => Some(format!(
                        "{} or no reply (a later cancel in the batch names it)",
                        reply(one)
                    )),
                    _ => None,
                })
                .collect();
            let owed = elements
                .iter()
                .filter(|e| matches!(e, Expected::Reply(_)))
                .count();
            let (none_or, up_to) = match owed {
                0 => ("none or ", "up to "),
                n if n < replies.len() => ("", "up to "),
                _ => ("", ""),
            };
            match replies.len() {
                0 => "no reply (a batch without requests)".into(),
                n => format!(
                    "{none_or}one array of {up_to}{n} replies: {}",
                    replies.join("; ")
                ),
            }
        }
    }
}

/// A failing case as the test closure saw it.
struct Caught {
    mutation: &'static str,
    frame: Vec<u8>,
    expected: Expected,
    replies: Vec<Vec<u8>>,
    findings: Vec<Finding>,
    internal_error: bool,
}

/// One exchange with a fresh server, judged: the kinds that fail it under `options`.
struct Judging<'a, F> {
    make_server: &'a F,
    profile: &'static ProfileFacts,
    methods: Methods<'static>,
    options: &'a ServerCheck,
    schemas: Option<&'a ReplySchemas>,
}

impl<F, R> Judging<'_, F>
where
    F: Fn() -> R,
    R: FnMut(&[u8]) -> Vec<Vec<u8>>,
{
    fn run(
        &self,
        mutation: &'static str,
        frame: Vec<u8>,
        expected: Expected,
    ) -> (Caught, Vec<&'static str>) {
        let mut server = (self.make_server)();
        let replies = server(&frame);
        let mut findings = judge(self.profile, self.methods, &frame, &expected, &replies);
        // An envelope violation is the one finding of its defect; the schema judges the rest.
        let envelope_broken = findings.iter().any(|f| f.level == Level::Violation);
        if let Some(schemas) = self.schemas.filter(|_| !envelope_broken)
            && let Some(message) = first_schema_error(schemas, &frame, &expected, &replies)
        {
            findings.push(Finding {
                kind: REPLY_SCHEMA_INVALID,
                level: level_of(REPLY_SCHEMA_INVALID),
                rule: rules::REPLY_SHAPE,
                message,
            });
        }
        let internal_error =
            self.options.fail_on_internal_error && replies.iter().any(|r| has_internal_error(r));
        let failing: Vec<&'static str> = findings
            .iter()
            .filter(|f| self.options.fails(f.level))
            .map(|f| f.kind)
            .chain(internal_error.then_some(INTERNAL_ERROR))
            .collect();
        let caught = Caught {
            mutation,
            frame,
            expected,
            replies,
            findings,
            internal_error,
        };
        (caught, failing)
    }
}

/// What the test closure keeps across calls: the kind the first failure showed (shrinking
/// keeps only candidates showing it) and the smallest case that showed it.
#[derive(Default)]
struct Shrinking {
    calls: usize,
    target: Option<&'static str>,
    first_call: usize,
    smallest: Option<Caught>,
}

/// The most time spent removing bytes from a failing input (each step judges one exchange).
const BYTE_SHRINK_TIME: Duration = Duration::from_secs(10);

/// The kind a failing exchange is shrunk by: its first failing finding, or `internal-error`.
const INTERNAL_ERROR: &str = "internal-error";

/// Runs generated cases of `profile` (methods from `vocabulary`, whose `known` must be
/// exactly the server's methods) through a server built by `make_server` for every case: a
/// reply function taking one input frame and returning the frames it writes.
///
/// Judges each exchange as `mcpwire check` does ([`crate::findings::judge`]); violations
/// fail, strict findings fail only with [`ServerCheck::strict`]. Returns the smallest
/// failing case with the same finding as the first one caught. Failures are saved beside the
/// calling source file (`#[track_caller]`: the test that calls this), or the file
/// [`ServerCheck::regressions_beside`] names, as `<file>.proptest-regressions` and replayed
/// first on every run.
#[track_caller]
pub fn check_server<F, R>(
    make_server: F,
    profile: &'static ProfileFacts,
    vocabulary: Vocabulary,
    options: &ServerCheck,
) -> Result<(), Box<ServerCheckFailure>>
where
    F: Fn() -> R,
    R: FnMut(&[u8]) -> Vec<Vec<u8>>,
{
    let caller = std::panic::Location::caller().file();
    let source_file = options.regressions_beside.unwrap_or(caller);
    let bodies = if options.typed {
        call_bodies(profile, vocabulary)
    } else {
        CallBodies::arbitrary(profile, vocabulary)
    };
    let mut config = config_at(source_file, options.cases);
    let seed = options
        .seed
        .or(match config.rng_seed {
            RngSeed::Fixed(seed) => Some(seed),
            RngSeed::Random => None,
        })
        .unwrap_or_else(|| RandomState::new().hash_one(std::time::SystemTime::now()));
    config.rng_seed = RngSeed::Fixed(seed);
    config.max_shrink_iters = options.shrink_steps;
    let persisted = persisted_cases(&config, source_file);
    let regressions = regression_file(source_file);
    let state = RefCell::new(Shrinking::default());
    let mut runner = TestRunner::new(config);
    let schemas = options.schemas.load(profile);
    let judging = Judging {
        make_server: &make_server,
        profile,
        methods: vocabulary.methods(),
        options,
        schemas: schemas.as_ref(),
    };
    let outcome = runner.run(&case_from(profile, &bodies), |case: Case| {
        let (caught, failing) = judging.run(case.mutation.name(), case.frame, case.expected);
        let mut state = state.borrow_mut();
        state.calls += 1;
        let target = match state.target {
            Some(target) if failing.contains(&target) => target,
            Some(_) => return Ok(()),
            None => match failing.first() {
                Some(&first) => {
                    state.first_call = state.calls;
                    state.target = Some(first);
                    first
                }
                None => return Ok(()),
            },
        };
        let smaller = state
            .smallest
            .as_ref()
            .is_none_or(|s| caught.frame.len() <= s.frame.len());
        if smaller {
            state.smallest = Some(caught);
        }
        Err(TestCaseError::fail(target))
    });
    let state = state.into_inner();
    let (Some(mut caught), Some(target)) = (state.smallest, state.target) else {
        return match outcome {
            Ok(()) => Ok(()),
            Err(error) => panic!("check_server: the run stopped without a case: {error}"),
        };
    };
    // Past the generators' shrinking: remove bytes while the same finding shows.
    let methods = vocabulary.methods();
    let (start, mutation) = (caught.frame.clone(), caught.mutation);
    let deadline = Instant::now() + BYTE_SHRINK_TIME;
    let (frame, _) = shrink_bytes(&start, options.shrink_steps as usize, |candidate| {
        if Instant::now() > deadline {
            return false;
        }
        let expected = derive_expected(profile, candidate, methods);
        let (smaller, failing) = judging.run(mutation, candidate.to_vec(), expected);
        let shows = failing.contains(&target);
        if shows {
            caught = smaller;
        }
        shows
    });
    debug_assert_eq!(frame, caught.frame);
    Err(Box::new(ServerCheckFailure {
        profile: profile.name,
        mutation: caught.mutation,
        expected: expected_in_words(profile, &caught.expected),
        frame: caught.frame,
        replies: caught.replies,
        findings: caught.findings,
        internal_error: caught.internal_error,
        seed,
        strict: options.strict,
        replayed: state.first_call <= persisted,
        regressions,
    }))
}

/// How many failures the regression file holds (replayed before any new case).
fn persisted_cases(config: &proptest::test_runner::Config, source_file: &'static str) -> usize {
    config
        .failure_persistence
        .as_ref()
        .map_or(0, |p| p.load_persisted_failures2(Some(source_file)).len())
}

/// Where proptest keeps the failures of tests in `source_file` (`<file>.proptest-regressions`,
/// the file found from the working directory as proptest finds it).
fn regression_file(source_file: &str) -> Option<PathBuf> {
    let source = Path::new(source_file);
    let absolute = if source.is_absolute() {
        Some(source.to_path_buf())
    } else {
        let cwd = std::env::current_dir().ok()?;
        cwd.ancestors()
            .map(|dir| dir.join(source))
            .find(|path| path.is_file())
    };
    absolute.map(|path| path.with_extension("proptest-regressions"))
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
