//! Unions: an enum plus a `static` `support::union_table::UnionTable` interpreted by
//! `support::decode_objects` (a union of objects, reading its members once:
//! `support::Shape::capture_object`, the members listed by [`objects_only`] decoded as
//! strings, the others as raw text) or `support::decode_values` (any other union, reading its
//! raw text). The table holds the precomputed [`Dispatch`] as data (no `serde_json::Value` is
//! built, no trial decoding on the common path), what each variant needs to possibly match,
//! and the alternatives the JSON Schema meaning of `anyOf` / `oneOf` calls for when the
//! chosen variant cannot match (see `crates/mcpwire-support/src/union.rs`). The one function
//! emitted per union decodes variant `i` as its Rust type.
//!
//! Each decision carries its alternatives: the other variants admitting the same JSON type, in
//! schema order, minus those a constant seen on the way to the decision rules out (a method
//! union keyed on `method` has none, so it never leaves the fast path).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, support, ty_tokens};
use crate::dispatch::{PATH_SEP, UNKNOWN_VARIANT};
use crate::error::{CodegenError, Result};
use crate::model::{ConstValue, Dispatch, Extra, Kind, Token, Ty, TypeDef, Union, VariantCheck};

/// Emits one union.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, u: &Union) -> Result<TokenStream> {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let name_str = &def.name;
    let support = support();
    let dispatch = u.dispatch.as_ref().ok_or_else(|| {
        CodegenError::at(def.pointer.clone(), "union without a dispatch decision")
    })?;
    // A union of objects reads its object's members once; any other decodes from its text.
    let objects = objects_only(ctx, u);

    let mut variants = Vec::new();
    let mut lines = Vec::new();
    let mut decode_arms = Vec::new();
    let shared = shared_types(ctx, u);
    for (v, shares) in u.variants.iter().zip(&shared) {
        let vname = ident(&v.name);
        let doc = format!(" The `{}` alternative.", v.name);
        if v.ty == Ty::Null {
            variants.push(quote! { #[doc = #doc] #vname, });
            lines.push(quote! { #vname null; });
            decode_arms.push(quote! { v.null().map(|()| #name::#vname) });
            continue;
        }
        let inner = ty_tokens(&v.ty);
        let (field_ty, wrap, boxed) = if v.boxed {
            (
                quote! { ::std::boxed::Box<#inner> },
                quote! { |v| #name::#vname(::std::boxed::Box::new(v)) },
                quote! { boxed },
            )
        } else {
            (inner.clone(), quote! { #name::#vname }, quote! {})
        };
        let from = (!shares).then(|| quote! { from });
        variants.push(quote! { #[doc = #doc] #vname(#field_ty), });
        lines.push(quote! { #vname(#inner) #boxed #from; });
        decode_arms.push(quote! { v.decode().map(#wrap) });
    }
    if u.unknown_method {
        variants.push(quote! {
            /// A method this version does not define; the raw members are kept.
            Unknown(#support::UnknownMethod),
        });
        lines.push(quote! { Unknown unknown; });
        decode_arms.push(quote! { v.decode().map(#name::Unknown) });
    }
    // The last arm is the catch-all so the match is exhaustive without dead code; with an
    // `Unknown` variant that is the unknown-method index.
    let count = decode_arms.len();
    let decode_arms: Vec<TokenStream> = decode_arms
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            if i + 1 == count {
                quote! { _ => #body, }
            } else {
                let i = proc_macro2::Literal::usize_unsuffixed(i);
                quote! { #i => #body, }
            }
        })
        .collect();

    let (decode_fn, input_ty, strings) = match &objects {
        Some(strings) => (
            quote! { #support::decode_objects },
            quote! { #support::Shape<'_> },
            quote! { &[#(#strings),*] },
        ),
        None => (
            quote! { #support::decode_values },
            quote! { str },
            quote! { &[] },
        ),
    };
    let plan = Plan { union: u };
    let choose = plan.choose(dispatch);
    let checks = plan.checks(dispatch);
    let variant_names: Vec<&String> = u.variants.iter().map(|v| &v.name).collect();
    let one_of = u.one_of;
    let large = if u.variants.len() > 1 {
        quote! { #[allow(clippy::large_enum_variant)] }
    } else {
        quote! {}
    };
    let names = ctx
        .flavor
        .allow_name_lints
        .then(|| quote! { #[allow(clippy::enum_variant_names)] });
    let schemars = crate::emit::target::schemars_feature().map(|f| quote! { schemars #f });
    Ok(quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        #[serde(untagged)]
        #large
        #names
        pub enum #name {
            #(#variants)*
        }

        #support::union! {
            #name #name_str #schemars;
            #(#lines)*
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                use #support::union_table as t;
                static TABLE: t::UnionTable = t::UnionTable {
                    name: #name_str,
                    one_of: #one_of,
                    variants: &[#(#variant_names),*],
                    strings: #strings,
                    checks: &[#(#checks),*],
                    choose: #choose,
                };
                fn variant(v: &#support::Variant<'_, #input_ty>) -> ::core::result::Result<#name, ::serde_json::Error> {
                    match v.index() {
                        #(#decode_arms)*
                    }
                }
                #decode_fn(deserializer, &TABLE, variant)
            }
        }
    })
}

/// For each variant, whether another variant has the same Rust type (aliases resolved): only
/// a variant whose type no other shares gets `From<variant type>`
/// (`ContentBlock::from(TextContent::new("hi"))`).
fn shared_types(ctx: &Context<'_>, u: &Union) -> Vec<bool> {
    fn resolved<'t>(ctx: &'t Context<'_>, ty: &'t Ty) -> &'t Ty {
        match ty {
            Ty::Named(n) => match ctx.def(n).map(|d| &d.kind) {
                Some(crate::model::Kind::Alias(target)) => resolved(ctx, target),
                _ => ty,
            },
            _ => ty,
        }
    }
    let keys: Vec<&Ty> = u.variants.iter().map(|v| resolved(ctx, &v.ty)).collect();
    keys.iter()
        .map(|key| keys.iter().filter(|k| *k == key).count() > 1)
        .collect()
}

/// For a union whose every variant is an object (and that admits nothing else): the members
/// it reads as strings while it captures the object (`support::Shape::capture_object`), in
/// name order. A member is listed when every variant that declares it declares a string, a
/// string enum or a string constant; no member is listed when some variant keeps undeclared
/// members as a typed value (a number there must keep its text) or is not a plain object.
/// `None` for any other union: it captures its value's text.
fn objects_only(ctx: &Context<'_>, u: &Union) -> Option<Vec<String>> {
    if u.admitted.iter().any(|(token, _)| *token != Token::Object)
        || u.variants.iter().any(|v| v.ty == Ty::Null)
    {
        return None;
    }
    let mut members = std::collections::BTreeMap::new();
    let mut listable = true;
    union_members(ctx, u, &mut members, &mut listable);
    if !listable {
        return Some(Vec::new());
    }
    Some(
        members
            .into_iter()
            .filter_map(|(name, string)| string.then_some(name))
            .collect(),
    )
}

/// [`declared_members`] of every variant of `u`.
fn union_members(
    ctx: &Context<'_>,
    u: &Union,
    members: &mut std::collections::BTreeMap<String, bool>,
    listable: &mut bool,
) {
    for v in &u.variants {
        declared_members(ctx, &v.ty, members, listable);
    }
    if u.unknown_method {
        // `support::UnknownMethod`: a string `method`, every other member a `Json`.
        members.entry("method".to_owned()).or_insert(true);
    }
}

/// Records, for each member `ty` declares, whether it is string-like (and-ed with what other
/// variants said); clears `listable` when `ty` is not a plain object or keeps undeclared
/// members as a typed value.
fn declared_members(
    ctx: &Context<'_>,
    ty: &Ty,
    members: &mut std::collections::BTreeMap<String, bool>,
    listable: &mut bool,
) {
    let Ty::Named(name) = ty else {
        *listable = false;
        return;
    };
    match ctx.def(name).map(|d| &d.kind) {
        Some(Kind::Alias(target)) => declared_members(ctx, target, members, listable),
        Some(Kind::Union(inner)) => union_members(ctx, inner, members, listable),
        Some(Kind::Struct(s)) => {
            if !matches!(
                s.extra,
                Extra::Closed | Extra::Implicit | Extra::Declared(Ty::Any)
            ) {
                *listable = false;
            }
            for field in &s.fields {
                let string = string_like(ctx, &field.ty);
                *members.entry(field.json_name.clone()).or_insert(string) &= string;
            }
        }
        _ => *listable = false,
    }
}

/// Whether `ty` decodes only from a JSON string: a string, a string enum, a string constant.
fn string_like(ctx: &Context<'_>, ty: &Ty) -> bool {
    match ty {
        Ty::String => true,
        Ty::Named(name) => match ctx.def(name).map(|d| &d.kind) {
            Some(Kind::Enum(_) | Kind::Const(ConstValue::Str(_))) => true,
            Some(Kind::Alias(target)) => string_like(ctx, target),
            _ => false,
        },
        _ => false,
    }
}

/// What the decisions of one union are built from.
struct Plan<'a> {
    union: &'a Union,
}

/// What the path to a decision has established about the object.
#[derive(Clone)]
enum Fact {
    /// The member holds this constant.
    Is(String, ConstValue),
    /// The member holds a value that is none of these constants.
    NoneOf(String, Vec<ConstValue>),
    /// The member is missing or not of the constants' JSON type.
    Missing(String),
}

impl Fact {
    /// Whether this fact rules out a variant with `check`.
    fn excludes(&self, check: &VariantCheck) -> bool {
        match self {
            Fact::Is(member, value) => check.excluded_by(member, value),
            Fact::NoneOf(member, values) => check
                .consts
                .iter()
                .any(|(m, vs)| m == member && vs.iter().all(|v| values.contains(v))),
            Fact::Missing(member) => check.required.contains(member),
        }
    }
}

/// A decision's leaves as the table writes them: the variant chosen (`None`: no variant, an
/// error) and the alternatives to try after it.
type Leaf = (Option<usize>, Vec<usize>);

impl Plan<'_> {
    /// The table's decision tree (`t::Node`).
    fn choose(&self, dispatch: &Dispatch) -> TokenStream {
        let all: Vec<usize> = (0..self.union.variants.len()).collect();
        self.decision(dispatch, &all, &[], &mut Vec::new())
    }

    /// The `t::Check` entries: what an object needs to possibly match each variant the
    /// decoder may test (a leaf's variant when the leaf has alternatives, and those
    /// alternatives); a union whose leaves have no alternatives never tests one.
    fn checks(&self, dispatch: &Dispatch) -> Vec<TokenStream> {
        let all: Vec<usize> = (0..self.union.variants.len()).collect();
        let mut leaves = Vec::new();
        self.decision(dispatch, &all, &[], &mut leaves);
        let mut tested = std::collections::BTreeSet::new();
        for (chosen, alts) in &leaves {
            if !alts.is_empty() {
                tested.extend(chosen.iter().copied().filter(|&i| i != UNKNOWN_VARIANT));
                tested.extend(alts.iter().copied());
            }
        }
        let mut out = Vec::new();
        for (i, check) in self.union.checks.iter().enumerate() {
            if !tested.contains(&i) {
                continue;
            }
            let required: Vec<TokenStream> = check.required.iter().map(|m| path(m)).collect();
            let mut strs = Vec::new();
            let mut ints = Vec::new();
            for (member, values) in &check.consts {
                let str_values: Vec<&String> = values
                    .iter()
                    .filter_map(|v| match v {
                        ConstValue::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                let int_values: Vec<i64> = values
                    .iter()
                    .filter_map(|v| match v {
                        ConstValue::Int(n) => Some(*n),
                        _ => None,
                    })
                    .collect();
                if int_values.is_empty() {
                    strs.push(quote! { (#member, &[#(#str_values),*]) });
                } else if str_values.is_empty() {
                    ints.push(quote! { (#member, &[#(#int_values),*]) });
                }
            }
            if required.is_empty() && strs.is_empty() && ints.is_empty() {
                continue;
            }
            let i = proc_macro2::Literal::usize_unsuffixed(i);
            out.push(quote! {
                t::Check { variant: #i, required: &[#(#required),*], strs: &[#(#strs),*], ints: &[#(#ints),*] }
            });
        }
        out
    }

    /// Every variant admitting `token`, in schema order.
    fn admitted(&self, token: Token) -> Vec<usize> {
        self.union
            .admitted
            .iter()
            .find(|(t, _)| *t == token)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// The variants of `admitted` other than `chosen` that `facts` do not rule out.
    fn alternatives(&self, admitted: &[usize], chosen: usize, facts: &[Fact]) -> Vec<usize> {
        admitted
            .iter()
            .copied()
            .filter(|&j| {
                j != chosen
                    && !self
                        .union
                        .checks
                        .get(j)
                        .is_some_and(|check| facts.iter().any(|f| f.excludes(check)))
            })
            .collect()
    }

    /// The alternatives of a leaf choosing `index` (an unknown method has none: it is never
    /// tried as a defined one, nor the other way round), recorded in `leaves`.
    fn leaf(
        &self,
        index: usize,
        admitted: &[usize],
        facts: &[Fact],
        leaves: &mut Vec<Leaf>,
    ) -> TokenStream {
        let alts = if index == UNKNOWN_VARIANT {
            Vec::new()
        } else {
            self.alternatives(admitted, index, facts)
        };
        let tokens = indices(&alts);
        leaves.push((Some(index), alts));
        tokens
    }

    /// The alternatives of a leaf choosing no variant, recorded in `leaves`.
    fn none(&self, admitted: &[usize], facts: &[Fact], leaves: &mut Vec<Leaf>) -> TokenStream {
        let alts = self.alternatives(admitted, usize::MAX, facts);
        let tokens = indices(&alts);
        leaves.push((None, alts));
        tokens
    }

    /// `t::Node::Variant` for variant `index`.
    fn variant(
        &self,
        index: usize,
        admitted: &[usize],
        facts: &[Fact],
        leaves: &mut Vec<Leaf>,
    ) -> TokenStream {
        let alts = self.leaf(index, admitted, facts, leaves);
        let index = variant_index(index);
        quote! { t::Node::Variant(#index, #alts) }
    }

    fn decision(
        &self,
        d: &Dispatch,
        admitted: &[usize],
        facts: &[Fact],
        leaves: &mut Vec<Leaf>,
    ) -> TokenStream {
        match d {
            Dispatch::Variant(i) => self.variant(*i, admitted, facts, leaves),
            Dispatch::ByToken(cases) => {
                let cases = cases.iter().map(|(token, d)| {
                    let admitted = self.admitted(*token);
                    let next = self.decision(d, &admitted, &[], leaves);
                    let token = ident(token_variant(*token));
                    quote! { (t::Token::#token, #next) }
                });
                let cases: Vec<TokenStream> = cases.collect();
                quote! { t::Node::ByToken(&[#(#cases),*]) }
            }
            Dispatch::ByConst {
                member,
                cases,
                otherwise,
            } => {
                let is_str = cases.iter().all(|(v, _)| matches!(v, ConstValue::Str(_)));
                let mut arms = Vec::new();
                for (value, sub) in cases {
                    let mut known = facts.to_vec();
                    known.push(Fact::Is(member.clone(), value.clone()));
                    let sub = self.decision(sub, admitted, &known, leaves);
                    match value {
                        ConstValue::Str(s) => arms.push(quote! { (#s, #sub) }),
                        ConstValue::Int(i) => arms.push(quote! { (#i, #sub) }),
                        // Never a discriminator (see `dispatch::const_values`).
                        ConstValue::Bool(_) | ConstValue::Number(_) => {}
                    }
                }
                let mut other_facts = facts.to_vec();
                other_facts.push(Fact::NoneOf(
                    member.clone(),
                    cases.iter().map(|(v, _)| v.clone()).collect(),
                ));
                let otherwise = match otherwise {
                    Some(o) => {
                        let next = self.decision(o, admitted, &other_facts, leaves);
                        quote! { t::Else::Then(&#next) }
                    }
                    None => {
                        let alts = self.none(admitted, &other_facts, leaves);
                        quote! { t::Else::Fail(#alts) }
                    }
                };
                let mut missing_facts = facts.to_vec();
                missing_facts.push(Fact::Missing(member.clone()));
                let missing = self.none(admitted, &missing_facts, leaves);
                let node = if is_str {
                    quote! { ByStr }
                } else {
                    quote! { ByInt }
                };
                quote! {
                    t::Node::#node {
                        member: #member,
                        cases: &[#(#arms),*],
                        otherwise: #otherwise,
                        missing: #missing,
                    }
                }
            }
            Dispatch::ByMembers { rules, fallback } => {
                let rules: Vec<TokenStream> = rules
                    .iter()
                    .map(|rule| {
                        let all_of = rule.all_of.iter().map(|m| path(m));
                        let any_of = rule.any_of.iter().map(|m| path(m));
                        let then = self.leaf(rule.variant, admitted, facts, leaves);
                        let variant = variant_index(rule.variant);
                        let reason = &rule.reason;
                        quote! {
                            t::Rule {
                                all_of: &[#(#all_of),*],
                                any_of: &[#(#any_of),*],
                                variant: #variant,
                                then: #then,
                                reason: #reason,
                            }
                        }
                    })
                    .collect();
                let last = match fallback {
                    Some(i) => {
                        let next = self.variant(*i, admitted, facts, leaves);
                        quote! { t::Else::Then(&#next) }
                    }
                    None => {
                        let alts = self.none(admitted, facts, leaves);
                        quote! { t::Else::Fail(#alts) }
                    }
                };
                quote! { t::Node::ByMembers(&[#(#rules),*], #last) }
            }
            Dispatch::ByFirstItem { item, empty } => {
                let inner = self.decision(item, admitted, facts, leaves);
                let alts = self.leaf(*empty, admitted, facts, leaves);
                let empty = variant_index(*empty);
                quote! { t::Node::ByFirstItem(&#inner, #empty, #alts) }
            }
        }
    }
}

/// A variant index as the table writes it.
fn variant_index(index: usize) -> TokenStream {
    if index == UNKNOWN_VARIANT {
        quote! { t::UNKNOWN_METHOD }
    } else {
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        quote! { #index }
    }
}

/// A list of variant indices as the table writes it: `&[1, 2]`.
fn indices(list: &[usize]) -> TokenStream {
    let list = list
        .iter()
        .map(|&i| proc_macro2::Literal::usize_unsuffixed(i));
    quote! { &[#(#list),*] }
}

/// A member path as the table writes it: `&["params", "name"]`.
fn path(path: &str) -> TokenStream {
    let parts = path.split(PATH_SEP);
    quote! { &[#(#parts),*] }
}

fn token_variant(t: Token) -> &'static str {
    match t {
        Token::Object => "Object",
        Token::Array => "Array",
        Token::String => "String",
        Token::Integer => "Integer",
        Token::Number => "Number",
        Token::Bool => "Bool",
        Token::Null => "Null",
    }
}
