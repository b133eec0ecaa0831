//! String enumerations, closed or open.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, derives, ident, json_schema_impl};
use crate::model::{StringEnum, TypeDef};

/// Emits one string enum.
pub fn emit(ctx: &Context<'_>, def: &TypeDef, e: &StringEnum) -> TokenStream {
    let docs = ctx.type_docs(def);
    let name = ident(&def.name);
    let variants: Vec<_> = e.values.iter().map(|(v, _)| ident(v)).collect();
    let values: Vec<&String> = e.values.iter().map(|(_, s)| s).collect();
    let value_docs: Vec<String> = values.iter().map(|v| format!(" `{v:?}`.")).collect();
    if !e.open {
        let derive = derives(true);
        return quote! {
            #docs
            #derive
            #[derive(Copy, PartialOrd, Ord)]
            pub enum #name {
                #( #[doc = #value_docs] #[serde(rename = #values)] #variants, )*
            }

            impl #name {
                /// The JSON string of this value.
                pub const fn as_str(&self) -> &'static str {
                    match self { #( Self::#variants => #values, )* }
                }
            }
        };
    }
    let name_str = &def.name;
    let json_schema = json_schema_impl(
        &name,
        name_str,
        false,
        false,
        quote! { ::schemars::json_schema!({ "type": "string" }) },
    );
    quote! {
        #docs
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum #name {
            #( #[doc = #value_docs] #variants, )*
            /// Any other string, which the schema admits.
            Unknown(::std::string::String),
        }

        impl #name {
            /// The JSON string of this value.
            pub fn as_str(&self) -> &str {
                match self { #( Self::#variants => #values, )* Self::Unknown(other) => other.as_str() }
            }
        }

        impl ::core::convert::From<&str> for #name {
            fn from(value: &str) -> Self {
                match value { #( #values => Self::#variants, )* other => Self::Unknown(other.to_owned()) }
            }
        }

        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let text = <::std::string::String as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok(Self::from(text.as_str()))
            }
        }

        #json_schema
    }
}
