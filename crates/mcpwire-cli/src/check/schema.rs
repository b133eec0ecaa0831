//! Where `mcpwire check` reads the MCP schemas every reply is validated against
//! (`reply-schema-invalid`); the validation itself is mcpwire-proptest's
//! [`reply_schema`](mcpwire_proptest::reply_schema), shared with `check_server`.
//!
//! The released schemas are built into the binary (`build.rs`), so an installed checker
//! validates replies from any working directory; `--schema-dir` (or `MCP_SCHEMA_DIR`) names a
//! folder for a schema the binary does not carry.

use std::path::{Path, PathBuf};

use mcpwire_types::ProfileFacts;

pub use mcpwire_proptest::reply_schema::{ReplySchemas, SchemaCheck};

include!(concat!(env!("OUT_DIR"), "/embedded_schemas.rs"));

/// The default schema folder when neither `--schema-dir` nor `MCP_SCHEMA_DIR` names one and
/// the binary carries no schema of the version.
pub const DEFAULT_DIR: &str = "../shared/schemas/mcp";

/// The folder the schemas are read from: `--schema-dir`, else `MCP_SCHEMA_DIR`, else
/// [`DEFAULT_DIR`] (relative to the working directory).
pub fn schema_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MCP_SCHEMA_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR))
}

/// The schema of `version` built into this binary, if it carries one.
///
/// ```
/// use mcpwire_cli::check::schema::embedded;
/// assert!(embedded("1999-01-01").is_none());
/// ```
pub fn embedded(version: &str) -> Option<&'static [u8]> {
    EMBEDDED
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, bytes)| *bytes)
}

/// The schemas of `facts`' version: from `--schema-dir` when given (it must hold the file);
/// else from `MCP_SCHEMA_DIR` when it holds the file; else the copy built into the binary;
/// else from [`DEFAULT_DIR`].
pub fn load(
    facts: &'static ProfileFacts,
    flag: Option<&Path>,
) -> Result<(Option<ReplySchemas>, SchemaCheck), String> {
    if let Some(dir) = flag {
        return ReplySchemas::load(facts, dir, true);
    }
    if let Some(dir) = std::env::var_os("MCP_SCHEMA_DIR") {
        let loaded = ReplySchemas::load(facts, Path::new(&dir), false)?;
        if loaded.0.is_some() {
            return Ok(loaded);
        }
    }
    if let Some(version) = facts.protocol_version
        && let Some(bytes) = embedded(version)
    {
        let origin = PathBuf::from(format!("(built into mcpwire) {version}/schema.json"));
        let loaded = ReplySchemas::from_bytes(facts, bytes, origin, false)?;
        if loaded.0.is_some() {
            return Ok(loaded);
        }
    }
    ReplySchemas::load(facts, Path::new(DEFAULT_DIR), false)
}
