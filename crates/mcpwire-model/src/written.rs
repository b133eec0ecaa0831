//! What a generated value is written as: a [`Value`], its JSON text ([`RawValue`]) written
//! once from the generated type, with no [`Value`] in between, or the generated value kept
//! as it is ([`Unwritten`]), for a server to write straight into its reply.
//!
//! The conversions build a version's generated type and hand it to [`Written::written`]; the
//! caller picks the form by the type it asks for. A server answering a request asks for an
//! [`Unwritten`] (or for the text, to keep it: a listing page); a caller that inspects the
//! result asks for the value.
//! The forms are the same JSON, and the same bytes wherever no object holds members its schema
//! does not declare: the generated types declare their members in the order of their names,
//! the order a [`Value`]'s (sorted) map writes them in, and write undeclared members after
//! them (a tool's `inputSchema`, with `$schema` and `title`, is such an object).
//!
//! ```
//! use mcpwire_model::Version;
//! use mcpwire_model::result::wire::empty_result;
//! use serde_json::value::RawValue;
//!
//! let text: Box<RawValue> = empty_result(Version::V2026_07_28);
//! let value: serde_json::Value = empty_result(Version::V2026_07_28);
//! assert_eq!(text.get(), r#"{"resultType":"complete"}"#);
//! assert_eq!(text.get(), value.to_string());
//! ```

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// A form a generated value is written as: [`Value`] or `Box<RawValue>`.
pub trait Written: Sized {
    /// `value` (a generated type: string keys, finite numbers) written as `Self`.
    fn written(value: impl Serialize + Send + Sync + 'static) -> Self;
}

impl Written for Value {
    fn written(value: impl Serialize + Send + Sync + 'static) -> Value {
        to_value(value)
    }
}

impl Written for Box<RawValue> {
    fn written(value: impl Serialize + Send + Sync + 'static) -> Self {
        // Infallible for the generated types, as for `to_value`.
        serde_json::value::to_raw_value(&value).unwrap_or_default()
    }
}

/// A generated value kept as it is, to be written once by whoever knows where: a server
/// serializes it straight into the reply it answers (after the reply's head), so a large
/// result is never written into a buffer of its own and then copied into the reply.
///
/// ```
/// use mcpwire_model::{Unwritten, Version};
/// use mcpwire_model::result::wire::empty_result;
///
/// let result: Unwritten = empty_result(Version::V2026_07_28);
/// assert_eq!(serde_json::to_string(&result).unwrap(), r#"{"resultType":"complete"}"#);
/// ```
pub struct Unwritten(Box<dyn Generated>);

/// A generated value behind [`Unwritten`]: serializable by any serializer (erased), and
/// writable as JSON text by its own, unerased code.
trait Generated: erased_serde::Serialize + Send + Sync {
    /// Writes the value's JSON text into `out`.
    fn write_json(&self, out: &mut dyn std::io::Write) -> serde_json::Result<()>;
}

impl<T: Serialize + Send + Sync> Generated for T {
    fn write_json(&self, out: &mut dyn std::io::Write) -> serde_json::Result<()> {
        serde_json::to_writer(out, self)
    }
}

impl Unwritten {
    /// Writes the value's JSON text into `out`, as `serde_json` writes it, with the value's
    /// own serialization: what a server writing it into its reply calls (through
    /// [`Serialize`] every member would go through an erased serializer, several times
    /// slower for a small result).
    ///
    /// ```
    /// use mcpwire_model::{Unwritten, Version};
    /// use mcpwire_model::result::wire::empty_result;
    ///
    /// let result: Unwritten = empty_result(Version::V2026_07_28);
    /// let mut text = Vec::new();
    /// result.write_json(&mut text).unwrap();
    /// assert_eq!(text, serde_json::to_vec(&result).unwrap());
    /// ```
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> serde_json::Result<()> {
        self.0.write_json(out)
    }
}

impl Written for Unwritten {
    fn written(value: impl Serialize + Send + Sync + 'static) -> Self {
        Unwritten(Box::new(value))
    }
}

impl Serialize for Unwritten {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value: &(dyn erased_serde::Serialize + Send + Sync) = &*self.0;
        erased_serde::serialize(value, serializer)
    }
}

impl std::fmt::Debug for Unwritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Unwritten(..)")
    }
}

/// Serializes a generated value (infallible for these types: string keys, finite numbers).
pub(crate) fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
