//! `mcpwire gen SCHEMA.json`: Rust types for anyone's JSON Schema, as one module (`-o`) or a
//! crate that builds as it is (`--crate`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcpwire_codegen::generate::{DepSource, crate_manifest};
use mcpwire_codegen::{GenOptions, generate_file};

/// Arguments of `mcpwire gen`.
#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// The JSON Schema (draft-07 or 2020-12) to generate types for. Its root becomes a type
    /// (named by --root-name, its `title`, or the file name) beside its `$defs`/`definitions`.
    #[arg(value_name = "SCHEMA.json")]
    pub schema: PathBuf,
    /// Write one module to this file (`-` for stdout).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "crate_dir"
    )]
    pub output: Option<PathBuf>,
    /// Write a crate to this folder: Cargo.toml naming its dependencies, and src/lib.rs.
    #[arg(long = "crate", value_name = "DIR")]
    pub crate_dir: Option<PathBuf>,
    /// The crate's package name (default: the folder's name).
    #[arg(long, value_name = "NAME", requires = "crate_dir")]
    pub name: Option<String>,
    /// Point the crate's mcpwire dependencies at this checkout instead of crates.io.
    #[arg(long, requires = "crate_dir")]
    pub path_deps: bool,
    /// The Rust name of the root schema's type.
    #[arg(long, value_name = "NAME")]
    pub root_name: Option<String>,
    /// JSON-RPC behaviour: unions keyed on `method` keep unknown methods in an `Unknown`
    /// variant, and an `ErrorCode` enum is emitted.
    #[arg(long)]
    pub jsonrpc: bool,
    /// Emit proptest strategies behind this cargo feature (declared in a written crate).
    #[arg(long, value_name = "FEATURE")]
    pub strategies: Option<String>,
    /// Emit `schemars::JsonSchema` impls behind this cargo feature (declared in a written crate).
    #[arg(long, value_name = "FEATURE")]
    pub schemars: Option<String>,
}

/// Runs `mcpwire gen`: exit 0 with the output written, 1 when the schema cannot be
/// generated or written (the error names the file and JSON pointer), 2 on bad arguments.
/// Warnings go to stderr.
pub fn main(args: &GenArgs) -> ExitCode {
    if args.output.is_none() && args.crate_dir.is_none() {
        eprintln!("mcpwire gen: give -o FILE (one module) or --crate DIR (a crate)");
        return ExitCode::from(2);
    }
    let options = GenOptions {
        root_name: args.root_name.clone(),
        jsonrpc: args.jsonrpc,
        strategies_feature: args.strategies.clone(),
        schemars_feature: args.schemars.clone(),
        ..GenOptions::default()
    };
    let generated = match generate_file(&args.schema, &options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("mcpwire gen: {e}");
            return ExitCode::FAILURE;
        }
    };
    for warning in &generated.warnings {
        eprintln!("warning: {warning}");
    }
    let written = match (&args.output, &args.crate_dir) {
        (Some(path), _) if path == Path::new("-") => {
            print!("{}", generated.source);
            Ok(())
        }
        (Some(path), _) => write(path, &generated.source),
        (None, Some(dir)) => write_crate(dir, args, &options, &generated.source),
        (None, None) => unreachable!("checked above"),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mcpwire gen: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write(path: &Path, contents: &str) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn write_crate(
    dir: &Path,
    args: &GenArgs,
    options: &GenOptions,
    source: &str,
) -> Result<(), String> {
    let name = match &args.name {
        Some(name) => name.clone(),
        None => dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_owned())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| format!("{}: give --name", dir.display()))?,
    };
    let deps = if args.path_deps {
        DepSource::Checkout(checkout())
    } else {
        DepSource::Registry
    };
    write(
        &dir.join("Cargo.toml"),
        &crate_manifest(&name, options, &deps),
    )?;
    write(&dir.join("src/lib.rs"), source)
}

/// The workspace root of the checkout this binary was built from.
fn checkout() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .map(Path::to_owned)
        .unwrap_or_else(|| manifest.to_owned())
}
