//! `--expect-failures FILE`: the findings a server is known to have.
//!
//! One expectation per line: the rule (`rule-1` … `rule-10`, `liveness`, `http`), the finding
//! kind, and optionally either `cases=N` (the kind must show in exactly N cases: one more is a
//! regression, one fewer makes the line stale) or a case label (the rest of the line) to
//! expect the kind only for that case. `#` starts a comment; blank lines are ignored. Unknown rules and kinds are rejected
//! with the list of valid ones (`mcpwire check --list-kinds`).
//!
//! A finding not covered by a line fails the run (a regression) when its level fails runs
//! (violations, and strict findings under `--strict`); a line that covers nothing is stale and
//! fails the run too (delete it).
//!
//! ```text
//! # known defects of our server, tracked in issue 12
//! rule-7 reply-to-notification
//! rule-4 id-value-changed  id 2^53+1   # ids go through f64
//! rule-6 missing-reply cases=12         # exactly these twelve
//! ```

use std::collections::BTreeSet;
use std::path::Path;

use super::judge::RuleId;
use super::kinds::{self, Level};

/// One line of an expect-failures file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expectation {
    /// The rule's slug, e.g. `rule-4`.
    pub rule: String,
    /// The finding kind.
    pub kind: String,
    /// The case label, when the line names one.
    pub label: Option<String>,
    /// The exact number of cases, when the line gives `cases=N`.
    pub cases: Option<usize>,
}

impl std::fmt::Display for Expectation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.rule, self.kind)?;
        if let Some(label) = &self.label {
            write!(f, " {label}")?;
        }
        if let Some(cases) = self.cases {
            write!(f, " cases={cases}")?;
        }
        Ok(())
    }
}

/// The expectations listed in an expect-failures file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    /// The listed expectations.
    pub lines: Vec<Expectation>,
}

impl ExpectedFailures {
    /// Reads the file at `path`.
    pub fn read(path: &Path) -> Result<ExpectedFailures, String> {
        let text = std::fs::read_to_string(path).map_err(|error| {
            format!(
                "cannot read the expect-failures file {}: {error}",
                path.display()
            )
        })?;
        ExpectedFailures::parse(&text).map_err(|error| format!("{}: {error}", path.display()))
    }

    /// Parses the file's text; an unknown rule or kind is an error naming the valid ones.
    ///
    /// ```
    /// use mcpwire_cli::check::expect::ExpectedFailures;
    /// let listed = ExpectedFailures::parse("# known\nrule-7 reply-to-notification  # tracked\n\nhttp http-status id 0\n").unwrap();
    /// assert_eq!(listed.lines.len(), 2);
    /// assert_eq!(listed.lines[1].label.as_deref(), Some("id 0"));
    /// assert!(ExpectedFailures::parse("rule-2 missing-replies\n").unwrap_err().contains("missing-reply"));
    /// ```
    pub fn parse(text: &str) -> Result<ExpectedFailures, String> {
        let mut lines = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.splitn(3, char::is_whitespace);
            let rule = words.next().unwrap_or_default();
            let Some(kind) = words.next() else {
                return Err(format!(
                    "line {}: `{line}`: write the rule and the kind, e.g. `rule-2 missing-reply` (kinds: mcpwire check --list-kinds)",
                    number + 1
                ));
            };
            if RuleId::from_slug(rule).is_none() {
                return Err(format!(
                    "line {}: unknown rule `{rule}`; rules: rule-1 … rule-10, liveness, http, tools, capabilities, protocol",
                    number + 1
                ));
            }
            if kinds::kind(kind).is_none() {
                return Err(format!(
                    "line {}: unknown finding kind `{kind}`; valid kinds: {}",
                    number + 1,
                    kinds::names()
                ));
            }
            let rest = words.next().map(str::trim).filter(|l| !l.is_empty());
            let (label, cases) = match rest.and_then(|r| r.strip_prefix("cases=")) {
                Some(count) => {
                    let count = count.trim().parse::<usize>().map_err(|_| {
                        format!(
                            "line {}: `{line}`: cases= takes a number of cases, e.g. cases=12",
                            number + 1
                        )
                    })?;
                    (None, Some(count))
                }
                None => (rest.map(str::to_owned), None),
            };
            lines.push(Expectation {
                rule: rule.to_owned(),
                kind: kind.to_owned(),
                label,
                cases,
            });
        }
        Ok(ExpectedFailures { lines })
    }
}

/// One found finding as the verdict sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<'a> {
    /// The rule's slug.
    pub rule: String,
    /// The kind.
    pub kind: &'a str,
    /// The level.
    pub level: Level,
    /// The failing case's label.
    pub label: &'a str,
}

/// Found findings compared with the listed ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// `rule kind` of groups whose every case is listed.
    pub known: Vec<String>,
    /// `rule kind` of groups with a case no line covers, at a failing level: the run fails.
    pub unexpected: Vec<String>,
    /// `rule kind` of strict groups not listed, when strict findings do not fail the run.
    pub strict_only: Vec<String>,
    /// Lines that cover nothing: the run fails until they are removed.
    pub stale: Vec<String>,
}

impl Verdict {
    /// Compares `found` with `listed` (`None`: nothing is expected). `strict`: strict
    /// findings fail the run like violations.
    pub fn new(found: &[Found<'_>], listed: Option<&ExpectedFailures>, strict: bool) -> Verdict {
        let empty = ExpectedFailures::default();
        let listed = listed.unwrap_or(&empty);
        let covers = |line: &Expectation, found: &Found<'_>| {
            line.rule == found.rule
                && line.kind == found.kind
                && line.label.as_deref().is_none_or(|l| l == found.label)
        };
        let mut known = BTreeSet::new();
        let mut unexpected = BTreeSet::new();
        let mut strict_only = BTreeSet::new();
        for item in found {
            let key = format!("{} {}", item.rule, item.kind);
            if listed.lines.iter().any(|line| covers(line, item)) {
                known.insert(key);
            } else if item.level == Level::Violation || strict {
                unexpected.insert(key);
            } else {
                strict_only.insert(key);
            }
        }
        let mut stale: Vec<String> = Vec::new();
        for line in &listed.lines {
            let shown = found.iter().filter(|item| covers(line, item)).count();
            match line.cases {
                _ if shown == 0 => stale.push(line.to_string()),
                Some(count) if shown < count => {
                    stale.push(format!("{line} (now {shown} case(s))"));
                }
                Some(count) if shown > count => {
                    // More cases than the baseline counts: a new case of a known kind.
                    unexpected.insert(format!("{} {}", line.rule, line.kind));
                }
                _ => {}
            }
        }
        let known = known.difference(&unexpected).cloned().collect();
        Verdict {
            known,
            unexpected: unexpected.into_iter().collect(),
            strict_only: strict_only.into_iter().collect(),
            stale,
        }
    }

    /// Whether the run passes.
    pub fn passes(&self) -> bool {
        self.unexpected.is_empty() && self.stale.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found<'a>(rule: &str, kind: &'a str, label: &'a str) -> Found<'a> {
        Found {
            rule: rule.into(),
            kind,
            level: kinds::level_of(kind),
            label,
        }
    }

    #[test]
    fn lines_cover_by_rule_kind_and_label() {
        let listed = ExpectedFailures::parse(
            "rule-2 missing-reply\nrule-4 id-value-changed id 2^53+1\nrule-7 reply-to-notification\n",
        )
        .unwrap();
        let found = [
            found("rule-2", "missing-reply", "NaN"),
            found("rule-4", "id-value-changed", "id 2^53+1"),
            found("rule-4", "id-value-changed", "id 2^64"),
            found("rule-4", "id-spelling-changed", "id -0"),
        ];
        let verdict = Verdict::new(&found, Some(&listed), false);
        assert_eq!(verdict.known, ["rule-2 missing-reply"]);
        assert_eq!(verdict.unexpected, ["rule-4 id-value-changed"]);
        assert_eq!(verdict.strict_only, ["rule-4 id-spelling-changed"]);
        assert_eq!(verdict.stale, ["rule-7 reply-to-notification"]);
        assert!(!verdict.passes());
        let strict = Verdict::new(&found, Some(&listed), true);
        assert!(
            strict
                .unexpected
                .contains(&"rule-4 id-spelling-changed".to_owned())
        );
    }

    #[test]
    fn the_same_kind_under_another_rule_is_not_covered() {
        let listed = ExpectedFailures::parse("rule-2 missing-reply\n").unwrap();
        let verdict = Verdict::new(
            &[found("rule-7", "missing-reply", "request")],
            Some(&listed),
            false,
        );
        assert_eq!(verdict.unexpected, ["rule-7 missing-reply"]);
        assert_eq!(verdict.stale, ["rule-2 missing-reply"]);
    }

    #[test]
    fn a_count_matches_exactly() {
        let found = [
            found("rule-2", "missing-reply", "NaN"),
            found("rule-2", "missing-reply", "truncated"),
        ];
        let exact = ExpectedFailures::parse("rule-2 missing-reply cases=2\n").unwrap();
        assert!(Verdict::new(&found, Some(&exact), false).passes());
        let fewer = ExpectedFailures::parse("rule-2 missing-reply cases=1\n").unwrap();
        let verdict = Verdict::new(&found, Some(&fewer), false);
        assert_eq!(verdict.unexpected, ["rule-2 missing-reply"]);
        assert!(verdict.known.is_empty());
        let more = ExpectedFailures::parse("rule-2 missing-reply cases=3\n").unwrap();
        let verdict = Verdict::new(&found, Some(&more), false);
        assert_eq!(
            verdict.stale,
            ["rule-2 missing-reply cases=3 (now 2 case(s))"]
        );
        assert!(
            ExpectedFailures::parse("rule-2 missing-reply cases=x\n")
                .unwrap_err()
                .contains("cases= takes a number")
        );
    }

    #[test]
    fn malformed_lines_are_rejected() {
        assert!(
            ExpectedFailures::parse("missing-reply\n")
                .unwrap_err()
                .contains("write the rule and the kind")
        );
        assert!(
            ExpectedFailures::parse("rule-99 missing-reply\n")
                .unwrap_err()
                .contains("unknown rule")
        );
        assert!(
            ExpectedFailures::parse("rule-2 stale-kind\n")
                .unwrap_err()
                .contains("valid kinds: missing-reply")
        );
    }
}
