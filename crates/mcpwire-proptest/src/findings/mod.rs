//! Findings: what is wrong with a server's replies, by kind, level and rule, judged exactly as
//! `mcpwire check` judges (docs/check.md, "Finding kinds").
//!
//! - [`KINDS`]: every finding kind with its level ([`Level::Violation`] for a broken MUST,
//!   [`Level::Strict`] for mcpwire's stricter policy where the specs permit more) and the
//!   sentence it rests on. `mcpwire check --list-kinds` prints this same table.
//! - [`judge`]: the findings of one exchange: the wire-rule checker's violations
//!   ([`check_expected`](crate::check_expected)) named by kind, then the permitted readings
//!   ([`relevel`], [`run_as_batch`], and the input's other readings, [`readings`] with
//!   [`apply_readings`]) that turn what the specs allow into one strict finding.
//!   [`judge_replies`] is the same judging for any finding type (`mcpwire check`'s own).
//!
//! ```
//! use mcpwire_proptest::findings::{Level, judge};
//! use mcpwire_proptest::{Methods, derive_expected};
//! use mcpwire_proptest::facts::MCP_2025_11_25;
//!
//! // A serde_json `Value` server reads duplicated members last-wins: permitted, so strict.
//! let input = br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#;
//! let expected = derive_expected(&MCP_2025_11_25, input, Methods::Known(&["ping"]));
//! let reply = br#"{"jsonrpc":"2.0","id":2,"result":{}}"#.to_vec();
//! let findings = judge(&MCP_2025_11_25, Methods::Known(&["ping"]), input, &expected, &[reply]);
//! assert_eq!(findings.len(), 1);
//! assert_eq!((findings[0].kind, findings[0].level), ("duplicate-member-accepted", Level::Strict));
//! ```

mod auth_table;
mod finding;
mod id_value;
mod input_readings;
mod readings;
mod table;

pub use auth_table::AUTH_KINDS;
pub use finding::{Finding, Oracles, judge, judge_replies, kind_of};
pub use id_value::{is_big_integer, is_number, related, same_value};
pub use input_readings::{Reading, apply_readings, readings};
pub use readings::{
    DEEP, Judged, LARGE, batch_oracle, is_malformed_response, notification_or_response_shaped,
    relevel, run_as_batch,
};
pub use table::{KINDS, KindInfo, Level, kind, level_of, listing, names};
