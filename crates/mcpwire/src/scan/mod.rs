//! A strict, non-recursive RFC 8259 validator over bytes.
//!
//! The scanner never uses the call stack for nesting: containers are tracked with a bit
//! stack (one bit per level, the first 64 levels inline), so a value nested 100,000 deep
//! costs a few kilobytes and no recursion. It rejects everything RFC 8259 rejects: `NaN`,
//! `Infinity`, leading zeros, trailing commas, raw control characters and bad escapes in
//! strings, invalid UTF-8, and (for [`validate`]) trailing non-whitespace.
//!
//! ```
//! use mcpwire::scan::{validate, ScanErrorKind};
//!
//! let info = validate(br#" {"a": [1, 2, {"b": null}]} "#).unwrap();
//! assert_eq!(info.depth, 3);
//! assert_eq!(validate(b"[1,]").unwrap_err().kind, ScanErrorKind::UnexpectedByte);
//! assert_eq!(validate(b"01").unwrap_err().kind, ScanErrorKind::LeadingZero);
//! ```

mod bit_stack;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod blocks;
mod error;
mod number;
mod string;
#[cfg(test)]
mod tests;
mod unescape;
mod words;

use bit_stack::BitStack;
use error::err;
pub use error::{ScanError, ScanErrorKind};
pub use number::scan_number;
pub use string::{StringInfo, scan_string};
pub use unescape::{has_unpaired_surrogate, unescape};

/// The extent of one scanned value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ValueInfo {
    /// Offset of the value's first byte.
    pub start: usize,
    /// Offset just past the value's last byte.
    pub end: usize,
    /// Deepest container nesting inside the value: 0 for a scalar, 1 for `{}` or `[1]`.
    pub depth: usize,
}

pub use mcpwire_types::support::fast_json::skip_whitespace;

/// `bytes` as text when they are UTF-8, or an [`InvalidUtf8`](ScanErrorKind::InvalidUtf8)
/// error at the first byte that is not.
///
/// The same answer as [`std::str::from_utf8`], faster on long input: the check is
/// vectorised (`simdutf8`, with AVX2 or NEON when the CPU has it), and the standard library
/// only runs to locate the error.
///
/// ```
/// use mcpwire::scan::{utf8, ScanErrorKind};
///
/// assert_eq!(utf8("é".as_bytes()).unwrap(), "é");
/// let error = utf8(b"ok \xff").unwrap_err();
/// assert_eq!((error.kind, error.offset), (ScanErrorKind::InvalidUtf8, 3));
/// ```
pub fn utf8(bytes: &[u8]) -> Result<&str, ScanError> {
    crate::split::trace_read(crate::split::Read::Utf8, bytes.len());
    simdutf8::basic::from_utf8(bytes).map_err(|_| {
        let valid_up_to = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len);
        err(ScanErrorKind::InvalidUtf8, valid_up_to)
    })
}

/// Validates that `bytes` is UTF-8 and exactly one JSON value surrounded by optional
/// whitespace.
pub fn validate(bytes: &[u8]) -> Result<ValueInfo, ScanError> {
    utf8(bytes)?;
    let start = skip_whitespace(bytes, 0);
    let info = scan_value(bytes, start)?;
    let rest = skip_whitespace(bytes, info.end);
    if rest != bytes.len() {
        return Err(err(ScanErrorKind::TrailingCharacters, rest));
    }
    Ok(info)
}

/// Scans one JSON value starting exactly at `start` (no leading whitespace) and returns
/// its extent and nesting depth. Bytes after the value are not examined.
///
/// UTF-8 is not checked here: bytes of 0x80 and above are accepted inside strings (and
/// rejected elsewhere as unexpected). Pass the bytes of a `&str`, or use [`validate`],
/// which checks UTF-8 first. Keeping the two apart means a frame is UTF-8-checked once.
pub fn scan_value(bytes: &[u8], start: usize) -> Result<ValueInfo, ScanError> {
    let mut pos = start;
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    let mut stack = BitStack::new();

    'value: loop {
        // Expect a value at `pos`.
        let Some(&b) = bytes.get(pos) else {
            return Err(err(ScanErrorKind::UnexpectedEnd, pos));
        };
        match b {
            b'{' => {
                depth += 1;
                max_depth = max_depth.max(depth);
                stack.set(depth, true);
                pos = skip_whitespace(bytes, pos + 1);
                match bytes.get(pos) {
                    Some(b'}') => {
                        depth -= 1;
                        pos += 1;
                    }
                    Some(b'"') => {
                        pos = scan_key_and_colon(bytes, pos)?;
                        continue 'value;
                    }
                    Some(_) => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
                    None => return Err(err(ScanErrorKind::UnexpectedEnd, pos)),
                }
            }
            b'[' => {
                depth += 1;
                max_depth = max_depth.max(depth);
                stack.set(depth, false);
                pos = skip_whitespace(bytes, pos + 1);
                if bytes.get(pos) == Some(&b']') {
                    depth -= 1;
                    pos += 1;
                } else {
                    continue 'value;
                }
            }
            b'"' => pos = scan_string(bytes, pos)?.end,
            b'-' | b'0'..=b'9' => pos = scan_number(bytes, pos)?,
            b't' => pos = scan_literal(bytes, pos, b"true")?,
            b'f' => pos = scan_literal(bytes, pos, b"false")?,
            b'n' => pos = scan_literal(bytes, pos, b"null")?,
            _ => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
        }

        // A value just ended at `pos`: close containers until one continues.
        loop {
            if depth == 0 {
                return Ok(ValueInfo {
                    start,
                    end: pos,
                    depth: max_depth,
                });
            }
            pos = skip_whitespace(bytes, pos);
            let Some(&b) = bytes.get(pos) else {
                return Err(err(ScanErrorKind::UnexpectedEnd, pos));
            };
            let in_object = stack.is_object(depth);
            match b {
                b',' => {
                    pos = skip_whitespace(bytes, pos + 1);
                    if in_object {
                        if bytes.get(pos) != Some(&b'"') {
                            return Err(unexpected(bytes, pos));
                        }
                        pos = scan_key_and_colon(bytes, pos)?;
                    }
                    continue 'value;
                }
                b'}' if in_object => {
                    depth -= 1;
                    pos += 1;
                }
                b']' if !in_object => {
                    depth -= 1;
                    pos += 1;
                }
                _ => return Err(err(ScanErrorKind::UnexpectedByte, pos)),
            }
        }
    }
}

/// The error for a byte that cannot stand at `pos`: `UnexpectedEnd` past the end of input,
/// else `UnexpectedByte`.
#[inline]
pub(crate) fn unexpected(bytes: &[u8], pos: usize) -> ScanError {
    if pos >= bytes.len() {
        err(ScanErrorKind::UnexpectedEnd, pos)
    } else {
        err(ScanErrorKind::UnexpectedByte, pos)
    }
}

/// Scans `"key" ws : ws` starting at the opening quote; returns the offset of the value.
#[inline]
fn scan_key_and_colon(bytes: &[u8], pos: usize) -> Result<usize, ScanError> {
    let key = scan_string(bytes, pos)?;
    let pos = skip_whitespace(bytes, key.end);
    if bytes.get(pos) != Some(&b':') {
        return Err(unexpected(bytes, pos));
    }
    Ok(skip_whitespace(bytes, pos + 1))
}

#[inline]
fn scan_literal(bytes: &[u8], pos: usize, literal: &[u8]) -> Result<usize, ScanError> {
    let end = pos + literal.len();
    match bytes.get(pos..end) {
        Some(found) if found == literal => Ok(end),
        _ => {
            // Report the first differing byte (or the end of input).
            let mut i = pos;
            while i < end && bytes.get(i) == literal.get(i - pos) {
                i += 1;
            }
            Err(unexpected(bytes, i))
        }
    }
}
