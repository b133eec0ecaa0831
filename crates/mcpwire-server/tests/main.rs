//! mcpwire-server's integration tests, built as one test binary: one module per concept, each
//! in its own file beside this one, with the helpers they share. One binary compiles and links
//! the server, tokio and hyper once, where a binary per file did it 25 times over (155 s of
//! compile time in `cargo build --timings`). Run one file's tests with `cargo test -p
//! mcpwire-server --test integration <module>::`.

// Helpers shared by the modules below.
mod add_tool;
#[cfg(feature = "http")]
mod example;
#[cfg(feature = "http")]
#[path = "../../mcpwire/tests/http_support/mod.rs"]
mod http_support;
mod support;

mod asking;
mod auth;
mod axum_mount;
mod completion;
mod content_blocks;
mod conversation;
mod cost;
mod elicitation_forms;
mod generated_types;
mod graceful_shutdown;
mod http_2026;
mod http_both_eras;
mod input_required;
mod input_required_http;
mod listen;
mod listing;
mod redis_cluster;
mod reply_bytes;
mod resource_templates;
mod sdk_clients;
mod sse_resume;
mod subscriptions;
mod tasks;
mod tasks_http;
mod tracing_spans;
