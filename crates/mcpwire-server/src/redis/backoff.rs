//! How long to wait before the next attempt to reach Redis: doubling from 100 ms up to 5 s,
//! back to the start once a connection succeeds.

use std::time::Duration;

/// The first wait after a failure.
const FIRST: Duration = Duration::from_millis(100);
/// The longest wait between two attempts.
const LONGEST: Duration = Duration::from_secs(5);

/// Exponential backoff between connection attempts.
#[derive(Debug, Clone)]
pub(crate) struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: FIRST }
    }
}

impl Backoff {
    /// The wait before the next attempt; each call doubles the following one, up to 5 s.
    pub(crate) fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(LONGEST);
        wait
    }

    /// A connection succeeded: the next failure waits the shortest time again.
    pub(crate) fn reset(&mut self) {
        self.next = FIRST;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_cap_and_reset() {
        let mut backoff = Backoff::default();
        let waits: Vec<u128> = (0..8).map(|_| backoff.next_wait().as_millis()).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        backoff.reset();
        assert_eq!(backoff.next_wait(), FIRST);
    }
}
