//! `Host` and `Origin` allow-lists: the defence against DNS rebinding and cross-origin pages.
//!
//! A page that rebinds its own name to `127.0.0.1` makes the browser send `Host: evil.example`
//! (and `Origin: http://evil.example`); a page on another origin sends its `Origin`. Both are
//! refused with 403 unless listed. A request without `Origin` (every non-browser client) passes
//! the origin check; `Host` is always checked.

/// One allowed host or origin: an optional scheme, a host and an optional port.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    scheme: Option<String>,
    host: String,
    port: Option<u16>,
}

/// A list of allowed hosts or origins.
#[derive(Debug, Clone, Default)]
pub(crate) struct AllowList {
    entries: Vec<Entry>,
}

/// The loopback names every default list admits.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl AllowList {
    /// `localhost`, `127.0.0.1` and `[::1]`, any port.
    pub(crate) fn loopback() -> AllowList {
        AllowList::of(LOOPBACK)
    }

    /// The entries written as `host`, `host:port` or `scheme://host[:port]`.
    pub(crate) fn of<'a>(entries: impl IntoIterator<Item = &'a str>) -> AllowList {
        let mut list = AllowList::default();
        for entry in entries {
            list.push(entry);
        }
        list
    }

    /// Adds an entry; one that cannot be read admits nothing.
    pub(crate) fn push(&mut self, entry: &str) {
        let (scheme, authority) = match entry.split_once("://") {
            Some((scheme, rest)) => (Some(scheme.to_ascii_lowercase()), rest),
            None => (None, entry),
        };
        let authority = authority.trim_end_matches('/');
        if let Some((host, port)) = split_authority(authority) {
            let host = host.to_ascii_lowercase();
            self.entries.push(Entry { scheme, host, port });
        }
    }

    /// Whether a `Host` header value names an allowed host.
    pub(crate) fn admits_host(&self, value: &str) -> bool {
        let Some((host, port)) = split_authority(value.trim()) else {
            return false;
        };
        self.entries.iter().any(|e| e.admits(host, port))
    }

    /// Whether an `Origin` header value (`scheme://host[:port]`) names an allowed origin.
    /// `null` and anything else that is not an origin are refused.
    pub(crate) fn admits_origin(&self, value: &str) -> bool {
        let Some((scheme, authority)) = value.trim().split_once("://") else {
            return false;
        };
        let Some((host, port)) = split_authority(authority) else {
            return false;
        };
        self.entries.iter().any(|e| {
            let scheme_ok = match &e.scheme {
                Some(s) => s.eq_ignore_ascii_case(scheme),
                None => scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"),
            };
            scheme_ok && e.admits(host, port)
        })
    }
}

impl Entry {
    /// Whether `host` (any case) and `port` are this entry's (any port, when it names none).
    fn admits(&self, host: &str, port: Option<u16>) -> bool {
        self.host.eq_ignore_ascii_case(host) && self.port.is_none_or(|p| Some(p) == port)
    }
}

/// Splits `host[:port]` (IPv6 in brackets, kept) into the host, as written, and the port;
/// `None` when it is not an authority (empty, a path, user info, a bad port). Nothing is
/// copied: the `Host` of every request goes through here.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    if authority.is_empty() || authority.contains(['/', '@', '?', '#', ' ']) {
        return None;
    }
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']')?;
        let (host, after) = authority.split_at(close + 1);
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':')?),
        };
        (host, port)
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host == "[]" {
        return None;
    }
    let port = match port {
        Some(text) => Some(text.parse::<u16>().ok()?),
        None => None,
    };
    Some((host, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_with_any_port_pass_and_others_do_not() {
        let list = AllowList::loopback();
        for ok in ["localhost", "127.0.0.1:8080", "[::1]:3000", "LOCALHOST:1"] {
            assert!(list.admits_host(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:8080",
            "127.0.0.2",
            "localhost.evil.example",
            "",
            "localhost:x",
            "[::1",
            "user@localhost",
        ] {
            assert!(!list.admits_host(bad), "{bad}");
        }
    }

    #[test]
    fn origins_need_an_allowed_host_and_a_web_scheme_unless_listed_with_one() {
        let list = AllowList::loopback().clone();
        let mut list = list;
        list.push("vscode-webview://abc");
        list.push("https://app.example.com:8443");
        for ok in [
            "http://localhost:5173",
            "https://127.0.0.1",
            "http://[::1]:1",
            "vscode-webview://abc",
            "https://app.example.com:8443",
        ] {
            assert!(list.admits_origin(ok), "{ok}");
        }
        for bad in [
            "null",
            "http://evil.example",
            "file://localhost",
            "https://app.example.com",
            "http://app.example.com:8443",
            "localhost",
        ] {
            assert!(!list.admits_origin(bad), "{bad}");
        }
    }
}
