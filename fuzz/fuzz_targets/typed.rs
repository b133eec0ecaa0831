//! Fuzz target `typed`: see `mcpwire_fuzz::typed` for the oracles.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcpwire_fuzz::typed::check(data));
