//! A [`Form`] derived from a Rust type's JSON Schema (schemars, draft 2020-12).
//!
//! schemars describes more than an MCP form holds, and spells some of it in ways a form may
//! not: `$ref`s into `$defs` (inlined here), `Option<T>` as `["T", "null"]`, an `anyOf` with
//! a `null` branch or an `enum` with `null` (here: the field is simply not required),
//! documented enum variants as a `oneOf` of `const`s (a titled choice), and number formats
//! such as `int64` or `double` (left out: the type and bounds say it). Anything that is not
//! a flat object of strings, numbers, booleans and string choices is a [`FormError`].

use schemars::JsonSchema;
use serde_json::{Map, Number, Value};

use crate::form::{Choice, FieldKind, Form, FormError, FormField, TextFormat};
use crate::schema::object_schema;

/// How deep `$ref`s may chain before the schema is refused (a recursive type).
const MAX_REF_DEPTH: usize = 16;

impl Form {
    /// The form of `T`: one field per property of its schema.
    ///
    /// Fails when `T` is not a flat object of strings, numbers, integers, booleans, string
    /// enums and sequences of string enums (a nested struct, a map, a union of shapes).
    pub fn of<T: JsonSchema + ?Sized>() -> Result<Form, FormError> {
        let schema = object_schema::<T>().map_err(|e| FormError::new(None, e.to_string()))?;
        Form::from_schema(&schema)
    }

    /// The form of a JSON Schema object (as schemars writes one; `$ref`s point into its
    /// `$defs`).
    pub fn from_schema(schema: &Map<String, Value>) -> Result<Form, FormError> {
        let empty = Map::new();
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for union in ["oneOf", "anyOf", "allOf", "additionalProperties"] {
            if let Some(value) = schema.get(union)
                && value != &Value::Bool(false)
            {
                return Err(FormError::new(
                    None,
                    format!("a form is a flat object of fields, but the schema has `{union}`"),
                ));
            }
        }
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let fields = properties
            .iter()
            .map(|(name, property)| {
                let at = Some(name.as_str());
                let resolved = resolve(property, defs, at, 0)?;
                let (kind, nullable) = kind(&resolved, defs, at)?;
                Ok(FormField {
                    name: name.clone(),
                    required: required.contains(&name.as_str()) && !nullable,
                    title: text(&resolved, "title"),
                    description: text(&resolved, "description"),
                    kind,
                })
            })
            .collect::<Result<Vec<_>, FormError>>()?;
        Ok(Form { fields })
    }
}

fn text(schema: &Map<String, Value>, member: &str) -> Option<String> {
    schema
        .get(member)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn object<'a>(value: &'a Value, at: Option<&str>) -> Result<&'a Map<String, Value>, FormError> {
    value
        .as_object()
        .ok_or_else(|| FormError::new(at, format!("its schema is {value}, not an object")))
}

/// `schema` with its `$ref` (into `defs`) inlined: the referenced schema, with the
/// referencing schema's own members (a field's `description`, `default`) on top.
fn resolve(
    schema: &Value,
    defs: &Map<String, Value>,
    at: Option<&str>,
    depth: usize,
) -> Result<Map<String, Value>, FormError> {
    let schema = object(schema, at)?;
    let Some(reference) = schema.get("$ref") else {
        return Ok(schema.clone());
    };
    if depth >= MAX_REF_DEPTH {
        return Err(FormError::new(
            at,
            "its `$ref`s do not end (a recursive type)",
        ));
    }
    let name = reference
        .as_str()
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .ok_or_else(|| FormError::new(at, format!("`$ref` {reference} is not into `$defs`")))?;
    let target = defs
        .get(name)
        .ok_or_else(|| FormError::new(at, format!("`$ref` {reference} names no definition")))?;
    let mut merged = resolve(target, defs, at, depth + 1)?;
    for (member, value) in schema {
        if member != "$ref" {
            merged.insert(member.clone(), value.clone());
        }
    }
    Ok(merged)
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::from("null")) || schema.get("const") == Some(&Value::Null)
}

/// `schema` without its `null` alternatives (an `Option`), and whether it had any.
fn strip_null(
    mut schema: Map<String, Value>,
    defs: &Map<String, Value>,
    at: Option<&str>,
) -> Result<(Map<String, Value>, bool), FormError> {
    let mut nullable = false;
    if let Some(Value::Array(types)) = schema.get("type").cloned() {
        let kept: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
        nullable = true;
        match kept.as_slice() {
            [one] => schema.insert("type".into(), one.clone()),
            _ => return Err(FormError::new(at, "a form field has exactly one type")),
        };
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        let before = values.len();
        values.retain(|v| !v.is_null());
        nullable |= values.len() != before;
    }
    for union in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = schema.get(union).cloned() else {
            continue;
        };
        let kept: Vec<Value> = branches
            .into_iter()
            .filter(|b| !is_null_schema(b))
            .collect();
        let before = schema[union].as_array().map_or(0, Vec::len);
        if kept.len() == before {
            continue;
        }
        nullable = true;
        schema.remove(union);
        if let [one] = kept.as_slice() {
            // `Option<T>`: T's schema, with this schema's own members on top.
            let mut inner = resolve(one, defs, at, 0)?;
            inner.extend(schema);
            return strip_null(inner, defs, at).map(|(s, _)| (s, true));
        }
        schema.insert(union.into(), Value::Array(kept));
    }
    Ok((schema, nullable))
}

/// The choices of an enum schema: `enum` (with the deprecated `enumNames` as titles), or a
/// `oneOf`/`anyOf` of `const`s or `enum`s, titled by their `title` or `description`. `None`
/// when the schema is no choice.
fn choices(
    schema: &Map<String, Value>,
    defs: &Map<String, Value>,
    at: Option<&str>,
) -> Result<Option<(Vec<Choice>, bool)>, FormError> {
    let strings = |values: &Value| -> Result<Vec<String>, FormError> {
        values
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| {
                v.as_str().map(str::to_owned).ok_or_else(|| {
                    FormError::new(at, format!("a choice must be a string, not {v}"))
                })
            })
            .collect()
    };
    if let Some(values) = schema.get("enum") {
        let values = strings(values)?;
        let names = schema.get("enumNames").map(strings).transpose()?;
        if let Some(names) = &names
            && names.len() != values.len()
        {
            return Err(FormError::new(
                at,
                "`enumNames` and `enum` differ in length",
            ));
        }
        let choices = values
            .into_iter()
            .enumerate()
            .map(|(i, value)| Choice {
                value,
                title: names.as_ref().map(|n| n[i].clone()),
            })
            .collect();
        return Ok(Some((choices, names.is_some())));
    }
    if let Some(Value::String(value)) = schema.get("const") {
        let title = text(schema, "title");
        return Ok(Some((
            vec![Choice {
                value: value.clone(),
                title,
            }],
            false,
        )));
    }
    let Some(branches) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    else {
        return Ok(None);
    };
    let mut all = Vec::new();
    for branch in branches {
        let branch = resolve(branch, defs, at, 0)?;
        let title = text(&branch, "title").or_else(|| text(&branch, "description"));
        let found = choices(&branch, defs, at)?.ok_or_else(|| {
            FormError::new(at, "a union in a form must be a choice among strings")
        })?;
        for mut choice in found.0 {
            if choice.title.is_none() {
                choice.title.clone_from(&title);
            }
            all.push(choice);
        }
    }
    Ok(Some((all, false)))
}

fn count(schema: &Map<String, Value>, member: &str) -> Option<u64> {
    schema.get(member).and_then(Value::as_u64)
}

fn number(schema: &Map<String, Value>, member: &str) -> Option<Number> {
    match schema.get(member) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

/// A default of the wrong type is an error (it would make the form invalid).
fn default<T>(
    schema: &Map<String, Value>,
    at: Option<&str>,
    read: impl Fn(&Value) -> Option<T>,
) -> Result<Option<T>, FormError> {
    match schema.get("default") {
        None | Some(Value::Null) => Ok(None),
        Some(value) => read(value)
            .map(Some)
            .ok_or_else(|| FormError::new(at, format!("the default {value} is not of its type"))),
    }
}

fn string_list(value: &Value) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// The field kind of a resolved property schema, and whether it admits `null`.
fn kind(
    schema: &Map<String, Value>,
    defs: &Map<String, Value>,
    at: Option<&str>,
) -> Result<(FieldKind, bool), FormError> {
    let (schema, nullable) = strip_null(schema.clone(), defs, at)?;
    let schema = &schema;
    let string_default = |s: &Map<String, Value>| default(s, at, |v| v.as_str().map(str::to_owned));
    if let Some((choices, legacy_titles)) = choices(schema, defs, at)? {
        let default = string_default(schema)?;
        if let Some(value) = &default
            && !choices.iter().any(|c| &c.value == value)
        {
            return Err(FormError::new(
                at,
                format!("the default {value:?} is no choice"),
            ));
        }
        return Ok((
            FieldKind::Select {
                choices,
                legacy_titles,
                default,
            },
            nullable,
        ));
    }
    let kind = match schema.get("type").and_then(Value::as_str) {
        Some("string") => FieldKind::Text {
            min_length: count(schema, "minLength"),
            max_length: count(schema, "maxLength"),
            format: schema
                .get("format")
                .and_then(Value::as_str)
                .and_then(TextFormat::parse),
            default: string_default(schema)?,
        },
        Some(t @ ("integer" | "number")) => FieldKind::Number {
            integer: t == "integer",
            minimum: number(schema, "minimum"),
            maximum: number(schema, "maximum"),
            default: default(schema, at, |v| match v {
                Value::Number(n) => Some(n.clone()),
                _ => None,
            })?,
        },
        Some("boolean") => FieldKind::Boolean {
            default: default(schema, at, Value::as_bool)?,
        },
        Some("array") => {
            let items = schema
                .get("items")
                .ok_or_else(|| FormError::new(at, "an array field needs `items`"))?;
            let items = resolve(items, defs, at, 0)?;
            let (choices, _) = choices(&items, defs, at)?.ok_or_else(|| {
                FormError::new(at, "an array field must be a multiple choice among strings")
            })?;
            FieldKind::MultiSelect {
                choices,
                min_items: count(schema, "minItems"),
                max_items: count(schema, "maxItems"),
                default: default(schema, at, string_list)?,
            }
        }
        other => {
            let what = other.map_or_else(|| "no type".to_owned(), |t| format!("type `{t}`"));
            return Err(FormError::new(
                at,
                format!(
                    "a form field is a string, number, integer, boolean or a choice among \
                     strings, not {what}"
                ),
            ));
        }
    };
    Ok((kind, nullable))
}
