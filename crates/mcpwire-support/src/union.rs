//! Decoding a generated union by the JSON Schema meaning of `anyOf` and `oneOf`.
//!
//! A union of objects reads its object's members once ([`Shape::capture_object`]: string
//! members decoded, the others as raw text); any other union captures its value's raw text
//! ([`super::RawJson`]); neither builds a `serde_json::Value`. The generated dispatch looks at
//! that through a [`Shape`] (JSON token type, a constant member, the members present) and
//! picks one variant without trying any, by walking the union's decision tree, its
//! [`UnionTable`](super::union_table::UnionTable). Each leaf also lists the other variants
//! that admit the same JSON type and that no constant seen on the way rules out: the
//! alternatives, in schema order. [`decode_objects`] / [`decode_values`] then:
//!
//! 1. drops every alternative the object cannot match: a required member missing, or a
//!    constant member (required or optional) present with another value;
//! 2. **fast path** — no alternative left: decodes the chosen variant, exactly
//!    as a single-variant decode would (so a method union keyed on `method`, or content keyed
//!    on `type`, decodes once). The same when the chosen variant is ruled out and exactly one
//!    alternative remains;
//! 3. otherwise `anyOf` takes the first variant that decodes (the chosen one,
//!    then the alternatives in schema order); `oneOf` decodes every remaining variant and
//!    requires exactly one to match, naming the matches when several do.
//!
//! Decoding from the text or the raw members keeps what the text says: an `integer` anywhere
//! inside keeps its spelling ([`super::Integer`]), a nested union captures in turn.
//!
//! When nothing matches, the error leads with the chosen variant's failure (its JSON pointer,
//! relative to the union's value, written as ``at `/x` `` for [`super::error_pointer`]) and
//! then names why each other variant failed, without pointers of their own.

use std::fmt;

use serde::Deserializer;
use serde::de::{DeserializeOwned, DeserializeSeed};

use super::union_table::{Else, Node, Path, Token, UNKNOWN_METHOD, UnionTable};
use super::{Members, RawJson, Shape};

/// Why the dispatch chose a variant (or none), written out only for an error message.
#[derive(Debug, Clone)]
enum Why {
    /// A fixed text.
    Text(&'static str),
    /// Member `.0` holds the string constant `.1`.
    Str(&'static str, &'static str),
    /// Member `.0` holds the integer constant `.1`.
    Int(&'static str, i64),
    /// A text made for this value.
    Owned(String),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Text(text) => f.write_str(text),
            Why::Str(member, value) => write!(f, "member `{member}` is {value:?}"),
            Why::Int(member, value) => write!(f, "member `{member}` is {value}"),
            Why::Owned(text) => f.write_str(text),
        }
    }
}

/// The reason of a variant reached by its JSON type alone.
const ONLY: Why = Why::Text("it is the only variant admitting this JSON type");

/// The reason of the `Unknown` variant.
const UNKNOWN: Why = Why::Text("its method is not one this version defines");

/// What the dispatch decided: a variant ([`UNKNOWN_METHOD`] included) or none, why, and the
/// variants to try after it, in order.
struct Choice {
    index: Option<usize>,
    reason: Why,
    alternatives: &'static [usize],
}

impl Choice {
    fn variant(index: usize, reason: Why, alternatives: &'static [usize]) -> Self {
        Self {
            index: Some(index),
            reason,
            alternatives,
        }
    }

    fn none(reason: Why, alternatives: &'static [usize]) -> Self {
        Self {
            index: None,
            reason,
            alternatives,
        }
    }
}

/// One variant to decode, as the generated per-union function receives it: its index
/// ([`Variant::index`]) and the input it decodes from ([`Variant::decode`]); `I` is
/// [`Shape`] for a union of objects, `str` (the value's text) for any other.
pub struct Variant<'a, I: ?Sized> {
    input: &'a I,
    table: &'static UnionTable,
    index: usize,
    reason: &'a dyn fmt::Display,
}

impl<I: ?Sized> Variant<'_, I> {
    /// The index of the variant to decode ([`UNKNOWN_METHOD`] for the `Unknown` variant).
    pub fn index(&self) -> usize {
        self.index
    }

    fn name(&self) -> &'static str {
        self.table.variant_name(self.index)
    }
}

impl Variant<'_, Shape<'_>> {
    /// Decodes the members the union captured ([`Shape::capture_object`]) as this variant.
    /// The error names the union, the variant, why it was chosen, and the JSON pointer
    /// (relative to the union's value) of the member that failed, written as ``failed at
    /// `/params/name` `` so that [`super::error_pointer`] can find it.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        let Shape::Object(members) = self.input else {
            return Err(serde::de::Error::custom(format_args!(
                "{}: variant `{}` (chosen because {}) must be an object, found {}",
                self.table.name,
                self.name(),
                self.reason,
                self.input.token_name()
            )));
        };
        let decoded = super::depth::decode_tracked::<T>(|seed| {
            seed.deserialize(super::members_de::MembersDeserializer(members))
        });
        // A `match`, not `map_err` with a closure: one function fewer per variant type.
        match decoded {
            Ok(value) => Ok(value),
            Err((pointer, error)) => Err(self.error(&pointer, &error)),
        }
    }
}

impl Variant<'_, str> {
    /// Decodes the union's text as this variant, by a serde_json deserializer of its own under
    /// the depth rules of [`super::with_unbounded_depth`]; errors as for a union of objects.
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        match super::depth::decode_text::<T>(self.input) {
            Ok(value) => Ok(value),
            Err((pointer, error)) => Err(self.error(&pointer, &error)),
        }
    }

    /// Decodes the `null` variant.
    pub fn null(&self) -> Result<(), serde_json::Error> {
        if self.input.trim() == "null" {
            Ok(())
        } else {
            Err(serde::de::Error::custom(format_args!(
                "{}: variant `{}` (chosen because {}) must be null",
                self.table.name,
                self.name(),
                self.reason
            )))
        }
    }
}

impl<I: ?Sized> Variant<'_, I> {
    /// The error of this variant failing at `pointer` (relative to the union's value).
    fn error(&self, pointer: &str, error: &serde_json::Error) -> serde_json::Error {
        let inner = super::depth::message_without_position(error);
        let (union, variant, reason) = (self.table.name, self.name(), self.reason);
        if pointer.is_empty() {
            serde::de::Error::custom(format_args!(
                "{union}: decoding as variant `{variant}` (chosen because {reason}) failed: {inner}"
            ))
        } else {
            serde::de::Error::custom(format_args!(
                "{union}: decoding as variant `{variant}` (chosen because {reason}) failed at `{pointer}`: {inner}"
            ))
        }
    }
}

/// Decodes a union of objects by its table: reads the object's members once
/// ([`Shape::capture_object`], the table's `strings` decoded), then see the module
/// documentation; `variant` decodes one variant from the members.
pub fn decode_objects<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    table: &'static UnionTable,
    variant: fn(&Variant<'_, Shape<'_>>) -> Result<T, serde_json::Error>,
) -> Result<T, D::Error> {
    let shape = Shape::capture_object(deserializer, table.strings)?;
    decode_typed(&shape, &shape, table, variant).map_err(serde::de::Error::custom)
}

/// Decodes any other union by its table: captures the value's raw text ([`RawJson`]), then
/// see the module documentation; `variant` decodes one variant from the text.
pub fn decode_values<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    table: &'static UnionTable,
    variant: fn(&Variant<'_, str>) -> Result<T, serde_json::Error>,
) -> Result<T, D::Error> {
    let raw = <RawJson<'de> as serde::Deserialize>::deserialize(deserializer)?;
    let text = raw.text();
    let shape = Shape::of::<D::Error>(text)?;
    decode_typed(text, &shape, table, variant).map_err(serde::de::Error::custom)
}

/// [`decode_union`] with `variant` returning the union's value: the first value a variant
/// decodes is kept (`oneOf` decodes on, to count the matches).
fn decode_typed<I: ?Sized, T>(
    input: &I,
    shape: &Shape<'_>,
    table: &'static UnionTable,
    variant: fn(&Variant<'_, I>) -> Result<T, serde_json::Error>,
) -> Result<T, serde_json::Error> {
    let mut decoded = None;
    decode_union(input, shape, table, &mut |v| {
        let value = variant(v)?;
        decoded.get_or_insert(value);
        Ok(())
    })?;
    // `decode_union` succeeds only after a variant decoded.
    decoded.ok_or_else(|| super::no_variant(table.name, "no variant was decoded"))
}

/// The reason given for a variant tried after the chosen one.
const FALLBACK: Why =
    Why::Text("the variant chosen first does not match and this one admits the value");

/// The reason given for the only variant left when the chosen one is ruled out.
const ONLY_ONE_LEFT: Why =
    Why::Text("the other variants' required members or constant members rule them out");

/// Decodes a union value by `anyOf` / `oneOf` meaning; see the module documentation.
/// `decode` decodes one variant and keeps its value ([`decode_typed`]); this succeeds only
/// after it did. Not generic in the union's type, so that it is compiled once, not once per
/// union (one copy per union made the one-version build several MB larger).
fn decode_union<I: ?Sized>(
    input: &I,
    shape: &Shape<'_>,
    table: &'static UnionTable,
    decode: &mut dyn FnMut(&Variant<'_, I>) -> Result<(), serde_json::Error>,
) -> Result<(), serde_json::Error> {
    let choice = choose(table, shape)?;
    let mut run = |index: usize, reason: &dyn fmt::Display| {
        decode(&Variant {
            input,
            table,
            index,
            reason,
        })
    };
    let viable = |index: usize| viable(table, index, shape);
    let mut others = choice.alternatives.iter().copied().filter(|&i| viable(i));
    let Some(first_other) = others.next() else {
        let Some(index) = choice.index else {
            return Err(super::no_variant(table.name, &choice.reason.to_string()));
        };
        // The fast path: nothing else can match, so the chosen variant's error is the answer.
        return run(index, &choice.reason);
    };
    let second_other = others.next();
    let chosen = choice.index.filter(|&i| viable(i));
    if chosen.is_none() && second_other.is_none() {
        return run(first_other, &ONLY_ONE_LEFT);
    }
    let order = chosen.map(|i| (i, &choice.reason)).into_iter().chain(
        choice
            .alternatives
            .iter()
            .copied()
            .filter(|&i| viable(i))
            .map(|i| (i, &FALLBACK)),
    );
    let mut failures = Vec::new();
    let mut matches = Vec::new();
    for (index, reason) in order {
        match run(index, reason) {
            Ok(()) if !table.one_of => return Ok(()),
            Ok(()) => matches.push(table.variant_name(index)),
            Err(e) => failures.push(e.to_string()),
        }
    }
    match matches.len() {
        1 => Ok(()),
        2.. => Err(serde::de::Error::custom(format_args!(
            "{}: the value matches {} variants ({}), but `oneOf` admits exactly one",
            table.name,
            matches.len(),
            matches
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        0 => {
            match choice.index {
                None => failures.push(format!(
                    "{}: no variant matches: {}",
                    table.name, choice.reason
                )),
                Some(index) if chosen.is_none() => failures.push(format!(
                    "{}: variant `{}` (chosen because {}) is ruled out by a missing required \
                     member or a constant member of another value",
                    table.name,
                    table.variant_name(index),
                    choice.reason
                )),
                Some(_) => {}
            }
            Err(serde::de::Error::custom(combine(&failures)))
        }
    }
}

/// Whether variant `index` can still match: for an object, its required members present and
/// its constant members (when present) of its values.
fn viable(table: &UnionTable, index: usize, shape: &Shape<'_>) -> bool {
    let Shape::Object(map) = shape else {
        return true;
    };
    let Some(check) = table.checks.iter().find(|c| c.variant == index) else {
        return true;
    };
    check.required.iter().all(|path| has(map, path))
        && check.strs.iter().all(|(m, values)| map.str_in(m, values))
        && check.ints.iter().all(|(m, values)| map.int_in(m, values))
}

/// Whether the object `map` has member `path` (one level of nesting at most).
fn has(map: &Members<'_>, path: Path) -> bool {
    match path {
        [name] => map.contains_key(name),
        [outer, inner] => map.has_nested(outer, inner),
        _ => false,
    }
}

/// Runs the table's decision tree on `shape`; an error when no variant admits its JSON type.
fn choose(table: &'static UnionTable, shape: &Shape<'_>) -> Result<Choice, serde_json::Error> {
    Decide { table, shape }.node(&table.choose, None)
}

/// The decision tree's walk over one value.
struct Decide<'s, 'a> {
    table: &'s UnionTable,
    shape: &'s Shape<'a>,
}

impl Decide<'_, '_> {
    /// Decides `node`, `map` being the object its member decisions look at.
    fn node(
        &self,
        node: &'static Node,
        map: Option<&Members<'_>>,
    ) -> Result<Choice, serde_json::Error> {
        Ok(match node {
            Node::Variant(index, then) => {
                let reason = if *index == UNKNOWN_METHOD {
                    UNKNOWN
                } else {
                    ONLY
                };
                Choice::variant(*index, reason, then)
            }
            Node::ByToken(cases) => return self.by_token(cases),
            Node::ByStr {
                member,
                cases,
                otherwise,
                missing,
            } => match map.and_then(|m| m.str_member(member)) {
                Some(found) => match cases.iter().find(|(value, _)| *value == found.as_ref()) {
                    Some((value, next)) => self.case(next, Why::Str(member, value), map)?,
                    None => self.otherwise(otherwise, member, &found, map)?,
                },
                None => Choice::none(
                    Why::Owned(format!("member `{member}` is missing or not a string")),
                    missing,
                ),
            },
            Node::ByInt {
                member,
                cases,
                otherwise,
                missing,
            } => match map.and_then(|m| m.int_member(member)) {
                Some(found) => match cases.iter().find(|(value, _)| *value == found) {
                    Some((value, next)) => self.case(next, Why::Int(member, *value), map)?,
                    None => self.otherwise(otherwise, member, &found, map)?,
                },
                None => Choice::none(
                    Why::Owned(format!("member `{member}` is missing or not a integer")),
                    missing,
                ),
            },
            Node::ByMembers(rules, last) => {
                let holds = |rule: &&super::union_table::Rule| {
                    map.is_some_and(|map| {
                        rule.all_of.iter().all(|path| has(map, path))
                            && (rule.any_of.is_empty()
                                || rule.any_of.iter().any(|path| has(map, path)))
                    })
                };
                match rules.iter().find(holds) {
                    Some(rule) => Choice::variant(rule.variant, Why::Text(rule.reason), rule.then),
                    None => match last {
                        Else::Then(Node::Variant(index, then)) => Choice::variant(
                            *index,
                            Why::Text("no other variant's distinguishing members are present"),
                            then,
                        ),
                        Else::Then(next) => self.node(next, map)?,
                        Else::Fail(then) => {
                            let members: Vec<String> = rules
                                .iter()
                                .flat_map(|r| r.all_of.iter().chain(r.any_of.iter()))
                                .map(|path| path.join("."))
                                .collect();
                            Choice::none(
                                Why::Owned(format!(
                                    "none of the distinguishing members {members:?} is present"
                                )),
                                then,
                            )
                        }
                    },
                }
            }
            Node::ByFirstItem(item, empty, then) => {
                let first = match self.shape {
                    Shape::Array(items) => items.first_object(),
                    _ => None,
                };
                match first {
                    Some(first) => self.node(item, Some(&first))?,
                    None => Choice::variant(
                        *empty,
                        Why::Text(
                            "an empty array or a non-object first item takes the first array variant",
                        ),
                        then,
                    ),
                }
            }
        })
    }

    /// A case of a constant member holding: a variant there is chosen because of the constant.
    fn case(
        &self,
        next: &'static Node,
        reason: Why,
        map: Option<&Members<'_>>,
    ) -> Result<Choice, serde_json::Error> {
        match next {
            Node::Variant(index, then) => Ok(Choice::variant(*index, reason, then)),
            other => self.node(other, map),
        }
    }

    /// A constant member holding none of the cases' values.
    fn otherwise(
        &self,
        otherwise: &'static Else,
        member: &str,
        found: &dyn fmt::Display,
        map: Option<&Members<'_>>,
    ) -> Result<Choice, serde_json::Error> {
        match otherwise {
            Else::Then(next) => self.node(next, map),
            Else::Fail(then) => Ok(Choice::none(
                Why::Owned(format!(
                    "member `{member}` has a value no variant admits: {found}"
                )),
                then,
            )),
        }
    }

    /// By the value's JSON type.
    fn by_token(&self, cases: &'static [(Token, Node)]) -> Result<Choice, serde_json::Error> {
        let has_integer = cases.iter().any(|(t, _)| *t == Token::Integer);
        let found = cases.iter().find(|(token, _)| match (token, self.shape) {
            (Token::Object, Shape::Object(_))
            | (Token::Array, Shape::Array(_))
            | (Token::String, Shape::String)
            | (Token::Integer, Shape::Integer)
            | (Token::Number, Shape::Number)
            | (Token::Bool, Shape::Bool)
            | (Token::Null, Shape::Null) => true,
            // Without an integer case of its own, an integer is a number too.
            (Token::Number, Shape::Integer) => !has_integer,
            _ => false,
        });
        match found {
            Some((_, next)) => {
                let map = match self.shape {
                    Shape::Object(map) => Some(map),
                    _ => None,
                };
                self.node(next, map)
            }
            None => {
                let expected: Vec<&str> = cases.iter().map(|(t, _)| t.name()).collect();
                Err(super::no_variant(
                    self.table.name,
                    &format!(
                        "expected {}, found {}",
                        expected.join(" or "),
                        self.shape.token_name()
                    ),
                ))
            }
        }
    }
}

/// The first failure as it is, then the others without JSON pointers (so that
/// [`super::error_pointer`] finds the first failure's member).
fn combine(failures: &[String]) -> String {
    let mut out = String::new();
    for (i, failure) in failures.iter().enumerate() {
        if i == 0 {
            out.push_str(failure);
        } else {
            out.push_str(if i == 1 { "; then tried: " } else { "; " });
            out.push_str(&without_pointers(failure));
        }
    }
    out
}

/// `failure` with its ``at `/x` `` pointers written as `at /x` and its ``missing field `m` ``
/// written as ``missing member `m` ``, so that [`super::error_pointer`] ignores it.
fn without_pointers(failure: &str) -> String {
    let mut out = String::with_capacity(failure.len());
    let mut rest = failure;
    while let Some(at) = rest.find("at `/") {
        out.push_str(&rest[..at + 3]);
        let tail = &rest[at + 4..];
        match tail.find('`') {
            Some(end) => {
                out.push_str(&tail[..end]);
                rest = &tail[end + 1..];
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    out.replace("missing field `", "missing member `")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::union_table::Check;
    use serde_json::json;

    use serde_json::Value;

    #[derive(Debug, PartialEq)]
    enum Two {
        Text(String),
        Any(Value),
    }

    fn variant(v: &Variant<'_, str>) -> Result<Two, serde_json::Error> {
        match v.index() {
            0 => v.decode().map(Two::Text),
            _ => v.decode().map(Two::Any),
        }
    }

    const ANY_OF: UnionTable = UnionTable {
        name: "Two",
        one_of: false,
        variants: &["Text", "Any"],
        strings: &[],
        checks: &[],
        choose: Node::Variant(0, &[1]),
    };

    static ONE_OF: UnionTable = UnionTable {
        one_of: true,
        ..ANY_OF
    };

    static ALONE: UnionTable = UnionTable {
        choose: Node::Variant(0, &[]),
        ..ANY_OF
    };

    static NONE: UnionTable = UnionTable {
        choose: Node::ByStr {
            member: "type",
            cases: &[],
            otherwise: Else::Fail(&[]),
            missing: &[],
        },
        ..ANY_OF
    };

    fn decode(value: Value, table: &'static UnionTable) -> Result<Two, serde_json::Error> {
        decode_values(
            &mut serde_json::Deserializer::from_str(&value.to_string()),
            table,
            variant,
        )
    }

    #[test]
    fn any_of_falls_back_in_order_and_one_of_requires_exactly_one() {
        assert_eq!(decode(json!("x"), &ANY_OF).unwrap(), Two::Text("x".into()));
        assert_eq!(decode(json!(5), &ANY_OF).unwrap(), Two::Any(json!(5)));
        let err = decode(json!("x"), &ONE_OF).unwrap_err().to_string();
        assert!(err.contains("matches 2 variants (`Text`, `Any`)"), "{err}");
        assert_eq!(decode(json!(5), &ONE_OF).unwrap(), Two::Any(json!(5)));
    }

    #[test]
    fn without_alternatives_the_chosen_error_stands_alone() {
        let err = decode(json!(5), &ALONE).unwrap_err().to_string();
        assert!(
            err.starts_with(
                "Two: decoding as variant `Text` (chosen because it is the only variant \
                 admitting this JSON type) failed"
            ),
            "{err}"
        );
        let err = decode(json!(5), &NONE).unwrap_err().to_string();
        assert_eq!(
            err,
            "Two: no variant matches: member `type` is missing or not a string"
        );
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Text {
        text: String,
    }

    fn object(v: &Variant<'_, Shape<'_>>) -> Result<Text, serde_json::Error> {
        v.decode()
    }

    static OBJECTS: UnionTable = UnionTable {
        name: "Content",
        one_of: false,
        variants: &["Text", "Other"],
        strings: &["text", "type"],
        checks: &[Check {
            variant: 1,
            required: &[&["data"]],
            strs: &[("type", &["image"])],
            ints: &[],
        }],
        choose: Node::ByToken(&[(
            Token::Object,
            Node::ByStr {
                member: "type",
                cases: &[("text", Node::Variant(0, &[1]))],
                otherwise: Else::Fail(&[]),
                missing: &[],
            },
        )]),
    };

    #[test]
    fn a_union_of_objects_reads_its_members_and_names_the_constant() {
        let decode = |text: &str| {
            decode_objects(
                &mut serde_json::Deserializer::from_str(text),
                &OBJECTS,
                object,
            )
        };
        assert_eq!(
            decode(r#"{"type":"text","text":"hi"}"#).unwrap(),
            Text { text: "hi".into() }
        );
        let err = decode(r#"{"type":"text","text":5}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "Content: decoding as variant `Text` (chosen because member `type` is \"text\") \
                 failed at `/text`"
            ),
            "{err}"
        );
        let err = decode(r#"{"type":"video"}"#).unwrap_err().to_string();
        assert_eq!(
            err,
            "Content: no variant matches: member `type` has a value no variant admits: video"
        );
        let err = decode("[1]").unwrap_err().to_string();
        assert_eq!(
            err,
            "Content: no variant matches: expected an object, found an array"
        );
    }

    #[test]
    fn later_failures_carry_no_pointer() {
        assert_eq!(
            combine(&[
                "U: decoding as variant `A` (chosen because x) failed at `/a`: missing field `b`"
                    .into(),
                "U: decoding as variant `B` (chosen because y) failed at `/c`: missing field `d`"
                    .into(),
            ]),
            "U: decoding as variant `A` (chosen because x) failed at `/a`: missing field `b`; \
             then tried: U: decoding as variant `B` (chosen because y) failed at /c: missing member `d`"
        );
        assert_eq!(
            super::super::error_pointer(&combine(&[
                "U: failed at `/a`: missing field `b`".into(),
                "U: failed at `/c`: missing field `d`".into(),
            ])),
            "/a/b"
        );
    }
}
