//! `cargo xtask gen --check` as a user runs it: exit codes and the messages naming what is
//! stale, missing or drifted.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn upstream() -> Option<PathBuf> {
    let dir = mcpwire_codegen::mcp_schema_dir(&workspace());
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: MCP schemas not found at {}", dir.display());
        None
    }
}

fn xtask(args: &[&str], schema_dir: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env("MCP_SCHEMA_DIR", schema_dir)
        .output()
        .expect("xtask runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn check_passes_on_the_committed_tree() {
    let Some(dir) = upstream() else { return };
    let (code, text) = xtask(&["gen", "--check"], &dir);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("fresh"), "{text}");
}

#[test]
fn check_names_the_drifted_version_and_the_stale_file() {
    let Some(dir) = upstream() else { return };
    let copy = std::env::temp_dir().join(format!("mcpwire-xtask-drift-{}", std::process::id()));
    for version in mcpwire_codegen::MCP_VERSIONS {
        std::fs::create_dir_all(copy.join(version)).unwrap();
        let mut bytes = std::fs::read(dir.join(version).join("schema.json")).unwrap();
        if version == "2025-06-18" {
            bytes.extend_from_slice(b"\n"); // same schema, different bytes
        }
        std::fs::write(copy.join(version).join("schema.json"), bytes).unwrap();
    }
    let (code, text) = xtask(&["gen", "--check"], &copy);
    std::fs::remove_dir_all(&copy).ok();
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("MCP 2025-06-18 drifted"), "{text}");
    assert!(
        text.contains("stale: crates/mcpwire-types/src/generated/mcp/v2025_06_18.rs"),
        "{text}"
    );
    assert!(!text.contains("MCP 2025-11-25 drifted"), "{text}");
}

#[test]
fn a_missing_schema_folder_is_explained() {
    let missing = std::env::temp_dir().join("mcpwire-no-such-schema-dir");
    let (code, text) = xtask(&["gen", "--check"], &missing);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("MCP_SCHEMA_DIR") && text.contains("mcpwire-no-such-schema-dir"),
        "{text}"
    );
}

#[test]
fn unknown_arguments_are_usage_errors() {
    let (code, text) = xtask(&["gen", "--frobnicate"], Path::new("."));
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("usage: cargo xtask gen"), "{text}");
}
