//! What the walk saw, item by item, and the summary line `scripts/client-interop/run.sh`
//! reads.

use std::fmt;

use mcpwire_client::ClientError;

/// How one item of the walk went.
pub enum Outcome {
    /// It worked; a short note of what came back.
    Ok(String),
    /// A tool answered with an `isError` result: the tool's own failure, reported only.
    ToolError(String),
    /// The server answered with a JSON-RPC error (often: the walk's guessed arguments did
    /// not suit it): reported, not a failure of the client.
    ServerError(String),
    /// The client failed: a wire-rule violation, a malformed result, a transport error, a
    /// timeout. The walk exits nonzero.
    Failure(String),
}

impl Outcome {
    /// The outcome of a call that failed with `error`.
    pub fn of_error(error: &ClientError) -> Self {
        match error.rpc() {
            Some(rpc) => Outcome::ServerError(match rpc.data() {
                Some(data) => format!("{} {} {}", rpc.code(), rpc.message(), data.get()),
                None => format!("{} {}", rpc.code(), rpc.message()),
            }),
            None => Outcome::Failure(error.to_string()),
        }
    }

    fn tag(&self) -> &'static str {
        match self {
            Outcome::Ok(_) => "ok",
            Outcome::ToolError(_) => "tool-error",
            Outcome::ServerError(_) => "server-error",
            Outcome::Failure(_) => "FAIL",
        }
    }

    fn note(&self) -> &str {
        match self {
            Outcome::Ok(note)
            | Outcome::ToolError(note)
            | Outcome::ServerError(note)
            | Outcome::Failure(note) => note,
        }
    }
}

/// The items walked, in order.
#[derive(Default)]
pub struct Report {
    items: Vec<(&'static str, String, Outcome)>,
}

impl Report {
    /// Records (and prints) one item: its kind (`tool`, `resource`, …), its name, how it went.
    pub fn item(&mut self, kind: &'static str, name: &str, outcome: Outcome) {
        println!(
            "{:<12} {:<10} {name}: {}",
            outcome.tag(),
            kind,
            one_line(outcome.note(), 160)
        );
        self.items.push((kind, name.to_owned(), outcome));
    }

    /// How many items came out each way: (items, ok, tool errors, server errors, failures).
    pub fn counts(&self) -> Counts {
        let mut counts = Counts {
            items: self.items.len(),
            ..Counts::default()
        };
        for (_, _, outcome) in &self.items {
            match outcome {
                Outcome::Ok(_) => counts.ok += 1,
                Outcome::ToolError(_) => counts.tool_errors += 1,
                Outcome::ServerError(_) => counts.server_errors += 1,
                Outcome::Failure(_) => counts.failures += 1,
            }
        }
        counts
    }
}

/// The tally of a walk.
#[derive(Default, Clone, Copy)]
pub struct Counts {
    /// Items walked.
    pub items: usize,
    /// Items that worked.
    pub ok: usize,
    /// Tool calls answered with `isError`.
    pub tool_errors: usize,
    /// Calls answered with a JSON-RPC error.
    pub server_errors: usize,
    /// Client failures.
    pub failures: usize,
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "items={} ok={} tool_errors={} server_errors={} failures={}",
            self.items, self.ok, self.tool_errors, self.server_errors, self.failures
        )
    }
}

/// `text` on one line, at most `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match flat.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &flat[..end]),
        None => flat,
    }
}
