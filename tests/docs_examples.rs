//! The MCP server example stands in three places: the README (compiled as a doc test by
//! `support/lib.rs`), the opening of `mcpwire`'s crate documentation (not compiled there:
//! `mcpwire-server` depends on `mcpwire`) and `crates/mcpwire-server/examples/mcp_server.rs`
//! (built and run by `check_mcp_server`). These tests keep the copies from drifting apart.

use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The body of the first fenced block opening with `fence` after the line `heading`.
fn fenced_block<'a>(text: &'a str, heading: &str, fence: &str) -> &'a str {
    let after_heading = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let open = text[after_heading..]
        .find(fence)
        .map(|i| after_heading + i + fence.len())
        .unwrap_or_else(|| panic!("no {fence:?} after {heading:?}"));
    let body_start = open + text[open..].find('\n').expect("fence line ends") + 1;
    let close = text[body_start..]
        .find("```")
        .unwrap_or_else(|| panic!("the block after {heading:?} is not closed"));
    &text[body_start..body_start + close]
}

/// `//!` doc comment lines with their prefix removed.
fn undoc(doc: &str) -> String {
    doc.lines()
        .map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("//!").unwrap_or(line);
            line.strip_prefix(' ').unwrap_or(line)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn readme_server() -> String {
    fenced_block(
        &read("README.md"),
        "## An MCP server in 40 lines",
        "```rust,no_run",
    )
    .to_owned()
}

fn without_whitespace(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The handlers: from the first `async fn` to the `main` function (its `#[tokio::main]`
/// line in the README; the example builds its runtime in a plain `fn main`).
fn handlers(code: &str) -> &str {
    let start = code.find("async fn add").expect("an `add` handler");
    let end = code
        .find("#[tokio::main")
        .or_else(|| code.find("\nfn main("))
        .expect("a main function");
    &code[start..end]
}

#[test]
fn the_crate_docs_open_with_the_readme_server() {
    let lib = read("crates/mcpwire/src/lib.rs");
    let opening = lib.find("## ").expect("the crate docs have sections");
    assert!(
        lib[opening..].starts_with("## Writing an MCP server"),
        "mcpwire's crate docs must open with the MCP server example"
    );
    let in_docs = undoc(fenced_block(
        &lib,
        "## Writing an MCP server",
        "```rust,ignore",
    ));
    assert_eq!(
        in_docs.trim_end(),
        readme_server().trim_end(),
        "crates/mcpwire/src/lib.rs and the README show different MCP servers"
    );
}

#[test]
fn the_readme_server_has_the_example_binarys_handlers() {
    let example = read("crates/mcpwire-server/examples/mcp_server.rs");
    let readme = readme_server();
    assert_eq!(
        without_whitespace(handlers(&readme)),
        without_whitespace(handlers(&example)),
        "the README's tools differ from crates/mcpwire-server/examples/mcp_server.rs"
    );
}

#[test]
fn the_readme_server_is_about_forty_lines() {
    let code_lines = readme_server()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count();
    assert!(
        code_lines <= 50,
        "the README's MCP server grew to {code_lines} non-blank lines"
    );
}
