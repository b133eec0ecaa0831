//! HTTP under load (issue 48): runs the `http_load` criterion bench of `benches/` (the
//! example's `add` over Streamable HTTP on loopback, mcpwire against rmcp 3.11 at 1, 16 and 64
//! concurrent clients) after each run of the suite, and renders its section of the report:
//! requests/s (from criterion's median time per request) and p99 latency per row, every run's
//! figures side by side, and the targets read from them.
//!
//! The bench writes each run's latency percentiles to `http-latency-<k>.tsv` beside the runs'
//! medians (`<criterion home>/mcpwire-runs/`), and its paired rounds to `http-paired-<k>.tsv`
//! (see [`super::http_paired`]), so `--report-only` renders them again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::cargo_runs::{Dirs, Servers, cargo, status};
use super::criterion::Results;
use super::format_ratio;
use super::http_paired::{self, Target};

/// The concurrencies: criterion group `http_load_c<N>`.
const CLIENTS: [usize; 3] = [1, 16, 64];

/// The contenders: (criterion function id, column title). The bench crate's
/// `http_load::Contender::id` names the same ids.
const CONTENDERS: [(&str, &str); 5] = [
    (STATELESS, "mcpwire 2026-07-28 stateless"),
    (SESSION, "mcpwire 2025-11-25 session"),
    (RMCP_BEST, "rmcp `json_response`, no sessions"),
    ("rmcp_default", "rmcp defaults (SSE answers)"),
    ("floor_axum", "floor: axum, no MCP"),
];

const STATELESS: &str = "mcpwire_stateless";
const SESSION: &str = "mcpwire_session";
const RMCP_BEST: &str = "rmcp_json_response";

/// The targets: mcpwire's requests/s over rmcp's best, and a stateless POST's cost
/// over a POST in a session.
const OVER_RMCP: Target = Target::AtLeast(1.5);
const OVER_SESSION: Target = Target::AtMost(1.2);

/// Run `k`'s latency file.
fn latency_file(home: &Path, k: usize) -> PathBuf {
    super::runs::dir(home).join(format!("http-latency-{k}.tsv"))
}

/// Runs the `http_load` bench once (run `k` of the suite), with the servers' paths.
pub(super) fn run(
    root: &Path,
    dirs: &Dirs,
    servers: &Servers,
    (warm_up, measurement): (&str, &str),
    extra: &[String],
    k: usize,
) -> Result<(), String> {
    eprintln!("bench: running the HTTP load rows (benches/benches/http_load.rs)");
    let home = dirs.criterion_home();
    let latency = latency_file(&home, k);
    if let Some(dir) = latency.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    status(
        cargo()
            .current_dir(root)
            .args([
                "bench",
                "--manifest-path",
                "benches/Cargo.toml",
                "--bench",
                "http_load",
                "--",
            ])
            .args(["--warm-up-time", warm_up, "--measurement-time", measurement])
            .args(extra)
            .env("CARGO_TARGET_DIR", dirs.bench_target())
            .env("CRITERION_HOME", &home)
            .env("MCPWIRE_EXAMPLE_BIN", &servers.example)
            .env("RMCP_SERVER_BIN", &servers.rmcp)
            .env("MCPWIRE_BENCH_HTTP_LATENCY", &latency)
            .env("MCPWIRE_BENCH_HTTP_PAIRED", http_paired::file(&home, k)),
        "cargo bench --manifest-path benches/Cargo.toml --bench http_load",
    )
}

/// What one run's latency file says of a row: the p99 (µs) of its requests, and the
/// server's CPU time per answered request (µs) where the bench could read it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Measured {
    p99: u64,
    cpu_us: Option<f64>,
}

/// One run's latency file, by (group, function).
type Latencies = std::collections::BTreeMap<(String, String), Measured>;

fn parse_latencies(text: &str) -> Latencies {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split('\t');
            let (group, function) = (parts.next()?, parts.next()?);
            let _requests = parts.next()?;
            let _p50 = parts.next()?;
            let p99 = parts.next()?.parse().ok()?;
            // Absent from files written before the bench read the server's CPU time.
            let cpu_us = parts.next().and_then(|cpu| cpu.parse().ok());
            let measured = Measured { p99, cpu_us };
            Some(((group.to_owned(), function.to_owned()), measured))
        })
        .collect()
}

/// The latency files of runs 1, 2, … as far as they go.
fn load_latencies(home: &Path) -> Vec<Latencies> {
    (1..)
        .map_while(|k| std::fs::read_to_string(latency_file(home, k)).ok())
        .map(|text| parse_latencies(&text))
        .collect()
}

/// Requests per second from a median time per request.
fn per_second(ns: f64) -> f64 {
    1e9 / ns
}

/// The section's figures for one row: requests/s of the best run and of each run, p99 (µs)
/// of the best run and of each run, the server's CPU time per request (µs) of the best run
/// (the lowest) and of each run that wrote a latency file (`None`: that run could not read it).
struct Row {
    rps: Option<f64>,
    rps_runs: Vec<f64>,
    p99: Option<u64>,
    p99_runs: Vec<u64>,
    cpu: Option<f64>,
    cpu_runs: Vec<Option<f64>>,
}

fn row(
    results: &Results,
    runs: &[Results],
    latencies: &[Latencies],
    key: &(String, String),
) -> Row {
    let rps_runs: Vec<f64> = runs
        .iter()
        .filter_map(|run| run.get(key).copied().map(per_second))
        .collect();
    let p99_runs: Vec<u64> = latencies
        .iter()
        .filter_map(|run| run.get(key).map(|m| m.p99))
        .collect();
    let cpu_runs: Vec<Option<f64>> = latencies
        .iter()
        .map(|run| run.get(key).and_then(|m| m.cpu_us))
        .collect();
    Row {
        rps: results.get(key).copied().map(per_second),
        p99: p99_runs.iter().copied().min(),
        cpu: cpu_runs.iter().copied().flatten().reduce(f64::min),
        rps_runs,
        p99_runs,
        cpu_runs,
    }
}

/// `time(slower) ÷ time(faster)` within each run that measured both, in run order: the
/// ratio as it stood while the two rows ran minutes apart, beside the one the report's
/// fastest runs give (taken from runs that may differ).
fn ratios_by_run(
    runs: &[Results],
    slower: &(String, String),
    faster: &(String, String),
) -> Vec<f64> {
    runs.iter()
        .filter_map(|run| Some(run.get(slower)? / run.get(faster)?))
        .collect()
}

/// A ratio cell: the ratio of the fastest runs, then each run's own when there are several.
fn ratio_cell(ratio: Option<f64>, by_run: &[f64]) -> String {
    let by_run: Vec<String> = by_run.iter().map(|&r| format_ratio(Some(r))).collect();
    figure_cell(Some(format_ratio(ratio)), &by_run)
}

/// A figure's cell: the best run's figure, then each run's when there are several; "—"
/// when no run measured it.
fn figure_cell<T: std::fmt::Display>(best: Option<String>, runs: &[T]) -> String {
    match best {
        Some(best) if runs.len() > 1 => format!("{best} (runs {})", join(runs)),
        Some(best) => best,
        None => "—".to_owned(),
    }
}

fn join<T: std::fmt::Display>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The section, or nothing when no `http_load` group has results.
pub(super) fn render(results: &Results, runs: &[Results], home: &Path) -> String {
    let key = |clients: usize, id: &str| (format!("http_load_c{clients}"), id.to_owned());
    if !results
        .keys()
        .any(|(group, _)| group.starts_with("http_load_c"))
    {
        return String::new();
    }
    let latencies = load_latencies(home);
    let mut out = String::new();
    out.push_str("## HTTP under load (issue 48)\n\n");
    out.push_str(
        "The `add` tool of the example (`mcp_server --http 127.0.0.1:0`: sessions at \
         `initialize`, 2026-07-28 requests served statelessly beside them) against the same tool \
         on rmcp 3.11's streamable HTTP server (`benches/rmcp-server --http`, with \
         `--json-response`: `json_response` on, `legacy_session_mode` off; without: its \
         defaults), both release binaries on loopback, both on tokio's multi-thread runtime \
         (a worker per core). Beside them, the host's floor (`rmcp-server --http --floor`): \
         axum on the same runtime reading each POST whole and answering it with the same fixed \
         reply, no MCP work at all; what one HTTP exchange costs here, which no server can beat \
         by much. One load generator in the bench process \
         (a current-thread tokio runtime, hyper's HTTP/1.1 client, keep-alive, `TCP_NODELAY`) \
         drives N clients, each on its own connection sending its next `tools/call` as soon \
         as the previous answer is read whole; every answer is checked (200 and the sum). \
         2026-07-28 requests carry `_meta` and the routing headers; the session rows \
         `initialize` (2025-11-25) once per client. requests/s: one over criterion's median \
         time per request (the fastest run's); p99: of every request a row sent in a run (the \
         lowest run's). \"runs\": each run's figure, in order. The ratios divide the fastest \
         runs' figures; their \"runs\" divide the two rows of the same run. The targets are \
         read from the paired rounds below where the runs have them, from these ratios \
         otherwise.\n\n",
    );
    let mut header = vec!["clients".to_owned()];
    for (_, title) in CONTENDERS {
        header.push(format!("{title} requests/s"));
        header.push(format!("{title} p99"));
    }
    header.extend(
        [
            "stateless ÷ rmcp best (requests/s)",
            "stateless ÷ session (time per request)",
        ]
        .map(str::to_owned),
    );
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    let mut verdicts = Vec::new();
    let mut cpu_rows = Vec::new();
    for clients in CLIENTS {
        let mut cells = vec![clients.to_string()];
        let rows: Vec<Row> = CONTENDERS
            .iter()
            .map(|(id, _)| row(results, runs, &latencies, &key(clients, id)))
            .collect();
        for row in &rows {
            let rps_runs: Vec<String> = row.rps_runs.iter().map(|r| format!("{r:.0}")).collect();
            cells.push(figure_cell(
                row.rps.map(|rps| format!("{rps:.0}")),
                &rps_runs,
            ));
            cells.push(figure_cell(row.p99.map(micros), &row.p99_runs));
        }
        let (stateless, session, best) = (&rows[0], &rows[1], &rows[2]);
        let over_rmcp = stateless.rps.zip(best.rps).map(|(a, b)| a / b);
        let over_session = stateless.rps.zip(session.rps).map(|(a, b)| b / a);
        let (stateless_key, session_key) = (key(clients, STATELESS), key(clients, SESSION));
        let best_key = key(clients, RMCP_BEST);
        cells.push(ratio_cell(
            over_rmcp,
            &ratios_by_run(runs, &best_key, &stateless_key),
        ));
        cells.push(ratio_cell(
            over_session,
            &ratios_by_run(runs, &stateless_key, &session_key),
        ));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
        verdicts.push((clients, over_rmcp, over_session, stateless.p99, best.p99));
        cpu_rows.push((clients, rows));
    }
    out.push_str(&cpu_table(&cpu_rows));
    let paired = http_paired::load(home);
    let lines: Vec<http_paired::Line> = CLIENTS
        .iter()
        .map(|&clients| http_paired::Line {
            clients,
            over_rmcp: http_paired::ratio(&paired, clients, (STATELESS, RMCP_BEST), OVER_RMCP),
            // A time ratio: the rates' inverse.
            over_session: http_paired::ratio(&paired, clients, (SESSION, STATELESS), OVER_SESSION),
            p99_runs: http_paired::p99_runs(&paired, clients, (STATELESS, RMCP_BEST)),
        })
        .collect();
    out.push_str(&http_paired::table(&lines));
    out.push_str("\nTargets (issue 48):\n\n");
    for ((clients, over_rmcp, over_session, p99, rmcp_p99), line) in
        verdicts.into_iter().zip(&lines)
    {
        let rows_met = over_rmcp.is_some_and(|r| OVER_RMCP.met_by(r))
            && p99.zip(rmcp_p99).is_some_and(|(a, b)| a <= b);
        let rows = format!(
            "{}, p99 {} against {}",
            format_ratio(over_rmcp),
            p99.map_or("—".to_owned(), micros),
            rmcp_p99.map_or("—".to_owned(), micros),
        );
        let p99_runs = format!(
            ", p99 no worse in {} of {} runs",
            line.p99_no_worse(),
            line.p99_runs.len()
        );
        let (rmcp_met, reading) = target_reading(
            line.meets_rmcp().zip(line.over_rmcp.as_ref()),
            &p99_runs,
            (rows_met, rows),
        );
        let (session_met, session_reading) = target_reading(
            line.meets_session().zip(line.over_session.as_ref()),
            "",
            (
                over_session.is_some_and(|r| OVER_SESSION.met_by(r)),
                format_ratio(over_session),
            ),
        );
        let _ = writeln!(
            out,
            "- {clients} clients: mcpwire stateless {OVER_RMCP} rmcp's best requests/s with \
             p99 no worse: {} ({reading}); a stateless POST {OVER_SESSION} a POST in a \
             session: {} ({session_reading})",
            met(rmcp_met),
            met(session_met),
        );
    }
    out.push('\n');
    out
}

/// A target's verdict and what it was read from: the paired rounds when the runs have them
/// (`paired`: their verdict and ratio; `detail` follows the count of rounds), else the rows
/// (`rows`: their verdict and reading).
fn target_reading(
    paired: Option<(bool, &http_paired::Ratio)>,
    detail: &str,
    (rows_met, rows): (bool, String),
) -> (bool, String) {
    match paired {
        Some((met, r)) => (
            met,
            format!(
                "paired rounds: median {} of {} rounds{detail}; the rows' fastest runs: {rows}",
                format_ratio(Some(r.median)),
                r.rounds,
            ),
        ),
        None => (rows_met, rows),
    }
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

/// The server's CPU time per answered request, by concurrency and contender (the rows in
/// [`CONTENDERS`] order), with rmcp's best over mcpwire stateless; nothing when no run read it.
fn cpu_table(rows: &[(usize, Vec<Row>)]) -> String {
    if rows
        .iter()
        .all(|(_, contenders)| contenders.iter().all(|row| row.cpu.is_none()))
    {
        return String::new();
    }
    let mut out = String::from(
        "\nThe server's CPU time per answered request: what the server process used, user and \
         system, all its threads (`/proc/<pid>/stat`, in 10 ms ticks), while a row's requests \
         ran (warm-up included), over the requests it answered; the lowest run's, then each \
         run's. On two cores the load generator takes its share of the machine beside the \
         server, which requests/s include; this is the server's own cost.\n\n",
    );
    let mut header = vec!["clients".to_owned()];
    header.extend(
        CONTENDERS
            .iter()
            .map(|(_, title)| format!("{title} CPU per request")),
    );
    header.push("rmcp best ÷ stateless (CPU per request)".to_owned());
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(header.len()));
    for (clients, contenders) in rows {
        let mut cells = vec![clients.to_string()];
        for row in contenders {
            let runs: Vec<String> = row
                .cpu_runs
                .iter()
                .map(|c| c.map_or("—".to_owned(), |c| format!("{c:.1}")))
                .collect();
            cells.push(figure_cell(
                row.cpu.map(|cpu| format!("{cpu:.1} µs")),
                &runs,
            ));
        }
        let (stateless, best) = (&contenders[0], &contenders[2]);
        let by_run: Vec<f64> = best
            .cpu_runs
            .iter()
            .zip(&stateless.cpu_runs)
            .filter_map(|(rmcp, ours)| Some((*rmcp)? / (*ours)?))
            .collect();
        let ratio = best.cpu.zip(stateless.cpu).map(|(rmcp, ours)| rmcp / ours);
        cells.push(ratio_cell(ratio, &by_run));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

fn micros(us: u64) -> String {
    if us >= 1000 {
        format!("{:.1} ms", us as f64 / 1000.0)
    } else {
        format!("{us} µs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_cell_gives_the_fastest_runs_ratio_then_each_runs_own() {
        let stateless = ("http_load_c64".to_owned(), STATELESS.to_owned());
        let session = ("http_load_c64".to_owned(), SESSION.to_owned());
        let runs: Vec<Results> = [
            (40_000.0, 37_000.0),
            (38_000.0, 28_000.0),
            (37_000.0, 24_000.0),
        ]
        .into_iter()
        .map(|(a, b)| {
            [(stateless.clone(), a), (session.clone(), b)]
                .into_iter()
                .collect()
        })
        .collect();
        let by_run = ratios_by_run(&runs, &stateless, &session);
        let combined = 37_000.0 / 24_000.0;
        assert_eq!(
            ratio_cell(Some(combined), &by_run),
            "1.54× (runs 1.08× / 1.36× / 1.54×)"
        );
        // A run that missed a row has no ratio of its own; one run alone lists none.
        let partial = [
            runs[0].clone(),
            [(stateless.clone(), 1.0)].into_iter().collect(),
        ];
        assert_eq!(ratios_by_run(&partial, &stateless, &session).len(), 1);
        assert_eq!(ratio_cell(Some(combined), &by_run[..1]), "1.54×");
    }

    #[test]
    fn a_row_reads_requests_per_second_and_the_lowest_p99_of_the_runs() {
        let key = ("http_load_c1".to_owned(), STATELESS.to_owned());
        let runs: Vec<Results> = [100_000.0, 50_000.0]
            .into_iter()
            .map(|ns| [(key.clone(), ns)].into_iter().collect())
            .collect();
        let results: Results = [(key.clone(), 50_000.0)].into_iter().collect();
        let latencies = vec![
            parse_latencies("http_load_c1\tmcpwire_stateless\t10\t80\t300\n"),
            parse_latencies("http_load_c1\tmcpwire_stateless\t10\t70\t200\n"),
        ];
        let row = row(&results, &runs, &latencies, &key);
        assert_eq!(row.rps.map(|r| r.round()), Some(20_000.0));
        assert_eq!(row.rps_runs, vec![10_000.0, 20_000.0]);
        assert_eq!(row.p99, Some(200));
        assert_eq!(row.p99_runs, vec![300, 200]);
        // Files written before the bench read the server's CPU time have no such field.
        assert_eq!(row.cpu, None);
        assert_eq!(cpu_table(&[(1, vec![row])]), "");
    }

    #[test]
    fn the_requests_target_is_read_from_the_paired_rounds_when_a_run_has_them() {
        let home = super::super::fixture::ScratchDir::new("paired");
        std::fs::create_dir_all(super::super::runs::dir(&home)).expect("the runs' folder");
        // The rows, seconds apart: 1.25× (rmcp's row ran in a quiet spell), and a stateless
        // POST 1.25× a session POST's time (the session's row did).
        let key = |id: &str| ("http_load_c1".to_owned(), id.to_owned());
        let results: Results = [
            (key(STATELESS), 100_000.0),
            (key(SESSION), 80_000.0),
            (key(RMCP_BEST), 125_000.0),
        ]
        .into_iter()
        .collect();
        let target = |home: &Path| {
            let text = render(&results, std::slice::from_ref(&results), home);
            let line = text.lines().find(|l| l.starts_with("- 1 clients:"));
            line.expect("a target line").to_owned()
        };
        assert_eq!(
            target(&home),
            "- 1 clients: mcpwire stateless ≥ 1.5× rmcp's best requests/s with p99 no worse: \
             NOT met (1.25×, p99 — against —); a stateless POST ≤ 1.2× a POST in a session: \
             NOT met (1.25×)"
        );
        // The rounds, each in the same 750 ms: 1.6×, 1.7× and 1.4× rmcp's requests/s; a
        // session POST's rate 1.1×, 1.0× and 1.2× the stateless one's.
        let mut file = String::new();
        for (round, (ours, session)) in [(16000, 17600), (17000, 17000), (14000, 16800)]
            .into_iter()
            .enumerate()
        {
            let _ = writeln!(file, "round\t1\t{round}\t{STATELESS}\t{ours}");
            let _ = writeln!(file, "round\t1\t{round}\t{SESSION}\t{session}");
            let _ = writeln!(file, "round\t1\t{round}\t{RMCP_BEST}\t10000");
        }
        file.push_str(
            "latency\t1\tmcpwire_stateless\t9\t90\t150\n\
             latency\t1\trmcp_json_response\t9\t150\t230\n",
        );
        std::fs::write(http_paired::file(&home, 1), file).expect("the paired file");
        let line = target(&home);
        assert_eq!(
            line,
            "- 1 clients: mcpwire stateless ≥ 1.5× rmcp's best requests/s with p99 no \
             worse: met (paired rounds: median 1.60× of 3 rounds, p99 no worse in 1 of 1 \
             runs; the rows' fastest runs: 1.25×, p99 — against —); a stateless POST ≤ 1.2× \
             a POST in a session: met (paired rounds: median 1.10× of 3 rounds; the rows' \
             fastest runs: 1.25×)"
        );
    }

    #[test]
    fn the_cpu_table_gives_each_rows_lowest_run_and_rmcps_ratio_run_by_run() {
        let file = |stateless: &str, rmcp: &str| {
            parse_latencies(&format!(
                "http_load_c16\t{STATELESS}\t10\t80\t300\t{stateless}\n\
                 http_load_c16\t{RMCP_BEST}\t10\t90\t400\t{rmcp}\n"
            ))
        };
        // The second run could not read the server's CPU time: its field is empty.
        let latencies = vec![file("50.0", "110.0"), file("", ""), file("40.0", "120.0")];
        let results = Results::new();
        let rows: Vec<Row> = CONTENDERS
            .iter()
            .map(|(id, _)| {
                let key = ("http_load_c16".to_owned(), (*id).to_owned());
                row(&results, &[], &latencies, &key)
            })
            .collect();
        assert_eq!(rows[0].cpu, Some(40.0));
        assert_eq!(rows[0].cpu_runs, vec![Some(50.0), None, Some(40.0)]);
        let table = cpu_table(&[(16, rows)]);
        let line = table.lines().last().expect("a row");
        assert_eq!(
            line,
            "| 16 | 40.0 µs (runs 50.0 / — / 40.0) | — | 110.0 µs (runs 110.0 / — / 120.0) | — \
             | — | 2.75× (runs 2.20× / 3.00×) |"
        );
    }
}
