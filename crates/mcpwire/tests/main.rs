//! mcpwire's integration tests, built as one test binary: one module per concept, each in its
//! own file beside this one. One binary links the runtime, tokio and hyper once, where a
//! binary per file linked them 13 times over. Run one file's tests with `cargo test -p
//! mcpwire --test integration <module>::`.

// The HTTP tests' helpers, shared with mcpwire-server's tests.
#[cfg(feature = "http")]
mod http_support;

#[cfg(feature = "tokio")]
mod call_context;
mod http_cluster;
mod http_get_resume;
mod http_give_way;
mod http_hardening;
mod http_limits;
mod http_service;
mod http_shutdown;
mod http_tower;
mod http_transport;
mod http_trusted_proxy;
mod one_driver;
#[cfg(feature = "tokio")]
mod service;
