//! Wire types for JSON-RPC 2.0 and every released version of the Model Context Protocol,
//! generated from the JSON Schemas by `cargo xtask gen`.
//!
//! - [`jsonrpc`]: the JSON-RPC 2.0 envelope, from the project's own schema.
//! - [`facts`]: per-profile facts (id types, batches, id-less error replies) that drive the
//!   runtime's wire rules.
//! - [`mcp`]: one module per MCP version, each behind a cargo feature of the same name.
#![forbid(unsafe_code)]

// Generated code names this crate by its absolute path, so it compiles unchanged here and in
// the generator's snapshot tests.
extern crate self as mcpwire_types;

mod profile_facts;
pub mod support;

pub use profile_facts::{IdTypes, ParamsTypes, ProfileFacts};

#[path = "generated/facts.rs"]
pub mod facts;

#[path = "generated/jsonrpc.rs"]
pub mod jsonrpc;

pub mod mcp;
