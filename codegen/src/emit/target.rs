//! What generated code names outside itself: the support library's path and the cargo features
//! its optional parts are gated on. Set once per module by [`with_target`], read by the emitters.

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::quote;

/// The crate paths and features one generated module is written against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Rust path of the support module generated code calls (`::mcpwire_support`).
    pub support: String,
    /// Rust path holding `Json`, `JsonObject` and `JsonObjectMap` (`::mcpwire_support`).
    pub json: String,
    /// Feature gating the `schemars` impls; `None`: none are emitted.
    pub schemars: Option<String>,
}

thread_local! {
    static CURRENT: RefCell<Option<Target>> = const { RefCell::new(None) };
}

/// Runs `f` with `target` as the target of every emitter it calls.
pub fn with_target<R>(target: Target, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.replace(Some(target)));
    let out = f();
    CURRENT.with(|c| *c.borrow_mut() = previous);
    out
}

impl Target {
    /// The project's own modules: `mcpwire-types`' `support` module, `schemars` behind the
    /// crate's `schemars` feature.
    pub fn mcpwire_types() -> Self {
        Self {
            support: "::mcpwire_types::support".into(),
            json: "::mcpwire_types".into(),
            schemars: Some("schemars".into()),
        }
    }
}

impl Target {
    /// Anyone's schema: the `mcpwire-support` crate, no `schemars` impls unless asked for.
    pub fn support_crate() -> Self {
        Self {
            support: "::mcpwire_support".into(),
            json: "::mcpwire_support".into(),
            schemars: None,
        }
    }
}

fn current() -> Target {
    CURRENT
        .with(|c| c.borrow().clone())
        .unwrap_or_else(Target::mcpwire_types)
}

fn path(text: &str) -> TokenStream {
    text.parse().expect("a Rust path")
}

/// The path of the support module.
pub fn support() -> TokenStream {
    path(&current().support)
}

/// The path of `name` (`Json`, `JsonObject`, `JsonObjectMap`) in the JSON types' crate.
pub fn json_type(name: &str) -> TokenStream {
    path(&format!("{}::{name}", current().json))
}

/// The `schemars` feature's name, when `schemars` impls are emitted.
pub fn schemars_feature() -> Option<String> {
    current().schemars
}

/// `#[cfg_attr(feature = "…", derive(::schemars::JsonSchema))]`, or nothing.
pub fn schemars_derive() -> TokenStream {
    match schemars_feature() {
        Some(feature) => quote! { #[cfg_attr(feature = #feature, derive(::schemars::JsonSchema))] },
        None => quote! {},
    }
}

/// `#[cfg(feature = "…")]` in front of `item` when `schemars` impls are emitted, else nothing.
pub fn schemars_item(item: TokenStream) -> TokenStream {
    match schemars_feature() {
        Some(feature) => quote! { #[cfg(feature = #feature)] #item },
        None => quote! {},
    }
}
