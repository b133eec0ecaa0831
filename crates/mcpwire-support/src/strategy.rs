//! Building blocks of the generated proptest strategies (feature `proptest`).
//!
//! Every generated module has a `strategies` submodule with one function per type
//! (`strategies::call_tool_request()`), built from these helpers. Values stay small (short
//! strings, at most [`MAX_ITEMS`] items, JSON values at most [`DEPTH`] levels deep) and respect
//! the schema constraints the generator carries (`minimum`, `maximum`, `minItems`, `maxItems`,
//! `minLength`, `maxLength`, `format`), so every value validates against its definition.
//!
//! ```
//! use mcpwire_support::strategy;
//! use proptest::strategy::{Strategy, ValueTree};
//! use proptest::test_runner::TestRunner;
//!
//! let mut runner = TestRunner::deterministic();
//! let number = strategy::number(Some(0.0), Some(1.0)).new_tree(&mut runner).unwrap().current();
//! let value = number.as_f64().unwrap();
//! assert!((0.0..=1.0).contains(&value));
//! ```

use std::collections::BTreeMap;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Just, Union};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Number, Value};

/// How many levels deep recursive types and arbitrary JSON values go.
pub const DEPTH: u32 = 3;

/// The most items a generated array or map has (unless `minItems` asks for more).
pub const MAX_ITEMS: usize = 3;

/// One generated value of a definition, encoded, with the outcome of decoding it back.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The value as JSON.
    pub json: Value,
    /// `Ok(())` when the JSON decodes back through the type to an equal value; otherwise what
    /// went wrong.
    pub decoded: Result<(), String>,
}

/// A generated value of `T` as a [`Sample`]: encoded, then decoded back and compared.
pub fn sample<T>(strategy: BoxedStrategy<T>) -> BoxedStrategy<Sample>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + 'static,
{
    strategy
        .prop_map(|value| {
            let json = serde_json::to_value(&value).expect("generated values encode");
            let decoded = match decode_value::<T>(json.clone()) {
                Ok(back) if back == value => Ok(()),
                Ok(back) => Err(format!("decoded to {back:?}, generated {value:?}")),
                Err(e) => Err(format!("does not decode: {e}")),
            };
            Sample { json, decoded }
        })
        .boxed()
}

/// `json` decoded as `T`, as `serde_json::from_value` would, but through the same
/// `serde_path_to_error` deserializer as [`crate::roundtrip`]: the generated `roundtrip`
/// already instantiates every definition's decoder for it, so the strategies add no second
/// copy of every type's decoder (one per `serde_json::Value` deserializer) to the crate.
fn decode_value<T: DeserializeOwned>(json: Value) -> Result<T, serde_json::Error> {
    serde_path_to_error::deserialize(json).map_err(serde_path_to_error::Error::into_inner)
}

/// A string respecting an optional `format` (`uri`, `uri-template`, `byte`, `date`,
/// `date-time`, `email`) and length bounds.
pub fn string(
    format: Option<&str>,
    min_length: Option<u64>,
    max_length: Option<u64>,
) -> BoxedStrategy<String> {
    let pattern = match format {
        Some("uri") => "(https://example\\.com/[a-z0-9]{0,6}|file:///[a-z]{1,6}|urn:x:[a-z]{1,4})",
        Some("uri-template") => {
            "(file:///[a-z]{1,6}(/\\{[a-z]{1,4}\\})?|https://h\\.example/\\{id\\})"
        }
        Some("byte") => "([A-Za-z0-9+/]{4}){0,3}([A-Za-z0-9+/]{2}==)?",
        Some("date") => "20[0-9]{2}-0[1-9]-[0-2][1-9]",
        Some("date-time") => "20[0-9]{2}-0[1-9]-[0-2][1-9]T[01][0-9]:[0-5][0-9]:[0-5][0-9]Z",
        Some("email") => "[a-z]{1,6}@example\\.com",
        _ => "([a-zA-Z0-9 _./:-]{0,10}|[\\PC]{0,4})",
    };
    let min = min_length.unwrap_or(0) as usize;
    let max = max_length.map(|m| m as usize);
    proptest::string::string_regex(pattern)
        .expect("strategy patterns compile")
        .prop_map(move |mut s| {
            // Length bounds count characters; pad or cut to fit them.
            while s.chars().count() < min {
                s.push('x');
            }
            if let Some(max) = max {
                s = s.chars().take(max).collect();
            }
            s
        })
        .boxed()
}

/// An integer in `[minimum, maximum]` (inclusive), favouring small values.
pub fn integer(minimum: Option<i64>, maximum: Option<i64>) -> BoxedStrategy<i64> {
    let lo = minimum.unwrap_or(i64::MIN);
    let hi = maximum.unwrap_or(i64::MAX);
    let small = (lo.max(-100))..=(hi.min(100));
    if small.start() <= small.end() {
        prop_oneof![3 => small, 1 => lo..=hi].boxed()
    } else {
        (lo..=hi).boxed()
    }
}

/// A JSON number in `[minimum, maximum]` (inclusive): integers and short decimals, which
/// re-parse to exactly the same value.
pub fn number(minimum: Option<f64>, maximum: Option<f64>) -> BoxedStrategy<Number> {
    let lo = minimum.unwrap_or(-1e6);
    let hi = maximum.unwrap_or(1e6);
    let whole = (lo.ceil() as i64)..=(hi.floor() as i64);
    let hundredths = ((lo * 100.0).ceil() as i64)..=((hi * 100.0).floor() as i64);
    prop_oneof![
        whole.prop_map(Number::from),
        hundredths.prop_map(|h| Number::from_f64(h as f64 / 100.0).expect("finite")),
    ]
    .boxed()
}

/// `true` or `false`.
pub fn boolean() -> BoxedStrategy<bool> {
    any::<bool>().boxed()
}

/// A small arbitrary JSON value (any type, at most [`DEPTH`] levels and a few members).
pub fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        number(None, None).prop_map(Value::Number),
        string(None, None, None).prop_map(Value::String),
    ];
    leaf.prop_recursive(DEPTH, 16, MAX_ITEMS as u32, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..=MAX_ITEMS).prop_map(Value::Array),
            proptest::collection::btree_map(key(), inner, 0..=MAX_ITEMS)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// A small arbitrary JSON value (see [`any_json`]) kept as its text.
pub fn json() -> BoxedStrategy<crate::Json> {
    any_json().prop_map(crate::Json::from).boxed()
}

/// A small JSON object with arbitrary members (values as [`any_json`]) kept as its text.
pub fn json_object() -> BoxedStrategy<crate::JsonObject> {
    proptest::collection::btree_map(key(), any_json(), 0..=MAX_ITEMS)
        .prop_map(|m| crate::JsonObject::from(m.into_iter().collect::<serde_json::Map<_, _>>()))
        .boxed()
}

/// A [`crate::JsonObjectMap`] of a few members, each an object with a few members.
pub fn json_object_map() -> BoxedStrategy<crate::JsonObjectMap> {
    proptest::collection::btree_map(key(), json_object(), 0..=MAX_ITEMS)
        .prop_map(crate::JsonObjectMap::from)
        .boxed()
}

/// A short object member name.
fn key() -> BoxedStrategy<String> {
    "[a-zA-Z_][a-zA-Z0-9_.-]{0,7}".boxed()
}

/// `None` or a value.
pub fn optional<T: Debug + 'static>(strategy: BoxedStrategy<T>) -> BoxedStrategy<Option<T>> {
    proptest::option::of(strategy).boxed()
}

/// An array of `min_items..=max_items` items (`max_items` defaults to `min_items` + [`MAX_ITEMS`]).
pub fn vec<T: Debug + 'static>(
    item: BoxedStrategy<T>,
    min_items: Option<u64>,
    max_items: Option<u64>,
) -> BoxedStrategy<Vec<T>> {
    let min = min_items.unwrap_or(0) as usize;
    let max = max_items.map_or(min + MAX_ITEMS, |m| (m as usize).min(min + MAX_ITEMS));
    proptest::collection::vec(item, min..=max).boxed()
}

/// A map with a few members.
pub fn map<T: Debug + 'static>(value: BoxedStrategy<T>) -> BoxedStrategy<BTreeMap<String, T>> {
    proptest::collection::btree_map(key(), value, 0..=MAX_ITEMS).boxed()
}

/// The undeclared members of an object that admits them: a few members whose names are none
/// of the declared ones (`reserved`).
pub fn extra<T: Debug + 'static>(
    value: BoxedStrategy<T>,
    reserved: &'static [&'static str],
) -> BoxedStrategy<BTreeMap<String, T>> {
    proptest::collection::btree_map(
        "x-[a-z]{1,6}".prop_filter("a declared member", move |k| {
            !reserved.contains(&k.as_str())
        }),
        value,
        0..=2,
    )
    .boxed()
}

/// One of the known values of a closed enumeration.
pub fn select<T: Clone + Debug + 'static>(values: Vec<T>) -> BoxedStrategy<T> {
    proptest::sample::select(values).boxed()
}

/// A value of an open enumeration: mostly a known value, sometimes another string (decoded
/// through `From<&str>`, so a string that happens to be known becomes the known variant).
pub fn open_enum<T>(known: &'static [&'static str]) -> BoxedStrategy<T>
where
    T: for<'a> From<&'a str> + Clone + Debug + 'static,
{
    prop_oneof![
        3 => proptest::sample::select(known).prop_map(T::from),
        1 => "[a-z][a-z_/-]{0,8}".prop_map(|s| T::from(s.as_str())),
    ]
    .boxed()
}

/// Keeps the values of a union that decode back as the variant they were generated as.
///
/// Some values are ambiguous: a `GetTaskPayloadResult` with no members is also the empty
/// `Result`, which the union's decoder picks. Such values are valid but would not round-trip
/// to the same variant, so they are left out (never whole variants, unless every value of a
/// variant is ambiguous).
pub fn unambiguous<U>(
    strategy: BoxedStrategy<U>,
    variant: fn(&U) -> &'static str,
) -> BoxedStrategy<U>
where
    U: Serialize + DeserializeOwned + Debug + 'static,
{
    strategy
        .prop_filter("decodes as another variant of its union", move |value| {
            serde_json::to_value(value)
                .ok()
                .and_then(|json| decode_value::<U>(json).ok())
                .is_some_and(|back| variant(&back) == variant(value))
        })
        .boxed()
}

/// One of `alternatives`, chosen uniformly.
pub fn one_of<T: Debug + 'static>(alternatives: Vec<BoxedStrategy<T>>) -> BoxedStrategy<T> {
    Union::new(alternatives).boxed()
}
