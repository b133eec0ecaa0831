//! Support for the mcpwire benchmark suite (issue 6): the message set every contender decodes,
//! the contenders themselves, and a driver for `mcpwire serve` over pipes.
//!
//! The criterion harness is `benches/wire.rs`; `cargo xtask bench` runs it and writes
//! `BENCHMARKS.md`.

pub mod breakdown;
pub mod contenders;
pub mod messages;
pub mod serve;
pub mod typed;
