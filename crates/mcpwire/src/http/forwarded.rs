//! Trusted proxies: the client's address behind a reverse proxy, taken from `Forwarded`
//! (RFC 7239) or, without it, `X-Forwarded-For`, when and only when the connection comes from
//! a proxy the operator listed ([`HttpConfig::trusted_proxy`](super::HttpConfig::trusted_proxy)).
//!
//! Each proxy appends the address it received the request from, so the list reads client
//! first, nearest proxy last. It is walked from the right: a hop that is itself a trusted
//! proxy passed the request on and is skipped; the first hop that is not is the client,
//! since anything left of it could have been written by that client. A hop that is not an
//! address (`unknown`, an obfuscated `_name`) stops the walk: the client cannot be known,
//! and the last trusted proxy stands for it. A connection from anyone else is its own
//! client, whatever its headers say.

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use hyper::HeaderMap;
use ipnet::IpNet;

/// A trusted proxy: one address, or a network in CIDR notation (`10.0.0.0/8`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedProxy(IpNet);

impl TrustedProxy {
    /// Whether `ip` is this proxy (or in its network).
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

impl From<IpAddr> for TrustedProxy {
    fn from(ip: IpAddr) -> Self {
        TrustedProxy(IpNet::from(ip.to_canonical()))
    }
}

impl From<IpNet> for TrustedProxy {
    fn from(net: IpNet) -> Self {
        TrustedProxy(net.trunc())
    }
}

impl FromStr for TrustedProxy {
    type Err = String;

    /// An address (`127.0.0.1`, `::1`) or a network (`10.0.0.0/8`).
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if let Ok(ip) = text.parse::<IpAddr>() {
            return Ok(ip.into());
        }
        text.parse::<IpNet>()
            .map(Into::into)
            .map_err(|_| format!("`{text}` is not an IP address or a network (`10.0.0.0/8`)"))
    }
}

impl std::fmt::Display for TrustedProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

/// The client a request from `peer` stands for: `peer` itself unless it is one of `trusted`;
/// then the rightmost hop of `Forwarded` (when present) or `X-Forwarded-For` that is not a
/// trusted proxy.
pub(crate) fn client_address(
    peer: SocketAddr,
    headers: &HeaderMap,
    trusted: &[TrustedProxy],
) -> SocketAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|proxy| proxy.contains(ip));
    if trusted.is_empty() || !is_trusted(peer.ip()) {
        return peer;
    }
    let hops = forwarded_hops(headers).unwrap_or_else(|| x_forwarded_for_hops(headers));
    for hop in hops.iter().rev() {
        match hop {
            Some(ip) if is_trusted(*ip) => continue,
            Some(ip) => return SocketAddr::new(*ip, 0),
            None => return peer,
        }
    }
    // Every hop is a trusted proxy (or there is none): the request began at the leftmost.
    match hops.first() {
        Some(Some(ip)) => SocketAddr::new(*ip, 0),
        _ => peer,
    }
}

/// The `for=` of every element of every `Forwarded` header, in order; `None` without the
/// header. An element without `for=`, or whose node is not an address, is a `None` hop.
fn forwarded_hops(headers: &HeaderMap) -> Option<Vec<Option<IpAddr>>> {
    let mut values = headers.get_all("forwarded").iter().peekable();
    values.peek()?;
    let mut hops = Vec::new();
    for value in values {
        let Ok(text) = value.to_str() else {
            hops.push(None);
            continue;
        };
        for element in split_outside_quotes(text, ',') {
            let node = split_outside_quotes(element, ';').find_map(|pair| {
                let (name, value) = pair.split_once('=')?;
                name.trim()
                    .eq_ignore_ascii_case("for")
                    .then(|| value.trim().trim_matches('"'))
            });
            hops.push(node.and_then(node_address));
        }
    }
    Some(hops)
}

/// Every address of every `X-Forwarded-For` header, in order.
fn x_forwarded_for_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut hops = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        match value.to_str() {
            Ok(text) => hops.extend(text.split(',').map(|hop| node_address(hop.trim()))),
            Err(_) => hops.push(None),
        }
    }
    hops
}

/// A node's address: `192.0.2.1`, `192.0.2.1:443`, `[2001:db8::1]`, `[2001:db8::1]:443`, or
/// a bare IPv6 address; `None` for anything else (`unknown`, `_hidden`).
fn node_address(node: &str) -> Option<IpAddr> {
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(socket) = node.parse::<SocketAddr>() {
        return Some(socket.ip().to_canonical());
    }
    let bracketed = node.strip_prefix('[')?.split(']').next()?;
    bracketed.parse::<IpAddr>().ok().map(|ip| ip.to_canonical())
}

/// `text` split at `separator` where it is not inside a quoted string.
fn split_outside_quotes(text: &str, separator: char) -> impl Iterator<Item = &str> {
    let mut quoted = false;
    let mut escaped = false;
    text.split(move |c: char| {
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == separator && !quoted {
            return true;
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    fn client(peer: &str, pairs: &[(&'static str, &'static str)], trusted: &[&str]) -> String {
        let trusted: Vec<TrustedProxy> = trusted.iter().map(|t| t.parse().unwrap()).collect();
        let peer = SocketAddr::new(peer.parse().unwrap(), 5000);
        client_address(peer, &headers(pairs), &trusted)
            .ip()
            .to_string()
    }

    #[test]
    fn only_a_trusted_proxy_is_believed() {
        let xff = [("x-forwarded-for", "203.0.113.9")];
        assert_eq!(client("127.0.0.1", &xff, &["127.0.0.1"]), "203.0.113.9");
        assert_eq!(client("127.0.0.2", &xff, &["127.0.0.1"]), "127.0.0.2");
        assert_eq!(client("10.1.2.3", &xff, &["10.0.0.0/8"]), "203.0.113.9");
        assert_eq!(client("10.1.2.3", &xff, &[]), "10.1.2.3");
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        // The client wrote a spoofed first hop; the proxies appended the rest.
        let xff = [("x-forwarded-for", "198.51.100.1, 203.0.113.9, 10.0.0.2")];
        let trusted = ["127.0.0.1", "10.0.0.0/8"];
        assert_eq!(client("127.0.0.1", &xff, &trusted), "203.0.113.9");
        // Several headers are one list, in order.
        let split = [
            ("x-forwarded-for", "198.51.100.1"),
            ("x-forwarded-for", "203.0.113.9, 10.0.0.2"),
        ];
        assert_eq!(client("127.0.0.1", &split, &trusted), "203.0.113.9");
        // Every hop trusted: the leftmost.
        let inner = [("x-forwarded-for", "10.0.0.3, 10.0.0.2")];
        assert_eq!(client("127.0.0.1", &inner, &trusted), "10.0.0.3");
        // Not an address: the client cannot be known; the proxy stands for it.
        let unknown = [("x-forwarded-for", "203.0.113.9, garbage")];
        assert_eq!(client("127.0.0.1", &unknown, &trusted), "127.0.0.1");
        // No header at all: the proxy itself.
        assert_eq!(client("127.0.0.1", &[], &trusted), "127.0.0.1");
    }

    #[test]
    fn forwarded_comes_first_and_its_nodes_are_read() {
        let both = [
            (
                "forwarded",
                r#"for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#,
            ),
            ("x-forwarded-for", "198.51.100.1"),
        ];
        assert_eq!(
            client("127.0.0.1", &both, &["127.0.0.1"]),
            "2001:db8:cafe::17"
        );
        let v4_port = [("forwarded", r#"For="192.0.2.43:47011""#)];
        assert_eq!(client("127.0.0.1", &v4_port, &["127.0.0.1"]), "192.0.2.43");
        let hidden = [("forwarded", "for=192.0.2.1, for=_hidden")];
        assert_eq!(client("127.0.0.1", &hidden, &["127.0.0.1"]), "127.0.0.1");
        let quoted_comma = [("forwarded", r#"for=192.0.2.1;x="a,b", for=192.0.2.2"#)];
        assert_eq!(
            client("127.0.0.1", &quoted_comma, &["127.0.0.1"]),
            "192.0.2.2"
        );
    }

    #[test]
    fn a_proxy_is_an_address_or_a_network() {
        assert!("::1".parse::<TrustedProxy>().is_ok());
        assert!("fd00::/8".parse::<TrustedProxy>().is_ok());
        let error = "nginx".parse::<TrustedProxy>().unwrap_err();
        assert!(error.contains("`nginx`"), "{error}");
        let mapped: TrustedProxy = "127.0.0.1".parse().unwrap();
        assert!(mapped.contains("::ffff:127.0.0.1".parse().unwrap()));
    }
}
