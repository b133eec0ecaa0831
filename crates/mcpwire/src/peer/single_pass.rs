//! The client's fast path: a success response to a pending request, decoded in one pass.
//!
//! [`Peer::receive`](super::Peer::receive) normally reads a frame twice: the envelope scan
//! (which validates the whole frame and recovers the id before anything is typed), then the
//! typed decode of the `result` text. A response to a request this peer sent is almost always
//! written the way every JSON-RPC library writes it, `{"jsonrpc":"2.0","id":N,"result":…}`,
//! and its id names the result type to decode. For exactly that shape the peer decodes the
//! result straight from the frame with the type the pending request named, and checks that
//! nothing but `}` follows it.
//!
//! Any doubt falls back to the two-pass path, which then decides alone: a frame over the
//! size limit, a byte order mark, other whitespace or member order, an id spelled otherwise
//! than this peer allocates them or not pending, invalid UTF-8 anywhere, a result that does
//! not decode (so its error is reported with the two-pass path's pointer and wording), a
//! result nested deeper than serde_json's default limit, or anything after the result but
//! `}`. When the fast path does answer, its event is the one the two-pass path gives:
//! `tests/prop_single_pass.rs` checks that over generated valid and malformed frames.

use mcpwire_types::support::fast_json;

/// What every success response to this peer opens with, up to the id.
const OPENING: &[u8] = br#"{"jsonrpc":"2.0","id":"#;

/// What follows the id.
const RESULT_MEMBER: &[u8] = br#","result":"#;

/// Decodes a result from the start of a text: the value and the number of bytes it took, or
/// `None` when it does not decode.
pub(crate) type PrefixDecodeFn = fn(&str) -> Option<(super::AnyResult, usize)>;

/// A frame of the fast path's shape: the id's text and where the result starts.
pub(crate) struct Shape<'a> {
    pub(crate) id: &'a str,
    pub(crate) result_at: usize,
}

/// Whether `frame` opens as `{"jsonrpc":"2.0","id":DIGITS,"result":`, byte for byte.
pub(crate) fn shape(frame: &[u8]) -> Option<Shape<'_>> {
    let after_opening = frame.strip_prefix(OPENING)?;
    let digits = after_opening
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let rest = &after_opening[digits..];
    rest.starts_with(RESULT_MEMBER).then(|| Shape {
        // ASCII digits are UTF-8.
        id: std::str::from_utf8(&after_opening[..digits]).unwrap_or_default(),
        result_at: OPENING.len() + digits + RESULT_MEMBER.len(),
    })
}

/// Whether `tail` (what follows the result) closes the object and ends the frame: JSON
/// whitespace, `}`, JSON whitespace.
pub(crate) fn closes_the_frame(tail: &str) -> bool {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    tail.trim_matches(is_space) == "}"
}

/// Decodes a `T` from the start of `text` with serde_json's default depth limit; `None` on
/// any error (the two-pass path reports it).
///
/// `fast_json` first, as the two-pass path decodes a result (the value serde_json gives,
/// long strings with escapes decoded faster); where it gives up, serde_json's own prefix
/// decode, so the single pass answers exactly the frames it answered with serde_json alone.
pub(crate) fn decode_prefix<T>(text: &str) -> Option<(super::AnyResult, usize)>
where
    T: serde::de::DeserializeOwned + Send + 'static,
{
    if let Some((value, used)) = fast_json::try_from_str_prefix::<T>(text) {
        return Some((super::AnyResult(Box::new(value)), used));
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<T>();
    let value = values.next()?.ok()?;
    Some((super::AnyResult(Box::new(value)), values.byte_offset()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_exact_opening_has_the_shape() {
        let frame = br#"{"jsonrpc":"2.0","id":12,"result":{}}"#;
        let found = shape(frame).expect("the common spelling");
        assert_eq!(found.id, "12");
        assert_eq!(&frame[found.result_at..], b"{}}");
        for other in [
            &br#"{"id":12,"jsonrpc":"2.0","result":{}}"#[..],
            br#"{ "jsonrpc":"2.0","id":12,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":"12","result":{}}"#,
            br#"{"jsonrpc":"2.0","id":12,"error":{}}"#,
            br#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#,
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
            br#"{"jsonrpc":"2.0","id":12,"result""#,
        ] {
            assert!(shape(other).is_none(), "{}", String::from_utf8_lossy(other));
        }
    }

    #[test]
    fn the_tail_must_close_the_object_and_nothing_else() {
        for closing in ["}", " }", "}\r\n", "\t}\n "] {
            assert!(closes_the_frame(closing), "{closing:?}");
        }
        for other in ["", "}}", ",\"x\":1}", "} x", "\u{a0}}"] {
            assert!(!closes_the_frame(other), "{other:?}");
        }
    }

    #[test]
    fn a_prefix_decode_reports_what_it_took() {
        let (value, used) = decode_prefix::<Vec<u8>>("[1, 2] }").unwrap();
        assert_eq!(used, 6);
        assert_eq!(value.downcast::<Vec<u8>>().unwrap(), vec![1, 2]);
        assert!(decode_prefix::<Vec<u8>>("[1, \"x\"]}").is_none());
        let deep = format!("{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(
            decode_prefix::<serde_json::Value>(&deep).is_none(),
            "deeper than serde_json's limit: left to the two-pass path"
        );
    }
}
