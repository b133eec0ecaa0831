//! Support for the mcpwire benchmark suite (issues 6, 13 and 15): the message set every
//! contender decodes, the contenders themselves, and the end-to-end rows' servers (mcpwire's
//! and rmcp's `add`), the lines a client sends them and the two ways to reach them (in process
//! over a duplex pipe, or a child process over stdio), and the client rows: mcpwire-client
//! against rmcp's client on the same in-process server.
//!
//! The criterion harness is `benches/wire.rs`; `cargo xtask bench` runs it and writes
//! `BENCHMARKS.md`.

pub mod breakdown;
pub mod catalogue_server;
pub mod child;
pub mod client;
pub mod clients;
pub mod contenders;
pub mod conversation;
pub mod http_load;
pub mod in_process;
pub mod line_peer;
pub mod mcpwire_adder;
pub mod messages;
#[path = "../rmcp-server/src/adder.rs"]
pub mod rmcp_adder;
pub mod server_listing;
pub mod typed;
