#!/usr/bin/env bash
# Measures what issue 13 asks of a one-version dependent: the cold `cargo test` build of a crate
# that uses mcpwire and mcpwire-proptest with only the MCP 2025-11-25 types (one test using
# `typed::mcp_request` and `check_server`): builds and runs its tests. Prints wall time, CPU
# time and peak memory.
#
#   scripts/measure-one-version-build.sh            # the dependent in a temporary directory
#   KEEP=1 scripts/measure-one-version-build.sh     # keep it (the path is printed)
#
# Run it on an otherwise idle machine: the wall time is what a 2-core user waits.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/mcpwire-one-version.XXXXXX)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

mkdir -p "$dir/src" "$dir/tests"
cat >"$dir/Cargo.toml" <<TOML
[package]
name = "one-version-dependent"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
mcpwire = { path = "$root/crates/mcpwire" }
mcpwire-types = { path = "$root/crates/mcpwire-types", default-features = false, features = ["v2025_11_25"] }
serde_json = "1"

[dev-dependencies]
mcpwire-proptest = { path = "$root/crates/mcpwire-proptest", default-features = false, features = ["v2025_11_25"] }
proptest = "1"
TOML
cp "$root/Cargo.lock" "$dir/Cargo.lock"
cat >"$dir/src/lib.rs" <<'RS'
//! A server of one method, as a user of mcpwire would write it.
use mcpwire::{CallContext, Profile, Router, RpcError, Server};

/// A fresh server.
pub fn make_server() -> Server<()> {
    let router = Router::new().request("ping", |_: &(), _: (), _: &mut CallContext<'_>| {
        Ok::<_, RpcError>(serde_json::json!({}))
    });
    Server::new(Profile::mcp("2025-11-25").unwrap(), (), router)
}
RS
cat >"$dir/tests/wire.rs" <<'RS'
use mcpwire_proptest::{ServerCheck, Vocabulary, check_server, typed};
use mcpwire_types::facts::MCP_2025_11_25;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

#[test]
fn typed_requests_of_the_version() {
    let strategy = typed::mcp_request(&MCP_2025_11_25, Vocabulary::DEFAULT).expect("compiled in");
    let mut runner = TestRunner::default();
    let _ = strategy.new_tree(&mut runner).unwrap().current();
}

#[test]
fn a_fresh_server_per_case() {
    let vocabulary = Vocabulary { known: &["ping"], unknown: Vocabulary::DEFAULT.unknown };
    let make = || {
        let mut server = one_version_dependent::make_server();
        move |frame: &[u8]| server.handle_frame(frame).into_iter().collect::<Vec<_>>()
    };
    check_server(make, &MCP_2025_11_25, vocabulary, &ServerCheck::with_cases(16)).unwrap();
}
RS
echo "dependent: $dir"
cd "$dir"
/usr/bin/time -f 'wall %e s, user %U s, system %S s, peak resident %M KiB' \
  cargo test -j2 --quiet 2>&1 | tail -8
echo "libmcpwire_types: $(du -h target/debug/deps/libmcpwire_types-*.rlib | cut -f1)"
