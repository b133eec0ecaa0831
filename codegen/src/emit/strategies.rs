//! Proptest strategies: a `strategies` submodule (behind the `proptest` feature) with one
//! function per type returning a `BoxedStrategy`, and `definition(name)` giving encoded
//! samples of any definition by name.
//!
//! Types on a cycle (`Node.next: Node`, `JSONValue` → `JSONObject` → `JSONValue`) get a
//! depth-bounded `<name>_at(depth)`: each level spends one unit of depth, and where the depth
//! left is too small a reference back into a cycle is cut (an optional member becomes `None`,
//! an array or map empty, a union variant is left out), so the branches that end the
//! recursion are the ones taken near the bottom. Each cyclic type has a *height*: the least
//! depth at which it still has a finite value (0 when every recursion can be cut at once; a
//! required member that can only recurse adds one level). A type without a finite value (no
//! branch ends) leaves the whole `strategies` module out, with a warning; generation never
//! fails because of it.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, support};
use crate::error::Result;
use crate::model::{Constraints, Extra, Kind, Module, Ty, TypeDef};
use crate::names::{snake, unique};

/// Names of the strategy functions and which types are recursive.
struct Plan<'a> {
    module: &'a Module,
    /// Type name → strategy function name.
    fns: BTreeMap<String, String>,
    /// Type name → depth-taking function name, for types on a cycle.
    at_fns: BTreeMap<String, String>,
    /// Type name → name of the function giving its values as JSON.
    json_fns: BTreeMap<String, String>,
    /// Type name → name of the depth-taking function giving its values as JSON, for types on
    /// a cycle.
    at_json_fns: BTreeMap<String, String>,
    /// Type name → height (see the module documentation), for types on a cycle.
    heights: BTreeMap<String, u32>,
    /// Types whose strategies a shared module holds: type name → the name this module
    /// imports that module's `strategies` under (the shared module's own name).
    elsewhere: BTreeMap<String, proc_macro2::Ident>,
    /// Whether the JSON functions are visible to the crate: a shared module's, which the
    /// versions it serves and other shared modules call.
    shared: bool,
}

impl Plan<'_> {
    fn is_cyclic(&self, name: &str) -> bool {
        self.at_fns.contains_key(name)
    }

    /// The depth a strategy of `ty` needs: the greatest height of the cyclic types it
    /// mentions.
    fn need(&self, ty: &Ty) -> u32 {
        need_of(ty, &|n| self.heights.get(n).copied().or(Some(0))).unwrap_or(0)
    }

    /// Whether `ty` mentions a type on a cycle.
    fn mentions_cycle(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Named(n) => self.is_cyclic(n),
            Ty::Array(t) | Ty::Map(t) => self.mentions_cycle(t),
            Ty::Tuple(items) => items.iter().any(|t| self.mentions_cycle(t)),
            _ => false,
        }
    }
}

/// The greatest height of the cyclic types `ty` mentions (`None` when one has none yet);
/// `height` gives a type's height, `Some(0)` for a type on no cycle.
fn need_of(ty: &Ty, height: &dyn Fn(&str) -> Option<u32>) -> Option<u32> {
    match ty {
        Ty::Named(n) => height(n),
        Ty::Array(t) | Ty::Map(t) => need_of(t, height),
        Ty::Tuple(items) => items
            .iter()
            .try_fold(0, |acc, t| need_of(t, height).map(|h| acc.max(h))),
        _ => Some(0),
    }
}

/// The height of every type on a cycle, by fixpoint from "no finite value"; a type missing
/// from the result has no finite value.
fn heights(module: &Module, cyclic: &BTreeSet<String>) -> BTreeMap<String, u32> {
    let mut known: BTreeMap<String, u32> = BTreeMap::new();
    let mentions = |ty: &Ty| {
        let mut names = Vec::new();
        named_in(ty, &mut names);
        names.iter().any(|n| cyclic.contains(n))
    };
    // Each round settles at least one more height or stops; heights only go down.
    for _ in 0..=cyclic.len() * 2 + 1 {
        let mut changed = false;
        for name in cyclic {
            let Some(def) = module.get(name) else {
                continue;
            };
            let lookup = |n: &str| {
                if cyclic.contains(n) {
                    known.get(n).copied()
                } else {
                    Some(0)
                }
            };
            let height = match &def.kind {
                Kind::Struct(s) => s
                    .fields
                    .iter()
                    .filter(|f| mentions(&f.ty))
                    .filter(|f| {
                        f.required
                            && !f.nullable
                            && cut_value(module, &f.ty, &f.constraints).is_none()
                    })
                    .map(|f| need_of(&f.ty, &lookup).map(|h| h + 1))
                    .try_fold(0, |acc, h| h.map(|h| acc.max(h))),
                Kind::Union(u) => {
                    if u.variants.iter().any(|v| !mentions(&v.ty)) {
                        Some(0)
                    } else {
                        u.variants
                            .iter()
                            .filter_map(|v| need_of(&v.ty, &lookup).map(|h| h + 1))
                            .min()
                    }
                }
                Kind::Alias(ty) => need_of(ty, &lookup),
                Kind::Enum(_) | Kind::Const(_) => Some(0),
            };
            if let Some(h) = height
                && known.get(name).is_none_or(|old| h < *old)
            {
                known.insert(name.clone(), h);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    known
}

/// The functions of every type of `module` ([`Names`]), or a warning saying why it gets no
/// strategies (a type without a finite value).
pub fn names(module: &Module) -> std::result::Result<Names, String> {
    let mut taken = BTreeSet::from(["definition".to_owned()]);
    let fns: BTreeMap<String, String> = module
        .types
        .iter()
        .map(|d| (d.name.clone(), unique(snake(&d.name), &mut taken)))
        .collect();
    let cyclic = cyclic(module);
    let heights = heights(module, &cyclic);
    if let Some(endless) = cyclic.iter().find(|n| !heights.contains_key(*n)) {
        let pointer = module
            .get(endless)
            .map(|d| d.pointer.clone())
            .unwrap_or_default();
        return Err(format!(
            "{pointer}: no proptest strategies: `{endless}` has no finite value (every branch \
             recurses)"
        ));
    }
    let at_fns: BTreeMap<String, String> = cyclic
        .iter()
        .map(|n| {
            let f = unique(format!("{}_at", fns[n]), &mut taken);
            (n.clone(), f)
        })
        .collect();
    let json_fns = fns
        .iter()
        .map(|(n, f)| (n.clone(), unique(format!("{f}_json"), &mut taken)))
        .collect();
    let at_json_fns = at_fns
        .iter()
        .map(|(n, f)| (n.clone(), unique(format!("{f}_json"), &mut taken)))
        .collect();
    Ok(Names {
        fns,
        at_fns,
        json_fns,
        at_json_fns,
        heights,
    })
}

/// The strategy functions of a module's types and the heights of its cyclic ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    fns: BTreeMap<String, String>,
    at_fns: BTreeMap<String, String>,
    json_fns: BTreeMap<String, String>,
    at_json_fns: BTreeMap<String, String>,
    heights: BTreeMap<String, u32>,
}

impl Names {
    /// Everything the strategies of type `name` are known by: its functions and its height
    /// (two versions sharing the type's strategies must agree on it).
    pub fn of(&self, name: &str) -> [Option<String>; 5] {
        [
            self.fns.get(name).cloned(),
            self.at_fns.get(name).cloned(),
            self.json_fns.get(name).cloned(),
            self.at_json_fns.get(name).cloned(),
            self.heights.get(name).map(u32::to_string),
        ]
    }
}

fn plan<'a>(
    module: &'a Module,
    elsewhere: &BTreeMap<String, String>,
    shared: bool,
) -> std::result::Result<Plan<'a>, String> {
    let Names {
        fns,
        at_fns,
        json_fns,
        at_json_fns,
        heights,
    } = names(module)?;
    Ok(Plan {
        module,
        fns,
        at_fns,
        json_fns,
        at_json_fns,
        heights,
        elsewhere: elsewhere
            .iter()
            .map(|(name, m)| (name.clone(), ident(m)))
            .collect(),
        shared,
    })
}

/// `use <root>::<m>::strategies as <m>;` for each shared module `m` of `used`.
fn imports(root: &TokenStream, used: &BTreeSet<proc_macro2::Ident>) -> TokenStream {
    let used = used.iter();
    quote! { #( use #root::#used::strategies as #used; )* }
}

/// Emits the `strategies` module of `ctx.module`, or a warning saying why there is none. The
/// strategies of a type a shared module holds (`ctx.shared`) are that module's, re-exported.
pub fn emit(ctx: &Context<'_>, feature: &str) -> Result<std::result::Result<Strategies, String>> {
    let module = ctx.module;
    let none = BTreeMap::new();
    let plan = match plan(module, ctx.shared.unwrap_or(&none), false) {
        Ok(plan) => plan,
        Err(warning) => return Ok(Err(warning)),
    };
    let mut items = Vec::new();
    let mut used = BTreeSet::new();
    for def in &module.types {
        match plan.elsewhere.get(&def.name) {
            Some(m) => {
                used.insert(m.clone());
                let fns = std::iter::once(&plan.fns[&def.name])
                    .chain(plan.at_fns.get(&def.name))
                    .map(|f| ident(f));
                items.push(quote! { #( pub use #m::#fns; )* });
            }
            None => items.push(emit_type(&plan, def)?),
        }
    }
    let support = support();
    let defs: Vec<&String> = module.definitions.iter().map(|(json, _)| json).collect();
    let def_fns: Vec<_> = module
        .definitions
        .iter()
        .map(|(_, rust)| {
            let f = ident(&plan.json_fns[rust]);
            match plan.elsewhere.get(rust) {
                Some(m) => quote! { #m::#f },
                None => quote! { #f },
            }
        })
        .collect();
    let def_types: Vec<_> = module
        .definitions
        .iter()
        .map(|(_, rust)| ident(rust))
        .collect();
    let protocol = &ctx.flavor.protocol;
    let mut mod_doc = format!(
        " Proptest strategies for every type of {protocol}: one function per type (the type name in\n snake case), each value valid against the schema definition it comes from."
    );
    if !used.is_empty() {
        mod_doc.push_str(
            "\n\n The strategies of a type shared with other versions are the shared module's, \
             re-exported here where they would be defined.",
        );
    }
    let imports = imports(&quote! { super::super }, &used);
    let body = quote! {
        #[allow(unused_imports)]
        use ::proptest::strategy::{BoxedStrategy, Just, Strategy};
        use #support::strategy as s;
        #imports

        #(#items)*

        #support::sample_table! {
            #( #defs #def_types #def_fns; )*
        }
    };
    Ok(Ok(Strategies {
        declaration: quote! {
            #[doc = #mod_doc]
            #[cfg(feature = #feature)]
        },
        body,
    }))
}

/// Emits the `strategies` module of a shared module holding `names` (types of `ctx.module`,
/// one of the versions it serves): their strategies, once. `elsewhere` names the shared
/// module holding each type it refers to and does not hold. Its JSON functions are visible
/// to the crate, for the versions' strategies and the other shared modules to call.
pub fn emit_shared(
    ctx: &Context<'_>,
    names: &[String],
    elsewhere: &BTreeMap<String, String>,
    feature: &str,
) -> Result<std::result::Result<Strategies, String>> {
    let plan = match plan(ctx.module, elsewhere, true) {
        Ok(plan) => plan,
        Err(warning) => return Ok(Err(warning)),
    };
    let mut items = Vec::new();
    let mut used = BTreeSet::new();
    for name in names {
        let Some(def) = ctx.module.get(name) else {
            continue;
        };
        for target in refs(&def.kind) {
            used.extend(plan.elsewhere.get(&target).cloned());
        }
        items.push(emit_type(&plan, def)?);
    }
    let support = support();
    let doc = " Proptest strategies for the types of this module, one function per type (the type \
               name in snake case), each value valid against the schema definition it comes \
               from; each version's `strategies` re-exports them.";
    let imports = imports(&quote! { super::super }, &used);
    let body = quote! {
        #[allow(unused_imports)]
        use ::proptest::strategy::{BoxedStrategy, Just, Strategy};
        use #support::strategy as s;
        #imports

        #(#items)*
    };
    Ok(Ok(Strategies {
        declaration: quote! {
            #[doc = #doc]
            #[cfg(feature = #feature)]
        },
        body,
    }))
}

/// A module's `strategies`: its doc and `cfg` attributes, and its items (inline in the
/// module, or in a file of its own).
pub struct Strategies {
    /// The attributes of `mod strategies`.
    pub declaration: TokenStream,
    /// Its items.
    pub body: TokenStream,
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

/// The names `ty` mentions (through arrays and maps).
fn named_in(ty: &Ty, out: &mut Vec<String>) {
    match ty {
        Ty::Named(n) => out.push(n.clone()),
        Ty::Array(t) | Ty::Map(t) => named_in(t, out),
        Ty::Tuple(items) => items.iter().for_each(|t| named_in(t, out)),
        _ => {}
    }
}

fn refs(kind: &Kind) -> Vec<String> {
    let named = named_in;
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

/// The strategy functions of one type: its values as JSON (private), and typed, decoded
/// from that JSON (public). Every combinator works on `serde_json::Value`, so a definition
/// adds to the crate a few small functions, not a tree of combinator types of its own.
fn emit_type(plan: &Plan<'_>, def: &TypeDef) -> Result<TokenStream> {
    let name = ident(&def.name);
    let fn_name = ident(&plan.fns[&def.name]);
    let json_fn = ident(&plan.json_fns[&def.name]);
    let recursive = plan.is_cyclic(&def.name);
    // The depth a referenced cyclic type gets: one level less (an alias is no level).
    let depth = recursive.then(|| quote! { depth - 1 });
    let same_depth = recursive.then(|| quote! { depth });
    let vis = plan.shared.then(|| quote! { pub(crate) });
    let body = match &def.kind {
        Kind::Struct(s) => {
            let mut members = Vec::new();
            for f in &s.fields {
                let json = &f.json_name;
                let inner = ty_strategy(plan, &f.ty, &f.constraints, depth.as_ref());
                let strategy = match (f.required, f.nullable) {
                    (true, false) => quote! { s::required(#inner) },
                    (true, true) => quote! { s::nullable(#inner) },
                    (false, false) => quote! { s::optional_member(#inner) },
                    (false, true) => quote! { s::optional_nullable(#inner) },
                };
                // A member that cannot be cut is never reached below its need (the height).
                let cut = if recursive && plan.mentions_cycle(&f.ty) {
                    match (f.required, f.nullable) {
                        (false, _) => Some(quote! { s::absent() }),
                        (true, true) => Some(quote! { s::null_member() }),
                        (true, false) => cut_value(plan.module, &f.ty, &f.constraints)
                            .map(|cut| quote! { s::required(#cut) }),
                    }
                } else {
                    None
                };
                let member = guard(cut, strategy, plan.need(&f.ty));
                members.push(quote! { (#json, #member) });
            }
            let extra = match &s.extra {
                // Undeclared members the schema merely does not forbid: none are generated, so
                // a value never picks up a member another union variant is told apart by.
                Extra::Closed | Extra::Implicit => None,
                Extra::Declared(extra) => {
                    // Nor a member a `not: {"required"}` counts (see below).
                    let reserved: Vec<&String> = s
                        .fields
                        .iter()
                        .map(|f| &f.json_name)
                        .chain(&s.not_all_present)
                        .collect();
                    let inner = ty_strategy(plan, extra, &Constraints::default(), depth.as_ref());
                    let strategy = quote! { s::extra(#inner, &[#(#reserved),*]) };
                    let cut =
                        (recursive && plan.mentions_cycle(extra)).then(|| quote! { s::no_extra() });
                    Some(guard(cut, strategy, plan.need(extra)))
                }
            };
            // `not: {"required": [...]}`: when every listed member came out present, the
            // first optional one of them is left out again (only declared members are ever
            // generated).
            let listed: Vec<&crate::model::Field> = s
                .not_all_present
                .iter()
                .filter_map(|m| s.fields.iter().find(|f| &f.json_name == m))
                .collect();
            let not_all_present = match listed.iter().find(|f| !f.required) {
                Some(first) if listed.len() == s.not_all_present.len() => {
                    let names = listed.iter().map(|f| &f.json_name);
                    let first = &first.json_name;
                    Some(quote! { ::core::option::Option::Some((&[#(#names),*], #first)) })
                }
                _ => None,
            };
            match (extra, not_all_present) {
                (None, None) => quote! { s::object([#(#members),*]) },
                (extra, not_all_present) => {
                    let extra = extra.unwrap_or_else(|| quote! { s::no_extra() });
                    let not_all_present =
                        not_all_present.unwrap_or_else(|| quote! { ::core::option::Option::None });
                    quote! {
                        s::object_with(::std::vec::Vec::from([#(#members),*]), #extra, #not_all_present)
                    }
                }
            }
        }
        Kind::Enum(e) => {
            let values: Vec<&String> = e.values.iter().map(|(_, v)| v).collect();
            if e.open {
                quote! { s::open_enum_json(&[#(#values),*]) }
            } else {
                quote! { s::select_json(&[#(#values),*]) }
            }
        }
        Kind::Const(_) => quote! { s::constant(&super::#name) },
        Kind::Alias(ty) => ty_strategy(plan, ty, &def.constraints, same_depth.as_ref()),
        Kind::Union(u) => {
            let mut always = Vec::new();
            let mut deep: BTreeMap<u32, Vec<TokenStream>> = BTreeMap::new();
            for v in &u.variants {
                let vname = &v.name;
                let inner = if v.ty == Ty::Null {
                    quote! { s::null_json() }
                } else {
                    ty_strategy(plan, &v.ty, &Constraints::default(), depth.as_ref())
                };
                let alt = quote! { (#vname, #inner) };
                if recursive && plan.mentions_cycle(&v.ty) {
                    deep.entry(plan.need(&v.ty)).or_default().push(alt);
                } else {
                    always.push(alt);
                }
            }
            // A variant recursing into types of height `n` is offered only above depth `n`;
            // the type's own height guarantees at least one is.
            let extensions = deep.iter().map(|(need, alts)| {
                let need = proc_macro2::Literal::u32_unsuffixed(*need);
                quote! {
                    if depth > #need {
                        alternatives.extend([#(#alts),*]);
                    }
                }
            });
            let alternatives = if deep.is_empty() {
                quote! { ::std::vec::Vec::from([#(#always),*]) }
            } else {
                quote! {
                    {
                        let mut alternatives = ::std::vec::Vec::from([#(#always),*]);
                        #(#extensions)*
                        alternatives
                    }
                }
            };
            quote! {
                s::union(#alternatives, |json| s::variant_of(json, super::#name::variant_name))
            }
        }
    };
    let doc = format!(" Values of [`super::{}`].", def.name);
    let json_doc = format!(" Values of [`super::{}`] as JSON.", def.name);
    if let Some(at) = plan.at_fns.get(&def.name) {
        let at = ident(at);
        let at_json = ident(&plan.at_json_fns[&def.name]);
        let height = plan.heights.get(&def.name).copied().unwrap_or(0);
        let entry = if height == 0 {
            quote! { s::DEPTH }
        } else {
            let height = proc_macro2::Literal::u32_unsuffixed(height);
            quote! { s::DEPTH.max(#height) }
        };
        let at_doc = format!(
            " Values of [`super::{}`], recursing at most `depth` levels.",
            def.name
        );
        let at_json_doc = format!(
            " Values of [`super::{}`] as JSON, recursing at most `depth` levels.",
            def.name
        );
        Ok(quote! {
            #[doc = #doc]
            pub fn #fn_name() -> BoxedStrategy<super::#name> {
                #at(#entry)
            }

            #[doc = #at_doc]
            pub fn #at(depth: u32) -> BoxedStrategy<super::#name> {
                s::typed(#at_json(depth))
            }

            #[doc = #json_doc]
            #vis fn #json_fn() -> BoxedStrategy<::serde_json::Value> {
                #at_json(#entry)
            }

            #[doc = #at_json_doc]
            #vis fn #at_json(depth: u32) -> BoxedStrategy<::serde_json::Value> {
                #body
            }
        })
    } else {
        Ok(quote! {
            #[doc = #doc]
            pub fn #fn_name() -> BoxedStrategy<super::#name> {
                s::typed(#json_fn())
            }

            #[doc = #json_doc]
            #vis fn #json_fn() -> BoxedStrategy<::serde_json::Value> {
                #body
            }
        })
    }
}

/// `cut` while the depth is at most `need`, `strategy` deeper (or just `strategy` without a
/// cut).
fn guard(cut: Option<TokenStream>, strategy: TokenStream, need: u32) -> TokenStream {
    match cut {
        Some(cut) if need == 0 => quote! { if depth == 0 { #cut } else { #strategy } },
        Some(cut) => {
            let need = proc_macro2::Literal::u32_unsuffixed(need);
            quote! { if depth <= #need { #cut } else { #strategy } }
        }
        None => strategy,
    }
}

/// The JSON value a required member referring into a cycle takes when the depth runs out,
/// when there is one (an empty array or object, also behind an alias).
fn cut_value(module: &Module, ty: &Ty, constraints: &Constraints) -> Option<TokenStream> {
    match ty {
        Ty::Named(n) => match module.get(n) {
            Some(TypeDef {
                kind: Kind::Alias(target),
                constraints,
                ..
            }) => cut_value(module, target, constraints),
            _ => None,
        },
        Ty::Array(_) if constraints.min_items.unwrap_or(0) == 0 => Some(quote! {
            Just(::serde_json::Value::Array(::std::vec::Vec::new())).boxed()
        }),
        Ty::Map(_) => Some(quote! {
            Just(::serde_json::Value::Object(::serde_json::Map::new())).boxed()
        }),
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

/// An expression of type `BoxedStrategy<serde_json::Value>`: JSON values of the Rust type of
/// `ty`.
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
            quote! { s::string_json(#format, #min, #max) }
        }
        Ty::Integer => {
            let (min, max) = (opt_i64(c.minimum), opt_i64(c.maximum));
            quote! { s::integer_json(#min, #max) }
        }
        Ty::Number => {
            let (min, max) = (opt_f64(c.minimum), opt_f64(c.maximum));
            quote! { s::number_json(#min, #max) }
        }
        Ty::Bool => quote! { s::boolean_json() },
        Ty::Null => quote! { s::null_json() },
        Ty::Any => quote! { s::any_json() },
        Ty::Array(item) => {
            let item = ty_strategy(plan, item, &Constraints::default(), depth);
            let (min, max) = (opt_u64(c.min_items), opt_u64(c.max_items));
            quote! { s::array_json(#item, #min, #max) }
        }
        Ty::Map(value) if **value == Ty::Any => quote! { s::object_json() },
        map if map.is_object_of_objects() => quote! { s::object_map_json() },
        Ty::Map(value) => {
            let value = ty_strategy(plan, value, &Constraints::default(), depth);
            quote! { s::map_json(#value) }
        }
        Ty::Tuple(items) => {
            let items = items
                .iter()
                .map(|t| ty_strategy(plan, t, &Constraints::default(), depth));
            quote! { s::tuple_json(::std::vec::Vec::from([#(#items),*])) }
        }
        Ty::Named(n) => {
            let module = plan.elsewhere.get(n).map(|m| quote! { #m:: });
            match (plan.at_json_fns.get(n), depth) {
                (Some(at), Some(depth)) => {
                    let at = ident(at);
                    quote! { #module #at(#depth) }
                }
                _ => {
                    let f = ident(&plan.json_fns[n]);
                    debug_assert!(plan.module.get(n).is_some());
                    quote! { #module #f() }
                }
            }
        }
    }
}
