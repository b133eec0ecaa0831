//! RFC 6570 URI templates of level 1 (`{var}`, simple string expansion), matched against a
//! URI to recover the variables.
//!
//! A level-1 expansion percent-encodes everything but the unreserved characters
//! (`A-Z a-z 0-9 - . _ ~`), so a variable matches a non-empty run of unreserved characters
//! and `%XX` escapes, which are decoded. Where a variable could end at several places (in
//! `file:///{name}.txt`, `name` may hold dots) the longest match that lets the rest of the
//! template match wins. Operators (`{+var}`, `{/var}`, `{?var}` ...) and modifiers
//! (`{var*}`, `{var:3}`) of levels 2 to 4 are refused when the template is built.

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

    /// The variables of `uri` when it matches, decoded.
    pub(crate) fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let mut variables = BTreeMap::new();
        match_parts(&self.parts, uri, &mut variables).then_some(variables)
    }
}

fn offset(whole: &str, part: &str) -> usize {
    whole.len() - part.len()
}

fn match_parts(parts: &[Part], uri: &str, variables: &mut BTreeMap<String, String>) -> bool {
    match parts.split_first() {
        None => uri.is_empty(),
        Some((Part::Literal(text), rest)) => uri
            .strip_prefix(text.as_str())
            .is_some_and(|uri| match_parts(rest, uri, variables)),
        Some((Part::Variable(name), rest)) => {
            let run = expansion_run(uri);
            // Longest first: a variable followed by `.txt` may itself hold dots.
            for end in (1..=run).rev() {
                if !uri.is_char_boundary(end) {
                    continue;
                }
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

/// How many leading bytes of `uri` a level-1 expansion could have produced.
fn expansion_run(uri: &str) -> usize {
    uri.bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'%'))
        .count()
}

/// Percent-decodes `text` into UTF-8 (`None` for a broken escape or bytes that are not UTF-8).
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

#[cfg(test)]
mod tests {
    use super::*;

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
