//! Profiles: the schema-derived facts of one protocol plus the user's policy.
//!
//! A [`Profile`] wraps a generated [`ProfileFacts`] (which id types the schema admits,
//! whether batches exist, whether an error response must carry an id, which params types
//! are admitted) and adds policy: how to spell a missing id, an optional stricter id
//! policy, and size limits. No rule in the runtime looks at a version string.
//!
//! ```
//! use mcpwire::{MissingId, Profile};
//!
//! let plain = Profile::jsonrpc_2_0();
//! assert_eq!(plain.missing_id(), MissingId::Null);
//! let mcp = Profile::mcp("2025-11-25").unwrap();
//! assert_eq!(mcp.missing_id(), MissingId::Omit);
//! assert!(!mcp.facts().batches);
//! let strict = mcp.with_missing_id(MissingId::Null).with_max_batch_len(Some(10));
//! assert_eq!(strict.missing_id(), MissingId::Null);
//! assert_eq!(Profile::by_name("mcp-2025-11-25").unwrap().name(), "mcp-2025-11-25");
//! ```

use std::fmt;

use mcpwire_types::{ProfileFacts, facts};

/// How a reply without a recoverable id spells the missing id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MissingId {
    /// Write `"id":null` (the schema requires `id` in error responses).
    Null,
    /// Leave the `id` member out (the schema makes `id` optional in error responses).
    Omit,
}

/// An optional policy that marks more ids unrecoverable than the schema does.
///
/// Ids that break the policy are treated exactly like ids of a forbidden type: the message
/// is answered -32600 without an id.
#[derive(Clone, Copy, Default)]
pub struct IdPolicy {
    /// Maximum length in bytes of a string id's decoded value or a number id's text.
    pub max_len: Option<usize>,
    /// Characters allowed in a string id's decoded value.
    pub allowed_chars: Option<fn(char) -> bool>,
}

impl IdPolicy {
    /// Whether an id passes this policy.
    #[inline]
    pub fn allows(&self, id: &crate::Id<'_>) -> bool {
        if self.max_len.is_none() && self.allowed_chars.is_none() {
            return true;
        }
        match id.as_string() {
            Some(value) => {
                self.max_len.is_none_or(|max| value.len() <= max)
                    && self
                        .allowed_chars
                        .is_none_or(|allowed| value.chars().all(allowed))
            }
            None => self.max_len.is_none_or(|max| id.raw().len() <= max),
        }
    }
}

impl fmt::Debug for IdPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IdPolicy")
            .field("max_len", &self.max_len)
            .field(
                "allowed_chars",
                &self.allowed_chars.map(|_| "fn(char) -> bool"),
            )
            .finish()
    }
}

/// Size limits applied while decoding and replying.
///
/// Every limit is inclusive (a batch of exactly `max_batch_len` elements is accepted) and
/// bounds the memory one frame can make the server hold:
///
/// - a frame is at most `max_frame_bytes` (longer lines are discarded while read);
/// - a batch decodes into at most `max_batch_len` messages (a longer one is rejected
///   whole after scanning, the elements past the limit never collected);
/// - a batch reply grows to about `max_batch_reply_bytes`: once it would pass that budget,
///   the requests not yet answered are answered with a short -32003 error (see
///   [`code::BATCH_REPLY_TOO_LARGE`](crate::code::BATCH_REPLY_TOO_LARGE)) instead;
/// - a typed params decode recurses at most `max_params_depth` levels.
///
/// ```
/// use mcpwire::Limits;
///
/// let limits = Limits::default();
/// assert_eq!(limits.max_frame_bytes, 64 * 1024 * 1024);
/// assert_eq!(limits.max_batch_len, Some(1000));
/// assert_eq!(limits.max_batch_reply_bytes, 16 * 1024 * 1024);
/// assert_eq!(limits.max_params_depth, 256);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Largest frame in bytes (line terminator excluded); longer frames are answered -32600
    /// without an id. Default 64 MiB.
    pub max_frame_bytes: usize,
    /// Largest batch; a longer batch is answered with one -32600 without an id and nothing
    /// in it runs. Default 1000 (`None`: unlimited, which lets one frame of `max_frame_bytes`
    /// hold millions of elements, each decoded and answered: only for trusted peers).
    pub max_batch_len: Option<usize>,
    /// Budget in bytes for the request replies of one batch reply (the JSON array). Replies
    /// are counted in the order the requests are answered (input order for the synchronous
    /// [`Server`](crate::Server)): a request whose reply would take the array past the
    /// budget, and every request answered after it (whose handler then does not run), is
    /// answered `{"code":-32003,"message":"Batch reply too large"}` with its id.
    /// Notifications and responses are still handled; invalid elements are still answered
    /// -32600 (short replies, not counted). The array therefore stays within the budget
    /// plus one short error per element (about 80 bytes plus the id's text). Single
    /// (non-batch) replies are not limited. Default 16 MiB.
    pub max_batch_reply_bytes: usize,
    /// Deepest `params` nesting a typed handler decodes (`{}` is depth 1); deeper params are
    /// answered -32602 with the id, pointer `""`, before any decoding. Within the limit the
    /// typed decode runs without serde_json's own 128-level recursion limit, on a stack
    /// that grows as needed, so any limit is safe from stack overflow. Default 256.
    pub max_params_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_frame_bytes: 64 * 1024 * 1024,
            max_batch_len: Some(1000),
            max_batch_reply_bytes: 16 * 1024 * 1024,
            max_params_depth: 256,
        }
    }
}

/// A protocol profile: schema facts plus policy. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Profile {
    facts: &'static ProfileFacts,
    missing_id: MissingId,
    id_policy: IdPolicy,
    limits: Limits,
    error_details: bool,
}

impl Profile {
    /// A profile for the given facts, with the default policy: the missing-id spelling
    /// derived from `error_response_requires_id`, no id policy, default limits.
    pub fn from_facts(facts: &'static ProfileFacts) -> Self {
        let missing_id = if facts.error_response_requires_id {
            MissingId::Null
        } else {
            MissingId::Omit
        };
        Self {
            facts,
            missing_id,
            id_policy: IdPolicy::default(),
            limits: Limits::default(),
            error_details: false,
        }
    }

    /// Plain JSON-RPC 2.0.
    pub fn jsonrpc_2_0() -> Self {
        Self::from_facts(&facts::JSONRPC_2_0)
    }

    /// The MCP profile for a protocol version such as `"2025-11-25"`, if supported.
    pub fn mcp(version: &str) -> Option<Self> {
        facts::MCP_VERSIONS
            .iter()
            .find(|f| f.protocol_version == Some(version))
            .map(Self::from_facts)
    }

    /// The newest supported MCP version.
    pub fn latest_mcp() -> Self {
        Self::from_facts(&facts::MCP_LATEST)
    }

    /// A profile by its command-line name: `jsonrpc-2.0` or `mcp-<version>`.
    pub fn by_name(name: &str) -> Option<Self> {
        facts::ALL
            .iter()
            .find(|f| f.name == name)
            .map(Self::from_facts)
    }

    /// Every supported profile: JSON-RPC 2.0 first, then MCP versions oldest first.
    pub fn all() -> Vec<Self> {
        facts::ALL.iter().map(Self::from_facts).collect()
    }

    /// Names of every supported profile, in the order of [`Profile::all`].
    pub fn names() -> Vec<&'static str> {
        facts::ALL.iter().map(|f| f.name).collect()
    }

    /// The schema-derived facts.
    pub fn facts(&self) -> &'static ProfileFacts {
        self.facts
    }

    /// The profile's name (`jsonrpc-2.0`, `mcp-2025-11-25`).
    pub fn name(&self) -> &'static str {
        self.facts.name
    }

    /// The MCP protocol version, `None` for plain JSON-RPC 2.0.
    pub fn protocol_version(&self) -> Option<&'static str> {
        self.facts.protocol_version
    }

    /// How a reply without a recoverable id spells the missing id.
    pub fn missing_id(&self) -> MissingId {
        self.missing_id
    }

    /// The id policy.
    pub fn id_policy(&self) -> &IdPolicy {
        &self.id_policy
    }

    /// The size limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether -32700/-32600 replies carry `"data":{"reason":...}` explaining the defect.
    pub fn error_details(&self) -> bool {
        self.error_details
    }

    /// Adds (or not) a `"data":{"reason":...}` member to -32700/-32600 replies, naming what
    /// is wrong (`"jsonrpc must be exactly \"2.0\""`, `"not valid JSON: ..."`). Off by
    /// default: the standard replies carry no data.
    pub fn with_error_details(mut self, on: bool) -> Self {
        self.error_details = on;
        self
    }

    /// Overrides the missing-id spelling.
    pub fn with_missing_id(mut self, missing_id: MissingId) -> Self {
        self.missing_id = missing_id;
        self
    }

    /// Sets the id policy.
    pub fn with_id_policy(mut self, id_policy: IdPolicy) -> Self {
        self.id_policy = id_policy;
        self
    }

    /// Sets all limits at once.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the largest accepted frame in bytes.
    pub fn with_max_frame_bytes(mut self, max: usize) -> Self {
        self.limits.max_frame_bytes = max;
        self
    }

    /// Sets the largest accepted batch (`None`: unlimited).
    pub fn with_max_batch_len(mut self, max: Option<usize>) -> Self {
        self.limits.max_batch_len = max;
        self
    }

    /// Sets the budget in bytes for one batch reply (see [`Limits::max_batch_reply_bytes`]).
    pub fn with_max_batch_reply_bytes(mut self, max: usize) -> Self {
        self.limits.max_batch_reply_bytes = max;
        self
    }

    /// Sets the deepest `params` nesting a typed handler decodes.
    pub fn with_max_params_depth(mut self, max: usize) -> Self {
        self.limits.max_params_depth = max;
        self
    }

    /// Copies this profile's policy onto other facts, for switching protocol versions while
    /// keeping the limits, id policy and error details. The missing-id spelling is derived
    /// from the new facts (an override is not carried over).
    pub fn with_facts(&self, facts: &'static ProfileFacts) -> Self {
        Self::from_facts(facts)
            .with_id_policy(self.id_policy)
            .with_limits(self.limits)
            .with_error_details(self.error_details)
    }
}

impl Default for Profile {
    /// Plain JSON-RPC 2.0.
    fn default() -> Self {
        Self::jsonrpc_2_0()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_id_follows_the_facts() {
        for profile in Profile::all() {
            let expected = if profile.facts().error_response_requires_id {
                MissingId::Null
            } else {
                MissingId::Omit
            };
            assert_eq!(profile.missing_id(), expected, "{}", profile.name());
            assert_eq!(
                Profile::by_name(profile.name()).unwrap().facts(),
                profile.facts()
            );
        }
        assert!(Profile::mcp("1999-01-01").is_none());
        assert!(Profile::by_name("jsonrpc-1.0").is_none());
    }

    #[test]
    fn with_facts_keeps_the_policy_and_rederives_the_missing_id() {
        let old = Profile::mcp("2025-06-18")
            .unwrap()
            .with_max_frame_bytes(10)
            .with_error_details(true)
            .with_missing_id(MissingId::Omit);
        let new = old.with_facts(Profile::mcp("2025-11-25").unwrap().facts());
        assert_eq!(new.name(), "mcp-2025-11-25");
        assert_eq!(new.limits().max_frame_bytes, 10);
        assert!(new.error_details());
        let back = new.with_facts(old.facts());
        assert_eq!(back.missing_id(), MissingId::Null);
    }

    #[test]
    fn id_policy_limits_length_and_characters() {
        let policy = IdPolicy {
            max_len: Some(3),
            allowed_chars: Some(|c| c.is_ascii_digit()),
        };
        let id = |raw| crate::Id::parse(raw).unwrap();
        assert!(policy.allows(&id("\"123\"")));
        assert!(!policy.allows(&id("\"1234\"")));
        assert!(!policy.allows(&id("\"12a\"")));
        assert!(policy.allows(&id("999")));
        assert!(!policy.allows(&id("1000")));
        assert!(IdPolicy::default().allows(&id("\"anything at all\"")));
    }
}
