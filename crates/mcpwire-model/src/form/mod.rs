//! The version-neutral model of an elicitation form: a flat list of fields, each a string,
//! number, boolean, or a single or multiple choice among strings, with optional titles,
//! descriptions and defaults. `form/derive.rs` derives one from a Rust type's JSON Schema;
//! `form/wire.rs` converts it into each version's `PrimitiveSchemaDefinition`s.
//!
//! Like the content model, it knows nothing of the server machinery, so that a client crate
//! can share it.

pub(crate) mod derive;
pub(crate) mod wire;

use serde_json::Number;

/// An elicitation form (`requestedSchema`): its fields, by name (the wire form's
/// `properties` is a JSON object, whose members have no order).
///
/// ```
/// use mcpwire_model::Form;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Contact {
///     /// Your name.
///     name: String,
///     /// Whether we may write to you.
///     subscribe: Option<bool>,
/// }
///
/// let form = Form::of::<Contact>().unwrap();
/// assert_eq!(form.fields.len(), 2);
/// assert!(form.fields[0].required && !form.fields[1].required);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Form {
    /// The fields.
    pub fields: Vec<FormField>,
}

/// One field of a [`Form`].
#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    /// The member name of the answer.
    pub name: String,
    /// Whether the answer must have it (a Rust `Option` or a `#[serde(default)]` field is
    /// not required).
    pub required: bool,
    /// A human-readable title.
    pub title: Option<String>,
    /// What to enter.
    pub description: Option<String>,
    /// What kind of value it takes.
    pub kind: FieldKind,
}

/// The kind of value a [`FormField`] takes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    /// A string (`StringSchema`).
    Text {
        /// The fewest characters.
        min_length: Option<u64>,
        /// The most characters.
        max_length: Option<u64>,
        /// A format the client may check.
        format: Option<TextFormat>,
        /// The value offered (from 2025-11-25).
        default: Option<String>,
    },
    /// A number or an integer (`NumberSchema`).
    Number {
        /// Whether only whole numbers are allowed (`type: "integer"`).
        integer: bool,
        /// The least value.
        minimum: Option<Number>,
        /// The greatest value.
        maximum: Option<Number>,
        /// The value offered (from 2025-11-25).
        default: Option<Number>,
    },
    /// A boolean (`BooleanSchema`).
    Boolean {
        /// The value offered.
        default: Option<bool>,
    },
    /// One of several strings: an untitled enum, a titled one (`oneOf` of `const`/`title`,
    /// from 2025-11-25), or the deprecated `enumNames` form.
    Select {
        /// The choices.
        choices: Vec<Choice>,
        /// Send the titles as the deprecated `enumNames` (the only titled form of
        /// 2025-06-18).
        legacy_titles: bool,
        /// The choice offered (from 2025-11-25).
        default: Option<String>,
    },
    /// Several of several strings (from 2025-11-25): an array of untitled or titled
    /// choices.
    MultiSelect {
        /// The choices.
        choices: Vec<Choice>,
        /// The fewest choices.
        min_items: Option<u64>,
        /// The most choices.
        max_items: Option<u64>,
        /// The choices offered.
        default: Option<Vec<String>>,
    },
}

/// One choice of a [`FieldKind::Select`] or [`FieldKind::MultiSelect`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The value the answer carries.
    pub value: String,
    /// What the user sees, if not the value.
    pub title: Option<String>,
}

impl Choice {
    /// The title shown: the title, else the value.
    pub fn shown(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.value)
    }
}

/// Whether any of `choices` has a title (then the field is a titled enum).
pub(crate) fn titled(choices: &[Choice]) -> bool {
    choices.iter().any(|c| c.title.is_some())
}

/// A string format MCP forms know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    /// `email`.
    Email,
    /// `uri`.
    Uri,
    /// `date`.
    Date,
    /// `date-time`.
    DateTime,
}

impl TextFormat {
    /// The format named `name` in a JSON Schema, if MCP forms know it.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "email" => Some(TextFormat::Email),
            "uri" => Some(TextFormat::Uri),
            "date" => Some(TextFormat::Date),
            "date-time" => Some(TextFormat::DateTime),
            _ => None,
        }
    }
}

/// Why a Rust type cannot be a form, or a form cannot be sent under a version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormError {
    /// The field, when the problem is one field's.
    pub field: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl FormError {
    pub(crate) fn new(field: Option<&str>, reason: impl Into<String>) -> Self {
        Self {
            field: field.map(str::to_owned),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for FormError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "form field `{field}`: {}", self.reason),
            None => write!(f, "form: {}", self.reason),
        }
    }
}

impl std::error::Error for FormError {}
