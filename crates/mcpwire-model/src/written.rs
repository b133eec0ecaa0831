//! What a generated value is written as: a [`Value`], or its JSON text ([`RawValue`]) written
//! once from the generated type, with no [`Value`] in between.
//!
//! The conversions build a version's generated type and hand it to [`Written::written`]; the
//! caller picks the form by the type it asks for. A server writing a reply asks for the text
//! (the bytes of the reply's `result`); a caller that inspects the result asks for the value.
//! Both are the same JSON, and the same bytes wherever no object holds members its schema
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
    fn written(value: impl Serialize) -> Self;
}

impl Written for Value {
    fn written(value: impl Serialize) -> Value {
        to_value(value)
    }
}

impl Written for Box<RawValue> {
    fn written(value: impl Serialize) -> Self {
        // Infallible for the generated types, as for `to_value`.
        serde_json::value::to_raw_value(&value).unwrap_or_default()
    }
}

/// Serializes a generated value (infallible for these types: string keys, finite numbers).
pub(crate) fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
