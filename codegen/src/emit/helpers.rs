//! Helpers an SDK author reaches for, on MCP modules: `CallToolResult::text` and
//! `CallToolResult::error_text`. Emitted only when the version's types have the shape they
//! need (a `content` array whose items admit `TextContent`, whose only required member besides
//! its `type` is `text`).

use proc_macro2::TokenStream;
use quote::quote;

use super::structs::new_params;
use super::{Context, ident};
use crate::model::{Kind, Ty};

/// The type the helpers are impls of.
pub const OWNER: &str = "CallToolResult";

/// The types the helpers name besides their owner's members' types.
pub const REFERS_TO: [&str; 1] = ["TextContent"];

/// Whether the helpers' type is defined in a shared module (which then holds the helpers).
pub fn owner_shared(ctx: &Context<'_>) -> bool {
    ctx.shared.is_some_and(|s| s.contains_key(OWNER))
}

/// The helper impls, or nothing when the types lack the shape.
pub fn emit(ctx: &Context<'_>) -> TokenStream {
    call_tool_result(ctx).unwrap_or_default()
}

fn call_tool_result(ctx: &Context<'_>) -> Option<TokenStream> {
    let Kind::Struct(result) = &ctx.def(OWNER)?.kind else {
        return None;
    };
    let Kind::Struct(text) = &ctx.def("TextContent")?.kind else {
        return None;
    };
    let text_params = new_params(ctx, text);
    if text_params.len() != 1 || text_params[0].ty != Ty::String {
        return None;
    }
    let mut args = Vec::new();
    for param in new_params(ctx, result) {
        match (param.json_name.as_str(), &param.ty) {
            ("content", Ty::Array(item)) => {
                let Ty::Named(union) = &**item else {
                    return None;
                };
                let Kind::Union(u) = &ctx.def(union)?.kind else {
                    return None;
                };
                if !u
                    .variants
                    .iter()
                    .any(|v| v.ty == Ty::Named(REFERS_TO[0].into()))
                {
                    return None;
                }
                let union = ident(union);
                args.push(quote! { ::std::vec![#union::from(TextContent::new(text))] });
            }
            // 2026-07-28: a complete (not input-requiring) result.
            ("resultType", Ty::String) => args.push(quote! { "complete" }),
            _ => return None,
        }
    }
    let is_error = result
        .fields
        .iter()
        .any(|f| f.json_name == "isError" && !f.required);
    let error = is_error.then(|| {
        quote! {
            /// A result holding one text block and `isError: true`: how a tool reports that it
            /// failed (the error is for the model to see, not a JSON-RPC error).
            pub fn error_text(text: impl ::core::convert::Into<::std::string::String>) -> Self {
                Self::text(text).with_is_error(true)
            }
        }
    });
    Some(quote! {
        impl CallToolResult {
            /// A result holding one text block: what a tool returns on success.
            pub fn text(text: impl ::core::convert::Into<::std::string::String>) -> Self {
                Self::new(#(#args),*)
            }

            #error
        }
    })
}
