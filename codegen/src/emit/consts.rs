//! Zero-sized markers for `const` members: they serialize as the constant and reject any
//! other value on decode.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, json_schema_impl, support};
use crate::model::{ConstValue, TypeDef};

/// Emits one const marker.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, value: &ConstValue) -> TokenStream {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let name_str = &def.name;
    let support = support();
    let (const_item, ser, de, schema) = match value {
        ConstValue::Str(s) => (
            quote! {
                /// The constant this marker stands for.
                pub const VALUE: &'static str = #s;
            },
            quote! { serializer.serialize_str(Self::VALUE) },
            quote! { #support::expect_str(deserializer, Self::VALUE).map(|()| Self) },
            quote! { ::schemars::json_schema!({ "type": "string", "const": Self::VALUE }) },
        ),
        ConstValue::Int(i) => (
            quote! {
                /// The constant this marker stands for.
                pub const VALUE: i64 = #i;
            },
            quote! { serializer.serialize_i64(Self::VALUE) },
            quote! { #support::expect_int(deserializer, Self::VALUE).map(|()| Self) },
            quote! { ::schemars::json_schema!({ "type": "integer", "const": Self::VALUE }) },
        ),
        ConstValue::Bool(b) => (
            quote! {
                /// The constant this marker stands for.
                pub const VALUE: bool = #b;
            },
            quote! { serializer.serialize_bool(Self::VALUE) },
            quote! { #support::expect_bool(deserializer, Self::VALUE).map(|()| Self) },
            quote! { ::schemars::json_schema!({ "type": "boolean", "const": Self::VALUE }) },
        ),
        ConstValue::Number(text) => {
            let value: f64 = text.parse().unwrap_or(f64::NAN);
            (
                quote! {
                    /// The constant this marker stands for.
                    pub const VALUE: f64 = #value;
                },
                quote! { serializer.serialize_f64(Self::VALUE) },
                quote! { #support::expect_number(deserializer, Self::VALUE).map(|()| Self) },
                quote! { ::schemars::json_schema!({ "type": "number", "const": Self::VALUE }) },
            )
        }
    };
    let (eq, ord) = match value {
        ConstValue::Number(_) => (quote! {}, quote! {}),
        _ => (quote! { Eq, Hash, }, quote! { Ord, }),
    };
    let json_schema = json_schema_impl(&name, name_str, true, false, schema);
    quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, #eq PartialOrd, #ord Default)]
        pub struct #name;

        impl #name {
            #const_item
        }

        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #ser
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #de
            }
        }

        #json_schema
    }
}
