//! RFC 6570 URI templates of level 1 (`{var}`, simple string expansion), matched against a
//! URI to recover the variables.
//!
//! A level-1 expansion percent-encodes everything but the unreserved characters
//! (`A-Z a-z 0-9 - . _ ~`), so a variable matches a non-empty run of unreserved characters
//! and `%XX` escapes that decode to UTF-8, and the escapes are decoded. Where a variable could
//! end at several places (in `file:///{name}.txt`, `name` may hold dots) the longest match that
//! lets the rest of the template match wins, the leftmost variable first. Operators
//! (`{+var}`, `{/var}`, `{?var}` ...) and modifiers (`{var*}`, `{var:3}`) of levels 2 to 4 are
//! refused when the template is built.
//!
//! # Cost
//!
//! The URI comes from the client, so matching costs time and memory linear in its length,
//! whatever it holds and whatever the template (a template is the server's own, and its length
//! counts as a constant). Values never span a byte outside a level-1 expansion, and within
//! one, "one character of a value" starting at a given byte is a fixed stretch (an unreserved
//! character, or the `%XX` escapes of one UTF-8 sequence). So where a value starting at byte
//! `p` may end is a chain `p → next(p) → …`, and one pass from the end of the URI tells, for
//! every byte and every part of the template, whether the rest of the template matches from
//! there ([`UriTemplate::matches`]). The longest value is then the furthest point of its chain
//! from which the rest matches. Literals are found with one scan each (Knuth–Morris–Pratt),
//! so a long literal costs no more per byte than a short one. `tests::reference` keeps the
//! backtracking search the semantics above describe, written for clarity (quadratic, and
//! exponential in the number of variables); a property test holds the two to the same
//! answers.

use std::collections::BTreeMap;

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Text the URI must contain as is.
    Literal(String),
    /// `{name}`.
    Variable(String),
}

/// A parsed level-1 template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Parses `template`; says what is wrong when it is not a level-1 template.
    pub(crate) fn parse(template: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            if rest[open..].starts_with('}') {
                return Err(format!(
                    "`}}` without `{{` at byte {}",
                    offset(template, rest) + open
                ));
            }
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let after = &rest[open + 1..];
            let close = after.find('}').ok_or_else(|| {
                format!(
                    "`{{` without `}}` at byte {}",
                    offset(template, rest) + open
                )
            })?;
            let name = &after[..close];
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(format!(
                    "`{{{name}}}` is not a level-1 variable (letters, digits and `_` only; \
                     operators and modifiers are not supported)"
                ));
            }
            if matches!(parts.last(), Some(Part::Variable(_))) {
                return Err(format!(
                    "`{{{name}}}` follows another variable directly: the URI could not tell \
                     where one ends"
                ));
            }
            parts.push(Part::Variable(name.to_owned()));
            rest = &after[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self { parts })
    }

    /// The variable names, in order.
    pub(crate) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables of `uri` when it matches, decoded. Time and memory linear in `uri`'s
    /// length (see the module's documentation).
    pub(crate) fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        // What the first and the last literal rule out costs nothing to rule out.
        if let Some(Part::Literal(head)) = self.parts.first()
            && !uri.starts_with(head.as_str())
        {
            return None;
        }
        if let Some(Part::Literal(tail)) = self.parts.last()
            && !uri.ends_with(tail.as_str())
        {
            return None;
        }
        let uri = uri.as_bytes();
        // `rest[i]` holds, for every byte `p` (and the end), whether `parts[i..]` match
        // `uri[p..]`; built from the last part back.
        let mut rest = vec![Bits::new(uri.len() + 1)];
        rest[0].set(uri.len());
        for part in self.parts.iter().rev() {
            let after = rest.last().expect("starts with the empty rest");
            let mut here = Bits::new(uri.len() + 1);
            match part {
                Part::Literal(text) => {
                    for at in occurrences(text.as_bytes(), uri) {
                        if after.get(at + text.len()) {
                            here.set(at);
                        }
                    }
                }
                Part::Variable(_) => {
                    // A value from `p` ends at `next(p)`, or goes on from there.
                    for at in (0..uri.len()).rev() {
                        if let Some(next) = char_end(uri, at)
                            && (after.get(next) || here.get(next))
                        {
                            here.set(at);
                        }
                    }
                }
            }
            rest.push(here);
        }
        rest.reverse();
        if !rest[0].get(0) {
            return None;
        }
        // The template matches: walk it, each value the longest that lets the rest match.
        let mut variables = BTreeMap::new();
        let mut at = 0;
        for (index, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(text) => at += text.len(),
                Part::Variable(name) => {
                    let mut end = None;
                    let mut next = at;
                    while let Some(after) = char_end(uri, next) {
                        if rest[index + 1].get(after) {
                            end = Some(after);
                        }
                        next = after;
                    }
                    let end = end?;
                    variables.insert(name.clone(), decode(&uri[at..end])?);
                    at = end;
                }
            }
        }
        Some(variables)
    }
}

fn offset(whole: &str, part: &str) -> usize {
    whole.len() - part.len()
}

/// One bit per byte of a URI (and one for its end).
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Self {
        Self(vec![0; len.div_ceil(64)])
    }

    fn set(&mut self, at: usize) {
        self.0[at / 64] |= 1 << (at % 64);
    }

    fn get(&self, at: usize) -> bool {
        self.0
            .get(at / 64)
            .is_some_and(|word| word & (1 << (at % 64)) != 0)
    }
}

/// Every offset of `haystack` at which `needle` (not empty) starts, overlapping ones
/// included, in one pass (Knuth–Morris–Pratt): `O(haystack + needle)`.
fn occurrences(needle: &[u8], haystack: &[u8]) -> Vec<usize> {
    // `border[i]`: the length of the longest proper prefix of `needle[..=i]` that is also
    // its suffix.
    let mut border = vec![0; needle.len()];
    let mut len = 0;
    for i in 1..needle.len() {
        while len > 0 && needle[i] != needle[len] {
            len = border[len - 1];
        }
        if needle[i] == needle[len] {
            len += 1;
        }
        border[i] = len;
    }
    let mut found = Vec::new();
    let mut len = 0;
    for (i, &byte) in haystack.iter().enumerate() {
        while len > 0 && (len == needle.len() || byte != needle[len]) {
            len = border[len - 1];
        }
        if byte == needle[len] {
            len += 1;
        }
        if len == needle.len() {
            found.push(i + 1 - len);
        }
    }
    found
}

/// Where one character of a value that starts at `at` ends: an unreserved character, or the
/// `%XX` escapes of one well-formed UTF-8 sequence (RFC 3629's table). `None` where no value
/// goes on at `at`.
fn char_end(uri: &[u8], at: usize) -> Option<usize> {
    let (lead, mut end) = unit(uri, at)?;
    let (continuations, second) = match lead {
        0x00..=0x7F => return Some(end),
        0xC2..=0xDF => (1, 0x80..=0xBF),
        0xE0 => (2, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (2, 0x80..=0xBF),
        0xED => (2, 0x80..=0x9F),
        0xF0 => (3, 0x90..=0xBF),
        0xF1..=0xF3 => (3, 0x80..=0xBF),
        0xF4 => (3, 0x80..=0x8F),
        _ => return None,
    };
    for index in 0..continuations {
        let (byte, after) = unit(uri, end)?;
        let range = if index == 0 {
            second.clone()
        } else {
            0x80..=0xBF
        };
        if !range.contains(&byte) {
            return None;
        }
        end = after;
    }
    Some(end)
}

/// What each byte is to a level-1 expansion: [`UNRESERVED`], a hexadecimal digit's value, or
/// nothing. A table, so that the per-byte work of a long URI is one look-up.
const CLASS: [u8; 256] = {
    let mut class = [NOTHING; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_' || b == b'~' {
            class[byte] = UNRESERVED;
        }
        if b.is_ascii_hexdigit() {
            class[byte] |= HEX
                | match b {
                    b'0'..=b'9' => b - b'0',
                    b'a'..=b'f' => b - b'a' + 10,
                    _ => b - b'A' + 10,
                };
        }
        byte += 1;
    }
    class
};
/// In [`CLASS`]: an unreserved character (the low four bits hold a hex digit's value).
const UNRESERVED: u8 = 0x10;
/// In [`CLASS`]: a hexadecimal digit (its value in the low four bits).
const HEX: u8 = 0x20;
/// In [`CLASS`]: neither.
const NOTHING: u8 = 0;

/// The byte that the unit at `at` stands for, and where the unit ends: an unreserved
/// character (`A-Z a-z 0-9 - . _ ~`) stands for itself, `%` and two hexadecimal digits (either
/// case) for their value. `None` for anything else, a broken escape included.
fn unit(uri: &[u8], at: usize) -> Option<(u8, usize)> {
    let byte = *uri.get(at)?;
    if CLASS[usize::from(byte)] & UNRESERVED != 0 {
        return Some((byte, at + 1));
    }
    if byte != b'%' {
        return None;
    }
    let high = CLASS[usize::from(*uri.get(at + 1)?)];
    let low = CLASS[usize::from(*uri.get(at + 2)?)];
    (high & HEX != 0 && low & HEX != 0).then_some(((high & 0x0f) << 4 | (low & 0x0f), at + 3))
}

/// Percent-decodes a value the walk chose into UTF-8 (`None` is not expected: the chain
/// admitted only whole units and well-formed sequences).
fn decode(value: &[u8]) -> Option<String> {
    let mut bytes = Vec::with_capacity(value.len());
    let mut at = 0;
    while at < value.len() {
        let (byte, next) = unit(value, at)?;
        bytes.push(byte);
        at = next;
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use proptest::prelude::*;

    use super::*;

    /// The matcher as the module's documentation describes it, written for clarity and not
    /// for cost: every end of a variable, longest first, each value decoded again, the rest
    /// of the template matched recursively. Exponential in the worst case; tests only.
    mod reference {
        use super::{BTreeMap, Part};

        /// Percent-decodes `text` into UTF-8 (`None` for a broken escape or bytes that are
        /// not UTF-8).
        fn decode(text: &str) -> Option<String> {
            let mut bytes = Vec::with_capacity(text.len());
            let mut rest = text.as_bytes();
            while let Some((&first, tail)) = rest.split_first() {
                if first == b'%' {
                    let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
                    bytes.extend(crate::hex::decode(hex)?);
                    rest = &tail[2..];
                } else {
                    bytes.push(first);
                    rest = tail;
                }
            }
            String::from_utf8(bytes).ok()
        }

        pub(super) fn matches(parts: &[Part], uri: &str) -> Option<BTreeMap<String, String>> {
            let mut variables = BTreeMap::new();
            match_parts(parts, uri, &mut variables).then_some(variables)
        }

        fn match_parts(
            parts: &[Part],
            uri: &str,
            variables: &mut BTreeMap<String, String>,
        ) -> bool {
            match parts.split_first() {
                None => uri.is_empty(),
                Some((Part::Literal(text), rest)) => uri
                    .strip_prefix(text.as_str())
                    .is_some_and(|uri| match_parts(rest, uri, variables)),
                Some((Part::Variable(name), rest)) => {
                    let run = uri
                        .bytes()
                        .take_while(|b| {
                            b.is_ascii_alphanumeric()
                                || matches!(b, b'-' | b'.' | b'_' | b'~' | b'%')
                        })
                        .count();
                    for end in (1..=run).rev() {
                        let Some(value) = decode(&uri[..end]) else {
                            continue;
                        };
                        if match_parts(rest, &uri[end..], variables) {
                            variables.insert(name.clone(), value);
                            return true;
                        }
                    }
                    false
                }
            }
        }
    }

    /// Pieces that make ambiguous templates and URIs likely: dots in values and literals,
    /// broken and multi-byte escapes, separators a value cannot hold.
    const PIECES: &[&str] = &[
        "a",
        "b",
        ".",
        "-",
        "/",
        "%",
        "%2",
        "%41",
        "%2f",
        "%C3",
        "%A9",
        "%c3%a9",
        "%E2%82%AC",
        "%F0%9F%98%80",
        "%ED%A0%80",
        "%ff",
        "%zz",
        "x.y",
        "é",
        "~",
    ];

    fn text(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(PIECES), 0..max).prop_map(|p| p.concat())
    }

    fn template() -> impl Strategy<Value = String> {
        // Literals between variables are never empty (two variables side by side are refused).
        (
            text(3),
            prop::collection::vec((text(3), prop::bool::ANY), 0..4),
        )
            .prop_map(|(head, rest)| {
                let mut template = head;
                for (index, (literal, is_last)) in rest.iter().enumerate() {
                    template.push_str(&format!("{{v{index}}}"));
                    if literal.is_empty() && !is_last {
                        template.push('.');
                    }
                    template.push_str(literal);
                }
                template
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The linear matcher agrees with the reference on every template and URI, matched
        /// or not, value by value.
        #[test]
        fn agrees_with_the_reference(template in template(), uri in text(12)) {
            let Ok(parsed) = UriTemplate::parse(&template) else {
                return Ok(());
            };
            prop_assert_eq!(parsed.matches(&uri), reference::matches(&parsed.parts, &uri));
        }

        /// The same, on URIs made from the template itself so that most of them match.
        #[test]
        fn agrees_on_expansions(template in template(), values in prop::collection::vec(text(6), 4)) {
            let Ok(parsed) = UriTemplate::parse(&template) else {
                return Ok(());
            };
            let mut uri = String::new();
            let mut values = values.iter();
            for part in &parsed.parts {
                match part {
                    Part::Literal(text) => uri.push_str(text),
                    Part::Variable(_) => uri.push_str(values.next().map_or("", String::as_str)),
                }
            }
            prop_assert_eq!(parsed.matches(&uri), reference::matches(&parsed.parts, &uri));
        }
    }

    /// Issue 46: `test://template/` and 4 MiB of letters, against `test://template/{id}/data`,
    /// cost the old matcher hours (every end of `id` tried, each prefix decoded again). Every
    /// shape of hostile URI, matched or not, costs the same time per byte at 8 KiB, 64 KiB and
    /// 4 MiB (within 3×, in the CPU time the thread used, the least of three runs each, so that
    /// a loaded machine does not decide), and a 4 MiB URI is matched within a second of CPU in
    /// an optimised build (ten in a debug one, whose code is many times slower).
    #[test]
    fn cost_is_linear_up_to_4_mib() {
        type Shape = (&'static str, fn(usize) -> String, bool);
        let cases: [Shape; 11] = [
            (
                "test://template/{id}/data",
                |n| format!("test://template/{}", "a".repeat(n)),
                false,
            ),
            (
                "test://template/{id}/data",
                |n| format!("test://template/{}%/data", "a".repeat(n)),
                false,
            ),
            (
                "test://template/{id}/data",
                |n| format!("test://template/{}/data", "a".repeat(n)),
                true,
            ),
            (
                "file:///{name}.txt",
                |n| format!("file:///{}txt", ".".repeat(n)),
                true,
            ),
            (
                "file:///{name}.txt",
                |n| format!("file:///{}x", ".".repeat(n)),
                false,
            ),
            (
                "file:///{name}.txt",
                |n| format!("file:///{}%.txt", ".".repeat(n)),
                false,
            ),
            ("{a}.{b}.{c}", |n| ".".repeat(n), true),
            ("{a}.{b}.{c}/", |n| ".".repeat(n), false),
            ("{a}.{b}.{c}/", |n| format!("{}%/", ".".repeat(n)), false),
            ("x://{a}", |n| format!("x://{}", "%41".repeat(n / 3)), true),
            (
                "x://{a}",
                |n| format!("x://{}%4", "%41".repeat(n / 3)),
                false,
            ),
        ];
        let budget = Duration::from_secs(if cfg!(debug_assertions) { 10 } else { 1 });
        for (template, uri, matched) in cases {
            let parsed = UriTemplate::parse(template).unwrap();
            // Each size is judged before the next is tried, so that a quadratic matcher
            // fails at 64 KiB instead of running for hours at 4 MiB.
            let mut last_per_byte: Option<f64> = None;
            for size in [8 << 10, 64 << 10, 4 << 20] {
                let uri = uri(size);
                let runs = if size == 4 << 20 { 1 } else { 3 };
                let took = (0..runs)
                    .map(|_| {
                        let started = thread_cpu();
                        assert_eq!(parsed.matches(&uri).is_some(), matched, "{template}");
                        thread_cpu() - started
                    })
                    .min()
                    .unwrap();
                let per_byte = took.as_secs_f64() / uri.len() as f64;
                if let Some(before) = last_per_byte {
                    assert!(
                        per_byte < before * 3.0,
                        "{template}: {:.1} ns a byte grew to {:.1} at {size} bytes",
                        before * 1e9,
                        per_byte * 1e9
                    );
                }
                last_per_byte = Some(per_byte);
                if size == 4 << 20 {
                    assert!(took < budget, "{template}: {took:?} for {size} bytes");
                }
            }
        }
    }

    /// The CPU time this thread has used.
    fn thread_cpu() -> Duration {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Duration::new(now.tv_sec.unsigned_abs(), now.tv_nsec.unsigned_abs() as u32)
    }

    fn vars(pairs: &[(&str, &str)]) -> Option<BTreeMap<String, String>> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    #[test]
    fn variables_are_recovered_and_decoded() {
        let template = UriTemplate::parse("users://{id}/posts/{post}").unwrap();
        assert_eq!(template.variables().collect::<Vec<_>>(), ["id", "post"]);
        assert_eq!(
            template.matches("users://42/posts/hello%20world"),
            vars(&[("id", "42"), ("post", "hello world")])
        );
        assert_eq!(template.matches("users://42/posts/"), None);
        assert_eq!(template.matches("users://4/2/posts/x"), None);
        assert_eq!(template.matches("users://42/posts/x/y"), None);
        assert_eq!(template.matches("users://42/posts/%zz"), None);
        let file = UriTemplate::parse("file:///{name}.txt").unwrap();
        assert_eq!(
            file.matches("file:///notes.v2.txt"),
            vars(&[("name", "notes.v2")])
        );
        assert_eq!(file.matches("file:///notes.md"), None);
        let fixed = UriTemplate::parse("mem:///plain").unwrap();
        assert_eq!(fixed.matches("mem:///plain"), vars(&[]));
        // Escapes decode to UTF-8 in either case; a broken or non-UTF-8 one matches nothing.
        let any = UriTemplate::parse("mem:///{key}").unwrap();
        assert_eq!(any.matches("mem:///caf%C3%a9"), vars(&[("key", "café")]));
        assert_eq!(any.matches("mem:///caf%C3"), None);
        assert_eq!(any.matches("mem:///%ED%A0%80"), None);
        assert_eq!(any.matches("mem:///%2"), None);
        // A literal outside ASCII is matched as itself.
        let wide = UriTemplate::parse("файл://{x}/é").unwrap();
        assert_eq!(wide.matches("файл://a.b/é"), vars(&[("x", "a.b")]));
    }

    #[test]
    fn only_level_1_templates_are_accepted() {
        for (bad, reason) in [
            ("a{+path}", "not a level-1 variable"),
            ("a{/x}", "not a level-1 variable"),
            ("a{x*}", "not a level-1 variable"),
            ("a{x:3}", "not a level-1 variable"),
            ("a{}", "not a level-1 variable"),
            ("a{x", "`{` without `}` at byte 1"),
            ("a}x", "`}` without `{` at byte 1"),
            ("{a}{b}", "follows another variable"),
        ] {
            let error = UriTemplate::parse(bad).unwrap_err();
            assert!(error.contains(reason), "{bad}: {error}");
        }
    }
}
