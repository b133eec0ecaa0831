//! The facts about a protocol profile that the wire rules depend on.
//!
//! Values of [`ProfileFacts`] are *generated* from the schemas by `cargo xtask gen`
//! (see [`crate::facts`]); this file only defines their shape.

/// Which JSON types a profile accepts for a request id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdTypes {
    /// A JSON string.
    pub string: bool,
    /// A JSON number with no fractional part (JSON Schema `integer`).
    pub integer: bool,
    /// Any JSON number, including fractions (JSON Schema `number`).
    pub number: bool,
    /// JSON `null`.
    pub null: bool,
}

/// Which JSON types a profile accepts for `params`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParamsTypes {
    /// By-name parameters: a JSON object.
    pub object: bool,
    /// By-position parameters: a JSON array.
    pub array: bool,
}

/// Everything the envelope rules need to know about one protocol profile,
/// derived from that profile's JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProfileFacts {
    /// Profile name as used on the command line: `jsonrpc-2.0` or `mcp-<version>`.
    pub name: &'static str,
    /// MCP protocol version string (`2025-11-25`), `None` for plain JSON-RPC 2.0.
    pub protocol_version: Option<&'static str>,
    /// Id types the schema's `RequestId` admits.
    pub id_types: IdTypes,
    /// Whether the schema's error response lists `id` as required. When it does, a reply
    /// whose id is unrecoverable carries `"id": null`; when it does not, the id is omitted.
    pub error_response_requires_id: bool,
    /// Whether the schema admits a batch (an array of messages) at the top level.
    pub batches: bool,
    /// Types the schema admits for a request's `params`.
    pub params_types: ParamsTypes,
    /// Path of the schema the facts were derived from, relative to its root folder.
    pub schema_file: &'static str,
    /// sha256 (lowercase hex) of that schema file.
    pub schema_sha256: &'static str,
}
