//! A loop over one contender on one frame, for profilers (`valgrind --tool=callgrind`,
//! `perf stat`): `cargo build --release --manifest-path benches/Cargo.toml --example
//! envelope_loop`, then `envelope_loop <frame> <contender> <iterations>` (contender ids as in
//! the criterion groups: `mcpwire_envelope`, `floor_ignored_any`, `rmcp`, ...).

use mcpwire_benches::contenders::Contender;
use mcpwire_benches::messages;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frame = args.get(1).map_or("resources_read_100k", String::as_str);
    let contender = args.get(2).map_or("mcpwire_envelope", String::as_str);
    let iterations: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(1000);
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
