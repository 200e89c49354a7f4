//! The pseudo-random visit order of a pointer chase (`[[memory]] order = "random"`).
//!
//! A latency test (Chips and Cheese's `GpuMemLatency`, for one) fills a buffer with a random
//! cyclic permutation (Sattolo's algorithm) and follows it one dependent load at a time, so each
//! pass visits every element once, in the same scrambled order. [`RandomOrder`] gives that order
//! without storing it: `at(k)` is a bijection of `0..n` (a keyed mixing function on the next power
//! of two, walked until it lands inside `0..n`), so execution k of a stream visits element
//! `at(k mod n)` and every pass repeats the same order.

/// A fixed pseudo-random permutation of `0..n`, computed on demand (no table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomOrder {
    /// Elements in the permutation.
    n: u64,
    /// Bits of the power-of-two domain the mixing function permutes (`2^bits >= n`).
    bits: u32,
    /// Round keys drawn from the seed.
    keys: [u64; 4],
}

/// SplitMix64: spreads a seed into independent-looking round keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RandomOrder {
    /// The permutation of `0..n` (n at least 1) seeded by `seed`.
    pub fn new(n: u64, seed: u64) -> RandomOrder {
        let n = n.max(1);
        let bits = 64 - (n - 1).leading_zeros();
        let mut state = seed;
        let keys = [
            splitmix(&mut state),
            splitmix(&mut state),
            splitmix(&mut state),
            splitmix(&mut state),
        ];
        RandomOrder { n, bits, keys }
    }

    /// One bijection of `0..2^bits`: each step (xor with a key, multiply by an odd
    /// number, xor-shift right) is invertible modulo a power of two.
    fn mix(&self, mut x: u64) -> u64 {
        if self.bits == 0 {
            return 0;
        }
        let mask = if self.bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        };
        let shift = self.bits.div_ceil(2).max(1);
        for key in self.keys {
            x = (x ^ key) & mask;
            x = x.wrapping_mul(key | 1) & mask;
            x ^= x >> shift;
        }
        x
    }

    /// The element visited at position `k` of a pass (`k` is taken modulo n).
    pub fn at(&self, k: u64) -> u64 {
        // Cycle walking: the mixing function permutes the power-of-two domain; applying it
        // again to a value outside 0..n walks that value's cycle until it re-enters 0..n,
        // which keeps the map a bijection of 0..n. The domain is under 2n, so the expected
        // number of steps is under 2.
        let mut x = self.mix(k % self.n);
        while x >= self.n {
            x = self.mix(x);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_permutation_for_every_size() {
        for n in [1u64, 2, 3, 7, 8, 100, 1000, 4096, 5000] {
            let order = RandomOrder::new(n, 0x5EED);
            let mut seen = vec![false; n as usize];
            for k in 0..n {
                let e = order.at(k);
                assert!(e < n, "n = {n}: {e} out of range");
                assert!(!seen[e as usize], "n = {n}: {e} visited twice");
                seen[e as usize] = true;
            }
            // The next pass repeats the order.
            assert_eq!(order.at(n), order.at(0));
        }
    }

    #[test]
    fn seeds_change_the_order_and_it_is_scrambled() {
        let a = RandomOrder::new(1024, 1);
        let b = RandomOrder::new(1024, 2);
        assert!((0..1024).any(|k| a.at(k) != b.at(k)));
        // Not the identity and not a stride: consecutive elements are rarely neighbours.
        let neighbours = (0..1023)
            .filter(|&k| a.at(k + 1).abs_diff(a.at(k)) == 1)
            .count();
        assert!(neighbours < 32, "{neighbours} neighbouring steps of 1023");
    }
}
