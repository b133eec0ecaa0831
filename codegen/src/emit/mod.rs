//! Emission: intermediate model → Rust tokens → formatted source.

mod codes;
mod consts;
mod enums;
pub mod helpers;
mod layout;
pub mod prelude;
pub mod strategies;
mod structs;
pub mod target;
mod unions;

pub use target::{Target, support, with_target};

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::error::{CodegenError, Result};
use crate::model::{Kind, Module, Ty, TypeDef};
use crate::names::is_keyword;
use crate::schema::Document;

/// What the generated module is, for documentation and extra items.
#[derive(Debug, Clone)]
pub struct Flavor {
    /// Human name of the protocol (`MCP 2025-11-25`, `JSON-RPC 2.0`).
    pub protocol: String,
    /// Input path relative to its root (`mcp/2025-11-25/schema.json`).
    pub file: String,
    /// Base of the reference page; definition anchors are appended as `#<lowercase name>`.
    pub reference: Option<String>,
    /// Emit the MCP method helpers (`method_kind`) besides `ErrorCode`.
    pub methods: bool,
    /// JSON-RPC behaviour: a union keyed on `method` keeps an unknown method in an `Unknown`
    /// variant, and the module gets an `ErrorCode` enum. Off for a plain schema, where a
    /// `oneOf` keyed on `method` refuses a method no variant names.
    pub jsonrpc: bool,
    /// The cargo feature the `strategies` module is gated on; `None`: no strategies.
    pub strategies_feature: Option<String>,
    /// Where the `strategies` module goes, relative to the module's own file
    /// (`v2025_11_25/strategies.rs`, a sibling); `None`: inline, in the module.
    pub strategies_file: Option<String>,
    /// The support library the module calls and the `schemars` feature.
    pub target: Target,
    /// The definition name of the root schema when it describes a value; `None`: the root
    /// is only a container of definitions (the project's schemas).
    pub root_name: Option<String>,
    /// Warn, in one warning, about the keywords not enforced at decode (`minimum`, …).
    pub warn_unenforced: bool,
    /// Start the module with its documentation as an inner attribute (`#![doc = …]`); off
    /// for a file to be `include!`d, where inner attributes are not allowed.
    pub inner_doc: bool,
    /// Allow the style lints a schema's own names can trip (`clippy::enum_variant_names` on
    /// a union whose variants all end like it): the names are the schema's.
    pub allow_name_lints: bool,
}

/// Everything an emitter needs besides the model.
pub struct Context<'a> {
    /// The module flavor.
    pub flavor: &'a Flavor,
    /// The schema, when its `description`s are to be copied into doc comments (local use).
    pub docs_from: Option<&'a Document>,
    /// The whole module, for lookups.
    pub module: &'a Module,
    /// Types defined in a shared module rather than here: name → that module's name (a
    /// sibling of this one, `super::<name>`); each is re-exported where it would have been
    /// defined.
    pub shared: Option<&'a BTreeMap<String, String>>,
    /// When emitting a shared module: every version its types serve, with that version's
    /// module (for the pointers the docs name). Empty for a version's own module.
    pub serves: &'a [(&'a Flavor, &'a Module)],
}

impl Context<'_> {
    /// The doc attributes of a type: name, protocol, pointer and reference link.
    pub fn type_docs(&self, def: &TypeDef) -> TokenStream {
        if !self.serves.is_empty() {
            return self.shared_type_docs(def);
        }
        let mut lines = vec![
            format!(" `{}` ({}).", def.name, self.flavor.protocol),
            String::new(),
        ];
        lines.push(format!(
            " Schema: `{}` in `{}`.",
            def.pointer, self.flavor.file
        ));
        if let Some(base) = &self.flavor.reference {
            lines.push(format!(
                " Reference: <{base}#{}>",
                def.definition.to_lowercase()
            ));
        }
        if let Some(text) = self.description(&def.pointer) {
            lines.push(String::new());
            lines.extend(text.lines().map(|l| format!(" {l}")));
        }
        quote! { #(#[doc = #lines])* }
    }

    /// The doc attributes of a type one shared module holds for several versions: every
    /// version it serves, with its pointer and reference link in each.
    fn shared_type_docs(&self, def: &TypeDef) -> TokenStream {
        let protocols: Vec<&str> = self
            .serves
            .iter()
            .map(|(f, _)| f.protocol.as_str())
            .collect();
        let mut lines = vec![
            format!(
                " `{}`: one type for {} (the same definition in each).",
                def.name,
                list(&protocols)
            ),
            String::new(),
        ];
        // The pointers, each with the files it is found at (`definitions` or `$defs`).
        let mut pointers: Vec<(String, Vec<String>)> = Vec::new();
        for (flavor, module) in self.serves {
            let pointer = module
                .get(&def.name)
                .map_or(def.pointer.clone(), |d| d.pointer.clone());
            let file = format!("`{}`", flavor.file);
            match pointers.iter_mut().find(|(p, _)| *p == pointer) {
                Some((_, files)) => files.push(file),
                None => pointers.push((pointer, vec![file])),
            }
        }
        let places: Vec<String> = pointers
            .iter()
            .map(|(p, files)| format!("`{p}` in {}", files.join(", ")))
            .collect();
        lines.push(format!(" Schema: {}.", places.join("; ")));
        let links: Vec<String> = self
            .serves
            .iter()
            .filter_map(|(f, _)| f.reference.as_ref())
            .map(|base| format!("<{base}#{}>", def.definition.to_lowercase()))
            .collect();
        if !links.is_empty() {
            lines.push(format!(" Reference: {}", links.join(", ")));
        }
        if let Some(text) = self.description(&def.pointer) {
            lines.push(String::new());
            lines.extend(text.lines().map(|l| format!(" {l}")));
        }
        quote! { #(#[doc = #lines])* }
    }

    /// The schema `description` at `pointer`, when copying them is enabled.
    pub fn description(&self, pointer: &str) -> Option<String> {
        let doc = self.docs_from?;
        doc.lookup(pointer)?
            .get("description")?
            .as_str()
            .map(str::to_owned)
    }

    /// Whether `ty` names a type that is a union (for boxing and dispatch).
    pub fn def(&self, name: &str) -> Option<&TypeDef> {
        self.module.get(name)
    }
}

/// What [`emit_items`] produces.
pub struct Emitted {
    /// The module's items.
    pub items: TokenStream,
    /// The items of the `strategies` module when it goes into a file of its own
    /// ([`Flavor::strategies_file`]).
    pub strategies_file: Option<TokenStream>,
    /// What was left out (strategies for a type without a finite value).
    pub warnings: Vec<String>,
}

/// Emits the items of `module` (no header) as token streams, with warnings about what was
/// left out.
pub fn emit_items(ctx: &Context<'_>) -> Result<Emitted> {
    let mut warnings = Vec::new();
    let mut out = TokenStream::new();
    for def in &ctx.module.types {
        match ctx.shared.and_then(|s| s.get(&def.name)) {
            Some(module) => {
                let module = ident(module);
                let name = ident(&def.name);
                out.extend(quote! { pub use super::#module::#name; });
            }
            None => out.extend(emit_type(ctx, def)?),
        }
    }
    if ctx.flavor.jsonrpc {
        out.extend(codes::emit_error_code(ctx)?);
    }
    if ctx.flavor.methods {
        out.extend(codes::emit_method_kind(ctx));
        if !helpers::owner_shared(ctx) {
            out.extend(helpers::emit(ctx));
        }
    }
    out.extend(codes::emit_registry(ctx));
    let mut strategies_file = None;
    if let Some(feature) = &ctx.flavor.strategies_feature {
        match strategies::emit(ctx, feature)? {
            Ok(strategies::Strategies { declaration, body }) => match &ctx.flavor.strategies_file {
                Some(path) => {
                    out.extend(quote! { #declaration #[path = #path] pub mod strategies; });
                    strategies_file = Some(body);
                }
                None => out.extend(quote! { #declaration pub mod strategies { #body } }),
            },
            Err(warning) => warnings.push(warning),
        }
    }
    Ok(Emitted {
        items: out,
        strategies_file,
        warnings,
    })
}

/// The items of one type: its definition and impls.
pub fn emit_type(ctx: &Context<'_>, def: &TypeDef) -> Result<TokenStream> {
    Ok(match &def.kind {
        Kind::Struct(s) => structs::emit(ctx, def, s),
        Kind::Enum(e) => enums::emit(ctx, def, e),
        Kind::Union(u) => unions::emit(ctx, def, u)?,
        Kind::Const(v) => consts::emit(ctx, def, v),
        Kind::Alias(ty) => {
            let docs = ctx.type_docs(def);
            let name = ident(&def.name);
            let target = ty_tokens(ty);
            quote! { #docs pub type #name = #target; }
        }
    })
}

/// The items of a shared module holding `names` (types of `ctx.module`, which serve every
/// version of `ctx.serves`): each type, and the helpers of a type it holds (emitted here
/// rather than in each version, which re-exports the type).
pub fn emit_shared(ctx: &Context<'_>, names: &[String]) -> Result<TokenStream> {
    let mut out = TokenStream::new();
    for name in names {
        if let Some(def) = ctx.module.get(name) {
            out.extend(emit_type(ctx, def)?);
        }
    }
    if ctx.flavor.methods && names.iter().any(|n| n == helpers::OWNER) {
        out.extend(helpers::emit(ctx));
    }
    Ok(out)
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Formats a token stream as a Rust file.
pub fn format(tokens: TokenStream) -> Result<String> {
    let file: syn::File = syn::parse2(tokens)
        .map_err(|e| CodegenError::at("#", format!("generated tokens do not parse: {e}")))?;
    Ok(layout::table_calls(&prettyplease::unparse(&file)))
}

/// An identifier, raw when it is a keyword.
pub fn ident(name: &str) -> Ident {
    if is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// The Rust type for a [`Ty`].
pub fn ty_tokens(ty: &Ty) -> TokenStream {
    match ty {
        Ty::String => quote! { ::std::string::String },
        Ty::Integer => {
            let support = support();
            quote! { #support::Integer }
        }
        Ty::Number => quote! { ::serde_json::Number },
        Ty::Bool => quote! { bool },
        Ty::Null => quote! { () },
        Ty::Any => target::json_type("Json"),
        Ty::Array(item) => {
            let item = ty_tokens(item);
            quote! { ::std::vec::Vec<#item> }
        }
        Ty::Map(value) if **value == Ty::Any => target::json_type("JsonObject"),
        map if map.is_object_of_objects() => target::json_type("JsonObjectMap"),
        Ty::Map(value) => {
            let value = ty_tokens(value);
            quote! { ::std::collections::BTreeMap<::std::string::String, #value> }
        }
        Ty::Named(name) => {
            let name = ident(name);
            quote! { #name }
        }
        Ty::Tuple(items) => {
            let items = items.iter().map(ty_tokens);
            quote! { (#(#items,)*) }
        }
    }
}

/// The derive + schemars attributes shared by derived types.
pub fn derives(eq: bool) -> TokenStream {
    let eq = if eq {
        quote! { Eq, Hash, }
    } else {
        quote! {}
    };
    let schemars = target::schemars_derive();
    quote! {
        #[derive(Debug, Clone, PartialEq, #eq ::serde::Serialize, ::serde::Deserialize)]
        #schemars
    }
}

/// The derive + schemars attributes of a type whose `Deserialize` is generated by hand, with
/// `Default` when every member is optional.
pub fn derives_serialize(default: bool) -> TokenStream {
    let default = default.then(|| quote! { Default, });
    let schemars = target::schemars_derive();
    quote! {
        #[derive(Debug, Clone, PartialEq, #default ::serde::Serialize)]
        #schemars
    }
}

/// A hand-written `schemars::JsonSchema` impl, behind the `schemars` feature, for a type whose
/// serde impls are hand-written too. `body` is the expression building the schema; it may use
/// the parameter `generator` when `uses_generator` is set. An `inline` schema is never given a
/// definition of its own.
pub fn json_schema_impl(
    name: &Ident,
    name_str: &str,
    inline: bool,
    uses_generator: bool,
    body: TokenStream,
) -> TokenStream {
    let generator = if uses_generator {
        quote::format_ident!("generator")
    } else {
        quote::format_ident!("_generator")
    };
    let inline_schema = inline.then(|| {
        quote! {
            fn inline_schema() -> bool {
                true
            }
        }
    });
    target::schemars_item(quote! {
        impl ::schemars::JsonSchema for #name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                #name_str.into()
            }
            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::core::concat!(::core::module_path!(), "::", #name_str).into()
            }
            #inline_schema
            fn json_schema(#generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                #body
            }
        }
    })
}
