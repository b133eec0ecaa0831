//! Library half of the `mcpwire` command: the reference server and the subcommands, so they can
//! be driven in-process by tests and benchmarks.
#![forbid(unsafe_code)]

pub mod check;
pub mod decode;
pub mod gen_types;
pub mod http;
pub mod profiles;
pub mod reference;
