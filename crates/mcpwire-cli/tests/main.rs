//! The `mcpwire` binary's integration tests, built as one test binary: one module per concept,
//! each in its own file beside this one, with the helpers they share. Run one file's tests
//! with `cargo test -p mcpwire-cli --test integration <module>::`.

// Helpers shared by the modules below.
mod auth_fixture;
mod serving;

mod check_auth;
mod check_binary;
mod check_https;
mod decode_cli;
mod gen_cli;
mod kinds_shared;
mod serve_auth;
mod serve_http;
mod serve_stdio;
