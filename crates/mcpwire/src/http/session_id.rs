//! Session ids: 128 bits from the operating system's cryptographically secure source.

use std::fmt;

/// The random bytes of a session id (128 bits).
const ID_BYTES: usize = 16;

/// An `Mcp-Session-Id`: 32 lower-case hex digits encoding 128 random bits from `getrandom`, so
/// knowing other sessions' ids tells nothing about the next one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    /// A fresh id; fails only when the operating system has no random source to offer.
    pub fn generate() -> Result<SessionId, getrandom::Error> {
        Self::generate_tagged(None)
    }

    /// A fresh id whose first byte (its first two hex digits) is `tag` when given, the other
    /// 120 bits random: a load balancer routes a session to the process that tagged it (see
    /// [`HttpConfig::session_id_tag`](super::HttpConfig::session_id_tag)).
    pub fn generate_tagged(tag: Option<u8>) -> Result<SessionId, getrandom::Error> {
        let mut bytes = [0u8; ID_BYTES];
        getrandom::fill(&mut bytes)?;
        if let Some(tag) = tag {
            bytes[0] = tag;
        }
        Ok(SessionId(hex::encode(bytes)))
    }

    /// The id as sent in the header.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The id a header value names, when it has the shape of one (any other value cannot
    /// name a session).
    pub(crate) fn parse(value: &str) -> Option<SessionId> {
        let ok = value.len() == ID_BYTES * 2
            && value
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        ok.then(|| SessionId(value.to_owned()))
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_and_differ() {
        let a = SessionId::generate().unwrap();
        let b = SessionId::generate().unwrap();
        assert_eq!(a.as_str().len(), 32);
        assert!(SessionId::parse(a.as_str()).is_some());
        assert_ne!(a, b);
        assert!(SessionId::parse("mcpwire-1").is_none());
        assert!(SessionId::parse(&a.as_str().to_uppercase()).is_none());
    }

    #[test]
    fn a_tagged_id_starts_with_its_tag_and_stays_random() {
        let a = SessionId::generate_tagged(Some(0x0d)).unwrap();
        let b = SessionId::generate_tagged(Some(0x0d)).unwrap();
        assert!(a.as_str().starts_with("0d") && b.as_str().starts_with("0d"));
        assert!(SessionId::parse(a.as_str()).is_some());
        assert_ne!(a, b);
    }
}
