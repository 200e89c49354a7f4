//! Tile rows that repeat: a row whose triangles have the same shapes as an
//! earlier row's (the same edges relative to the row, colours aside), met
//! by a shader group in the same round-robin state, takes exactly the
//! clocks the earlier row took and moves every counter the same way: the
//! model's timing never depends on colours (the shader is a fixed list of
//! instructions; only coverage and the blocks' state decide who moves
//! when). Such a row is not stepped clock by clock again: the group
//! replays it from a record of the first one, which keeps the order in
//! which the row's pixels read and wrote the render cache, and computes
//! only the data (interpolated colours, previous colours, the shader).
//!
//! The shader runs once per pixel in the replay, all instructions in order;
//! the SKE runs the same instructions spread over its issues, which is the
//! same as long as it always sees a Nami's latest program counter. The
//! AKB's round robin guarantees that when there are at least as many NMBs
//! as pipeline clocks ([`replay_is_exact`]); otherwise rows are always
//! stepped.

use crate::akb::AkbStats;
use crate::elt::{EltStats, ExportPixel};
use crate::group::{CacheTraffic, Framebuffer, ShaderGroup};
use crate::params::NamiParams;
use crate::raster::{RasterPixel, RasterizerStats, TriangleSetup};
use crate::sdn::SdnStats;
use crate::shader::{Bank, Program, Reg, RegisterFile};
use crate::ske::SkeStats;
use crate::LANES;

/// Whether replaying a row gives exactly what stepping it gives (see the
/// module documentation).
pub(crate) fn replay_is_exact(params: &NamiParams) -> bool {
    params.nmb_count >= params.ske_pipeline_clocks.max(1)
}

/// For each row (its line `y0` and its vertically culled triangles), the
/// index of the first row whose triangles have the same shapes; and for
/// each row, whether a later row has its shapes.
pub(crate) fn row_kinds<'a>(
    rows: impl Iterator<Item = (i64, &'a [TriangleSetup])>,
) -> (Vec<usize>, Vec<bool>) {
    let mut shapes: Vec<Vec<[i64; 14]>> = Vec::new();
    let mut kinds = Vec::new();
    for (i, (y0, setups)) in rows.enumerate() {
        let shape: Vec<[i64; 14]> = setups.iter().map(|s| s.shape_in_row(y0)).collect();
        let kind = shapes.iter().position(|s| *s == shape).unwrap_or(i);
        shapes.push(if kind == i { shape } else { Vec::new() });
        kinds.push(kind);
    }
    let mut later = vec![false; kinds.len()];
    let mut seen_after = std::collections::HashSet::new();
    for i in (0..kinds.len()).rev() {
        later[i] = !seen_after.insert(kinds[i]);
    }
    (kinds, later)
}

/// Every counter of one shader group.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupStats {
    raster: Vec<RasterizerStats>,
    sdn: SdnStats,
    akb: AkbStats,
    ske: SkeStats,
    elt: EltStats,
}

impl GroupStats {
    /// Take the group's counters, leaving them at zero.
    pub(crate) fn take(g: &mut ShaderGroup) -> GroupStats {
        GroupStats {
            raster: g
                .rasterizers
                .iter_mut()
                .map(|r| std::mem::take(&mut r.stats))
                .collect(),
            sdn: std::mem::take(&mut g.sdn.stats),
            akb: std::mem::take(&mut g.akb.stats),
            ske: std::mem::take(&mut g.ske.stats),
            elt: std::mem::take(&mut g.elt.stats),
        }
    }

    /// Put these counters into the group (replacing its own).
    pub(crate) fn put(&self, g: &mut ShaderGroup) {
        for (r, s) in g.rasterizers.iter_mut().zip(&self.raster) {
            r.stats = *s;
        }
        g.sdn.stats = self.sdn;
        g.akb.stats = self.akb;
        g.ske.stats = self.ske;
        g.elt.stats = self.elt;
    }

    /// Add another set of the same group's counters.
    pub(crate) fn add(&mut self, other: &GroupStats) {
        use crate::group::{add_akb, add_elt, add_raster, add_sdn, add_ske};
        if self.raster.is_empty() {
            self.raster = vec![RasterizerStats::default(); other.raster.len()];
        }
        for (a, b) in self.raster.iter_mut().zip(&other.raster) {
            add_raster(a, b);
        }
        add_sdn(&mut self.sdn, &other.sdn);
        add_akb(&mut self.akb, &other.akb);
        add_ske(&mut self.ske, &other.ske);
        add_elt(&mut self.elt, &other.elt);
    }
}

/// Bit of an event that marks a write; the other bits hold the pixel's
/// number in the row (`seq` minus the row's first), below [`MAX_PIXELS`].
const WRITE: u32 = 1 << 31;
const MAX_PIXELS: u64 = 1 << 31;

/// Most pixels one record keeps (16 bytes each); a longer row is simply
/// not recorded.
const MAX_RECORDED_PIXELS: usize = 1 << 21;

/// Where a read pixel is: its triangle (index into the row's triangles),
/// x and line within the tile row.
#[derive(Clone, Copy, Debug)]
struct ReadPixel {
    triangle: u32,
    x: u16,
    line: u16,
}

/// The render cache traffic of one row, as it happens.
pub(crate) struct TrafficLog {
    /// `seq` of the row's first pixel.
    first_seq: u64,
    /// The row's first line.
    y0: i64,
    /// Reads (the pixel's number) and writes ([`WRITE`] and the number).
    events: Vec<u32>,
    /// The pixels read, in the order of the read events.
    reads: Vec<ReadPixel>,
    /// Set when the row turned out too long to record.
    overflowed: bool,
}

impl TrafficLog {
    /// A log for a row starting at line `y0` whose first pixel will be `first_seq`.
    pub(crate) fn new(first_seq: u64, y0: i64) -> TrafficLog {
        TrafficLog {
            first_seq,
            y0,
            events: Vec::new(),
            reads: Vec::new(),
            overflowed: false,
        }
    }
}

impl CacheTraffic for TrafficLog {
    #[inline]
    fn read(&mut self, pixel: &RasterPixel) {
        if self.reads.len() >= MAX_RECORDED_PIXELS {
            self.overflowed = true;
            return;
        }
        self.events.push((pixel.seq - self.first_seq) as u32);
        self.reads.push(ReadPixel {
            triangle: pixel.triangle,
            x: pixel.x,
            line: (i64::from(pixel.y) - self.y0) as u16,
        });
    }

    #[inline]
    fn write(&mut self, seq: u64) {
        if !self.overflowed {
            self.events.push(WRITE | (seq - self.first_seq) as u32);
        }
    }
}

/// One stepped row of one group: what replaying it needs.
pub(crate) struct RowRecord {
    /// Clocks until the group was done.
    pub(crate) done: u64,
    /// The counters' increase over the row.
    pub(crate) stats: GroupStats,
    /// The AKB's round-robin state at the row's end.
    pub(crate) round_robin: Vec<usize>,
    /// Pixels the group sent.
    pixels: u64,
    traffic: RowTraffic,
}

/// What a replay of a row does to the render cache.
enum RowTraffic {
    /// Every read and write in order: a shader that reads the previous
    /// colour needs them.
    InOrder {
        /// Reads (the pixel's number) and writes ([`WRITE`] and the number).
        events: Vec<u32>,
        /// The pixels read, in the order of the read events.
        reads: Vec<ReadPixel>,
    },
    /// Otherwise the reads and writes only move the cache's bookkeeping
    /// (in-flight counts, newest writes, stale reads, out-of-order
    /// writes), the same for every replay, and a pixel's colour is its
    /// last write's: their end suffices.
    LastWrites(CacheEnd),
}

/// The render cache's state after a row, relative to the row, for
/// addresses nothing touched before it (each address belongs to one row).
struct CacheEnd {
    /// Stale previous-colour reads during the row.
    stale_reads: u64,
    /// Out-of-order writes during the row.
    out_of_order_writes: u64,
    /// Every address the row touched.
    addresses: Vec<AddressEnd>,
}

/// One address at the end of a row.
struct AddressEnd {
    x: u16,
    line: u16,
    /// Pixels still in flight.
    in_flight: u16,
    /// 1 + the newest written pixel's number in the row (0: none).
    last_seq: u64,
    /// The pixel written last.
    last_write: Option<ReadPixel>,
}

impl CacheEnd {
    /// Run the row's traffic over an empty cache of `width` pixels a line.
    fn new(events: &[u32], reads: &[ReadPixel], width: usize) -> CacheEnd {
        let lines = reads
            .iter()
            .map(|r| usize::from(r.line) + 1)
            .max()
            .unwrap_or(0);
        let mut in_flight = vec![0u16; lines * width];
        let mut last_seq = vec![0u64; lines * width];
        let mut last_write = vec![u32::MAX; lines * width];
        let mut touched = vec![false; lines * width];
        let mut read_of = vec![0u32; reads.len()];
        let (mut stale_reads, mut out_of_order_writes) = (0, 0);
        let mut next_read = 0u32;
        let at = |r: &ReadPixel| usize::from(r.line) * width + usize::from(r.x);
        // The bookkeeping of Framebuffer::note_read and note_write.
        for &event in events {
            let n = (event & !WRITE) as usize;
            if event & WRITE != 0 {
                let i = at(&reads[read_of[n] as usize]);
                in_flight[i] = in_flight[i].saturating_sub(1);
                if n as u64 + 1 < last_seq[i] {
                    out_of_order_writes += 1;
                } else {
                    last_seq[i] = n as u64 + 1;
                }
                last_write[i] = read_of[n];
            } else {
                read_of[n] = next_read;
                let i = at(&reads[next_read as usize]);
                next_read += 1;
                if in_flight[i] > 0 {
                    stale_reads += 1;
                }
                in_flight[i] = in_flight[i].saturating_add(1);
                touched[i] = true;
            }
        }
        let addresses = (0..lines * width)
            .filter(|&i| touched[i])
            .map(|i| AddressEnd {
                x: (i % width) as u16,
                line: (i / width) as u16,
                in_flight: in_flight[i],
                last_seq: last_seq[i],
                last_write: (last_write[i] != u32::MAX).then(|| reads[last_write[i] as usize]),
            })
            .collect();
        CacheEnd {
            stale_reads,
            out_of_order_writes,
            addresses,
        }
    }
}

impl RowRecord {
    /// The record of a row stepped with `log` listening, for `program`
    /// and a cache `width` pixels wide, or `None` if the log overflowed.
    pub(crate) fn new(
        log: TrafficLog,
        done: u64,
        stats: GroupStats,
        round_robin: Vec<usize>,
        last_seq: u64,
        program: &Program,
        width: usize,
    ) -> Option<RowRecord> {
        let pixels = last_seq - log.first_seq;
        if log.overflowed || pixels >= MAX_PIXELS {
            return None;
        }
        debug_assert_eq!(log.reads.len() as u64, pixels);
        let traffic = if reads_previous_colour(program) {
            RowTraffic::InOrder {
                events: log.events,
                reads: log.reads,
            }
        } else {
            RowTraffic::LastWrites(CacheEnd::new(&log.events, &log.reads, width))
        };
        Some(RowRecord {
            done,
            stats,
            round_robin,
            pixels,
            traffic,
        })
    }

    /// Memory the record holds, in pixels of 16 bytes.
    pub(crate) fn size(&self) -> usize {
        match &self.traffic {
            RowTraffic::InOrder { reads, .. } => reads.len(),
            RowTraffic::LastWrites(end) => end.addresses.len(),
        }
    }

    /// Replay the row starting at line `y0` on `group` (its counters at
    /// zero): the render cache sees the same reads and writes in the same
    /// order as stepping the row gives, with this row's colours; the
    /// counters and the AKB end as stepping leaves them.
    pub(crate) fn replay(
        &self,
        group: &mut ShaderGroup,
        y0: i64,
        setups: &[TriangleSetup],
        program: &Program,
        frame: &mut Framebuffer,
        seq: &mut u64,
    ) {
        match &self.traffic {
            RowTraffic::InOrder { events, reads } => {
                replay_in_order(events, reads, y0, setups, program, frame, *seq, self.pixels);
            }
            RowTraffic::LastWrites(end) => {
                replay_last_writes(end, y0, setups, program, frame, *seq)
            }
        }
        *seq += self.pixels;
        self.stats.put(group);
        group
            .akb
            .skip_row(&self.round_robin, self.stats.akb.nami_added);
    }
}

/// Whether the shader reads the previous colour (b0..b2).
fn reads_previous_colour(program: &Program) -> bool {
    let previous = [0, 1, 2].map(|index| Reg {
        bank: Bank::B,
        index,
    });
    program.reads_any(&previous)
}

/// A shader that ignores the previous colour: the cache ends as the row
/// left it, and only each address's last write is shaded.
fn replay_last_writes(
    end: &CacheEnd,
    y0: i64,
    setups: &[TriangleSetup],
    program: &Program,
    frame: &mut Framebuffer,
    first_seq: u64,
) {
    frame.stale_previous_reads += end.stale_reads;
    frame.out_of_order_writes += end.out_of_order_writes;
    let width = frame.width;
    let mut batch = Batch::default();
    for a in &end.addresses {
        let y = (y0 + i64::from(a.line)) as u16;
        let i = usize::from(y) * width + usize::from(a.x);
        let last_seq = if a.last_seq == 0 {
            0
        } else {
            first_seq + a.last_seq
        };
        frame.settle(i, a.in_flight, last_seq);
        if let Some(w) = a.last_write {
            let colour = setups[w.triangle as usize].colour_at(i64::from(w.x), i64::from(y));
            batch.add(i, colour, [0; 3], w.x, y);
            if batch.count == LANES {
                batch.run(program, |i, colour| frame.set(i, colour));
            }
        }
    }
    if batch.count > 0 {
        batch.run(program, |i, colour| frame.set(i, colour));
    }
}

/// The cache traffic with every pixel shaded when it reads its previous
/// colour, as the SKE would.
#[allow(clippy::too_many_arguments)]
fn replay_in_order(
    events: &[u32],
    reads: &[ReadPixel],
    y0: i64,
    setups: &[TriangleSetup],
    program: &Program,
    frame: &mut Framebuffer,
    first_seq: u64,
    pixel_count: u64,
) {
    // Per pixel of the row: x, y and the exported colour.
    let mut pixels = vec![(0u16, 0u16, 0u16); pixel_count as usize];
    // Pixels whose previous colour was read but whose shader has not
    // run yet: run eight at a time (lanes are independent).
    let mut batch = Batch::default();
    let mut reads = reads.iter();
    for &event in events {
        let n = (event & !WRITE) as usize;
        if event & WRITE != 0 {
            if batch.holds(n) {
                batch.run(program, |n, colour| pixels[n].2 = colour);
            }
            let (x, y, colour) = pixels[n];
            frame.write(&ExportPixel {
                x,
                y,
                colour,
                bank: 0,
                seq: first_seq + n as u64,
            });
        } else {
            let Some(read) = reads.next() else {
                unreachable!("a record holds one read pixel per read event");
            };
            let y = (y0 + i64::from(read.line)) as u16;
            let colour = setups[read.triangle as usize].colour_at(i64::from(read.x), i64::from(y));
            let previous = frame.read_for_raster(read.x, y);
            pixels[n] = (read.x, y, 0);
            batch.add(n, colour, previous, read.x, y);
            if batch.count == LANES {
                batch.run(program, |n, colour| pixels[n].2 = colour);
            }
        }
    }
    debug_assert_eq!(batch.count, 0);
}

/// Up to eight pixels' launch registers.
#[derive(Default)]
struct Batch {
    registers: RegisterFile,
    /// Pixel numbers of lanes `0..count`.
    pixels: [usize; LANES],
    count: usize,
}

impl Batch {
    fn holds(&self, n: usize) -> bool {
        self.pixels[..self.count].contains(&n)
    }

    fn add(&mut self, n: usize, colour: [u8; 3], previous: [u8; 3], x: u16, y: u16) {
        self.registers.launch(self.count, colour, previous, x, y);
        self.pixels[self.count] = n;
        self.count += 1;
    }

    /// Run the shader on the batch and hand each pixel's exported colour
    /// to `store`.
    fn run(&mut self, program: &Program, mut store: impl FnMut(usize, u16)) {
        let mask = if self.count >= LANES {
            0xff
        } else {
            (1u8 << self.count) - 1
        };
        let values = program.run(&mut self.registers, mask);
        for (&n, value) in self.pixels[..self.count].iter().zip(values) {
            store(n, value);
        }
        self.registers = RegisterFile::default();
        self.count = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    fn rows_of(params: &NamiParams, scene: &Scene) -> Vec<(i64, Vec<TriangleSetup>)> {
        let setups: Vec<TriangleSetup> = scene
            .triangles
            .iter()
            .filter_map(TriangleSetup::new)
            .collect();
        let ts = params.tile_size as i64;
        (0..params.tile_rows() as i64)
            .map(|row| {
                let y0 = row * ts;
                let row_setups = setups
                    .iter()
                    .filter(|s| s.overlaps_rows(y0, y0 + ts))
                    .copied()
                    .collect();
                (y0, row_setups)
            })
            .collect()
    }

    #[test]
    fn rows_of_the_same_triangles_repeat_whatever_their_colours() {
        let params = NamiParams::seed().unwrap();
        let scene = Scene::builtin("builtin:rows", &params).unwrap();
        let rows = rows_of(&params, &scene);
        let (kinds, later) = row_kinds(rows.iter().map(|(y0, s)| (*y0, &s[..])));
        assert!(kinds.iter().all(|&k| k == 0));
        assert_eq!(later.iter().filter(|&&l| !l).count(), 1);
        assert!(!later[later.len() - 1]);
        // The full-screen gradient's diagonal edge crosses each row elsewhere.
        let scene = Scene::builtin("builtin:fullscreen", &params).unwrap();
        let rows = rows_of(&params, &scene);
        let (kinds, later) = row_kinds(rows.iter().map(|(y0, s)| (*y0, &s[..])));
        assert_eq!(kinds, (0..kinds.len()).collect::<Vec<_>>());
        assert!(later.iter().all(|&l| !l));
    }

    #[test]
    fn replay_shades_only_last_writes_when_the_shader_ignores_the_previous_colour() {
        let previous = [0, 1, 2].map(|index| Reg {
            bank: Bank::B,
            index,
        });
        assert!(!Program::default_shader().reads_any(&previous));
        let blend = Program::parse(include_str!("../../../examples/nami/blend.s")).unwrap();
        assert!(blend.reads_any(&previous));
        // Past the export nothing is read.
        let early = Program::parse("export a0").unwrap();
        assert!(!early.reads_any(&previous));
        assert!(Program::parse("mov a5, b2\nexport a5")
            .unwrap()
            .reads_any(&previous));
    }

    #[test]
    fn replay_needs_as_many_nmbs_as_pipeline_clocks() {
        let mut params = NamiParams::seed().unwrap();
        assert!(replay_is_exact(&params));
        params.nmb_count = 3;
        assert!(!replay_is_exact(&params));
    }
}
