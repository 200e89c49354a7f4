//! The rasterizers (seed, rasterizer overview and figure 2).
//!
//! Twenty rasterizers each own 1,024 pixels of the current 640x32 tile row:
//! screen pixels R + 20N of every line (today) or the 32x32 tile R walked in
//! 2x2 quads (the author's fix). A rasterizer spends a fixed number of clocks
//! on every triangle it does not cull (3,072 today: one triangle edge per
//! clock, three clocks per pixel position; 512 is the author's target), walking
//! its pixel positions at an even pace over that time. Every covered position
//! becomes a pixel on its port to the SDN, which takes at most one pixel per
//! rasterizer per clock (seed figure 3); if the walk finds a second covered
//! pixel while one still waits on the port, the walk stalls. Triangles are
//! culled by the tile row's vertical extent always, and by the rasterizer's
//! own pixel columns when horizontal culling is switched on.

use crate::params::{NamiParams, PixelInterleave};
use crate::scene::{Triangle, SUBPIXEL_ONE};

/// A pixel leaving a rasterizer: where it goes and its interpolated colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RasterPixel {
    /// Screen x.
    pub x: u16,
    /// Screen y.
    pub y: u16,
    /// Barycentric interpolated colour.
    pub colour: [u8; 3],
    /// Colour in the render cache when the pixel was rasterized (the NMB's
    /// "previous colour" constant data; stale if an earlier pixel for the same
    /// address is still in flight: the seed's lost ordering guarantee).
    pub previous: [u8; 3],
    /// Which rasterizer of its SDN group produced it: the cache bank of the
    /// pair it is written to (seed, ELT: "\[0,1\] specifies which cache in the pair").
    pub bank: u8,
    /// Rasterization order within the frame, to detect out-of-order writes.
    pub seq: u64,
    /// Its triangle, as an index into the tile row's (vertically culled)
    /// triangles: what a replay of the row needs to colour it again.
    pub triangle: u32,
}

/// Edge functions of one triangle, set up once (wound so the area is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriangleSetup {
    /// Per edge: E(x, y) = a * x + b * y + c, in 1/16-pixel units.
    edges: [(i64, i64, i64); 3],
    /// 1 for edges that own pixels exactly on them (top-left rule), else 0.
    bias: [i64; 3],
    /// Doubled area (sum of the three edge functions).
    area: i64,
    /// Per channel, the weighted colour sum (edge i weighs vertex colour i) plus the rounding half area as
    /// one plane `a * x + b * y + c` (sum over edges of colour times edge
    /// function, collected once): `shade` evaluates three planes instead of
    /// nine products per covered pixel, and integer algebra keeps it exact.
    colour_planes: [(i64, i64, i64); 3],
    /// Bounding box in 1/16 pixel: min x, min y, max x, max y.
    bbox: [i64; 4],
    /// Division by `area` as a multiply and a shift: `shade` divides three
    /// times per covered pixel, and a 64-bit division is the costliest
    /// instruction of the walk.
    divisor: AreaDivisor,
}

/// Exact `n / d` for `0 <= n < 2^DIVIDEND_BITS` by a multiply and a shift
/// (Granlund and Montgomery, "Division by invariant integers using
/// multiplication", theorem 4.2: with `l = ceil(log2 d)` and
/// `m = floor(2^(N + l) / d) + 1`, `2^(N + l) < m d <= 2^(N + l) + 2^l`, so
/// `floor(m n / 2^(N + l)) = floor(n / d)` for every `n < 2^N`). Dividends
/// outside that range, or divisors too large, use the division itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaDivisor {
    d: i64,
    /// The multiplier m (below 2^(N + 1)), or 0 when the fast path is off.
    m: u64,
    /// N + l.
    shift: u32,
}

/// N of [`AreaDivisor`]: the weighted colour sums of `shade` stay below
/// 2^52 for on-screen coordinates, so 53 bits cover them with room.
const DIVIDEND_BITS: u32 = 53;

impl AreaDivisor {
    /// A divisor for `d` (positive).
    pub fn new(d: i64) -> AreaDivisor {
        if d <= 0 {
            return AreaDivisor { d, m: 0, shift: 0 };
        }
        let du = d as u64;
        let l = 64 - (du - 1).leading_zeros();
        let shift = DIVIDEND_BITS + l;
        // m < 2^(N + l) / 2^(l - 1) + 1 <= 2^(N + 1): fits u64 when l <= 64.
        let m = ((1u128 << shift) / u128::from(du) + 1) as u64;
        AreaDivisor { d, m, shift }
    }

    /// `n / d`, exactly as the `/` operator gives it.
    #[inline]
    pub fn div(&self, n: i64) -> i64 {
        if self.m != 0 && (0..1i64 << DIVIDEND_BITS).contains(&n) {
            ((u128::from(n as u64) * u128::from(self.m)) >> self.shift) as i64
        } else {
            n / self.d
        }
    }
}

impl TriangleSetup {
    /// Set up a triangle (either winding; `None` if it has no area).
    pub fn new(t: &Triangle) -> Option<TriangleSetup> {
        let mut v = t.v;
        let mut area = t.doubled_area();
        if area == 0 {
            return None;
        }
        if area < 0 {
            v.swap(1, 2);
            area = -area;
        }
        let mut edges = [(0, 0, 0); 3];
        let mut bias = [0; 3];
        for i in 0..3 {
            // Edge i is opposite vertex i, from vertex i+1 to vertex i+2.
            let p = v[(i + 1) % 3];
            let q = v[(i + 2) % 3];
            let (dx, dy) = (q.x - p.x, q.y - p.y);
            // E(s) = dx * (s.y - p.y) - dy * (s.x - p.x) >= 0 inside.
            edges[i] = (-dy, dx, dy * p.x - dx * p.y);
            // An edge owns the pixels exactly on it when it runs upwards, or
            // is horizontal and runs rightwards: the reversed edge of the
            // neighbour that shares it then does not, so shared edges are
            // drawn once.
            bias[i] = i64::from(dy < 0 || (dy == 0 && dx > 0));
        }
        let colours = [v[0].colour, v[1].colour, v[2].colour];
        let mut colour_planes = [(0, 0, area / 2); 3];
        for (ch, plane) in colour_planes.iter_mut().enumerate() {
            for (&(a, b, c), colour) in edges.iter().zip(&colours) {
                let k = i64::from(colour[ch]);
                plane.0 += a * k;
                plane.1 += b * k;
                plane.2 += c * k;
            }
        }
        let xs = v.map(|p| p.x);
        let ys = v.map(|p| p.y);
        Some(TriangleSetup {
            edges,
            bias,
            area,
            colour_planes,
            divisor: AreaDivisor::new(area),
            bbox: [
                *xs.iter().min().unwrap_or(&0),
                *ys.iter().min().unwrap_or(&0),
                *xs.iter().max().unwrap_or(&0),
                *ys.iter().max().unwrap_or(&0),
            ],
        })
    }

    /// Coverage and interpolated colour of the pixel whose centre is at
    /// (x + 0.5, y + 0.5); `None` if the centre is outside.
    pub fn shade(&self, x: i64, y: i64) -> Option<[u8; 3]> {
        let sx = x * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
        let sy = y * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
        for (&(a, b, c), bias) in self.edges.iter().zip(self.bias) {
            if a * sx + b * sy + c + bias <= 0 {
                return None;
            }
        }
        Some(self.colour_at_subpixel(sx, sy))
    }

    /// The interpolated colour at the centre of pixel (x, y), covered or not
    /// (what [`TriangleSetup::shade`] gives for a covered pixel).
    pub fn colour_at(&self, x: i64, y: i64) -> [u8; 3] {
        self.colour_at_subpixel(
            x * SUBPIXEL_ONE + SUBPIXEL_ONE / 2,
            y * SUBPIXEL_ONE + SUBPIXEL_ONE / 2,
        )
    }

    #[inline(always)]
    fn colour_at_subpixel(&self, sx: i64, sy: i64) -> [u8; 3] {
        // Coordinates are within +-32768 pixels (2^19 sub-pixel units), so
        // each edge weight is below 2^42 and the weighted sum a colour plane
        // gives below 2^52 (each of its terms below 2^52 too): i64 holds it.
        let mut out = [0u8; 3];
        for (o, &(a, b, c)) in out.iter_mut().zip(&self.colour_planes) {
            *o = self.divisor.div(a * sx + b * sy + c).clamp(0, 255) as u8;
        }
        out
    }

    /// The triangle as a tile row starting at line `y0` sees it: its edge
    /// functions moved to the row's first line, and its horizontal extent.
    /// Two triangles with equal shapes (in rows of equal height) cover the
    /// same walk positions of every rasterizer and are culled alike, so
    /// they take the same clocks; only their colours can differ.
    pub fn shape_in_row(&self, y0: i64) -> [i64; 14] {
        let mut shape = [0; 14];
        for (i, (&(a, b, c), bias)) in self.edges.iter().zip(self.bias).enumerate() {
            // E(x, y0 + line) = a x + b (line + y0) + c, in sub-pixels.
            shape[4 * i..4 * i + 4].copy_from_slice(&[a, b, c + b * y0 * SUBPIXEL_ONE, bias]);
        }
        shape[12] = self.bbox[0];
        shape[13] = self.bbox[2];
        shape
    }

    /// Whether the bounding box reaches pixel centres with y in `y0..y1`.
    pub fn overlaps_rows(&self, y0: i64, y1: i64) -> bool {
        let lo = y0 * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
        let hi = (y1 - 1) * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
        self.bbox[1] <= hi && self.bbox[3] >= lo
    }

    /// Whether the bounding box reaches a pixel centre in column `x`.
    pub fn overlaps_column(&self, x: i64) -> bool {
        let c = x * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
        self.bbox[0] <= c && self.bbox[2] >= c
    }
}

/// Which screen pixel a rasterizer's walk position is, for an interleave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelWalk {
    /// The interleave.
    pub interleave: PixelInterleave,
    /// The rasterizer's index across the row (0..20).
    pub rasterizer: u32,
    /// Number of rasterizers across the row.
    pub rasterizer_count: u32,
    /// Tile side (32).
    pub tile_size: u32,
}

/// `(a / b, a % b)`; with a shift and a mask when `b` is a power of two
/// (tile sizes are), since the walk runs for every pixel position and a
/// division by a value known only at run time is slow.
#[inline(always)]
fn div_rem(a: u32, b: u32) -> (u32, u32) {
    if b.is_power_of_two() {
        (a >> b.trailing_zeros(), a & (b - 1))
    } else {
        (a / b, a % b)
    }
}

impl PixelWalk {
    /// Screen (x, line within the tile row) of walk position `p` (0..tile^2).
    ///
    /// R + 20N walks line by line, taking x = R, R + 20, R + 40, ... in each
    /// line, so the two rasterizers of a pair produce {0, 20, 40, 60} and
    /// {1, 21, 41, 61} together (the author's example Nami in the comments).
    /// Quad walks 2x2 quads row-major inside tile R.
    #[inline]
    pub fn position(&self, p: u32) -> (u32, u32) {
        let ts = self.tile_size;
        match self.interleave {
            PixelInterleave::R20n => {
                let (line, x) = div_rem(p, ts);
                (self.rasterizer + self.rasterizer_count * x, line)
            }
            PixelInterleave::Quad => {
                let quad = p / 4;
                let sub = p % 4;
                let quads_across = ts / 2;
                let (qy, qx) = div_rem(quad, quads_across);
                (
                    self.rasterizer * ts + 2 * qx + (sub & 1),
                    2 * qy + (sub >> 1),
                )
            }
        }
    }

    /// Whether any of this rasterizer's columns fall in the triangle's bounding box.
    pub fn touches(&self, setup: &TriangleSetup) -> bool {
        match self.interleave {
            PixelInterleave::R20n => (0..self.tile_size).any(|n| {
                setup.overlaps_column(i64::from(self.rasterizer + self.rasterizer_count * n))
            }),
            PixelInterleave::Quad => {
                let x0 = i64::from(self.rasterizer * self.tile_size);
                let x1 = x0 + i64::from(self.tile_size) - 1;
                let lo = x0 * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
                let hi = x1 * SUBPIXEL_ONE + SUBPIXEL_ONE / 2;
                setup.bbox[0] <= hi && setup.bbox[2] >= lo
            }
        }
    }
}

/// Counters of one rasterizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RasterizerStats {
    /// Triangles walked (not culled).
    pub triangles: u64,
    /// Triangles skipped by horizontal culling.
    pub culled_horizontally: u64,
    /// Pixels sent to the SDN.
    pub pixels: u64,
    /// Clocks the walk stalled because a pixel still waited on the port.
    pub port_stall_clocks: u64,
    /// Clocks clock-gated by AKB backpressure.
    pub gated_clocks: u64,
    /// Clocks spent walking triangles (not gated).
    pub busy_clocks: u64,
}

/// One rasterizer working through the triangles of a tile row.
#[derive(Clone, Debug)]
pub struct Rasterizer {
    walk: PixelWalk,
    /// Clocks per triangle (the walk spreads the tile's positions over them).
    clocks_per_triangle: u64,
    /// Positions per triangle (1,024).
    positions: u32,
    /// y of the tile row's first line.
    row_y0: u32,
    /// Index (within the SDN group) stamped on pixels as their cache bank.
    bank: u8,
    /// Triangles of this row still to walk, as indices into the row's setups.
    queue: Vec<u32>,
    next_in_queue: usize,
    current: Option<u32>,
    position: u32,
    credit: u64,
    pending: Option<RasterPixel>,
    /// Counters.
    pub stats: RasterizerStats,
}

impl Rasterizer {
    /// A rasterizer for index `rasterizer` (0..20) of the row.
    pub fn new(params: &NamiParams, rasterizer: u32) -> Rasterizer {
        Rasterizer {
            walk: PixelWalk {
                interleave: params.pixel_interleave,
                rasterizer,
                rasterizer_count: params.rasterizer_count as u32,
                tile_size: params.tile_size as u32,
            },
            clocks_per_triangle: params.raster_clocks_per_triangle,
            positions: params.pixels_per_rasterizer() as u32,
            row_y0: 0,
            bank: (u64::from(rasterizer) % params.rasterizers_per_sdn) as u8,
            queue: Vec::new(),
            next_in_queue: 0,
            current: None,
            position: 0,
            credit: 0,
            pending: None,
            stats: RasterizerStats::default(),
        }
    }

    /// Start a tile row: take the row's (vertically culled) triangles,
    /// dropping those outside this rasterizer's columns when `horizontal_culling`.
    pub fn start_row(&mut self, row_y0: u32, setups: &[TriangleSetup], horizontal_culling: bool) {
        self.row_y0 = row_y0;
        self.queue.clear();
        for (i, s) in setups.iter().enumerate() {
            if horizontal_culling && !self.walk.touches(s) {
                self.stats.culled_horizontally += 1;
            } else {
                self.queue.push(i as u32);
            }
        }
        self.next_in_queue = 0;
        self.current = None;
        self.position = 0;
        self.credit = 0;
        self.pending = None;
    }

    /// Whether every triangle is walked and no pixel waits on the port.
    pub fn is_done(&self) -> bool {
        self.current.is_none() && self.pending.is_none() && self.next_in_queue >= self.queue.len()
    }

    /// Which pixel walk this rasterizer does.
    pub fn walk(&self) -> &PixelWalk {
        &self.walk
    }

    /// A clock during which AKB backpressure clock-gates the rasterizer.
    pub fn gate(&mut self) {
        if !self.is_done() {
            self.stats.gated_clocks += 1;
        }
    }

    /// One clock: returns the pixel put on the port to the SDN, if any.
    /// `seq` numbers pixels in rasterization order.
    pub fn step(&mut self, setups: &[TriangleSetup], seq: &mut u64) -> Option<RasterPixel> {
        let mut out = None;
        self.step_into(setups, seq, &mut out);
        out
    }

    /// [`Rasterizer::step`] putting the pixel into `out` (which must be
    /// `None`): the clock loop passes the SDN's input slot, so the pixel is
    /// built where it is used instead of being returned and copied.
    #[inline(always)]
    pub fn step_into(
        &mut self,
        setups: &[TriangleSetup],
        seq: &mut u64,
        out: &mut Option<RasterPixel>,
    ) {
        debug_assert!(out.is_none());
        *out = self.pending.take();
        if self.current.is_none() && out.is_none() {
            if self.next_in_queue >= self.queue.len() {
                return;
            }
            self.current = Some(self.queue[self.next_in_queue]);
            self.next_in_queue += 1;
            self.position = 0;
            self.credit = 0;
            self.stats.triangles += 1;
        }
        let Some(tri) = self.current else {
            return;
        };
        self.stats.busy_clocks += 1;
        let setup = &setups[tri as usize];
        // The walk covers `positions` positions in `clocks_per_triangle`
        // clocks: each clock earns `positions` credits, each position costs
        // `clocks_per_triangle` credits.
        self.credit += u64::from(self.positions);
        while self.credit >= self.clocks_per_triangle && self.position < self.positions {
            self.credit -= self.clocks_per_triangle;
            let (x, line) = self.walk.position(self.position);
            self.position += 1;
            let y = self.row_y0 + line;
            if let Some(colour) = setup.shade(i64::from(x), i64::from(y)) {
                let px = RasterPixel {
                    x: x as u16,
                    y: y as u16,
                    colour,
                    previous: [0; 3],
                    bank: self.bank,
                    seq: *seq,
                    triangle: tri,
                };
                *seq += 1;
                if out.is_none() {
                    *out = Some(px);
                } else {
                    // The port is taken this clock: hold the pixel, stall the walk.
                    self.pending = Some(px);
                    self.credit = self.credit.min(self.clocks_per_triangle);
                    self.stats.port_stall_clocks += 1;
                    break;
                }
            }
        }
        if self.position >= self.positions && self.pending.is_none() {
            self.current = None;
        }
        if out.is_some() {
            self.stats.pixels += 1;
        }
    }
}

/// Clocks one rasterizer, never gated and with its port always free, takes
/// to walk one triangle covering its whole tile: the cycle model's answer to
/// "how long does a triangle take", which the seed's headline figures rest on.
pub fn clocks_for_full_tile_triangle(params: &NamiParams) -> u64 {
    let ts = params.tile_size as f64;
    let w = params.screen_width as f64;
    // A triangle far larger than the screen covers every pixel of row 0.
    let big = Triangle {
        v: [
            crate::scene::Vertex::at(-2.0 * w, -ts, [255, 255, 255]),
            crate::scene::Vertex::at(4.0 * w, -ts, [255, 255, 255]),
            crate::scene::Vertex::at(w / 2.0, 8.0 * ts + 4.0 * w, [255, 255, 255]),
        ],
    };
    let Some(setup) = TriangleSetup::new(&big) else {
        return 0;
    };
    let setups = [setup];
    let mut r = Rasterizer::new(params, 0);
    r.start_row(0, &setups, false);
    let mut seq = 0;
    let mut clocks = 0;
    while !r.is_done() {
        r.step(&setups, &mut seq);
        clocks += 1;
    }
    clocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Vertex;

    fn params() -> NamiParams {
        NamiParams::seed().unwrap()
    }

    #[test]
    fn full_tile_triangle_takes_3072_clocks_and_one_pixel_every_3() {
        let p = params();
        assert_eq!(clocks_for_full_tile_triangle(&p), 3072);
        let mut p512 = p.clone();
        p512.raster_clocks_per_triangle = 512;
        // The walk would finish in 512 clocks, but the SDN port takes one
        // pixel per clock: 1,024 covered pixels need 1,024 clocks.
        assert_eq!(clocks_for_full_tile_triangle(&p512), 1024);
    }

    #[test]
    fn r20n_pair_produces_the_authors_example_nami() {
        let p = params();
        let w0 = Rasterizer::new(&p, 0).walk;
        let w1 = Rasterizer::new(&p, 1).walk;
        let xs0: Vec<u32> = (0..4).map(|i| w0.position(i).0).collect();
        let xs1: Vec<u32> = (0..4).map(|i| w1.position(i).0).collect();
        assert_eq!(xs0, [0, 20, 40, 60]);
        assert_eq!(xs1, [1, 21, 41, 61]);
        assert_eq!(w0.position(32), (0, 1));
        assert_eq!(w0.position(1023), (620, 31));
    }

    #[test]
    fn every_pixel_of_a_row_belongs_to_exactly_one_rasterizer() {
        for interleave in [PixelInterleave::R20n, PixelInterleave::Quad] {
            let mut p = params();
            p.pixel_interleave = interleave;
            let mut seen = vec![0u8; 640 * 32];
            for r in 0..20 {
                let w = Rasterizer::new(&p, r).walk;
                for pos in 0..1024 {
                    let (x, y) = w.position(pos);
                    seen[(y * 640 + x) as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{interleave}");
        }
    }

    #[test]
    fn quad_walk_is_2x2() {
        let mut p = params();
        p.pixel_interleave = PixelInterleave::Quad;
        let w = Rasterizer::new(&p, 2).walk;
        let first: Vec<(u32, u32)> = (0..6).map(|i| w.position(i)).collect();
        assert_eq!(
            first,
            [(64, 0), (65, 0), (64, 1), (65, 1), (66, 0), (67, 0)]
        );
    }

    #[test]
    fn shared_edges_are_drawn_once_and_colours_interpolate() {
        let a = Vertex::at(0.0, 0.0, [0, 0, 0]);
        let b = Vertex::at(8.0, 0.0, [255, 0, 0]);
        let c = Vertex::at(0.0, 8.0, [0, 255, 0]);
        let d = Vertex::at(8.0, 8.0, [0, 0, 255]);
        let t1 = TriangleSetup::new(&Triangle { v: [a, b, c] }).unwrap();
        let t2 = TriangleSetup::new(&Triangle { v: [b, d, c] }).unwrap();
        for y in 0..8 {
            for x in 0..8 {
                let n = t1.shade(x, y).is_some() as u32 + t2.shade(x, y).is_some() as u32;
                assert_eq!(n, 1, "pixel {x},{y}");
            }
        }
        // Centre (0.5, 0.5): weights 7/8 a, 1/16 b, 1/16 c.
        assert_eq!(t1.shade(0, 0), Some([16, 16, 0]));
    }

    #[test]
    fn area_divisor_equals_division() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let d = (next() >> (2 + next() % 62)).max(1) as i64;
            let div = AreaDivisor::new(d);
            for n in [
                0,
                1,
                d - 1,
                d,
                d + 1,
                (1 << 53) - 1,
                1 << 53,
                (next() >> 11) as i64,
                (next() >> (11 + next() % 52)) as i64,
                -((next() >> 20) as i64),
                i64::MAX,
            ] {
                assert_eq!(div.div(n), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn vertical_and_horizontal_culling() {
        let t = TriangleSetup::new(&Triangle {
            v: [
                Vertex::at(40.0, 40.0, [0; 3]),
                Vertex::at(45.0, 40.0, [0; 3]),
                Vertex::at(40.0, 45.0, [0; 3]),
            ],
        })
        .unwrap();
        assert!(!t.overlaps_rows(0, 32));
        assert!(t.overlaps_rows(32, 64));
        let mut p = params();
        // Columns 40..45 hit rasterizers 0..5 with R + 20N ...
        assert!(Rasterizer::new(&p, 0).walk.touches(&t));
        assert!(!Rasterizer::new(&p, 7).walk.touches(&t));
        // ... and only tile 1 (x 32..63) with quads.
        p.pixel_interleave = PixelInterleave::Quad;
        assert!(Rasterizer::new(&p, 1).walk.touches(&t));
        assert!(!Rasterizer::new(&p, 0).walk.touches(&t));
    }
}
