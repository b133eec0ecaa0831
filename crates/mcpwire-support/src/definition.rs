//! Definitions named at run time: every generated module has one table from a definition's
//! name to its type, `visit_definition(name, visitor)`, which calls a [`DefinitionVisitor`]
//! with that type. `roundtrip` and `roundtrip_text` are two such visitors
//! ([`RoundtripValue`], [`RoundtripText`]); a caller writes its own for anything else it wants
//! to do with a definition chosen at run time (`mcpwire decode` prints the typed value
//! pretty).
//!
//! ```
//! use mcpwire_types::mcp::v2025_11_25::visit_definition;
//! use mcpwire_support::DefinitionVisitor;
//! use serde::{Serialize, de::DeserializeOwned};
//!
//! /// Decodes a JSON text as the definition and prints it back pretty.
//! struct Pretty<'a>(&'a str);
//!
//! impl DefinitionVisitor for Pretty<'_> {
//!     type Output = Result<String, serde_json::Error>;
//!     fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
//!         let typed: T = serde_json::from_str(self.0)?;
//!         serde_json::to_string_pretty(&typed)
//!     }
//! }
//!
//! let text = r#"{"uri":"file:///a","name":"a","type":"resource_link","size":1e3}"#;
//! let pretty = visit_definition("ResourceLink", Pretty(text)).unwrap().unwrap();
//! assert!(pretty.contains(r#""size": 1e3"#), "{pretty}");
//! assert!(visit_definition("NoSuchDefinition", Pretty(text)).is_none());
//! ```
//!
//! The `schemars` JSON Schema is not a visitor: a bound can only be conditional on a feature
//! of the crate that declares it, and the generated code is also compiled outside this crate
//! (the generator's snapshot tests), where its `schemars` feature and this crate's differ. So
//! `json_schema` keeps a name table of its own, behind the feature.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Something to do with a definition's type, chosen by name at run time through a generated
/// module's `visit_definition(name, visitor)` (see the module documentation).
pub trait DefinitionVisitor {
    /// What the visit gives back.
    type Output;

    /// Does the work with `T`, the definition's type.
    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output;
}

/// The visitor behind a generated `roundtrip`: decodes the [`Value`] as the definition and
/// encodes it back (see [`super::roundtrip`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundtripValue(pub Value);

impl DefinitionVisitor for RoundtripValue {
    type Output = Result<Value, String>;

    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
        super::roundtrip::<T>(self.0)
    }
}

/// The visitor behind a generated `roundtrip_text`: decodes the JSON text as the definition
/// and encodes it back as text, every integer as it was spelled (see
/// [`super::roundtrip_text`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundtripText<'a>(pub &'a str);

impl DefinitionVisitor for RoundtripText<'_> {
    type Output = Result<String, String>;

    fn visit<T: DeserializeOwned + Serialize + 'static>(self) -> Self::Output {
        super::roundtrip_text::<T>(self.0)
    }
}
