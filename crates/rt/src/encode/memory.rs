//! The memory an encoded BVH lives in: little-endian dwords.
//!
//! Every node format is built from 32-bit fields and every node is at least
//! 64-byte aligned, so a dword array is the byte layout without unaligned
//! reads. [`BvhMemory::to_bytes`] gives the bytes as the GPU would see them.

/// Encoded acceleration structures (one or several) in one address space.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BvhMemory {
    /// Dwords; byte address `a` is `words[a / 4]`.
    pub words: Vec<u32>,
}

impl BvhMemory {
    /// Size in bytes.
    pub fn len_bytes(&self) -> u64 {
        self.words.len() as u64 * 4
    }
    /// Grow with zeros to `bytes` (a multiple of 4).
    pub fn reserve_to(&mut self, bytes: u64) {
        let w = (bytes / 4) as usize;
        if self.words.len() < w {
            self.words.resize(w, 0);
        }
    }
    /// Read the dword at byte address `addr`.
    #[inline]
    pub fn read(&self, addr: u64) -> u32 {
        self.words[(addr >> 2) as usize]
    }
    /// Read an f32 at byte address `addr`.
    #[inline]
    pub fn read_f32(&self, addr: u64) -> f32 {
        f32::from_bits(self.read(addr))
    }
    /// Write the dword at byte address `addr`, growing the memory if needed.
    pub fn write(&mut self, addr: u64, v: u32) {
        let i = (addr >> 2) as usize;
        if i >= self.words.len() {
            self.words.resize(i + 1, 0);
        }
        self.words[i] = v;
    }
    /// Write the dwords `words` from byte address `addr` on, growing the
    /// memory if needed: [`BvhMemory::write`] of each in turn.
    pub fn write_block(&mut self, addr: u64, words: &[u32]) {
        let i = (addr >> 2) as usize;
        if i + words.len() > self.words.len() {
            self.words.resize(i + words.len(), 0);
        }
        self.words[i..i + words.len()].copy_from_slice(words);
    }
    /// Write an f32.
    pub fn write_f32(&mut self, addr: u64, v: f32) {
        self.write(addr, v.to_bits());
    }
    /// The bytes, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
    /// The 16 dwords of a 64-byte block or 32 of a 128-byte block.
    #[inline]
    pub fn block<const N: usize>(&self, addr: u64) -> [u32; N] {
        let i = (addr >> 2) as usize;
        let mut out = [0u32; N];
        out.copy_from_slice(&self.words[i..i + N]);
        out
    }

    /// The `N` dwords at `addr`, borrowed rather than copied (the traversal
    /// reads a whole 128-byte node per step).
    #[inline]
    pub fn block_ref<const N: usize>(&self, addr: u64) -> &[u32; N] {
        let i = (addr >> 2) as usize;
        self.words[i..i + N]
            .try_into()
            .expect("a slice of N dwords")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block written at once is the block written dword by dword: inside
    /// the memory, across its end and past it (the gap zero-filled).
    #[test]
    fn write_block_equals_dword_writes() {
        let block: Vec<u32> = (1..=32).collect();
        for addr in [0u64, 64, 120, 512] {
            let mut one = BvhMemory::default();
            one.reserve_to(128);
            one.words
                .iter_mut()
                .enumerate()
                .for_each(|(i, w)| *w = 1000 + i as u32);
            let mut each = one.clone();
            one.write_block(addr, &block);
            for (k, &w) in block.iter().enumerate() {
                each.write(addr + 4 * k as u64, w);
            }
            assert_eq!(one, each, "at {addr}");
        }
    }
}
