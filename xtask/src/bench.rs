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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

mod client_path;
mod end_to_end;
#[cfg(test)]
mod fixture;
mod runs;
mod tools_list_breakdown;

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
const BREAKDOWN_STEPS: [(&str, &str); 5] = [
    ("envelope", "mcpwire envelope decode of the whole frame"),
    (
        "result_typed",
        "serde_json: `result` text → generated `ReadResourceResult`",
    ),
    (
        "text_string",
        "serde_json: the `text` literal alone → `String`",
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

const BENCH_WARM_UP: &str = "1";
const BENCH_MEASUREMENT: &str = "2";
/// Runs of the whole suite a report combines, unless `--runs` or `--quick` says otherwise.
const DEFAULT_RUNS: usize = 3;

/// Runs of the whole suite when `--runs` is not given: one for a `--quick` smoke run.
fn default_runs(quick: bool) -> usize {
    if quick { 1 } else { DEFAULT_RUNS }
}

/// Runs `cargo xtask bench` with the arguments after `bench`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut report_only = false;
    let mut quick = false;
    let mut write = true;
    let mut runs: Option<usize> = None;
    let mut criterion_args: Vec<String> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--runs" => {
                let count = rest.next().and_then(|n| n.parse().ok()).filter(|&n| n >= 1);
                runs =
                    Some(count.ok_or_else(|| {
                        format!("--runs needs a number of runs, 1 or more\n{USAGE}")
                    })?);
            }
            "--report-only" => report_only = true,
            "--quick" => quick = true,
            "--no-write" => write = false,
            "--" => criterion_args.extend(rest.by_ref().cloned()),
            other => return Err(format!("unknown flag {other:?}\n{USAGE}")),
        }
    }
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
    let text = report.render();
    println!("{text}");
    if write {
        std::fs::write(root.join("BENCHMARKS.md"), &text)
            .map_err(|e| format!("cannot write BENCHMARKS.md: {e}"))?;
        println!("wrote BENCHMARKS.md");
    }
    Ok(())
}

fn workspace_root() -> PathBuf {
    match std::env::var_os("MCPWIRE_ROOT") {
        Some(root) => PathBuf::from(root),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives in the workspace")
            .to_owned(),
    }
}

/// Target directories of the three workspaces (the main one, `benches/` and
/// `benches/rmcp-server/`).
struct Dirs {
    main_target: PathBuf,
    bench_target: PathBuf,
    rmcp_target: PathBuf,
}

impl Dirs {
    fn new(root: &Path) -> Self {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                let dir = if dir.is_absolute() {
                    dir
                } else {
                    root.join(dir)
                };
                Self {
                    main_target: dir.clone(),
                    bench_target: dir.clone(),
                    rmcp_target: dir,
                }
            }
            None => Self {
                main_target: root.join("target"),
                bench_target: root.join("benches").join("target"),
                rmcp_target: root.join("benches").join("rmcp-server").join("target"),
            },
        }
    }

    fn criterion_home(&self) -> PathBuf {
        self.bench_target.join("criterion")
    }

    fn outcomes_file(&self) -> PathBuf {
        self.criterion_home().join("mcpwire-outcomes.tsv")
    }
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn status(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed: {status}"))
    }
}

/// The release binaries the end-to-end rows run as child processes.
struct Servers {
    /// `mcpwire` (for `mcpwire serve`).
    mcpwire: PathBuf,
    /// The mcpwire-server example `mcp_server`.
    example: PathBuf,
    /// `benches/rmcp-server`.
    rmcp: PathBuf,
}

/// One release build: what it runs in which directory, and the binary it must leave behind.
struct ServerBuild<'a> {
    command: &'a str,
    args: &'a [&'a str],
    target: &'a Path,
    binary: PathBuf,
}

fn build_servers(root: &Path, dirs: &Dirs) -> Result<Servers, String> {
    let exe = |name: &str| format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let release = dirs.main_target.join("release");
    let mcpwire = build_server(
        root,
        ServerBuild {
            command: "cargo build --release -p mcpwire-cli --bin mcpwire",
            args: &["-p", "mcpwire-cli", "--bin", "mcpwire"],
            target: &dirs.main_target,
            binary: release.join(exe("mcpwire")),
        },
    )?;
    let example = build_server(
        root,
        ServerBuild {
            command: "cargo build --release -p mcpwire-server --example mcp_server",
            args: &["-p", "mcpwire-server", "--example", "mcp_server"],
            target: &dirs.main_target,
            binary: release.join("examples").join(exe("mcp_server")),
        },
    )?;
    let rmcp = build_server(
        root,
        ServerBuild {
            command: "cargo build --release --manifest-path benches/rmcp-server/Cargo.toml",
            args: &["--manifest-path", "benches/rmcp-server/Cargo.toml"],
            target: &dirs.rmcp_target,
            binary: dirs.rmcp_target.join("release").join(exe("rmcp-server")),
        },
    )?;
    Ok(Servers {
        mcpwire,
        example,
        rmcp,
    })
}

fn build_server(root: &Path, build: ServerBuild<'_>) -> Result<PathBuf, String> {
    eprintln!("bench: {}", build.command);
    status(
        cargo()
            .current_dir(root)
            .args(["build", "--quiet", "--release"])
            .args(build.args)
            .env("CARGO_TARGET_DIR", build.target),
        build.command,
    )?;
    if build.binary.is_file() {
        Ok(build.binary)
    } else {
        Err(format!(
            "{} is missing after `{}`",
            build.binary.display(),
            build.command
        ))
    }
}

/// How long `xtask gen --check` takes (release build, all five MCP versions), best of runs.
struct GenTiming {
    best: Duration,
    runs: Vec<Duration>,
    fresh: bool,
}

fn time_gen(root: &Path, dirs: &Dirs) -> Result<GenTiming, String> {
    eprintln!("bench: timing `xtask gen --check` (release)");
    status(
        cargo()
            .current_dir(root)
            .args(["build", "--quiet", "--release", "-p", "xtask"])
            .env("CARGO_TARGET_DIR", &dirs.main_target),
        "cargo build --release -p xtask",
    )?;
    let xtask = dirs
        .main_target
        .join("release")
        .join(format!("xtask{}", std::env::consts::EXE_SUFFIX));
    let mut runs = Vec::new();
    let mut fresh = true;
    for _ in 0..3 {
        let start = Instant::now();
        let output = Command::new(&xtask)
            .current_dir(root)
            .args(["gen", "--check"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", xtask.display()))?;
        runs.push(start.elapsed());
        fresh &= output.status.success();
    }
    let best = *runs.iter().min().expect("three runs");
    Ok(GenTiming { best, runs, fresh })
}

fn run_suite(
    root: &Path,
    dirs: &Dirs,
    servers: &Servers,
    quick: bool,
    extra: &[String],
) -> Result<(), String> {
    eprintln!("bench: running the criterion suite (benches/)");
    let (warm_up, measurement) = if quick {
        ("0.5", "1")
    } else {
        (BENCH_WARM_UP, BENCH_MEASUREMENT)
    };
    let home = dirs.criterion_home();
    std::fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;
    let _ = std::fs::remove_file(dirs.outcomes_file());
    status(
        cargo()
            .current_dir(root)
            .args([
                "bench",
                "--manifest-path",
                "benches/Cargo.toml",
                "--bench",
                "wire",
                "--",
            ])
            .args(["--warm-up-time", warm_up, "--measurement-time", measurement])
            .args(extra)
            .env("CARGO_TARGET_DIR", &dirs.bench_target)
            .env("CRITERION_HOME", &home)
            .env("MCPWIRE_BIN", &servers.mcpwire)
            .env("MCPWIRE_EXAMPLE_BIN", &servers.example)
            .env("RMCP_SERVER_BIN", &servers.rmcp)
            .env("MCPWIRE_BENCH_OUTCOMES", dirs.outcomes_file()),
        "cargo bench --manifest-path benches/Cargo.toml",
    )
}

/// Medians in nanoseconds, by (group, function).
type Results = BTreeMap<(String, String), f64>;

/// Criterion's medians under `home`; with `since`, only those it wrote at or after that time.
fn read_results(home: &Path, since: Option<SystemTime>) -> Results {
    let mut results = Results::new();
    let Ok(groups) = std::fs::read_dir(home) else {
        return results;
    };
    for group in groups.flatten() {
        let Ok(functions) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for function in functions.flatten() {
            let estimates = function.path().join("new").join("estimates.json");
            let written = || {
                std::fs::metadata(&estimates)
                    .and_then(|m| m.modified())
                    .ok()
            };
            if since.is_some_and(|since| written().is_none_or(|at| at < since)) {
                continue;
            }
            if let Some(median) = std::fs::read_to_string(&estimates)
                .ok()
                .and_then(|t| median_ns(&t))
            {
                results.insert(
                    (
                        group.file_name().to_string_lossy().into_owned(),
                        function.file_name().to_string_lossy().into_owned(),
                    ),
                    median,
                );
            }
        }
    }
    results
}

/// The median's point estimate (ns) from criterion's `estimates.json`, read without a JSON
/// library: the first `"point_estimate":` after `"median":`.
fn median_ns(estimates: &str) -> Option<f64> {
    let after = &estimates[estimates.find("\"median\"")?..];
    let after = &after[after.find("\"point_estimate\"")? + "\"point_estimate\"".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let end = after
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(after.len());
    after[..end].parse().ok()
}

fn previous_gen_line(benchmarks_md: &str) -> Option<String> {
    benchmarks_md
        .lines()
        .find(|l| l.starts_with("- `cargo xtask gen`"))
        .map(str::to_owned)
}

fn format_time(ns: f64) -> String {
    if ns < 1_000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.2} µs", ns / 1_000.0)
    } else if ns < 1_000_000_000.0 {
        format!("{:.2} ms", ns / 1_000_000.0)
    } else {
        format!("{:.2} s", ns / 1_000_000_000.0)
    }
}

fn format_ratio(ratio: Option<f64>) -> String {
    match ratio {
        Some(r) if r >= 100.0 => format!("{r:.0}×"),
        Some(r) if r >= 10.0 => format!("{r:.1}×"),
        Some(r) => format!("{r:.2}×"),
        None => "—".to_owned(),
    }
}

struct Report<'a> {
    /// Every benchmark's time: the fastest over `runs`.
    results: &'a Results,
    /// Each run's medians, in the order they ran (empty for results from before runs were kept).
    runs: &'a [Results],
    outcomes: &'a str,
    gen_timing: Option<GenTiming>,
    previous_gen: Option<String>,
    quick: bool,
    root: &'a Path,
}

impl Report<'_> {
    fn get(&self, group: &str, function: &str) -> Option<f64> {
        self.results
            .get(&(group.to_owned(), function.to_owned()))
            .copied()
    }

    fn decode(&self, frame: &str, contender: &str) -> Option<f64> {
        self.get(&format!("decode_{frame}"), contender)
    }

    fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> Option<f64> {
        Some(numerator? / denominator?)
    }

    fn render(&self) -> String {
        let mut out = String::new();
        out.push_str("# Benchmarks\n\n");
        out.push_str(
            "mcpwire against the `serde_json::from_slice::<IgnoredAny>` floor and the peer crates, every \
             contender on the same bytes. Generated by `cargo xtask bench` (source: `benches/`, \
             `xtask/src/bench.rs`); do not edit by hand. Medians of criterion samples, each \
             benchmark at the fastest of its runs (see \"Run to run\"); ratios are medians divided (× floor: how many floors a decode costs; peer ÷ envelope: how many times \
             faster mcpwire is). One rmcp version throughout (3.11, as `benches/rmcp-server` uses): \
             its message model in the decode rows, its server in the end-to-end rows.\n\n",
        );
        self.render_table(&mut out);
        self.render_end_to_end(&mut out);
        self.render_targets(&mut out);
        self.render_new_targets(&mut out);
        self.render_client_path(&mut out);
        self.render_breakdown(&mut out);
        self.render_tools_list_breakdown(&mut out);
        self.render_outcomes(&mut out);
        runs::render(self.runs, &mut out);
        self.render_setup(&mut out);
        out
    }

    fn render_table(&self, out: &mut String) {
        let mut header = vec!["frame".to_owned(), "bytes".to_owned()];
        header.extend(DECODERS.iter().map(|(_, title)| title.to_string()));
        header.extend(
            [
                "envelope × floor",
                "rmcp ÷ envelope",
                "rust-mcp-schema ÷ envelope",
                "jsonrpsee ÷ envelope",
                "typed 2025-11-25 ÷ rmcp",
            ]
            .map(str::to_owned),
        );
        let _ = writeln!(out, "| {} |", header.join(" | "));
        let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
        let sizes = frame_sizes();
        for (frame, description) in FRAMES {
            let mut row = vec![
                description.to_owned(),
                sizes.get(frame).map_or("?".to_owned(), |n| n.to_string()),
            ];
            row.extend(
                DECODERS
                    .iter()
                    .map(|(id, _)| self.decode(frame, id).map_or("—".to_owned(), format_time)),
            );
            let envelope = self.decode(frame, "mcpwire_envelope");
            let rmcp = self.decode(frame, "rmcp");
            row.push(format_ratio(Self::ratio(
                envelope,
                self.decode(frame, "floor_ignored_any"),
            )));
            row.push(format_ratio(Self::ratio(rmcp, envelope)));
            row.push(format_ratio(Self::ratio(
                self.decode(frame, "rust_mcp_schema"),
                envelope,
            )));
            row.push(format_ratio(Self::ratio(
                self.decode(frame, "jsonrpsee_types"),
                envelope,
            )));
            row.push(format_ratio(Self::ratio(
                self.decode(frame, "mcpwire_typed_2025_11_25"),
                rmcp,
            )));
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        // Reply serialization and the end-to-end server share the table: the mcpwire figure sits
        // in the envelope column, rmcp's in the rmcp column.
        let extra: [(&str, &str, &str, Option<&str>); 5] = [
            (
                "reply: success, typed `CallToolResult` (mcpwire `success_reply` / rmcp `to_vec`)",
                "reply_success",
                "mcpwire_typed",
                Some("rmcp"),
            ),
            (
                "reply: success, pre-serialized result (mcpwire `write_success`)",
                "reply_success",
                "mcpwire_raw",
                Some("rmcp"),
            ),
            (
                "reply: error -32600 with id (mcpwire `error_reply` / rmcp `to_vec`)",
                "reply_error",
                "mcpwire",
                Some("rmcp"),
            ),
            (
                "`mcpwire serve` end to end, `ping` (per message)",
                "serve_e2e",
                "ping",
                None,
            ),
            (
                "`mcpwire serve` end to end, `tools/call` (per message)",
                "serve_e2e",
                "tools_call",
                None,
            ),
        ];
        for (label, group, ours, theirs) in extra {
            let mine = self.get(group, ours);
            let peer = theirs.and_then(|t| self.get(group, t));
            let mut label = label.to_owned();
            if group == "serve_e2e"
                && let Some(ns) = mine
            {
                let _ = write!(label, ": {:.0} messages/s", 1e9 / ns);
            }
            let mut row = vec![label, "—".to_owned()];
            for (id, _) in DECODERS {
                row.push(match id {
                    "mcpwire_envelope" => mine.map_or("—".to_owned(), format_time),
                    "rmcp" => peer.map_or("—".to_owned(), format_time),
                    _ => "—".to_owned(),
                });
            }
            row.extend([
                "—".to_owned(),
                format_ratio(Self::ratio(peer, mine)),
                "—".to_owned(),
                "—".to_owned(),
                "—".to_owned(),
            ]);
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        out.push('\n');
    }

    fn render_targets(&self, out: &mut String) {
        out.push_str("## Targets (issue 6)\n\n");
        let check = |ok: bool| if ok { "met" } else { "**missed**" };
        let frames = FRAMES.map(|(f, _)| f);
        // A peer that rejects a frame mcpwire reads as a valid message (e.g. at serde_json's
        // recursion limit) did less work than a classification and lost the message: that
        // frame is no speed comparison. Rejecting a malformed frame is a classification.
        let outcome = |frame: &str, decoder: &str| -> Option<&str> {
            self.outcomes.lines().find_map(|l| {
                let mut parts = l.splitn(3, '\t');
                (parts.next() == Some(frame) && parts.next() == Some(decoder))
                    .then(|| parts.next())
                    .flatten()
            })
        };
        let failed = |frame: &str, decoder: &str| -> bool {
            let valid = outcome(frame, "mcpwire_envelope")
                .is_some_and(|o| !o.starts_with("invalid") && !o.starts_with("rejected"));
            valid && outcome(frame, decoder).is_some_and(|o| o.starts_with("error"))
        };
        let worst = |num: &str, den: &str, max: bool| -> Option<(f64, &str)> {
            let mut worst: Option<(f64, &str)> = None;
            for frame in frames.into_iter().filter(|f| !failed(f, num)) {
                let Some(r) = Self::ratio(self.decode(frame, num), self.decode(frame, den)) else {
                    continue;
                };
                let replace = match worst {
                    None => true,
                    Some((w, _)) => (max && r > w) || (!max && r < w),
                };
                if replace {
                    worst = Some((r, frame));
                }
            }
            worst
        };
        let misses = |num: &str, den: &str, ok: &dyn Fn(f64) -> bool| -> Vec<String> {
            frames
                .iter()
                .filter(|f| !failed(f, num))
                .filter_map(|f| {
                    let r = Self::ratio(self.decode(f, num), self.decode(f, den))?;
                    (!ok(r)).then(|| format!("{f} {}", format_ratio(Some(r))))
                })
                .collect()
        };
        let line =
            |out: &mut String, what: &str, worst: Option<(f64, &str)>, missed: Vec<String>| {
                match worst {
                    None => {
                        let _ = writeln!(out, "- {what}: not measured");
                    }
                    Some((r, frame)) => {
                        let _ = write!(
                            out,
                            "- {what}: {} (worst {} on {frame})",
                            check(missed.is_empty()),
                            format_ratio(Some(r))
                        );
                        if !missed.is_empty() {
                            let _ = write!(out, "; missed on {}", missed.join(", "));
                        }
                        out.push('\n');
                    }
                }
            };
        let excluded = |peer: &str| -> String {
            let list: Vec<&str> = frames.into_iter().filter(|f| failed(f, peer)).collect();
            if list.is_empty() {
                String::new()
            } else {
                format!(
                    " [not compared where {peer} rejects a valid frame: {}]",
                    list.join(", ")
                )
            }
        };
        line(
            out,
            "envelope decode ≤ 1.3× the floor on every frame",
            worst("mcpwire_envelope", "floor_ignored_any", true),
            misses("mcpwire_envelope", "floor_ignored_any", &|r| r <= 1.3),
        );
        line(
            out,
            &format!("classification ≥ 5× faster than rmcp{}", excluded("rmcp")),
            worst("rmcp", "mcpwire_envelope", false),
            misses("rmcp", "mcpwire_envelope", &|r| r >= 5.0),
        );
        line(
            out,
            &format!(
                "classification ≥ 10× faster than rust-mcp-schema{}",
                excluded("rust_mcp_schema")
            ),
            worst("rust_mcp_schema", "mcpwire_envelope", false),
            misses("rust_mcp_schema", "mcpwire_envelope", &|r| r >= 10.0),
        );
        // Requests, decoded as the router does; a client decodes responses by its single
        // pass, whose targets the client-path section reads.
        let typed_frames = ["ping", "tools_call"];
        let typed_missed: Vec<String> = typed_frames
            .iter()
            .filter_map(|f| {
                let r = Self::ratio(
                    self.decode(f, "mcpwire_typed_2025_11_25"),
                    self.decode(f, "rmcp"),
                )?;
                (r > 1.0).then(|| format!("{f} {}", format_ratio(Some(r))))
            })
            .collect();
        let _ = writeln!(
            out,
            "- typed decode of a request (2025-11-25, envelope then params as the router does it) no slower than rmcp: {}{}; responses: see the client path below",
            check(typed_missed.is_empty()),
            if typed_missed.is_empty() {
                String::new()
            } else {
                format!(" (typed ÷ rmcp: {})", typed_missed.join(", "))
            }
        );
        out.push_str(
            "- zero heap allocations for id and method in the envelope decode: proved by \
             `cargo test -p mcpwire-tests --test alloc_envelope` (counting global allocator)\n",
        );
        match (&self.gen_timing, &self.previous_gen) {
            (Some(timing), _) => {
                let runs: Vec<String> = timing
                    .runs
                    .iter()
                    .map(|d| format!("{:.2} s", d.as_secs_f64()))
                    .collect();
                let _ = writeln!(
                    out,
                    "- `cargo xtask gen` for all five versions < 2 s (release, `xtask gen --check`, best of 3): {} ({:.2} s; runs {}){}",
                    check(timing.best < Duration::from_secs(2)),
                    timing.best.as_secs_f64(),
                    runs.join(", "),
                    if timing.fresh {
                        ""
                    } else {
                        "; the check reported stale files"
                    }
                );
            }
            (None, Some(previous)) => {
                out.push_str(previous);
                out.push('\n');
            }
            (None, None) => out.push_str("- `cargo xtask gen` < 2 s: not measured in this run\n"),
        }
        out.push('\n');
    }

    /// The heading "Where the typed time goes (`what`)" and the table of the criterion
    /// `group`'s `steps` (function id, row title), their medians; nothing, and `false`, when
    /// the run measured none of them.
    fn render_steps(
        &self,
        out: &mut String,
        what: &str,
        group: &str,
        steps: &[(&str, &str)],
    ) -> bool {
        let step = |id: &str| self.get(group, id);
        if steps.iter().all(|(id, _)| step(id).is_none()) {
            return false;
        }
        let _ = write!(
            out,
            "## Where the typed time goes ({what})\n\n| step | median |\n| --- | --- |\n"
        );
        for (id, title) in steps {
            let _ = writeln!(
                out,
                "| {title} | {} |",
                step(id).map_or("—".to_owned(), format_time)
            );
        }
        out.push('\n');
        true
    }

    /// The pieces of the typed decode of the 100 KB `resources/read` frame, and what they say
    /// about the typed-decode target there.
    fn render_breakdown(&self, out: &mut String) {
        let step = |id: &str| self.get("typed_breakdown", id);
        if !self.render_steps(
            out,
            "`resources/read` result, 100 KB text",
            "typed_breakdown",
            &BREAKDOWN_STEPS,
        ) {
            return;
        }
        let frame = "resources_read_100k";
        let typed = self.decode(frame, "mcpwire_typed_2025_11_25");
        let rmcp = self.decode(frame, "rmcp");
        let (envelope, result, text) =
            (step("envelope"), step("result_typed"), step("text_string"));
        if let (Some(typed), Some(envelope), Some(result)) = (typed, envelope, result) {
            let _ = writeln!(
                out,
                "- mcpwire typed ({}) is the envelope pass ({}) plus serde_json's decode of the `result` text ({}).",
                format_time(typed),
                format_time(envelope),
                format_time(result)
            );
        }
        if let (Some(text), Some(result), Some(rmcp)) = (text, result, rmcp) {
            let _ = writeln!(
                out,
                "- The one 100 KB string is {:.0}% of that result decode ({} alone, {:.1} GB/s); rmcp's whole decode ({}) is the same string plus {} for everything else.",
                100.0 * text / result,
                format_time(text),
                self.text_bytes() as f64 / text,
                format_time(rmcp),
                format_time((rmcp - text).max(0.0))
            );
        }
        if let (Some(union), Some(direct)) = (step("item_union"), step("item_direct")) {
            let _ = writeln!(
                out,
                "- The generated union reads the item's object one level deep (its string members decoded on the way, the others kept as raw text so integers keep their spelling), then decodes the chosen variant from those members: {} against {} decoding `TextResourceContents` directly ({}).",
                format_time(union),
                format_time(direct),
                if union <= direct * 1.05 {
                    "the union is not what limits"
                } else {
                    "reading the members before the variant costs the difference"
                }
            );
        }
        if let (Some(typed), Some(rmcp), Some(envelope)) = (typed, rmcp, envelope) {
            if typed > rmcp {
                let _ = writeln!(
                    out,
                    "- typed − rmcp = {}; the envelope pass is {}: mcpwire validates the whole frame before the typed decode (envelope first, so a bad frame is answered with its id), and the typed decode reads the string as serde_json does. Meeting the target here needs a string decoder faster than serde_json's by the envelope's cost.",
                    format_time(typed - rmcp),
                    format_time(envelope)
                );
            } else {
                let _ = writeln!(
                    out,
                    "- typed ÷ rmcp = {}: the envelope pass fits within rmcp's own overhead.",
                    format_ratio(Self::ratio(Some(typed), Some(rmcp)))
                );
            }
        }
        out.push('\n');
    }

    /// Bytes of the 100 KB frame (the breakdown's throughput figure uses the frame size; the
    /// string is all but a few hundred bytes of it).
    fn text_bytes(&self) -> usize {
        frame_sizes()
            .get("resources_read_100k")
            .copied()
            .unwrap_or(0)
    }

    fn render_outcomes(&self, out: &mut String) {
        if self.outcomes.trim().is_empty() {
            return;
        }
        out.push_str(
            "## What each decoder made of the malformed frames, and what the servers answered\n\n",
        );
        out.push_str("| frame | decoder | outcome |\n| --- | --- | --- |\n");
        for line in self.outcomes.lines() {
            let mut parts = line.splitn(3, '\t');
            let (Some(frame), Some(decoder), Some(outcome)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let interesting = frame.starts_with("bad_")
                || frame.starts_with("deep_")
                || frame.starts_with("serve_")
                || frame.starts_with("e2e_");
            if interesting && decoder != "floor_ignored_any" && decoder != "serde_json_value" {
                let _ = writeln!(
                    out,
                    "| {frame} | {decoder} | {} |",
                    outcome.replace('|', "\\|")
                );
            }
        }
        out.push('\n');
    }

    fn render_setup(&self, out: &mut String) {
        out.push_str("## Setup\n\n");
        let _ = writeln!(
            out,
            "- command: `cargo xtask bench{}{}` (criterion, warm-up {} s, measurement {} s per benchmark, 30 samples; 20 flat samples for frames over 64 KB, 10 for the notification streams; {})",
            if self.quick { " --quick" } else { "" },
            match self.runs.len() {
                0 => String::new(),
                n if n == default_runs(self.quick) => String::new(),
                n => format!(" --runs {n}"),
            },
            if self.quick { "0.5" } else { BENCH_WARM_UP },
            if self.quick { "1" } else { BENCH_MEASUREMENT },
            match self.runs.len() {
                0 | 1 => "one run of the suite".to_owned(),
                n => format!(
                    "{n} runs of the whole suite, each time the fastest of the runs' medians"
                ),
            },
        );
        let _ = writeln!(out, "- machine: {} cores, {}", cores(), cpu_model());
        let _ = writeln!(out, "- {}", string_scan_simd(&cpu_flags()));
        let _ = writeln!(out, "- rustc: {}", rustc_version());
        let versions = crate_versions(&self.root.join("benches").join("Cargo.lock"));
        let listed: Vec<String> = VERSIONED
            .iter()
            .map(|name| format!("{name} {}", versions.get(*name).map_or("?", String::as_str)))
            .collect();
        let _ = writeln!(
            out,
            "- crates: mcpwire {} (this tree), {}",
            env!("CARGO_PKG_VERSION"),
            listed.join(", ")
        );
        out.push_str(
            "- profile: mcpwire decodes under `mcp-2025-11-25`; rmcp decodes `ClientJsonRpcMessage` (frames a \
             server receives) or `ServerJsonRpcMessage` (results); rust-mcp-schema its 2025-11-25 \
             `ClientMessage`/`ServerMessage`; jsonrpsee-types `Request`, else `Notification`, or \
             `Response<&RawValue>` for results.\n",
        );
        out.push_str(
            "- mcpwire typed decode: the envelope, then the generated type the method calls for, as the \
             router does it (params via `decode_params`; a result by the pending request's method).\n",
        );
        out.push_str(
            "- the machine is shared (2 cores, other builds running): absolute times are noisy; the ratios \
             are what to read.\n",
        );
    }
}

fn frame_sizes() -> BTreeMap<String, usize> {
    // The bench harness knows the exact sizes; criterion records them as the throughput.
    // Read them back from `benchmark.json` of each group's floor run.
    let mut sizes = BTreeMap::new();
    let dirs = Dirs::new(&workspace_root());
    for (frame, _) in FRAMES {
        let path = dirs
            .criterion_home()
            .join(format!("decode_{frame}"))
            .join("floor_ignored_any")
            .join("new")
            .join("benchmark.json");
        if let Some(bytes) = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| throughput_bytes(&t))
        {
            sizes.insert(frame.to_owned(), bytes);
        }
    }
    sizes
}

fn throughput_bytes(benchmark_json: &str) -> Option<usize> {
    let after = &benchmark_json[benchmark_json.find("\"Bytes\"")? + "\"Bytes\"".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let end = after
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(after.len());
    after[..end].parse().ok()
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// The `flags` line of `/proc/cpuinfo` (empty where there is none).
fn cpu_flags() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("flags"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, flags)| flags.trim().to_owned())
        })
        .unwrap_or_default()
}

/// Which SIMD mcpwire's string scan runs with on a CPU with these flags: it chooses the
/// widest at run time (`crates/mcpwire/src/scan/blocks.rs`), so the envelope rows depend on it.
fn string_scan_simd(flags: &str) -> String {
    let has_all = |wanted: &[&str]| {
        wanted
            .iter()
            .all(|flag| flags.split_whitespace().any(|f| f == *flag))
    };
    // pulp's tokens: `V3` (x86-64-v3) and `V4` (x86-64-v4), by their main features.
    let v3 = has_all(&["avx2", "bmi1", "bmi2", "fma"]);
    let simd = if v3 && has_all(&["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]) {
        "AVX-512"
    } else if v3 {
        "AVX2"
    } else if std::env::consts::ARCH == "x86_64" {
        "SSE2"
    } else {
        "no SIMD (words of eight bytes)"
    };
    format!(
        "string scan: {simd} (mcpwire picks the widest of AVX-512, AVX2 and SSE2 the CPU has, at run time; the UTF-8 check likewise through simdutf8)"
    )
}

fn rustc_version() -> String {
    Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Resolved versions by package name from a `Cargo.lock` (the highest, when several).
fn crate_versions(lock: &Path) -> BTreeMap<String, String> {
    let mut versions = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(lock) else {
        return versions;
    };
    let mut name: Option<String> = None;
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_owned());
        } else if let (Some(value), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            versions.insert(n, value.trim_matches('"').to_owned());
        }
    }
    versions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_count_must_be_a_number_of_one_or_more() {
        for args in [&["--runs"][..], &["--runs", "0"], &["--runs", "three"]] {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let err = run(&args).unwrap_err();
            assert!(
                err.starts_with("--runs needs a number of runs, 1 or more\nusage:"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_run_reads_only_what_it_measured() {
        let home = fixture::ScratchDir::new("bench-since");
        fixture::write_estimate(&home, "decode_ping", "rmcp", 700.0);
        // File times come from the kernel's coarse clock, a tick behind `SystemTime::now`.
        let pause = Duration::from_millis(50);
        std::thread::sleep(pause);
        let started = SystemTime::now();
        std::thread::sleep(pause);
        fixture::write_estimate(&home, "decode_ping", "floor_ignored_any", 60.0);
        let key = |f: &str| ("decode_ping".to_owned(), f.to_owned());
        let measured = read_results(&home, Some(started));
        assert_eq!(
            measured.keys().collect::<Vec<_>>(),
            [&key("floor_ignored_any")]
        );
        assert_eq!(read_results(&home, None).len(), 2);
    }

    #[test]
    fn reads_the_median_not_the_mean() {
        let json = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":1.75e2,"standard_error":0.2}}"#;
        assert_eq!(median_ns(json), Some(175.0));
        assert_eq!(median_ns(r#"{"mean":{"point_estimate":1}}"#), None);
    }

    #[test]
    fn reads_versions_from_a_lock_file() {
        let dir = fixture::ScratchDir::new("bench-lock");
        let lock = dir.join("Cargo.lock");
        std::fs::write(&lock, "[[package]]\nname = \"rmcp\"\nversion = \"3.9.0\"\nsource = \"x\"\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.1\"\n").unwrap();
        let versions = crate_versions(&lock);
        assert_eq!(versions.get("rmcp").map(String::as_str), Some("3.9.0"));
        assert_eq!(versions.get("serde").map(String::as_str), Some("1.0.1"));
    }

    #[test]
    fn names_the_widest_simd_the_string_scan_can_use() {
        let v3 = "fpu sse2 avx avx2 bmi1 bmi2 fma";
        let v4 = "avx512f avx512bw avx512cd avx512dq avx512vl";
        assert!(string_scan_simd(&format!("{v3} {v4}")).starts_with("string scan: AVX-512 "));
        assert!(string_scan_simd(v3).starts_with("string scan: AVX2 "));
        // AVX-512 without the rest of x86-64-v3, or AVX2 alone, is not enough for pulp's tokens.
        assert!(!string_scan_simd(&format!("avx2 {v4}")).starts_with("string scan: AVX"));
        assert!(!string_scan_simd("sse2 avx2").starts_with("string scan: AVX"));
    }

    #[test]
    fn formats_times_and_ratios() {
        assert_eq!(format_time(512.0), "512 ns");
        assert_eq!(format_time(1_500.0), "1.50 µs");
        assert_eq!(format_time(2_250_000.0), "2.25 ms");
        assert_eq!(format_ratio(Some(1.234)), "1.23×");
        assert_eq!(format_ratio(Some(12.34)), "12.3×");
        assert_eq!(format_ratio(None), "—");
    }

    #[test]
    fn reads_the_throughput_bytes() {
        assert_eq!(
            throughput_bytes(r#"{"throughput":{"Bytes":5123},"x":1}"#),
            Some(5123)
        );
        assert_eq!(throughput_bytes(r#"{"throughput":null}"#), None);
    }
}
