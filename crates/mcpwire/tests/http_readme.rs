//! The README's Streamable HTTP example is the `mcpwire::http` doc test (which compiles), line
//! for line.
#![cfg(feature = "http")]

use std::path::Path;

/// The first code block after `marker` in `text`, from the line after `fence` to the closing
/// fence.
fn block_after<'a>(text: &'a str, marker: &str, fence: &str, close: &str) -> Vec<&'a str> {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("{marker:?} not found"));
    let lines = text[start..].lines();
    lines
        .skip_while(|line| line.trim_end() != fence)
        .skip(1)
        .take_while(|line| line.trim_end() != close)
        .collect()
}

#[test]
fn the_readme_example_is_the_doc_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let module = std::fs::read_to_string(root.join("src/http/mod.rs")).unwrap();
    let in_readme = block_after(&readme, "## Streamable HTTP", "```rust", "```");
    let in_docs: Vec<&str> =
        block_after(&module, "//! # Streamable HTTP", "//! ```no_run", "//! ```")
            .into_iter()
            .map(|line| {
                line.strip_prefix("//! ")
                    .unwrap_or(line.trim_start_matches("//!"))
            })
            .filter(|line| !line.starts_with("# "))
            .collect();
    assert!(in_readme.len() > 5, "{in_readme:?}");
    assert_eq!(in_readme, in_docs);
}
