//! How a format's texels lie in memory: Morton (Z) order of texels or 4x4
//! blocks over the mips, and the lines and chunks an element falls in.

use crate::texel::TexelFormat;

/// Texels along each side of mip 0 of the default texture.
pub const TEXTURE_TEXELS: u64 = 4096;

/// How a format's texels lie in memory: the element (a texel, or a compressed format's 4x4
/// block) and its bytes, looked up once per footprint instead of once per texel.
pub(super) struct TexelLayout {
    /// Texels along each side of one element.
    pub(super) block: u64,
    /// Bytes of one element.
    pub(super) element: u64,
}

/// A block of `2^u_shift` x `2^v_shift` texels, aligned to its size, whose texels all lie in
/// one line ([`TexelLayout::chunk`]).
pub(super) struct Chunk {
    pub(super) u_shift: u32,
    pub(super) v_shift: u32,
}

impl TexelLayout {
    pub(super) fn of(format: TexelFormat) -> TexelLayout {
        TexelLayout {
            block: if format.is_compressed() { 4 } else { 1 },
            element: u64::from(format.fetch_bytes().max(1)),
        }
    }

    /// The byte offset of mip `mip`'s first element.
    #[inline]
    pub(super) fn base(&self, mip: u32) -> u64 {
        if mip == 0 {
            0
        } else {
            (TEXTURE_TEXELS / self.block) * (TEXTURE_TEXELS / self.block) * self.element
        }
    }

    /// [`ImageFootprint::texel_address`].
    #[inline]
    pub(super) fn address(&self, mip: u32, u: u64, v: u64) -> u64 {
        let side = TEXTURE_TEXELS >> mip.min(11);
        let (u, v) = (u % side, v % side);
        self.base(mip) + morton_encode(u / self.block, v / self.block) * self.element
    }

    /// The largest aligned block of texels of `mip` that always lies in one line of `line`
    /// bytes. One element always does (its address, and so its line, is a function of the
    /// element). When the element and the line are powers of two, a line holds `2^k =
    /// line/element` elements, and as the mip's base is a multiple of the line, the line of
    /// Morton code `m` is `base/line + (m >> k)`: `m`'s low `k` bits are the low `ceil(k/2)`
    /// bits of the element's x and `floor(k/2)` of its y, so a `2^ceil(k/2)` x `2^floor(k/2)`
    /// block of elements shares a line. Blocks no larger than the mip keep that through its
    /// wrap at the edge (which moves a coordinate by the mip's size, a multiple of them).
    pub(super) fn chunk(&self, mip: u32, line: u64) -> Chunk {
        let element_shift = self.block.trailing_zeros();
        let side = TEXTURE_TEXELS >> mip.min(11);
        let k = if self.element.is_power_of_two()
            && line.is_power_of_two()
            && line >= self.element
            && self.base(mip) % line == 0
        {
            (line / self.element).trailing_zeros()
        } else {
            0
        };
        let (u_shift, v_shift) = (element_shift + k.div_ceil(2), element_shift + k / 2);
        if 1u64.checked_shl(u_shift).is_some_and(|w| w <= side) {
            Chunk { u_shift, v_shift }
        } else {
            Chunk {
                u_shift: element_shift,
                v_shift: element_shift,
            }
        }
    }
}

/// Interleave the bits of `x` (even positions) and `y` (odd positions), 32 bits each.
pub fn morton_encode(x: u64, y: u64) -> u64 {
    spread(x) | (spread(y) << 1)
}

/// The inverse of [`morton_encode`].
pub fn morton_decode(code: u64) -> (u64, u64) {
    (compact(code), compact(code >> 1))
}

pub(super) fn spread(v: u64) -> u64 {
    let mut v = v & 0xffff_ffff;
    v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
    v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    v = (v | (v << 2)) & 0x3333_3333_3333_3333;
    (v | (v << 1)) & 0x5555_5555_5555_5555
}

pub(super) fn compact(v: u64) -> u64 {
    let mut v = v & 0x5555_5555_5555_5555;
    v = (v | (v >> 1)) & 0x3333_3333_3333_3333;
    v = (v | (v >> 2)) & 0x0f0f_0f0f_0f0f_0f0f;
    v = (v | (v >> 4)) & 0x00ff_00ff_00ff_00ff;
    v = (v | (v >> 8)) & 0x0000_ffff_0000_ffff;
    (v | (v >> 16)) & 0x0000_0000_ffff_ffff
}
