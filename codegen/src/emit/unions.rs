//! Unions: an enum whose `Deserialize` reads the value once — a union of objects its members
//! (`support::Shape::capture_object`, the members listed by [`objects_only`] decoded as
//! strings, the others as raw text), any other union its raw text (`support::RawJson`) —
//! picks the variant by the precomputed [`Dispatch`] looking at that `support::Shape` (no
//! `serde_json::Value` is built, no trial decoding on the common path), then hands over to
//! `support::decode_union`, which
//! tries the alternatives the JSON Schema meaning of `anyOf` / `oneOf` calls for when the
//! chosen variant cannot match (see `crates/mcpwire-types/src/support/union.rs`).
//!
//! Each decision carries its alternatives: the other variants admitting the same JSON type, in
//! schema order, minus those a constant seen on the way to the decision rules out (a method
//! union keyed on `method` has none, so it never leaves the fast path).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, json_schema_impl, support, ty_tokens};
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
    let decode_fn = if objects.is_some() {
        quote! { #support::decode_object_variant }
    } else {
        quote! { #support::decode_variant }
    };

    let mut variants = Vec::new();
    let mut name_arms = Vec::new();
    let mut decode_arms = Vec::new();
    let mut schema_parts = Vec::new();
    for v in &u.variants {
        let vname = ident(&v.name);
        let vname_str = &v.name;
        let doc = format!(" The `{}` alternative.", v.name);
        if v.ty == Ty::Null {
            variants.push(quote! { #[doc = #doc] #vname, });
            name_arms.push(quote! { Self::#vname => #vname_str, });
            decode_arms.push(quote! { #support::decode_null::<::serde_json::Error>(input, #name_str, #vname_str, reason).map(|()| #name::#vname) });
            schema_parts.push(quote! { ::schemars::json_schema!({ "type": "null" }) });
            continue;
        }
        let inner = ty_tokens(&v.ty);
        let (field_ty, wrap) = if v.boxed {
            (
                quote! { ::std::boxed::Box<#inner> },
                quote! { |v| #name::#vname(::std::boxed::Box::new(v)) },
            )
        } else {
            (inner.clone(), quote! { #name::#vname })
        };
        variants.push(quote! { #[doc = #doc] #vname(#field_ty), });
        name_arms.push(quote! { Self::#vname(_) => #vname_str, });
        decode_arms.push(quote! {
            #decode_fn::<#inner, ::serde_json::Error>(input, #name_str, #vname_str, reason).map(#wrap)
        });
        schema_parts.push(quote! { generator.subschema_for::<#inner>() });
    }
    if u.unknown_method {
        name_arms.push(quote! { Self::Unknown(_) => "Unknown", });
        variants.push(quote! {
            /// A method this version does not define; the raw members are kept.
            Unknown(#support::UnknownMethod),
        });
        decode_arms.push(quote! {
            #decode_fn::<#support::UnknownMethod, ::serde_json::Error>(input, #name_str, "Unknown", reason).map(#name::Unknown)
        });
        schema_parts.push(quote! { generator.subschema_for::<#support::UnknownMethod>() });
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
                quote! { #i => #body, }
            }
        })
        .collect();

    // The generic part reads the value; the rest is a plain function, compiled once here
    // rather than once per deserializer in every crate that decodes the union. Its errors are
    // all messages (no position), so `custom` hands them over unchanged.
    let (read, input, input_ty) = match &objects {
        Some(strings) => {
            let strings = strings.iter();
            (
                quote! {
                    let shape = #support::Shape::capture_object(deserializer, &[#(#strings),*])?;
                    decode(&shape, &shape)
                },
                quote! { &#support::Shape<'_> },
                quote! { &#support::Shape<'_> },
            )
        }
        None => (
            quote! {
                let raw = <#support::RawJson<'de> as ::serde::Deserialize>::deserialize(deserializer)?;
                let text = raw.text();
                let shape = #support::Shape::of::<D::Error>(text)?;
                decode(text, &shape)
            },
            quote! { &str },
            quote! { &str },
        ),
    };
    let from_impls = from_impls(ctx, &name, u);
    let plan = Plan {
        union: u,
        name: name_str,
    };
    let choose = plan.choose(dispatch);
    let viable = plan.viable_arms();
    let viable_fn = if viable.is_empty() {
        quote! {
            fn viable(_: usize, _: &#support::Shape<'_>) -> bool {
                true
            }
        }
    } else {
        quote! {
            fn viable(index: usize, shape: &#support::Shape<'_>) -> bool {
                match (index, shape) {
                    #(#viable)*
                    _ => true,
                }
            }
        }
    };
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
    let json_schema = json_schema_impl(
        &name,
        name_str,
        false,
        true,
        quote! { #support::any_of_schema(::std::vec![#(#schema_parts),*]) },
    );
    Ok(quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        #[serde(untagged)]
        #large
        #names
        pub enum #name {
            #(#variants)*
        }

        impl #name {
            /// The name of the variant this value holds (the schema definition it decoded as).
            pub fn variant_name(&self) -> &'static str {
                match self { #(#name_arms)* }
            }
        }

        #from_impls

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                fn decode(input: #input, shape: &#support::Shape<'_>) -> ::core::result::Result<#name, ::serde_json::Error> {
                    const UNION: #support::UnionInfo = #support::UnionInfo {
                        name: #name_str,
                        one_of: #one_of,
                        variants: &[#(#variant_names),*],
                    };
                    #viable_fn
                    fn variant(index: usize, input: #input_ty, reason: &str) -> ::core::result::Result<#name, ::serde_json::Error> {
                        match index {
                            #(#decode_arms)*
                        }
                    }
                    let choice: #support::Choice = #choose;
                    #support::decode_union(input, shape, &UNION, choice, viable, variant)
                }
                let decoded = { #read };
                decoded.map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }

        #json_schema
    })
}

/// `From<variant type>` for each variant whose Rust type (aliases resolved) no other variant
/// shares: `ContentBlock::from(TextContent::new("hi"))`.
fn from_impls(ctx: &Context<'_>, name: &proc_macro2::Ident, u: &Union) -> TokenStream {
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
    let mut out = TokenStream::new();
    for (v, key) in u.variants.iter().zip(&keys) {
        if v.ty == Ty::Null || keys.iter().filter(|k| *k == key).count() > 1 {
            continue;
        }
        let vname = ident(&v.name);
        let inner = ty_tokens(&v.ty);
        let value = if v.boxed {
            quote! { ::std::boxed::Box::new(value) }
        } else {
            quote! { value }
        };
        let doc = format!(" The `{}` alternative.", v.name);
        out.extend(quote! {
            impl ::core::convert::From<#inner> for #name {
                #[doc = #doc]
                fn from(value: #inner) -> Self {
                    Self::#vname(#value)
                }
            }
        });
    }
    out
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
    name: &'a str,
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

impl Plan<'_> {
    /// The expression choosing a `support::Choice` for `value`, or returning the error when no
    /// variant admits its JSON type.
    fn choose(&self, dispatch: &Dispatch) -> TokenStream {
        let support = support();
        let Dispatch::ByToken(cases) = dispatch else {
            let all: Vec<usize> = (0..self.union.variants.len()).collect();
            return self.decision(dispatch, &all, &[]);
        };
        let mut arms = Vec::new();
        let mut admitted_names = Vec::new();
        let has_integer = cases.iter().any(|(t, _)| *t == Token::Integer);
        for (token, d) in cases {
            let uses_binding = !matches!(d, Dispatch::Variant(_));
            let admitted = self.admitted(*token);
            let expr = self.decision(d, &admitted, &[]);
            admitted_names.push(token_name(*token));
            arms.push(match token {
                Token::Object if uses_binding => quote! { #support::Shape::Object(map) => #expr, },
                Token::Object => quote! { #support::Shape::Object(_) => #expr, },
                Token::Array if uses_binding => quote! { #support::Shape::Array(items) => #expr, },
                Token::Array => quote! { #support::Shape::Array(_) => #expr, },
                Token::String => quote! { #support::Shape::String => #expr, },
                Token::Integer => quote! { #support::Shape::Integer => #expr, },
                // Without an integer case of its own, an integer is a number too.
                Token::Number if has_integer => quote! { #support::Shape::Number => #expr, },
                Token::Number => {
                    quote! { #support::Shape::Number | #support::Shape::Integer => #expr, }
                }
                Token::Bool => quote! { #support::Shape::Bool => #expr, },
                Token::Null => quote! { #support::Shape::Null => #expr, },
            });
        }
        if cases.len() < 7 {
            let expected = format!("expected {}", admitted_names.join(" or "));
            let union = self.name;
            arms.push(quote! {
                other => return ::core::result::Result::Err(#support::no_variant::<::serde_json::Error>(#union, &::std::format!("{}, found {}", #expected, other.token_name()))),
            });
        }
        quote! { match shape { #(#arms)* } }
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
    fn alternatives(&self, admitted: &[usize], chosen: usize, facts: &[Fact]) -> TokenStream {
        let alts = admitted.iter().copied().filter(|&j| {
            j != chosen
                && !self
                    .union
                    .checks
                    .get(j)
                    .is_some_and(|check| facts.iter().any(|f| f.excludes(check)))
        });
        quote! { &[#(#alts),*] }
    }

    fn leaf(&self, index: usize, reason: &str, admitted: &[usize], facts: &[Fact]) -> TokenStream {
        let support = support();
        if index == UNKNOWN_VARIANT {
            // An unknown method is never tried as a defined one, nor the other way round.
            return quote! { #support::Choice::variant(#support::UNKNOWN_METHOD, #reason, &[]) };
        }
        let alts = self.alternatives(admitted, index, facts);
        quote! { #support::Choice::variant(#index, #reason, #alts) }
    }

    fn none(&self, reason: TokenStream, admitted: &[usize], facts: &[Fact]) -> TokenStream {
        let support = support();
        let alts = self.alternatives(admitted, usize::MAX, facts);
        quote! { #support::Choice::none(#reason, #alts) }
    }

    fn decision(&self, d: &Dispatch, admitted: &[usize], facts: &[Fact]) -> TokenStream {
        match d {
            Dispatch::Variant(i) => {
                let reason = if *i == UNKNOWN_VARIANT {
                    "its method is not one this version defines"
                } else {
                    "it is the only variant admitting this JSON type"
                };
                self.leaf(*i, reason, admitted, facts)
            }
            Dispatch::ByToken(_) => self.choose(d),
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
                    let sub = match sub {
                        Dispatch::Variant(i) => self.leaf(
                            *i,
                            &format!("member `{member}` is {}", const_text(value)),
                            admitted,
                            &known,
                        ),
                        other => self.decision(other, admitted, &known),
                    };
                    arms.push(match value {
                        ConstValue::Str(s) => quote! { #s => #sub, },
                        ConstValue::Int(i) => quote! { #i => #sub, },
                        // Never a discriminator (see `dispatch::const_values`).
                        ConstValue::Bool(_) | ConstValue::Number(_) => quote! {},
                    });
                }
                let mut other_facts = facts.to_vec();
                other_facts.push(Fact::NoneOf(
                    member.clone(),
                    cases.iter().map(|(v, _)| v.clone()).collect(),
                ));
                let fallback = match otherwise {
                    Some(o) => self.decision(o, admitted, &other_facts),
                    None => {
                        let msg = format!("member `{member}` has a value no variant admits: {{}}");
                        self.none(
                            quote! { ::std::format!(#msg, found) },
                            admitted,
                            &other_facts,
                        )
                    }
                };
                let missing = format!(
                    "member `{member}` is missing or not a {}",
                    if is_str { "string" } else { "integer" }
                );
                let mut missing_facts = facts.to_vec();
                missing_facts.push(Fact::Missing(member.clone()));
                let missing = self.none(quote! { #missing }, admitted, &missing_facts);
                let get = if is_str {
                    quote! { map.str_member(#member).as_deref() }
                } else {
                    quote! { map.int_member(#member) }
                };
                let found_binding = if otherwise.is_some() {
                    quote! { _ }
                } else {
                    quote! { found }
                };
                quote! {
                    match #get {
                        ::core::option::Option::Some(found) => match found {
                            #(#arms)*
                            #found_binding => #fallback,
                        },
                        ::core::option::Option::None => #missing,
                    }
                }
            }
            Dispatch::ByMembers { rules, fallback } => {
                let mut branches = Vec::new();
                for rule in rules {
                    let all = rule.all_of.iter().map(|m| has_member(m));
                    let any = rule.any_of.iter().map(|m| has_member(m));
                    let mut conds: Vec<TokenStream> = all.collect();
                    let any: Vec<TokenStream> = any.collect();
                    if !any.is_empty() {
                        if conds.is_empty() {
                            conds.push(quote! { #(#any)||* });
                        } else {
                            conds.push(quote! { (#(#any)||*) });
                        }
                    }
                    let leaf = self.leaf(rule.variant, &rule.reason, admitted, facts);
                    branches.push(quote! { if #(#conds)&&* { #leaf } });
                }
                let last = match fallback {
                    Some(i) => self.leaf(
                        *i,
                        "no other variant's distinguishing members are present",
                        admitted,
                        facts,
                    ),
                    None => {
                        let members: Vec<String> = rules
                            .iter()
                            .flat_map(|r| r.all_of.iter().chain(r.any_of.iter()))
                            .map(|m| m.replace(PATH_SEP, "."))
                            .collect();
                        let msg =
                            format!("none of the distinguishing members {members:?} is present");
                        self.none(quote! { #msg }, admitted, facts)
                    }
                };
                if branches.is_empty() {
                    last
                } else {
                    quote! { #(#branches else)* { #last } }
                }
            }
            Dispatch::ByFirstItem { item, empty } => {
                let inner = self.decision(item, admitted, facts);
                let empty = self.leaf(
                    *empty,
                    "an empty array or a non-object first item takes the first array variant",
                    admitted,
                    facts,
                );
                quote! {
                    match items.first_object() {
                        ::core::option::Option::Some(map) => #inner,
                        ::core::option::Option::None => #empty,
                    }
                }
            }
        }
    }

    /// The arms of the `viable` function: for each object variant with something to check,
    /// its required members present and its constant members (when present) of its values.
    fn viable_arms(&self) -> Vec<TokenStream> {
        let support = support();
        let mut arms = Vec::new();
        for (i, check) in self.union.checks.iter().enumerate() {
            let mut conds: Vec<TokenStream> =
                check.required.iter().map(|m| has_member(m)).collect();
            for (member, values) in &check.consts {
                let strs: Vec<&String> = values
                    .iter()
                    .filter_map(|v| match v {
                        ConstValue::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                let ints: Vec<i64> = values
                    .iter()
                    .filter_map(|v| match v {
                        ConstValue::Int(n) => Some(*n),
                        _ => None,
                    })
                    .collect();
                if ints.is_empty() {
                    conds.push(quote! { map.str_in(#member, &[#(#strs),*]) });
                } else if strs.is_empty() {
                    conds.push(quote! { map.int_in(#member, &[#(#ints),*]) });
                }
            }
            if !conds.is_empty() {
                arms.push(quote! { (#i, #support::Shape::Object(map)) => #(#conds)&&*, });
            }
        }
        arms
    }
}

/// The test that an object `map` has member `path` (one level of nesting at most).
fn has_member(path: &str) -> TokenStream {
    match path.split_once(PATH_SEP) {
        None => quote! { map.contains_key(#path) },
        Some((outer, inner)) => quote! { map.has_nested(#outer, #inner) },
    }
}

fn const_text(v: &ConstValue) -> String {
    match v {
        ConstValue::Str(s) => format!("{s:?}"),
        ConstValue::Int(i) => i.to_string(),
        ConstValue::Bool(b) => b.to_string(),
        ConstValue::Number(n) => n.clone(),
    }
}

fn token_name(t: Token) -> &'static str {
    match t {
        Token::Object => "an object",
        Token::Array => "an array",
        Token::String => "a string",
        Token::Integer => "an integer",
        Token::Number => "a number",
        Token::Bool => "a boolean",
        Token::Null => "null",
    }
}
