//! Structs: objects with declared members.
//!
//! `Serialize` is derived; `Deserialize` is generated: a visitor reads the members one by one,
//! decodes each declared member in place (by the JSON Schema rules for `integer`s), and puts an
//! undeclared member into the `extra` map — or refuses it under `additionalProperties: false`.
//! Nothing is buffered, so a well-formed object costs what serde's derive costs; the map is
//! an empty `BTreeMap` (no allocation) when nothing undeclared appears.

use proc_macro2::TokenStream;
use quote::quote;

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
        // Where the member is defined, not what its type already says.
        let pointer = format!("{}/properties/{}", def.pointer, escape(&f.json_name));
        let mut doc = if ctx.serves.is_empty() {
            format!(" Schema: `{pointer}`.")
        } else {
            // A shared type: the definition's pointer differs between the versions (their
            // list is on the type).
            format!(
                " Schema: `properties/{}` under the type's pointer.",
                escape(&f.json_name)
            )
        };
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
    // A struct under `not: {"required": [...]}` writes its table out; every other one is one
    // `object!` call (the same items, expanded by the support library).
    let table = s.not_all_present.is_empty();
    let deserialize = if table {
        object_call(def, s)
    } else {
        deserialize_impl(def, s)
    };
    let constructors = constructors(ctx, def, s, !table);
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
/// With `setters` off, only `new`: the setters come from the `object!` call.
fn constructors(ctx: &Context<'_>, def: &TypeDef, s: &Struct, setters_too: bool) -> TokenStream {
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
    if !setters_too {
        setters.clear();
    }
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

/// The slot a member is decoded into: its value type (boxed, `Option` when nullable) in an
/// `Option` that stays `None` until the member comes.
fn slot_type(f: &Field) -> TokenStream {
    let ty = slot_value_type(f);
    quote! { ::core::option::Option<#ty> }
}

/// One `object!` call: the struct's `Deserialize`, its `ObjectTable` and its setters, from a
/// line per member (see the support library's `object!`).
fn object_call(def: &TypeDef, s: &Struct) -> TokenStream {
    let name = ident(&def.name);
    let support = support();
    let definition = &def.name;
    let head = match s.kept() {
        Some(extra) => {
            let field = ident(&s.extra_field());
            let value = ty_tokens(extra);
            let taken = s.fields.iter().any(|f| f.rust_name == "extra_member");
            let setter = (!taken).then(|| quote! { with_extra_member });
            quote! { #name #definition keeps #field #setter: #value; }
        }
        None => quote! { #name #definition closed; },
    };
    let members = s.fields.iter().enumerate().map(|(i, f)| {
        let index = proc_macro2::Literal::usize_unsuffixed(i);
        let field = ident(&f.rust_name);
        let json = &f.json_name;
        if f.required {
            let slot = slot_value_type(f);
            quote! { #index #field #json req: #slot; }
        } else {
            let setter = quote::format_ident!("with_{}", f.rust_name);
            let how = match (f.nullable, f.boxed) {
                (false, false) => quote! { into },
                (false, true) => quote! { boxed },
                (true, false) => quote! { nullable },
                (true, true) => quote! { nullable_boxed },
            };
            let ty = ty_tokens(&f.ty);
            quote! { #index #field #json opt #setter #how: #ty; }
        }
    });
    quote! {
        #support::object! {
            #head
            #(#members)*
        }
    }
}

/// The value a member's slot holds once it came: its type, boxed, in an `Option` when
/// nullable.
fn slot_value_type(f: &Field) -> TokenStream {
    let mut ty = ty_tokens(&f.ty);
    if f.boxed {
        ty = quote! { ::std::boxed::Box<#ty> };
    }
    if f.nullable {
        ty = quote! { ::core::option::Option<#ty> };
    }
    ty
}

/// The `Deserialize` impl of a struct: one call to the support library's `decode_object`
/// over the struct's `ObjectTable` (its member names, one arm per member reading it into its
/// slot, the struct built from the slots). The support library keeps or refuses undeclared
/// members and gives serde's errors (``duplicate field``, ``missing field``, ``unknown
/// field``).
fn deserialize_impl(def: &TypeDef, s: &Struct) -> TokenStream {
    let name = ident(&def.name);
    let support = support();
    let definition = &def.name;
    let names: Vec<&String> = s.fields.iter().map(|f| &f.json_name).collect();
    let slots: Vec<TokenStream> = s.fields.iter().map(slot_type).collect();
    let empty = s
        .fields
        .iter()
        .map(|_| quote! { ::core::option::Option::None });
    let last = s.fields.len().saturating_sub(1);
    let arms = s.fields.iter().enumerate().map(|(i, f)| {
        let json = &f.json_name;
        let slot = proc_macro2::Literal::usize_unsuffixed(i);
        // The last index is the catch-all, so the match is exhaustive without dead code.
        let pattern = if i == last {
            quote! { _ }
        } else {
            quote! { #i }
        };
        quote! { #pattern => #support::read_member(&mut slots.#slot, map, #json), }
    });
    let inits = s.fields.iter().enumerate().map(|(i, f)| {
        let json = &f.json_name;
        let field = ident(&f.rust_name);
        let slot = proc_macro2::Literal::usize_unsuffixed(i);
        if f.required {
            quote! { #field: #support::required_member(slots.#slot, #json)?, }
        } else {
            quote! { #field: slots.#slot, }
        }
    });
    let (keeps, extra_ty, extra_init) = match s.kept() {
        Some(extra) => {
            let field = ident(&s.extra_field());
            let init = if s.extra_field() == "extra" {
                quote! { extra }
            } else {
                quote! { #field: extra }
            };
            (quote! { true }, ty_tokens(extra), Some(init))
        }
        None => (quote! { false }, quote! { ::serde::de::IgnoredAny }, None),
    };
    let extra_param = if extra_init.is_some() {
        quote! { extra }
    } else {
        quote! { _extra }
    };
    let read = match s.fields.as_slice() {
        [] => quote! { ::core::result::Result::Ok(()) },
        [only] => {
            let json = &only.json_name;
            quote! { #support::read_member(&mut slots.0, map, #json) }
        }
        _ => quote! { match index { #(#arms)* } },
    };
    let read_params = match s.fields.len() {
        0 => quote! { _slots: &mut Self::Slots, _index: usize, _map: &mut A },
        1 => quote! { slots: &mut Self::Slots, _index: usize, map: &mut A },
        _ => quote! { slots: &mut Self::Slots, index: usize, map: &mut A },
    };
    let build_slots = if s.fields.is_empty() {
        quote! { _slots }
    } else {
        quote! { slots }
    };
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
    // `not: {"required": [...]}`: refused when every one of those members came. A member
    // neither declared nor kept never comes, so the rule then holds by itself.
    let presence: Vec<TokenStream> = s
        .not_all_present
        .iter()
        .map(
            |member| match s.fields.iter().position(|f| &f.json_name == member) {
                Some(i) => {
                    let slot = proc_macro2::Literal::usize_unsuffixed(i);
                    quote! { slots.#slot.is_some() }
                }
                None if s.kept().is_some() => quote! { extra.contains_key(#member) },
                None => quote! { false },
            },
        )
        .collect();
    let not_check = (!presence.is_empty()).then(|| {
        let listed = &s.not_all_present;
        quote! {
            if #(#presence)&&* {
                return ::core::result::Result::Err(#support::all_present_error(&[#(#listed),*]));
            }
        }
    });
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #support::decode_object(deserializer)
            }
        }
        impl<'de> #support::ObjectTable<'de> for #name {
            const NAME: &'static str = #definition;
            const MEMBERS: &'static [&'static str] = &[#(#names),*];
            const KEEPS_UNDECLARED: bool = #keeps;
            type Slots = (#(#slots,)*);
            type Extra = #extra_ty;
            fn empty() -> Self::Slots {
                (#(#empty,)*)
            }
            #declared
            fn read<A: ::serde::de::MapAccess<'de>>(#read_params) -> ::core::result::Result<(), A::Error> {
                #read
            }
            fn build<E: ::serde::de::Error>(#build_slots: Self::Slots, #extra_param: ::std::collections::BTreeMap<::std::string::String, Self::Extra>) -> ::core::result::Result<Self, E> {
                #not_check
                ::core::result::Result::Ok(Self { #(#inits)* #extra_init })
            }
        }
    }
}
