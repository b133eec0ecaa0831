//! `--expect-failures FILE`: the violations a server is known to have.
//!
//! The file lists finding kinds, one per line, as the report names them (e.g.
//! `reply-to-notification`, `id-lost-although-recoverable`, `server-exited`, `http-status`).
//! `#` starts a comment; blank lines are ignored. A run passes when every kind it finds is
//! listed and every listed kind is found: an unlisted failure is a regression, a listed kind
//! that no longer occurs is stale (delete its line).
//!
//! ```text
//! # known defects of our server, tracked in issue 12
//! reply-to-notification
//! id-type-or-precision-changed   # ids go through f64
//! ```

use std::collections::BTreeSet;
use std::path::Path;

/// The kinds listed in an expect-failures file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    /// The listed kinds.
    pub kinds: BTreeSet<String>,
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
        Ok(ExpectedFailures::parse(&text))
    }

    /// Parses the file's text.
    ///
    /// ```
    /// use mcpwire_cli::check::expect::ExpectedFailures;
    /// let listed = ExpectedFailures::parse("# known\nreply-to-notification  # tracked\n\nhttp-status\n");
    /// assert_eq!(listed.kinds.len(), 2);
    /// assert!(listed.kinds.contains("http-status"));
    /// ```
    pub fn parse(text: &str) -> ExpectedFailures {
        let kinds = text
            .lines()
            .map(|line| line.split('#').next().unwrap_or("").trim())
            .filter(|line| !line.is_empty())
            .map(str::to_owned)
            .collect();
        ExpectedFailures { kinds }
    }
}

/// Found kinds compared with the listed ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Found and listed.
    pub known: Vec<String>,
    /// Found, not listed: the run fails.
    pub unexpected: Vec<String>,
    /// Listed, not found: the run fails until the line is removed.
    pub stale: Vec<String>,
}

impl Verdict {
    /// Compares the kinds found with `listed` (`None`: nothing is expected to fail).
    pub fn new<'a>(
        found: impl IntoIterator<Item = &'a str>,
        listed: Option<&ExpectedFailures>,
    ) -> Verdict {
        let found: BTreeSet<&str> = found.into_iter().collect();
        let empty = BTreeSet::new();
        let listed = listed.map_or(&empty, |l| &l.kinds);
        Verdict {
            known: found
                .iter()
                .filter(|k| listed.contains(**k))
                .map(|k| k.to_string())
                .collect(),
            unexpected: found
                .iter()
                .filter(|k| !listed.contains(**k))
                .map(|k| k.to_string())
                .collect(),
            stale: listed
                .iter()
                .filter(|k| !found.contains(k.as_str()))
                .cloned()
                .collect(),
        }
    }

    /// Whether the run passes.
    pub fn passes(&self) -> bool {
        self.unexpected.is_empty() && self.stale.is_empty()
    }
}
