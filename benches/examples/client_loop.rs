//! A loop over one client row, for profilers (`perf record -g`): `cargo build --profile bench
//! --manifest-path benches/Cargo.toml --example client_loop`, then `client_loop <row>
//! <client> <iterations>`, where the row is `list` (every page of the 500-tool `tools/list`,
//! as `client_tools_list_500`) or `call` (one `tools/call` of `add`, as `client_tool_call`)
//! and the client one of `mcpwire_client`, `rmcp_client`.

use mcpwire_benches::catalogue_server::TOOLS;
use mcpwire_benches::clients::ClientContender;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args.get(1).map_or("list", String::as_str);
    let name = args.get(2).map_or("mcpwire_client", String::as_str);
    let iterations: u64 = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(200);
    let contender = ClientContender::connect(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let start = std::time::Instant::now();
    for _ in 0..iterations {
        match row {
            "list" => assert_eq!(contender.list_all_tools(), Ok(TOOLS)),
            "call" => assert_eq!(contender.call_add(), Ok(42)),
            other => panic!("no row {other}"),
        }
    }
    let elapsed = start.elapsed();
    println!(
        "{row} {name} x{iterations}: {:.3} µs per run",
        elapsed.as_secs_f64() * 1e6 / iterations as f64
    );
}
