//! Occupancy cliffs: the register counts where occupancy changes.
//!
//! Works on any occupancy function `registers -> waves`, so AMD's rule (in
//! the engine) and the vendor models share one definition of a cliff.

/// One step of an occupancy curve: from `registers` on, `waves` fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cliff {
    /// The first register count with the new occupancy.
    pub registers: u32,
    /// Waves (threads, warps) per unit from that count on.
    pub waves: u32,
}

/// The cliffs above `from`: every register count in `from+1..=max` whose
/// occupancy differs from the count just below it, in increasing order.
pub fn cliffs(from: u32, max: u32, waves: impl Fn(u32) -> u32) -> Vec<Cliff> {
    let mut out = Vec::new();
    let mut prev = waves(from.max(1));
    for registers in from.max(1) + 1..=max {
        let w = waves(registers);
        if w != prev {
            out.push(Cliff {
                registers,
                waves: w,
            });
            prev = w;
        }
    }
    out
}

/// The whole curve from 1 to `max` registers as (registers, waves) pairs.
pub fn curve(max: u32, waves: impl Fn(u32) -> u32) -> Vec<(u32, u32)> {
    (1..=max).map(|r| (r, waves(r))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_of_a_granule_rule() {
        // 1024 registers, granule 32, 10 slots: 10 up to 96, 8 up to 128, ...
        let f = |n: u32| 10.min(1024 / (n.div_ceil(32) * 32));
        let c = cliffs(96, 160, f);
        assert_eq!(
            c,
            vec![
                Cliff {
                    registers: 97,
                    waves: 8
                },
                Cliff {
                    registers: 129,
                    waves: 6
                }
            ]
        );
    }
}
