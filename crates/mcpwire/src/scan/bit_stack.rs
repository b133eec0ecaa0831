//! The container kinds of the open nesting levels, one bit per level, without recursion.

/// One bit per nesting level: set for an object, clear for an array.
pub(super) struct BitStack {
    inline: u64,
    spill: Vec<u64>,
}

impl BitStack {
    #[inline]
    pub(super) fn new() -> Self {
        Self {
            inline: 0,
            spill: Vec::new(),
        }
    }

    /// Records the container kind of level `depth` (1-based).
    #[inline]
    pub(super) fn set(&mut self, depth: usize, is_object: bool) {
        let index = depth - 1;
        if index < 64 {
            let bit = 1u64 << index;
            if is_object {
                self.inline |= bit;
            } else {
                self.inline &= !bit;
            }
        } else {
            let word = (index - 64) / 64;
            let bit = 1u64 << ((index - 64) % 64);
            if word >= self.spill.len() {
                self.spill.resize(word + 1, 0);
            }
            if is_object {
                self.spill[word] |= bit;
            } else {
                self.spill[word] &= !bit;
            }
        }
    }

    /// Whether level `depth` (1-based) is an object.
    #[inline]
    pub(super) fn is_object(&self, depth: usize) -> bool {
        let index = depth - 1;
        if index < 64 {
            self.inline & (1u64 << index) != 0
        } else {
            self.spill[(index - 64) / 64] & (1u64 << ((index - 64) % 64)) != 0
        }
    }
}
