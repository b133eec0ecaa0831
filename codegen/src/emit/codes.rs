//! Per-module extras: `ErrorCode` and, for MCP, the method classification.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::quote;

use super::{Context, ident, support};
use crate::error::Result;
use crate::model::{ConstValue, Kind, Ty};

/// The error codes JSON-RPC 2.0 defines, with their variant names.
const STANDARD: [(&str, i64); 5] = [
    ("ParseError", -32700),
    ("InvalidRequest", -32600),
    ("MethodNotFound", -32601),
    ("InvalidParams", -32602),
    ("InternalError", -32603),
];

/// Every `code` constant of the module's schema that is not a standard one, by value, with
/// the variant name derived from the definition that declares it.
pub fn schema_error_codes(ctx: &Context<'_>) -> BTreeMap<i64, String> {
    let mut out = BTreeMap::new();
    for def in &ctx.module.types {
        let Kind::Struct(s) = &def.kind else { continue };
        for f in &s.fields {
            let Ty::Named(marker) = &f.ty else { continue };
            if f.json_name != "code" {
                continue;
            }
            if let Some(Kind::Const(ConstValue::Int(code))) = ctx.def(marker).map(|d| &d.kind) {
                if STANDARD.iter().any(|(_, c)| c == code) {
                    continue;
                }
                let base = def
                    .definition
                    .strip_suffix("Error")
                    .unwrap_or(&def.definition)
                    .to_owned();
                out.entry(*code).or_insert(base);
            }
        }
    }
    out
}

/// Emits `ErrorCode`.
pub fn emit_error_code(ctx: &Context<'_>) -> Result<TokenStream> {
    let support = support();
    let mut entries: Vec<(String, i64, String)> = STANDARD
        .iter()
        .map(|(n, c)| {
            (
                (*n).to_owned(),
                *c,
                format!(" `{c}`, defined by JSON-RPC 2.0."),
            )
        })
        .collect();
    let mut names: BTreeSet<String> = entries.iter().map(|(n, _, _)| n.clone()).collect();
    names.insert("Other".into());
    for (code, base) in schema_error_codes(ctx) {
        let name = crate::names::unique(crate::names::type_name(&base), &mut names);
        entries.push((
            name,
            code,
            format!(" `{code}`, defined by the schema's `{base}Error`."),
        ));
    }
    let variants: Vec<_> = entries.iter().map(|(n, _, _)| ident(n)).collect();
    let codes: Vec<i64> = entries.iter().map(|(_, c, _)| *c).collect();
    let docs: Vec<&String> = entries.iter().map(|(_, _, d)| d).collect();
    let protocol = format!(
        " Error codes of {}: the JSON-RPC 2.0 ones plus every `code` constant the schema defines.",
        ctx.flavor.protocol
    );
    let schemars_impl = error_code_schema();
    Ok(quote! {
        #[doc = #protocol]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            #( #[doc = #docs] #variants, )*
            /// Any other code.
            Other(i64),
        }

        impl ErrorCode {
            /// The integer code.
            pub const fn code(self) -> i64 {
                match self { #( Self::#variants => #codes, )* Self::Other(code) => code }
            }

            /// The variant for `code` (`Other` for a code this version does not name).
            pub const fn from_code(code: i64) -> Self {
                match code { #( #codes => Self::#variants, )* other => Self::Other(other) }
            }
        }

        impl ::serde::Serialize for ErrorCode {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.code())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for ErrorCode {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                #support::by_schema::<i64, D>(deserializer).map(Self::from_code)
            }
        }

        #schemars_impl
    })
}

/// `schemars::JsonSchema` for `ErrorCode`, when `schemars` impls are emitted.
fn error_code_schema() -> TokenStream {
    super::target::schemars_item(quote! {
        impl ::schemars::JsonSchema for ErrorCode {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                "ErrorCode".into()
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::core::concat!(::core::module_path!(), "::ErrorCode").into()
            }
            fn json_schema(_generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!({ "type": "integer" })
            }
        }
    })
}

/// The `method` constants of the variants of union `name`, in variant order.
pub fn union_methods(ctx: &Context<'_>, name: &str) -> Vec<String> {
    let Some(Kind::Union(u)) = ctx.def(name).map(|d| &d.kind) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for v in &u.variants {
        let Ty::Named(variant) = &v.ty else { continue };
        let Some(Kind::Struct(s)) = ctx.def(variant).map(|d| &d.kind) else {
            continue;
        };
        for f in &s.fields {
            if f.json_name != "method" {
                continue;
            }
            if let Ty::Named(marker) = &f.ty
                && let Some(Kind::Const(ConstValue::Str(m))) = ctx.def(marker).map(|d| &d.kind)
                && !out.contains(m)
            {
                out.push(m.clone());
            }
        }
    }
    out
}

/// Emits `REQUEST_METHODS`, `NOTIFICATION_METHODS` and `method_kind`.
pub fn emit_method_kind(ctx: &Context<'_>) -> TokenStream {
    let support = support();
    let mut requests = union_methods(ctx, "ClientRequest");
    for m in union_methods(ctx, "ServerRequest") {
        if !requests.contains(&m) {
            requests.push(m);
        }
    }
    let mut notifications = union_methods(ctx, "ClientNotification");
    for m in union_methods(ctx, "ServerNotification") {
        if !notifications.contains(&m) {
            notifications.push(m);
        }
    }
    requests.sort();
    notifications.sort();
    let request_arm = if requests.is_empty() {
        quote! {}
    } else {
        quote! { #(#requests)|* => #support::MethodKind::Request, }
    };
    let notification_arm = if notifications.is_empty() {
        quote! {}
    } else {
        quote! { #(#notifications)|* => #support::MethodKind::Notification, }
    };
    let protocol = &ctx.flavor.protocol;
    let req_doc = format!(
        " Every request method of {protocol} (`ClientRequest` and `ServerRequest`), sorted."
    );
    let not_doc = format!(
        " Every notification method of {protocol} (`ClientNotification` and `ServerNotification`), sorted."
    );
    let fn_doc =
        format!(" Whether `method` names a request or a notification of {protocol}, or neither.");
    quote! {
        #[doc = #req_doc]
        pub const REQUEST_METHODS: &[&str] = &[#(#requests),*];

        #[doc = #not_doc]
        pub const NOTIFICATION_METHODS: &[&str] = &[#(#notifications),*];

        #[doc = #fn_doc]
        pub fn method_kind(method: &str) -> #support::MethodKind {
            match method {
                #request_arm
                #notification_arm
                _ => #support::MethodKind::Unknown,
            }
        }
    }
}

/// Emits `DEFINITIONS`, `visit_definition` (the one table from a definition's name to its
/// type, see `support::DefinitionVisitor`), `roundtrip` and `roundtrip_text` (decode a value
/// or a text as a definition named at run time and encode it back, both through that table)
/// and, behind `schemars`, `json_schema`.
///
/// `json_schema` keeps a name table of its own: its `T: JsonSchema` bound would have to be
/// conditional on the `schemars` feature, and a bound in `support` follows mcpwire-types'
/// feature while `cfg(feature = "schemars")` in the generated code follows the feature of the
/// crate compiling it, which differ in the snapshot tests of this generator.
pub fn emit_registry(ctx: &Context<'_>) -> TokenStream {
    let support = support();
    let defs: Vec<&String> = ctx
        .module
        .definitions
        .iter()
        .map(|(json, _)| json)
        .collect();
    let idents: Vec<_> = ctx
        .module
        .definitions
        .iter()
        .map(|(_, rust)| ident(rust))
        .collect();
    let protocol = &ctx.flavor.protocol;
    let defs_doc = format!(" Every definition of {protocol}, sorted by name.");
    let json_schema = super::target::schemars_feature().map(|feature| {
        quote! {
            /// The `schemars` JSON Schema of the definition named `name`.
            #[cfg(feature = #feature)]
            pub fn json_schema(name: &str) -> ::core::option::Option<::schemars::Schema> {
                ::core::option::Option::Some(match name {
                    #( #defs => ::schemars::schema_for!(#idents), )*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    });
    quote! {
        #[doc = #defs_doc]
        pub const DEFINITIONS: &[&str] = &[#(#defs),*];

        /// Calls `visitor` with the type of the definition named `name` (see
        /// `mcpwire_types::support::DefinitionVisitor`); `None` when there is no such definition.
        pub fn visit_definition<V: #support::DefinitionVisitor>(name: &str, visitor: V) -> ::core::option::Option<V::Output> {
            ::core::option::Option::Some(match name {
                #( #defs => visitor.visit::<#idents>(), )*
                _ => return ::core::option::Option::None,
            })
        }

        /// Decodes `value` as the definition named `name` and encodes the result back to JSON
        /// (an integer spelled with a fraction or an exponent, or beyond `u64`, comes back as
        /// the `f64` the `Value` holds; `roundtrip_text` keeps the spelling).
        /// `None` when there is no such definition; `Some(Err(message))` when it does not decode.
        pub fn roundtrip(name: &str, value: ::serde_json::Value) -> ::core::option::Option<::core::result::Result<::serde_json::Value, ::std::string::String>> {
            visit_definition(name, #support::RoundtripValue(value))
        }

        /// Decodes JSON `text` as the definition named `name` with serde_json (so every
        /// integer keeps its spelling) and encodes the result back to JSON text. `None` when
        /// there is no such definition; `Some(Err(message))` when it does not decode.
        pub fn roundtrip_text(name: &str, text: &str) -> ::core::option::Option<::core::result::Result<::std::string::String, ::std::string::String>> {
            visit_definition(name, #support::RoundtripText(text))
        }

        #json_schema
    }
}
