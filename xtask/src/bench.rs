//! `cargo xtask bench`: runs the benchmark suite in `benches/` (its own cargo workspace, so the
//! peer crates never enter the main build), reads criterion's medians, and prints one table of
//! medians and ratios, also written to `BENCHMARKS.md` with the machine, the crate versions and
//! the command. It also times `cargo xtask gen --check` (release) for all five MCP versions.
//!
//! Before criterion it builds, in release, the three servers the end-to-end rows run as child
//! processes and hands their paths to the harness: `mcpwire` (`MCPWIRE_BIN`), the
//! mcpwire-server example `mcp_server` (`MCPWIRE_EXAMPLE_BIN`) and `benches/rmcp-server`
//! (`RMCP_SERVER_BIN`, its own workspace; its target directory is
//! `benches/rmcp-server/target` unless `CARGO_TARGET_DIR` is set).
//!
//! Flags:
//! - `--runs N`: run the criterion suite N times in a row (default 3) and report, for every
//!   benchmark, the fastest of the runs' medians, with how far the runs were apart (see
//!   [`runs`]).
//! - `--report-only`: skip building and running; rebuild the report from the last results.
//! - `--quick`: half the warm-up and measurement time, and one run unless `--runs` says
//!   otherwise (for a smoke run).
//! - `--no-write`: print the report without writing `BENCHMARKS.md`.
//! - `-- <args>`: passed on to the criterion harness (e.g. a filter such as `decode_ping`; the
//!   end-to-end rows alone: `--no-write -- 'tool_call|notification_stream'`).
//!
//! Environment: `CARGO_TARGET_DIR` is honoured for both workspaces; `MCPWIRE_ROOT` names another
//! checkout to benchmark (default: the workspace this xtask was built from).

use std::time::SystemTime;

mod args;
mod breakdown;
mod cargo_runs;
mod client_path;
mod criterion;
mod end_to_end;
#[cfg(test)]
mod fixture;
mod http_load;
mod http_paired;
mod listings;
mod machine;
mod report;
mod runs;
mod targets;
mod tools_list_breakdown;

use args::Args;
use cargo_runs::{Dirs, build_servers, run_suite, time_gen, workspace_root};
use criterion::{Results, read_results};
use report::{Report, format_ratio, format_time, previous_gen_line};

/// Usage text for `cargo xtask bench`.
pub const USAGE: &str = "usage: cargo xtask bench [--runs N] [--report-only] [--quick] [--no-write] [-- <criterion args>]";

/// The frames of the suite, in report order: (criterion group suffix, description, size note).
const FRAMES: [(&str, &str); 9] = [
    ("ping", "`ping` request"),
    ("tools_call", "`tools/call` request"),
    ("tools_list_result", "`tools/list` result"),
    ("tools_list_500", "`tools/list` result, 500 tools"),
    (
        "resources_read_100k",
        "`resources/read` result, 100 KB text",
    ),
    ("result_1m", "`tools/call` result, 1 MB structured"),
    ("bad_version", "malformed: `\"jsonrpc\":\"1.0\"` with id"),
    ("bad_id_type", "malformed: id `true`"),
    ("deep_params", "malformed: params 100,000 deep"),
];

/// Decode contenders: (criterion function id, column title).
const DECODERS: [(&str, &str); 8] = [
    ("floor_ignored_any", "floor (IgnoredAny)"),
    ("serde_json_value", "serde_json Value"),
    ("mcpwire_envelope", "mcpwire envelope"),
    ("mcpwire_typed_2025_11_25", "mcpwire typed 2025-11-25"),
    ("mcpwire_typed_2026_07_28", "mcpwire typed 2026-07-28"),
    ("rmcp", "rmcp"),
    ("rust_mcp_schema", "rust-mcp-schema"),
    ("jsonrpsee_types", "jsonrpsee-types"),
];

/// Steps of the `typed_breakdown` group: (criterion function id, row title). The bench crate's
/// `breakdown::STEPS` names the same ids.
const BREAKDOWN_STEPS: [(&str, &str); 7] = [
    ("envelope", "mcpwire envelope decode of the whole frame"),
    (
        "result_typed",
        "serde_json: `result` text → generated `ReadResourceResult`",
    ),
    (
        "result_fast",
        "fast_json (the runtime's typed decode): `result` text → generated `ReadResourceResult`",
    ),
    (
        "text_string",
        "serde_json: the `text` literal alone → `String`",
    ),
    (
        "text_fast",
        "fast_json: the `text` literal alone → `String`",
    ),
    (
        "item_union",
        "serde_json: contents item → generated union (reads its members once, strings decoded on the way, then decodes the variant from them)",
    ),
    (
        "item_direct",
        "serde_json: contents item → `TextResourceContents` directly",
    ),
];

/// Crates whose resolved versions the report names (from `benches/Cargo.lock`).
const VERSIONED: [&str; 6] = [
    "rmcp",
    "rust-mcp-schema",
    "jsonrpsee-types",
    "serde_json",
    "serde",
    "criterion",
];

/// Criterion's warm-up time per benchmark, in seconds.
const BENCH_WARM_UP: &str = "1";
/// Criterion's measurement time per benchmark, in seconds.
const BENCH_MEASUREMENT: &str = "2";
/// Runs of the whole suite a report combines, unless `--runs` or `--quick` says otherwise.
const DEFAULT_RUNS: usize = 3;

/// Runs of the whole suite when `--runs` is not given: one for a `--quick` smoke run.
fn default_runs(quick: bool) -> usize {
    if quick { 1 } else { DEFAULT_RUNS }
}

/// Runs `cargo xtask bench` with the arguments after `bench`.
pub fn run(args: &[String]) -> Result<(), String> {
    let Args {
        report_only,
        quick,
        write,
        runs,
        criterion: criterion_args,
    } = Args::parse(args)?;
    let root = workspace_root();
    let dirs = Dirs::new(&root);
    let home = dirs.criterion_home();
    let mut gen_timing = None;
    if !report_only {
        let servers = build_servers(&root, &dirs)?;
        gen_timing = Some(time_gen(&root, &dirs)?);
        let count = runs.unwrap_or(default_runs(quick));
        runs::clear(&home)?;
        for k in 1..=count {
            eprintln!("bench: run {k} of {count}");
            let started = SystemTime::now();
            run_suite(&root, &dirs, &servers, quick, &criterion_args)?;
            run_http_load(&root, &dirs, &servers, quick, &criterion_args, k)?;
            // What this run measured: a filter leaves the other benchmarks' results as an
            // earlier run wrote them.
            runs::save(&home, k, &read_results(&home, Some(started)))?;
        }
    }
    // The kept runs; criterion's own last results when an older layout left none.
    let per_run = runs::load(&home);
    let results = if per_run.is_empty() {
        read_results(&home, None)
    } else {
        runs::combine(&per_run)
    };
    if results.is_empty() {
        return Err(format!("no criterion results under {}", home.display()));
    }
    let outcomes = std::fs::read_to_string(dirs.outcomes_file()).unwrap_or_default();
    let previous_gen = std::fs::read_to_string(root.join("BENCHMARKS.md"))
        .ok()
        .and_then(|t| previous_gen_line(&t));
    let report = Report {
        results: &results,
        runs: &per_run,
        outcomes: &outcomes,
        gen_timing,
        previous_gen,
        quick,
        root: &root,
    };
    let text = with_http_load(report.render(), &results, &per_run, &home);
    println!("{text}");
    if write {
        std::fs::write(root.join("BENCHMARKS.md"), &text)
            .map_err(|e| format!("cannot write BENCHMARKS.md: {e}"))?;
        println!("wrote BENCHMARKS.md");
    }
    Ok(())
}

/// Issue 48's rows, run after the suite in every run: the `http_load` bench (see
/// [`http_load`]), with the suite's warm-up and measurement times.
fn run_http_load(
    root: &std::path::Path,
    dirs: &cargo_runs::Dirs,
    servers: &cargo_runs::Servers,
    quick: bool,
    criterion_args: &[String],
    k: usize,
) -> Result<(), String> {
    let timing = if quick {
        ("0.5", "1")
    } else {
        (BENCH_WARM_UP, BENCH_MEASUREMENT)
    };
    http_load::run(root, dirs, servers, timing, criterion_args, k)
}

/// The report with issue 48's section before "Run to run" (at the end when there is none).
fn with_http_load(
    mut text: String,
    results: &Results,
    runs: &[Results],
    home: &std::path::Path,
) -> String {
    let section = http_load::render(results, runs, home);
    match text.find("## Run to run") {
        Some(at) => text.insert_str(at, &section),
        None => text.push_str(&section),
    }
    text
}
