//! Comparing ids as JSON values, on their exact text (never through f64 for equality): value
//! equality, the 2^53 bound and the attribution of a changed id to its request come from
//! `mcpwire-proptest` (shared with its judging).

pub use mcpwire_proptest::findings::{is_big_integer, related, same_value};
