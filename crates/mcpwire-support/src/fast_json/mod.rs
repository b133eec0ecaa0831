//! The fast JSON building blocks both JSON scanners of the workspace share: eight bytes at a
//! time in a `u64` word ([`words`]), 64 bytes at a time as one bit per byte ([`lanes`] with
//! SSE2 on x86_64, [`escapes`] for which bytes a backslash escapes), and JSON whitespace.
//!
//! A serde deserializer built on them ([`from_str`], [`try_from_str`]): JSON text decoded as
//! serde_json decodes it, with strings found and copied 64 bytes at a time (`de.rs`,
//! `string.rs`, `number.rs`).
//!
//! The scanners built on them: this crate's skip-scanner for text serde_json already
//! validated (`scan.rs`, `structure.rs`: where values end, whether every member is an object)
//! and the validating scanner of the `mcpwire` crate (`mcpwire::scan`: RFC 8259 with errors at
//! their offsets, and its AVX2 and AVX-512 classifiers). All safe Rust: the SSE2 intrinsics are
//! safe_arch's safe functions.

mod de;
pub use de::{from_str, try_from_str, try_from_str_prefix};
pub mod escapes;
#[cfg(target_arch = "x86_64")]
pub mod lanes;
mod number;
mod string;
pub mod words;

/// Bytes per block of the 64-byte scans: one bit per byte in a `u64`.
pub const BLOCK: usize = 64;

/// The index of the first byte at or after `at` that is not JSON whitespace (space, tab, line
/// feed, carriage return); `bytes.len()` when there is none.
///
/// ```
/// use mcpwire_support::fast_json::skip_whitespace;
/// assert_eq!(skip_whitespace(b" \t\r\n1", 0), 4);
/// assert_eq!(skip_whitespace(b"  ", 1), 2);
/// ```
#[inline]
pub fn skip_whitespace(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}
