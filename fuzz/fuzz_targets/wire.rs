//! Fuzz target `wire`: see `mcpwire_fuzz::wire` for the oracles.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcpwire_fuzz::wire::check(data));
