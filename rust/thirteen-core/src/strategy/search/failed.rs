//! The bounds that failed at earlier backs, which bound later ones without scoring.

/// The (front value, middle value) of the last few bounds that failed at a back: a later
/// back (no stronger) whose bound would take a front and middle no stronger fails too.
#[derive(Default)]
pub(super) struct Failed {
    last: [(u32, u32); 4],
    n: usize,
}

impl Failed {
    pub(super) fn push(&mut self, front: u32, middle: u32) {
        self.last[self.n % self.last.len()] = (front, middle);
        self.n += 1;
    }

    /// Whether a failed bound had a front and a middle at least these.
    pub(super) fn covers(&self, front: u32, middle: u32) -> bool {
        self.last[..self.n.min(self.last.len())]
            .iter()
            .any(|&(f, m)| front <= f && middle <= m)
    }
}
