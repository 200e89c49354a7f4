//! The texels an image op reads when no hint says where its lanes point: a screen-space
//! (pixel shaders) or 2D (compute) default.
//!
//! The assumptions, each stated in the report's `defaults`:
//!
//! * **Lanes.** A wave's lanes sit in a compact 2D tile of the screen or of the dispatch grid
//!   ([`TileWalk`]): pixel shaders put 2x2 quads in an 8x8 tile (wave64) or an 8x4 one (wave32);
//!   compute kernels lay a workgroup's threads out in rows of its declared width (8 wide without
//!   one), so a wave of a 16x16 workgroup is a 16x4 strip.
//! * **Scale.** One texel per pixel (per thread) at the sampled mip level: lane `(x, y)` samples
//!   around texel `(x, y)`. Anisotropic filtering of N stretches the footprint N times along x:
//!   the pixel covers N texels along its major axis at the mip its minor axis picks.
//! * **Filter footprint** ([`ImageFootprint::texels`]): point reads the lane's texel; bilinear
//!   the 2x2 texels from it, so a tile of WxH lanes reads (W+1)x(H+1) texels, the border shared
//!   with the next tiles; trilinear adds the 2x2 texels around `(x/2, y/2)` of the next mip (a
//!   quarter-size footprint); aniso N takes N bilinear probes along x on both mips.
//! * **Layout.** Texels (for block-compressed formats, their 4x4 blocks) lie in Morton (Z)
//!   order over a 4096x4096 mip 0, mip 1 after it. Morton order puts the texels of one cache line
//!   in a square-ish block: a 64-byte line holds 4x4 32-bit texels, 8x8 8-bit ones, 4x2 blocks
//!   of BC1, as GCN and RDNA's 8x8-element thin micro-tiles do inside a micro-tile (the
//!   arrangement of micro-tiles in macro-tiles is taken as Z order too: an assumption).
//!   Coordinates wrap at the texture's edge.
//! * **Walk.** Consecutive waves (compute: consecutive workgroups) take consecutive tiles of a
//!   Z-order walk of the screen, so neighbours in time are neighbours on screen and share their
//!   filter borders in the caches; an op a wave runs again (a loop) reads the tile of a further
//!   pass, `iteration x` the tiles of all waves later, like the buffer default never revisiting.

mod layout;
mod tile_walk;

pub use layout::{morton_decode, morton_encode, TEXTURE_TEXELS};
pub use tile_walk::TileWalk;

use crate::pattern::WAVE64;
use crate::texel::{TexelFormat, TextureFilter};
use layout::TexelLayout;

/// The texels one execution of an image op reads, and the cache lines they fall in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageFootprint {
    /// Where the waves' lanes sit.
    pub walk: TileWalk,
    /// The filter whose footprint is read (gather4 reads a bilinear footprint, loads and stores
    /// a point one).
    pub filter: TextureFilter,
    /// The texel format (its size, and 4x4 blocks for compressed ones).
    pub format: TexelFormat,
    /// Bytes of one cache line (the request size).
    pub line_bytes: u32,
    /// Lanes active (bit per lane).
    pub exec: u64,
}

impl ImageFootprint {
    /// Texels per lane along x: N for anisotropic filters of N probes, else 1.
    pub fn probes(&self) -> u64 {
        match self.filter {
            TextureFilter::Aniso2x => 2,
            TextureFilter::Aniso4x => 4,
            TextureFilter::Aniso8x => 8,
            _ => 1,
        }
    }

    /// Whether the filter blends two mip levels (trilinear, and anisotropic filters, taken with
    /// a linear mip filter as samplers set them).
    pub fn reads_next_mip(&self) -> bool {
        !matches!(self.filter, TextureFilter::Point | TextureFilter::Bilinear)
    }

    /// The texels of one lane at screen position `(x, y)`: `(mip, u, v)` each, before wrapping.
    pub fn texels(&self, x: u64, y: u64) -> Vec<(u32, u64, u64)> {
        let mut out = Vec::new();
        self.for_each_texel(x, y, |mip, u, v| out.push((mip, u, v)));
        out
    }

    /// [`ImageFootprint::texels`] handed to `visit` one by one, in the same order: the
    /// simulation asks for every lane of every execution, and a list per lane was most of
    /// its cost.
    #[inline]
    pub fn for_each_texel(&self, x: u64, y: u64, mut visit: impl FnMut(u32, u64, u64)) {
        let n = self.probes();
        let next_mip = self.reads_next_mip();
        for j in 0..n {
            let (u, v) = (x * n + j, y);
            if self.filter == TextureFilter::Point {
                visit(0, u, v);
                continue;
            }
            for (du, dv) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                visit(0, u + du, v + dv);
            }
            if next_mip {
                for (du, dv) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    visit(1, u / 2 + du, v / 2 + dv);
                }
            }
        }
    }

    /// The byte offset of texel `(u, v)` of `mip` (wrapped at the texture's edge) in the
    /// default layout: Morton order of the elements (texels, or 4x4 blocks), mip 1 after mip 0.
    pub fn texel_address(&self, mip: u32, u: u64, v: u64) -> u64 {
        TexelLayout::of(self.format).address(mip, u, v)
    }

    /// The lines (start offsets, ascending, distinct) one execution by wave `wave` (launch
    /// order) reads on its `iteration`-th execution, in a dispatch of `total_waves` waves.
    pub fn lines(&self, wave: u64, iteration: u64, total_waves: u64) -> Vec<u64> {
        let mut lines = Vec::with_capacity(64);
        self.lines_into(wave, iteration, total_waves, &mut lines);
        lines
    }

    /// [`ImageFootprint::lines`] written into `lines` (cleared first), so a caller that asks
    /// once per execution reuses one buffer.
    ///
    /// The lanes' filter footprints overlap (a trilinear 8x8 tile makes 512 texel reads of 106
    /// distinct texels in 13 lines of rgba8), and every texel of a line's block of texels
    /// (its [`Chunk`]) lies in that line. So each lane marks the blocks its texels touch in a
    /// bitmap over the wave's bounding box, and each marked block gives its line once: only
    /// the few lines are sorted. A box too large for the bitmap (a wave spread along rows
    /// wider than it) takes every lane's texels one by one; both give the same lines.
    pub fn lines_into(&self, wave: u64, iteration: u64, total_waves: u64, lines: &mut Vec<u64>) {
        lines.clear();
        let (group, wave_in_group) = self.group_of(wave, iteration, total_waves);
        let mut positions = [(0u64, 0u64); WAVE64];
        let count = self
            .walk
            .lane_positions(group, wave_in_group, self.exec, &mut positions);
        let positions = &positions[..count];
        let layout = TexelLayout::of(self.format);
        let listed = match LaneBox::of(positions) {
            LaneBoxOf::Empty => true,
            LaneBoxOf::Fits(lanes) => self.lines_by_chunks(&lanes.rows(), &layout, lines),
            LaneBoxOf::TooLarge => false,
        };
        if !listed {
            self.lines_by_lanes(positions, &layout, lines);
        }
        lines.sort_unstable();
        lines.dedup();
    }

    /// [`ImageFootprint::lines_into`], with the wave's lanes taken from `lanes` (filled on
    /// first use) instead of placed lane by lane: a wave's lanes are its group's origin
    /// ([`TileWalk::group_origin`]) plus offsets that depend only on the wave's place in its
    /// group and the lane mask, so the bitmap of their rows over their bounding box is the
    /// same for every group, moved by the origin. `lanes` belongs to one walk and lane mask
    /// (it starts over when given another footprint's).
    pub fn lines_into_cached(
        &self,
        lanes: &mut WaveLanes,
        wave: u64,
        iteration: u64,
        total_waves: u64,
        lines: &mut Vec<u64>,
    ) {
        let (group, wave_in_group) = self.group_of(wave, iteration, total_waves);
        if lanes.of != Some((self.walk, self.exec)) {
            *lanes = WaveLanes {
                of: Some((self.walk, self.exec)),
                boxes: Vec::new(),
            };
        }
        let index = wave_in_group as usize;
        if index >= WaveLanes::MAX_WAVES {
            self.lines_into(wave, iteration, total_waves, lines);
            return;
        }
        if lanes.boxes.len() <= index {
            lanes.boxes.resize_with(index + 1, || None);
        }
        let relative = lanes.boxes[index].get_or_insert_with(|| {
            let mut positions = [(0u64, 0u64); WAVE64];
            let count = self
                .walk
                .lane_positions(0, wave_in_group, self.exec, &mut positions);
            Box::new(LaneBox::of(&positions[..count]))
        });
        let LaneBoxOf::Fits(relative) = relative.as_ref() else {
            // No lanes, or a box too large for the bitmap: the direct way.
            self.lines_into(wave, iteration, total_waves, lines);
            return;
        };
        lines.clear();
        let (ox, oy) = self.walk.group_origin(group);
        let mut moved = relative.rows();
        moved.min_x += ox;
        moved.max_x += ox;
        moved.min_y += oy;
        moved.max_y += oy;
        let layout = TexelLayout::of(self.format);
        if !self.lines_by_chunks(&moved, &layout, lines) {
            self.lines_into(wave, iteration, total_waves, lines);
            return;
        }
        lines.sort_unstable();
        lines.dedup();
    }

    /// The group and the wave's place in it of wave `wave`'s `iteration`-th execution: a
    /// further pass takes the groups after every group of the dispatch.
    fn group_of(&self, wave: u64, iteration: u64, total_waves: u64) -> (u64, u32) {
        let per_group = u64::from(self.walk.waves_per_group.max(1));
        let groups = total_waves.max(1).div_ceil(per_group);
        let group = (wave / per_group).wrapping_add(iteration.wrapping_mul(groups));
        (group, (wave % per_group) as u32)
    }

    /// Every lane's texels' lines, one by one (unsorted, repeated): the way for any box.
    fn lines_by_lanes(&self, positions: &[(u64, u64)], layout: &TexelLayout, lines: &mut Vec<u64>) {
        let line = u64::from(self.line_bytes.max(1));
        for &(x, y) in positions {
            self.for_each_texel(x, y, |mip, u, v| {
                lines.push(layout.address(mip, u, v) / line * line);
            });
        }
    }

    /// The lines of the blocks ([`Chunk`]) the lanes of `lanes` read, through a bitmap of
    /// each mip's block rows (unsorted; distinct unless the texture's edge wraps two blocks
    /// onto one line); `false`, with `lines` untouched, when a mip's box does not fit.
    ///
    /// The lanes come as a bitmap of their own rows ([`LaneBox`]): the texels of a run of
    /// neighbouring lanes of one row are one range per mip (each lane's range ends where the
    /// next one's begins or inside it), so a row costs a range per run of lanes, and a row of
    /// the same lanes as the row above (a full tile's every row) reuses its blocks.
    fn lines_by_chunks(
        &self,
        lanes: &LaneRows,
        layout: &TexelLayout,
        lines: &mut Vec<u64>,
    ) -> bool {
        let n = self.probes();
        let line = u64::from(self.line_bytes.max(1));
        // The texels a run of lanes x_first ..= x_last of row y reads of each mip, as
        // inclusive ranges of u and of v (`for_each_texel`): a point lane texel x*n + j of row
        // y (j < n); a filtered one also u + 1 and row y + 1; the next mip (u/2 ..= u/2 + 1) x
        // (y/2 ..= y/2 + 1) of every probe u = x*n + j, which together are
        // (x*n)/2 ..= (x*n + n - 1)/2 + 1.
        let filtered = u64::from(self.filter != TextureFilter::Point);
        let mip0 = |x_first: u64, x_last: u64, y: u64| {
            (
                (x_first * n, x_last * n + n - 1 + filtered),
                (y, y + filtered),
            )
        };
        let mip1 = |x_first: u64, x_last: u64, y: u64| {
            (
                ((x_first * n) / 2, (x_last * n + n - 1) / 2 + 1),
                (y / 2, y / 2 + 1),
            )
        };
        if !self.mark_and_list(lanes, 0, mip0, layout, line, lines) {
            return false;
        }
        if self.reads_next_mip() {
            let before = lines.len();
            if !self.mark_and_list(lanes, 1, mip1, layout, line, lines) {
                lines.truncate(before);
                return false;
            }
        }
        true
    }

    /// One mip of [`ImageFootprint::lines_by_chunks`]: `texels(x_first, x_last, y)` gives the
    /// run's `((u_first, u_last), (v_first, v_last))`, monotonic in the `x`s and in `y`, so
    /// the lanes' box bounds every run's.
    #[inline]
    fn mark_and_list(
        &self,
        lanes: &LaneRows,
        mip: u32,
        texels: impl Fn(u64, u64, u64) -> ((u64, u64), (u64, u64)),
        layout: &TexelLayout,
        line: u64,
        lines: &mut Vec<u64>,
    ) -> bool {
        let chunk = layout.chunk(mip, line);
        let ((u_first, _), (v_first, _)) = texels(lanes.min_x, lanes.min_x, lanes.min_y);
        let ((_, u_last), (_, v_last)) = texels(lanes.max_x, lanes.max_x, lanes.max_y);
        let (c0, r0) = (u_first >> chunk.u_shift, v_first >> chunk.v_shift);
        let columns = (u_last >> chunk.u_shift) - c0 + 1;
        let rows = (v_last >> chunk.v_shift) - r0 + 1;
        if columns > u64::from(u128::BITS) || rows > BITMAP_ROWS as u64 {
            return false;
        }
        // A wave's footprint spans a few block rows: those zero a small bitmap in place
        // instead of calling memset on the whole one.
        let (mut small, mut whole);
        let bitmap: &mut [u128] = if rows <= SMALL_BITMAP_ROWS as u64 {
            small = [0u128; SMALL_BITMAP_ROWS];
            &mut small[..rows as usize]
        } else {
            whole = [0u128; BITMAP_ROWS];
            &mut whole[..rows as usize]
        };
        // The lanes of the previous row and the block columns they touched.
        let (mut last_lanes, mut last_columns) = (0u128, 0u128);
        for (dy, &row_lanes) in lanes.rows.iter().enumerate() {
            if row_lanes == 0 {
                continue;
            }
            let y = lanes.min_y + dy as u64;
            if row_lanes != last_lanes {
                last_lanes = row_lanes;
                last_columns = 0;
                let mut rest = row_lanes;
                while rest != 0 {
                    let first = rest.trailing_zeros();
                    let length = (rest >> first).trailing_ones();
                    let end = first + length;
                    rest = if end >= u128::BITS {
                        0
                    } else {
                        rest & (u128::MAX << end)
                    };
                    let ((ua, ub), _) = texels(
                        lanes.min_x + u64::from(first),
                        lanes.min_x + u64::from(end - 1),
                        y,
                    );
                    let (ca, cb) = ((ua >> chunk.u_shift) - c0, (ub >> chunk.u_shift) - c0);
                    // Bits ca ..= cb (at most 128 of them).
                    last_columns |= (u128::MAX >> (127 - (cb - ca))) << ca;
                }
            }
            let (_, (va, vb)) = texels(lanes.min_x, lanes.min_x, y);
            for row in (va >> chunk.v_shift) - r0..=(vb >> chunk.v_shift) - r0 {
                bitmap[row as usize] |= last_columns;
            }
        }
        for (row, &bits) in bitmap.iter().enumerate() {
            let v = (r0 + row as u64) << chunk.v_shift;
            let mut bits = bits;
            while bits != 0 {
                let u = (c0 + u64::from(bits.trailing_zeros())) << chunk.u_shift;
                bits &= bits - 1;
                lines.push(layout.address(mip, u, v) / line * line);
            }
        }
        true
    }
}

/// The active lanes of a wave as a bitmap of their rows ([`ImageFootprint::lines_by_chunks`]):
/// bit `x - min_x` of `rows[y - min_y]` for the lane at `(x, y)`.
struct LaneRows<'a> {
    rows: &'a [u128],
    min_x: u64,
    min_y: u64,
    max_x: u64,
    max_y: u64,
}

/// A wave's active lanes as the rows of a bitmap over their bounding box, and the box.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LaneBox {
    rows: [u128; LANE_ROWS],
    min_x: u64,
    min_y: u64,
    max_x: u64,
    max_y: u64,
}

/// What [`LaneBox::of`] made of a wave's lane positions.
// The direct path keeps it on the stack for one call and the cache boxes it whole: boxing
// the large variant would cost the direct path an allocation per wave.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
enum LaneBoxOf {
    /// No active lane.
    Empty,
    /// The box fits the bitmap.
    Fits(LaneBox),
    /// Wider than 128 columns or taller than [`LANE_ROWS`] rows.
    TooLarge,
}

impl LaneBox {
    fn of(positions: &[(u64, u64)]) -> LaneBoxOf {
        let Some(&(first_x, first_y)) = positions.first() else {
            return LaneBoxOf::Empty;
        };
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (first_x, first_x, first_y, first_y);
        for &(x, y) in positions {
            min_x = min_x.min(x);
            max_x = max_x.max(x);
            min_y = min_y.min(y);
            max_y = max_y.max(y);
        }
        if max_x - min_x >= u64::from(u128::BITS) || max_y - min_y >= LANE_ROWS as u64 {
            return LaneBoxOf::TooLarge;
        }
        let mut rows = [0u128; LANE_ROWS];
        for &(x, y) in positions {
            rows[(y - min_y) as usize] |= 1 << (x - min_x);
        }
        LaneBoxOf::Fits(LaneBox {
            rows,
            min_x,
            min_y,
            max_x,
            max_y,
        })
    }

    /// The rows in use, with the box.
    fn rows(&self) -> LaneRows<'_> {
        LaneRows {
            rows: &self.rows[..=(self.max_y - self.min_y) as usize],
            min_x: self.min_x,
            min_y: self.min_y,
            max_x: self.max_x,
            max_y: self.max_y,
        }
    }
}

/// The lanes of the waves of one footprint's groups, relative to their group's origin, for
/// [`ImageFootprint::lines_into_cached`]: one entry per wave of a group, made on first use.
#[derive(Debug, Clone, Default)]
pub struct WaveLanes {
    /// The walk and lane mask the entries are of.
    of: Option<(TileWalk, u64)>,
    boxes: Vec<Option<Box<LaneBoxOf>>>,
}

impl WaveLanes {
    /// Waves of a group past this many are placed directly (a kilobyte per entry).
    const MAX_WAVES: usize = 64;
}

/// Rows of the lane bitmap: a wave's 64 lanes span at most 64 rows (a 1-wide workgroup).
const LANE_ROWS: usize = WAVE64;

/// Rows of the bitmap of [`ImageFootprint::lines_into`]: a wave's 64 lanes span at most 64
/// rows (a 1-wide workgroup), plus the bilinear footprint's row below.
const BITMAP_ROWS: usize = WAVE64 + 2;

/// Bitmap rows a footprint of up to this many block rows uses (zeroed inline).
const SMALL_BITMAP_ROWS: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(filter: TextureFilter, format: TexelFormat) -> ImageFootprint {
        ImageFootprint {
            walk: TileWalk::pixel(64),
            filter,
            format,
            line_bytes: 64,
            exec: u64::MAX,
        }
    }

    #[test]
    fn morton_round_trips_and_interleaves() {
        assert_eq!(morton_encode(1, 0), 1);
        assert_eq!(morton_encode(0, 1), 2);
        assert_eq!(morton_encode(3, 3), 15);
        for code in [0, 1, 7, 12345, 1 << 40] {
            let (x, y) = morton_decode(code);
            assert_eq!(morton_encode(x, y), code);
        }
    }

    /// A 64-byte line holds a 4x4 block of rgba8 texels (16 x 4 bytes, Morton order), so an
    /// 8x8 tile of point samples reads 2x2 = 4 lines; bilinear reads texels 0..=8 each way: 3
    /// blocks of 4 each way = 9 lines; trilinear adds mip 1's texels 0..=4 each way: 2x2 blocks
    /// = 4 lines, 13 in all.
    #[test]
    fn tile_footprints_at_rgba8() {
        use TextureFilter::*;
        let lines = |f| pixel(f, TexelFormat::Rgba8).lines(0, 0, 1).len();
        assert_eq!(lines(Point), 4);
        assert_eq!(lines(Bilinear), 9);
        assert_eq!(lines(Trilinear), 13);
        // Aniso 2x: mip 0 texels 0..=16 along x (5 blocks) by 0..=8 (3); mip 1 0..=8 by 0..=4
        // (3 x 2): 15 + 6.
        assert_eq!(lines(Aniso2x), 21);
    }

    #[test]
    fn compressed_blocks_share_lines() {
        // BC1: 8-byte 4x4 blocks, 8 per line in Morton order = 4x2 blocks = 16x8 texels. A
        // bilinear 8x8 tile reads texels 0..=8: blocks 0..=2 each way: x in one line (blocks
        // 0..3), y blocks 0..1 and 2 -> 2 lines.
        assert_eq!(
            pixel(TextureFilter::Bilinear, TexelFormat::Bc1)
                .lines(0, 0, 1)
                .len(),
            2
        );
    }

    #[test]
    fn waves_walk_neighbouring_tiles_in_z_order() {
        let f = pixel(TextureFilter::Point, TexelFormat::Rgba8);
        // Wave 1 is the tile right of wave 0, wave 2 the one below.
        assert_eq!(f.walk.lane_position(1, 0, 0), Some((8, 0)));
        assert_eq!(f.walk.lane_position(2, 0, 0), Some((0, 8)));
        // Point samples of distinct tiles never share a line.
        let a = f.lines(0, 0, 4);
        let b = f.lines(1, 0, 4);
        assert!(a.iter().all(|l| !b.contains(l)));
        // The second iteration of wave 0 reads the tile after all 4 waves' (tile 4).
        assert_eq!(f.lines(0, 1, 4), f.lines(4, 0, 8));
    }

    #[test]
    fn compute_waves_follow_the_declared_workgroup() {
        let w = TileWalk::compute(64, Some([16, 16, 1]));
        assert_eq!((w.waves_per_group, w.wave_tile()), (4, (16, 4)));
        // Wave 1 of group 0 starts at row 4; lane 17 is (1, 1) of its strip.
        assert_eq!(w.lane_position(0, 1, 17), Some((1, 5)));
        // Group 1 is the 16x16 rectangle to the right.
        assert_eq!(w.lane_position(1, 0, 0), Some((16, 0)));
        let d = TileWalk::compute(32, None);
        assert_eq!((d.wave_tile(), d.waves_per_group), ((8, 4), 1));
        // A 8x2 workgroup has 16 threads: lanes 16.. of its wave64 are past it.
        assert_eq!(
            TileWalk::compute(64, Some([8, 2, 1])).lane_position(0, 0, 16),
            None
        );
    }
}
