//! The HTTP load generator of the `http_load` bench, by hand (for a profiler beside it):
//!
//! ```text
//! cargo run --release --manifest-path benches/Cargo.toml --example http_load -- \
//!     mcpwire_stateless 127.0.0.1:PORT 16 5
//! ```
//!
//! Arguments: the contender's id (`mcpwire_stateless`, `mcpwire_session`,
//! `rmcp_json_response`, `rmcp_default`: how the requests are spoken), the server's address,
//! the clients, the seconds to run (at most 600). Prints requests/s, p50 and p99.

use std::process::ExitCode;
use std::time::Duration;

use mcpwire_benches::http_load::{Contender, Load, p50, p99};

/// The most requests one run sends.
const MAX_REQUESTS: u64 = 50_000_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [id, addr, clients, seconds] = args.as_slice() else {
        eprintln!("usage: http_load CONTENDER ADDR CLIENTS SECONDS");
        return ExitCode::from(2);
    };
    let Some(contender) = Contender::ALL.into_iter().find(|c| c.id() == id) else {
        eprintln!("http_load: unknown contender {id}");
        return ExitCode::from(2);
    };
    let (Ok(addr), Ok(clients), Ok(seconds)) = (
        addr.parse(),
        clients.parse::<usize>(),
        seconds.parse::<u64>(),
    ) else {
        eprintln!("http_load: ADDR is IP:PORT, CLIENTS and SECONDS numbers");
        return ExitCode::from(2);
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let limit = Duration::from_secs(seconds.min(600));
    let outcome = runtime.block_on(async {
        let mut load = Load::connect(contender, addr, clients).await?;
        let mut latencies = Vec::new();
        let measured = load.run(MAX_REQUESTS, limit, &mut latencies).await?;
        Ok::<_, String>((measured, latencies))
    });
    match outcome {
        Ok((measured, mut latencies)) => {
            println!(
                "{id} clients={clients} requests={} requests/s={:.0} p50={}µs p99={}µs",
                measured.done,
                measured.done as f64 / measured.elapsed.as_secs_f64(),
                p50(&mut latencies).unwrap_or(0),
                p99(&mut latencies).unwrap_or(0)
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("http_load: {e}");
            ExitCode::FAILURE
        }
    }
}
