//! Decoding a generated union by the JSON Schema meaning of `anyOf` and `oneOf`.
//!
//! A union of objects reads its object's members once ([`Shape::capture_object`]: string
//! members decoded, the others as raw text); any other union captures its value's raw text
//! ([`super::RawJson`]); neither builds a `serde_json::Value`. The generated dispatch looks at
//! that through a [`Shape`] (JSON token type, a constant member, the members present) and
//! picks one
//! variant without trying any: the [`Choice`]. It also lists, per decision, the other
//! variants that admit the same JSON type and that no constant seen on the way rules out: the
//! alternatives, in schema order. [`decode_union`] then:
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

use std::borrow::Cow;

use serde::de::{DeserializeOwned, DeserializeSeed};

use super::Shape;

/// The index standing for the `Unknown` variant of a method union.
pub const UNKNOWN_METHOD: usize = usize::MAX;

/// The index standing for "the dispatch found no variant": only the alternatives remain.
pub const NO_VARIANT: usize = usize::MAX - 1;

/// What the generated dispatch decided.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The variant index, [`UNKNOWN_METHOD`] or [`NO_VARIANT`].
    pub index: usize,
    /// Why (for [`NO_VARIANT`]: why none was found).
    pub reason: Cow<'static, str>,
    /// The variants to try after it, in order.
    pub alternatives: &'static [usize],
}

impl Choice {
    /// The dispatch chose variant `index` because of `reason`.
    pub const fn variant(
        index: usize,
        reason: &'static str,
        alternatives: &'static [usize],
    ) -> Self {
        Self {
            index,
            reason: Cow::Borrowed(reason),
            alternatives,
        }
    }

    /// The dispatch found no variant, because of `reason`.
    pub fn none(reason: impl Into<Cow<'static, str>>, alternatives: &'static [usize]) -> Self {
        Self {
            index: NO_VARIANT,
            reason: reason.into(),
            alternatives,
        }
    }
}

/// A union as its error messages name it.
#[derive(Debug, Clone, Copy)]
pub struct UnionInfo {
    /// The union's name.
    pub name: &'static str,
    /// `oneOf` (exactly one variant may match) rather than `anyOf`.
    pub one_of: bool,
    /// Variant names by index.
    pub variants: &'static [&'static str],
}

impl UnionInfo {
    fn variant(&self, index: usize) -> &'static str {
        match index {
            UNKNOWN_METHOD => "Unknown",
            i => self.variants.get(i).copied().unwrap_or("?"),
        }
    }
}

/// The reason given for a variant tried after the chosen one.
const FALLBACK: &str = "the variant chosen first does not match and this one admits the value";

/// The reason given for the only variant left when the chosen one is ruled out.
const ONLY_ONE_LEFT: &str =
    "the other variants' required members or constant members rule them out";

/// Decodes a union value by `anyOf` / `oneOf` meaning; see the module documentation.
///
/// `input` is what the variants decode from (the value's raw text, or its [`Shape`] when the
/// union captured its object's members, [`Shape::capture_object`]), `shape` what the dispatch
/// looked at; `viable(index, shape)` says whether a variant can still match; `decode(index,
/// input, reason)` decodes one variant.
pub fn decode_union<'a, I: Copy, T, E: serde::de::Error>(
    input: I,
    shape: &Shape<'a>,
    union: &UnionInfo,
    choice: Choice,
    viable: impl Fn(usize, &Shape<'a>) -> bool,
    decode: impl Fn(usize, I, &str) -> Result<T, E>,
) -> Result<T, E> {
    let mut others = choice
        .alternatives
        .iter()
        .copied()
        .filter(|&i| viable(i, shape));
    let Some(first_other) = others.next() else {
        if choice.index == NO_VARIANT {
            return Err(super::no_variant(union.name, &choice.reason));
        }
        // The fast path: nothing else can match, so the chosen variant's error is the answer.
        return decode(choice.index, input, &choice.reason);
    };
    let second_other = others.next();
    let chosen = choice.index != NO_VARIANT && viable(choice.index, shape);
    if !chosen && second_other.is_none() {
        return decode(first_other, input, ONLY_ONE_LEFT);
    }
    let order = chosen
        .then_some((choice.index, choice.reason.as_ref()))
        .into_iter()
        .chain(
            choice
                .alternatives
                .iter()
                .copied()
                .filter(|&i| viable(i, shape))
                .map(|i| (i, FALLBACK)),
        );
    let mut failures = Vec::new();
    let mut matched: Option<T> = None;
    let mut matches = Vec::new();
    for (index, reason) in order {
        match decode(index, input, reason) {
            Ok(decoded) if !union.one_of => return Ok(decoded),
            Ok(decoded) => {
                matches.push(union.variant(index));
                matched.get_or_insert(decoded);
            }
            Err(e) => failures.push(e.to_string()),
        }
    }
    match (matched, matches.len()) {
        (Some(decoded), 1) => Ok(decoded),
        (Some(_), _) => Err(E::custom(format_args!(
            "{}: the value matches {} variants ({}), but `oneOf` admits exactly one",
            union.name,
            matches.len(),
            matches
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        (None, _) => {
            if choice.index == NO_VARIANT {
                failures.push(format!(
                    "{}: no variant matches: {}",
                    union.name, choice.reason
                ));
            } else if !chosen {
                failures.push(format!(
                    "{}: variant `{}` (chosen because {}) is ruled out by a missing required \
                     member or a constant member of another value",
                    union.name,
                    union.variant(choice.index),
                    choice.reason
                ));
            }
            Err(E::custom(combine(&failures)))
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

/// Decodes `text` as the variant chosen for a union; the error names the union, the
/// variant, why it was chosen, and the JSON pointer (relative to the union's value) of the
/// member that failed, written as ``failed at `/params/name` `` so that
/// [`super::error_pointer`] can find it.
///
/// The text is decoded by a serde_json deserializer of its own, under the depth rules of
/// [`super::with_unbounded_depth`].
pub fn decode_variant<T: DeserializeOwned, E: serde::de::Error>(
    text: &str,
    union: &str,
    variant: &str,
    reason: &str,
) -> Result<T, E> {
    super::depth::decode_text::<T>(text)
        .map_err(|(pointer, error)| variant_error(&pointer, &error, union, variant, reason))
}

/// Decodes the members a union captured ([`Shape::capture_object`]) as its chosen variant,
/// with the errors of [`decode_variant`].
pub fn decode_object_variant<T: DeserializeOwned, E: serde::de::Error>(
    shape: &Shape<'_>,
    union: &str,
    variant: &str,
    reason: &str,
) -> Result<T, E> {
    let Shape::Object(members) = shape else {
        return Err(E::custom(format_args!(
            "{union}: variant `{variant}` (chosen because {reason}) must be an object, found {}",
            shape.token_name()
        )));
    };
    super::depth::decode_tracked::<T>(|seed| {
        seed.deserialize(super::members_de::MembersDeserializer(members))
    })
    .map_err(|(pointer, error)| variant_error(&pointer, &error, union, variant, reason))
}

/// The error of a variant that failed at `pointer` (relative to the union's value).
fn variant_error<E: serde::de::Error>(
    pointer: &str,
    error: &serde_json::Error,
    union: &str,
    variant: &str,
    reason: &str,
) -> E {
    let inner = super::depth::message_without_position(error);
    if pointer.is_empty() {
        E::custom(format_args!(
            "{union}: decoding as variant `{variant}` (chosen because {reason}) failed: {inner}"
        ))
    } else {
        E::custom(format_args!(
            "{union}: decoding as variant `{variant}` (chosen because {reason}) failed at `{pointer}`: {inner}"
        ))
    }
}

/// Decodes the `null` variant of a union.
pub fn decode_null<E: serde::de::Error>(
    text: &str,
    union: &str,
    variant: &str,
    reason: &str,
) -> Result<(), E> {
    if text.trim() == "null" {
        Ok(())
    } else {
        Err(E::custom(format_args!(
            "{union}: variant `{variant}` (chosen because {reason}) must be null"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use serde_json::Value;

    #[derive(Debug, PartialEq)]
    enum Two {
        Text(String),
        Any(Value),
    }

    const INFO: UnionInfo = UnionInfo {
        name: "Two",
        one_of: false,
        variants: &["Text", "Any"],
    };

    fn decode(value: Value, info: &UnionInfo, choice: Choice) -> Result<Two, serde_json::Error> {
        let text = value.to_string();
        let shape = Shape::of::<serde_json::Error>(&text)?;
        decode_union(
            &text,
            &shape,
            info,
            choice,
            |_, _| true,
            |i, text, reason| match i {
                0 => decode_variant::<String, _>(text, "Two", "Text", reason).map(Two::Text),
                _ => decode_variant::<Value, _>(text, "Two", "Any", reason).map(Two::Any),
            },
        )
    }

    #[test]
    fn any_of_falls_back_in_order_and_one_of_requires_exactly_one() {
        let choice = || Choice::variant(0, "it is a string", &[1]);
        assert_eq!(
            decode(json!("x"), &INFO, choice()).unwrap(),
            Two::Text("x".into())
        );
        assert_eq!(
            decode(json!(5), &INFO, choice()).unwrap(),
            Two::Any(json!(5))
        );
        let one_of = UnionInfo {
            one_of: true,
            ..INFO
        };
        let err = decode(json!("x"), &one_of, choice())
            .unwrap_err()
            .to_string();
        assert!(err.contains("matches 2 variants (`Text`, `Any`)"), "{err}");
        assert_eq!(
            decode(json!(5), &one_of, choice()).unwrap(),
            Two::Any(json!(5))
        );
    }

    #[test]
    fn without_alternatives_the_chosen_error_stands_alone() {
        let err = decode(json!(5), &INFO, Choice::variant(0, "it is a string", &[]))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "Two: decoding as variant `Text` (chosen because it is a string) failed"
            ),
            "{err}"
        );
        let err = decode(json!(5), &INFO, Choice::none("no member `type`", &[]))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "Two: no variant matches: no member `type`");
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
