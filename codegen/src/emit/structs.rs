//! Structs: objects with declared members.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, derives, ident, support, ty_tokens};
use crate::model::{Struct, Ty, TypeDef};
use crate::schema::escape;

/// Emits one struct.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, s: &Struct) -> TokenStream {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let support = support();
    let mut fields = Vec::new();
    for f in &s.fields {
        let field_name = ident(&f.rust_name);
        let mut ty = ty_tokens(&f.ty);
        if f.boxed {
            ty = quote! { ::std::boxed::Box<#ty> };
        }
        let json = &f.json_name;
        let mut attrs = Vec::new();
        if f.rust_name != f.json_name {
            attrs.push(quote! { rename = #json });
        }
        // Integers (and collections of them) decode by the JSON Schema rules: `3.0` is `3`.
        let by_schema = ctx.decodes_by_schema(&f.ty);
        let suffix = if by_schema { "_by_schema" } else { "" };
        let full_ty = match (f.required, f.nullable) {
            (true, false) => {
                if by_schema {
                    let with = format!("{support}::by_schema").replace(' ', "");
                    attrs.push(quote! { deserialize_with = #with });
                }
                ty
            }
            (true, true) => {
                // Required even though it may be null: absence is an error.
                let with = format!("{support}::nullable{suffix}").replace(' ', "");
                attrs.push(quote! { deserialize_with = #with });
                quote! { ::core::option::Option<#ty> }
            }
            (false, false) => {
                attrs.push(
                    quote! { default, skip_serializing_if = "::core::option::Option::is_none" },
                );
                // Absent → `None`; a present value (for `Any` even `null`) → `Some`; a `null`
                // the schema does not admit is an error rather than a silent `None`.
                let helper = if f.ty == Ty::Any {
                    "some_value"
                } else {
                    "non_null"
                };
                let with = format!("{support}::{helper}{suffix}").replace(' ', "");
                attrs.push(quote! { deserialize_with = #with });
                quote! { ::core::option::Option<#ty> }
            }
            (false, true) => {
                let with = format!("{support}::double_option{suffix}").replace(' ', "");
                attrs.push(quote! { default, skip_serializing_if = "::core::option::Option::is_none", deserialize_with = #with });
                quote! { ::core::option::Option<::core::option::Option<#ty>> }
            }
        };
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
    if let Some(extra) = &s.extra {
        let value = ty_tokens(extra);
        let serde = if ctx.decodes_by_schema(extra) {
            let with = format!("{support}::by_schema").replace(' ', "");
            quote! { #[serde(flatten, deserialize_with = #with)] }
        } else {
            quote! { #[serde(flatten)] }
        };
        fields.push(quote! {
            #[doc = " Members not declared by the schema, which it explicitly admits."]
            #serde
            pub extra: ::std::collections::BTreeMap<::std::string::String, #value>,
        });
    }
    let derive = derives(false);
    quote! {
        #docs
        #derive
        pub struct #name {
            #(#fields)*
        }
    }
}
