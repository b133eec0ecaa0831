//! Switching protocol version while keeping the user's policy.
//!
//! ```
//! use mcpwire::{MissingId, Profile};
//!
//! // Plain JSON-RPC spells a missing id `null`; this user chose to leave it out.
//! let before = Profile::jsonrpc_2_0()
//!     .with_max_frame_bytes(4096)
//!     .with_missing_id(MissingId::Omit);
//! let after = before.negotiated(Profile::mcp("2025-06-18").unwrap().facts());
//! assert_eq!(after.name(), "mcp-2025-06-18");
//! assert_eq!(after.limits().max_frame_bytes, 4096);
//! // 2025-06-18 would derive `null`; the user's choice is policy too, and is kept.
//! assert_eq!(after.missing_id(), MissingId::Omit);
//! assert_eq!(before.with_facts(after.facts()).missing_id(), MissingId::Null);
//! ```

use mcpwire_types::ProfileFacts;

use crate::profile::Profile;

impl Profile {
    /// This profile's whole policy on other protocol facts: limits, id policy, error
    /// details, and the missing-id spelling when it differs from what this profile's own
    /// facts derive (a user override). Without an override the spelling is derived from
    /// the new facts. Compare [`Profile::with_facts`], which never keeps the spelling.
    pub fn negotiated(&self, facts: &'static ProfileFacts) -> Profile {
        let switched = self.with_facts(facts);
        let overridden = self.missing_id() != Profile::from_facts(self.facts()).missing_id();
        if overridden {
            switched.with_missing_id(self.missing_id())
        } else {
            switched
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{IdPolicy, MissingId};

    #[test]
    fn the_policy_survives_and_the_default_spelling_follows_the_facts() {
        let policy = IdPolicy {
            max_len: Some(8),
            allowed_chars: None,
        };
        let plain = Profile::jsonrpc_2_0()
            .with_id_policy(policy)
            .with_max_batch_len(Some(3))
            .with_error_details(true);
        let mcp = plain.negotiated(Profile::latest_mcp().facts());
        assert_eq!(mcp.id_policy().max_len, Some(8));
        assert_eq!(mcp.limits().max_batch_len, Some(3));
        assert!(mcp.error_details());
        // No override: MCP's own spelling.
        assert_eq!(mcp.missing_id(), Profile::latest_mcp().missing_id());

        let overridden = plain.with_missing_id(MissingId::Omit);
        let mcp = overridden.negotiated(Profile::mcp("2025-06-18").unwrap().facts());
        assert_eq!(mcp.missing_id(), MissingId::Omit);
    }
}
