//! Embeds the released MCP schemas (`$MCP_SCHEMA_DIR/<version>/schema.json`, else
//! `../shared/schemas/mcp` beside the workspace) in the `mcpwire` binary, so that `mcpwire
//! check` validates every reply wherever it is run from. The files are read where they are
//! (`include_bytes!` of their path), never copied into the repository; a build without them
//! embeds none and says so (the checker then reads `--schema-dir` or `MCP_SCHEMA_DIR` at run
//! time, as before).

use std::fmt::Write;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SCHEMA_DIR");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = std::env::var_os("MCP_SCHEMA_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                manifest.join(dir)
            }
        })
        .unwrap_or_else(|| manifest.join("../../../shared/schemas/mcp"));
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut versions: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let file = entry.path().join("schema.json");
            let dated = name.len() == 10 && name.bytes().all(|b| b.is_ascii_digit() || b == b'-');
            (dated && file.is_file()).then_some((name, file))
        })
        .collect();
    versions.sort();
    if versions.is_empty() {
        println!(
            "cargo:warning=no MCP schemas at {}: the checker embeds none (set MCP_SCHEMA_DIR at build time to embed them)",
            dir.display()
        );
    }
    let mut source = String::from(
        "/// The MCP schemas built into the binary: `(version, schema.json bytes)`, oldest first.\npub const EMBEDDED: &[(&str, &[u8])] = &[\n",
    );
    for (version, file) in &versions {
        println!("cargo:rerun-if-changed={}", file.display());
        let path = file.canonicalize().unwrap_or_else(|_| file.clone());
        let _ = writeln!(
            source,
            "    ({version:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    source.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("embedded_schemas.rs"), source).expect("write embedded_schemas.rs");
}
