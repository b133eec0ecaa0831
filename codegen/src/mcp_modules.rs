//! The MCP version modules generated together: each version's module, and `mcp/shared.rs`
//! holding once every type [`crate::share::plan`] finds the same in several versions.

use std::collections::BTreeSet;

use quote::quote;

use crate::{
    CodegenError, GENERATED_DIR, GeneratedFile, Lowered, MCP_LOCK, McpSchema, Options, Result,
    emit, header, lower_module, mcp_flavor, model, push_module, render_lock, render_module, share,
    version_module,
};

/// Generates the MCP version modules, `mcp/<version>.rs` with their strategies beside them,
/// and `mcp/shared.rs`: each type identical in several versions ([`share::plan`]) is defined
/// once there and re-exported by each version it serves.
pub(crate) fn files(
    files: &mut Vec<GeneratedFile>,
    mcp: &[McpSchema],
    options: Options,
) -> Result<()> {
    let names: Vec<String> = mcp.iter().map(|s| version_module(&s.version)).collect();
    let flavors: Vec<emit::Flavor> = mcp
        .iter()
        .zip(&names)
        .map(|(schema, name)| emit::Flavor {
            strategies_file: Some(format!("{name}/strategies.rs")),
            ..mcp_flavor(&schema.version)
        })
        .collect();
    let lowered: Vec<Lowered> = mcp
        .iter()
        .zip(&flavors)
        .map(|(schema, flavor)| lower_module(&schema.bytes, &flavor.file, flavor))
        .collect::<Result<_>>()?;
    let modules: Vec<&model::Module> = lowered.iter().map(|l| &l.module).collect();
    let plan = share::plan(&modules);
    let strategies = shared_strategies(&flavors, &modules, &plan)?;
    let flavors: Vec<emit::Flavor> = flavors
        .into_iter()
        .map(|flavor| emit::Flavor {
            strategies_feature: strategies.feature.clone(),
            ..flavor
        })
        .collect();
    let all: Vec<&str> = names.iter().map(String::as_str).collect();
    let group_names: Vec<String> = plan
        .groups
        .iter()
        .map(|g| {
            share::module_name(
                &g.versions.iter().map(|&v| all[v]).collect::<Vec<_>>(),
                &all,
            )
        })
        .collect();
    for (v, schema) in mcp.iter().enumerate() {
        let shared = plan.placement[v]
            .iter()
            .map(|(name, &g)| (name.clone(), group_names[g].clone()))
            .collect();
        let flavor = &flavors[v];
        let generated = render_module(
            &lowered[v],
            &schema.bytes,
            &flavor.file,
            flavor,
            options,
            Some(&shared),
        )?;
        push_module(files, &format!("mcp/{}", names[v]), generated);
    }
    let mut items = proc_macro2::TokenStream::new();
    for (g, group) in plan.groups.iter().enumerate() {
        let newest = *group
            .versions
            .last()
            .expect("a group serves two versions or more");
        let serves: Vec<(&emit::Flavor, &model::Module)> = group
            .versions
            .iter()
            .map(|&v| (&flavors[v], &lowered[v].module))
            .collect();
        let flavor = &flavors[newest];
        let ctx = emit::Context {
            flavor,
            docs_from: options.docs_from_schema.then_some(&lowered[newest].doc),
            module: &lowered[newest].module,
            shared: None,
            serves: &serves,
        };
        let body = emit::with_target(flavor.target.clone(), || {
            emit::emit_shared(&ctx, &group.types)
        })
        .map_err(|e| e.in_file(&flavor.file))?;
        // The types of other shared modules these refer to (each serves these versions too).
        let mut imports = BTreeSet::new();
        for name in &group.types {
            let def = lowered[newest]
                .module
                .get(name)
                .expect("a type of the module");
            let mut refs = share::references(def);
            if name == emit::helpers::OWNER {
                refs.extend(emit::helpers::REFERS_TO);
            }
            for target in refs {
                match plan.group_of(newest, target) {
                    Some(h) if h == g => {}
                    Some(h) => {
                        imports.insert((group_names[h].clone(), target.to_owned()));
                    }
                    None if lowered[newest].module.get(target).is_none() => {}
                    None => {
                        return Err(CodegenError::at(
                            def.pointer.clone(),
                            format!("shared `{name}` refers to `{target}`, which is not shared"),
                        )
                        .in_file(&flavor.file));
                    }
                }
            }
        }
        let imports = imports.iter().map(|(module, name)| {
            let module = emit::ident(module);
            let name = emit::ident(name);
            quote! { use super::#module::#name; }
        });
        let features = group.versions.iter().map(|&v| all[v]);
        let protocols: Vec<String> = group
            .versions
            .iter()
            .map(|&v| format!("`{}`", mcp[v].version))
            .collect();
        let doc = format!(
            " The types that are the same in MCP {}: each is defined here once, and each of \
             those versions' modules re-exports it.",
            protocols.join(", ")
        );
        let module = emit::ident(&group_names[g]);
        let strategies = match &strategies.feature {
            Some(feature) => {
                // The types of this group's versions held by other groups.
                let elsewhere = plan.placement[newest]
                    .iter()
                    .filter(|(_, h)| **h != g)
                    .map(|(name, &h)| (name.clone(), group_names[h].clone()))
                    .collect();
                let emitted = emit::with_target(flavor.target.clone(), || {
                    emit::strategies::emit_shared(&ctx, &group.types, &elsewhere, feature)
                })
                .map_err(|e| e.in_file(&flavor.file))?;
                let emit::strategies::Strategies { declaration, body } =
                    emitted.map_err(|w| CodegenError::at("#", w).in_file(&flavor.file))?;
                let doc = format!(
                    " The `strategies` of the MCP types shared by {}.",
                    protocols.join(", ")
                );
                let taken = |name: &str| modules.iter().any(|m| m.get(name).is_some());
                let tokens = emit::prelude::shorten(quote! { #![doc = #doc] #body }, &taken);
                let source = emit::format(tokens)?;
                files.push(GeneratedFile {
                    path: format!("{GENERATED_DIR}/mcp/{}/strategies.rs", group_names[g]),
                    contents: format!(
                        "{}{source}",
                        header::header_line(MCP_LOCK, render_lock(mcp).as_bytes())
                    ),
                    warnings: Vec::new(),
                });
                Some(quote! { #declaration pub mod strategies; })
            }
            None => None,
        };
        items.extend(quote! {
            #[cfg(any(#(feature = #features),*))]
            #[doc = #doc]
            mod #module {
                #(#imports)*
                #body
                #strategies
            }
        });
    }
    // `mcp.rs` includes the file (`include!`), so that the modules are children of `mcp`
    // beside the versions' (their paths, in every symbol and debug-info name, stay short): a
    // comment, not inner docs, says what it holds.
    let about = "// The MCP types that are the same in several versions, each defined once: one module\n\
                 // per set of versions, gated on their features, whose types each of those versions'\n\
                 // modules re-exports. Which types are the same is decided by comparing the\n\
                 // versions' lowered models (see `mcpwire-codegen`'s `share`). Included by `mcp.rs`.\n";
    let taken = |name: &str| modules.iter().any(|m| m.get(name).is_some());
    let tokens = emit::prelude::shorten(items, &taken);
    let body = emit::format(tokens)?;
    let lock = render_lock(mcp);
    files.push(crate::conversions::file(&names, &modules, &lock));
    files.push(GeneratedFile {
        path: format!("{GENERATED_DIR}/mcp/shared.rs"),
        contents: format!(
            "{}{about}{body}",
            header::header_line(MCP_LOCK, lock.as_bytes())
        ),
        warnings: strategies.warnings,
    });
    Ok(())
}

/// Whether the versions get strategies, and the warnings saying why not.
struct SharedStrategies {
    /// The feature the strategies are gated on; `None`: no version gets any.
    feature: Option<String>,
    /// Why there are none.
    warnings: Vec<String>,
}

/// A shared type's strategies are written once, in its shared module, so every version must
/// have strategies (else none has: a version's would re-export functions a shared module
/// lacks), and the versions a type serves must know its strategy functions by the same
/// names (they re-export and call the shared module's).
fn shared_strategies(
    flavors: &[emit::Flavor],
    modules: &[&model::Module],
    plan: &share::Plan,
) -> Result<SharedStrategies> {
    let Some(feature) = flavors.iter().find_map(|f| f.strategies_feature.clone()) else {
        return Ok(SharedStrategies {
            feature: None,
            warnings: Vec::new(),
        });
    };
    let mut names = Vec::new();
    let mut warnings = Vec::new();
    for (flavor, module) in flavors.iter().zip(modules) {
        match emit::strategies::names(module) {
            Ok(n) => names.push(n),
            Err(w) => warnings.push(format!("{}: {w}", flavor.file)),
        }
    }
    if !warnings.is_empty() {
        warnings.push("no version gets strategies: their shared types share them".into());
        return Ok(SharedStrategies {
            feature: None,
            warnings,
        });
    }
    for group in &plan.groups {
        let first = group.versions[0];
        for name in &group.types {
            for &v in &group.versions[1..] {
                if names[v].of(name) != names[first].of(name) {
                    return Err(CodegenError::at(
                        modules[v]
                            .get(name)
                            .map_or("#".into(), |d| d.pointer.clone()),
                        format!(
                            "the strategies of shared `{name}` are named differently in {} and \
                             {} (a name of one collides with another type's)",
                            flavors[first].file, flavors[v].file
                        ),
                    )
                    .in_file(&flavors[v].file));
                }
            }
        }
    }
    Ok(SharedStrategies {
        feature: Some(feature),
        warnings,
    })
}
