//! Proptest strategies: a `strategies` submodule (behind the `proptest` feature) with one
//! function per type returning a `BoxedStrategy`, and `definition(name)` giving encoded
//! samples of any definition by name.
//!
//! Types on a cycle (`Node.next: Node`, `JSONValue` → `JSONObject` → `JSONValue`) get a
//! depth-bounded `<name>_at(depth)`: at depth 0 every reference back into a cycle is cut
//! (an optional member becomes `None`, an array or map empty, a union variant is left out).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Context, ident, support};
use crate::error::{CodegenError, Result};
use crate::model::{Constraints, Extra, Kind, Module, Ty, TypeDef};
use crate::names::{snake, unique};

/// Names of the strategy functions and which types are recursive.
struct Plan<'a> {
    module: &'a Module,
    /// Type name → strategy function name.
    fns: BTreeMap<String, String>,
    /// Type name → depth-taking function name, for types on a cycle.
    at_fns: BTreeMap<String, String>,
}

impl Plan<'_> {
    fn is_cyclic(&self, name: &str) -> bool {
        self.at_fns.contains_key(name)
    }

    /// Whether `ty` mentions a type on a cycle.
    fn mentions_cycle(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Named(n) => self.is_cyclic(n),
            Ty::Array(t) | Ty::Map(t) => self.mentions_cycle(t),
            _ => false,
        }
    }
}

/// Emits the `strategies` module of `ctx.module`.
pub fn emit(ctx: &Context<'_>) -> Result<TokenStream> {
    let module = ctx.module;
    let mut taken = BTreeSet::from(["definition".to_owned()]);
    let fns: BTreeMap<String, String> = module
        .types
        .iter()
        .map(|d| (d.name.clone(), unique(snake(&d.name), &mut taken)))
        .collect();
    let at_fns = cyclic(module)
        .into_iter()
        .map(|n| {
            let f = unique(format!("{}_at", fns[&n]), &mut taken);
            (n, f)
        })
        .collect();
    let plan = Plan {
        module,
        fns,
        at_fns,
    };
    let mut items = Vec::new();
    for def in &module.types {
        items.push(emit_type(&plan, def)?);
    }
    let support = support();
    let defs: Vec<&String> = module.definitions.iter().map(|(json, _)| json).collect();
    let def_fns: Vec<_> = module
        .definitions
        .iter()
        .map(|(_, rust)| ident(&plan.fns[rust]))
        .collect();
    let protocol = &ctx.flavor.protocol;
    let mod_doc = format!(
        " Proptest strategies for every type of {protocol}: one function per type (the type name in\n snake case), each value valid against the schema definition it comes from."
    );
    Ok(quote! {
        #[doc = #mod_doc]
        #[cfg(feature = "proptest")]
        pub mod strategies {
            #[allow(unused_imports)]
            use ::proptest::strategy::{BoxedStrategy, Just, Strategy};
            use #support::strategy as s;

            #(#items)*

            /// Encoded samples of the definition named `name`, each with the outcome of decoding
            /// it back; `None` when there is no such definition.
            pub fn definition(name: &str) -> ::core::option::Option<BoxedStrategy<s::Sample>> {
                ::core::option::Option::Some(match name {
                    #( #defs => s::sample(#def_fns()), )*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    })
}

/// The types that can reach themselves (through members, variants, items or map values).
fn cyclic(module: &Module) -> BTreeSet<String> {
    let edges: BTreeMap<&str, Vec<String>> = module
        .types
        .iter()
        .map(|t| (t.name.as_str(), refs(&t.kind)))
        .collect();
    let mut out = BTreeSet::new();
    for start in edges.keys() {
        let mut stack: Vec<String> = edges[start].clone();
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == *start {
                out.insert((*start).to_owned());
                break;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(n.as_str()).cloned().unwrap_or_default());
            }
        }
    }
    out
}

fn refs(kind: &Kind) -> Vec<String> {
    fn named(ty: &Ty, out: &mut Vec<String>) {
        match ty {
            Ty::Named(n) => out.push(n.clone()),
            Ty::Array(t) | Ty::Map(t) => named(t, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match kind {
        Kind::Struct(s) => {
            for f in &s.fields {
                named(&f.ty, &mut out);
            }
            if let Some(e) = s.kept() {
                named(e, &mut out);
            }
        }
        Kind::Union(u) => u.variants.iter().for_each(|v| named(&v.ty, &mut out)),
        Kind::Alias(ty) => named(ty, &mut out),
        Kind::Enum(_) | Kind::Const(_) => {}
    }
    out
}

/// The strategy functions of one type.
fn emit_type(plan: &Plan<'_>, def: &TypeDef) -> Result<TokenStream> {
    let name = ident(&def.name);
    let fn_name = ident(&plan.fns[&def.name]);
    let recursive = plan.is_cyclic(&def.name);
    // The depth a referenced cyclic type gets: one level less (an alias is no level).
    let depth = recursive.then(|| quote! { depth - 1 });
    let same_depth = recursive.then(|| quote! { depth });
    let body = match &def.kind {
        Kind::Struct(s) => {
            let mut parts = Vec::new();
            let mut inits = Vec::new();
            for (i, f) in s.fields.iter().enumerate() {
                let var = format_ident!("f{i}");
                let field = ident(&f.rust_name);
                let mut inner = ty_strategy(plan, &f.ty, &f.constraints, depth.as_ref());
                if f.boxed {
                    inner = quote! { #inner.prop_map(::std::boxed::Box::new).boxed() };
                }
                let strategy = if f.required && !f.nullable {
                    inner
                } else if f.required || !f.nullable {
                    quote! { s::optional(#inner) }
                } else {
                    quote! { s::optional(s::optional(#inner)) }
                };
                let cut = if recursive && plan.mentions_cycle(&f.ty) {
                    Some(if !f.required || f.nullable {
                        quote! { Just(::core::option::Option::None).boxed() }
                    } else {
                        cut_value(&f.ty, &f.constraints).ok_or_else(|| {
                            CodegenError::at(
                                def.pointer.clone(),
                                format!("required member `{}` recurses without end", f.json_name),
                            )
                        })?
                    })
                } else {
                    None
                };
                parts.push(guard(cut, strategy));
                inits.push(quote! { #field: #var });
            }
            let extra_field = ident(&s.extra_field());
            match &s.extra {
                Extra::Closed => {}
                // Undeclared members the schema merely does not forbid: none are generated, so
                // a value never picks up a member another union variant is told apart by.
                Extra::Implicit => {
                    inits.push(quote! { #extra_field: ::std::collections::BTreeMap::new() });
                }
                Extra::Declared(extra) => {
                    let var = format_ident!("f{}", s.fields.len());
                    let reserved: Vec<&String> = s.fields.iter().map(|f| &f.json_name).collect();
                    let inner = ty_strategy(plan, extra, &Constraints::default(), depth.as_ref());
                    let strategy = quote! { s::extra(#inner, &[#(#reserved),*]) };
                    let cut = (recursive && plan.mentions_cycle(extra))
                        .then(|| quote! { Just(::std::collections::BTreeMap::new()).boxed() });
                    parts.push(guard(cut, strategy));
                    inits.push(quote! { #extra_field: #var });
                }
            }
            let vars: Vec<_> = (0..parts.len()).map(|i| format_ident!("f{i}")).collect();
            if parts.is_empty() {
                quote! { Just(super::#name { #(#inits),* }).boxed() }
            } else {
                // Tuples of strategies go up to 12 elements: group the members by 10.
                let groups: Vec<TokenStream> =
                    parts.chunks(10).map(|c| quote! { (#(#c,)*) }).collect();
                let patterns: Vec<TokenStream> =
                    vars.chunks(10).map(|c| quote! { (#(#c,)*) }).collect();
                quote! {
                    (#(#groups,)*)
                        .prop_map(|(#(#patterns,)*)| super::#name { #(#inits),* })
                        .boxed()
                }
            }
        }
        Kind::Enum(e) => {
            if e.open {
                let values: Vec<&String> = e.values.iter().map(|(_, v)| v).collect();
                quote! { s::open_enum::<super::#name>(&[#(#values),*]) }
            } else {
                let variants: Vec<_> = e.values.iter().map(|(v, _)| ident(v)).collect();
                quote! { s::select(::std::vec![#(super::#name::#variants),*]) }
            }
        }
        Kind::Const(_) => quote! { Just(super::#name).boxed() },
        Kind::Alias(ty) => ty_strategy(plan, ty, &def.constraints, same_depth.as_ref()),
        Kind::Union(u) => {
            let mut always = Vec::new();
            let mut deep = Vec::new();
            for v in &u.variants {
                let vname = ident(&v.name);
                let alt = if v.ty == Ty::Null {
                    quote! { Just(super::#name::#vname).boxed() }
                } else {
                    let inner = ty_strategy(plan, &v.ty, &Constraints::default(), depth.as_ref());
                    if v.boxed {
                        quote! { #inner.prop_map(|v| super::#name::#vname(::std::boxed::Box::new(v))).boxed() }
                    } else {
                        quote! { #inner.prop_map(super::#name::#vname).boxed() }
                    }
                };
                if recursive && plan.mentions_cycle(&v.ty) {
                    deep.push(alt);
                } else {
                    always.push(alt);
                }
            }
            if always.is_empty() {
                return Err(CodegenError::at(
                    def.pointer.clone(),
                    "every variant of the union recurses: no value ends",
                ));
            }
            let alternatives = if deep.is_empty() {
                quote! { ::std::vec![#(#always),*] }
            } else {
                quote! {
                    {
                        let mut alternatives = ::std::vec![#(#always),*];
                        if depth > 0 {
                            alternatives.extend([#(#deep),*]);
                        }
                        alternatives
                    }
                }
            };
            quote! { s::unambiguous(s::one_of(#alternatives), super::#name::variant_name) }
        }
    };
    let doc = format!(" Values of [`super::{}`].", def.name);
    if let Some(at) = plan.at_fns.get(&def.name) {
        let at = ident(at);
        let at_doc = format!(
            " Values of [`super::{}`], recursing at most `depth` levels.",
            def.name
        );
        Ok(quote! {
            #[doc = #doc]
            pub fn #fn_name() -> BoxedStrategy<super::#name> {
                #at(s::DEPTH)
            }

            #[doc = #at_doc]
            pub fn #at(depth: u32) -> BoxedStrategy<super::#name> {
                #body
            }
        })
    } else {
        Ok(quote! {
            #[doc = #doc]
            pub fn #fn_name() -> BoxedStrategy<super::#name> {
                #body
            }
        })
    }
}

/// `cut` at depth 0, `strategy` deeper (or just `strategy` without a cut).
fn guard(cut: Option<TokenStream>, strategy: TokenStream) -> TokenStream {
    match cut {
        Some(cut) => quote! { if depth == 0 { #cut } else { #strategy } },
        None => strategy,
    }
}

/// The value a required member referring into a cycle takes at depth 0, when there is one.
fn cut_value(ty: &Ty, constraints: &Constraints) -> Option<TokenStream> {
    match ty {
        Ty::Array(_) if constraints.min_items.unwrap_or(0) == 0 => {
            Some(quote! { Just(::std::vec::Vec::new()).boxed() })
        }
        Ty::Map(value) if **value == Ty::Any => {
            Some(quote! { Just(::mcpwire_types::JsonObject::new()).boxed() })
        }
        map if map.is_object_of_objects() => {
            Some(quote! { Just(::mcpwire_types::JsonObjectMap::new()).boxed() })
        }
        Ty::Map(_) => Some(quote! { Just(::std::collections::BTreeMap::new()).boxed() }),
        _ => None,
    }
}

fn opt_f64(v: Option<f64>) -> TokenStream {
    match v {
        Some(v) => quote! { ::core::option::Option::Some(#v) },
        None => quote! { ::core::option::Option::None },
    }
}

fn opt_i64(v: Option<f64>) -> TokenStream {
    match v {
        Some(v) => {
            let v = v as i64;
            quote! { ::core::option::Option::Some(#v) }
        }
        None => quote! { ::core::option::Option::None },
    }
}

fn opt_u64(v: Option<u64>) -> TokenStream {
    match v {
        Some(v) => quote! { ::core::option::Option::Some(#v) },
        None => quote! { ::core::option::Option::None },
    }
}

/// An expression of type `BoxedStrategy<T>` for the Rust type of `ty`.
fn ty_strategy(
    plan: &Plan<'_>,
    ty: &Ty,
    c: &Constraints,
    depth: Option<&TokenStream>,
) -> TokenStream {
    match ty {
        Ty::String => {
            let format = match &c.format {
                Some(f) => quote! { ::core::option::Option::Some(#f) },
                None => quote! { ::core::option::Option::None },
            };
            let (min, max) = (opt_u64(c.min_length), opt_u64(c.max_length));
            quote! { s::string(#format, #min, #max) }
        }
        Ty::Integer => {
            let (min, max) = (opt_i64(c.minimum), opt_i64(c.maximum));
            quote! { s::integer(#min, #max).prop_map(::mcpwire_types::support::Integer::from).boxed() }
        }
        Ty::Number => {
            let (min, max) = (opt_f64(c.minimum), opt_f64(c.maximum));
            quote! { s::number(#min, #max) }
        }
        Ty::Bool => quote! { s::boolean() },
        Ty::Null => quote! { Just(()).boxed() },
        Ty::Any => quote! { s::json() },
        Ty::Array(item) => {
            let item = ty_strategy(plan, item, &Constraints::default(), depth);
            let (min, max) = (opt_u64(c.min_items), opt_u64(c.max_items));
            quote! { s::vec(#item, #min, #max) }
        }
        Ty::Map(value) if **value == Ty::Any => quote! { s::json_object() },
        map if map.is_object_of_objects() => quote! { s::json_object_map() },
        Ty::Map(value) => {
            let value = ty_strategy(plan, value, &Constraints::default(), depth);
            quote! { s::map(#value) }
        }
        Ty::Named(n) => match (plan.at_fns.get(n), depth) {
            (Some(at), Some(depth)) => {
                let at = ident(at);
                quote! { #at(#depth) }
            }
            _ => {
                let f = ident(&plan.fns[n]);
                debug_assert!(plan.module.get(n).is_some());
                quote! { #f() }
            }
        },
    }
}
