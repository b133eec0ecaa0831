//! HTTP under load (issue 48): groups `http_load_c1`, `http_load_c16`, `http_load_c64` (the
//! number of concurrent clients), one function per [`Contender`]: the example's `add` over
//! Streamable HTTP, mcpwire (2026-07-28 stateless; 2025-11-25 in a session) against rmcp 3.11
//! (`json_response` without sessions; its defaults), beside the host's floor (`floor_axum`:
//! axum answering every POST with the same fixed reply, no MCP work at all, on the same
//! runtime and build settings as the rmcp server). One criterion iteration is one request;
//! a sample is `iters` requests shared among the clients (see `mcpwire_benches::http_load`).
//!
//! Needs `MCPWIRE_EXAMPLE_BIN` and `RMCP_SERVER_BIN` (`cargo xtask bench` builds and sets
//! them). With `MCPWIRE_BENCH_HTTP_LATENCY=<file>` it writes, per row, the latency
//! percentiles of every request the row sent and the server's CPU time per answered request
//! (`group\tfunction\trequests\tp50_us\tp99_us\tcpu_us`; the last field empty where
//! `/proc` does not say): what the server process used, user and system, all threads,
//! while the row's requests ran, over the requests answered.
//!
//! With `MCPWIRE_BENCH_HTTP_PAIRED=<file>`, after the rows, mcpwire stateless, mcpwire in a
//! session and rmcp's best are driven again in paired rounds at each concurrency (see
//! `Paired`): a round is a 250 ms slice of each, in every order in turn, so the ratios of a
//! round are read while the machine is the same for all. Each server holds only its own
//! contender's connections: the session load gets a second example process, the same
//! binary with the same arguments. Beside the stateless load on one process, its idle
//! connections would take that process off its path for a lone connection
//! (`http/repoll.rs`): 17% of one client's requests a second, measured with the same build
//! in both places; and at 64 clients the two loads would hold 128 connections from one
//! address, over the example's per-client share. The two processes serve alike: driven with
//! the stateless load each, in the same rounds (a one-off A/A check on 2026-11-30, 12 rounds
//! per concurrency), the second read 1.02×, 1.02× and 0.97× the first at 1, 16 and 64
//! clients. The file gets each round's requests/s and each contender's latency percentiles
//! over its slices.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use mcpwire_benches::http_load::{
    CLIENTS, Contender, HttpChild, Load, Paired, ServerKind, p50, p99,
};

/// The longest one sample may run; a slower server's sample is cut there and extrapolated.
const SAMPLE_LIMIT: Duration = Duration::from_secs(10);

/// Paired rounds per concurrency (`MCPWIRE_BENCH_HTTP_ROUNDS` overrides; a multiple of 6
/// runs each of the three contenders in each order equally often), and each contender's
/// slice of a round.
const PAIRED_ROUNDS: usize = 18;
const PAIRED_SLICE: Duration = Duration::from_millis(250);

fn binary(variable: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os(variable)?);
    assert!(
        path.is_file(),
        "{variable}={} is not a file",
        path.display()
    );
    Some(path)
}

fn http_load(c: &mut Criterion) {
    let (Some(example), Some(rmcp)) = (binary("MCPWIRE_EXAMPLE_BIN"), binary("RMCP_SERVER_BIN"))
    else {
        eprintln!(
            "http_load skipped: set MCPWIRE_EXAMPLE_BIN and RMCP_SERVER_BIN (cargo xtask bench does)"
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut servers = BTreeMap::new();
    for contender in Contender::ALL {
        let kind = contender.server();
        if let std::collections::btree_map::Entry::Vacant(slot) = servers.entry(kind) {
            let path = if kind == ServerKind::Mcpwire {
                &example
            } else {
                &rmcp
            };
            let child = HttpChild::spawn(path, kind.args()).unwrap_or_else(|e| panic!("{e}"));
            slot.insert(child);
        }
    }
    let mut latency = String::new();
    for clients in CLIENTS {
        let name = format!("http_load_c{clients}");
        let mut group = c.benchmark_group(&name);
        group
            .throughput(Throughput::Elements(1))
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10);
        for contender in Contender::ALL {
            let server = &servers[&contender.server()];
            let addr = server.addr;
            // Connected (and checked) outside the timing; dropped before the next row, so no
            // row holds more connections than its clients.
            let mut load = runtime
                .block_on(Load::connect(contender, addr, clients))
                .unwrap_or_else(|e| panic!("{name} {}: {e}", contender.id()));
            let mut latencies = Vec::new();
            // The server's CPU time over the same requests as `latencies` (warm-up included).
            let mut cpu = Some(Duration::ZERO);
            group.bench_function(contender.id(), |b| {
                b.iter_custom(|iters| {
                    let before = server.cpu_time();
                    let measured = runtime
                        .block_on(load.run(iters, SAMPLE_LIMIT, &mut latencies))
                        .unwrap_or_else(|e| panic!("{name} {}: {e}", contender.id()));
                    let used = server
                        .cpu_time()
                        .zip(before)
                        .map(|(after, before)| after.saturating_sub(before));
                    cpu = cpu.zip(used).map(|(sum, used)| sum + used);
                    assert!(measured.done > 0, "{name} {}: no answer", contender.id());
                    // Cut at the limit: the time `iters` requests would have taken at that rate.
                    measured
                        .elapsed
                        .mul_f64(iters as f64 / measured.done as f64)
                })
            });
            let requests = latencies.len();
            let (median, tail) = (p50(&mut latencies), p99(&mut latencies));
            let cpu_per_request = cpu.filter(|_| requests > 0).map_or(String::new(), |cpu| {
                format!("{:.1}", cpu.as_secs_f64() * 1e6 / requests as f64)
            });
            let _ = writeln!(
                latency,
                "{name}\t{}\t{requests}\t{}\t{}\t{cpu_per_request}",
                contender.id(),
                median.unwrap_or(0),
                tail.unwrap_or(0)
            );
            drop(load);
        }
        group.finish();
    }
    if let Some(path) = std::env::var_os("MCPWIRE_BENCH_HTTP_LATENCY") {
        std::fs::write(&path, latency).expect("write the latency file");
    }
    if let Some(path) = std::env::var_os("MCPWIRE_BENCH_HTTP_PAIRED") {
        let text = paired_rounds(&runtime, &servers, &example);
        std::fs::write(&path, text).expect("write the paired rounds file");
    }
}

/// mcpwire stateless, mcpwire in a session and rmcp's best in [`Paired`] rounds at each
/// concurrency: a line `round\t<clients>\t<round>\t<function>\t<requests/s>` per contender
/// and round, then `latency\t<clients>\t<function>\t<requests>\t<p50 µs>\t<p99 µs>` per
/// contender. The session load gets a process of its own, started from `example` here.
fn paired_rounds(
    runtime: &tokio::runtime::Runtime,
    servers: &BTreeMap<ServerKind, HttpChild>,
    example: &std::path::Path,
) -> String {
    let rounds = std::env::var("MCPWIRE_BENCH_HTTP_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(PAIRED_ROUNDS);
    let contenders = [
        Contender::McpwireStateless,
        Contender::McpwireSession,
        Contender::RmcpJson,
    ];
    let session_server = HttpChild::spawn(example, ServerKind::Mcpwire.args())
        .unwrap_or_else(|e| panic!("the session load's server: {e}"));
    let addr_of = |contender: Contender| match contender {
        Contender::McpwireSession => session_server.addr,
        _ => servers[&contender.server()].addr,
    };
    let mut text = String::new();
    for clients in CLIENTS {
        let name = format!("http_load_c{clients}");
        let mut loads: Vec<Load> = contenders
            .iter()
            .map(|&contender| {
                runtime
                    .block_on(Load::connect(contender, addr_of(contender), clients))
                    .unwrap_or_else(|e| panic!("{name} paired {}: {e}", contender.id()))
            })
            .collect();
        let mut paired = runtime
            .block_on(Paired::run(&mut loads, rounds, PAIRED_SLICE))
            .unwrap_or_else(|e| panic!("{name} paired: {e}"));
        for (round, rates) in paired.rounds.iter().enumerate() {
            for (contender, rate) in contenders.iter().zip(rates) {
                let id = contender.id();
                let _ = writeln!(text, "round\t{clients}\t{round}\t{id}\t{rate:.1}");
            }
        }
        for (contender, latencies) in contenders.iter().zip(&mut paired.latencies) {
            let _ = writeln!(
                text,
                "latency\t{clients}\t{}\t{}\t{}\t{}",
                contender.id(),
                latencies.len(),
                p50(latencies).unwrap_or(0),
                p99(latencies).unwrap_or(0),
            );
        }
    }
    text
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
}

criterion_group! {
    name = suite;
    config = config();
    targets = http_load
}
criterion_main!(suite);
