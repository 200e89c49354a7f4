//! The compute unit, clock by clock.
//!
//! Each clock: memory and unit events that fall due are applied (counters
//! fall), the dispatcher may launch a wave, every SIMD whose issue turn it
//! is issues at most one op per category from different waves (oldest
//! first), then waves on free ops (satisfied waits, nops, barriers, end of
//! program) advance, and finished waves leave. Units are servers with a
//! `free_at` time, so the loop never counts down per clock.

use crate::config::DispatchConfig;
use crate::error::{SimError, StuckWave};
use crate::observer::{IssueEvent, NoObserver, Observer};
use crate::occupancy::Occupancy;
use crate::ops::{op_flags, OpCursor, OpKind, OpSource, SimProgram, SlotRange, NONE};
use crate::stats::{SimStats, StallCause};
use shadersim_arch::{ArchSpec, ReturnOrder, UnitKind, UnitScope};
use shadersim_asm::{Program, Stage};
use shadersim_isa::{Counter, DepCtr};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

mod build;
mod clock_skip;
mod dispatch;
mod finish;
mod issue;
mod probe;
mod scoreboard;
mod stall_causes;

pub use probe::{simulate_probe, ProbeRun};
use scoreboard::{WaveTrack, SA_SDST, VA_SDST, VA_VCC, VA_VDST, VM_VSRC};

/// Everything one simulation needs.
pub struct SimInput<'a> {
    /// The program as read (for error messages).
    pub program: &'a Program,
    /// The compiled program.
    pub sim: &'a SimProgram,
    /// The walks the waves' traces stream from (the one `sim` was compiled
    /// with).
    pub walk: &'a shadersim_trace::TraceWalk<'a>,
    /// The model.
    pub arch: &'a ArchSpec,
    /// Dispatch parameters.
    pub dispatch: &'a DispatchConfig,
    /// Occupancy.
    pub occupancy: &'a Occupancy,
    /// Stop with an error beyond this many clocks.
    pub max_clocks: u64,
    /// Jump over clocks in which nothing can happen, and let a SIMD whose
    /// turns can change nothing sleep until something does (statistics
    /// are accounted exactly as if each clock and turn had been stepped;
    /// tests compare).
    pub skip_idle: bool,
}

const NCOUNTERS: usize = 10;
/// `Wave::ready_at` of a wave sitting on a counter wait: it sleeps until one
/// of its counters falls (an event wakes it), so the issue loop skips it
/// (`ComputeUnit::event_sleepers`, without reading the wave).
const WAIT_SLEEP: u64 = u64::MAX;
const MAX_UNITS: usize = 16;
/// The mask of the first `n` positions of a SIMD's `resident` list (at
/// most 64: the position masks are `u64`).
#[inline(always)]
fn positions(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// `ComputeUnit::dormant_from` of a SIMD that is not dormant.
const NOT_DORMANT: u64 = u64::MAX;
/// `Wave::cat` of a wave whose op is not a unit op with an issue category.
const NO_CAT: u8 = u8::MAX;

/// The fields of a static op the cycle loop reads, packed together.
#[derive(Debug, Clone, Copy)]
struct HotOp {
    kind: OpKind,
    /// Its unit is a pipe (else a queue), so the issue check need not
    /// read the unit.
    pipe: bool,
    category: u8,
    unit: u8,
    also_unit: u8,
    cost: u32,
    also_cost: u32,
    result_delay: u32,
    inc: u16,
    dec_at_service: u16,
    flags: u16,
    wait: [u8; NCOUNTERS],
    /// The counters `wait` limits (`wait[c] != u8::MAX`), one bit each: a
    /// wait usually names one or two of the ten.
    wait_mask: u16,
    /// Scoreboard slots read: `slots[reads.0 .. reads.0 + reads.1]`.
    reads: (u32, u16),
    /// Scoreboard slots written.
    writes: (u32, u16),
    /// Latency after service; `u32::MAX`: the unit's.
    latency: u32,
}

/// One wave slot of `ComputeUnit::waves`: a resident wave, or a retired
/// one whose last unit releases are still in flight (`draining`). The
/// fields the issue scan and check read come first, laid out in that
/// order, and a wave starts a cache line: the scan visits many waves each
/// clock, and with its fields in one line each visit costs one line, not
/// two.
#[derive(Debug, Clone)]
#[repr(C, align(64))]
struct Wave<'a> {
    ready_at: u64,
    /// Scoreboard and outstanding writes (models with a scoreboard).
    track: Option<Box<WaveTrack>>,
    /// The op the wave is on, kept with the wave so the issue loop reads
    /// one place.
    opi: u32,
    /// The op before it (`NONE_OP` at the first).
    prev_opi: u32,
    simd: u32,
    /// The compute unit it runs on (`[dispatch] cus`).
    cu: u32,
    /// The issue category of the op at `pc` if it is a unit op (`NO_CAT`
    /// otherwise), so the issue loop can pass over a wave that already
    /// sits on a category taken this turn without reading the op.
    cat: u8,
    /// Sitting on its op unable to issue (since it first failed to).
    sitting: bool,
    /// Its position in its SIMD's `resident` list (age order).
    pos: u8,
    at_barrier: bool,
    cnt: [u8; NCOUNTERS],
    unit_in_flight: [u16; MAX_UNITS],
    /// Retired, but ops it issued are still in flight on a unit (ops that
    /// count no counter: the end of program waits only for counters), so
    /// their events still name this slot: it is reused once they have
    /// come back. (In the padding after `unit_in_flight`, which the
    /// events that clear it read.)
    draining: bool,
    /// Its group's slot in `ComputeUnit::groups`.
    group: u32,
    barrier_gen: u32,
    launch: u64,
    /// The wave's launch-order number: the wave observers, statistics,
    /// timelines, errors, traces and address streams name (its slot is
    /// only where it lives while resident).
    id: u32,
    /// Dynamic VGPR mode: blocks held (the slot's reserved one included)
    /// and how many of them came from the reserve.
    vgpr_blocks: u32,
    reserve_blocks: u32,
    /// Why the wave last failed to issue or pass its op (a `StallCause`
    /// row position), since when that is charged, and the clock at which
    /// only time ends it (`u64::MAX`: an event or another wave ends it).
    /// Last in the wave: the issue scan never reads them.
    cause: u16,
    cause_since: u64,
    cause_until: u64,
    /// Where the wave is in its trace (always `Some`: an `Option` only so
    /// that a launch can take it out of a retired wave's slot and restart
    /// it, reusing its buffers). In the wave, not beside it: the issue
    /// reaches it from the wave it already holds.
    cursor: Option<OpCursor<'a>>,
    /// Padding to an odd number of cache lines (448 bytes, 7 lines): the
    /// compiler indexes `waves` with one multiply (at 384 bytes, 3 x 128,
    /// it took a shift and an add, 1% more instructions in the cycle
    /// loop), and the waves' first lines, the ones the scan reads, spread
    /// over every set of the data cache.
    _odd_lines: [u8; 64],
}

// (An edit that changes the wave's size should keep it an odd number of
// lines: see `Wave::_odd_lines`.)
const _: () = assert!(std::mem::size_of::<Wave<'static>>() / 64 % 2 == 1);

/// `Wave::prev_opi` of a wave on its first op.
const NONE_OP: u32 = u32::MAX;

impl Wave<'_> {
    /// Move on to the next op of the trace (streamed from `cursor`), keeping
    /// `opi` and `cat` with it.
    #[inline(always)]
    fn advance(&mut self, sim: &SimProgram, issue_cat: &[u8]) {
        self.prev_opi = self.opi;
        let cursor = self.cursor.as_mut().expect("a resident wave walks");
        // Past the end of program (never asked: a wave on its end leaves).
        self.opi = cursor.next_op(sim).unwrap_or(sim.implicit_end);
        self.cat = issue_cat.get(self.opi as usize).copied().unwrap_or(NO_CAT);
    }
}

/// One SIMD's VGPR blocks in dynamic VGPR mode (rdna-model.md 6).
#[derive(Debug, Clone)]
struct VgprPool {
    free: u32,
    reserve_free: u32,
    /// The wave drawing on the reserve (one at a time), by slot.
    reserve_holder: Option<u32>,
    /// Blocks held by resident waves.
    in_use: u32,
}

/// The sitting bookkeeping of one op, in one place: the waves sitting on
/// it now, the clocks at least one sat (`SimStats::op_sat`), the clocks
/// its waves sat charged to arbitration, and to one other cause (the one
/// charged last: an op's waves mostly stall for one reason), all entries
/// of its `op_cause_clocks` row. Sitting down, rising and charging a
/// cause each touch this record, so these are kept here during the run
/// (32 bytes, aligned: one line) rather than in the statistics' arrays
/// (more lines per op), and `finish` moves them there.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
struct OpSit {
    count: u32,
    /// The cause `cause_clocks` counts (a `StallCause` row position;
    /// meaningless while `cause_clocks` is 0).
    cause: u16,
    /// The clocks at least one wave sat, kept as a running sum that the
    /// first wave to sit subtracts its clock from and the last to rise
    /// adds its clock to (wrapping: exact once no wave sits, as at the
    /// end of a run), so no start clock need be kept.
    sat: u64,
    arbitration: u64,
    cause_clocks: u64,
}

#[derive(Debug, Clone, Default)]
struct Group {
    /// The compute unit its waves run on.
    cu: u32,
    /// Its dispatch order (errors name it so; its slot in
    /// `ComputeUnit::groups` is reused).
    id: u32,
    waves: u32,
    launched: u32,
    alive: u32,
    arrived: u32,
    gen: u32,
}

#[derive(Debug, Clone)]
struct Unit {
    kind: UnitKind,
    scope: UnitScope,
    free_at: Vec<u64>,
    /// The latest clock any instance's `free_at` was given (so none is
    /// later), so that `next_wake` passes over a unit whose instances are
    /// all free without reading them.
    latest_free_at: u64,
    latency: u64,
    wave_limit: u16,
    cu_limit: u32,
    /// Ops in flight on each CU.
    cu_in_flight: Vec<u32>,
    return_order: Option<ReturnOrder>,
    /// When the latest result of each CU's return queue comes back.
    last_return: Vec<u64>,
    /// Busy clocks of each instance (per-CU figures are their sums).
    inst_busy: Vec<u64>,
    /// The CU each instance belongs to (`u32::MAX`: shared by all).
    cu_of_instance: Vec<u32>,
    /// The instance each SIMD uses: its own per-SIMD unit, or its share of
    /// a per-CU unit's instances (SIMDs split evenly among them).
    instance_of: Vec<u32>,
}

impl Unit {
    /// The instance SIMD `simd` uses (looked up: the issue loop asks often).
    #[inline(always)]
    fn instance(&self, simd: u32) -> usize {
        self.instance_of[simd as usize] as usize
    }

    /// Instance `inst` is busy until `until` (`latest_free_at` kept with it).
    #[inline(always)]
    fn set_free_at(&mut self, inst: usize, until: u64) {
        self.free_at[inst] = until;
        self.latest_free_at = self.latest_free_at.max(until);
    }
}

/// Counter decrements (and in-flight releases) that fall due at a time,
/// packed in one integer that orders by time first, so the event heap
/// compares integers. The events of a clock are applied together
/// (`apply_events`) and their effects commute (counts fall, in-flight counts
/// fall, a sleeping wave wakes), so their order among themselves is free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Event(u128);

impl Event {
    fn new(time: u64, wave: u32, counters: u16, unit: u8) -> Event {
        Event(
            u128::from(time) << 64
                | u128::from(wave) << 32
                | u128::from(counters) << 8
                | u128::from(unit),
        )
    }

    fn time(self) -> u64 {
        (self.0 >> 64) as u64
    }

    fn wave(self) -> u32 {
        (self.0 >> 32) as u32
    }

    fn counters(self) -> u16 {
        (self.0 >> 8) as u16
    }

    fn unit(self) -> u8 {
        self.0 as u8
    }
}

/// Row positions of the stall causes that name no unit or counter, found
/// once from the model's unit count.
#[derive(Debug, Clone, Copy)]
struct CauseIndex {
    dependency: u16,
    barrier: u16,
    arbitration: u16,
    alloc: u16,
    drain: u16,
    /// Of `StallCause::Wait(counter 0)`, `CounterFull(counter 0)`,
    /// `UnitBusy(unit 0)` and `InFlight(unit 0)`: add the counter or unit.
    wait: u16,
    full: u16,
    busy: u16,
    in_flight: u16,
}

impl CauseIndex {
    fn new(units: usize) -> CauseIndex {
        let at = |c: StallCause| c.index(units) as u16;
        let first = shadersim_isa::Counter::ALL[0];
        CauseIndex {
            dependency: at(StallCause::Dependency),
            barrier: at(StallCause::Barrier),
            arbitration: at(StallCause::Arbitration),
            alloc: at(StallCause::Alloc),
            drain: at(StallCause::Drain),
            wait: at(StallCause::Wait(first)),
            full: at(StallCause::CounterFull(first)),
            busy: at(StallCause::UnitBusy(0)),
            in_flight: at(StallCause::InFlight(0)),
        }
    }
}

/// Count `n` stalled turns for op `opi` in the clock(s) marked `stamp`
/// (`stalls`: the per-op stamps and counts), once even if the op stalls
/// on several SIMDs sharing the turn.
fn count_op_stall(stalls: (&mut [u64], &mut [u64]), opi: usize, stamp: u64, n: u64) {
    let (stamps, counts) = stalls;
    if stamps[opi] != stamp {
        stamps[opi] = stamp;
        counts[opi] += n;
    }
}

/// The turns of one SIMD in `clocks` clocks from one of its turns:
/// `clocks.div_ceil(interval)`, without the division when a SIMD has a
/// turn every clock (RDNA: `issue_interval` 1), where dormant SIMDs wake
/// most often.
#[inline(always)]
fn turns_in(clocks: u64, interval: u64) -> u64 {
    if interval == 1 {
        clocks
    } else {
        clocks.div_ceil(interval)
    }
}

/// The turn phase of SIMD `s` (`s % interval`: its turns are the clocks of
/// that phase), without the division when every clock is every SIMD's
/// turn.
#[inline(always)]
fn phase_of(s: usize, interval: u64) -> usize {
    if interval == 1 {
        0
    } else {
        s % interval as usize
    }
}

/// Run one simulation.
pub fn simulate(input: &SimInput<'_>) -> Result<SimStats, SimError> {
    simulate_observed(input, NoObserver)
}

/// Run one simulation, telling `observer` what happens (pass `&mut o` to
/// keep it). With [`NoObserver`] this is [`simulate`], at the same speed.
pub fn simulate_observed<O: Observer>(
    input: &SimInput<'_>,
    observer: O,
) -> Result<SimStats, SimError> {
    let (tables, units) = OpTables::new(input)?;
    let mut cu = ComputeUnit::<O, true>::new(input, &tables, units, observer)?;
    cu.run()?;
    Ok(cu.finish())
}

/// The ops of a run packed for the cycle loop. Beside the compute unit,
/// which holds them as shared slices: the issue holds an op while it
/// changes the unit (one lookup per op, not one per use).
struct OpTables {
    hot: Vec<HotOp>,
    /// Per op: its issue category if it is a unit op (`Wave::cat`).
    issue_cat: Vec<u8>,
    /// Scoreboard slots of every op, one entry per register (ranges are
    /// mostly one or two registers long: a flat list costs less to walk),
    /// indexed by `HotOp::reads/writes`.
    slots: Vec<u16>,
}

/// The machine of one run. With `STATS` it keeps every statistic a report
/// reads; without (a probe, `simulate_probe`), only what decides the
/// schedule (so the clocks are the same bit for bit) and the counts of
/// issued and passed ops: the per-op and per-turn bookkeeping (stall
/// causes, sitting clocks, stall turns, wave lives, the skipped clocks'
/// accounting) is compiled out.
struct ComputeUnit<'a, O: Observer, const STATS: bool> {
    input: &'a SimInput<'a>,
    /// Told about launches, issues, stalls and ends (see `observer.rs`).
    observer: O,
    /// The tables of `OpTables`.
    hot: &'a [HotOp],
    issue_cat: &'a [u8],
    slots: &'a [u16],
    depctr: Vec<DepCtr>,
    scoreboard: bool,
    /// Extra clocks a dependency stall costs when no `s_delay_alu` announced it.
    dependency_extra: u64,
    /// Per op: its sitting bookkeeping (see `OpSit`).
    op_sit: Vec<OpSit>,
    /// Dynamic VGPR mode: the rules and each SIMD's pool.
    dynamic: Option<crate::config::DynamicVgpr>,
    /// When the latest result of each counter comes back, per wave slot (units
    /// that return in order per wave; kept apart from `Wave` so the issue
    /// loop's data stays small).
    wave_returns: Vec<[u64; NCOUNTERS]>,
    per_wave_returns: bool,
    pools: Vec<VgprPool>,
    alloc: Vec<Option<u32>>,
    counter_max: [u8; NCOUNTERS],
    simds: u32,
    interval: u64,
    wave_size: u32,
    waves_per_simd: u32,
    /// Wave slots, reused: the resident waves and the retired ones still
    /// `draining`, never more (memory follows the waves resident, not the
    /// dispatch). Everything inside the unit (`resident`, events,
    /// `wave_returns`, the VGPR reserve's holder) names a wave by its
    /// slot; what leaves it names the wave by `Wave::id`.
    waves: Vec<Wave<'a>>,
    /// Slots free for the next launch (the most recently freed last: its
    /// wave's lines are likeliest still cached).
    free_slots: Vec<u32>,
    /// Waves launched so far (the next launch's `Wave::id`).
    launched_waves: u32,
    /// Per SIMD: the slots of its resident waves, oldest first.
    resident: Vec<Vec<u32>>,
    /// Per SIMD and issue category (`simd * ncat + cat`): the positions in
    /// `resident` of the waves sitting on a unit op of that category. Once
    /// an older wave took the category in a turn, the issue scan jumps over
    /// them (their visit would change nothing).
    sit_masks: Vec<u64>,
    /// Issue categories (the row length of `sit_masks`).
    ncat: usize,
    /// Per SIMD: the positions in `resident` of the waves asleep until an
    /// event (`WAIT_SLEEP`), so the issue scan jumps over them without a
    /// look at their state. Changes only when a wave goes to sleep on a
    /// wait or wakes, far less often than the scan runs.
    event_sleepers: Vec<u64>,
    /// Per SIMD: a clock before which its turns can change nothing (0:
    /// none known). Set by a turn that issued nothing and left every
    /// wave asleep, until the earliest wave wakes by time; an event for
    /// one of its waves or a new wave clears it. Turns before it only
    /// count their statistics (`quiet_turn`), and `next_wake` reads it
    /// instead of the SIMD's waves.
    quiet_until: Vec<u64>,
    /// Per SIMD: the distinct ops its waves sit on while it is quiet,
    /// for the per-op stall counts of its quiet turns (empty: not yet
    /// gathered since it went quiet).
    quiet_ops: Vec<Vec<u32>>,
    /// Per SIMD: when its own pipes free up, as of the turn that made it
    /// quiet (only its waves take them, so this holds while it is).
    quiet_pipes_free_at: Vec<u64>,
    /// Per op: the `stamp_seq` of the last gathering of `quiet_ops` that
    /// took it.
    quiet_gathered: Vec<u64>,
    /// Per SIMD: `NOT_DORMANT`, or the first turn of a quiet SIMD whose
    /// statistics are owed. A dormant SIMD is quiet with its pipes free:
    /// each of its turns until it wakes would count one turn with waves,
    /// one stall turn and a stall of each of its `quiet_ops`, so its turns
    /// cost nothing and `wake_dormant` counts them all when it wakes (an
    /// event, a new wave, or `quiet_until`), making a run's cost follow its
    /// issues and events, not its clocks times its SIMDs.
    dormant_from: Vec<u64>,
    /// The earliest `quiet_until` of a dormant SIMD (may be earlier than
    /// any: a SIMD woken by an event leaves it; `wake_due_dormant` renews it).
    next_dormant_wake: u64,
    /// Per op and turn phase (`op * interval + phase`): how many dormant
    /// SIMDs of that phase sit on the op. While some do, every turn of the
    /// phase counts the op's stall (`SimStats::op_stalls` counts a clock
    /// once however many SIMDs stall on the op), so other SIMDs' turns
    /// leave it to them.
    quiet_cover: Vec<u32>,
    /// Per op and phase: the first turn the dormant SIMDs count for the op
    /// (set when its cover count rises from zero).
    quiet_cover_from: Vec<u64>,
    /// Per SIMD: the ops its waves asleep until an event (`event_sleepers`)
    /// sit on, each once, and maybe ops none does any more (dropped when
    /// read). Their ops cannot change while they sleep, so a SIMD going
    /// quiet gathers its ops from this list and its waves awake, not from
    /// all its waves (on a kernel waiting on memory, most are asleep).
    sleeper_ops: Vec<Vec<u32>>,
    /// Per SIMD and op (`simd * ops + op`): how many of the SIMD's event
    /// sleepers sit on the op, and whether the op is in `sleeper_ops`.
    sleeper_op_count: Vec<u16>,
    sleeper_listed: Vec<bool>,
    /// Waves resident on the CU (sum of `resident` lengths).
    resident_count: usize,
    /// Scoreboards of retired waves, for the next waves to launch.
    spare_tracks: Vec<Box<WaveTrack>>,
    /// Group slots (`Wave::group`), reused once a group's waves have all
    /// retired: the groups with waves resident, not the dispatch.
    groups: Vec<Group>,
    /// Slots of finished groups, for the next groups.
    free_groups: Vec<u32>,
    units: Vec<Unit>,
    /// The units that are pipes of each SIMD's own (`simd_pipes_free_at`
    /// reads them every turn that issues nothing).
    simd_pipes: Vec<u8>,
    events: BinaryHeap<Reverse<Event>>,
    now: u64,
    // Dispatch.
    arrival: Option<f64>,
    /// When the next group may start (pixel and vertex arrivals; 0 for compute).
    next_arrival: u64,
    total_groups: u32,
    group_waves: u32,
    groups_started: u32,
    launching_group: Option<u32>,
    /// No CU had room for the next group when dispatch last tried: room
    /// appears only when a wave retires, so dispatch waits for that
    /// instead of asking every clock.
    dispatch_blocked: bool,
    /// The clock from which dispatch may have something to do
    /// (`dispatch_from`, renewed whenever its state changes).
    dispatch_at: u64,
    /// Per CU: the SIMD the next wave tries first.
    next_simd: Vec<u32>,
    /// Per CU: LDS bytes allocated.
    lds_used: Vec<u32>,
    /// Compute units simulated, and SIMDs in each (`simds` counts all).
    cus: u32,
    cu_simds: u32,
    /// The CU the next group is dealt to (round robin).
    next_cu: u32,
    lds_capacity: u32,
    lds_per_group: u32,
    launches_per_clock: u32,
    // Statistics.
    stats: SimStats,
    /// Length of a row of `SimStats::op_cause_clocks`, and the row
    /// positions of the causes the loop names most.
    ncauses: usize,
    causes: CauseIndex,
    op_stall_stamp: Vec<u64>,
    /// Stamps for skipped ranges, above any clock number.
    stamp_seq: u64,
    idle_clocks: u64,
    /// The cache hierarchy and address streams (`None`: flat latencies).
    memory: Option<crate::memstream::MemorySystem>,
}

impl<'a, O: Observer, const STATS: bool> ComputeUnit<'a, O, STATS> {
    fn resident_total(&self) -> usize {
        self.resident_count
    }

    fn all_done(&self) -> bool {
        self.groups_started == self.total_groups
            && self.launching_group.is_none()
            && self.resident_total() == 0
    }

    #[inline(always)]
    fn run(&mut self) -> Result<(), SimError> {
        // (Held in locals: the loop runs once per clock.)
        let max_clocks = self.input.max_clocks;
        let skip_idle = self.input.skip_idle;
        let interval = self.interval;
        let simds = self.simds;
        // The SIMD whose turn it is: a mask for the usual power-of-two
        // cadence (a division per clock is measurable here).
        let turn_mask = interval.is_power_of_two().then(|| interval - 1);
        loop {
            // Dormant SIMDs whose waves wake by time now: their turns from
            // now on are real ones (before anything else of this clock, so
            // that what they owe ends before any turn counts this clock).
            if self.now >= self.next_dormant_wake {
                self.wake_due_dormant();
            }
            let mut progress = self.apply_events();
            progress |= self.dispatch();
            let turn = match turn_mask {
                Some(m) => (self.now & m) as u32,
                None => (self.now % interval) as u32,
            };
            let mut s = turn;
            while s < simds {
                progress |= self.issue_turn(s)?;
                s += interval as u32;
            }
            let resident = self.resident_total();
            if resident == 0 {
                if self.all_done() {
                    // (A dormant SIMD has waves: none is left.)
                    debug_assert!(self.dormant_from.iter().all(|&d| d == NOT_DORMANT));
                    // The last wave left at this clock: the work took `now` clocks.
                    self.stats.clocks = self.now.max(1);
                    return Ok(());
                }
                if STATS {
                    self.stats.starve_clocks += 1;
                }
            }
            if STATS {
                self.stats.peak_waves = self.stats.peak_waves.max(resident as u32);
            }
            if progress {
                self.idle_clocks = 0;
            } else {
                self.idle_clocks += 1;
                // Every SIMD has had a turn in the current state and none
                // could do anything: only time can change that.
                if self.idle_clocks >= interval {
                    match self.next_wake() {
                        None => return Err(self.deadlock()),
                        Some(t) if skip_idle && t > self.now + 1 => {
                            let t = t.min(max_clocks + 1);
                            self.account_skipped(t);
                            self.now = t;
                            if self.now > max_clocks {
                                return Err(SimError::TooLong(max_clocks));
                            }
                            continue;
                        }
                        Some(_) => {}
                    }
                }
            }
            self.now += 1;
            if self.now > max_clocks {
                return Err(SimError::TooLong(max_clocks));
            }
        }
    }
}
