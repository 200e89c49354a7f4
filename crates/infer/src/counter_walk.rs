//! A 32-bit counter stepped by adding a constant, walked to its loop's exit in closed form.
//!
//! The loop's exit test compares the counter with a bound, so whether a pass leaves is constant
//! between a few breakpoints of the counter's value (the bound, the bound plus one, and for a
//! signed compare 2^31, where the signed order wraps). The counter's values form an arithmetic
//! sequence modulo 2^32, so the walk jumps from one stretch of values to the next in one step
//! each, however many passes each stretch takes: a loop of millions of trips bounded by a launch
//! argument is counted as fast as one of ten.

/// Jumps a walk may take before it gives up (a step that laps the 32-bit range many times
/// without leaving: an `eq` test the sequence never hits).
const MAX_JUMPS: u32 = 1 << 16;

/// Header executions until the exit: the first `n` >= 1 whose tested value `first + (n - 1) * k`
/// (modulo 2^32) `exits`; `None` when there is none within `cap` executions. `exits` is a compare
/// of the value with `bound` (either order, signed or not), so it changes only at the bound, past
/// it, and at 2^31, where the signed order wraps (0 is implied).
pub(crate) fn first_exit(
    first: u32,
    k: u32,
    bound: u32,
    exits: impl Fn(u32) -> bool,
    cap: u64,
) -> Option<u64> {
    let breaks = [bound, bound.wrapping_add(1), 1 << 31];
    if k == 0 {
        return exits(first).then_some(1);
    }
    // A step down is a step up in the mirrored range (x -> !x), where each breakpoint b becomes
    // !b + 1 (a stretch [a, b) mirrors to [!b + 1, !a + 1)).
    if k > 1 << 31 {
        let mirrored = breaks.map(|b| (!b).wrapping_add(1));
        return walk_up(!first, k.wrapping_neg(), &mirrored, |x| exits(!x), cap);
    }
    walk_up(first, k, &breaks, exits, cap)
}

/// [`first_exit`] for a step `k` in 1..=2^31, taken upwards.
fn walk_up(
    first: u32,
    k: u32,
    breaks: &[u32],
    exits: impl Fn(u32) -> bool,
    cap: u64,
) -> Option<u64> {
    const RANGE: u64 = 1 << 32;
    let k = u64::from(k);
    let mut value = u64::from(first);
    // Passes before the one testing `value`.
    let mut passes: u64 = 0;
    for _ in 0..MAX_JUMPS {
        if passes >= cap {
            return None;
        }
        if exits(value as u32) {
            return Some(passes + 1);
        }
        // The next breakpoint above `value` (or the top of the range): every value before it
        // stays, so jump to the first one of the sequence at or past it.
        let next = breaks
            .iter()
            .map(|&b| u64::from(b))
            .filter(|&b| b > value)
            .min()
            .unwrap_or(RANGE);
        let jumps = (next - value).div_ceil(k);
        passes += jumps;
        value = (value + jumps * k) % RANGE;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use shadersim_isa::CmpCond;

    /// The reference: test pass after pass.
    fn stepped(first: u32, k: u32, exits: impl Fn(u32) -> bool, cap: u64) -> Option<u64> {
        let mut v = first;
        for n in 1..=cap {
            if exits(v) {
                return Some(n);
            }
            v = v.wrapping_add(k);
        }
        None
    }

    #[test]
    fn a_launch_sized_loop_counts_in_closed_form() {
        // for (k = 0; k < 5000000; k++) tested at the bottom: the counter reads 1, 2, ... and the
        // pass reading 5000000 leaves: 5000000 header executions.
        let n = first_exit(1, 1, 5_000_000, |v| v >= 5_000_000, 1 << 32);
        assert_eq!(n, Some(5_000_000));
        // Counting down by 3 from 3000000 while the counter is above 0 (signed): the pass reading
        // 0 leaves after 1000000 passes, the 1000001st header execution.
        let exits = |v: u32| !CmpCond::Gt.holds(v, 0, true);
        let n = first_exit(3_000_000, 3u32.wrapping_neg(), 0, exits, 1 << 32);
        assert_eq!(n, Some(1_000_001));
    }

    #[test]
    fn an_eq_test_the_sequence_never_hits_is_not_counted() {
        // Even values never equal 7.
        let n = first_exit(0, 2, 7, |v| v == 7, 1 << 32);
        assert_eq!(n, None);
    }

    proptest! {
        // Small values and steps near both ends of the range, every compare, both signs and both
        // exit sides: the closed form equals the pass-by-pass walk.
        #[test]
        fn closed_form_equals_stepping(
            first in prop_oneof![0u32..64, (u32::MAX - 64)..=u32::MAX, (1u32 << 31) - 32..(1u32 << 31) + 32],
            k in prop_oneof![1u32..9, (u32::MAX - 8)..=u32::MAX],
            bound in prop_oneof![0u32..64, (u32::MAX - 64)..=u32::MAX, (1u32 << 31) - 32..(1u32 << 31) + 32],
            cond in 0usize..6,
            signed: bool,
            leave_when: bool,
        ) {
            let cond = CmpCond::ALL[cond];
            let exits = |v: u32| cond.holds(v, bound, signed) == leave_when;
            let cap = 4096;
            prop_assert_eq!(first_exit(first, k, bound, exits, cap), stepped(first, k, exits, cap));
        }
    }
}
