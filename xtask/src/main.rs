//! `cargo xtask gen [--check] [--docs=schema]`: generates `crates/mcpwire-types/src/generated/`
//! and `schema/mcp.lock` from `schema/jsonrpc-2.0.schema.json` and the upstream MCP schemas
//! in `MCP_SCHEMA_DIR` (default `../shared/schemas/mcp`).
//!
//! `cargo xtask bench`: runs the criterion suite in `benches/` against the peer crates and
//! writes `BENCHMARKS.md`.

mod bench;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mcpwire_codegen::{
    GeneratedFile, MCP_LOCK, Options, generate_workspace, mcp_file, mcp_schema_dir, parse_lock,
    read_mcp_schemas, sha256_hex,
};

const USAGE: &str = "usage: cargo xtask gen [--check] [--docs=schema]\n\
  gen            write the generated files and schema/mcp.lock\n\
  gen --check    regenerate in memory; exit 1 naming every stale or missing file and every\n\
                 MCP version whose upstream schema.json no longer matches schema/mcp.lock\n\
  --docs=schema  copy the schema descriptions into doc comments (local use; never commit)\n\
environment: MCP_SCHEMA_DIR (default ../shared/schemas/mcp relative to the workspace root)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, flags)) = args.split_first() else {
        eprintln!("{USAGE}\n{}", bench::USAGE);
        return ExitCode::from(2);
    };
    if command == "bench" {
        return match bench::run(flags) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if command != "gen" {
        eprintln!("unknown command {command:?}\n{USAGE}\n{}", bench::USAGE);
        return ExitCode::from(2);
    }
    let mut check = false;
    let mut options = Options::default();
    for flag in flags {
        match flag.as_str() {
            "--check" => check = true,
            "--docs=schema" => options.docs_from_schema = true,
            "--docs=none" => options.docs_from_schema = false,
            other => {
                eprintln!("unknown flag {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    if check && options.docs_from_schema {
        eprintln!("--check compares against the committed files, which never carry schema docs");
        return ExitCode::from(2);
    }
    let workspace = workspace_root();
    let files = match generate_workspace(&workspace, options) {
        Ok(files) => {
            for warning in files.iter().flat_map(|f| &f.warnings) {
                eprintln!("warning: {warning}");
            }
            files
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        run_check(&workspace, &files)
    } else {
        run_write(&workspace, &files)
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_owned()
}

fn run_write(workspace: &Path, files: &[GeneratedFile]) -> ExitCode {
    for file in files {
        let path = workspace.join(&file.path);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(file.contents.as_str()) {
            continue;
        }
        if let Some(parent) = path.parent()
            && let Err(e) = std::fs::create_dir_all(parent)
        {
            eprintln!("error: cannot create {}: {e}", parent.display());
            return ExitCode::FAILURE;
        }
        if let Err(e) = std::fs::write(&path, &file.contents) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", file.path);
    }
    println!("{} files up to date", files.len());
    ExitCode::SUCCESS
}

fn run_check(workspace: &Path, files: &[GeneratedFile]) -> ExitCode {
    let mut problems = Vec::new();
    // Drift of the upstream schemas against the committed lock.
    let lock = std::fs::read_to_string(workspace.join(MCP_LOCK)).unwrap_or_default();
    let locked = parse_lock(&lock);
    if let Ok(schemas) = read_mcp_schemas(&mcp_schema_dir(workspace)) {
        for schema in &schemas {
            let actual = sha256_hex(&schema.bytes);
            match locked.iter().find(|(v, _)| *v == schema.version) {
                Some((_, pinned)) if *pinned == actual => {}
                Some((_, pinned)) => problems.push(format!(
                    "MCP {} drifted: upstream {} has sha256 {actual}, {MCP_LOCK} pins {pinned}",
                    schema.version,
                    mcp_file(&schema.version)
                )),
                None => problems.push(format!(
                    "MCP {} is not pinned in {MCP_LOCK}",
                    schema.version
                )),
            }
        }
    }
    for file in files {
        match std::fs::read_to_string(workspace.join(&file.path)) {
            Ok(committed) if committed == file.contents => {}
            Ok(_) => problems.push(format!("stale: {}", file.path)),
            Err(_) => problems.push(format!("missing: {}", file.path)),
        }
    }
    if problems.is_empty() {
        println!("{} generated files are fresh", files.len());
        ExitCode::SUCCESS
    } else {
        for p in &problems {
            eprintln!("{p}");
        }
        eprintln!("run `cargo xtask gen` to regenerate");
        ExitCode::FAILURE
    }
}
