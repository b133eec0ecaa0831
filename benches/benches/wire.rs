//! The criterion suite of issue 6. Groups (directory names under `target/criterion/`):
//!
//! - `decode_<message>`: every [`Contender`] on the same frame bytes;
//! - `typed_breakdown`: the pieces of the typed decode of the 100 KB `resources/read` frame;
//! - `typed_breakdown_tools_list`: the pieces of the typed decode of the 5 KB `tools/list`
//!   result (the parse, the `properties` maps, the owned result's heap work);
//! - `client_path_<frame>` (issue 15): a response frame typed by its pending request through
//!   `Peer::receive` (single pass) and `Peer::receive_two_pass`, and its result text alone;
//! - `reply_success`, `reply_error`: reply serialization, mcpwire and rmcp;
//! - `serve_e2e`: messages per second through `mcpwire serve` over pipes (needs `MCPWIRE_BIN`);
//! - `tool_call_in_process`, `tool_call_stdio` (issue 13): one `tools/call` of `add` and its
//!   reply, mcpwire-server against rmcp, in this process over a duplex pipe and as child
//!   processes over stdio (needs `MCPWIRE_EXAMPLE_BIN` and `RMCP_SERVER_BIN`), and
//!   `tool_call_stdio_sockets`: over stdio that is a UNIX socket pair, as Node spawns a child;
//! - `notification_stream_in_process`, `notification_stream_stdio`,
//!   `notification_stream_stdio_sockets` (issue 15): 10,000
//!   `notifications/roots/list_changed` and a closing `ping`, timed per stream, same servers;
//! - `client_tool_call`, `client_tools_list_500` (issue 31): mcpwire-client against rmcp's
//!   client on the same in-process server (`clients`): one `tools/call` of `add`, and every
//!   page of a 500-tool `tools/list`;
//! - `server_tools_list_500` (issue 48, `rows/listing.rs`): every page of a 500-tool
//!   `tools/list`, mcpwire-server against rmcp's server with the same tools.
//!
//! With `MCPWIRE_BENCH_OUTCOMES=<file>`, it first writes what every contender made of every
//! frame (tab-separated) so the report can show correctness next to speed.

#[path = "rows/listing.rs"]
mod listing_rows;

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{
    BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use mcpwire::{Id, MissingId, RpcError, reply};
use mcpwire_benches::breakdown::{self, Pieces, ToolsListPieces};
use mcpwire_benches::catalogue_server::TOOLS;
use mcpwire_benches::child::ChildServer;
use mcpwire_benches::client::{self, ClientFrame};
use mcpwire_benches::clients::{self, ClientContender};
use mcpwire_benches::contenders::Contender;
use mcpwire_benches::conversation;
use mcpwire_benches::in_process::InProcess;
use mcpwire_benches::line_peer::{self, LinePeer};
use mcpwire_benches::messages::{self, BenchMessage};
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

    let pieces = ToolsListPieces::tools_list_result();
    let mut group = c.benchmark_group("typed_breakdown_tools_list");
    for (step, _) in breakdown::TOOLS_LIST_STEPS {
        assert!(
            pieces.run(step),
            "typed_breakdown_tools_list step {step} failed"
        );
        group.bench_function(step, |b| b.iter(|| pieces.run(step)));
    }
    group.finish();
}

/// The client path (issue 15): `client_path_<frame>` groups, one function per way.
fn client_groups(c: &mut Criterion) {
    for frame in ClientFrame::all() {
        let mut group = c.benchmark_group(format!("client_path_{}", frame.name));
        group.throughput(Throughput::Bytes(frame.frame.len() as u64));
        if frame.frame.len() > 64 * 1024 {
            group.sampling_mode(SamplingMode::Flat).sample_size(20);
        }
        for way in client::WAYS {
            assert!(
                frame.run(way, &mut frame.client()),
                "client_path {} {way} did not produce the typed result",
                frame.name
            );
            group.bench_function(way, |b| {
                b.iter_batched_ref(
                    || frame.client(),
                    |peer| frame.run(way, peer),
                    BatchSize::SmallInput,
                )
            });
        }
        group.finish();
    }
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
            let reply = ChildServer::spawn(&binary, &SERVE_ARGS)
                .and_then(|mut serve| {
                    serve
                        .round_trip(&frame)
                        .map(|line| String::from_utf8_lossy(line).into_owned())
                })
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
const SERVE_ARGS: [&str; 3] = ["serve", "--profile", "mcp-2025-11-25"];

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
        let mut serve = ChildServer::spawn(&binary, &SERVE_ARGS).expect("spawn mcpwire serve");
        let reply = serve.round_trip(&frame).expect("a reply").to_vec();
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

/// A child-process server binary named by `variable`, or `None` when the variable is unset;
/// a variable naming no file stops the run, saying which command builds it.
fn server_binary(variable: &str, build: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os(variable)?);
    assert!(
        path.is_file(),
        "{variable}={} is not a file: build it with `{build}` (cargo xtask bench builds it and sets {variable})",
        path.display()
    );
    Some(path)
}

const EXAMPLE_BUILD: &str = "cargo build --release -p mcpwire-server --example mcp_server";
const RMCP_SERVER_BUILD: &str =
    "cargo build --release --manifest-path benches/rmcp-server/Cargo.toml";

/// Appends one line to the outcomes file (`MCPWIRE_BENCH_OUTCOMES`, written first by
/// [`decode_groups`]), if there is one.
fn append_outcome(frame: &str, decoder: &str, outcome: &str) {
    let Some(path) = std::env::var_os("MCPWIRE_BENCH_OUTCOMES") else {
        return;
    };
    let text = truncate(&outcome.replace(['\t', '\n'], " "), 200);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .expect("open the outcomes file");
    writeln!(file, "{frame}\t{decoder}\t{text}").expect("append to the outcomes file");
}

/// The servers of one transport, each initialized once: (function id, connection).
type Contestants = Vec<(&'static str, Box<dyn LinePeer>)>;

/// Issue 13: one `tools/call` of `add` and its reply per iteration, after checking the reply
/// once. Issue 15: one stream of 10,000 notifications and a `ping` per iteration, after
/// checking that the servers answer the `ping` and nothing else.
fn end_to_end_rows(c: &mut Criterion, transport: &str, mut contestants: Contestants) {
    for (name, peer) in &mut contestants {
        line_peer::initialize(peer.as_mut())
            .unwrap_or_else(|e| panic!("{name} over {transport}: {e}"));
        let reply = line_peer::checked_add(peer.as_mut())
            .unwrap_or_else(|e| panic!("{name} over {transport}: {e}"));
        append_outcome(&format!("e2e_add_{transport}"), name, &reply);
        let reply = line_peer::checked_stream(peer.as_mut())
            .unwrap_or_else(|e| panic!("{name} over {transport}: {e}"));
        append_outcome(&format!("e2e_stream_{transport}"), name, &reply);
    }

    let mut group = c.benchmark_group(format!("tool_call_{transport}"));
    group.throughput(Throughput::Elements(1));
    let call = conversation::add_call();
    for (name, peer) in &mut contestants {
        group.bench_function(*name, |b| {
            b.iter(|| {
                let reply = peer.round_trip(&call).expect("a reply to tools/call");
                std::hint::black_box(reply.len())
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group(format!("notification_stream_{transport}"));
    group
        .throughput(Throughput::Elements(
            conversation::NOTIFICATIONS_PER_STREAM as u64 + 1,
        ))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10);
    let stream = conversation::notification_stream();
    for (name, peer) in &mut contestants {
        group.bench_function(*name, |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let (elapsed, before) = peer
                            .stream(&stream, conversation::is_stream_end)
                            .expect("the stream's closing ping is answered");
                        assert_eq!(before, 0, "{name} answered a notification");
                        elapsed
                    })
                    .sum()
            })
        });
    }
    group.finish();
}

fn in_process_group(c: &mut Criterion) {
    end_to_end_rows(
        c,
        "in_process",
        vec![
            ("mcpwire", Box::new(InProcess::mcpwire())),
            ("rmcp", Box::new(InProcess::rmcp())),
        ],
    );
}

fn stdio_group(c: &mut Criterion) {
    let example = server_binary("MCPWIRE_EXAMPLE_BIN", EXAMPLE_BUILD);
    let rmcp = server_binary("RMCP_SERVER_BIN", RMCP_SERVER_BUILD);
    let (Some(example), Some(rmcp)) = (example, rmcp) else {
        eprintln!(
            "tool_call_stdio and notification_stream_stdio skipped: set MCPWIRE_EXAMPLE_BIN (`{EXAMPLE_BUILD}`) and RMCP_SERVER_BIN (`{RMCP_SERVER_BUILD}`); cargo xtask bench does"
        );
        return;
    };
    let spawn = |binary: &PathBuf, args: &[&str]| {
        ChildServer::spawn(binary, args)
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()))
    };
    let spawn_on_sockets = |binary: &PathBuf| {
        ChildServer::spawn_on_sockets(binary, &[])
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()))
    };
    end_to_end_rows(
        c,
        "stdio",
        // rmcp as most servers run it (`stdio()`: tokio's Stdin and Stdout, on the blocking
        // pool) and at its best (`stdio_pipes()`: the pipes polled, as mcpwire does).
        vec![
            ("mcpwire", Box::new(spawn(&example, &[]))),
            ("rmcp", Box::new(spawn(&rmcp, &[]))),
            ("rmcp_pipes", Box::new(spawn(&rmcp, &["--stdio-pipes"]))),
        ],
    );
    // As Node's `child_process` connects a child (a UNIX socket pair each for stdin and
    // stdout): rmcp's `stdio()` reads and writes them on the blocking pool; its
    // `stdio_pipes()` takes pipes only.
    end_to_end_rows(
        c,
        "stdio_sockets",
        vec![
            ("mcpwire", Box::new(spawn_on_sockets(&example))),
            ("rmcp", Box::new(spawn_on_sockets(&rmcp))),
        ],
    );
}

/// Issue 31: the two clients, each checked once (the sum, the whole list) before timing.
fn client_rows(c: &mut Criterion) {
    let contenders: Vec<(&str, ClientContender)> = clients::CLIENTS
        .iter()
        .map(|&name| {
            let contender =
                ClientContender::connect(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(contender.call_add(), Ok(42), "{name}: tools/call add");
            let listed = contender.list_all_tools();
            assert_eq!(listed, Ok(TOOLS), "{name}: tools/list");
            (name, contender)
        })
        .collect();

    let mut group = c.benchmark_group("client_tool_call");
    group.throughput(Throughput::Elements(1));
    for (name, contender) in &contenders {
        group.bench_function(*name, |b| b.iter(|| contender.call_add()));
    }
    group.finish();

    let mut group = c.benchmark_group("client_tools_list_500");
    group.throughput(Throughput::Elements(TOOLS as u64));
    for (name, contender) in &contenders {
        group.bench_function(*name, |b| b.iter(|| contender.list_all_tools()));
    }
    group.finish();
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
    targets = decode_groups, breakdown_group, client_groups, reply_groups, serve_group, in_process_group, stdio_group, client_rows, listing_rows::server_listing_rows
}
criterion_main!(suite);
