//! Throughput of the scanner and the decoder against `serde_json::from_slice::<IgnoredAny>`
//! (which skips ignored values without checking their UTF-8, so it does less work than a
//! strict scanner on non-ASCII text).
//!
//! Run with `cargo run --release -p mcpwire --example throughput`. Ratios above 1 mean
//! mcpwire is slower than the serde_json baseline.

use std::hint::black_box;
use std::time::Instant;

use serde::de::IgnoredAny;

fn seconds(iterations: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed().as_secs_f64()
}

fn bench(name: &str, frame: &[u8]) {
    let profile = mcpwire::Profile::jsonrpc_2_0();
    let iterations = (100_000_000 / frame.len()).max(10);
    let mut best = [f64::MAX; 3];
    for _ in 0..5 {
        best[0] = best[0].min(seconds(iterations, || {
            black_box(serde_json::from_slice::<IgnoredAny>(black_box(frame)).expect("valid JSON"));
        }));
        best[1] = best[1].min(seconds(iterations, || {
            black_box(mcpwire::scan::validate(black_box(frame)).expect("valid JSON"));
        }));
        best[2] = best[2].min(seconds(iterations, || {
            black_box(mcpwire::decode(black_box(frame), &profile));
        }));
    }
    let megabytes = (frame.len() * iterations) as f64 / 1e6;
    println!(
        "{name:>8} {:>9} B  serde_json {:>6.0} MB/s  scan {:>6.0} MB/s ({:.2}x)  decode {:>6.0} MB/s ({:.2}x)",
        frame.len(),
        megabytes / best[0],
        megabytes / best[1],
        best[1] / best[0],
        megabytes / best[2],
        best[2] / best[0],
    );
}

fn main() {
    bench(
        "small",
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
    );

    let mut medium =
        String::from(r#"{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"items":["#);
    for i in 0..200 {
        if i > 0 {
            medium.push(',');
        }
        medium.push_str(&format!(
            r#"{{"name":"item {i}","value":{i}.5,"tags":["a","b\n"],"ok":true,"n":null}}"#
        ));
    }
    medium.push_str("]}}");
    bench("medium", medium.as_bytes());

    let text = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":{{"text":"{}"}}}}"#,
        "lorem ipsum ".repeat(100_000)
    );
    bench("strings", text.as_bytes());

    let numbers: Vec<String> = (0..100_000u64).map(|i| (i * 7919).to_string()).collect();
    let numbers = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":[{}]}}"#,
        numbers.join(",")
    );
    bench("numbers", numbers.as_bytes());

    let unicode = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":{{"t":"{}"}}}}"#,
        "héllo wörld ✓ ".repeat(50_000)
    );
    bench("unicode", unicode.as_bytes());

    let nested = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":{}1{}}}"#,
        r#"{"a":["#.repeat(100),
        "]}".repeat(100)
    );
    bench("nested", nested.as_bytes());
}
