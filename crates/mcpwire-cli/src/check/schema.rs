//! Where `mcpwire check` reads the MCP schemas every reply is validated against
//! (`reply-schema-invalid`); the validation itself is mcpwire-proptest's
//! [`reply_schema`](mcpwire_proptest::reply_schema), shared with `check_server`.

use std::path::{Path, PathBuf};

pub use mcpwire_proptest::reply_schema::{ReplySchemas, SchemaCheck};

/// The default schema folder when neither `--schema-dir` nor `MCP_SCHEMA_DIR` names one.
pub const DEFAULT_DIR: &str = "../shared/schemas/mcp";

/// The folder the schemas are read from: `--schema-dir`, else `MCP_SCHEMA_DIR`, else
/// [`DEFAULT_DIR`] (relative to the working directory).
pub fn schema_dir(flag: Option<&Path>) -> PathBuf {
    flag.map(Path::to_path_buf)
        .or_else(|| std::env::var_os("MCP_SCHEMA_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DIR))
}
