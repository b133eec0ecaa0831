//! One finding of one exchange (kind, level, rule, message) and the rules findings are
//! grouped by; `judge` produces them, `lenient` relevels them, the report groups them.

use std::fmt;

use mcpwire_proptest::rules;

use super::kinds::Level;
use super::kinds::level_of;

/// A rule a case is checked against, as shown in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleId {
    /// A rule of docs/wire-rules.md, by number and name.
    Wire(u8, &'static str),
    /// The server stays up and answers every input (invalid input never kills the loop).
    Liveness,
    /// The HTTP status and body of the Streamable HTTP transport.
    Http,
    /// A tool's behaviour against its own declared schemas (`--tools`): arguments its
    /// `inputSchema` refuses are refused, a result's `structuredContent` matches its
    /// `outputSchema`.
    Tools,
    /// The capabilities the handshake declared against what the server does
    /// (`--capabilities`).
    Capabilities,
    /// The protocol's properties where the server declared the feature (`--protocol`):
    /// ping, logging, subscriptions, completion, progress.
    Protocol,
    /// The endpoint as an OAuth 2.1 resource server (`--auth`).
    Auth,
}

impl RuleId {
    /// The id of a rule of docs/wire-rules.md.
    pub fn of_rule(rule: mcpwire_proptest::Rule) -> RuleId {
        RuleId::of(rule)
    }

    fn of(rule: mcpwire_proptest::Rule) -> RuleId {
        RuleId::Wire(rule.number, rule.name)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleId::Wire(number, name) => write!(f, "wire rule {number} ({name})"),
            RuleId::Liveness => f.write_str("server liveness"),
            RuleId::Http => f.write_str("HTTP transport"),
            RuleId::Tools => f.write_str("tool schemas"),
            RuleId::Capabilities => f.write_str("declared capabilities"),
            RuleId::Protocol => f.write_str("protocol properties"),
            RuleId::Auth => f.write_str("authorization"),
        }
    }
}

/// One broken rule in one exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// A stable kebab-case name from [`super::kinds::KINDS`], e.g. `id-lost-although-recoverable`,
    /// `server-exited`, `http-status`; the names `--expect-failures` lists.
    pub kind: String,
    /// Violation of a spec MUST, or mcpwire's stricter policy.
    pub level: Level,
    /// The rule broken.
    pub rule: RuleId,
    /// What is wrong and what to fix.
    pub message: String,
    /// Within a kind, higher is worse (a valid request unanswered before dropped bad input);
    /// reports show the most severe example first.
    pub severity: u8,
}

impl Finding {
    /// A finding of kind `kind` (its level from the kinds table).
    pub fn new(kind: &str, rule: RuleId, message: impl Into<String>) -> Finding {
        Finding {
            kind: kind.to_owned(),
            level: level_of(kind),
            rule,
            message: message.into(),
            severity: 0,
        }
    }
}

impl RuleId {
    /// The short name `--expect-failures` uses: `rule-4`, `liveness`, `http`.
    ///
    /// ```
    /// use mcpwire_cli::check::finding::RuleId;
    /// assert_eq!(RuleId::Wire(4, "id recovery").slug(), "rule-4");
    /// assert_eq!(RuleId::Http.slug(), "http");
    /// ```
    pub fn slug(&self) -> String {
        match self {
            RuleId::Wire(number, _) => format!("rule-{number}"),
            RuleId::Liveness => "liveness".into(),
            RuleId::Http => "http".into(),
            RuleId::Tools => "tools".into(),
            RuleId::Capabilities => "capabilities".into(),
            RuleId::Protocol => "protocol".into(),
            RuleId::Auth => "auth".into(),
        }
    }

    /// The rule with slug `slug`, if any.
    pub fn from_slug(slug: &str) -> Option<RuleId> {
        match slug {
            "liveness" => return Some(RuleId::Liveness),
            "http" => return Some(RuleId::Http),
            "tools" => return Some(RuleId::Tools),
            "capabilities" => return Some(RuleId::Capabilities),
            "protocol" => return Some(RuleId::Protocol),
            "auth" => return Some(RuleId::Auth),
            _ => {}
        }
        let number: u8 = slug.strip_prefix("rule-")?.parse().ok()?;
        let rule = [
            rules::FRAMING,
            rules::PARSE,
            rules::TOP_LEVEL,
            rules::ID_RECOVERY,
            rules::CLASSIFICATION,
            rules::CALL_VALIDITY,
            rules::REQUEST_DISPATCH,
            rules::RESPONSES,
            rules::BATCH,
            rules::REPLY_SHAPE,
        ]
        .into_iter()
        .find(|r| r.number == number)?;
        Some(RuleId::of(rule))
    }
}
