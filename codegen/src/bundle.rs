//! Joining a schema that refers to other files into one document: every file a `$ref` names
//! by a relative path (`common.json#/$defs/Id`, `meta/core`) is read from beside the file
//! that names it, its root and its definitions become definitions of the first document, and
//! the references are rewritten to point at them. `$dynamicRef: "#name"` is read as a
//! reference to the first document's root when that root declares `$dynamicAnchor: name`
//! (the outermost dynamic scope, as for the 2020-12 metaschema); other `$dynamicRef`s are left
//! for the generator to refuse.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::schema::{escape, unescape};

/// Members whose values are data, not schemas: never rewritten.
const DATA: &[&str] = &["const", "enum", "default", "examples"];

/// Reads the schema at `path` and every file it refers to, as one JSON document.
pub fn bundle(path: &Path) -> Result<Value, String> {
    let mut root = read(path)?;
    let key = if root.get("definitions").is_some() && root.get("$defs").is_none() {
        "definitions"
    } else {
        "$defs"
    };
    let anchor = root
        .get("$dynamicAnchor")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut state = Bundler {
        key,
        anchor,
        files: BTreeMap::new(),
        added: Map::new(),
        taken: root
            .get(key)
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default(),
    };
    let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
    state.rewrite(&mut root, &dir, None)?;
    if !state.added.is_empty() {
        let container = root
            .as_object_mut()
            .ok_or("the schema is not an object")?
            .entry(key)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(defs) = container {
            defs.extend(std::mem::take(&mut state.added));
        }
    }
    Ok(root)
}

fn read(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

/// One file joined in: the definition name of its root and of each of its definitions.
struct Joined {
    root: String,
    defs: BTreeMap<String, String>,
}

struct Bundler {
    /// The first document's definitions container.
    key: &'static str,
    /// The first document root's `$dynamicAnchor`.
    anchor: Option<String>,
    /// Files joined so far, by canonical path.
    files: BTreeMap<PathBuf, Joined>,
    /// Definitions to add to the first document.
    added: Map<String, Value>,
    /// Definition names in use.
    taken: std::collections::BTreeSet<String>,
}

impl Bundler {
    fn name(&mut self, wanted: &str) -> String {
        crate::names::unique(wanted.to_owned(), &mut self.taken)
    }

    fn pointer(&self, name: &str) -> String {
        format!("#/{}/{}", self.key, escape(name))
    }

    /// Rewrites the references in `value`, a schema of the file in `dir` (`file`: `None` for
    /// the first document).
    fn rewrite(
        &mut self,
        value: &mut Value,
        dir: &Path,
        file: Option<&Path>,
    ) -> Result<(), String> {
        match value {
            Value::Object(map) => {
                let dynamic = map.get("$dynamicRef").and_then(Value::as_str);
                if let (Some(dynamic), Some(anchor)) = (dynamic, &self.anchor)
                    && dynamic.strip_prefix('#') == Some(anchor.as_str())
                {
                    // The first document's root, whichever file this is in.
                    map.remove("$dynamicRef");
                    map.insert("$ref".into(), Value::from("#"));
                } else if let Some(Value::String(reference)) = map.get("$ref").cloned()
                    && let Some(new) = self.resolve(&reference, dir, file)?
                {
                    map.insert("$ref".into(), Value::from(new));
                }
                for (k, v) in map.iter_mut() {
                    if !DATA.contains(&k.as_str()) {
                        self.rewrite(v, dir, file)?;
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.rewrite(item, dir, file)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The rewritten form of `reference` (named in `file`, in `dir`), or `None` to keep it.
    fn resolve(
        &mut self,
        reference: &str,
        dir: &Path,
        file: Option<&Path>,
    ) -> Result<Option<String>, String> {
        if reference.contains("://") {
            return Ok(None);
        }
        let (target, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let path = if target.is_empty() {
            match file {
                // A reference inside the first document stays as it is.
                None => return Ok(None),
                Some(f) => f.to_owned(),
            }
        } else {
            let plain = dir.join(target);
            let with_json = dir.join(format!("{target}.json"));
            if plain.is_file() {
                plain
            } else if with_json.is_file() {
                with_json
            } else {
                return Err(format!(
                    "`$ref` {reference:?}: no file {} (nor {})",
                    plain.display(),
                    with_json.display()
                ));
            }
        };
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.join(&path)?;
        let joined = &self.files[&path];
        if fragment.is_empty() {
            return Ok(Some(self.pointer(&joined.root.clone())));
        }
        for key in ["/$defs/", "/definitions/"] {
            if let Some(name) = fragment.strip_prefix(key) {
                let name = unescape(name);
                if let Some(hoisted) = joined.defs.get(&name) {
                    return Ok(Some(self.pointer(&hoisted.clone())));
                }
            }
        }
        Err(format!(
            "`$ref` {reference:?}: only a file, its root or one of its definitions can be named"
        ))
    }

    /// Reads the file at canonical `path` (once) and adds its root and definitions.
    fn join(&mut self, path: &Path) -> Result<(), String> {
        if self.files.contains_key(path) {
            return Ok(());
        }
        let mut doc = read(path)?;
        let stem = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = stem.split('.').next().unwrap_or_default().to_owned();
        // Named like any root: its `title`, else its file name.
        let title = doc.get("title").and_then(Value::as_str).unwrap_or_default();
        let root_wanted = if crate::names::pascal_fragment(title).is_empty() {
            crate::names::pascal(&stem)
        } else {
            crate::names::pascal(title)
        };
        let root = self.name(&root_wanted);
        let mut defs = BTreeMap::new();
        let mut bodies = Vec::new();
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(map)) = doc.as_object_mut().and_then(|d| d.remove(key)) {
                for (name, body) in map {
                    let wanted = if self.taken.contains(&name) {
                        format!("{root_wanted}{}", crate::names::pascal(&name))
                    } else {
                        name.clone()
                    };
                    let hoisted = self.name(&wanted);
                    defs.insert(name, hoisted.clone());
                    bodies.push((hoisted, body));
                }
            }
        }
        self.files.insert(
            path.to_owned(),
            Joined {
                root: root.clone(),
                defs,
            },
        );
        let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
        // Inside a joined file, `#` and `#/$defs/X` mean that file.
        let own = |value: &mut Value| rebase(value, path);
        own(&mut doc);
        self.rewrite(&mut doc, &dir, Some(path))?;
        self.added.insert(root, doc);
        for (name, mut body) in bodies {
            own(&mut body);
            self.rewrite(&mut body, &dir, Some(path))?;
            self.added.insert(name, body);
        }
        Ok(())
    }
}

/// Turns the local references of a joined file (`#`, `#/$defs/X`) into references to that
/// file by name, so [`Bundler::resolve`] maps them like any other.
fn rebase(value: &mut Value, file: &Path) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && reference.starts_with('#')
            {
                *reference = format!("{}{reference}", file.display());
            }
            for (k, v) in map.iter_mut() {
                if !DATA.contains(&k.as_str()) {
                    rebase(v, file);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rebase(v, file)),
        _ => {}
    }
}
