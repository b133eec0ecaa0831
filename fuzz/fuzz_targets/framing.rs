//! Fuzz target `framing`: see `mcpwire_fuzz::framing` for the oracles.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcpwire_fuzz::framing::check(data));
