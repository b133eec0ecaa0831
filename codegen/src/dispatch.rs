//! Deciding, for each union, how a JSON value picks its variant — without trial decoding.
//!
//! Order of strategies: the JSON token type; for objects a member holding a constant
//! (`method`, `type`, any const or closed string enum), then required members unique to one
//! variant, then the most specific set of required members (an optional member unique among
//! look-alikes breaks ties), with the least specific variant as the fallback. Arrays of
//! different item types are told apart by their first item.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Result;
use crate::model::{ConstValue, Dispatch, Kind, MemberRule, Module, Token, Ty, VariantCheck};

/// Index standing for the `Unknown` method variant.
pub const UNKNOWN_VARIANT: usize = usize::MAX;

const TOKENS: [Token; 7] = [
    Token::Object,
    Token::Array,
    Token::String,
    Token::Integer,
    Token::Number,
    Token::Bool,
    Token::Null,
];

/// What the dispatcher knows about the values a type admits.
#[derive(Debug, Clone, Default)]
struct Shape {
    tokens: BTreeSet<Token>,
    any: bool,
    integer_only: bool,
    required: BTreeSet<String>,
    props: BTreeSet<String>,
    consts: BTreeMap<String, Vec<ConstValue>>,
    /// Constants of optional members: a present member with another value rules it out.
    optional_consts: BTreeMap<String, Vec<ConstValue>>,
    /// Admits every value of its JSON types (`{}`, an object of anything).
    accepts_all: bool,
    item: Option<Ty>,
}

/// Fills in [`crate::model::Union::dispatch`] for every union of `module`; with
/// `unknown_method` (JSON-RPC behaviour), a union keyed on `method` sends any other method to
/// an `Unknown` variant instead of refusing it. Returns a warning
/// for each variant no input can reach (never chosen, and behind a variant admitting every
/// value of each JSON type it admits), naming the union's pointer.
pub fn resolve(module: &mut Module, unknown_method: bool) -> Result<Vec<String>> {
    let snapshot = module.clone();
    let mut warnings = Vec::new();
    for def in &mut module.types {
        if let Kind::Union(union) = &mut def.kind {
            let shapes: Vec<Shape> = union
                .variants
                .iter()
                .map(|v| shape(&snapshot, &v.ty, 0))
                .collect();
            union.checks = shapes
                .iter()
                .map(|s| {
                    let mut consts: Vec<(String, Vec<ConstValue>)> = s
                        .consts
                        .iter()
                        .map(|(m, v)| (m.clone(), v.clone()))
                        .collect();
                    consts.extend(
                        s.optional_consts
                            .iter()
                            .map(|(m, v)| (m.clone(), v.clone())),
                    );
                    VariantCheck {
                        required: s.required.iter().cloned().collect(),
                        consts,
                        accepts_all: s.accepts_all,
                    }
                })
                .collect();
            union.admitted = TOKENS
                .iter()
                .map(|token| {
                    let admitting = shapes
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.tokens.contains(token))
                        .map(|(i, _)| i)
                        .collect::<Vec<_>>();
                    (*token, admitting)
                })
                .filter(|(_, admitting)| !admitting.is_empty())
                .collect();
            let indexed: Vec<(usize, Shape)> = shapes.into_iter().enumerate().collect();
            let mut cases = Vec::new();
            for token in TOKENS {
                let mut cands: Vec<(usize, Shape)> = indexed
                    .iter()
                    .filter(|(_, s)| s.tokens.contains(&token))
                    .cloned()
                    .collect();
                if cands.iter().any(|(_, s)| !s.any) {
                    cands.retain(|(_, s)| !s.any);
                }
                if token == Token::Integer && cands.iter().any(|(_, s)| s.integer_only) {
                    cands.retain(|(_, s)| s.integer_only);
                }
                // Where the candidates cannot be told apart without decoding, the first in
                // schema order is chosen and the others are tried after it (anyOf order).
                let decision = match cands.len() {
                    0 => continue,
                    1 => Dispatch::Variant(cands[0].0),
                    _ => match token {
                        Token::Object => object_dispatch(&cands, &def.pointer)?,
                        Token::Array => array_dispatch(&snapshot, &cands)
                            .unwrap_or(Dispatch::Variant(cands[0].0)),
                        _ => Dispatch::Variant(cands[0].0),
                    },
                };
                cases.push((token, decision));
            }
            for (token, decision) in &mut cases {
                if unknown_method
                    && *token == Token::Object
                    && let Dispatch::ByConst {
                        member, otherwise, ..
                    } = decision
                    && member == "method"
                {
                    *otherwise = Some(Box::new(Dispatch::Variant(UNKNOWN_VARIANT)));
                    union.unknown_method = true;
                }
            }
            for i in unreachable(union, &cases) {
                warnings.push(format!(
                    "{}: variant `{}` is unreachable: no input is decoded as it",
                    def.pointer, union.variants[i].name
                ));
            }
            union.dispatch = Some(Dispatch::ByToken(cases));
        }
    }
    Ok(warnings)
}

/// The variants no input reaches: for every JSON type a variant admits, it is never the
/// dispatch's choice, and the choice or an earlier variant in the fallback order (schema
/// order) admits every value of that type, so the variant is never tried.
fn unreachable(union: &crate::model::Union, cases: &[(Token, Dispatch)]) -> Vec<usize> {
    let accepts_all = |i: usize| union.checks.get(i).is_some_and(|c| c.accepts_all);
    let mut out = Vec::new();
    for i in 0..union.variants.len() {
        let mut reached = false;
        for (token, admitting) in &union.admitted {
            if !admitting.contains(&i) {
                continue;
            }
            let leaves = cases
                .iter()
                .find(|(t, _)| t == token)
                .map(|(_, d)| leaves(d))
                .unwrap_or_default();
            let shadowed = admitting
                .iter()
                .take_while(|&&j| j != i)
                .any(|&j| accepts_all(j));
            if leaves.contains(&i) || (!shadowed && !leaves.iter().all(|&l| accepts_all(l))) {
                reached = true;
            }
        }
        if !reached {
            out.push(i);
        }
    }
    out
}

/// Every variant index a decision can choose.
fn leaves(d: &Dispatch) -> Vec<usize> {
    match d {
        Dispatch::Variant(i) => vec![*i],
        Dispatch::ByToken(cases) => cases.iter().flat_map(|(_, d)| leaves(d)).collect(),
        Dispatch::ByConst {
            cases, otherwise, ..
        } => cases
            .iter()
            .map(|(_, d)| d)
            .chain(otherwise.as_deref())
            .flat_map(leaves)
            .collect(),
        Dispatch::ByMembers { rules, fallback } => {
            rules.iter().map(|r| r.variant).chain(*fallback).collect()
        }
        Dispatch::ByFirstItem { item, empty } => {
            let mut out = leaves(item);
            out.push(*empty);
            out
        }
    }
}

fn shape(module: &Module, ty: &Ty, depth: usize) -> Shape {
    let mut s = Shape::default();
    if depth > 16 {
        s.any = true;
        s.tokens.extend(TOKENS);
        return s;
    }
    match ty {
        Ty::String => {
            s.tokens.insert(Token::String);
        }
        Ty::Integer => {
            s.tokens.insert(Token::Integer);
            s.integer_only = true;
        }
        Ty::Number => {
            s.tokens.extend([Token::Integer, Token::Number]);
        }
        Ty::Bool => {
            s.tokens.insert(Token::Bool);
        }
        Ty::Null => {
            s.tokens.insert(Token::Null);
        }
        Ty::Any => {
            s.any = true;
            s.accepts_all = true;
            s.tokens.extend(TOKENS);
        }
        Ty::Array(item) => {
            s.tokens.insert(Token::Array);
            s.item = Some((**item).clone());
        }
        Ty::Map(value) => {
            s.tokens.insert(Token::Object);
            s.accepts_all = **value == Ty::Any;
        }
        Ty::Tuple(_) => {
            s.tokens.insert(Token::Array);
        }
        Ty::Named(name) => match module.get(name).map(|d| &d.kind) {
            Some(Kind::Struct(st)) => {
                s.tokens.insert(Token::Object);
                for f in &st.fields {
                    s.props.insert(f.json_name.clone());
                    // One level of nesting: members of a member that is itself a struct.
                    if let Some(Kind::Struct(inner)) = struct_of(module, &f.ty).map(|d| &d.kind) {
                        for g in &inner.fields {
                            let path = format!("{}{PATH_SEP}{}", f.json_name, g.json_name);
                            s.props.insert(path.clone());
                            if f.required && !f.nullable && g.required {
                                s.required.insert(path);
                            }
                        }
                    }
                    let values = (!f.nullable).then(|| const_values(module, &f.ty)).flatten();
                    if f.required {
                        s.required.insert(f.json_name.clone());
                        if let Some(values) = values {
                            s.consts.insert(f.json_name.clone(), values);
                        }
                    } else if let Some(values) = values {
                        s.optional_consts.insert(f.json_name.clone(), values);
                    }
                }
            }
            Some(Kind::Enum(_)) => {
                s.tokens.insert(Token::String);
            }
            Some(Kind::Const(ConstValue::Str(_))) => {
                s.tokens.insert(Token::String);
            }
            Some(Kind::Const(ConstValue::Int(_))) => {
                s.tokens.insert(Token::Integer);
                s.integer_only = true;
            }
            Some(Kind::Const(ConstValue::Bool(_))) => {
                s.tokens.insert(Token::Bool);
            }
            Some(Kind::Const(ConstValue::Number(_))) => {
                s.tokens.extend([Token::Integer, Token::Number]);
            }
            Some(Kind::Alias(target)) => return shape(module, target, depth + 1),
            Some(Kind::Union(u)) => {
                let parts: Vec<Shape> = u
                    .variants
                    .iter()
                    .map(|v| shape(module, &v.ty, depth + 1))
                    .collect();
                let objects: Vec<&Shape> = parts
                    .iter()
                    .filter(|p| p.tokens.contains(&Token::Object))
                    .collect();
                for p in &parts {
                    s.tokens.extend(p.tokens.iter().copied());
                    s.any |= p.any;
                    s.props.extend(p.props.iter().cloned());
                }
                s.integer_only = parts
                    .iter()
                    .all(|p| !p.tokens.contains(&Token::Integer) || p.integer_only);
                if let Some((first, rest)) = objects.split_first() {
                    s.required = first.required.clone();
                    for p in rest {
                        s.required = s.required.intersection(&p.required).cloned().collect();
                    }
                    for (member, values) in &first.consts {
                        if rest.iter().all(|p| p.consts.contains_key(member)) {
                            let mut all = values.clone();
                            for p in rest {
                                for v in &p.consts[member] {
                                    if !all.contains(v) {
                                        all.push(v.clone());
                                    }
                                }
                            }
                            s.consts.insert(member.clone(), all);
                        }
                    }
                }
                let arrays: Vec<&Shape> = parts.iter().filter(|p| p.item.is_some()).collect();
                if arrays.len() == 1 {
                    s.item = arrays[0].item.clone();
                }
            }
            None => {
                s.any = true;
                s.tokens.extend(TOKENS);
            }
        },
    }
    s
}

/// Separates the two names of a nested member path (`items` → `anyOf`).
pub const PATH_SEP: char = '\u{1f}';

/// The struct definition a member type names (through aliases).
fn struct_of<'m>(module: &'m Module, ty: &Ty) -> Option<&'m crate::model::TypeDef> {
    let Ty::Named(name) = ty else { return None };
    let def = module.get(name)?;
    match &def.kind {
        Kind::Struct(_) => Some(def),
        Kind::Alias(target) => struct_of(module, target),
        _ => None,
    }
}

/// The constant values a member type stands for: a string or integer const marker or a
/// closed string enum (boolean and number constants never pick a variant).
fn const_values(module: &Module, ty: &Ty) -> Option<Vec<ConstValue>> {
    let Ty::Named(name) = ty else { return None };
    match &module.get(name)?.kind {
        Kind::Const(v @ (ConstValue::Str(_) | ConstValue::Int(_))) => Some(vec![v.clone()]),
        Kind::Enum(e) if !e.open => Some(
            e.values
                .iter()
                .map(|(_, v)| ConstValue::Str(v.clone()))
                .collect(),
        ),
        Kind::Alias(target) => const_values(module, target),
        _ => None,
    }
}

fn object_dispatch(cands: &[(usize, Shape)], pointer: &str) -> Result<Dispatch> {
    if cands.len() == 1 {
        return Ok(Dispatch::Variant(cands[0].0));
    }
    if let Some(by_const) = const_dispatch(cands, pointer)? {
        return Ok(by_const);
    }
    Ok(member_dispatch(cands))
}

/// Partitions by a member every candidate holds a constant for, when that separates them.
fn const_dispatch(cands: &[(usize, Shape)], pointer: &str) -> Result<Option<Dispatch>> {
    let mut members: Vec<&String> = cands[0]
        .1
        .consts
        .keys()
        .filter(|m| cands.iter().all(|(_, s)| s.consts.contains_key(*m)))
        .collect();
    members.sort_by_key(|m| {
        (
            m.as_str() != "method",
            m.as_str() != "type",
            m.as_str().to_owned(),
        )
    });
    for member in members {
        let mut order: Vec<ConstValue> = Vec::new();
        let mut groups: BTreeMap<ConstValue, Vec<(usize, Shape)>> = BTreeMap::new();
        for (i, s) in cands {
            for v in &s.consts[member] {
                if !order.contains(v) {
                    order.push(v.clone());
                }
                let group = groups.entry(v.clone()).or_default();
                if !group.iter().any(|(j, _)| j == i) {
                    group.push((*i, s.clone()));
                }
            }
        }
        // Only a member that splits the candidates makes progress.
        if groups.values().any(|g| g.len() == cands.len()) {
            continue;
        }
        let mut cases = Vec::new();
        for value in order {
            let group = &groups[&value];
            cases.push((value, object_dispatch(group, pointer)?));
        }
        return Ok(Some(Dispatch::ByConst {
            member: member.clone(),
            cases,
            otherwise: None,
        }));
    }
    Ok(None)
}

/// Decides by present members: unique required members first, then by specificity.
fn member_dispatch(cands: &[(usize, Shape)]) -> Dispatch {
    let mut rules = Vec::new();
    let mut rest: Vec<&(usize, Shape)> = Vec::new();
    for (pos, (i, s)) in cands.iter().enumerate() {
        let others: BTreeSet<&String> = cands
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != pos)
            .flat_map(|(_, (_, o))| o.props.iter())
            .collect();
        let unique: Vec<String> = s
            .required
            .iter()
            .filter(|m| !others.contains(m))
            .cloned()
            .collect();
        if unique.is_empty() {
            rest.push(&cands[pos]);
        } else {
            let reason = format!("member {} is present", quote_list(&unique, " or "));
            rules.push(MemberRule {
                all_of: Vec::new(),
                any_of: unique,
                variant: *i,
                reason,
            });
        }
    }
    let common: BTreeSet<String> = match rest.split_first() {
        Some((first, others)) => others.iter().fold(first.1.required.clone(), |acc, (_, s)| {
            acc.intersection(&s.required).cloned().collect()
        }),
        None => BTreeSet::new(),
    };
    let mut ordered: Vec<(usize, Vec<String>, Vec<String>)> = Vec::new();
    for (pos, (i, s)) in rest.iter().enumerate() {
        let distinguishing: Vec<String> = s.required.difference(&common).cloned().collect();
        let twins = rest
            .iter()
            .enumerate()
            .any(|(p, (_, o))| p != pos && o.required == s.required);
        let optional_unique: Vec<String> = if twins {
            let others: BTreeSet<&String> = rest
                .iter()
                .enumerate()
                .filter(|(p, _)| *p != pos)
                .flat_map(|(_, (_, o))| o.props.iter())
                .collect();
            s.props
                .iter()
                .filter(|m| !others.contains(m))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        ordered.push((*i, distinguishing, optional_unique));
    }
    ordered.sort_by(|a, b| {
        b.1.len()
            .cmp(&a.1.len())
            .then(b.2.is_empty().cmp(&a.2.is_empty()).reverse())
    });
    let mut fallback = None;
    for (i, all_of, any_of) in ordered {
        if all_of.is_empty() && any_of.is_empty() {
            fallback = Some(i);
            break;
        }
        let mut reason = String::new();
        if !all_of.is_empty() {
            reason.push_str(&format!(
                "members {} are present",
                quote_list(&all_of, " and ")
            ));
        }
        if !any_of.is_empty() {
            if !reason.is_empty() {
                reason.push_str(" and ");
            }
            reason.push_str(&format!(
                "member {} is present",
                quote_list(&any_of, " or ")
            ));
        }
        rules.push(MemberRule {
            all_of,
            any_of,
            variant: i,
            reason,
        });
    }
    Dispatch::ByMembers { rules, fallback }
}

/// Arrays of different object items, told apart by their first item; `None` when the items
/// are not all objects (the first array variant is then tried first).
fn array_dispatch(module: &Module, cands: &[(usize, Shape)]) -> Option<Dispatch> {
    let mut items = Vec::new();
    for (i, s) in cands {
        let item_shape = shape(module, s.item.as_ref()?, 0);
        if !item_shape.tokens.contains(&Token::Object) || item_shape.any {
            return None;
        }
        items.push((*i, item_shape));
    }
    Some(Dispatch::ByFirstItem {
        item: Box::new(object_dispatch(&items, "").ok()?),
        empty: cands[0].0,
    })
}

fn quote_list(items: &[String], sep: &str) -> String {
    items
        .iter()
        .map(|m| format!("`{}`", m.replace(PATH_SEP, ".")))
        .collect::<Vec<_>>()
        .join(sep)
}
