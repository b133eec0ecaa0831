//! A progress bar on stderr, shown only when stderr is a terminal and the run is long.

use std::io::{IsTerminal, Write};

/// Runs shorter than this many cases show no bar.
const MIN_CASES: usize = 50;

/// A one-line progress bar redrawn in place.
pub struct Progress {
    total: usize,
    shown: bool,
}

impl Progress {
    /// A bar for `total` cases; silent unless stderr is a terminal and `total` is large.
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            shown: total >= MIN_CASES && std::io::stderr().is_terminal(),
        }
    }

    /// Redraws the bar after `done` cases.
    pub fn update(&self, done: usize, failing: usize) {
        if !self.shown {
            return;
        }
        let width = 30;
        let filled = (done * width).checked_div(self.total).unwrap_or(width);
        let bar: String = "#".repeat(filled) + &".".repeat(width - filled);
        let mut stderr = std::io::stderr();
        let _ = write!(
            stderr,
            "\r[{bar}] {done}/{} cases, {failing} failing",
            self.total
        );
        let _ = stderr.flush();
    }

    /// Erases the bar.
    pub fn finish(&self) {
        if self.shown {
            let mut stderr = std::io::stderr();
            let _ = write!(stderr, "\r{}\r", " ".repeat(72));
            let _ = stderr.flush();
        }
    }
}
