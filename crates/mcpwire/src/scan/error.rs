//! Why bytes are not one JSON value: the error kinds and the offset they were noticed at.

use std::fmt;

/// Why a byte sequence is not one JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScanErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEnd,
    /// A byte that cannot start or continue a value here (this covers trailing commas,
    /// `NaN`, `Infinity`, missing colons and unbalanced brackets).
    UnexpectedByte,
    /// A number with a superfluous leading zero, such as `01`.
    LeadingZero,
    /// A number whose fraction or exponent has no digits, such as `1.` or `1e`.
    BadNumber,
    /// A raw control character (below U+0020) inside a string.
    ControlCharacter,
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    BadEscape,
    /// Bytes inside a string that are not valid UTF-8.
    InvalidUtf8,
    /// Non-whitespace after the value.
    TrailingCharacters,
}

impl ScanErrorKind {
    /// A short human-readable description.
    pub fn describe(self) -> &'static str {
        match self {
            Self::UnexpectedEnd => "unexpected end of input",
            Self::UnexpectedByte => "unexpected character",
            Self::LeadingZero => "number with a leading zero",
            Self::BadNumber => "malformed number",
            Self::ControlCharacter => "raw control character in string",
            Self::BadEscape => "invalid escape in string",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::TrailingCharacters => "trailing characters after the value",
        }
    }
}

/// A scan failure: what went wrong and the byte offset where it was noticed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScanError {
    /// What went wrong.
    pub kind: ScanErrorKind,
    /// Byte offset into the scanned input.
    pub offset: usize,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.describe(), self.offset)
    }
}

impl std::error::Error for ScanError {}

/// The error `kind` at `offset`.
#[inline]
pub(super) fn err(kind: ScanErrorKind, offset: usize) -> ScanError {
    ScanError { kind, offset }
}
