//! Wire types for JSON-RPC 2.0 and every released version of the Model Context Protocol,
//! generated from the JSON Schemas by `cargo xtask gen`.
//!
//! - [`jsonrpc`]: the JSON-RPC 2.0 envelope, from the project's own schema.
//! - [`facts`]: per-profile facts (id types, batches, id-less error replies) that drive the
//!   runtime's wire rules.
//! - [`mcp`]: one module per MCP version, each behind a cargo feature of the same name
//!   (`v2024_11_05` … `v2026_07_28`; `latest` = 2026-07-28; `all-versions` is the default).
//!   A type defined alike in several versions is one Rust type, which each of those modules
//!   re-exports (`mcp::v2025_06_18::Annotations` and `mcp::v2025_11_25::Annotations` are
//!   the same type); its documentation names every version it serves.
//! - [`support`]: hand-written helpers the generated code calls.
//!
//! # How schema constructs map to Rust
//!
//! - Every schema definition is a type of the same name; an inline object, enum or union gets
//!   the name of its parent plus the member name (`InitializeRequestParams`).
//! - Objects are structs with the exact JSON member names (`#[serde(rename)]`). A member not
//!   listed in `required` is an `Option` that is skipped when `None`; a `[T, "null"]` member is
//!   `Option<T>` when required and `Option<Option<T>>` when optional, so `null` and absence
//!   stay distinct; a required nullable member must be present. An optional member of any
//!   type keeps a present `null`; a `null` where the schema admits none is a decode error.
//! - Undeclared members are kept: where `additionalProperties` is absent or admits them, the
//!   struct's `extra` map holds them as they came and they are encoded back after the declared
//!   ones; `additionalProperties: false` rejects them. The generated `Deserialize` is one call
//!   to [`support::decode_object`] over the struct's member table ([`support::ObjectTable`]),
//!   which reads the members one by one and never buffers the object.
//! - `integer` is [`support::Integer`]: any whole JSON number of any size (`3`, `3.0`, `6e4`,
//!   `18446744073709551616`), held exactly in plain digits within `i64`/`u64` and as its JSON
//!   text otherwise; `3.5` is an error. `number` is `serde_json::Number`, so `50` stays `50`
//!   and `0.5` stays `0.5` on re-encoding; `{}` (any value) is [`Json`] and an
//!   object with any members is [`JsonObject`], a map of such objects (a tool schema's
//!   `properties`) one [`JsonObjectMap`]: kept as their JSON text, exactly as sent.
//! - Structs have `new(required members…)` (in the schema's `required` order; `const` members
//!   are filled in), `with_<member>` setters for the optional ones, `with_extra_member`, and
//!   `Default` when every member is optional; unions have `From<variant type>`.
//! - A `const` member is a zero-sized marker type (`MethodToolsList`, `Jsonrpc2_0`,
//!   `CodeMinus32042`) that encodes as the constant and rejects any other value.
//! - A string `enum` is a Rust enum; `anyOf: [{enum}, {type: string}]` is an open enum with an
//!   `Unknown(String)` variant.
//! - `allOf` is merged into one struct (references resolved, sibling keys such as
//!   `description` allowed).
//! - `anyOf` / `oneOf` / type arrays are enums whose `Deserialize` is hand-generated: a union
//!   of objects reads its members once ([`support::Shape::capture_object`]: string members
//!   decoded, the others as raw text), any other union captures its value's raw text
//!   ([`support::RawJson`]); never a `serde_json::Value`. A variant
//!   is chosen from that [`support::Shape`] without trial decoding (JSON token type, a constant
//!   member such as `method` or `type`, a required member unique to one variant, the most
//!   specific set of required members; each union's decisions are a static
//!   [`support::union_table::UnionTable`]), then [`support::decode_objects`] /
//!   [`support::decode_values`] apply the JSON Schema
//!   meaning: when other variants admitting the value's JSON type remain (none is ruled out by a
//!   missing required member or a constant of another value), `anyOf` falls back to them in
//!   schema order and `oneOf` requires exactly one to match. Errors name the union, the variant,
//!   why it was chosen and the failing member. Unions keyed on `method` have an `Unknown`
//!   variant keeping the method and raw params. Arrays of different item types are told apart
//!   by their first item.
//! - Every MCP module defines `Result` (the base result): import their types
//!   by name rather than with a glob, which would shadow the prelude's `Result`.
//! - Each MCP module also has `ErrorCode` (JSON-RPC codes plus the version's `code`
//!   constants, and `Other(i64)`), `method_kind`, `REQUEST_METHODS`, `NOTIFICATION_METHODS`,
//!   `DEFINITIONS`, `visit_definition` (a definition's type by name, for a
//!   [`support::DefinitionVisitor`]), `roundtrip` / `roundtrip_text` (decode/encode by definition
//!   name, built on `visit_definition`) and, with the `schemars` feature, `json_schema`.
//! - With the `proptest` feature (off by default; never enabled by the runtime crate), every
//!   generated module has a `strategies` submodule: one function per type returning a
//!   `BoxedStrategy` of valid values (`strategies::call_tool_request()`), and
//!   `strategies::definition(name)` giving encoded samples of any definition. Values respect
//!   `minimum`/`maximum`, `minItems`/`maxItems`, `minLength`/`maxLength` and `format`;
//!   recursive types are depth-bounded; union values are those the union decodes back as the
//!   same variant. Building blocks: `support::strategy`.
//!
//! ```
//! use mcpwire_types::mcp::v2025_06_18::ClientRequest;
//! let request: ClientRequest = serde_json::from_str(r#"{"method":"tools/list"}"#).unwrap();
//! assert!(matches!(request, ClientRequest::ListToolsRequest(_)));
//! ```
#![forbid(unsafe_code)]

// Generated code names this crate by its absolute path, so it compiles unchanged here and in
// the generator's snapshot tests.
extern crate self as mcpwire_types;

mod profile_facts;

/// What the generated code calls: the `mcpwire-support` crate, re-exported under the path the
/// generated modules name (`mcpwire_types::support::…`).
pub mod support {
    pub use mcpwire_support::*;
}

pub use mcpwire_support::{Integer, Json, JsonObject, JsonObjectMap};
pub use profile_facts::{IdTypes, ParamsTypes, ProfileFacts};

#[rustfmt::skip]
#[path = "generated/facts.rs"]
pub mod facts;

#[rustfmt::skip]
#[path = "generated/jsonrpc.rs"]
pub mod jsonrpc;

pub mod mcp;
