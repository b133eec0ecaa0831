//! Unions: an enum whose `Deserialize` picks the variant by the precomputed [`Dispatch`]
//! (never by trying variants one after another), then decodes that variant once.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, json_schema_impl, support, ty_tokens};
use crate::dispatch::{PATH_SEP, UNKNOWN_VARIANT};
use crate::error::{CodegenError, Result};
use crate::model::{ConstValue, Dispatch, Token, Ty, TypeDef, Union};

/// Emits one union.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, u: &Union) -> Result<TokenStream> {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let name_str = &def.name;
    let support = support();
    let dispatch = u.dispatch.as_ref().ok_or_else(|| {
        CodegenError::at(def.pointer.clone(), "union without a dispatch decision")
    })?;

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
            decode_arms.push(quote! { #support::decode_null::<D::Error>(value, #name_str, #vname_str, reason).map(|()| Self::#vname) });
            schema_parts.push(quote! { ::schemars::json_schema!({ "type": "null" }) });
            continue;
        }
        let inner = ty_tokens(&v.ty);
        let (field_ty, wrap) = if v.boxed {
            (
                quote! { ::std::boxed::Box<#inner> },
                quote! { |v| Self::#vname(::std::boxed::Box::new(v)) },
            )
        } else {
            (inner.clone(), quote! { Self::#vname })
        };
        variants.push(quote! { #[doc = #doc] #vname(#field_ty), });
        name_arms.push(quote! { Self::#vname(_) => #vname_str, });
        decode_arms.push(if ctx.decodes_by_schema(&v.ty) {
            // An `integer` variant (or a collection of them) admits `3.0` as JSON Schema does.
            quote! {
                #support::decode_variant::<#support::BySchema<#inner>, D::Error>(value, #name_str, #vname_str, reason).map(|v| v.0).map(#wrap)
            }
        } else {
            quote! {
                #support::decode_variant::<#inner, D::Error>(value, #name_str, #vname_str, reason).map(#wrap)
            }
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
            #support::decode_variant::<#support::UnknownMethod, D::Error>(value, #name_str, "Unknown", reason).map(Self::Unknown)
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

    let choose = choose_expr(
        dispatch,
        name_str,
        &u.variants
            .iter()
            .map(|v| v.name.clone())
            .collect::<Vec<_>>(),
    );
    let large = if u.variants.len() > 1 {
        quote! { #[allow(clippy::large_enum_variant)] }
    } else {
        quote! {}
    };
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
        pub enum #name {
            #(#variants)*
        }

        impl #name {
            /// The name of the variant this value holds (the schema definition it decoded as).
            pub fn variant_name(&self) -> &'static str {
                match self { #(#name_arms)* }
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                let (index, reason): (usize, &'static str) = #choose;
                match index {
                    #(#decode_arms)*
                }
            }
        }

        #json_schema
    })
}

/// The expression choosing `(variant index, reason)` for `value`, or returning the error.
fn choose_expr(dispatch: &Dispatch, union: &str, names: &[String]) -> TokenStream {
    let support = support();
    let Dispatch::ByToken(cases) = dispatch else {
        return decision(dispatch, union, names, "value");
    };
    let mut arms = Vec::new();
    let mut admitted = Vec::new();
    for (token, d) in cases {
        let uses_binding = !matches!(d, Dispatch::Variant(_));
        let expr = decision(d, union, names, "");
        admitted.push(token_name(*token));
        arms.push(match token {
            Token::Object if uses_binding => quote! { ::serde_json::Value::Object(map) => #expr, },
            Token::Object => quote! { ::serde_json::Value::Object(_) => #expr, },
            Token::Array if uses_binding => quote! { ::serde_json::Value::Array(items) => #expr, },
            Token::Array => quote! { ::serde_json::Value::Array(_) => #expr, },
            Token::String => quote! { ::serde_json::Value::String(_) => #expr, },
            Token::Integer => quote! { ::serde_json::Value::Number(number) if #support::is_integer(number) => #expr, },
            Token::Number => quote! { ::serde_json::Value::Number(_) => #expr, },
            Token::Bool => quote! { ::serde_json::Value::Bool(_) => #expr, },
            Token::Null => quote! { ::serde_json::Value::Null => #expr, },
        });
    }
    if cases.len() < 7 {
        let expected = format!("expected {}", admitted.join(" or "));
        arms.push(quote! {
            other => return ::core::result::Result::Err(#support::no_variant::<D::Error>(#union, &::std::format!("{}, found {}", #expected, #support::token_name(other)))),
        });
    }
    quote! { match &value { #(#arms)* } }
}

fn decision(d: &Dispatch, union: &str, names: &[String], _ctx: &str) -> TokenStream {
    let support = support();
    match d {
        Dispatch::Variant(i) => {
            let reason = if *i == UNKNOWN_VARIANT {
                "its method is not one this version defines".to_owned()
            } else {
                "it is the only variant admitting this JSON type".to_owned()
            };
            quote! { (#i, #reason) }
        }
        Dispatch::ByToken(_) => choose_expr(d, union, names),
        Dispatch::ByConst {
            member,
            cases,
            otherwise,
        } => {
            let is_str = cases.iter().all(|(v, _)| matches!(v, ConstValue::Str(_)));
            let mut arms = Vec::new();
            for (value, sub) in cases {
                let sub = with_reason(
                    sub,
                    &format!("member `{member}` is {}", const_text(value)),
                    union,
                    names,
                );
                arms.push(match value {
                    ConstValue::Str(s) => quote! { #s => #sub, },
                    ConstValue::Int(i) => quote! { #i => #sub, },
                });
            }
            let fallback = match otherwise {
                Some(o) => decision(o, union, names, ""),
                None => {
                    let msg = format!("member `{member}` has a value no variant admits: {{}}");
                    quote! { return ::core::result::Result::Err(#support::no_variant::<D::Error>(#union, &::std::format!(#msg, found))) }
                }
            };
            let missing = format!(
                "member `{member}` is missing or not a {}",
                if is_str { "string" } else { "integer" }
            );
            let get = if is_str {
                quote! { map.get(#member).and_then(::serde_json::Value::as_str) }
            } else {
                quote! { map.get(#member).and_then(::serde_json::Value::as_i64) }
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
                    ::core::option::Option::None => return ::core::result::Result::Err(#support::no_variant::<D::Error>(#union, #missing)),
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
                let i = rule.variant;
                let reason = &rule.reason;
                branches.push(quote! { if #(#conds)&&* { (#i, #reason) } });
            }
            let last = match fallback {
                Some(i) => quote! { (#i, "no other variant's distinguishing members are present") },
                None => {
                    let members: Vec<String> = rules
                        .iter()
                        .flat_map(|r| r.all_of.iter().chain(r.any_of.iter()).cloned())
                        .collect();
                    let msg = format!("none of the distinguishing members {members:?} is present");
                    quote! { return ::core::result::Result::Err(#support::no_variant::<D::Error>(#union, #msg)) }
                }
            };
            if branches.is_empty() {
                last
            } else {
                quote! { #(#branches else)* { #last } }
            }
        }
        Dispatch::ByFirstItem { item, empty } => {
            let inner = decision(item, union, names, "");
            quote! {
                match items.first() {
                    ::core::option::Option::Some(::serde_json::Value::Object(map)) => #inner,
                    _ => (#empty, "an empty array or a non-object first item takes the first array variant"),
                }
            }
        }
    }
}

/// The test that an object `map` has member `path` (one level of nesting at most).
fn has_member(path: &str) -> TokenStream {
    match path.split_once(PATH_SEP) {
        None => quote! { map.contains_key(#path) },
        Some((outer, inner)) => quote! {
            map.get(#outer).and_then(::serde_json::Value::as_object).is_some_and(|inner| inner.contains_key(#inner))
        },
    }
}

/// Like [`decision`], but a direct variant gets `reason`.
fn with_reason(d: &Dispatch, reason: &str, union: &str, names: &[String]) -> TokenStream {
    match d {
        Dispatch::Variant(i) => quote! { (#i, #reason) },
        other => decision(other, union, names, ""),
    }
}

fn const_text(v: &ConstValue) -> String {
    match v {
        ConstValue::Str(s) => format!("{s:?}"),
        ConstValue::Int(i) => i.to_string(),
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
