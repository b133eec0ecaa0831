//! A loop over one contender on one frame, for profilers (`valgrind --tool=callgrind`,
//! `perf stat`): `cargo build --release --manifest-path benches/Cargo.toml --example
//! envelope_loop`, then `envelope_loop <frame> <contender> <iterations>` (contender ids as in
//! the criterion groups: `mcpwire_envelope`, `floor_ignored_any`, `rmcp`, ...). A client way
//! (`result_alone`, `peer_single_pass`, `peer_two_pass`, `floor_frame`, `rmcp_frame`, as in the `client_path_<frame>`
//! groups) in place of the contender loops over that way on the frame's response, a fresh
//! peer per iteration (made outside the timed span only by criterion, not here).

use mcpwire_benches::client::{self, ClientFrame};
use mcpwire_benches::contenders::Contender;
use mcpwire_benches::messages;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frame = args.get(1).map_or("resources_read_100k", String::as_str);
    let contender = args.get(2).map_or("mcpwire_envelope", String::as_str);
    let iterations: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(1000);
    if client::WAYS.contains(&contender) {
        return client_loop(frame, contender, iterations);
    }
    let message = messages::all()
        .into_iter()
        .find(|m| m.name == frame)
        .unwrap_or_else(|| panic!("no frame {frame}"));
    let contender = Contender::ALL
        .into_iter()
        .find(|c| c.id() == contender)
        .unwrap_or_else(|| panic!("no contender {contender}"));
    let start = std::time::Instant::now();
    for _ in 0..iterations {
        contender.run(std::hint::black_box(&message));
    }
    let elapsed = start.elapsed();
    println!(
        "{frame} {} x{iterations}: {:.3} µs per run",
        contender.id(),
        elapsed.as_secs_f64() * 1e6 / iterations as f64
    );
}

/// Loops over one way of the client path on the response `frame`.
fn client_loop(frame: &str, way: &str, iterations: u64) {
    let response = ClientFrame::all()
        .into_iter()
        .find(|f| f.name == frame)
        .unwrap_or_else(|| panic!("no response frame {frame}"));
    // `result_alone` ignores the peer: one serves every iteration.
    let mut idle = response.client();
    let start = std::time::Instant::now();
    for _ in 0..iterations {
        let mut fresh;
        let peer = if way == "result_alone" {
            &mut idle
        } else {
            fresh = response.client();
            &mut fresh
        };
        assert!(response.run(way, std::hint::black_box(peer)));
    }
    let elapsed = start.elapsed();
    println!(
        "{frame} {way} x{iterations}: {:.3} µs per run",
        elapsed.as_secs_f64() * 1e6 / iterations as f64
    );
}
