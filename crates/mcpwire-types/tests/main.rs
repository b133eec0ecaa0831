//! The generated types' integration tests, built as one test binary: one module per concept,
//! each in its own file beside this one, with the helpers they share. Run one file's tests
//! with `cargo test -p mcpwire-types --test integration <module>::`.

// Helpers shared by the modules below.
mod common;

mod constructors;
mod cross_version;
mod differential;
mod examples_2026;
mod free_form_text;
mod integer_text;
mod strategies;
mod tool_schema_properties;
mod union_semantics;
