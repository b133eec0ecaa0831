//! The data a version-neutral model needs to convert to and from every MCP version's types
//! with one conversion per type: `mcp/members.rs`, the members each version's struct lacks.
//!
//! A type the model converts (`Tool`, `Resource`, `TextContent`, …) mostly keeps its shape
//! from version to version and gains members (`title` in 2025-06-18, `icons` in 2025-11-25).
//! Where the shapes are the same, one conversion written against "the version's `Tool`" serves
//! every version; what changes is only which members exist. That is what this file answers, at
//! compile time: `mcp_if_member!(v2025_03_26, Tool, icons, { … }, { … })` expands to its first
//! block when the `Tool` of `v2025_03_26` has the field `icons`, else to its second. The answer
//! comes from the lowered models, so a new version's added or dropped member needs no edit in
//! the model's conversions.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::model::{Kind, Module};
use crate::{GENERATED_DIR, GeneratedFile, header};

/// The path of the generated file, relative to the workspace root.
pub(crate) fn path() -> String {
    format!("{GENERATED_DIR}/mcp/members.rs")
}

/// For each struct name defined in more than one version and each field some version's struct
/// has, the versions (module names) whose struct of that name lacks it.
pub(crate) fn lacking<'a>(
    versions: &'a [String],
    modules: &[&Module],
) -> BTreeSet<(&'a str, String, String)> {
    let mut fields: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for module in modules {
        for def in &module.types {
            if let Kind::Struct(s) = &def.kind {
                let entry = fields.entry(def.name.as_str()).or_default();
                entry.extend(s.fields.iter().map(|f| f.rust_name.as_str()));
            }
        }
    }
    let mut out = BTreeSet::new();
    for (name, all) in &fields {
        for (version, module) in versions.iter().zip(modules) {
            let Some(def) = module.get(name) else {
                continue;
            };
            let Kind::Struct(s) = &def.kind else {
                continue;
            };
            for field in all {
                if !s.fields.iter().any(|f| f.rust_name == *field) {
                    out.insert((version.as_str(), (*name).to_owned(), (*field).to_owned()));
                }
            }
        }
    }
    out
}

/// `mcp/members.rs`: the `mcp_if_member!` macro, one rule per member a version's struct
/// lacks (in version, type, member order), whose header hashes the schema lock like
/// `shared.rs`'s.
pub(crate) fn file(versions: &[String], modules: &[&Module], lock: &str) -> GeneratedFile {
    let mut out = header::header_line(crate::MCP_LOCK, lock.as_bytes());
    out.push_str(
        "//! Which members each MCP version's structs lack, for conversions written once for every\n\
         //! version (the model's, in `mcpwire-model`).\n\
         \n\
         /// `mcp_if_member!(v2025_03_26, Tool, icons, { … }, { … })`: the first block when the\n\
         /// struct `Tool` of module `v2025_03_26` has the field `icons`, else the second.\n\
         ///\n\
         /// One rule per (version, struct, field) where a struct of that name in another\n\
         /// version has the field and this version's lacks it; any other question is answered\n\
         /// \"has it\", so ask only about a struct the version defines. Each block is expanded as\n\
         /// it is written (a block expression).\n\
         #[doc(hidden)]\n\
         #[macro_export]\n\
         macro_rules! mcp_if_member {\n",
    );
    for (version, name, field) in lacking(versions, modules) {
        let _ = writeln!(
            out,
            "    ({version}, {name}, {field}, $has:block, $lacks:block) => {{ $lacks }};"
        );
    }
    out.push_str("    ($m:ident, $t:ident, $f:ident, $has:block, $lacks:block) => { $has };\n}\n");
    GeneratedFile {
        path: path(),
        contents: out,
        warnings: Vec::new(),
    }
}
