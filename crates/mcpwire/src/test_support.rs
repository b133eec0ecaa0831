//! Helpers shared by the crate's unit tests: a seeded pseudo-random sequence and a
//! byte-level mutator for documents.

/// A xorshift64 sequence from `seed` (which must not be zero): deterministic, so a failing
/// case is the same on every run.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Applies one to `max_edits + 1` random edits to `doc`: each removes a byte, inserts a byte
/// of `alphabet`, or replaces a byte with one of `alphabet`.
pub(crate) fn mutate(
    doc: &mut Vec<u8>,
    alphabet: &[u8],
    max_edits: u64,
    next: &mut impl FnMut() -> u64,
) {
    for _ in 0..=(next() % (max_edits + 1)) {
        let at = (next() as usize) % (doc.len() + 1);
        match next() % 3 {
            0 if at < doc.len() => {
                doc.remove(at);
            }
            1 => doc.insert(at, alphabet[(next() as usize) % alphabet.len()]),
            _ if at < doc.len() => doc[at] = alphabet[(next() as usize) % alphabet.len()],
            _ => {}
        }
    }
}
