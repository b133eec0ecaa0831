//! Modules that import each other in one direction only. A node is one file of a folder, or a
//! sub-folder taken whole; an edge is an import of another node through one of the folder's
//! path prefixes. No node may reach itself back.
//!
//! - `mcpwire-cli/src/check/` (issue 30 untangled `stdio` ↔ `handshake`), imports through
//!   `super::` and `crate::check::`.
//! - `mcpwire-model/src/` (issue 48 gave each concept a folder and broke its five cycles,
//!   among them `content_read` ↔ `result`: the content reader built tool results), imports
//!   through `crate::`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A folder of the workspace, from this package's directory.
fn folder(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// The text of a node: a file, or every file under a folder.
fn text_of(path: &Path) -> String {
    if !path.is_dir() {
        return std::fs::read_to_string(path).expect("a source file");
    }
    let mut text = String::new();
    for entry in std::fs::read_dir(path).expect("a module folder") {
        text.push_str(&text_of(&entry.expect("an entry").path()));
    }
    text
}

/// Each node of `dir` with the other nodes it imports through `prefixes` (`PREFIX::name`, or a
/// name in a `PREFIX::{…}` group). `mod.rs`, `lib.rs` (they declare every node) and `*_tests`
/// files are left out.
fn graph(dir: &Path, prefixes: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut nodes = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("the folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        if !matches!(name, "mod" | "lib") && !name.ends_with("_tests") {
            nodes.insert(name.to_owned(), text_of(&path));
        }
    }
    let word = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    nodes
        .iter()
        .map(|(name, text)| {
            let mut used = BTreeSet::new();
            for rest in prefixes.iter().flat_map(|p| text.split(p).skip(1)) {
                match rest.strip_prefix('{') {
                    Some(group) => {
                        let group = &group[..group.find('}').unwrap_or(group.len())];
                        used.extend(group.split(',').map(|item| word(item.trim())));
                    }
                    None => {
                        used.insert(word(rest));
                    }
                }
            }
            used.retain(|dep| dep != name && nodes.contains_key(dep));
            (name.clone(), used)
        })
        .collect()
}

/// A path of imports from `from` to `to`, if there is one.
fn path_to(
    graph: &BTreeMap<String, BTreeSet<String>>,
    from: &str,
    to: &str,
    seen: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if from == to {
        return Some(vec![to.to_owned()]);
    }
    if !seen.insert(from.to_owned()) {
        return None;
    }
    graph.get(from)?.iter().find_map(|next| {
        let mut path = path_to(graph, next, to, seen)?;
        path.insert(0, from.to_owned());
        Some(path)
    })
}

/// Every import that starts a way back to its importer, written `a -> b -> … -> a`.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (name, deps) in graph {
        for dep in deps {
            if let Some(back) = path_to(graph, dep, name, &mut BTreeSet::new()) {
                found.push(format!("{name} -> {}", back.join(" -> ")));
            }
        }
    }
    found
}

#[test]
fn no_check_file_imports_itself_through_others() {
    let graph = graph(
        &folder("crates/mcpwire-cli/src/check"),
        &["super::", "crate::check::"],
    );
    assert!(
        graph["stdio"].contains("handshake"),
        "read from the sources: {graph:?}"
    );
    assert_eq!(cycles(&graph), Vec::<String>::new());
}

#[test]
fn no_concept_of_the_model_imports_itself_back() {
    let graph = graph(&folder("crates/mcpwire-model/src"), &["crate::"]);
    assert!(
        graph["result"].contains("content"),
        "read from the sources: {graph:?}"
    );
    assert_eq!(cycles(&graph), Vec::<String>::new());
}
