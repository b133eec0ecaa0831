//! Snapshot of the sharing between versions: three small schemas standing for MCP versions
//! (`tests/snapshots_shared/<version>/schema.json`) generate exactly the committed
//! `expected/` files — a type the same in all three (`Tool`, `Annotations`), types shared by
//! two (the `Content` union and its variants; `Role`), a type each version keeps (`Message`,
//! whose model is identical in every version but refers to a `Role` that differs, and
//! `Conversation`, which refers to `Message`: two rounds of refinement), and a type
//! of one version (`Icon`). The shared `Content` union holds the shape of a union table (its
//! `static TABLE`: variants, the members read as strings, the decision by `type`) and its
//! `union!` call. The strategies of a shared type are written once too, in its shared
//! module's `strategies` (`expected/<shared module>/strategies.rs`), and each version's
//! `strategies` re-exports them and calls their JSON functions (`expected/<version>/strategies.rs`).
//! Set `UPDATE_SNAPSHOTS=1` to rewrite the expectations.

use std::path::Path;

use mcpwire_codegen::{McpSchema, Options, generate_mcp_modules};

#[test]
fn shared_and_own_types_generate_their_expected_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots_shared");
    let mcp: Vec<McpSchema> = ["2025-06-18", "2025-11-25", "2026-07-28"]
        .iter()
        .map(|v| McpSchema {
            version: (*v).to_owned(),
            bytes: std::fs::read(root.join(v).join("schema.json")).unwrap(),
        })
        .collect();
    let files = generate_mcp_modules(&mcp, Options::default()).unwrap();
    let again = generate_mcp_modules(&mcp, Options::default()).unwrap();
    assert_eq!(files, again, "generation is deterministic");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    for file in &files {
        // `shared.rs`, `v2025_11_25.rs`, `v2025_11_25/strategies.rs`, …
        let name = file.path.rsplit_once("/mcp/").unwrap().1;
        let path = root.join("expected").join(name);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &file.contents).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == file.contents => {}
            Ok(_) => failures.push(format!("{}: output differs", path.display())),
            Err(_) => failures.push(format!("{}: missing (UPDATE_SNAPSHOTS=1)", path.display())),
        }
    }
    // An expected file nothing generates any more (a shared module's `strategies` that
    // went back into each version) is a difference too.
    let generated: Vec<&str> = files
        .iter()
        .map(|f| f.path.rsplit_once("/mcp/").unwrap().1)
        .collect();
    for expected in expected_files(&root.join("expected"), "") {
        if !generated.contains(&expected.as_str()) {
            failures.push(format!("expected/{expected}: no longer generated"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The files under `dir`, as paths relative to it prefixed by `prefix`.
fn expected_files(dir: &Path, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            out.extend(expected_files(&entry.path(), &format!("{name}/")));
        } else {
            out.push(name);
        }
    }
    out
}
