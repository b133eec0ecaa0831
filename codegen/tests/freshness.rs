//! The committed generated files equal an in-memory regeneration (what `cargo xtask gen
//! --check` checks), and the generator is fast enough to run on every build of CI.

use std::path::Path;
use std::time::Instant;

use mcpwire_codegen::{Options, generate_workspace, mcp_schema_dir};

#[test]
fn committed_generated_files_are_fresh() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = mcp_schema_dir(workspace);
    if !dir.is_dir() {
        eprintln!(
            "SKIPPED: MCP schemas not found at {} (set MCP_SCHEMA_DIR); freshness not checked",
            dir.display()
        );
        return;
    }
    let started = Instant::now();
    let files = generate_workspace(workspace, Options::default())
        .unwrap_or_else(|e| panic!("generation failed: {e}"));
    eprintln!(
        "regenerated {} files in {:?}",
        files.len(),
        started.elapsed()
    );
    let mut stale = Vec::new();
    for file in &files {
        match std::fs::read_to_string(workspace.join(&file.path)) {
            Ok(committed) if committed == file.contents => {}
            Ok(_) => stale.push(format!("stale: {}", file.path)),
            Err(_) => stale.push(format!("missing: {}", file.path)),
        }
    }
    assert!(
        stale.is_empty(),
        "run `cargo xtask gen`:\n{}",
        stale.join("\n")
    );
}

#[test]
fn schema_descriptions_appear_only_with_the_opt_in_flag() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let bytes = std::fs::read(workspace.join(mcpwire_codegen::JSONRPC_SCHEMA)).unwrap();
    let flavor = mcpwire_codegen::jsonrpc_flavor();
    let file = mcpwire_codegen::JSONRPC_SCHEMA;
    let plain =
        mcpwire_codegen::generate_module(&bytes, file, &flavor, Options::default()).unwrap();
    let with_docs = mcpwire_codegen::generate_module(
        &bytes,
        file,
        &flavor,
        Options {
            docs_from_schema: true,
        },
    )
    .unwrap();
    let prose = "Section 4.1: a call without `id`";
    assert!(!plain.contains(prose));
    assert!(with_docs.contains(prose));
}
