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
    loop {
        let before = best.len();
        remove_runs(&mut best, &mut steps, max_steps, &mut still_fails);
        remove_members(&mut best, &mut steps, max_steps, &mut still_fails);
        if best.len() == before || steps >= max_steps {
            return (best, steps);
        }
    }
}

/// Removes runs of bytes: halves, quarters, … single bytes, while the frame still fails.
fn remove_runs(
    best: &mut Vec<u8>,
    steps: &mut usize,
    max_steps: usize,
    still_fails: &mut impl FnMut(&[u8]) -> bool,
) {
    let mut chunk = (best.len() / 2).max(1);
    loop {
        let mut progressed = false;
        let mut at = 0;
        while at < best.len() && *steps < max_steps {
            let end = (at + chunk).min(best.len());
            let candidate = [&best[..at], &best[end..]].concat();
            *steps += 1;
            if !candidate.is_empty() && still_fails(&candidate) {
                *best = candidate;
                progressed = true;
            } else {
                at += chunk;
            }
        }
        if *steps >= max_steps || (chunk == 1 && !progressed) {
            return;
        }
        chunk = (chunk / 2).max(1);
    }
}

/// Removes what lies between separators (a `,` up to the next `,`, `}` or `]`; after `{` or `[`
/// up to and with the next `,`): whole members and elements such as `,"":""`, which removing
/// single bytes cannot take out without breaking the JSON on the way.
fn remove_members(
    best: &mut Vec<u8>,
    steps: &mut usize,
    max_steps: usize,
    still_fails: &mut impl FnMut(&[u8]) -> bool,
) {
    let mut at = 0;
    while at < best.len() && *steps < max_steps {
        let opening = matches!(best[at], b'{' | b'[');
        if best[at] != b',' && !opening {
            at += 1;
            continue;
        }
        let closers: &[u8] = if opening { b"," } else { b",}]" };
        let start = if opening { at + 1 } else { at };
        let mut removed = false;
        for end in (at + 1..best.len()).filter(|&j| closers.contains(&best[j])) {
            let end = if opening { end + 1 } else { end };
            let candidate = [&best[..start], &best[end..]].concat();
            *steps += 1;
            if still_fails(&candidate) {
                *best = candidate;
                removed = true;
                break;
            }
            if *steps >= max_steps {
                return;
            }
        }
        if !removed {
            at += 1;
        }
    }
}
