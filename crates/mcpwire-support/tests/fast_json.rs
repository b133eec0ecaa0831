//! `fast_json::from_str` against `serde_json::from_str`: on arbitrary JSON texts (escapes of
//! every kind, non-ASCII, surrogate pairs and lone surrogates, big and negative integers,
//! floats with exponents, `-0`, nesting around serde_json's limit of 128, whitespace, and
//! the same texts broken), the fast path succeeds exactly where serde_json does and gives the
//! same value (floats compared by their bits); `from_str` gives serde_json's error text
//! where serde_json fails. Then serde's whole data model (options, enums, bytes, keys that
//! are numbers, raw values, flatten, untagged) on fixed texts.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;

use mcpwire_support::{RawJson, fast_json};
use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

/// Whether two values are the same, numbers by kind and floats by their bits.
fn same_bits(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), x.is_f64(), y.is_f64()) {
            (Some(f), true, true) => Some(f.to_bits()) == y.as_f64().map(f64::to_bits),
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_bits(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same_bits(a, b))
        }
        _ => a == b,
    }
}

fn ws() -> impl Strategy<Value = String> {
    "[ \t\n\r]{0,2}"
}

/// One piece of a string literal's inside.
fn string_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9 .,:;!?'/<>(){}\\[\\]-]{1,12}",
        // Long plain runs cross the 64-byte blocks.
        1 => "[a-z ]{60,140}",
        2 => any::<char>()
            .prop_filter("plain", |c| !c.is_control() && *c != '"' && *c != '\\')
            .prop_map(String::from),
        4 => prop::sample::select(vec![
            "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
        ])
        .prop_map(str::to_owned),
        2 => (any::<u16>(), any::<bool>()).prop_map(|(unit, upper)| if upper {
            format!("\\u{unit:04X}")
        } else {
            format!("\\u{unit:04x}")
        }),
        // Surrogate pairs, mostly well formed.
        2 => (0xD800u16..0xDC00, 0xDC00u16..0xE000).prop_map(|(lead, trail)| {
            format!("\\u{lead:04x}\\u{trail:04X}")
        }),
        1 => (0xD800u16..0xE000).prop_map(|unit| format!("\\u{unit:04x}")),
        // Invalid inside a string.
        1 => prop::sample::select(vec!["\u{1}", "\t", "\n", "\u{1f}", "\\x", "\\u12", "\\U0041"])
            .prop_map(str::to_owned),
        1 => Just("\u{7f}".to_owned()),
    ]
}

fn string_literal() -> impl Strategy<Value = String> {
    prop::collection::vec(string_piece(), 0..8)
        .prop_map(|pieces| format!("\"{}\"", pieces.concat()))
}

fn number_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        Just("-0".to_owned()),
        Just("0".to_owned()),
        Just("-9223372036854775808".to_owned()),
        Just("-9223372036854775809".to_owned()),
        Just("18446744073709551616".to_owned()),
        "-?[1-9][0-9]{18,30}",
        "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?",
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| f.to_string()),
    ]
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => prop::sample::select(vec!["null", "true", "false"]).prop_map(str::to_owned),
        3 => number_literal(),
        4 => string_literal(),
    ]
}

/// A JSON value's text, with whitespace around its tokens.
fn value_text() -> impl Strategy<Value = String> {
    leaf().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec((ws(), inner.clone(), ws()), 0..6).prop_map(|items| {
                let items: Vec<String> = items.into_iter().map(|(a, v, b)| a + &v + &b).collect();
                format!("[{}]", items.join(","))
            }),
            prop::collection::vec((ws(), string_literal(), ws(), inner, ws()), 0..5).prop_map(
                |members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(a, k, b, v, c)| format!("{a}{k}{b}:{v}{c}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
            ),
        ]
    })
}

/// A value nested `depth` containers deep (arrays, objects or both), around serde_json's
/// limit of 128.
fn deep_text() -> impl Strategy<Value = String> {
    (100usize..140, 0u8..3, leaf()).prop_map(|(depth, kind, leaf)| {
        let mut text = leaf;
        for level in 0..depth {
            let object = match kind {
                0 => false,
                1 => true,
                _ => level % 2 == 0,
            };
            text = if object {
                format!("{{\"k\": {text}}}")
            } else {
                format!("[{text}]")
            };
        }
        text
    })
}

/// `text` broken one way (or not at all): truncated, a character dropped, a JSON character
/// put in, something after the value.
fn mutated(text: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    (
        text,
        0u8..8,
        any::<prop::sample::Index>(),
        prop::sample::select(vec![
            "\"", "\\", ",", ":", "[", "]", "{", "}", "0", "-", "e", ".", " ", "\u{1}", "x",
        ]),
    )
        .prop_map(|(text, how, at, inserted)| {
            let boundaries: Vec<usize> = text
                .char_indices()
                .map(|(k, _)| k)
                .chain([text.len()])
                .collect();
            let k = boundaries[at.index(boundaries.len())];
            match how {
                0 => text[..k].to_owned(),
                1 if k < text.len() => {
                    let next = text[k..].chars().next().map_or(0, char::len_utf8);
                    format!("{}{}", &text[..k], &text[k + next..])
                }
                2 => format!("{}{inserted}{}", &text[..k], &text[k..]),
                3 => format!("{text} {inserted}"),
                _ => text,
            }
        })
}

fn document() -> impl Strategy<Value = String> {
    let value = prop_oneof![6 => value_text(), 1 => deep_text()];
    (ws(), mutated(value), ws()).prop_map(|(a, v, b)| a + &v + &b)
}

/// The fast path's `Value` against serde_json's: the same outcome, the same value.
fn check_value(text: &str) -> Result<(), TestCaseError> {
    let fast = fast_json::try_from_str::<Value>(text);
    let json = serde_json::from_str::<Value>(text);
    match (&fast, &json) {
        (Some(fast), Ok(json)) => prop_assert!(same_bits(fast, json), "{fast} != {json}"),
        (Some(fast), Err(error)) => {
            prop_assert!(
                false,
                "fast path took what serde_json refuses ({error}): {fast}"
            )
        }
        (None, Ok(json)) => prop_assert!(false, "fast path gave up on valid JSON: {json}"),
        (None, Err(_)) => {}
    }
    // The same value decoded from the start of a longer text, ending where the value ends.
    if let Some(fast) = &fast {
        let followed = format!("{text}}}");
        let (prefix, end) = fast_json::try_from_str_prefix::<Value>(&followed)
            .ok_or_else(|| TestCaseError::fail(format!("no prefix decode of {followed}")))?;
        prop_assert!(same_bits(&prefix, fast), "{prefix} != {fast}");
        let value_end = text.trim_end_matches([' ', '\t', '\n', '\r']).len();
        prop_assert_eq!(end, value_end, "{}", text);
    }
    match (fast_json::from_str::<Value>(text), json) {
        (Ok(fast), Ok(json)) => prop_assert!(same_bits(&fast, &json)),
        (Err(fast), Err(json)) => prop_assert_eq!(fast.to_string(), json.to_string()),
        (fast, json) => prop_assert!(false, "{fast:?} against {json:?}"),
    }
    Ok(())
}

/// The raw text of the value, by serde_json's `RawValue` and this crate's `RawJson`.
fn check_raw(text: &str) -> Result<(), TestCaseError> {
    let json = serde_json::from_str::<&RawValue>(text).map(RawValue::get);
    let fast = fast_json::try_from_str::<&RawValue>(text).map(RawValue::get);
    prop_assert_eq!(fast, json.as_ref().ok().copied());
    let boxed = fast_json::try_from_str::<Box<RawValue>>(text);
    prop_assert_eq!(
        boxed.as_deref().map(RawValue::get),
        json.as_ref().ok().copied()
    );
    let captured = fast_json::try_from_str::<RawJson<'_>>(text);
    let expected = serde_json::from_str::<RawJson<'_>>(text).ok();
    prop_assert_eq!(captured, expected);
    Ok(())
}

#[test]
fn fast_path_decodes_exactly_what_serde_json_decodes() {
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    const CASES: u32 = 768;
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = Cell::new(0u32);
    runner
        .run(&document(), |text| {
            check_value(&text)?;
            check_raw(&text)?;
            valid.set(valid.get() + u32::from(serde_json::from_str::<Value>(&text).is_ok()));
            Ok(())
        })
        .unwrap();
    // The texts are valid and invalid in fair measure (each side is tested).
    let valid = valid.get();
    assert!(
        (CASES / 4..CASES * 3 / 4).contains(&valid),
        "{valid} of {CASES} valid"
    );
}

/// The fast path against serde_json for one type: where the fast path decodes, serde_json
/// decodes the same (`Debug` text compared); `fast` says whether the fast path must take it.
fn same<'de, T: Deserialize<'de> + Debug>(text: &'de str, fast: bool) {
    let got = fast_json::try_from_str::<T>(text);
    let json = serde_json::from_str::<T>(text);
    if let Some(got) = &got {
        let json = json
            .as_ref()
            .unwrap_or_else(|e| panic!("fast path took what serde_json refuses ({e}): {text}"));
        assert_eq!(format!("{got:?}"), format!("{json:?}"), "{text}");
    }
    assert_eq!(
        got.is_some(),
        fast,
        "fast path on {text} (serde_json: {json:?})"
    );
    let via = fast_json::from_str::<T>(text).map(|v| format!("{v:?}"));
    assert_eq!(
        via.map_err(|e| e.to_string()),
        json.map(|v| format!("{v:?}")).map_err(|e| e.to_string()),
        "{text}"
    );
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
enum Shape {
    Unit,
    Newtype(i32),
    Tuple(u8, String),
    Struct { a: Option<u8>, b: f32 },
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Record<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    raw: &'a RawValue,
    boxed: Box<RawValue>,
    shapes: Vec<Shape>,
    maybe: Option<Option<i64>>,
    wide: i128,
    big: u128,
    letter: char,
    ratio: f32,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Flattened {
    id: u64,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Untagged {
    Number(f64),
    Text(String),
    List(Vec<Untagged>),
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Tagged {
    #[serde(rename = "text")]
    Text { text: String },
    #[serde(rename = "n")]
    Number { n: i8 },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    a: u8,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Lenient {
    a: u8,
}

/// Bytes as the deserializer hands them over, and whether it lent them.
#[derive(Debug, PartialEq)]
struct Bytes(Vec<u8>, bool);

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec(), true))
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec(), false))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Bytes, A::Error> {
                let mut bytes = Vec::new();
                while let Some(b) = seq.next_element()? {
                    bytes.push(b);
                }
                Ok(Bytes(bytes, false))
            }
        }
        deserializer.deserialize_bytes(Visit)
    }
}

/// A string as the deserializer hands it over: lent (`visit_borrowed_str`) or not.
#[derive(Debug, PartialEq)]
struct Lent(String, bool);

impl<'de> Deserialize<'de> for Lent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Lent;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Lent, E> {
                Ok(Lent(v.to_owned(), true))
            }
            fn visit_str<E>(self, v: &str) -> Result<Lent, E> {
                Ok(Lent(v.to_owned(), false))
            }
        }
        deserializer.deserialize_str(Visit)
    }
}

/// An array's items that decode as `u8`, the others passed over: an item's error is
/// recovered from.
#[derive(Debug, PartialEq)]
struct Recovering(Vec<u8>);

impl<'de> Deserialize<'de> for Recovering {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Recovering;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Recovering, A::Error> {
                let mut items = Vec::new();
                loop {
                    match seq.next_element::<u8>() {
                        Ok(Some(item)) => items.push(item),
                        Ok(None) => return Ok(Recovering(items)),
                        Err(_) => {}
                    }
                }
            }
        }
        deserializer.deserialize_seq(Visit)
    }
}

#[test]
fn every_shape_of_serdes_data_model_decodes_as_serde_json_decodes_it() {
    let record = r#"{"name":"caf\u00e9","raw":{"a": [1, 2.50]},"boxed":"x\ny",
        "shapes":["Unit",{"Newtype":-3},{"Tuple":[7,"t"]},{"Struct":{"a":null,"b":0.1}}],
        "maybe":null,"wide":-170141183460469231731687303715884105728,
        "big":340282366920938463463374607431768211455,"letter":"\u00e9","ratio":3.4028235e38,
        "extra":{"ignored":[true,"\ud800"]}}"#;
    same::<Record<'_>>(record, true);
    same::<Record<'_>>(&record.replace("\"maybe\":null", "\"maybe\":5"), true);
    same::<Vec<RawJson<'_>>>(r#"[1e3, "a\nb", {"k" : [ -0 ]}]"#, true);
    same::<Vec<Shape>>(r#"["Newtype"]"#, false);
    same::<Vec<Shape>>(r#"[{"Unit":null}]"#, true);
    same::<Vec<Shape>>(r#"[{"Unit":null,"x":1}]"#, false);
    same::<Shape>(r#"{"Unit":1}"#, false);
    same::<Flattened>(r#"{"id":1,"a":"x\ty","b":[1.5e300,-0]}"#, true);
    same::<Untagged>(r#"[1, "a\"b", [2.5e-3]]"#, true);
    same::<Tagged>(r#"{"text":"\u263a","type":"text"}"#, true);
    same::<Tagged>(r#"{"type":"n","n":300}"#, false);
    same::<Strict>(r#"{"a":1}"#, true);
    same::<Strict>(r#"{"a":1,"b":2}"#, false);
    same::<Lenient>(r#"{"b":[{"deep":"\u0000"}],"a":1}"#, true);
    same::<Lenient>(r#"{"b":[1,],"a":1}"#, false);
    same::<Lenient>(r#"{"b":"bad\u12","a":1}"#, false);
    // Keys: strings, numbers and booleans inside quotes.
    same::<BTreeMap<u8, bool>>(r#"{"1":true,"255":false}"#, true);
    same::<BTreeMap<u8, bool>>(r#"{"256":true}"#, false);
    same::<BTreeMap<i64, u8>>(r#"{"-5":1,"0":2}"#, true);
    same::<BTreeMap<i64, u8>>(r#"{" 5":1}"#, false);
    same::<BTreeMap<i64, u8>>(r#"{"5 ":1}"#, false);
    same::<BTreeMap<i128, u8>>(r#"{"-170141183460469231731687303715884105728":1}"#, true);
    same::<BTreeMap<bool, u8>>(r#"{"true":1,"false":0}"#, true);
    same::<BTreeMap<bool, u8>>(r#"{"yes":1}"#, false);
    same::<BTreeMap<String, u8>>(r#"{"a\u0000b":1,"c":2}"#, true);
    same::<BTreeMap<Cow<'_, str>, u8>>(r#"{"a\\b":1}"#, true);
    // Strings lent or copied as serde_json lends or copies them.
    same::<Lent>(r#""plain""#, true);
    same::<Lent>(r#""esc\"aped""#, true);
    same::<Vec<&str>>(r#"["a","b"]"#, true);
    same::<Vec<&str>>(r#"["a\nb"]"#, false);
    // Bytes.
    same::<Bytes>(r#""abc""#, true);
    same::<Bytes>(r#""a\u00e9\n""#, true);
    same::<Bytes>(r#"[1, 2, 255]"#, true);
    same::<Bytes>(r#"[256]"#, false);
    // serde_json takes a lone surrogate in bytes (as WTF-8); the fast path leaves it to it.
    same::<Bytes>(r#""\ud800""#, false);
    // Numbers as each type asks.
    same::<(u8, i8, f32, f64, u64, i64)>(
        "[255, -128, 1e-46, 2.2250738585072011e-308, 0, -0]",
        false,
    );
    same::<(u8, i8, f32, f64, u64)>("[255, -128, 1e-46, 2.2250738585072011e-308, 0]", true);
    same::<u8>("256", false);
    same::<f64>("1e400", false);
    same::<u128>("-1", false);
    same::<i128>("1.5", false);
    same::<()>("null", true);
    // Once an error has passed through the fast path, its result is not used (serde_json
    // decodes, and says what it says).
    same::<Recovering>("[1, 2]", true);
    same::<Recovering>("[1, 300, 2]", false);
    same::<Option<()>>(" null ", true);
    // Only whitespace after the value.
    same::<u8>(" 1 \n", true);
    same::<u8>("1 1", false);
    same::<u8>("", false);
}

/// How a string was handed over: given away (`visit_string`) or lent (`visit_str`).
#[derive(Debug, PartialEq)]
struct Given(String, bool);

impl<'de> Deserialize<'de> for Given {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Given;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E>(self, v: &str) -> Result<Given, E> {
                Ok(Given(v.to_owned(), false))
            }
            fn visit_string<E>(self, v: String) -> Result<Given, E> {
                Ok(Given(v, true))
            }
        }
        deserializer.deserialize_string(Visit)
    }
}

#[test]
fn a_long_string_with_escapes_is_given_away_not_copied() {
    let long = format!("{}\\n", "line of text ".repeat(400));
    for (text, given) in [
        (format!("\"{long}\""), true),
        (format!("[\"{long}\", \"short\\n\", \"{long}\"]"), true),
        (r#""short\n""#.to_owned(), false),
    ] {
        let expected: serde_json::Value = serde_json::from_str(&text).unwrap();
        match expected {
            serde_json::Value::String(expected) => {
                let got = fast_json::try_from_str::<Given>(&text).unwrap();
                assert_eq!(got, Given(expected, given));
            }
            serde_json::Value::Array(items) => {
                let got = fast_json::try_from_str::<Vec<Given>>(&text).unwrap();
                let texts: Vec<_> = got.iter().map(|g| g.0.clone()).collect();
                assert_eq!(
                    texts,
                    items
                        .iter()
                        .map(|i| i.as_str().unwrap())
                        .collect::<Vec<_>>()
                );
                let ways: Vec<_> = got.iter().map(|g| g.1).collect();
                assert_eq!(ways, [true, false, true]);
                // Given away at its length: the buffer holds no more than the string.
                assert!(got.iter().all(|g| !g.1 || g.0.capacity() == g.0.len()));
            }
            other => panic!("{other}"),
        }
    }
    // serde_json's `String` and `Value` take it as they take a copied one.
    let text = format!("\"{long}\"");
    assert_eq!(
        fast_json::try_from_str::<String>(&text),
        serde_json::from_str::<String>(&text).ok()
    );
}

#[test]
fn nesting_stops_where_serde_json_stops() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    same::<Value>(&nested(127), true);
    same::<Value>(&nested(128), false);
    // An ignored or raw value is not counted (serde_json skips it without recursing).
    let deep = format!(r#"{{"a":1,"skip":{}}}"#, nested(10_000));
    same::<Lenient>(&deep, true);
    same::<BTreeMap<String, Box<RawValue>>>(&deep, true);
}
