//! Loading a JSON Schema document and resolving `$ref`s by JSON pointer.

use serde_json::Value;

use crate::error::{CodegenError, Result};

/// A parsed schema document with its definitions container (`definitions` in draft-07,
/// `$defs` in 2020-12).
#[derive(Debug, Clone)]
pub struct Document {
    root: Value,
    defs_key: &'static str,
}

impl Document {
    /// Parses `bytes` as a schema document.
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let root: Value = serde_json::from_slice(bytes)
            .map_err(|e| CodegenError::at("#", format!("not a JSON document: {e}")))?;
        let defs_key = if root.get("$defs").is_some() {
            "$defs"
        } else if root.get("definitions").is_some() {
            "definitions"
        } else {
            return Err(CodegenError::at(
                "#",
                "no `$defs` or `definitions` container",
            ));
        };
        if !root[defs_key].is_object() {
            return Err(CodegenError::at(format!("#/{defs_key}"), "not an object"));
        }
        Ok(Self { root, defs_key })
    }

    /// The definitions container key (`$defs` or `definitions`).
    pub fn defs_key(&self) -> &'static str {
        self.defs_key
    }

    /// Definition names in sorted order.
    pub fn definition_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.root[self.defs_key]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    /// The schema of definition `name`.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.root[self.defs_key].get(name)
    }

    /// The JSON pointer of definition `name`.
    pub fn definition_pointer(&self, name: &str) -> String {
        format!("#/{}/{}", self.defs_key, escape(name))
    }

    /// Resolves a `$ref` that names a definition (`#/$defs/X` or `#/definitions/X`) to that
    /// definition's name. Other references are an error naming `pointer`.
    pub fn ref_target(&self, reference: &str, pointer: &str) -> Result<String> {
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
                "unsupported `$ref` {reference:?}: only references to a definition are supported"
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
