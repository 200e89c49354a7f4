//! The whole GPU, clock by clock: twenty rasterizers in groups of two, each
//! group feeding one SDN, AKB (four NMBs), SKE and ELT, all writing the
//! render cache, one tile row after the other.
//!
//! Order of events inside one clock of a group: the cache banks take pixels
//! from the ELT pixel FIFOs and the ELT routes the head Nami; the AKB selects
//! an NMB and the SKE issues; if every NMB was full at the start of the clock
//! the SDN and rasterizers are clock-gated, otherwise the rasterizers step,
//! the SDN packs and a finished Nami enters an NMB; the NMBs update their
//! valid masks at the end of the clock.
//!
//! A tile row ends when every block of every group is empty; its clock count
//! is what the report compares with the 204,800-clock budget. Each row
//! starts from an empty pipeline (the rasterizers render into one bank of
//! the double-buffered cache while HDMI scans the other); only the AKBs'
//! round-robin pointers carry over. Groups share no work, so by default
//! each group runs through every row on its own thread ([`SimOptions`]),
//! which gives exactly what stepping them together does.

use crate::akb::AkbStats;
use crate::elt::EltStats;
use crate::frame::FrameTiming;
use crate::group::{add_akb, add_elt, add_raster, add_sdn, add_ske, CacheTraffic};
pub use crate::group::{Framebuffer, ShaderGroup};
use crate::params::NamiParams;
use crate::raster::{RasterizerStats, TriangleSetup};
use crate::row_replay::{replay_is_exact, row_kinds, GroupStats, RowRecord, TrafficLog};
use crate::scene::Scene;
use crate::sdn::SdnStats;
use crate::shader::Program;
use crate::ske::SkeStats;
use std::collections::HashMap;
use std::ops::Range;

/// Why a simulation could not run or finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The shader does not fit the i-cache.
    #[error(
        "the shader has {len} instructions; the i-cache holds {capacity} (icache_instructions)"
    )]
    ShaderTooLong {
        /// Shader length.
        len: usize,
        /// i-cache size.
        capacity: u64,
    },
    /// Rows outside the screen were asked for.
    #[error("tile rows {start}..{end} are outside the screen's {rows} tile rows")]
    RowsOutOfRange {
        /// First row asked for.
        start: u64,
        /// End of the range.
        end: u64,
        /// Tile rows on screen.
        rows: u64,
    },
    /// The run would simulate more clocks than the model allows in one go.
    #[error("this run needs at least {clocks} clocks, more than the limit of {limit}; use fewer triangles or a smaller raster_clocks_per_triangle")]
    TooLong {
        /// Clocks needed (at least) or reached.
        clocks: u64,
        /// The limit.
        limit: u64,
    },
    /// No block made progress for a long time: a modelling defect, reported
    /// instead of hanging.
    #[error("tile row {row}: no block made progress for {clocks} clocks (deadlock in the model)")]
    Deadlock {
        /// The tile row.
        row: u64,
        /// Clocks without progress.
        clocks: u64,
    },
}

/// Everything the report needs from one simulated frame.
#[derive(Clone, Debug)]
pub struct FrameResult {
    /// The frame timing.
    pub timing: FrameTiming,
    /// Tile rows simulated.
    pub rows: Range<u64>,
    /// Clocks each simulated tile row took (0 for a row with no triangle).
    pub row_clocks: Vec<u64>,
    /// Triangles in the scene.
    pub triangles: usize,
    /// Triangles that reach at least one simulated tile row.
    pub triangles_drawn: usize,
    /// Triangles entered by the rasterizers, summed over tile rows (a
    /// triangle spanning two rows counts twice).
    pub triangle_rows: u64,
    /// Rasterizer counters, summed.
    pub raster: RasterizerStats,
    /// SDN counters, summed.
    pub sdn: SdnStats,
    /// AKB counters, summed.
    pub akb: AkbStats,
    /// SKE counters, summed.
    pub ske: SkeStats,
    /// ELT counters, summed.
    pub elt: EltStats,
    /// The rendered frame.
    pub framebuffer: Framebuffer,
}

impl FrameResult {
    /// The slowest simulated tile row.
    pub fn max_tile_row_clocks(&self) -> u64 {
        self.row_clocks.iter().copied().max().unwrap_or(0)
    }

    /// Clocks of all simulated rows.
    pub fn total_clocks(&self) -> u64 {
        self.row_clocks.iter().sum()
    }
}

/// Simulate a whole frame.
pub fn simulate(
    params: &NamiParams,
    scene: &Scene,
    program: &Program,
) -> Result<FrameResult, SimError> {
    simulate_rows(params, scene, program, 0..params.tile_rows())
}

/// Clocks without any progress after which the model reports a deadlock
/// (every stall the parameters allow is far shorter).
const DEADLOCK_CLOCKS: u64 = 1 << 22;

/// Most clocks one call simulates (minutes of host time).
pub const MAX_CLOCKS: u64 = 1 << 29;

/// Simulate the tile rows in `rows` (the others stay at the clear colour).
pub fn simulate_rows(
    params: &NamiParams,
    scene: &Scene,
    program: &Program,
    rows: Range<u64>,
) -> Result<FrameResult, SimError> {
    simulate_rows_with(params, scene, program, rows, &SimOptions::default())
}

/// [`simulate_rows`] with the simulation strategy chosen (the result is
/// the same whatever it is).
pub fn simulate_rows_with(
    params: &NamiParams,
    scene: &Scene,
    program: &Program,
    rows: Range<u64>,
    options: &SimOptions,
) -> Result<FrameResult, SimError> {
    if program.len() as u64 > params.icache_instructions {
        return Err(SimError::ShaderTooLong {
            len: program.len(),
            capacity: params.icache_instructions,
        });
    }
    if rows.start > rows.end || rows.end > params.tile_rows() {
        return Err(SimError::RowsOutOfRange {
            start: rows.start,
            end: rows.end,
            rows: params.tile_rows(),
        });
    }
    let setups_all: Vec<TriangleSetup> = scene
        .triangles
        .iter()
        .filter_map(TriangleSetup::new)
        .collect();
    let frame = Framebuffer::new(
        params.screen_width as usize,
        params.screen_height as usize,
        scene.clear,
    );
    let ts = params.tile_size as i64;
    let rows_y0 = rows.start as i64 * ts;
    let rows_y1 = rows.end as i64 * ts;
    let triangles_drawn = setups_all
        .iter()
        .filter(|s| rows_y1 > rows_y0 && s.overlaps_rows(rows_y0, rows_y1))
        .count();
    // The rasterizers alone need (triangles in the row) x (clocks per
    // triangle) per row: refuse runs that could not finish in reasonable time.
    let mut lower_bound = 0u64;
    for row in rows.clone() {
        let y0 = row as i64 * ts;
        let n = setups_all
            .iter()
            .filter(|s| s.overlaps_rows(y0, y0 + ts))
            .count() as u64;
        lower_bound =
            lower_bound.saturating_add(n.saturating_mul(params.raster_clocks_per_triangle));
    }
    if lower_bound > MAX_CLOCKS {
        return Err(SimError::TooLong {
            clocks: lower_bound,
            limit: MAX_CLOCKS,
        });
    }
    // The rows that have triangles, each with its vertically culled
    // triangles (only those reaching the row's pixel centres).
    let mut row_clocks = vec![0u64; (rows.end - rows.start) as usize];
    let mut triangle_rows = 0;
    let mut work: Vec<RowWork> = Vec::new();
    for row in rows.clone() {
        let y0 = row as i64 * ts;
        let setups: Vec<TriangleSetup> = setups_all
            .iter()
            .filter(|s| s.overlaps_rows(y0, y0 + ts))
            .copied()
            .collect();
        triangle_rows += setups.len() as u64;
        if !setups.is_empty() {
            work.push(RowWork { row, y0, setups });
        }
    }
    let mut result = FrameResult {
        timing: FrameTiming::new(params),
        rows: rows.clone(),
        row_clocks: Vec::new(),
        triangles: scene.triangles.len(),
        triangles_drawn,
        triangle_rows,
        raster: RasterizerStats::default(),
        sdn: SdnStats::default(),
        akb: AkbStats::default(),
        ske: SkeStats::default(),
        elt: EltStats::default(),
        framebuffer: frame,
    };
    let (row_kinds, repeats_later) =
        if options.parallel_groups && options.replay_repeated_rows && replay_is_exact(params) {
            row_kinds(work.iter().map(|w| (w.y0, &w.setups[..])))
        } else {
            (Vec::new(), Vec::new())
        };
    let ctx = RowContext {
        params,
        program,
        skip_idle: options.skip_idle,
        repeats_later,
        row_kinds,
    };
    let parallel_done = options.parallel_groups
        && simulate_groups_in_parallel(&ctx, scene.clear, &work, &mut result, &mut row_clocks)
            .is_some();
    if !parallel_done {
        // One set of blocks renders every row in turn, as the hardware does.
        let mut groups = new_groups(params);
        let mut seqs = vec![0u64; groups.len()];
        let mut total_clocks = 0u64;
        for w in &work {
            let limit = MAX_CLOCKS.saturating_sub(total_clocks);
            let end = run_row(
                &ctx,
                &mut groups,
                w,
                &mut result.framebuffer,
                &mut seqs,
                limit,
            );
            match end {
                RowEnd::Done(c) => {
                    total_clocks += c;
                    row_clocks[(w.row - rows.start) as usize] = c;
                }
                RowEnd::Limit(k) => {
                    return Err(SimError::TooLong {
                        clocks: total_clocks + k,
                        limit: MAX_CLOCKS,
                    })
                }
                RowEnd::Deadlock { stalled } => {
                    return Err(SimError::Deadlock {
                        row: w.row,
                        clocks: stalled,
                    })
                }
            }
        }
        for g in &groups {
            add_group(&mut result, g);
        }
    }
    result.row_clocks = row_clocks;
    Ok(result)
}

/// How [`simulate_rows_with`] goes about it. Every choice gives the same
/// result; the fields exist so tests can prove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Simulate the shader groups on all cores (rayon), each through every
    /// tile row. Rows are not independent (the AKBs' round-robin pointers
    /// carry over from one row to the next), but groups are: they share no
    /// work and draw disjoint pixels; all they share is the row's end, when
    /// the last of them is done. Implies skipping idle clocks.
    pub parallel_groups: bool,
    /// Skip the clocks of a group whose blocks are all empty (exact: such
    /// a clock only gives its SKE a null Nami, which is counted instead).
    pub skip_idle: bool,
    /// With `parallel_groups`: replay a tile row that repeats an earlier
    /// one (same triangle shapes, same round-robin state) from a record
    /// of that row instead of stepping it (see the `row_replay` module).
    pub replay_repeated_rows: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            parallel_groups: true,
            skip_idle: true,
            replay_repeated_rows: true,
        }
    }
}

/// What every row of one run shares.
struct RowContext<'a> {
    params: &'a NamiParams,
    program: &'a Program,
    skip_idle: bool,
    /// Per row of the work, whether a later row has the same triangle
    /// shapes, and the first row that has this row's: rows to record for
    /// a replay, and the record to replay. Empty when rows are not replayed.
    repeats_later: Vec<bool>,
    row_kinds: Vec<usize>,
}

/// One tile row with triangles.
struct RowWork {
    row: u64,
    y0: i64,
    setups: Vec<TriangleSetup>,
}

/// How a row's simulation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowEnd {
    /// Every block emptied after this many clocks.
    Done(u64),
    /// The clock limit was passed at this clock of the row.
    Limit(u64),
    /// No progress for `stalled` clocks.
    Deadlock { stalled: u64 },
}

fn new_groups(params: &NamiParams) -> Vec<ShaderGroup> {
    (0..params.group_count())
        .map(|g| ShaderGroup::new(params, g))
        .collect()
}

/// Simulate one tile row on `groups` until every block is empty, more
/// than `limit` clocks pass, or nothing progresses for `DEADLOCK_CLOCKS`.
fn run_row(
    ctx: &RowContext<'_>,
    groups: &mut [ShaderGroup],
    w: &RowWork,
    frame: &mut Framebuffer,
    seqs: &mut [u64],
    limit: u64,
) -> RowEnd {
    for g in groups.iter_mut() {
        for r in &mut g.rasterizers {
            r.start_row(w.y0 as u32, &w.setups, ctx.params.horizontal_culling);
        }
        g.akb.start_row();
        g.elt.start_row();
    }
    let mut clock = 0u64;
    let mut last_progress = (0u64, u64::MAX);
    // A group whose blocks are all empty stays so for the rest of the row
    // (groups share no work), and all its clock does is give its SKE a null
    // Nami: such clocks are skipped and their slots added when the row ends.
    let mut idle_since: Vec<Option<u64>> = groups
        .iter()
        .map(|g| (ctx.skip_idle && g.is_done()).then_some(0))
        .collect();
    let end = loop {
        for ((g, idle), seq) in groups.iter_mut().zip(&idle_since).zip(seqs.iter_mut()) {
            if idle.is_none() {
                g.clock(clock, &w.setups, ctx.program, frame, seq, &mut ());
            }
        }
        clock += 1;
        let mut all_done = true;
        for (g, idle) in groups.iter().zip(idle_since.iter_mut()) {
            if idle.is_none() {
                if !g.is_done() {
                    all_done = false;
                } else if ctx.skip_idle {
                    *idle = Some(clock);
                }
            }
        }
        if all_done {
            break RowEnd::Done(clock);
        }
        if clock > limit {
            break RowEnd::Limit(clock);
        }
        if clock % 65_536 == 0 {
            let progress: u64 = groups.iter().map(ShaderGroup::progress).sum();
            if progress != last_progress.1 {
                last_progress = (clock, progress);
            } else if clock - last_progress.0 >= DEADLOCK_CLOCKS {
                break RowEnd::Deadlock {
                    stalled: clock - last_progress.0,
                };
            }
        }
    };
    for (g, idle) in groups.iter_mut().zip(&idle_since) {
        if let Some(since) = idle {
            g.ske.stats.slots += clock - since;
            g.ske.stats.null_nami += clock - since;
        }
    }
    end
}

/// One group's share of a frame, simulated on its own.
struct GroupFrame {
    /// The group after the last row (its counters hold the whole frame).
    group: ShaderGroup,
    /// Per row of `work`, the clock after which the group was done.
    done: Vec<u64>,
    /// The frame as this group drew it (only its own pixels differ from
    /// the clear colour's).
    frame: Framebuffer,
}

/// Simulate group `index` through every row, or `None` if a row of it
/// passes the clock limit or stalls: the caller then runs the frame the
/// reference way, which reports that error exactly as it always has.
fn run_group_rows(
    ctx: &RowContext<'_>,
    index: usize,
    work: &[RowWork],
    clear: [u8; 3],
) -> Option<GroupFrame> {
    let params = ctx.params;
    let mut group = ShaderGroup::new(params, index);
    let mut frame = Framebuffer::new(
        params.screen_width as usize,
        params.screen_height as usize,
        clear,
    );
    let mut seq = 0u64;
    let mut done = Vec::with_capacity(work.len());
    // The counters over all rows; the group's own hold the current row's only
    // (what a record of the row keeps).
    let mut totals = GroupStats::take(&mut group);
    // Stepped rows that may repeat, by (row kind, AKB round-robin state).
    let mut records: HashMap<(usize, Vec<usize>), RowRecord> = HashMap::new();
    let mut recorded_pixels = 0usize;
    for (i, w) in work.iter().enumerate() {
        for r in &mut group.rasterizers {
            r.start_row(w.y0 as u32, &w.setups, params.horizontal_culling);
        }
        group.akb.start_row();
        group.elt.start_row();
        let key = ctx
            .row_kinds
            .get(i)
            .map(|&kind| (kind, group.akb.round_robin()));
        if let Some(record) = key.as_ref().and_then(|k| records.get(k)) {
            record.replay(
                &mut group,
                w.y0,
                &w.setups,
                ctx.program,
                &mut frame,
                &mut seq,
            );
            done.push(record.done);
            totals.add(&GroupStats::take(&mut group));
            continue;
        }
        let record_row =
            ctx.repeats_later.get(i) == Some(&true) && recorded_pixels < MAX_RECORDED_PIXELS;
        let first_seq = seq;
        let mut log = record_row.then(|| TrafficLog::new(first_seq, w.y0));
        let clocks = match &mut log {
            Some(log) => step_row(ctx, &mut group, w, &mut frame, &mut seq, log)?,
            None => step_row(ctx, &mut group, w, &mut frame, &mut seq, &mut ())?,
        };
        done.push(clocks);
        let stats = GroupStats::take(&mut group);
        totals.add(&stats);
        if let (Some(log), Some(key)) = (log, key) {
            let round_robin = group.akb.round_robin();
            if let Some(record) = RowRecord::new(
                log,
                clocks,
                stats,
                round_robin,
                seq,
                ctx.program,
                frame.width,
            ) {
                recorded_pixels += record.size();
                records.insert(key, record);
            }
        }
    }
    totals.put(&mut group);
    Some(GroupFrame { group, done, frame })
}

/// Most pixels of recorded rows one group keeps (16 bytes each).
const MAX_RECORDED_PIXELS: usize = 1 << 21;

/// Step one tile row of `group` (started on the row) until it is done;
/// `None` if it passes the clock limit or stalls.
fn step_row(
    ctx: &RowContext<'_>,
    group: &mut ShaderGroup,
    w: &RowWork,
    frame: &mut Framebuffer,
    seq: &mut u64,
    traffic: &mut impl CacheTraffic,
) -> Option<u64> {
    let mut clock = 0u64;
    let mut last_progress = (0u64, u64::MAX);
    loop {
        group.clock(clock, &w.setups, ctx.program, frame, seq, traffic);
        clock += 1;
        if group.is_done() {
            return Some(clock);
        }
        if clock > MAX_CLOCKS {
            return None;
        }
        if clock % 65_536 == 0 {
            let progress = group.progress();
            if progress != last_progress.1 {
                last_progress = (clock, progress);
            } else if clock - last_progress.0 >= DEADLOCK_CLOCKS {
                return None;
            }
        }
    }
}

/// The groups on all cores, each through every row. A row ends when its
/// last group is done; a group done earlier only gives its SKE a null Nami
/// each remaining clock of the row, which is counted here. `None` when a
/// group hit a limit or the frame as a whole passes the clock limit (see
/// [`run_group_rows`]).
fn simulate_groups_in_parallel(
    ctx: &RowContext<'_>,
    clear: [u8; 3],
    work: &[RowWork],
    result: &mut FrameResult,
    row_clocks: &mut [u64],
) -> Option<()> {
    use rayon::prelude::*;
    let groups: Vec<GroupFrame> = (0..ctx.params.group_count())
        .into_par_iter()
        .map(|g| run_group_rows(ctx, g, work, clear))
        .collect::<Option<Vec<_>>>()?;
    let mut total_clocks = 0u64;
    let rows_start = result.rows.start;
    let mut idle = vec![0u64; groups.len()];
    for (i, w) in work.iter().enumerate() {
        let clocks = groups.iter().map(|g| g.done[i]).max().unwrap_or(0);
        // The reference run checks the limit after every clock of a row but
        // its last; past it, let that run report the error.
        if clocks >= 2 && total_clocks + clocks - 1 > MAX_CLOCKS {
            return None;
        }
        total_clocks += clocks;
        row_clocks[(w.row - rows_start) as usize] = clocks;
        for (g, idle) in groups.iter().zip(idle.iter_mut()) {
            *idle += clocks - g.done[i];
        }
    }
    for (mut g, idle) in groups.into_iter().zip(idle) {
        g.group.ske.stats.slots += idle;
        g.group.ske.stats.null_nami += idle;
        add_group(result, &g.group);
        result.framebuffer.merge(&g.frame);
    }
    Some(())
}

fn add_group(result: &mut FrameResult, g: &ShaderGroup) {
    for r in &g.rasterizers {
        add_raster(&mut result.raster, &r.stats);
    }
    add_sdn(&mut result.sdn, &g.sdn.stats);
    add_akb(&mut result.akb, &g.akb.stats);
    add_ske(&mut result.ske, &g.ske.stats);
    add_elt(&mut result.elt, &g.elt.stats);
}
