//! Every finding kind the checker reports, with its level and the sentence of the spec it
//! rests on: `mcpwire-proptest`'s table ([`mcpwire_proptest::findings`]), shared with its
//! `check_server` so both judge alike. `mcpwire check --list-kinds` prints it.

pub use mcpwire_proptest::findings::{KINDS, KindInfo, Level, kind, level_of, listing, names};
