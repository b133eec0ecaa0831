//! The MCP versions this layer speaks, and what each one has.
//!
//! Which methods a version defines is read from the generated `method_kind` of
//! `mcpwire-types`, never from a list written here; the few shape differences of results
//! (which members exist from which version) are named by [`Feature`].

use mcpwire_types::ProfileFacts;
use mcpwire_types::facts;
use mcpwire_types::support::MethodKind;

/// One MCP protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// `2024-11-05`.
    V2024_11_05,
    /// `2025-03-26`.
    V2025_03_26,
    /// `2025-06-18`.
    V2025_06_18,
    /// `2025-11-25`.
    V2025_11_25,
    /// `2026-07-28`: stateless; no `initialize`, `server/discover` instead, and every
    /// request states its version and the client's capabilities in `_meta`.
    V2026_07_28,
}

/// A member or behaviour that exists from some version on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// `Tool.title`, `Tool.outputSchema`, `CallToolResult.structuredContent`,
    /// `Resource.title`, `Prompt.title`, `Implementation.title`.
    Titles,
    /// Argument errors of `tools/call` are tool execution errors (`isError`), not -32602.
    ArgumentErrorsInResult,
    /// Results carry `resultType`; list and read results carry `ttlMs` and `cacheScope`.
    ResultType,
    /// The server asks the client (elicitation, sampling) through input-required results of
    /// `tools/call`, `prompts/get` and `resources/read`, not by request.
    InputRequests,
    /// `ServerCapabilities.completions` (`completion/complete` itself exists from
    /// 2024-11-05).
    CompletionsCapability,
}

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 5] = [
        Version::V2024_11_05,
        Version::V2025_03_26,
        Version::V2025_06_18,
        Version::V2025_11_25,
        Version::V2026_07_28,
    ];

    /// The newest version.
    pub const LATEST: Version = Version::V2026_07_28;

    /// The version string, e.g. `"2025-06-18"`.
    pub fn as_str(self) -> &'static str {
        self.facts().protocol_version.unwrap_or_default()
    }

    /// The version named `text`, if this layer speaks it.
    pub fn parse(text: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// The generated profile facts of this version (its wire rules).
    pub fn facts(self) -> &'static ProfileFacts {
        match self {
            Version::V2024_11_05 => &facts::MCP_2024_11_05,
            Version::V2025_03_26 => &facts::MCP_2025_03_26,
            Version::V2025_06_18 => &facts::MCP_2025_06_18,
            Version::V2025_11_25 => &facts::MCP_2025_11_25,
            Version::V2026_07_28 => &facts::MCP_2026_07_28,
        }
    }

    /// The version whose facts these are.
    pub fn of_facts(facts: &ProfileFacts) -> Option<Version> {
        Version::parse(facts.protocol_version?)
    }

    /// Whether this version defines `method` as a request.
    pub fn has_request(self, method: &str) -> bool {
        mcpwire_types::mcp::method_kind(self.as_str(), method) == Some(MethodKind::Request)
    }

    /// Whether this version has the `initialize` handshake.
    pub fn has_handshake(self) -> bool {
        self.has_request("initialize")
    }

    /// Whether this version is stateless (has `server/discover`, states its version in every
    /// request's `_meta`).
    pub fn is_stateless(self) -> bool {
        self.has_request("server/discover")
    }

    /// Whether this version has `feature`.
    pub fn has(self, feature: Feature) -> bool {
        match feature {
            Feature::Titles => self >= Version::V2025_06_18,
            Feature::CompletionsCapability => self >= Version::V2025_03_26,
            Feature::ArgumentErrorsInResult => self >= Version::V2025_11_25,
            Feature::ResultType | Feature::InputRequests => self >= Version::V2026_07_28,
        }
    }

    /// The newest version with the handshake: the answer to an `initialize` asking for a
    /// version this layer does not speak.
    pub fn newest_with_handshake() -> Version {
        Version::ALL
            .into_iter()
            .rev()
            .find(|v| v.has_handshake())
            .unwrap_or(Version::V2025_11_25)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_round_trip_and_know_their_methods() {
        for v in Version::ALL {
            assert_eq!(Version::parse(v.as_str()), Some(v));
            assert_eq!(Version::of_facts(v.facts()), Some(v));
        }
        assert_eq!(Version::parse("2099-01-01"), None);
        assert!(Version::V2024_11_05.has_handshake());
        assert!(!Version::V2026_07_28.has_handshake());
        assert!(Version::V2026_07_28.is_stateless());
        assert!(!Version::V2025_11_25.is_stateless());
        assert!(!Version::V2026_07_28.has_request("ping"));
        assert!(!Version::V2026_07_28.has_request("logging/setLevel"));
        assert!(Version::V2025_06_18.has_request("ping"));
        assert_eq!(Version::newest_with_handshake(), Version::V2025_11_25);
    }
}
