//! `mcpwire profiles`: the profiles and the facts the wire rules take from their schemas.

use std::fmt::Write;

use mcpwire::Profile;

/// A plain-text table: one row per profile with its id types, the spelling of a missing id in
/// error replies, batch support, params types and the schema's sha256 prefix.
pub fn table() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16} {:<28} {:<14} {:<8} {:<14} schema sha256",
        "profile", "id types", "missing id", "batches", "params"
    );
    for profile in Profile::all() {
        let facts = profile.facts();
        let ids = [
            ("string", facts.id_types.string),
            ("integer", facts.id_types.integer),
            ("number", facts.id_types.number),
            ("null", facts.id_types.null),
        ];
        let params = [
            ("object", facts.params_types.object),
            ("array", facts.params_types.array),
        ];
        let missing = if facts.error_response_requires_id {
            "\"id\":null"
        } else {
            "omitted"
        };
        let _ = writeln!(
            out,
            "{:<16} {:<28} {:<14} {:<8} {:<14} {}",
            facts.name,
            names(&ids),
            missing,
            if facts.batches { "yes" } else { "no" },
            names(&params),
            facts.schema_sha256.get(..12).unwrap_or(facts.schema_sha256),
        );
    }
    out
}

fn names(flags: &[(&str, bool)]) -> String {
    flags
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join("|")
}
