//! Building blocks of the generated proptest strategies (feature `proptest`).
//!
//! Every generated module has a `strategies` submodule with one function per type
//! (`strategies::call_tool_request()`), built from these helpers. Each type's values are
//! generated as JSON (objects by [`object`] from one strategy per member, unions by
//! [`union`]) and decoded as the type ([`typed`]): every combinator works on
//! `serde_json::Value`, so it is compiled once for the crate instead of once per generated
//! type, which keeps the crate's build light. Values stay small (short
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

/// Samples of a definition of type `T`: each JSON value `json` generates is decoded as a `T`,
/// encoded again (the [`Sample`]'s `json`), then decoded back and compared with the first.
///
/// The combinator is one type for every `T` (a map by a function pointer): only
/// `sample_of`, its map, is compiled once per type.
pub fn sample<T>(json: BoxedStrategy<Value>) -> BoxedStrategy<Sample>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + 'static,
{
    json.prop_map(sample_of::<T> as fn(Value) -> Sample).boxed()
}

/// The [`Sample`] of one generated JSON value of a `T` (see [`sample`]).
fn sample_of<T>(generated: Value) -> Sample
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let value = match decode_value::<T>(generated.clone()) {
        Ok(value) => value,
        Err(e) => return Sample::undecodable(generated, &e),
    };
    let json = serde_json::to_value(&value).expect("generated values encode");
    let decoded = match decode_value::<T>(json.clone()) {
        Ok(back) if back == value => Ok(()),
        Ok(back) => Err(Sample::differs(&back, &value)),
        Err(e) => Err(format!("does not decode: {e}")),
    };
    Sample { json, decoded }
}

// The messages of `sample_of`, written once rather than in each of its copies (one per type).
impl Sample {
    /// The sample of `generated` JSON that does not decode.
    fn undecodable(generated: Value, e: &serde_json::Error) -> Sample {
        Sample {
            json: generated,
            decoded: Err(format!("the generated JSON does not decode: {e}")),
        }
    }

    /// A value that decoded back to another.
    fn differs(back: &dyn Debug, generated: &dyn Debug) -> String {
        format!("decoded to {back:?}, generated {generated:?}")
    }
}

/// Writes a generated `strategies` module's `definition(name)`, the [`sample`]s of every
/// definition by its name in the schema, from one line per definition: its name, its type
/// (in the parent module) and the function giving its JSON (a name, or a path to a shared
/// module's).
///
/// ```
/// mod types {
///     /// A type of the parent module, as the generator writes them.
///     pub type Flag = bool;
///     pub mod strategies {
///         use mcpwire_support::strategy as s;
///         fn flag_json() -> proptest::strategy::BoxedStrategy<serde_json::Value> {
///             s::boolean_json()
///         }
///         mcpwire_support::sample_table! {
///             "flag" Flag flag_json;
///         }
///     }
/// }
/// assert!(types::strategies::definition("flag").is_some());
/// assert!(types::strategies::definition("other").is_none());
/// ```
#[macro_export]
macro_rules! sample_table {
    ($($name:literal $ty:ident $json:path;)*) => {
        /// Encoded samples of the definition named `name`, each with the outcome of decoding
        /// it back; `None` when there is no such definition.
        pub fn definition(
            name: &str,
        ) -> ::core::option::Option<
            ::proptest::strategy::BoxedStrategy<$crate::strategy::Sample>,
        > {
            ::core::option::Option::Some(match name {
                $($name => $crate::strategy::sample::<super::$ty>($json()),)*
                _ => return ::core::option::Option::None,
            })
        }
    };
}

/// Values of `T`, each decoded from a JSON value `json` generates (which the definition's
/// [`sample`]s check decodes; a value that does not is a bug of the generator, and panics).
pub fn typed<T>(json: BoxedStrategy<Value>) -> BoxedStrategy<T>
where
    T: DeserializeOwned + Debug + 'static,
{
    json.prop_map(decode_generated::<T> as fn(Value) -> T)
        .boxed()
}

/// One generated JSON value decoded as a `T` (see [`typed`]).
fn decode_generated<T: DeserializeOwned>(json: Value) -> T {
    match decode_value::<T>(json.clone()) {
        Ok(value) => value,
        Err(e) => generated_does_not_decode(&e, &json),
    }
}

/// The panic of [`decode_generated`], written once rather than in each of its copies.
#[cold]
fn generated_does_not_decode(e: &serde_json::Error, json: &Value) -> ! {
    panic!("a generated value does not decode as its type: {e}: {json}")
}

/// `json` decoded as `T`, as `serde_json::from_value` would, but through the same
/// `serde_path_to_error` deserializer as [`crate::roundtrip`]: the generated `roundtrip`
/// already instantiates every definition's decoder for it, so the strategies add no second
/// copy of every type's decoder (one per `serde_json::Value` deserializer) to the crate.
fn decode_value<T: DeserializeOwned>(json: Value) -> Result<T, serde_json::Error> {
    serde_path_to_error::deserialize(json).map_err(serde_path_to_error::Error::into_inner)
}

/// A strategy of one object member's JSON value: `None` leaves the member out.
pub type MemberStrategy = BoxedStrategy<Option<Value>>;

/// A member that is always present.
pub fn required(value: BoxedStrategy<Value>) -> MemberStrategy {
    value.prop_map(Some).boxed()
}

/// A member that is present or left out.
pub fn optional_member(value: BoxedStrategy<Value>) -> MemberStrategy {
    proptest::option::of(value).boxed()
}

/// A member that is always present, `null` or a value.
pub fn nullable(value: BoxedStrategy<Value>) -> MemberStrategy {
    proptest::option::of(value)
        .prop_map(|v| Some(v.unwrap_or(Value::Null)))
        .boxed()
}

/// A member that is left out, `null` or a value.
pub fn optional_nullable(value: BoxedStrategy<Value>) -> MemberStrategy {
    proptest::option::of(proptest::option::of(value))
        .prop_map(|v| v.map(|v| v.unwrap_or(Value::Null)))
        .boxed()
}

/// A member that is always left out (a member recursing deeper than the depth left).
pub fn absent() -> MemberStrategy {
    Just(None).boxed()
}

/// A member that is always `null` (a required nullable member recursing deeper than the
/// depth left).
pub fn null_member() -> MemberStrategy {
    Just(Some(Value::Null)).boxed()
}

/// A JSON object of the declared `members` only (each by its name, left out when its strategy
/// gives `None`): [`object_with`] without undeclared members or a `not: {"required"}` rule,
/// the common case.
///
/// ```
/// use mcpwire_support::strategy as s;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let point = s::object([("x", s::required(s::integer_json(Some(0), Some(9)))), ("label", s::absent())]);
/// let value = point.new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(value["x"].is_i64());
/// assert!(value.get("label").is_none());
/// ```
pub fn object(
    members: impl IntoIterator<Item = (&'static str, MemberStrategy)>,
) -> BoxedStrategy<Value> {
    object_with(members.into_iter().collect(), no_extra(), None)
}

/// A JSON object of the declared `members` (each by its name, left out when its strategy
/// gives `None`) followed by the undeclared ones `extra` gives.
///
/// `not_all_present` is a `not: {"required": [...]}` rule: the listed members and the one
/// left out when every listed member came out present (the first optional one of them).
///
/// ```
/// use mcpwire_support::strategy as s;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let point = s::object_with(
///     vec![("x", s::required(s::integer_json(Some(0), Some(9)))), ("y", s::absent())],
///     s::extra(s::any_json(), &["x", "y"]),
///     None,
/// );
/// let value = point.new_tree(&mut TestRunner::deterministic()).unwrap().current();
/// assert!(value["x"].is_i64());
/// assert!(value.get("y").is_none());
/// ```
pub fn object_with(
    members: Vec<(&'static str, MemberStrategy)>,
    extra: BoxedStrategy<BTreeMap<String, Value>>,
    not_all_present: Option<(&'static [&'static str], &'static str)>,
) -> BoxedStrategy<Value> {
    let (names, values): (Vec<&'static str>, Vec<MemberStrategy>) = members.into_iter().unzip();
    (values, extra)
        .prop_map(move |(values, extra)| {
            let mut object = serde_json::Map::new();
            for (name, value) in names.iter().zip(values) {
                if let Some(value) = value {
                    object.insert((*name).to_owned(), value);
                }
            }
            if let Some((listed, left_out)) = not_all_present
                && listed.iter().all(|name| object.contains_key(*name))
            {
                object.remove(left_out);
            }
            object.extend(extra);
            Value::Object(object)
        })
        .boxed()
}

/// No undeclared members (see [`object_with`]).
pub fn no_extra() -> BoxedStrategy<BTreeMap<String, Value>> {
    Just(BTreeMap::new()).boxed()
}

/// A union's values: one of `alternatives` (each a variant's name and its JSON values),
/// keeping only the values that decode back as the variant they were generated as
/// (`variant` gives the name of the variant a JSON value decodes as).
///
/// Some values are ambiguous: a `GetTaskPayloadResult` with no members is also the empty
/// `Result`, which the union's decoder picks. Such values are valid but would not round-trip
/// to the same variant, so they are left out (never whole variants, unless every value of a
/// variant is ambiguous).
pub fn union(
    alternatives: Vec<(&'static str, BoxedStrategy<Value>)>,
    variant: fn(&Value) -> Option<&'static str>,
) -> BoxedStrategy<Value> {
    let tagged: Vec<BoxedStrategy<(&'static str, Value)>> = alternatives
        .into_iter()
        .map(|(name, json)| json.prop_map(move |value| (name, value)).boxed())
        .collect();
    Union::new(tagged)
        .prop_filter_map(
            "decodes as another variant of its union",
            move |(name, value)| (variant(&value) == Some(name)).then_some(value),
        )
        .boxed()
}

/// The name of the variant of union `U` that `json` decodes as (`None` when it does not
/// decode), for [`union`].
pub fn variant_of<U: DeserializeOwned>(
    json: &Value,
    variant: fn(&U) -> &'static str,
) -> Option<&'static str> {
    decode_value::<U>(json.clone())
        .ok()
        .map(|value| variant(&value))
}

/// The JSON of `value` (a constant's only value).
pub fn constant<T: Serialize>(value: &T) -> BoxedStrategy<Value> {
    Just(serde_json::to_value(value).expect("constants encode")).boxed()
}

/// A string (see [`string`]) as JSON.
pub fn string_json(
    format: Option<&str>,
    min_length: Option<u64>,
    max_length: Option<u64>,
) -> BoxedStrategy<Value> {
    string(format, min_length, max_length)
        .prop_map(Value::String)
        .boxed()
}

/// An integer (see [`integer`]) as JSON.
pub fn integer_json(minimum: Option<i64>, maximum: Option<i64>) -> BoxedStrategy<Value> {
    integer(minimum, maximum).prop_map(Value::from).boxed()
}

/// A number (see [`number`]) as JSON.
pub fn number_json(minimum: Option<f64>, maximum: Option<f64>) -> BoxedStrategy<Value> {
    number(minimum, maximum).prop_map(Value::Number).boxed()
}

/// `true` or `false` as JSON.
pub fn boolean_json() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::Bool).boxed()
}

/// `null`.
pub fn null_json() -> BoxedStrategy<Value> {
    Just(Value::Null).boxed()
}

/// A small JSON object with arbitrary members (values as [`any_json`]).
pub fn object_json() -> BoxedStrategy<Value> {
    map_json(any_json())
}

/// A JSON object of a few members, each an object with a few members.
pub fn object_map_json() -> BoxedStrategy<Value> {
    map_json(object_json())
}

/// A JSON array of `min_items..=max_items` items (see [`vec()`]).
pub fn array_json(
    item: BoxedStrategy<Value>,
    min_items: Option<u64>,
    max_items: Option<u64>,
) -> BoxedStrategy<Value> {
    vec(item, min_items, max_items)
        .prop_map(Value::Array)
        .boxed()
}

/// A JSON object with a few members, each value from `value`.
pub fn map_json(value: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    map(value)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

/// A JSON array of one value of each of `items`, in order (a tuple).
pub fn tuple_json(items: Vec<BoxedStrategy<Value>>) -> BoxedStrategy<Value> {
    items.prop_map(Value::Array).boxed()
}

/// One of the known values of a closed string enumeration, as JSON.
pub fn select_json(values: &'static [&'static str]) -> BoxedStrategy<Value> {
    proptest::sample::select(values)
        .prop_map(Value::from)
        .boxed()
}

/// A value of an open string enumeration as JSON: mostly a known value, sometimes another
/// string (which decodes as the known variant when it happens to be one).
pub fn open_enum_json(known: &'static [&'static str]) -> BoxedStrategy<Value> {
    prop_oneof![
        3 => proptest::sample::select(known).prop_map(Value::from),
        1 => "[a-z][a-z_/-]{0,8}".prop_map(Value::String),
    ]
    .boxed()
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

/// A short object member name.
fn key() -> BoxedStrategy<String> {
    "[a-zA-Z_][a-zA-Z0-9_.-]{0,7}".boxed()
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
