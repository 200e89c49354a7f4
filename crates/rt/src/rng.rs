//! A tiny deterministic random number generator (SplitMix64).
//!
//! Ray sets and procedural meshes must be the same on every run and machine,
//! so they draw from this seeded generator rather than a system source.

/// SplitMix64: 64 bits of state, good enough statistics for sampling rays.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
    /// Uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

#[cfg(test)]
impl SplitMix64 {
    /// The high 32 bits of the next 64.
    pub(crate) fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value for property tests of the slab tests, heavy in their edge
    /// cases: signed zeros, overflowing, tiny and denormal magnitudes, infinities
    /// (unless `finite_only`), small integers (rays starting on a plane,
    /// flat boxes) and uniform values in [-4, 4).
    pub(crate) fn edge_f32(&mut self, finite_only: bool) -> f32 {
        const SPECIAL: [f32; 12] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            3.0e38,
            -3.0e38,
            1.0e-30,
            -1.0e-38,
            1.0e-45,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        loop {
            let v = match self.next_u32() % 4 {
                0 => SPECIAL[(self.next_u32() % SPECIAL.len() as u32) as usize],
                1 => (self.next_u32() % 9) as f32 - 4.0,
                _ => (self.next_u32() as f32 / u32::MAX as f32 - 0.5) * 8.0,
            };
            if !finite_only || v.is_finite() {
                return v;
            }
        }
    }

    /// Three [`SplitMix64::edge_f32`] values, x first.
    pub(crate) fn edge_vec3(&mut self, finite_only: bool) -> crate::math::Vec3 {
        let x = self.edge_f32(finite_only);
        let y = self.edge_f32(finite_only);
        let z = self.edge_f32(finite_only);
        crate::math::Vec3::new(x, y, z)
    }

    /// A slab test's extent: infinite half the time, else a finite
    /// [`SplitMix64::edge_f32`] magnitude.
    pub(crate) fn edge_extent(&mut self) -> f32 {
        if self.next_u32() % 2 == 0 {
            f32::INFINITY
        } else {
            self.edge_f32(true).abs()
        }
    }
}
