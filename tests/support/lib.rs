//! Shared helpers for the workspace-level tests.

pub mod counting_alloc;
pub mod endpoint;
pub mod golden;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// docs/runtime.md's Rust examples (the peer, the routers, async serving), compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/runtime.md")]
pub struct RuntimeGuideExamples;

/// docs/http.md's Rust examples (Streamable HTTP servers), compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/http.md")]
pub struct HttpGuideExamples;

/// docs/proptest.md's Rust examples (`check_server` on a hand-written server), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/proptest.md")]
pub struct ProptestGuideExamples;
