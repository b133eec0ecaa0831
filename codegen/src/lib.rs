//! JSON Schema to Rust code generator.
