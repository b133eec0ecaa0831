//! The rows of issue 48, compiled into the `wire` harness: `server_tools_list_500`, every page
//! of a 500-tool `tools/list` served by mcpwire-server and by rmcp's server with the same tools
//! ([`mcpwire_benches::server_listing`]), each checked once before timing.

use criterion::{Criterion, Throughput};
use mcpwire_benches::catalogue_server::TOOLS;
use mcpwire_benches::server_listing::ListingContender;

/// `server_tools_list_500`: one iteration lists every page of the 500 tools.
pub fn server_listing_rows(c: &mut Criterion) {
    let mut contenders =
        ListingContender::both().unwrap_or_else(|e| panic!("server_tools_list_500: {e}"));
    let mut group = c.benchmark_group("server_tools_list_500");
    group.throughput(Throughput::Elements(TOOLS as u64));
    for (name, contender) in &mut contenders {
        group.bench_function(*name, |b| b.iter(|| contender.list_all()));
    }
    group.finish();
}
