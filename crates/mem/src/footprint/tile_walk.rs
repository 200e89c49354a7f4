//! How a dispatch's waves cover the screen or the grid: each lane's
//! position, by a Z-order walk of wave (or workgroup) tiles.

use super::layout::morton_decode;
use crate::pattern::LaneOrder;
use crate::pattern::WAVE64;

/// How a dispatch's waves cover the screen (or the grid of a compute dispatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileWalk {
    /// How the stage assigns lanes to positions.
    pub order: LaneOrder,
    /// Width in lanes of one group's rectangle (pixel shaders: one wave's tile).
    pub group_width: u32,
    /// Rows of one group's rectangle.
    pub group_height: u32,
    /// Waves per group (1 for pixel shaders and compute kernels without a declared size).
    pub waves_per_group: u32,
    /// Lanes per wave (32 or 64).
    pub wave_size: u32,
    /// Whether the group's shape is the kernel's declared workgroup size.
    pub declared: bool,
}

impl TileWalk {
    /// Pixel shaders: 2x2 quads in an 8x8 tile (wave64) or 8x4 (wave32).
    pub fn pixel(wave_size: u32) -> TileWalk {
        let wave_size = wave_size.clamp(4, WAVE64 as u32);
        TileWalk {
            order: LaneOrder::PixelQuads,
            group_width: 8,
            group_height: (wave_size / 8).max(2),
            waves_per_group: 1,
            wave_size,
            declared: false,
        }
    }

    /// Compute kernels: a workgroup of `declared` `[x, y, z]` threads is a rectangle `x` wide
    /// and `y*z` rows high, its waves taking consecutive rows of threads; without a declared
    /// size (or with one whose width is 0), every wave is its own 8-wide tile (8x8 wave64, 8x4
    /// wave32).
    pub fn compute(wave_size: u32, declared: Option<[u32; 3]>) -> TileWalk {
        let wave_size = wave_size.clamp(1, WAVE64 as u32);
        match declared {
            Some([x, y, z]) if x > 0 && y > 0 && z > 0 => {
                let threads = x.saturating_mul(y).saturating_mul(z);
                TileWalk {
                    order: LaneOrder::Compute,
                    group_width: x,
                    group_height: y.saturating_mul(z),
                    waves_per_group: threads.div_ceil(wave_size).max(1),
                    wave_size,
                    declared: true,
                }
            }
            _ => TileWalk {
                order: LaneOrder::Compute,
                group_width: 8,
                group_height: wave_size.div_ceil(8),
                waves_per_group: 1,
                wave_size,
                declared: false,
            },
        }
    }

    /// The rectangle one wave's lanes cover: width x rows (the wave's first row to its last).
    pub fn wave_tile(&self) -> (u32, u32) {
        if self.waves_per_group == 1 {
            return (self.group_width, self.group_height);
        }
        let width = self.group_width.min(self.wave_size);
        (width, self.wave_size.div_ceil(width.max(1)))
    }

    /// The screen position of group `group`'s first thread (its rectangle's top left corner):
    /// the groups' rectangles in Z order. Every lane's position is this plus an offset that
    /// depends only on the wave in the group and the lane ([`TileWalk::lane_positions`]).
    pub fn group_origin(&self, group: u64) -> (u64, u64) {
        let (gx, gy) = morton_decode(group);
        (
            gx * u64::from(self.group_width),
            gy * u64::from(self.group_height),
        )
    }

    /// The position of `lane` of wave `wave_in_group` of group `group` on the screen, or `None`
    /// for a lane past the group's threads.
    pub fn lane_position(&self, group: u64, wave_in_group: u32, lane: u32) -> Option<(u64, u64)> {
        let origin = self.group_origin(group);
        let (x, y) = match self.order {
            LaneOrder::PixelQuads => self
                .order
                .tile_xy(lane, self.group_width, self.group_height)
                .ok()?,
            LaneOrder::Compute => {
                let t = u64::from(wave_in_group) * u64::from(self.wave_size) + u64::from(lane);
                let width = u64::from(self.group_width.max(1));
                if t >= width * u64::from(self.group_height) {
                    return None;
                }
                (t % width, t / width)
            }
        };
        Some((origin.0 + x, origin.1 + y))
    }

    /// The positions of the active lanes (bit `i` of `exec` for lane `i`) of wave
    /// `wave_in_group` of group `group`, in lane order, written to the front of `out`; returns
    /// how many. The same as [`TileWalk::lane_position`] of every lane below
    /// `min(wave_size, 64)` whose exec bit is set and that is not past the group, but one
    /// group origin and running counters instead of a division or two per lane.
    pub fn lane_positions(
        &self,
        group: u64,
        wave_in_group: u32,
        exec: u64,
        out: &mut [(u64, u64); WAVE64],
    ) -> usize {
        let (ox, oy) = self.group_origin(group);
        let lanes = self.wave_size.min(WAVE64 as u32) as usize;
        let mut count = 0;
        match self.order {
            LaneOrder::PixelQuads => {
                let (width, height) = (u64::from(self.group_width), u64::from(self.group_height));
                // `LaneOrder::tile_xy` refuses such tiles for every lane.
                if width == 0 || height == 0 || width % 2 != 0 || height % 2 != 0 {
                    return 0;
                }
                let (quads_per_row, quad_rows) = (width / 2, height / 2);
                // Quad `q` (lanes 4q .. 4q+3: pixels (0,0), (1,0), (0,1), (1,1) of it) at
                // column `qx`, row `qy` of stacked tile `tile`.
                let (mut qx, mut qy, mut tile) = (0u64, 0u64, 0u64);
                for first in (0..lanes).step_by(4) {
                    let (x, y) = (ox + 2 * qx, oy + tile * height + 2 * qy);
                    let quad = (exec >> first) & 0xf;
                    if quad == 0xf && first + 4 <= lanes {
                        out[count..count + 4].copy_from_slice(&[
                            (x, y),
                            (x + 1, y),
                            (x, y + 1),
                            (x + 1, y + 1),
                        ]);
                        count += 4;
                    } else {
                        for lane in first..lanes.min(first + 4) {
                            if (exec >> lane) & 1 != 0 {
                                let corner = lane as u64 & 3;
                                out[count] = (x + (corner & 1), y + (corner >> 1));
                                count += 1;
                            }
                        }
                    }
                    qx += 1;
                    if qx == quads_per_row {
                        qx = 0;
                        qy += 1;
                        if qy == quad_rows {
                            qy = 0;
                            tile += 1;
                        }
                    }
                }
            }
            LaneOrder::Compute => {
                let width = u64::from(self.group_width.max(1));
                let threads = width * u64::from(self.group_height);
                let first = u64::from(wave_in_group) * u64::from(self.wave_size);
                // Thread `first + lane` at `(x, y)` of the group's rows.
                let (mut x, mut y) = (first % width, first / width);
                for lane in 0..lanes {
                    if first + lane as u64 >= threads {
                        break;
                    }
                    if (exec >> lane) & 1 != 0 {
                        out[count] = (ox + x, oy + y);
                        count += 1;
                    }
                    x += 1;
                    if x == width {
                        x = 0;
                        y += 1;
                    }
                }
            }
        }
        count
    }
}
