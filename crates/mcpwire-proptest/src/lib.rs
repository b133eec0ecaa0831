//! Property-test strategies and a wire-rule invariant checker for JSON-RPC 2.0 and MCP.
//!
//! Every MCP SDK has at some point dropped a bad request silently, turned `"id": true` into
//! a notification, invented an id, sent -32700 for valid JSON, answered id `1.5` as `1` or
//! `2^53+1` as `2^53`, or omitted an id it could have read. This crate finds such defects
//! in *your* server's reply function, independently of any runtime: it never calls the
//! server to decide what is right.
//!
//! # What is inside
//!
//! - [`ids`]: request id strategies per profile: strings (empty, unicode, escapes,
//!   `<script>`, very long), integers over the whole range and beyond 64 bits in every
//!   spelling (`1e3`, `2.0`, `-0`, `1.5e1`), fractions and `null`, and the forbidden types.
//!   Each id carries its exact JSON text and whether the profile admits it.
//! - [`message`]: valid requests, notifications and responses, built from small parts.
//! - [`typed`]: valid MCP requests and notifications of every version, built from the
//!   generated types (`mcp_request`, `mcp_notification`, `mcp_message`, `call_bodies`).
//! - [`mutations`]: named mutations of valid messages (wrong `jsonrpc`, bad or duplicated
//!   `method`/`id`, escaped `"\u0069d"` key, bad `params`, truncation, trailing bytes, BOM,
//!   whitespace, nesting 100,000 deep, huge strings, invalid UTF-8, batches). Each
//!   [`mutations::Case`] carries its oracle ([`Expected`]), computed from the mutation.
//!   Failing cases shrink to the smallest failing frame.
//! - [`check()`]: `check(profile, input_frame, reply_frames) -> Result<(), Vec<Violation>>`
//!   derives the expectation from the input with the crate's own iterative JSON reader
//!   ([`json`], any depth, duplicate keys, exact number text) and names each broken rule
//!   of docs/wire-rules.md ([`Violation`], [`rules`]). [`check_with`] adds knowledge of
//!   the server's methods; [`check_expected`] takes a generated case's oracle.
//! - [`check_server`]: runs generated cases through a server built fresh for every case
//!   (a stateful server's `initialize` cannot leak into the next case), judging as
//!   `mcpwire check` does, optionally failing on -32603 replies (a panicking handler).
//! - [`faulty`]: reference defects, one reply function per real defect class, to show the
//!   checker catches each of them.
//! - [`findings`]: the finding kinds and levels `mcpwire check` uses (one table), and
//!   [`findings::judge`], which judges one exchange as `mcpwire check` does.
//! - [`config`]: case counts; `MCPWIRE_PROPTEST_CASES` (or proptest's `PROPTEST_CASES`)
//!   raises them for a soak run.
//!
//! Profiles are the data of [`facts`] (re-exported from `mcpwire_types`): which id types the schema admits,
//! whether an error reply without a readable id carries `"id":null` or omits the id,
//! whether batches exist, and which `params` types are allowed.
//!
//! # How the checker reads an exchange
//!
//! - The input frame is one line as the framing layer hands it over (rule 1): a trailing
//!   `\r`/`\n` and a leading byte order mark are skipped, and a blank line gets no reply.
//! - Reply frames are the lines written for that input, with or without their line ending.
//! - String ids are compared by value (`"\u0041"` may come back as `"A"`), numbers by
//!   exact text (`1e3` must come back as `1e3`, never `1000`).
//! - Batch replies may come in any order; they are paired with the batch's elements by id.
//! - Which methods exist: unknown to [`check()`] (any code but -32700/-32600 is accepted
//!   for a valid request), known to [`check_with`] through [`Methods::Known`] (then an
//!   unknown method must get exactly -32601).
//! - Not modelled: the optional id policy, and frame/batch size limits (the defaults,
//!   64 MiB and unlimited, are never reached by the generators).
//!
//! # Testing your own server
//!
//! One dev-dependency is enough: the profile facts are re-exported as [`facts`] (and the
//! generated types as [`mcpwire_types`]). A server that speaks one MCP version enables only that
//! version (`default-features = false, features = ["v2025_11_25"]`); a plain JSON-RPC 2.0
//! server needs no version feature at all (`features = []`, profile [`facts::JSONRPC_2_0`]).
//! docs/proptest.md is the guide.
//!
//! [`check_server`] builds a fresh server for every case (a stateful server's `initialize`
//! would change how the next case is read), judges every exchange exactly as `mcpwire check`
//! does ([`findings`]: violations fail, strict findings only with [`ServerCheck::strict`]),
//! shrinks a failure to the smallest input that still shows the same finding, prints it with
//! its seed, and saves it beside the calling test as `<file>.proptest-regressions`, replayed
//! first on every run. Here the server is the crate's reference, so the example passes:
//!
//! ```
//! use mcpwire_proptest::facts::MCP_2025_11_25;
//! use mcpwire_proptest::{ServerCheck, Vocabulary, check_server};
//!
//! /// Exactly the methods your server implements; `unknown` adds names it must answer -32601.
//! const VOCABULARY: Vocabulary = Vocabulary {
//!     known: &["ping", "tools/list"],
//!     unknown: &["tools/unknown", "Ping"],
//! };
//!
//! // `make_server` returns your server's reply function (one line in, the lines it writes
//! // out), in its initial state.
//! let make_server =
//!     || |frame: &[u8]| mcpwire_proptest::faulty::reference_reply(&MCP_2025_11_25, frame);
//! let options = ServerCheck { fail_on_internal_error: true, ..ServerCheck::with_cases(32) };
//! check_server(make_server, &MCP_2025_11_25, VOCABULARY, &options).unwrap();
//! ```
//!
//! A failure's `Debug` is its `Display`, so `.unwrap()` prints the report: the exact input and
//! replies as Rust byte-string literals to paste into a test, what a correct server sends, every
//! finding with its kind, level and rule (also in [`ServerCheckFailure::findings`]), the seed
//! (`PROPTEST_RNG_SEED=<seed>` runs the same cases again) and the regression file.
//!
//! For finer control, generate cases yourself and judge each exchange with
//! [`findings::judge`] (or the bare wire rules with [`check_expected`]):
//!
//! ```
//! use mcpwire_proptest::facts::MCP_2025_11_25;
//! use mcpwire_proptest::findings::{Level, judge};
//! use mcpwire_proptest::mutations::case;
//! use mcpwire_proptest::{Vocabulary, config::config_at};
//! use proptest::prelude::*;
//! use proptest::test_runner::TestRunner;
//!
//! fn my_server(frame: &[u8]) -> Vec<Vec<u8>> {
//!     mcpwire_proptest::faulty::reference_reply(&MCP_2025_11_25, frame)
//! }
//!
//! let mut runner = TestRunner::new(config_at(file!(), 64));
//! runner
//!     .run(&case(&MCP_2025_11_25, Vocabulary::DEFAULT), |case| {
//!         let replies = my_server(&case.frame);
//!         let methods = Vocabulary::DEFAULT.methods();
//!         let findings = judge(&MCP_2025_11_25, methods, &case.frame, &case.expected, &replies);
//!         let violations: Vec<String> = findings
//!             .iter()
//!             .filter(|f| f.level == Level::Violation)
//!             .map(ToString::to_string)
//!             .collect();
//!         prop_assert!(violations.is_empty(), "{}: {}", case.mutation.name(), violations.join("; "));
//!         Ok(())
//!     })
//!     .unwrap();
//! ```
//!
//! To check a single exchange (e.g. recorded traffic), use [`check()`] directly:
//!
//! ```
//! use mcpwire_proptest::{check, ViolationKind};
//! use mcpwire_proptest::facts::MCP_LATEST;
//!
//! let input = br#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#;
//! let reply: &[u8] = br#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"bad"}}"#;
//! let violations = check(&MCP_LATEST, input, &[reply]).unwrap_err();
//! assert_eq!(violations[0].kind(), ViolationKind::FabricatedId);
//! ```
//!
//! # Case counts and speed
//!
//! The workspace's property tests (`tests/prop_*.rs` in package `mcpwire-tests`) use small
//! defaults so `cargo test` stays fast; `MCPWIRE_PROPTEST_CASES=<n>` sets every property's
//! case count for a soak run ([`config::cases`]; proptest's own `PROPTEST_CASES` works too).
//! Shrunk failures are persisted in
//! `<test file>.proptest-regressions` beside the test ([`config::config_at`]) and replayed
//! first on every run; commit them.
//!
//! | test (per profile, 6 profiles) | default cases | time (debug, 2 cores shared) |
//! |---|---|---|
//! | `prop_runtime`: generated inputs through `Server::handle_frame` | 256 | ~1.5–2.5 s |
//! | `prop_runtime`: the same through `serve` (one line per frame) | 64 | ~0.5 s |
//! | `prop_runtime`: arbitrary bytes, up to 1 MiB | 128 | ~3 s |
//! | `prop_runtime`: round trip and schema validation | 96 + 96 | ~1 s |
//! | `prop_checker_not_vacuous`: 14 defects + the reference | 256 (shared) | ~12 s |
//!
//! The in-process suite (generate a case, run it through `Server::handle_frame`, check the
//! reply against the oracle) checks about 650–1,000 cases per second in the debug test
//! profile, generation included; arbitrary-byte cases, with their 1 MiB frames, about
//! 120 per second. A soak run with `MCPWIRE_PROPTEST_CASES=3000` (about 93,000 cases over
//! `prop_runtime`) takes about 3 minutes.
//!
//! # Typed MCP messages
//!
//! [`typed`] builds valid MCP requests and notifications for every version from the strategies
//! the code generator emits for the generated types (`mcpwire-types`, feature `proptest`), so a
//! new schema version gets generators for free and every generated call validates against its
//! upstream schema. [`typed::call_bodies`] mixes them (two in three for MCP profiles) with
//! arbitrary bodies, so unknown and escaped method names stay covered. Results in generated
//! responses are still arbitrary JSON objects.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod batch_cancel;
pub mod check;
#[cfg(test)]
mod check_tests;
pub mod config;
pub mod expected;
pub mod faulty;
pub mod findings;
pub mod ids;
pub mod json;
pub mod literal;
pub mod message;
pub mod methods;
pub mod model;
pub mod mutations;
pub mod reply_schema;
pub mod server_check;
pub mod shrink;
pub mod typed;
pub mod untrusted_schema;
pub mod violation;

/// A string strategy for a regular expression, compiled once (a `&str` strategy
/// recompiles its regex for every generated value).
pub(crate) fn pattern(regex: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    proptest::string::string_regex(regex).expect("a valid regex")
}

/// The profile facts and generated MCP types this crate is built on, re-exported so one
/// dev-dependency is enough: `mcpwire_proptest::facts::MCP_2025_11_25`.
pub use mcpwire_types;
pub use mcpwire_types::ProfileFacts;
pub use mcpwire_types::facts;

pub use check::{check, check_expected, check_with, input_ids, name_echoed_ids};
pub use expected::{Cause, Expected, ExpectedReply, Outcome, ReplyId, Silence, codes};
pub use findings::{Finding, Level};
pub use methods::{Methods, Vocabulary};
pub use model::derive_expected;
pub use server_check::{SchemaSource, ServerCheck, ServerCheckFailure, check_server};
pub use violation::{Rule, SeenId, Violation, ViolationKind, rules};
