//! JSON numbers (RFC 8259 §6): the grammar checked, the text kept.

use super::error::{ScanError, ScanErrorKind, err};
use super::unexpected;

/// Scans a number starting at `pos` and returns the offset just past it.
#[inline]
pub fn scan_number(bytes: &[u8], mut pos: usize) -> Result<usize, ScanError> {
    if bytes.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match bytes.get(pos) {
        Some(b'0') => {
            pos += 1;
            if matches!(bytes.get(pos), Some(b'0'..=b'9')) {
                return Err(err(ScanErrorKind::LeadingZero, pos - 1));
            }
        }
        Some(b'1'..=b'9') => {
            pos += 1;
            while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
                pos += 1;
            }
        }
        _ => return Err(unexpected(bytes, pos)),
    }
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        if !matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            return Err(err(ScanErrorKind::BadNumber, pos));
        }
        while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    if matches!(bytes.get(pos), Some(b'e' | b'E')) {
        pos += 1;
        if matches!(bytes.get(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        if !matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            return Err(err(ScanErrorKind::BadNumber, pos));
        }
        while matches!(bytes.get(pos), Some(b'0'..=b'9')) {
            pos += 1;
        }
    }
    Ok(pos)
}
