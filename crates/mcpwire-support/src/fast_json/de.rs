//! A serde `Deserializer` for JSON text that decodes strings faster than serde_json, and
//! hands every value over exactly as serde_json's `from_str` does, or gives up.
//!
//! [`from_str`] tries it and, when it gives up, decodes the text again with
//! `serde_json::from_str`: the caller gets serde_json's value, or serde_json's error (message
//! and position), whatever the text. [`try_from_str`] is the attempt alone, for a caller that
//! has a decode of its own to fall back to.
//!
//! What makes it faster: a string's next quote, backslash or control character is found 64
//! bytes at a time (`string.rs`), the plain runs between escapes are copied whole, a string
//! without an escape is lent from the input (`visit_borrowed_str`, as serde_json lends it),
//! and a long one with escapes is given away rather than copied once more. A long text with
//! an escape every few dozen bytes (a resource's text, a tool's output) is where serde_json,
//! which goes eight bytes at a time and back to its loop after every escape, spends a typed
//! decode's time.
//!
//! What it hands over is serde_json's, call for call:
//!
//! - the same `visit_*` calls for every `deserialize_*` call: a string borrowed or copied as
//!   serde_json has it (except that a string with escapes decoded to 4 KiB or more is given
//!   away, `visit_string`, whose default lends it to `visit_str` as serde_json would),
//!   `null` to `visit_unit` (`visit_none` for an option), an object as a map whose keys
//!   are strings (numbers and booleans inside a key's quotes for the types that ask, as
//!   serde_json reads them), an enum from a string or a one-member object;
//! - whole numbers as `u64` / `i64` where serde_json has them so; every other number (a
//!   fraction, an exponent, `-0`, beyond 64 bits) is decoded by serde_json from its own
//!   token, so its `f64` is serde_json's bit for bit (`number.rs`);
//! - serde_json's raw-value protocol: the newtype struct `$serde_json::private::RawValue`
//!   gets the value's text exactly as written, borrowed, as a one-member map (the protocol
//!   serde_json's `RawValue` and this crate's [`crate::RawJson`] read);
//! - serde_json's limits: nesting deeper than its recursion limit of 128 is refused, values
//!   are checked by its grammar, anything but whitespace after the value is refused.
//!
//! It gives up (the fallback decodes) on anything it does not decode as serde_json does:
//! invalid JSON, a lone surrogate or a control character in a string, a byte string with an
//! escape serde_json decodes differently, too deep a nesting, and any error at all, its own
//! or a visitor's, even one a `Deserialize` implementation recovers from: once an error has
//! passed through it, the result is not used.
//!
//! ```
//! use mcpwire_support::fast_json;
//! use serde_json::Value;
//!
//! let value: Value = fast_json::from_str(r#"{"text":"a\nb","n":[1,-2,1.5e3]}"#).unwrap();
//! assert_eq!(value["text"], "a\nb");
//! // A lone surrogate: the fast path gives up, serde_json says why.
//! let error = fast_json::from_str::<Value>(r#""\udc00""#).unwrap_err();
//! assert_eq!(error.to_string(), serde_json::from_str::<Value>(r#""\udc00""#).unwrap_err().to_string());
//! assert!(fast_json::try_from_str::<Value>(r#""\udc00""#).is_none());
//! ```

use serde::de::{self, Deserialize, DeserializeSeed, Visitor};

use super::number::{self, Number};
use super::skip_whitespace;
use super::string::{self, Decoded, Refused};
use crate::RAW_VALUE_TOKEN;

type Error = serde_json::Error;
type Result<T> = std::result::Result<T, Error>;

/// Decodes JSON `text` as `T`: on the fast path when it can, else with
/// `serde_json::from_str` (see the module documentation). The value, or the error, is
/// serde_json's.
///
/// ```
/// use mcpwire_support::fast_json;
/// let text: String = fast_json::from_str(r#""line\none""#).unwrap();
/// assert_eq!(text, "line\none");
/// let error = fast_json::from_str::<String>("\"open").unwrap_err();
/// assert_eq!(error.to_string(), "EOF while parsing a string at line 1 column 5");
/// ```
pub fn from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T> {
    match try_from_str(text) {
        Some(value) => Ok(value),
        None => serde_json::from_str(text),
    }
}

/// Decodes JSON `text` as `T` on the fast path alone: the value `serde_json::from_str`
/// gives, or `None` where the fast path gives up (serde_json may still decode the text, or
/// say what is wrong with it).
///
/// ```
/// use mcpwire_support::fast_json;
/// assert_eq!(fast_json::try_from_str::<Vec<u8>>("[1, 2]"), Some(vec![1, 2]));
/// assert_eq!(fast_json::try_from_str::<Vec<u8>>("[1, 2] x"), None);
/// ```
pub fn try_from_str<'de, T: Deserialize<'de>>(text: &'de str) -> Option<T> {
    let (value, end) = try_from_str_prefix(text)?;
    (skip_whitespace(text.as_bytes(), end) == text.len()).then_some(value)
}

/// Decodes a `T` from the start of `text` on the fast path alone, whatever follows it: the
/// value serde_json's `StreamDeserializer` gives for the first value of `text` (serde_json's
/// recursion limit included) and the index just after that value, or `None` where the fast
/// path gives up. What follows the value is not looked at; the caller checks it.
///
/// ```
/// use mcpwire_support::fast_json;
/// assert_eq!(
///     fast_json::try_from_str_prefix::<Vec<u8>>(" [1, 2] }"),
///     Some((vec![1, 2], 7))
/// );
/// assert_eq!(fast_json::try_from_str_prefix::<Vec<u8>>("[1, \"x\"] }"), None);
/// ```
pub fn try_from_str_prefix<'de, T: Deserialize<'de>>(text: &'de str) -> Option<(T, usize)> {
    let mut deserializer = Deserializer::new(text);
    let value = T::deserialize(&mut deserializer).ok()?;
    (!deserializer.failed).then_some((value, deserializer.at))
}

/// From this length on, a string with escapes is handed over as the `String` it was decoded
/// into (`visit_string`) rather than lent to be copied (`visit_str`): copying 4 KiB costs
/// more than the allocation a new buffer for the next such string may take.
const OWNED_STRING: usize = 4096;

/// The deserializer: the text, where it is, and serde_json's recursion budget.
struct Deserializer<'de> {
    text: &'de str,
    bytes: &'de [u8],
    at: usize,
    /// A string with escapes, decoded.
    scratch: String,
    /// serde_json's: 128 levels, refused when it reaches 0.
    remaining_depth: u8,
    /// The open arrays (`false`) and objects (`true`) of a value being skipped.
    frames: Vec<bool>,
    /// An error has passed through: the result is not used.
    failed: bool,
}

/// The error of the fast path giving up (never seen by a caller: the fallback's is).
fn refused() -> Error {
    de::Error::custom("not decoded on the fast path")
}

/// [`refused`], for a part that refused. (Not a `From` impl: a new conversion into
/// `serde_json::Error` would change type inference in every crate that uses it.)
fn refusal(_: Refused) -> Error {
    refused()
}

/// How a number token serde_json decodes is asked for.
#[derive(Clone, Copy)]
enum Wide {
    /// As serde_json's `deserialize_any` (every `deserialize_*` of a 64-bit or float type).
    No,
    /// `deserialize_i128`.
    I128,
    /// `deserialize_u128`.
    U128,
}

/// Has serde_json decode a number token, which must be the whole of `token`.
fn delegate<'de, V: Visitor<'de>>(token: &'de str, wide: Wide, visitor: V) -> Result<V::Value> {
    use serde::Deserializer as _;
    let mut json = serde_json::Deserializer::from_str(token);
    let value = match wide {
        Wide::No => json.deserialize_any(visitor),
        Wide::I128 => json.deserialize_i128(visitor),
        Wide::U128 => json.deserialize_u128(visitor),
    }?;
    json.end()?;
    Ok(value)
}

impl<'de> Deserializer<'de> {
    fn new(text: &'de str) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            at: 0,
            scratch: String::new(),
            remaining_depth: 128,
            frames: Vec::new(),
            failed: false,
        }
    }

    /// `result`, noting an error.
    #[inline]
    fn mark<T>(&mut self, result: Result<T>) -> Result<T> {
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.at = skip_whitespace(self.bytes, self.at);
        self.bytes.get(self.at).copied()
    }

    /// Consumes `byte`, the next byte after whitespace, or refuses.
    #[inline]
    fn expect(&mut self, byte: u8) -> Result<()> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(refused())
        }
    }

    /// Consumes the literal `word` (`null`, `true`, `false`) at the current byte.
    #[inline]
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(refused())
        }
    }

    /// One level deeper into a container (serde_json's recursion limit).
    #[inline]
    fn descend(&mut self) -> Result<()> {
        self.remaining_depth -= 1;
        if self.remaining_depth == 0 {
            return Err(refused());
        }
        Ok(())
    }

    /// The string whose opening quote is the current byte, visited as serde_json visits it.
    #[inline]
    fn string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let (decoded, end) =
            string::parse(self.text, self.at + 1, &mut self.scratch).map_err(refusal)?;
        self.at = end;
        match decoded {
            Decoded::Borrowed(text) => visitor.visit_borrowed_str(text),
            // A long decoded string is handed over as the `String` it was decoded into (no
            // copy of it; serde's default `visit_string` lends it to `visit_str`), trimmed
            // to its length; the next one is decoded into a new buffer.
            Decoded::Unescaped if self.scratch.len() >= OWNED_STRING => {
                let mut owned = std::mem::take(&mut self.scratch);
                owned.shrink_to_fit();
                visitor.visit_string(owned)
            }
            Decoded::Unescaped => visitor.visit_str(&self.scratch),
        }
    }

    /// The number starting at the current byte.
    #[inline]
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.at;
        let (number, end) = number::scan(self.bytes, start).map_err(refusal)?;
        self.at = end;
        match number {
            Number::U64(value) => visitor.visit_u64(value),
            Number::I64(value) => visitor.visit_i64(value),
            Number::Other => delegate(&self.text[start..end], Wide::No, visitor),
        }
    }

    /// The 128-bit number starting at the current byte (serde_json reads those its own way).
    fn wide_number<V: Visitor<'de>>(&mut self, wide: Wide, visitor: V) -> Result<V::Value> {
        let start = self.at;
        let (_, end) = number::scan(self.bytes, start).map_err(refusal)?;
        self.at = end;
        delegate(&self.text[start..end], wide, visitor)
    }

    /// An array: the visitor reads its items, then the array must end.
    fn seq<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.descend()?;
        self.at += 1;
        let value = visitor.visit_seq(SeqAccess {
            de: self,
            first: true,
        })?;
        self.remaining_depth += 1;
        self.expect(b']')?;
        Ok(value)
    }

    /// An object: the visitor reads its members, then the object must end.
    fn map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.descend()?;
        self.at += 1;
        let value = visitor.visit_map(MapAccess {
            de: self,
            first: true,
        })?;
        self.remaining_depth += 1;
        self.expect(b'}')?;
        Ok(value)
    }

    fn any<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => self.string(visitor),
            Some(b'-' | b'0'..=b'9') => self.number(visitor),
            Some(b'{') => self.map(visitor),
            Some(b'[') => self.seq(visitor),
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(refused()),
        }
    }

    fn bool<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b't' | b'f') => self.any(visitor),
            _ => Err(refused()),
        }
    }

    fn num<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.number(visitor),
            _ => Err(refused()),
        }
    }

    fn num128<V: Visitor<'de>>(&mut self, wide: Wide, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.wide_number(wide, visitor),
            _ => Err(refused()),
        }
    }

    fn str<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => self.string(visitor),
            _ => Err(refused()),
        }
    }

    /// A string as bytes: serde_json lends or copies the bytes of the string it decodes
    /// without checking them as text; where that checking would refuse (a control character,
    /// a lone surrogate), the fast path gives up, and elsewhere the bytes are the same.
    fn byte_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => {
                let (decoded, end) =
                    string::parse(self.text, self.at + 1, &mut self.scratch).map_err(refusal)?;
                self.at = end;
                match decoded {
                    Decoded::Borrowed(text) => visitor.visit_borrowed_bytes(text.as_bytes()),
                    Decoded::Unescaped => visitor.visit_bytes(self.scratch.as_bytes()),
                }
            }
            Some(b'[') => self.seq(visitor),
            _ => Err(refused()),
        }
    }

    fn option<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(&mut *self)
        }
    }

    fn unit<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            _ => Err(refused()),
        }
    }

    fn sequence<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'[') => self.seq(visitor),
            _ => Err(refused()),
        }
    }

    fn object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'{') => self.map(visitor),
            _ => Err(refused()),
        }
    }

    fn structure<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'{') => self.map(visitor),
            Some(b'[') => self.seq(visitor),
            _ => Err(refused()),
        }
    }

    fn enumeration<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.peek() {
            Some(b'{') => {
                self.descend()?;
                self.at += 1;
                let value = visitor.visit_enum(VariantAccess { de: self })?;
                self.remaining_depth += 1;
                self.expect(b'}')?;
                Ok(value)
            }
            Some(b'"') => visitor.visit_enum(UnitVariantAccess { de: self }),
            _ => Err(refused()),
        }
    }

    /// serde_json's raw-value protocol: the value's text, as written, as a one-member map.
    fn raw<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.at = skip_whitespace(self.bytes, self.at);
        let start = self.at;
        self.skip_value().map_err(refusal)?;
        visitor.visit_map(RawValueAccess {
            text: Some(&self.text[start..self.at]),
        })
    }

    fn ignored<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.skip_value().map_err(refusal)?;
        visitor.visit_unit()
    }

    /// Skips one value, checked as serde_json checks a value it ignores: without recursion
    /// (any depth) and without decoding its strings.
    fn skip_value(&mut self) -> std::result::Result<(), Refused> {
        let bytes = self.bytes;
        let mut frames = std::mem::take(&mut self.frames);
        frames.clear();
        let outcome = (|| loop {
            // A value.
            match self.peek() {
                Some(b'"') => self.at = string::skip(bytes, self.at + 1)?,
                Some(b'-' | b'0'..=b'9') => self.at = number::scan(bytes, self.at)?.1,
                Some(b'n') => self.literal(b"null").map_err(|_| Refused)?,
                Some(b't') => self.literal(b"true").map_err(|_| Refused)?,
                Some(b'f') => self.literal(b"false").map_err(|_| Refused)?,
                Some(open @ (b'[' | b'{')) => {
                    self.at += 1;
                    let object = open == b'{';
                    match self.peek() {
                        Some(b']') if !object => self.at += 1,
                        Some(b'}') if object => self.at += 1,
                        _ => {
                            frames.push(object);
                            if object {
                                self.member_name()?;
                            }
                            continue;
                        }
                    }
                }
                _ => return Err(Refused),
            }
            // After a value: close what ends here, up to a comma or the end.
            loop {
                let Some(&object) = frames.last() else {
                    return Ok(());
                };
                match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        if object {
                            self.member_name()?;
                        }
                        break;
                    }
                    Some(b']') if !object => self.at += 1,
                    Some(b'}') if object => self.at += 1,
                    _ => return Err(Refused),
                }
                frames.pop();
            }
        })();
        self.frames = frames;
        outcome
    }

    /// Skips a member's name and its colon.
    fn member_name(&mut self) -> std::result::Result<(), Refused> {
        if self.peek() != Some(b'"') {
            return Err(Refused);
        }
        self.at = string::skip(self.bytes, self.at + 1)?;
        if self.peek() != Some(b':') {
            return Err(Refused);
        }
        self.at += 1;
        Ok(())
    }
}

/// The `deserialize_*` methods that take only a visitor, each calling the deserializer's
/// method of the same shape and noting an error.
macro_rules! marked {
    ($($method:ident => $inner:ident $(($arg:expr))?;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                let result = self.$inner($($arg,)? visitor);
                self.mark(result)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    marked! {
        deserialize_any => any;
        deserialize_bool => bool;
        deserialize_i8 => num;
        deserialize_i16 => num;
        deserialize_i32 => num;
        deserialize_i64 => num;
        deserialize_u8 => num;
        deserialize_u16 => num;
        deserialize_u32 => num;
        deserialize_u64 => num;
        deserialize_f32 => num;
        deserialize_f64 => num;
        deserialize_i128 => num128(Wide::I128);
        deserialize_u128 => num128(Wide::U128);
        deserialize_char => str;
        deserialize_str => str;
        deserialize_string => str;
        deserialize_identifier => str;
        deserialize_bytes => byte_string;
        deserialize_byte_buf => byte_string;
        deserialize_option => option;
        deserialize_unit => unit;
        deserialize_seq => sequence;
        deserialize_map => object;
        deserialize_ignored_any => ignored;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.unit(visitor);
        self.mark(result)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let result = if name == RAW_VALUE_TOKEN {
            self.raw(visitor)
        } else {
            visitor.visit_newtype_struct(&mut *self)
        };
        self.mark(result)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let result = self.sequence(visitor);
        self.mark(result)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.sequence(visitor);
        self.mark(result)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.structure(visitor);
        self.mark(result)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.enumeration(visitor);
        self.mark(result)
    }
}

/// An array's items.
struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
}

impl<'de> SeqAccess<'_, 'de> {
    fn has_next(&mut self) -> Result<bool> {
        match self.de.peek() {
            Some(b']') => Ok(false),
            Some(_) if self.first => {
                self.first = false;
                Ok(true)
            }
            Some(b',') => {
                self.de.at += 1;
                match self.de.peek() {
                    Some(b']') | None => Err(refused()),
                    Some(_) => Ok(true),
                }
            }
            _ => Err(refused()),
        }
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let result = match self.has_next() {
            Ok(true) => seed.deserialize(&mut *self.de).map(Some),
            Ok(false) => Ok(None),
            Err(error) => Err(error),
        };
        self.de.mark(result)
    }
}

/// An object's members.
struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    first: bool,
}

impl<'de> MapAccess<'_, 'de> {
    fn has_next(&mut self) -> Result<bool> {
        match self.de.peek() {
            Some(b'}') => Ok(false),
            Some(b'"') if self.first => {
                self.first = false;
                Ok(true)
            }
            Some(b',') if !self.first => {
                self.de.at += 1;
                match self.de.peek() {
                    Some(b'"') => Ok(true),
                    _ => Err(refused()),
                }
            }
            _ => Err(refused()),
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let result = match self.has_next() {
            Ok(true) => seed.deserialize(MapKey { de: &mut *self.de }).map(Some),
            Ok(false) => Ok(None),
            Err(error) => Err(error),
        };
        self.de.mark(result)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let result = match self.de.expect(b':') {
            Ok(()) => seed.deserialize(&mut *self.de),
            Err(error) => Err(error),
        };
        self.de.mark(result)
    }
}

/// A member name, at its opening quote: a string, or for the types that ask, a number or a
/// boolean written inside the quotes (as serde_json reads keys).
struct MapKey<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> MapKey<'_, 'de> {
    fn any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.de.string(visitor)
    }

    /// A number inside the quotes, nothing else there.
    fn number<V: Visitor<'de>>(self, wide: Option<Wide>, visitor: V) -> Result<V::Value> {
        let start = self.de.at + 1;
        if !matches!(self.de.bytes.get(start), Some(b'-' | b'0'..=b'9')) {
            return Err(refused());
        }
        let (number, end) = number::scan(self.de.bytes, start).map_err(refusal)?;
        if self.de.bytes.get(end) != Some(&b'"') {
            return Err(refused());
        }
        self.de.at = end + 1;
        let token = &self.de.text[start..end];
        match (wide, number) {
            (Some(wide), _) => delegate(token, wide, visitor),
            (None, Number::U64(value)) => visitor.visit_u64(value),
            (None, Number::I64(value)) => visitor.visit_i64(value),
            (None, Number::Other) => delegate(token, Wide::No, visitor),
        }
    }

    fn bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let rest = &self.de.bytes[self.de.at..];
        if rest.starts_with(b"\"true\"") {
            self.de.at += 6;
            visitor.visit_bool(true)
        } else if rest.starts_with(b"\"false\"") {
            self.de.at += 7;
            visitor.visit_bool(false)
        } else {
            Err(refused())
        }
    }
}

/// The `deserialize_*` methods of [`MapKey`] that take only a visitor, noting an error.
macro_rules! marked_key {
    ($($method:ident => $inner:ident $(($arg:expr))?;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
                MapKey::mark(self, |key| key.$inner($($arg,)? visitor))
            }
        )*
    };
}

impl<'a, 'de> MapKey<'a, 'de> {
    /// Runs `decode` on the key, noting an error.
    fn mark<T>(self, decode: impl FnOnce(MapKey<'_, 'de>) -> Result<T>) -> Result<T> {
        let result = decode(MapKey { de: &mut *self.de });
        self.de.mark(result)
    }
}

impl<'de> de::Deserializer<'de> for MapKey<'_, 'de> {
    type Error = Error;

    marked_key! {
        deserialize_any => any;
        deserialize_bool => bool;
        deserialize_i8 => number(None);
        deserialize_i16 => number(None);
        deserialize_i32 => number(None);
        deserialize_i64 => number(None);
        deserialize_u8 => number(None);
        deserialize_u16 => number(None);
        deserialize_u32 => number(None);
        deserialize_u64 => number(None);
        deserialize_f32 => number(None);
        deserialize_f64 => number(None);
        deserialize_i128 => number(Some(Wide::I128));
        deserialize_u128 => number(Some(Wide::U128));
        deserialize_char => any;
        deserialize_str => any;
        deserialize_string => any;
        deserialize_identifier => any;
        deserialize_unit => any;
        deserialize_seq => any;
        deserialize_map => any;
        deserialize_ignored_any => any;
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = self.de.byte_string(visitor);
        self.de.mark(result)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = self.de.byte_string(visitor);
        self.de.mark(result)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // A key is never null.
        self.mark(|key| visitor.visit_some(key))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.mark(|key| key.any(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            let result = self.de.raw(visitor);
            self.de.mark(result)
        } else {
            self.mark(|key| visitor.visit_newtype_struct(key))
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.mark(|key| key.any(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.mark(|key| key.any(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.mark(|key| key.any(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.de.enumeration(visitor);
        self.de.mark(result)
    }
}

/// An enum written as a one-member object: the member's name is the variant.
struct VariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let result = match self.de.peek() {
            Some(b'"') => seed
                .deserialize(MapKey { de: &mut *self.de })
                .and_then(|variant| self.de.expect(b':').map(|()| variant)),
            _ => Err(refused()),
        };
        match self.de.mark(result) {
            Ok(variant) => Ok((variant, self)),
            Err(error) => Err(error),
        }
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        let result = <()>::deserialize(&mut *self.de);
        self.de.mark(result)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        let result = seed.deserialize(&mut *self.de);
        self.de.mark(result)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let result = self.de.sequence(visitor);
        self.de.mark(result)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = self.de.structure(visitor);
        self.de.mark(result)
    }
}

/// An enum written as a string: a unit variant.
struct UnitVariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let result = seed.deserialize(&mut *self.de);
        match self.de.mark(result) {
            Ok(variant) => Ok((variant, self)),
            Err(error) => Err(error),
        }
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        self.de.failed = true;
        Err(refused())
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        self.de.failed = true;
        Err(refused())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        self.de.failed = true;
        Err(refused())
    }
}

/// serde_json's raw-value map: one member, the reserved name, whose value is the text.
struct RawValueAccess<'de> {
    text: Option<&'de str>,
}

impl<'de> de::MapAccess<'de> for RawValueAccess<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.text.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(RAW_VALUE_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let text = self.text.take().ok_or_else(refused)?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(text))
    }
}
