//! Request id strategies: every JSON type and many spellings, each with its exact JSON
//! text and whether the profile admits it.
//!
//! ```
//! use mcpwire_proptest::ids::{any_id, IdKind};
//! use mcpwire_proptest::facts::MCP_LATEST;
//! use proptest::prelude::*;
//!
//! proptest!(|(id in any_id(&MCP_LATEST))| {
//!     // MCP admits strings and integers (any number with no fractional part) only.
//!     prop_assert_eq!(id.admitted, matches!(id.kind, IdKind::String | IdKind::Integer));
//! });
//! ```

use mcpwire_types::ProfileFacts;
use proptest::prelude::*;

use crate::json::{JsonKind, is_integer};

/// The type of an id, with numbers split by JSON Schema `integer` (no fractional part).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// A string.
    String,
    /// A number with no fractional part: `7`, `-0`, `1e3`, `2.0`, `1.5e1`, `2^64`.
    Integer,
    /// A number with a fractional part: `1.5`, `1e-1`.
    Fraction,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An object.
    Object,
    /// An array.
    Array,
}

impl IdKind {
    /// The id kind of a JSON value, given its kind and exact text.
    ///
    /// ```
    /// use mcpwire_proptest::ids::IdKind;
    /// use mcpwire_proptest::json::JsonKind;
    /// assert_eq!(IdKind::of_json(JsonKind::Number, "2.0"), IdKind::Integer);
    /// assert_eq!(IdKind::of_json(JsonKind::Number, "0.5"), IdKind::Fraction);
    /// ```
    pub fn of_json(kind: JsonKind, text: &str) -> IdKind {
        match kind {
            JsonKind::String => IdKind::String,
            JsonKind::Number if is_integer(text) => IdKind::Integer,
            JsonKind::Number => IdKind::Fraction,
            JsonKind::Null => IdKind::Null,
            JsonKind::Boolean => IdKind::Boolean,
            JsonKind::Object => IdKind::Object,
            JsonKind::Array => IdKind::Array,
        }
    }
}

/// Whether `profile`'s `RequestId` admits ids of `kind`.
pub fn id_kind_admitted(profile: &ProfileFacts, kind: IdKind) -> bool {
    let types = profile.id_types;
    match kind {
        IdKind::String => types.string,
        IdKind::Integer => types.integer || types.number,
        IdKind::Fraction => types.number,
        IdKind::Null => types.null,
        IdKind::Boolean | IdKind::Object | IdKind::Array => false,
    }
}

/// A generated id: its exact JSON text, its kind (known by construction) and whether
/// the profile admits it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GeneratedId {
    /// The exact JSON text, e.g. `1e3` or `"\u0041"`.
    pub text: String,
    /// The kind, known from how the text was built.
    pub kind: IdKind,
    /// Whether the profile admits it (a correct server echoes it).
    pub admitted: bool,
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// JSON text of string ids: empty, arbitrary unicode, escapes (`\u0041`, `\"`, `\\`,
/// surrogate pairs), `<script>`, numbers-as-strings and very long strings.
pub fn string_id_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => crate::pattern("[a-z0-9-]{1,8}").prop_map(|s| quoted(&s)),
        1 => Just(r#""""#.to_owned()),
        2 => any::<String>().prop_map(|s| quoted(&s)),
        1 => prop::sample::select(vec![
            r#""\u0041""#, r#""\"""#, r#""a\\b""#, r#""\/""#, r#""\ud83d\ude00""#, r#""\n\t""#,
            r#""<script>alert(1)</script>""#, r#""1""#, r#""null""#, r#""é✓😀""#, r#""\u0000""#,
        ])
        .prop_map(str::to_owned),
        1 => (1_000usize..20_000).prop_map(|n| quoted(&"x".repeat(n))),
    ]
    .boxed()
}

/// JSON text of integer ids (no fractional part) in many spellings: small, whole `i64`
/// and `u64` ranges, beyond 64 bits, `-0`, `2^53+1`, and `1e3`, `2.0`, `1.5e1`, `100e-2`.
pub fn integer_id_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (0u32..100).prop_map(|n| n.to_string()),
        2 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => crate::pattern("-?[1-9][0-9]{19,40}"),
        1 => prop::sample::select(vec![
            "-0", "0", "9007199254740993", "-9007199254740993", "18446744073709551616",
            "1e3", "2.0", "-0.0", "1.5e1", "1E+2", "100e-2", "0e-5",
        ])
        .prop_map(str::to_owned),
        // digits followed by `.000`
        1 => (any::<i32>(), 1usize..4).prop_map(|(n, zeros)| format!("{n}.{}", "0".repeat(zeros))),
        // exponent form with a non-negative exponent
        1 => (1u32..1000, 0u32..30, any::<bool>()).prop_map(|(n, e, upper)| {
            format!("{n}{}{e}", if upper { "E+" } else { "e" })
        }),
        // a fraction scaled up by an exponent at least as long as its fraction digits
        1 => (0u32..100, crate::pattern("[0-9]{0,4}[1-9]"), 0u32..4).prop_map(|(int, frac, extra)| {
            format!("{int}.{frac}e{}", frac.len() as u32 + extra)
        }),
    ]
    .boxed()
}

/// JSON text of numbers with a fractional part: `1.5`, `-0.25`, `1e-3`, `12.5e-1`.
pub fn fraction_id_text() -> BoxedStrategy<String> {
    prop_oneof![
        (any::<i16>(), crate::pattern("[0-9]{0,4}[1-9]"))
            .prop_map(|(int, frac)| format!("{int}.{frac}")),
        // a number not divisible by 10, scaled down
        (1u32..100_000, 1u32..6).prop_map(|(n, e)| {
            let n = if n % 10 == 0 { n + 1 } else { n };
            format!("{n}e-{e}")
        }),
    ]
    .boxed()
}

/// JSON text of ids that no profile admits: booleans, objects and arrays.
pub fn structured_id_text() -> BoxedStrategy<(String, IdKind)> {
    prop_oneof![
        prop::sample::select(vec!["true", "false"]).prop_map(|t| (t.to_owned(), IdKind::Boolean)),
        prop::sample::select(vec!["{}", r#"{"id":1}"#, r#"{"a":[null]}"#])
            .prop_map(|t| (t.to_owned(), IdKind::Object)),
        prop::sample::select(vec!["[]", "[1]", r#"["a",2]"#])
            .prop_map(|t| (t.to_owned(), IdKind::Array)),
    ]
    .boxed()
}

/// Every id kind, with the `admitted` flag for `profile`.
pub fn any_id(profile: &ProfileFacts) -> BoxedStrategy<GeneratedId> {
    let profile = *profile;
    prop_oneof![
        3 => string_id_text().prop_map(|t| (t, IdKind::String)),
        3 => integer_id_text().prop_map(|t| (t, IdKind::Integer)),
        1 => fraction_id_text().prop_map(|t| (t, IdKind::Fraction)),
        1 => Just(("null".to_owned(), IdKind::Null)),
        1 => structured_id_text(),
    ]
    .prop_map(move |(text, kind)| GeneratedId {
        text,
        kind,
        admitted: id_kind_admitted(&profile, kind),
    })
    .boxed()
}

/// Ids `profile` admits: a correct server echoes them exactly.
pub fn admitted_id(profile: &ProfileFacts) -> BoxedStrategy<GeneratedId> {
    any_id(profile)
        .prop_filter("admitted", |id| id.admitted)
        .boxed()
}

/// Ids `profile` forbids: a correct server answers -32600 without an id.
pub fn forbidden_id(profile: &ProfileFacts) -> BoxedStrategy<GeneratedId> {
    any_id(profile)
        .prop_filter("forbidden", |id| !id.admitted)
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Frame, read_frame};
    use mcpwire_types::facts::{ALL, JSONRPC_2_0, MCP_LATEST};
    use proptest::test_runner::TestRunner;

    proptest! {
        #[test]
        fn texts_are_json_of_their_kind(id in any_id(&MCP_LATEST)) {
            let Frame::Value { text, kind } = read_frame(id.text.as_bytes()) else {
                panic!("not one JSON value: {}", id.text);
            };
            prop_assert_eq!(text, id.text.as_str());
            prop_assert_eq!(IdKind::of_json(kind, text), id.kind);
        }
    }

    #[test]
    fn admitted_flags_follow_the_profile() {
        for profile in ALL {
            let mut runner = TestRunner::deterministic();
            for _ in 0..300 {
                let id = any_id(profile).new_tree(&mut runner).unwrap().current();
                let mcp_like = profile.protocol_version.is_some();
                let expected = match id.kind {
                    IdKind::String | IdKind::Integer => true,
                    IdKind::Fraction | IdKind::Null => !mcp_like,
                    _ => false,
                };
                assert_eq!(id.admitted, expected, "{} {:?}", profile.name, id);
            }
        }
    }

    #[test]
    fn spellings_are_classified_exactly() {
        for integer in [
            "1e3",
            "2.0",
            "-0",
            "1.5e1",
            "100e-2",
            "18446744073709551616",
        ] {
            assert_eq!(
                IdKind::of_json(JsonKind::Number, integer),
                IdKind::Integer,
                "{integer}"
            );
        }
        assert_eq!(
            IdKind::of_json(JsonKind::Number, "12.5e-1"),
            IdKind::Fraction
        );
        assert!(id_kind_admitted(&JSONRPC_2_0, IdKind::Null));
        assert!(!id_kind_admitted(&MCP_LATEST, IdKind::Null));
        assert!(!id_kind_admitted(&MCP_LATEST, IdKind::Fraction));
        assert!(!id_kind_admitted(&JSONRPC_2_0, IdKind::Boolean));
    }
}
