//! The criterion suite of issue 6. Groups (directory names under `target/criterion/`):
//!
//! - `decode_<message>`: every [`Contender`] on the same frame bytes;
//! - `typed_breakdown`: the pieces of the typed decode of the 100 KB `resources/read` frame;
//! - `reply_success`, `reply_error`: reply serialization, mcpwire and rmcp;
//! - `serve_e2e`: messages per second through `mcpwire serve` over pipes (needs `MCPWIRE_BIN`).
//!
//! With `MCPWIRE_BENCH_OUTCOMES=<file>`, it first writes what every contender made of every
//! frame (tab-separated) so the report can show correctness next to speed.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use mcpwire::{Id, MissingId, RpcError, reply};
use mcpwire_benches::breakdown::{self, Pieces};
use mcpwire_benches::contenders::Contender;
use mcpwire_benches::messages::{self, BenchMessage};
use mcpwire_benches::serve::ServeProcess;
use mcpwire_types::mcp::v2025_11_25 as generated;

/// The result both reply benchmarks serialize: what the reference `echo` tool returns.
const CALL_RESULT: &str = r#"{"content":[{"type":"text","text":"The quick brown fox jumps over the lazy dog; mcpwire keeps every id exactly as sent."}],"isError":false}"#;

fn decode_groups(c: &mut Criterion) {
    let set = messages::all();
    if let Some(path) = std::env::var_os("MCPWIRE_BENCH_OUTCOMES") {
        write_outcomes(&PathBuf::from(path), &set);
    }
    for message in &set {
        let mut group = c.benchmark_group(format!("decode_{}", message.name));
        group.throughput(Throughput::Bytes(message.bytes.len() as u64));
        if message.bytes.len() > 64 * 1024 {
            group.sampling_mode(SamplingMode::Flat).sample_size(20);
        }
        for contender in Contender::ALL {
            group.bench_function(contender.id(), |b| b.iter(|| contender.run(message)));
        }
        group.finish();
    }
}

fn breakdown_group(c: &mut Criterion) {
    let pieces = Pieces::resources_read_100k();
    let mut group = c.benchmark_group("typed_breakdown");
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    for (step, _) in breakdown::STEPS {
        assert!(pieces.run(step), "typed_breakdown step {step} failed");
        group.bench_function(step, |b| b.iter(|| pieces.run(step)));
    }
    group.finish();
}

fn write_outcomes(path: &PathBuf, set: &[BenchMessage]) {
    let mut out = String::new();
    for message in set {
        for contender in Contender::ALL {
            let text = contender.describe(message).replace(['\t', '\n'], " ");
            out.push_str(&format!("{}\t{}\t{}\n", message.name, contender.id(), text));
        }
    }
    if let Some(binary) = mcpwire_bin() {
        for (name, frame) in e2e_frames() {
            let reply = ServeProcess::spawn(&binary, &SERVE_ARGS)
                .and_then(|mut serve| serve.round_trip(&frame))
                .map(|line| String::from_utf8_lossy(&line).into_owned())
                .unwrap_or_else(|e| format!("error: {e}"));
            out.push_str(&format!(
                "serve_{name}\tmcpwire_serve\t{}\n",
                truncate(&reply, 160)
            ));
        }
    }
    std::fs::write(path, out).expect("write the outcomes file");
}

fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn reply_groups(c: &mut Criterion) {
    let id = Id::parse("42").expect("an integer id");
    let rmcp_id = rmcp::model::RequestId::Number(42);

    let mut group = c.benchmark_group("reply_success");
    let ours: generated::CallToolResult =
        serde_json::from_str(CALL_RESULT).expect("2025-11-25 CallToolResult");
    let theirs = rmcp::model::ServerJsonRpcMessage::response(
        rmcp::model::ServerResult::CallToolResult(
            serde_json::from_str(CALL_RESULT).expect("rmcp CallToolResult"),
        ),
        rmcp_id.clone(),
    );
    group.bench_function("mcpwire_typed", |b| {
        b.iter(|| reply::success_reply(std::hint::black_box(&id), std::hint::black_box(&ours)))
    });
    group.bench_function("mcpwire_raw", |b| {
        let mut out = Vec::with_capacity(256);
        b.iter(|| {
            out.clear();
            reply::write_success(
                &mut out,
                std::hint::black_box(&id),
                std::hint::black_box(CALL_RESULT),
            );
            std::hint::black_box(&out);
        })
    });
    group.bench_function("rmcp", |b| {
        b.iter(|| serde_json::to_vec(std::hint::black_box(&theirs)))
    });
    group.finish();

    let mut group = c.benchmark_group("reply_error");
    let error = RpcError::invalid_request();
    let theirs = rmcp::model::ServerJsonRpcMessage::error(
        rmcp::model::ErrorData::invalid_request("Invalid Request", None),
        Some(rmcp_id),
    );
    group.bench_function("mcpwire", |b| {
        b.iter(|| {
            reply::error_reply(
                Some(std::hint::black_box(&id)),
                std::hint::black_box(&error),
                MissingId::Omit,
            )
        })
    });
    group.bench_function("rmcp", |b| {
        b.iter(|| serde_json::to_vec(std::hint::black_box(&theirs)))
    });
    group.finish();
}

fn mcpwire_bin() -> Option<PathBuf> {
    std::env::var_os("MCPWIRE_BIN")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
}

/// `mcpwire serve` runs under the profile the decode benchmarks use.
const SERVE_ARGS: [&str; 2] = ["--profile", "mcp-2025-11-25"];

fn e2e_frames() -> [(&'static str, Vec<u8>); 2] {
    [
        ("ping", messages::ping().into_bytes()),
        ("tools_call", messages::tools_call().into_bytes()),
    ]
}

fn serve_group(c: &mut Criterion) {
    let Some(binary) = mcpwire_bin() else {
        eprintln!(
            "serve_e2e skipped: set MCPWIRE_BIN to a built `mcpwire` binary (cargo xtask bench does)"
        );
        return;
    };
    let mut group = c.benchmark_group("serve_e2e");
    group.throughput(Throughput::Elements(1));
    for (name, frame) in e2e_frames() {
        let mut serve = ServeProcess::spawn(&binary, &SERVE_ARGS).expect("spawn mcpwire serve");
        let reply = serve.round_trip(&frame).expect("a reply");
        assert!(
            reply.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":")
                && !reply.windows(8).any(|w| w == b"\"error\":"),
            "mcpwire serve answered {}",
            String::from_utf8_lossy(&reply)
        );
        // One criterion iteration is one message; a sample pumps `iters` of them at once.
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter_custom(|iters| {
                serve
                    .pump(&frame, iters)
                    .expect("pump frames through mcpwire serve")
            })
        });
    }
    group.finish();
    let _ = std::io::stderr().flush();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .without_plots()
}

criterion_group! {
    name = suite;
    config = config();
    targets = decode_groups, breakdown_group, reply_groups, serve_group
}
criterion_main!(suite);
