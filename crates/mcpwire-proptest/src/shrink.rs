//! Shrinking a failing frame by its bytes, past what the generators' value trees reach.
//!
//! proptest shrinks a generated case within its strategy: a union moves back one alternative at
//! most, so an invalid-UTF-8 case never becomes the one-byte truncation that shows the same
//! dropped parse error, and a typed body never loses its members. Once that search ends,
//! [`shrink_bytes`] removes runs of bytes (halves, quarters, … single bytes) while the
//! candidate still shows the failure, judged on its own oracle
//! ([`derive_expected`](crate::derive_expected)).

/// The smallest frame found by removing runs of bytes from `frame` while `still_fails` holds
/// (never the empty frame), and the number of candidates tried (at most `max_steps`).
///
/// ```
/// use mcpwire_proptest::shrink::shrink_bytes;
/// // The failure: a frame holding an `x` after a `{`.
/// let fails = |f: &[u8]| f.starts_with(b"{") && f.contains(&b'x');
/// let (smallest, _) = shrink_bytes(br#"{"a":1,"bx":2}"#, 500, fails);
/// assert_eq!(smallest, b"{x");
/// ```
pub fn shrink_bytes(
    frame: &[u8],
    max_steps: usize,
    mut still_fails: impl FnMut(&[u8]) -> bool,
) -> (Vec<u8>, usize) {
    let mut best = frame.to_vec();
    let mut steps = 0;
    let mut chunk = (best.len() / 2).max(1);
    loop {
        let mut progressed = false;
        let mut at = 0;
        while at < best.len() && steps < max_steps {
            let end = (at + chunk).min(best.len());
            let candidate = [&best[..at], &best[end..]].concat();
            steps += 1;
            if !candidate.is_empty() && still_fails(&candidate) {
                best = candidate;
                progressed = true;
            } else {
                at += chunk;
            }
        }
        if steps >= max_steps || (chunk == 1 && !progressed) {
            return (best, steps);
        }
        chunk = (chunk / 2).max(1);
    }
}
