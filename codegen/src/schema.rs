//! Loading a JSON Schema document and resolving `$ref`s by JSON pointer.
//!
//! A document's definitions are its `$defs` (2020-12) or `definitions` (draft-07) members,
//! plus the root schema itself when it describes a value (has a keyword besides the
//! annotations and the definitions container): the root is then one more definition, under
//! the root name, at pointer `#`, and `$ref: "#"` names it.

use serde_json::Value;

use crate::error::{CodegenError, Result};

/// Keywords that only annotate (or hold definitions): they say nothing about which values
/// are valid, so the generated type ignores them; at a document's root they do not make the
/// root a type.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$vocabulary",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// A parsed schema document with its definitions container (`definitions` in draft-07,
/// `$defs` in 2020-12).
#[derive(Debug, Clone)]
pub struct Document {
    root: Value,
    defs_key: &'static str,
    /// The definition name of the root schema, when the root describes a value.
    root_name: Option<String>,
}

impl Document {
    /// Parses `bytes` as a schema document whose root (when it describes a value) is no
    /// definition.
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        Self::parse_with_root(bytes, None)
    }

    /// Parses `bytes` as a schema document; when the root describes a value it is the
    /// definition `root_name` (made unique against the others), else `root_name` is unused.
    pub fn parse_with_root(bytes: &[u8], root_name: Option<&str>) -> Result<Self> {
        let root: Value = serde_json::from_slice(bytes)
            .map_err(|e| CodegenError::at("#", format!("not a JSON document: {e}")))?;
        let defs_key = if root.get("$defs").is_some() {
            "$defs"
        } else if root.get("definitions").is_some() {
            "definitions"
        } else {
            "$defs"
        };
        if root.get(defs_key).is_some_and(|d| !d.is_object()) {
            return Err(CodegenError::at(format!("#/{defs_key}"), "not an object"));
        }
        let describes = match &root {
            Value::Object(obj) => obj.keys().any(|k| !ANNOTATIONS.contains(&k.as_str())),
            _ => false,
        };
        let mut doc = Self {
            root,
            defs_key,
            root_name: None,
        };
        match (root_name, describes) {
            (Some(name), true) => {
                let mut taken: std::collections::BTreeSet<String> =
                    doc.container_names().into_iter().collect();
                doc.root_name = Some(crate::names::unique(name.to_owned(), &mut taken));
            }
            (None, true) | (_, false) if doc.container_names().is_empty() => {
                return Err(CodegenError::at(
                    "#",
                    "no `$defs` or `definitions` container and no root type",
                ));
            }
            _ => {}
        }
        Ok(doc)
    }

    /// The definitions container key (`$defs` or `definitions`).
    pub fn defs_key(&self) -> &'static str {
        self.defs_key
    }

    /// The root schema.
    pub fn root(&self) -> &Value {
        &self.root
    }

    /// The definition name of the root schema, when it is one.
    pub fn root_name(&self) -> Option<&str> {
        self.root_name.as_deref()
    }

    fn container_names(&self) -> Vec<String> {
        self.root
            .get(self.defs_key)
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Definition names in sorted order (the root's among them when it is one).
    pub fn definition_names(&self) -> Vec<String> {
        let mut names = self.container_names();
        names.extend(self.root_name.clone());
        names.sort();
        names
    }

    /// The schema of definition `name`.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        if self.root_name.as_deref() == Some(name) {
            return Some(&self.root);
        }
        self.root.get(self.defs_key)?.get(name)
    }

    /// The JSON pointer of definition `name`.
    pub fn definition_pointer(&self, name: &str) -> String {
        if self.root_name.as_deref() == Some(name) {
            return "#".into();
        }
        format!("#/{}/{}", self.defs_key, escape(name))
    }

    /// Resolves a `$ref` that names a definition (`#/$defs/X`, `#/definitions/X`, or `#` for
    /// the root) to that definition's name. Other references are an error naming `pointer`.
    pub fn ref_target(&self, reference: &str, pointer: &str) -> Result<String> {
        if reference == "#"
            && let Some(root) = &self.root_name
        {
            return Ok(root.clone());
        }
        for key in ["$defs", "definitions"] {
            let prefix = format!("#/{key}/");
            if let Some(rest) = reference.strip_prefix(&prefix) {
                let name = unescape(rest);
                if key == self.defs_key && !name.contains('/') && self.definition(&name).is_some() {
                    return Ok(name);
                }
            }
        }
        Err(CodegenError::at(
            pointer,
            format!(
                "unsupported `$ref` {reference:?}: only references to a definition or to the \
                 root are supported"
            ),
        ))
    }
}

/// Escapes one JSON pointer token.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one JSON pointer token.
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

impl Document {
    /// The value at a `#`-prefixed JSON pointer.
    pub fn lookup(&self, pointer: &str) -> Option<&Value> {
        let raw = pointer.strip_prefix('#')?;
        let path: String = raw
            .split('/')
            .map(|t| {
                if t.is_empty() {
                    String::new()
                } else {
                    format!("/{}", t)
                }
            })
            .collect();
        self.root.pointer(&path)
    }
}
