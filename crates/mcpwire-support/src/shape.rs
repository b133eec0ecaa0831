//! [`Shape`]: what a generated union looks at in a value's raw text to choose its variant.
//!
//! The JSON type comes from the first byte (a number is an `integer` when its text is a whole
//! number, [`super::is_whole_number_text`]). An object is scanned one level deep: its members
//! as `(name, raw text)` pairs, each member's value skipped without being built or recursed
//! into (the text was validated when it was captured, so the scan only looks for where each
//! value ends, jumping over strings from escape to escape). Constant members (`method`,
//! `type`, `mode`, `resultType`) are read from their text, members one level further down
//! (`result.resultType`) by scanning that member on demand, and an array's first item only
//! when a decision needs it.
//!
//! ```
//! use mcpwire_support::Shape;
//!
//! let shape = Shape::of::<serde_json::Error>(r#"{"type":"text","text":"hi","n":{"a":1}}"#).unwrap();
//! let Shape::Object(members) = shape else { panic!("an object") };
//! assert_eq!(members.str_member("type").as_deref(), Some("text"));
//! assert!(members.contains_key("text") && members.has_nested("n", "a"));
//! assert!(!members.str_in("type", &["image"]));
//! assert_eq!(Shape::of::<serde_json::Error>("1e3").unwrap().token_name(), "an integer");
//! ```

use std::borrow::Cow;

use serde::de;

use super::Integer;
use super::capture::MemberValue;
use super::scan::{skip_whitespace, string_end, value_end};

/// The JSON type of a value's text and, for an object, its members (see the module
/// documentation).
#[derive(Debug)]
pub enum Shape<'a> {
    /// `{...}`, scanned one level deep.
    Object(Members<'a>),
    /// `[...]`: its text, scanned only on demand.
    Array(Items<'a>),
    /// `"..."`
    String,
    /// A number whose value is whole, in any spelling.
    Integer,
    /// Any other number.
    Number,
    /// `true` or `false`.
    Bool,
    /// `null`.
    Null,
}

impl<'a> Shape<'a> {
    /// The shape of one JSON value's text (as [`super::RawJson`] captures it).
    pub fn of<E: de::Error>(text: &'a str) -> Result<Self, E> {
        let text = text.trim_start_matches([' ', '\t', '\n', '\r']);
        Ok(match text.as_bytes().first() {
            Some(b'{') => Shape::Object(
                Members::scan(text).ok_or_else(|| E::custom("an object that does not scan"))?,
            ),
            Some(b'[') => Shape::Array(Items(text)),
            Some(b'"') => Shape::String,
            Some(b't' | b'f') => Shape::Bool,
            Some(b'n') => Shape::Null,
            Some(_) if super::is_whole_number_text(text.trim_end()) => Shape::Integer,
            Some(_) => Shape::Number,
            None => return Err(E::custom("an empty value")),
        })
    }

    /// A short name of the JSON type, for messages.
    pub fn token_name(&self) -> &'static str {
        match self {
            Shape::Null => "null",
            Shape::Bool => "a boolean",
            Shape::Integer => "an integer",
            Shape::Number => "a number",
            Shape::String => "a string",
            Shape::Array(_) => "an array",
            Shape::Object(_) => "an object",
        }
    }
}

/// An object's members: names and values (raw text, or a string a union decoded on the way,
/// see [`Shape::capture_object`]), in order.
#[derive(Debug, Default)]
pub struct Members<'a>(Vec<(Cow<'a, str>, MemberValue<'a>)>);

impl<'a> Members<'a> {
    /// Members read by [`Shape::capture_object`].
    pub(super) fn from_values(members: Vec<(Cow<'a, str>, MemberValue<'a>)>) -> Self {
        Members(members)
    }

    /// Every member, in order (a repeated name as often as it came).
    pub(super) fn entries(&self) -> &[(Cow<'a, str>, MemberValue<'a>)] {
        &self.0
    }

    /// Scans an object's (valid) text one level deep; `None` if it is not an object.
    fn scan(text: &'a str) -> Option<Self> {
        let bytes = text.as_bytes();
        let mut at = skip_whitespace(bytes, 0);
        if bytes.get(at) != Some(&b'{') {
            return None;
        }
        let mut members = Vec::with_capacity(8);
        at = skip_whitespace(bytes, at + 1);
        if bytes.get(at) == Some(&b'}') {
            return Some(Members(members));
        }
        loop {
            let key_end = string_end(bytes, at)?;
            let quoted = text.get(at..key_end)?;
            let name = match quoted.get(1..quoted.len() - 1)? {
                plain if !plain.contains('\\') => Cow::Borrowed(plain),
                _ => Cow::Owned(serde_json::from_str::<String>(quoted).ok()?),
            };
            at = skip_whitespace(bytes, key_end);
            if bytes.get(at) != Some(&b':') {
                return None;
            }
            let start = skip_whitespace(bytes, at + 1);
            let end = value_end(bytes, start)?;
            members.push((name, MemberValue::Raw(Cow::Borrowed(text.get(start..end)?))));
            at = skip_whitespace(bytes, end);
            match bytes.get(at)? {
                b',' => at = skip_whitespace(bytes, at + 1),
                b'}' => return Some(Members(members)),
                _ => return None,
            }
        }
    }

    /// The value of member `name` (the last one, should the name repeat, as
    /// `serde_json::Value` keeps it).
    pub fn value(&self, name: &str) -> Option<&MemberValue<'a>> {
        self.0
            .iter()
            .rev()
            .find(|(member, _)| member == name)
            .map(|(_, value)| value)
    }

    /// The raw text of member `name` (the last one, should the name repeat), unless it is a
    /// string [`Shape::capture_object`] decoded.
    pub fn get(&self, name: &str) -> Option<&str> {
        match self.value(name)? {
            MemberValue::Raw(text) => Some(text),
            MemberValue::Str(_) => None,
        }
    }

    /// Whether member `name` is present.
    pub fn contains_key(&self, name: &str) -> bool {
        self.0.iter().any(|(member, _)| member == name)
    }

    /// Whether member `outer` is an object with a member `inner`.
    pub fn has_nested(&self, outer: &str, inner: &str) -> bool {
        self.get(outer)
            .and_then(Members::scan)
            .is_some_and(|members| members.contains_key(inner))
    }

    /// Member `name` when it is a string.
    pub fn str_member(&self, name: &str) -> Option<Cow<'_, str>> {
        let raw = match self.value(name)? {
            MemberValue::Str(text) => return Some(Cow::Borrowed(text)),
            MemberValue::Raw(raw) => raw.as_ref(),
        };
        let quoted = raw.strip_prefix('"')?.strip_suffix('"')?;
        if quoted.contains('\\') {
            serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(quoted))
        }
    }

    /// Member `name` when it is a whole number in the `i64` range, in any spelling exact in
    /// an `f64` (`2`, `2.0`, `2e0`); for integer constant members.
    pub fn int_member(&self, name: &str) -> Option<i64> {
        Integer::from_json_text(self.get(name)?).ok()?.as_i64()
    }

    /// Whether member `name`, when present, is one of the string constants `values`.
    pub fn str_in(&self, name: &str, values: &[&str]) -> bool {
        match self.get(name) {
            None => true,
            Some(_) => self
                .str_member(name)
                .is_some_and(|found| values.contains(&found.as_ref())),
        }
    }

    /// Whether member `name`, when present, is one of the integer constants `values` (in any
    /// whole spelling: `2`, `2.0`).
    pub fn int_in(&self, name: &str, values: &[i64]) -> bool {
        match self.get(name) {
            None => true,
            Some(_) => self
                .int_member(name)
                .is_some_and(|found| values.contains(&found)),
        }
    }
}

/// An array's text.
#[derive(Debug)]
pub struct Items<'a>(&'a str);

impl<'a> Items<'a> {
    /// An array known only as one (read by [`Shape::capture_object`], which skips its
    /// items): it has no first object.
    pub(super) fn empty() -> Self {
        Items("")
    }

    /// The members of the first item, when there is one and it is an object.
    pub fn first_object(&self) -> Option<Members<'a>> {
        let bytes = self.0.as_bytes();
        let start = skip_whitespace(bytes, skip_whitespace(bytes, 0) + 1);
        if bytes.get(start) != Some(&b'{') {
            return None;
        }
        let end = value_end(bytes, start)?;
        Members::scan(self.0.get(start..end)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Shape<'_> {
        Shape::of::<serde_json::Error>(text).unwrap()
    }

    #[test]
    fn the_json_type_comes_from_the_text() {
        for (text, name) in [
            ("{}", "an object"),
            ("[1]", "an array"),
            ("\"s\"", "a string"),
            ("7", "an integer"),
            ("-0", "an integer"),
            ("2.0", "an integer"),
            ("1e400", "an integer"),
            ("18446744073709551616", "an integer"),
            ("2.5", "a number"),
            ("1e-1", "a number"),
            ("true", "a boolean"),
            ("false", "a boolean"),
            ("null", "null"),
        ] {
            assert_eq!(shape(text).token_name(), name, "{text}");
        }
    }

    #[test]
    fn members_are_read_from_their_text() {
        let text = r#"{"method":"tools/call","m\u0065":"x\ny","v":2.0,"w":1e30,"deep":[[[[{"a":1}]]]],"result":{"resultType":"complete"},"v":3}"#;
        let Shape::Object(members) = shape(text) else {
            panic!("an object")
        };
        assert_eq!(members.str_member("method").as_deref(), Some("tools/call"));
        assert_eq!(members.str_member("me").as_deref(), Some("x\ny"));
        assert_eq!(members.str_member("v"), None);
        assert_eq!(members.get("deep"), Some("[[[[{\"a\":1}]]]]"));
        // The last of a repeated member, as `serde_json::Value` keeps it.
        assert_eq!(members.int_member("v"), Some(3));
        assert_eq!(members.int_member("w"), None);
        assert!(members.has_nested("result", "resultType"));
        assert!(!members.has_nested("result", "content") && !members.has_nested("method", "a"));
        assert!(members.str_in("absent", &["x"]) && !members.str_in("v", &["3"]));
        assert!(members.int_in("v", &[3]) && !members.int_in("v", &[2]));
        assert!(!members.int_in("method", &[3]));
    }

    #[test]
    fn an_arrays_first_object_is_scanned_on_demand() {
        let Shape::Array(items) = shape(r#"[{"type":"text"}, 5, {"type":"image"}]"#) else {
            panic!("an array")
        };
        let first = items.first_object().unwrap();
        assert_eq!(first.str_member("type").as_deref(), Some("text"));
        let Shape::Array(items) = shape("[5, {}]") else {
            panic!("an array")
        };
        assert!(items.first_object().is_none());
        let Shape::Array(items) = shape("[]") else {
            panic!("an array")
        };
        assert!(items.first_object().is_none());
    }

    #[test]
    fn deep_members_scan_without_recursion() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let outcome = std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || match Shape::of::<serde_json::Error>(&deep) {
                Ok(Shape::Object(members)) => members.get("a").map(str::len),
                _ => None,
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome, Some(200_000));
    }
}
