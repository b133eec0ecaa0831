//! The form model on the wire: a [`Form`] converted into the `requestedSchema` of each
//! version with elicitation, built from that version's generated `PrimitiveSchemaDefinition`
//! types. What a version cannot say is a [`FormError`]: defaults and multiple choices before
//! 2025-11-25 (2025-06-18 has only boolean defaults, and titles only as `enumNames`).

use std::collections::BTreeMap;

use mcpwire_types::mcp::{v2025_06_18, v2025_11_25};

use crate::form::{Choice, FieldKind, Form, FormError, FormField, TextFormat, titled};
use crate::version::Version;

fn lacking(field: &FormField, what: &str, version: Version) -> FormError {
    FormError::new(
        Some(&field.name),
        format!("{what} cannot be sent under MCP {version}"),
    )
}

fn values(choices: &[Choice]) -> Vec<String> {
    choices.iter().map(|c| c.value.clone()).collect()
}

fn titles(choices: &[Choice]) -> Vec<String> {
    choices.iter().map(|c| c.shown().to_owned()).collect()
}

/// The names of the required fields, `None` when there are none.
fn required(form: &Form) -> Option<Vec<String>> {
    let names: Vec<String> = form
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name.clone())
        .collect();
    (!names.is_empty()).then_some(names)
}

/// Sets the `title` and `description` every generated schema type has.
macro_rules! described {
    ($out:expr, $field:expr) => {{
        let mut out = $out;
        out.title = $field.title.clone();
        out.description = $field.description.clone();
        out
    }};
}

/// The `StringSchema.format` of module `$m`.
macro_rules! text_format {
    ($m:ident, $format:expr) => {
        $format.map(|f| match f {
            TextFormat::Email => $m::StringSchemaFormat::Email,
            TextFormat::Uri => $m::StringSchemaFormat::Uri,
            TextFormat::Date => $m::StringSchemaFormat::Date,
            TextFormat::DateTime => $m::StringSchemaFormat::DateTime,
        })
    };
}

/// The `StringSchema` of module `$m`, without its default.
macro_rules! text_schema {
    ($m:ident, $field:expr, $min_length:expr, $max_length:expr, $format:expr) => {{
        let mut out = described!($m::StringSchema::new(), $field);
        out.min_length = $min_length.map(Into::into);
        out.max_length = $max_length.map(Into::into);
        out.format = text_format!($m, $format);
        out
    }};
}

/// The `NumberSchema` of module `$m`, without its default.
macro_rules! number_schema {
    ($m:ident, $field:expr, $integer:expr, $minimum:expr, $maximum:expr) => {{
        let ty = if *$integer {
            $m::NumberSchemaType::Integer
        } else {
            $m::NumberSchemaType::Number
        };
        let mut out = described!($m::NumberSchema::new(ty), $field);
        out.minimum = $minimum.clone();
        out.maximum = $maximum.clone();
        out
    }};
}

/// The `BooleanSchema` of module `$m` (every version with forms has its default).
macro_rules! boolean_schema {
    ($m:ident, $field:expr, $default:expr) => {{
        let mut out = described!($m::BooleanSchema::new(), $field);
        out.default = *$default;
        $m::PrimitiveSchemaDefinition::BooleanSchema(out)
    }};
}

/// Sets the item bounds and the default every multiple-choice schema type has.
macro_rules! bounded {
    ($out:expr, $min_items:expr, $max_items:expr, $default:expr) => {{
        let mut out = $out;
        out.min_items = $min_items.map(Into::into);
        out.max_items = $max_items.map(Into::into);
        out.default = $default.clone();
        out
    }};
}

/// A `PrimitiveSchemaDefinition` of a version from 2025-11-25 on (one shape, two modules).
macro_rules! primitive_2025_11_25_on {
    ($fn:ident, $m:ident) => {
        fn $fn(field: &FormField) -> $m::PrimitiveSchemaDefinition {
            use $m as m;
            match &field.kind {
                FieldKind::Text {
                    min_length,
                    max_length,
                    format,
                    default,
                } => {
                    let mut out = text_schema!(m, field, min_length, max_length, format);
                    out.default = default.clone();
                    m::PrimitiveSchemaDefinition::StringSchema(out)
                }
                FieldKind::Number {
                    integer,
                    minimum,
                    maximum,
                    default,
                } => {
                    let mut out = number_schema!(m, field, integer, minimum, maximum);
                    out.default = default.clone();
                    m::PrimitiveSchemaDefinition::NumberSchema(out)
                }
                FieldKind::Boolean { default } => boolean_schema!(m, field, default),
                FieldKind::Select {
                    choices,
                    legacy_titles: true,
                    default,
                } => {
                    let mut out =
                        described!(m::LegacyTitledEnumSchema::new(values(choices)), field);
                    out.enum_names = Some(titles(choices));
                    out.default = default.clone();
                    m::PrimitiveSchemaDefinition::LegacyTitledEnumSchema(out)
                }
                FieldKind::Select {
                    choices, default, ..
                } if titled(choices) => {
                    let one_of = choices
                        .iter()
                        .map(|c| {
                            m::TitledSingleSelectEnumSchemaOneOfItem::new(&*c.value, c.shown())
                        })
                        .collect::<Vec<_>>();
                    let mut out = described!(m::TitledSingleSelectEnumSchema::new(one_of), field);
                    out.default = default.clone();
                    m::PrimitiveSchemaDefinition::TitledSingleSelectEnumSchema(out)
                }
                FieldKind::Select {
                    choices, default, ..
                } => {
                    let mut out = described!(
                        m::UntitledSingleSelectEnumSchema::new(values(choices)),
                        field
                    );
                    out.default = default.clone();
                    m::PrimitiveSchemaDefinition::UntitledSingleSelectEnumSchema(out)
                }
                FieldKind::MultiSelect {
                    choices,
                    min_items,
                    max_items,
                    default,
                } if titled(choices) => {
                    let any_of = choices
                        .iter()
                        .map(|c| {
                            m::TitledMultiSelectEnumSchemaItemsAnyOfItem::new(&*c.value, c.shown())
                        })
                        .collect::<Vec<_>>();
                    let items = m::TitledMultiSelectEnumSchemaItems::new(any_of);
                    let out = described!(m::TitledMultiSelectEnumSchema::new(items), field);
                    let out = bounded!(out, min_items, max_items, default);
                    m::PrimitiveSchemaDefinition::TitledMultiSelectEnumSchema(out)
                }
                FieldKind::MultiSelect {
                    choices,
                    min_items,
                    max_items,
                    default,
                } => {
                    let items = m::UntitledMultiSelectEnumSchemaItems::new(values(choices));
                    let out = described!(m::UntitledMultiSelectEnumSchema::new(items), field);
                    let out = bounded!(out, min_items, max_items, default);
                    m::PrimitiveSchemaDefinition::UntitledMultiSelectEnumSchema(out)
                }
            }
        }
    };
}

// One type from 2025-11-25 on (shared by the generated modules), so one conversion.
primitive_2025_11_25_on!(primitive_2025_11_25, v2025_11_25);

/// 2025-06-18: no defaults but a boolean's, no multiple choices, titles only as `enumNames`.
fn primitive_2025_06_18(
    field: &FormField,
) -> Result<v2025_06_18::PrimitiveSchemaDefinition, FormError> {
    use v2025_06_18 as m;
    let version = Version::V2025_06_18;
    let default_set = match &field.kind {
        FieldKind::Text { default, .. } | FieldKind::Select { default, .. } => default.is_some(),
        FieldKind::Number { default, .. } => default.is_some(),
        FieldKind::Boolean { .. } | FieldKind::MultiSelect { .. } => false,
    };
    if default_set {
        return Err(lacking(field, "a default value", version));
    }
    Ok(match &field.kind {
        FieldKind::Text {
            min_length,
            max_length,
            format,
            ..
        } => m::PrimitiveSchemaDefinition::StringSchema(text_schema!(
            m, field, min_length, max_length, format
        )),
        FieldKind::Number {
            integer,
            minimum,
            maximum,
            ..
        } => m::PrimitiveSchemaDefinition::NumberSchema(number_schema!(
            m, field, integer, minimum, maximum
        )),
        FieldKind::Boolean { default } => boolean_schema!(m, field, default),
        FieldKind::Select { choices, .. } => {
            let mut out = described!(m::EnumSchema::new(values(choices)), field);
            out.enum_names = titled(choices).then(|| titles(choices));
            m::PrimitiveSchemaDefinition::EnumSchema(out)
        }
        FieldKind::MultiSelect { .. } => {
            return Err(lacking(field, "a multiple choice", version));
        }
    })
}

/// Every field of `form` through `convert`, by name.
fn properties<P>(
    form: &Form,
    convert: impl Fn(&FormField) -> Result<P, FormError>,
) -> Result<BTreeMap<String, P>, FormError> {
    form.fields
        .iter()
        .map(|field| Ok((field.name.clone(), convert(field)?)))
        .collect()
}

/// A `requestedSchema` function: `$ty`, with every field through `$convert` and the required
/// fields listed.
macro_rules! requested {
    ($(#[$doc:meta])* $fn:ident -> $ty:ty, $convert:expr) => {
        $(#[$doc])*
        pub(crate) fn $fn(form: &Form) -> Result<$ty, FormError> {
            let mut out = <$ty>::new(properties(form, $convert)?);
            out.required = required(form);
            Ok(out)
        }
    };
}

requested!(
    /// The `requestedSchema` of 2025-06-18.
    requested_2025_06_18 -> v2025_06_18::ElicitRequestParamsRequestedSchema,
    primitive_2025_06_18
);
requested!(
    /// The `requestedSchema` of 2025-11-25 on (one generated type, shared by those versions).
    requested_2025_11_25_on -> v2025_11_25::ElicitRequestFormParamsRequestedSchema,
    |f| Ok(primitive_2025_11_25(f))
);
