//! Structs: objects with declared members.
//!
//! `Serialize` is derived; `Deserialize` is generated: a visitor reads the members one by one,
//! decodes each declared member in place (by the JSON Schema rules for `integer`s), and puts an
//! undeclared member into the `extra` map — or refuses it under `additionalProperties: false`.
//! Nothing is buffered, so a well-formed object costs what serde's derive costs; the map is
//! an empty `BTreeMap` (no allocation) when nothing undeclared appears.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{Context, derives_serialize, ident, support, ty_tokens};
use crate::model::{Extra, Field, Kind, Struct, Ty, TypeDef};
use crate::schema::escape;

/// Emits one struct and its `Deserialize` impl.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, s: &Struct) -> TokenStream {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let mut fields = Vec::new();
    for f in &s.fields {
        let field_name = ident(&f.rust_name);
        let full_ty = field_type(f);
        let json = &f.json_name;
        let mut attrs = Vec::new();
        if f.rust_name != f.json_name {
            attrs.push(quote! { rename = #json });
        }
        if !f.required {
            attrs.push(quote! { default, skip_serializing_if = "::core::option::Option::is_none" });
        }
        let serde = if attrs.is_empty() {
            quote! {}
        } else {
            quote! { #[serde(#(#attrs),*)] }
        };
        let mut doc = format!(
            " `{}` member ({}{}).",
            f.json_name,
            if f.required { "required" } else { "optional" },
            if f.nullable { ", may be null" } else { "" }
        );
        let pointer = format!("{}/properties/{}", def.pointer, escape(&f.json_name));
        if let Some(text) = ctx.description(&pointer) {
            doc.push_str("\n\n");
            doc.push_str(
                &text
                    .lines()
                    .map(|l| format!(" {l}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
        fields.push(quote! {
            #[doc = #doc]
            #serde
            pub #field_name: #full_ty,
        });
    }
    let closed = matches!(s.extra, Extra::Closed);
    if let Some(extra) = s.kept() {
        let value = ty_tokens(extra);
        let field_name = ident(&s.extra_field());
        let doc = match s.extra {
            Extra::Implicit => {
                " Members the schema does not declare (it does not forbid them), kept as they came \
                 and encoded back after the declared ones."
            }
            _ => {
                " Members the schema does not declare but explicitly admits, kept and encoded back."
            }
        };
        fields.push(quote! {
            #[doc = #doc]
            #[serde(flatten)]
            pub #field_name: ::std::collections::BTreeMap<::std::string::String, #value>,
        });
    }
    let all_optional = s.fields.iter().all(|f| !f.required);
    let derive = derives_serialize(all_optional);
    let deny = closed.then(|| quote! { #[serde(deny_unknown_fields)] });
    let deserialize = deserialize_impl(def, s);
    let constructors = constructors(ctx, def, s);
    quote! {
        #docs
        #derive
        #deny
        pub struct #name {
            #(#fields)*
        }

        #constructors

        #deserialize
    }
}

/// Whether `ty` is a `const` marker (directly or through aliases): a required member of that
/// type needs no argument.
pub fn is_const_marker(ctx: &Context<'_>, ty: &Ty) -> bool {
    match ty {
        Ty::Named(name) => match ctx.def(name).map(|d| &d.kind) {
            Some(Kind::Const(_)) => true,
            Some(Kind::Alias(target)) => is_const_marker(ctx, target),
            _ => false,
        },
        _ => false,
    }
}

/// The required members `new` takes, in the schema's `required` order (`const` markers are
/// filled in).
pub fn new_params<'s>(ctx: &Context<'_>, s: &'s Struct) -> Vec<&'s Field> {
    let mut params: Vec<&Field> = s
        .fields
        .iter()
        .filter(|f| f.required && (f.nullable || !is_const_marker(ctx, &f.ty)))
        .collect();
    params.sort_by_key(|f| f.required_rank);
    params
}

/// `new(required members…)`, a `with_<member>` setter per optional member, and
/// `with_extra_member` where undeclared members are kept.
fn constructors(ctx: &Context<'_>, def: &TypeDef, s: &Struct) -> TokenStream {
    let name = ident(&def.name);
    let params = new_params(ctx, s);
    let mut args = Vec::new();
    let mut inits = Vec::new();
    let mut setters = Vec::new();
    for p in &params {
        let field = ident(&p.rust_name);
        let ty = ty_tokens(&p.ty);
        args.push(if p.nullable {
            quote! { #field: ::core::option::Option<#ty> }
        } else {
            quote! { #field: impl ::core::convert::Into<#ty> }
        });
    }
    for f in &s.fields {
        let field = ident(&f.rust_name);
        let ty = ty_tokens(&f.ty);
        let boxed = |value: TokenStream| {
            if f.boxed {
                quote! { ::std::boxed::Box::new(#value) }
            } else {
                value
            }
        };
        if f.required && params.iter().any(|p| p.rust_name == f.rust_name) {
            if f.nullable && f.boxed {
                inits.push(quote! { #field: #field.map(::std::boxed::Box::new) });
            } else if f.nullable {
                inits.push(quote! { #field });
            } else {
                let value = boxed(quote! { #field.into() });
                inits.push(quote! { #field: #value });
            }
        } else if f.required {
            inits.push(quote! { #field: ::core::default::Default::default() });
        } else {
            inits.push(quote! { #field: ::core::option::Option::None });
            let setter = quote::format_ident!("with_{}", f.rust_name);
            let doc = format!(" Sets the optional `{}` member.", f.json_name);
            let (arg, value) = if f.nullable {
                (
                    quote! { #field: ::core::option::Option<#ty> },
                    boxed(quote! { v }),
                )
            } else {
                (
                    quote! { #field: impl ::core::convert::Into<#ty> },
                    boxed(quote! { #field.into() }),
                )
            };
            let store = if f.nullable && f.boxed {
                quote! { ::core::option::Option::Some(#field.map(::std::boxed::Box::new)) }
            } else if f.nullable {
                quote! { ::core::option::Option::Some(#field) }
            } else {
                quote! { ::core::option::Option::Some(#value) }
            };
            setters.push(quote! {
                #[doc = #doc]
                #[must_use]
                pub fn #setter(mut self, #arg) -> Self {
                    self.#field = #store;
                    self
                }
            });
        }
    }
    if let Some(extra) = s.kept() {
        let field = ident(&s.extra_field());
        inits.push(quote! { #field: ::std::collections::BTreeMap::new() });
        let value = ty_tokens(extra);
        let taken = s.fields.iter().any(|f| f.rust_name == "extra_member");
        if !taken {
            setters.push(quote! {
                /// Adds a member the schema does not declare (encoded after the declared ones).
                #[must_use]
                pub fn with_extra_member(mut self, name: impl ::core::convert::Into<::std::string::String>, value: impl ::core::convert::Into<#value>) -> Self {
                    self.#field.insert(name.into(), value.into());
                    self
                }
            });
        }
    }
    let new_doc = if params.is_empty() {
        " A value with every optional member absent.".to_owned()
    } else {
        format!(
            " A value with the required {} and every optional member absent.",
            params
                .iter()
                .map(|p| format!("`{}`", p.json_name))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let allow = (args.len() > 7).then(|| quote! { #[allow(clippy::too_many_arguments)] });
    let allow_new = params
        .is_empty()
        .then(|| quote! { #[allow(clippy::new_without_default)] });
    quote! {
        impl #name {
            #[doc = #new_doc]
            #allow
            #allow_new
            pub fn new(#(#args),*) -> Self {
                Self { #(#inits),* }
            }

            #(#setters)*
        }
    }
}

/// The Rust type of a member: `Option` when optional or nullable, both when both.
fn field_type(f: &Field) -> TokenStream {
    let mut ty = ty_tokens(&f.ty);
    if f.boxed {
        ty = quote! { ::std::boxed::Box<#ty> };
    }
    match (f.required, f.nullable) {
        (true, false) => ty,
        (true, true) | (false, false) => quote! { ::core::option::Option<#ty> },
        (false, true) => quote! { ::core::option::Option<::core::option::Option<#ty>> },
    }
}

/// The expression decoding the value of member `f` from `map` (a `MapAccess`), as stored in
/// its field (before the `Some` of an optional member).
fn member_value(f: &Field) -> TokenStream {
    let mut ty = ty_tokens(&f.ty);
    if f.boxed {
        ty = quote! { ::std::boxed::Box<#ty> };
    }
    if f.nullable {
        quote! { map.next_value::<::core::option::Option<#ty>>()? }
    } else {
        quote! { map.next_value::<#ty>()? }
    }
}

/// The `Deserialize` impl of a struct: declared members by index, undeclared ones kept or
/// refused, required ones checked at the end (``missing field `name` ``).
fn deserialize_impl(def: &TypeDef, s: &Struct) -> TokenStream {
    let name = ident(&def.name);
    let support = support();
    let expecting = format!("an object ({})", def.name);
    let names: Vec<&String> = s.fields.iter().map(|f| &f.json_name).collect();
    let vars: Vec<_> = (0..s.fields.len()).map(|i| format_ident!("m{i}")).collect();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    for (i, (f, var)) in s.fields.iter().zip(&vars).enumerate() {
        // The last declared index is the catch-all, so the match is exhaustive without dead
        // code.
        let pattern = if i + 1 == s.fields.len() {
            quote! { #support::Member::Declared(_) }
        } else {
            quote! { #support::Member::Declared(#i) }
        };
        let json = &f.json_name;
        let field_name = ident(&f.rust_name);
        let value = member_value(f);
        let stored = if f.required {
            value
        } else {
            quote! { ::core::option::Option::Some(#value) }
        };
        arms.push(quote! {
            #pattern => {
                if #var.is_some() {
                    return ::core::result::Result::Err(<A::Error as ::serde::de::Error>::duplicate_field(#json));
                }
                #var = ::core::option::Option::Some(#stored);
            }
        });
        inits.push(if f.required {
            quote! {
                #field_name: #var.ok_or_else(|| <A::Error as ::serde::de::Error>::missing_field(#json))?
            }
        } else {
            quote! { #field_name: #var.unwrap_or_default() }
        });
    }
    let (extra_init, undeclared) = match s.kept() {
        Some(extra) => {
            let field_name = ident(&s.extra_field());
            let value = ty_tokens(extra);
            let decode = quote! { map.next_value::<#value>()? };
            (
                Some(quote! { let mut #field_name = ::std::collections::BTreeMap::new(); }),
                (
                    quote! {
                        #support::Member::Undeclared(member) => {
                            let value = #decode;
                            #field_name.insert(member, value);
                        }
                    },
                    Some(quote! { #field_name }),
                ),
            )
        }
        None => (
            None,
            (
                quote! {
                    #support::Member::Undeclared(member) => {
                        return ::core::result::Result::Err(<A::Error as ::serde::de::Error>::unknown_field(&member, MEMBERS));
                    }
                },
                None,
            ),
        ),
    };
    let (undeclared_arm, extra_field) = undeclared;
    // The index of a declared member's name (see `MemberName`).
    let lookup = names
        .iter()
        .enumerate()
        .map(|(i, json)| quote! { #json => ::core::option::Option::Some(#i), });
    let declared = if names.is_empty() {
        quote! {
            fn declared(_: &str) -> ::core::option::Option<usize> {
                ::core::option::Option::None
            }
        }
    } else {
        quote! {
            fn declared(name: &str) -> ::core::option::Option<usize> {
                match name {
                    #(#lookup)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    // The names, for the error of a refused undeclared member.
    let members_const = s
        .kept()
        .is_none()
        .then(|| quote! { const MEMBERS: &[&str] = &[#(#names),*]; });
    if arms.is_empty() {
        // No member is declared, so `MemberName` never yields this.
        arms.push(quote! { #support::Member::Declared(_) => {} });
    }
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #members_const
                #declared
                struct Members;
                impl<'de> ::serde::de::Visitor<'de> for Members {
                    type Value = #name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<A: ::serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<#name, A::Error> {
                        #(let mut #vars = ::core::option::Option::None;)*
                        #extra_init
                        while let ::core::option::Option::Some(member) = map.next_key_seed(#support::MemberName(declared))? {
                            match member {
                                #(#arms)*
                                #undeclared_arm
                            }
                        }
                        ::core::result::Result::Ok(#name { #(#inits,)* #extra_field })
                    }
                }
                deserializer.deserialize_map(Members)
            }
        }
    }
}
