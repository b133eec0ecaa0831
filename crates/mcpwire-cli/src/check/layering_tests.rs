//! The files of `check/` import each other in one direction only: no file reaches itself
//! through `super::` imports (issue 30 item 4 untangled `stdio` ↔ `handshake`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each file's `super::NAME` (or `crate::check::NAME`) imports of sibling files and folder
/// modules (`mod.rs` and tests left out).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/check");
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("src/check") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if name == "mod" || name.ends_with("_tests") {
            continue;
        }
        // A folder module (`auth/`) is one node: the text of all its files.
        let text = if path.is_dir() {
            let mut text = String::new();
            for file in std::fs::read_dir(&path).expect("a module folder") {
                text.push_str(
                    &std::fs::read_to_string(file.expect("entry").path()).expect("source"),
                );
            }
            text
        } else {
            std::fs::read_to_string(&path).expect("source")
        };
        files.insert(name.to_owned(), text);
    }
    files
        .iter()
        .map(|(name, text)| {
            let used = text
                .split("super::")
                .skip(1)
                .chain(text.split("crate::check::").skip(1))
                .map(|rest| {
                    rest.chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .filter(|dep| dep != name && files.contains_key(dep))
                .collect();
            (name.clone(), used)
        })
        .collect()
}

/// A path from `from` back to `to` through the graph, if any.
fn path_back(
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
    for next in graph.get(from)? {
        if let Some(mut rest) = path_back(graph, next, to, seen) {
            rest.insert(0, from.to_owned());
            return Some(rest);
        }
    }
    None
}

#[test]
fn no_check_file_imports_itself_through_others() {
    let graph = graph();
    assert!(graph.contains_key("stdio") && graph.contains_key("handshake"));
    assert!(graph["stdio"].contains("handshake"), "{graph:?}");
    for (name, deps) in &graph {
        for dep in deps {
            if let Some(cycle) = path_back(&graph, dep, name, &mut BTreeSet::new()) {
                panic!("import cycle: {name} -> {}", cycle.join(" -> "));
            }
        }
    }
}
