//! A method's result as the JSON text of its reply: in one pass for the common small result,
//! in a buffer of exactly its length for a large one.
//!
//! `serde_json::value::to_raw_value` writes into a buffer that doubles as it grows, then hands
//! the text over without reading it again. That is the fast way, but a large result (a tool
//! echoing 60 MiB) would sit beside a buffer up to twice its size. So a result whose JSON may
//! exceed [`ONE_PASS_LIMIT`] is measured first, written into a buffer of exactly that length,
//! and then checked once more by `RawValue::from_string`, the only public way to wrap text
//! serde_json did not itself produce into a `RawValue`. Whether a result may be large is
//! decided by [`fits`], which walks the value without writing it: first counting six bytes for
//! every byte of a string, then, when that bound is too high, reading the strings.

use serde_json::Value;
use serde_json::value::RawValue;

/// Results whose JSON is at most this long are written in one pass: the growing buffer then
/// costs at most this much memory again.
const ONE_PASS_LIMIT: usize = 1 << 20;

/// The most bytes a JSON number takes as serde_json writes it (`-1.7976931348623157e308` is
/// 23; `-9223372036854775808` and `18446744073709551615` are 20).
const NUMBER_MAX: usize = 24;

/// `result` as the JSON text of a reply.
pub(crate) fn result_text(result: &Value) -> serde_json::Result<Box<RawValue>> {
    // The quick bound settles nearly every result. The exact one reads each string once,
    // where the large way writes the whole result twice and parses it once.
    if fits_in_limit(result, Strings::AtMost) || fits_in_limit(result, Strings::Exact) {
        serde_json::value::to_raw_value(result)
    } else {
        exact_text(result)
    }
}

/// Whether the JSON of `value` fits in [`ONE_PASS_LIMIT`] bytes, strings counted as `strings`
/// says.
fn fits_in_limit(value: &Value, strings: Strings) -> bool {
    let mut budget = ONE_PASS_LIMIT;
    fits(value, &mut budget, strings)
}

/// How [`fits`] counts a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strings {
    /// Six bytes for every byte (the worst escape, `\u001f`), without reading it.
    AtMost,
    /// As serde_json escapes it, reading its bytes when they may fit.
    Exact,
}

/// Whether the JSON of `value` fits in `budget` bytes, taking what it uses from `budget`.
/// Numbers count as their longest text, strings as `strings` says. The walk stops at the first
/// node past the budget and reads a string only when it may fit, so it is bounded by the
/// budget and never by the value's size.
fn fits(value: &Value, budget: &mut usize, strings: Strings) -> bool {
    match value {
        Value::Null | Value::Bool(_) => take(budget, 5),
        Value::Number(_) => take(budget, NUMBER_MAX),
        Value::String(text) => take_string(budget, text, strings),
        Value::Array(items) => {
            take(budget, 2)
                && items
                    .iter()
                    .all(|item| take(budget, 1) && fits(item, budget, strings))
        }
        Value::Object(members) => {
            take(budget, 2)
                && members.iter().all(|(key, member)| {
                    take_string(budget, key, strings)
                        && take(budget, 1)
                        && fits(member, budget, strings)
                })
        }
    }
}

/// Takes what `text` takes as a JSON string from `budget` when it has it.
fn take_string(budget: &mut usize, text: &str, strings: Strings) -> bool {
    match strings {
        Strings::AtMost => take(budget, text.len().saturating_mul(6).saturating_add(2)),
        // Every byte is written as one byte at the least: a string longer than the budget is
        // not read.
        Strings::Exact => text.len() < *budget && take(budget, escaped_len(text)),
    }
}

/// The length of `text` as serde_json writes it as a JSON string, quotes included: `"`,
/// `\` and the five short escapes take two bytes, the other control characters six.
fn escaped_len(text: &str) -> usize {
    let extra: usize = text
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | 0x08 | 0x09 | 0x0a | 0x0c | 0x0d => 1,
            0x00..=0x1f => 5,
            _ => 0,
        })
        .sum();
    text.len() + extra + 2
}

/// Takes `bytes` from `budget` when it has them.
fn take(budget: &mut usize, bytes: usize) -> bool {
    match budget.checked_sub(bytes) {
        Some(left) => {
            *budget = left;
            true
        }
        None => false,
    }
}

/// `value` as JSON text, written into a buffer of exactly its length (measured by a first,
/// counting pass): a large result is then held once as JSON, beside its `Value`, not in a
/// buffer up to twice its size.
fn exact_text(value: &Value) -> serde_json::Result<Box<RawValue>> {
    /// Counts the bytes written to it.
    struct Length(usize);
    impl std::io::Write for Length {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut length = Length(0);
    serde_json::to_writer(&mut length, value)?;
    let mut text = Vec::with_capacity(length.0);
    serde_json::to_writer(&mut text, value)?;
    let text = String::from_utf8(text).map_err(serde::ser::Error::custom)?;
    RawValue::from_string(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Values whose JSON is as long as their kind gets for their size: escapes, extreme
    /// numbers, nesting, empty containers.
    fn worst_cases() -> Vec<Value> {
        vec![
            json!(null),
            json!(false),
            json!(f64::MIN),
            json!(-f64::MIN_POSITIVE),
            json!(i64::MIN),
            json!(u64::MAX),
            json!("\u{1f}\u{0}\"\\\n"),
            json!({ "\u{1f}": ["\u{1}", [], {}, -1.0e-300, null] }),
            json!([[[[]]], { "": { "": "" } }]),
        ]
    }

    #[test]
    fn the_bound_is_never_below_the_text() {
        for value in worst_cases() {
            let text = serde_json::to_string(&value).unwrap();
            for strings in [Strings::AtMost, Strings::Exact] {
                let mut left = usize::MAX;
                assert!(fits(&value, &mut left, strings), "{text}");
                let bound = usize::MAX - left;
                assert!(
                    bound >= text.len(),
                    "{text}: bound {bound} < {}",
                    text.len()
                );
                // A budget of exactly the bound fits; one byte less does not.
                let mut exact = bound;
                assert!(fits(&value, &mut exact, strings), "{text}");
                let mut short = bound - 1;
                assert!(!fits(&value, &mut short, strings), "{text}");
            }
        }
    }

    #[test]
    fn both_ways_write_serde_json_text() {
        let small = json!({ "content": [{ "type": "text", "text": "é\u{1f}" }], "isError": false });
        let large = json!({ "content": [{ "type": "text", "text": "x".repeat(ONE_PASS_LIMIT) }] });
        assert!(fits_in_limit(&small, Strings::AtMost));
        assert!(!fits_in_limit(&large, Strings::Exact));
        for value in [small, large] {
            let expected = serde_json::to_string(&value).unwrap();
            assert_eq!(result_text(&value).unwrap().get(), expected);
            assert_eq!(exact_text(&value).unwrap().get(), expected);
        }
    }

    #[test]
    fn strings_are_counted_as_serde_json_escapes_them() {
        let every_ascii: String = (0u8..0x80).map(char::from).collect();
        for text in [every_ascii.as_str(), "", "é\u{2028}😀", "\"\\\u{7f}"] {
            let written = serde_json::to_string(text).unwrap();
            assert_eq!(escaped_len(text), written.len(), "{written}");
        }
    }

    #[test]
    fn plain_text_under_the_limit_takes_one_pass() {
        // 512 KiB of text: over the six-byte bound, under the limit as written.
        let text = "x".repeat(ONE_PASS_LIMIT / 2);
        let value = json!({ "content": [{ "type": "text", "text": text }] });
        assert!(!fits_in_limit(&value, Strings::AtMost));
        assert!(fits_in_limit(&value, Strings::Exact));
        // Escapes count: 512 KiB of newlines are 1 MiB written, past the limit.
        let newlines = json!({ "text": "\n".repeat(ONE_PASS_LIMIT / 2) });
        assert!(!fits_in_limit(&newlines, Strings::Exact));
        assert_eq!(
            result_text(&newlines).unwrap().get(),
            serde_json::to_string(&newlines).unwrap()
        );
    }

    #[test]
    fn a_wide_value_takes_the_exact_way() {
        // 100,000 members of 70 bytes each at the most (a 7-byte key, a number): past the
        // budget, although the text itself is about 1.5 MB.
        let wide: serde_json::Map<String, Value> = (0..100_000)
            .map(|i| (format!("{i:07}"), json!(i)))
            .collect();
        let wide = Value::Object(wide);
        for strings in [Strings::AtMost, Strings::Exact] {
            assert!(!fits_in_limit(&wide, strings));
        }
        assert_eq!(
            result_text(&wide).unwrap().get(),
            serde_json::to_string(&wide).unwrap()
        );
    }
}
