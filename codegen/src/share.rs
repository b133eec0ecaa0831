//! Definitions identical across MCP versions: which types are emitted once, in a shared
//! module, and which versions each one serves.
//!
//! Two versions' types are the same when their lowered models are equal (name, kind, members,
//! union dispatch, constraints: everything but the schema pointer's `definitions` / `$defs`
//! spelling) and every type they refer to is, in turn, the same in both. The second condition
//! is a fixpoint: classes start from the models alone and are split until each class's members
//! refer to the same classes (partition refinement), so a shared type never refers to a type
//! that differs between the versions it serves.

use std::collections::BTreeMap;

use crate::model::{Extra, Kind, Module, Ty, TypeDef};

/// One shared module: the versions it serves and the types it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Indices (into the modules given to [`plan`]) of the versions served, ascending.
    pub versions: Vec<usize>,
    /// The names of the types, sorted (the order of a version's module).
    pub types: Vec<String>,
}

/// Where each version's types go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// The shared modules, ordered by their versions.
    pub groups: Vec<Group>,
    /// For each version, its shared types: name → index into [`Plan::groups`]. A type not
    /// listed is the version's own.
    pub placement: Vec<BTreeMap<String, usize>>,
}

impl Plan {
    /// The group holding `name` of version `version`, if it is shared.
    pub fn group_of(&self, version: usize, name: &str) -> Option<usize> {
        self.placement.get(version)?.get(name).copied()
    }
}

/// The model a type is compared by: the type with its pointer's container spelled one way
/// (`#/definitions/X` in draft-07 schemas, `#/$defs/X` in 2020-12 ones).
fn canonical(def: &TypeDef) -> String {
    let mut def = def.clone();
    if let Some(rest) = def.pointer.strip_prefix("#/definitions/") {
        def.pointer = format!("#/$defs/{rest}");
    }
    format!("{def:?}")
}

/// The names `def` refers to, in the order they appear.
pub fn references(def: &TypeDef) -> Vec<&str> {
    let mut out = Vec::new();
    match &def.kind {
        Kind::Struct(s) => {
            for field in &s.fields {
                named(&field.ty, &mut out);
            }
            if let Extra::Declared(ty) = &s.extra {
                named(ty, &mut out);
            }
        }
        Kind::Union(u) => {
            for variant in &u.variants {
                named(&variant.ty, &mut out);
            }
        }
        Kind::Alias(ty) => named(ty, &mut out),
        Kind::Enum(_) | Kind::Const(_) => {}
    }
    out
}

fn named<'a>(ty: &'a Ty, out: &mut Vec<&'a str>) {
    match ty {
        Ty::Named(name) => out.push(name),
        Ty::Array(item) | Ty::Map(item) => named(item, out),
        Ty::Tuple(items) => items.iter().for_each(|t| named(t, out)),
        Ty::String | Ty::Integer | Ty::Number | Ty::Bool | Ty::Null | Ty::Any => {}
    }
}

/// Decides which types of `modules` (one per version, oldest first) are shared.
pub fn plan(modules: &[&Module]) -> Plan {
    // class[v][i]: the class of type i of version v.
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut class: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| {
            m.types
                .iter()
                .map(|t| {
                    let next = ids.len();
                    *ids.entry(canonical(t)).or_insert(next)
                })
                .collect()
        })
        .collect();
    let mut count = ids.len();
    loop {
        let mut refined: BTreeMap<(usize, Vec<usize>), usize> = BTreeMap::new();
        let next: Vec<Vec<usize>> = modules
            .iter()
            .enumerate()
            .map(|(v, m)| {
                m.types
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let refs = references(t)
                            .into_iter()
                            .map(|name| {
                                m.types
                                    .binary_search_by(|t| t.name.as_str().cmp(name))
                                    .map_or(usize::MAX, |j| class[v][j])
                            })
                            .collect();
                        let fresh = refined.len();
                        *refined.entry((class[v][i], refs)).or_insert(fresh)
                    })
                    .collect()
            })
            .collect();
        class = next;
        if refined.len() == count {
            break;
        }
        count = refined.len();
    }
    // Each class's versions; a class in two or more versions is shared.
    let mut members: BTreeMap<usize, Vec<(usize, &str)>> = BTreeMap::new();
    for (v, m) in modules.iter().enumerate() {
        for (i, t) in m.types.iter().enumerate() {
            members.entry(class[v][i]).or_default().push((v, &t.name));
        }
    }
    let mut by_versions: BTreeMap<Vec<usize>, Vec<String>> = BTreeMap::new();
    for list in members.values().filter(|l| l.len() > 1) {
        let versions = list.iter().map(|(v, _)| *v).collect();
        by_versions
            .entry(versions)
            .or_default()
            .push(list[0].1.to_owned());
    }
    let mut groups: Vec<Group> = by_versions
        .into_iter()
        .map(|(versions, mut types)| {
            types.sort();
            Group { versions, types }
        })
        .collect();
    groups.sort_by(|a, b| {
        (
            a.versions[0],
            std::cmp::Reverse(a.versions.len()),
            &a.versions,
        )
            .cmp(&(
                b.versions[0],
                std::cmp::Reverse(b.versions.len()),
                &b.versions,
            ))
    });
    let mut placement = vec![BTreeMap::new(); modules.len()];
    for (g, group) in groups.iter().enumerate() {
        for &v in &group.versions {
            for name in &group.types {
                placement[v].insert(name.clone(), g);
            }
        }
    }
    Plan { groups, placement }
}

/// The Rust name of a shared module serving `versions` (module names such as `v2025_11_25`,
/// ascending), a child of `mcp` beside the version modules: each version by its year and month
/// (`v2025_11_25` → `2511`), `v2511_to_2607` when they are three or more consecutive among
/// `all`, else joined by `_and_` (`v2506_and_2511`). Short, because the path is written into
/// every symbol and debug-info name of the type (a one-version build's rlib carries it some
/// 60,000 times); the full names stand in if two versions of `all` share a month.
pub fn module_name(versions: &[&str], all: &[&str]) -> String {
    let short = |v: &str| -> Option<String> {
        let [year, month, _day] = v.strip_prefix('v')?.split('_').collect::<Vec<_>>()[..] else {
            return None;
        };
        (year.len() == 4 && month.len() == 2).then(|| format!("{}{month}", &year[2..]))
    };
    let shorts: Option<Vec<String>> = all.iter().map(|v| short(v)).collect();
    let unique = shorts.as_ref().is_some_and(|s| {
        let mut sorted = s.clone();
        sorted.sort();
        sorted.dedup();
        sorted.len() == s.len()
    });
    let name = |v: &str| match short(v) {
        Some(s) if unique => s,
        _ => v.trim_start_matches('v').to_owned(),
    };
    let first = all.iter().position(|v| *v == versions[0]);
    let consecutive = first.is_some_and(|f| {
        all.get(f..f + versions.len())
            .is_some_and(|run| run == versions)
    });
    let names: Vec<String> = versions.iter().map(|v| name(v)).collect();
    if consecutive && versions.len() > 2 {
        format!("v{}_to_{}", names[0], names[names.len() - 1])
    } else {
        format!("v{}", names.join("_and_"))
    }
}

#[cfg(test)]
mod tests {
    use super::module_name;

    const ALL: [&str; 5] = [
        "v2024_11_05",
        "v2025_03_26",
        "v2025_06_18",
        "v2025_11_25",
        "v2026_07_28",
    ];

    #[test]
    fn a_shared_module_is_named_by_year_and_month() {
        assert_eq!(module_name(&ALL, &ALL), "v2411_to_2607");
        assert_eq!(module_name(&ALL[2..4], &ALL), "v2506_and_2511");
        assert_eq!(
            module_name(&["v2024_11_05", "v2025_06_18", "v2026_07_28"], &ALL),
            "v2411_and_2506_and_2607"
        );
    }

    #[test]
    fn two_versions_of_one_month_keep_their_full_names() {
        let all = ["v2025_11_05", "v2025_11_25", "v2026_07_28"];
        assert_eq!(module_name(&all, &all), "v2025_11_05_to_2026_07_28");
        assert_eq!(module_name(&all[1..], &all), "v2025_11_25_and_2026_07_28");
    }
}
