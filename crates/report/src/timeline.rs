//! What happened when: a recording of one run built from the engine's
//! observer events, written as Chrome trace-event JSON (Perfetto,
//! chrome://tracing) and summarised in fixed bins for the HTML charts.
//!
//! Three things are recorded, at three costs:
//! * slices (issues, free ops, stalls) of the first `max_waves` waves
//!   inside the clock window: the timeline's tracks, capped because a
//!   large run has millions;
//! * binned series over the whole run (unit busy, waves resident,
//!   stalled, executing): bounded memory, the bin width doubles as the run
//!   grows ([`Binned`]);
//! * per static op, the clocks waves spent on it (`dwell`), for the time
//!   per block and loop (see `blocks.rs`).
//!
//! Tracks: one process per SIMD, one thread per wave slot of that SIMD
//! (a slot is the lowest free one when the wave launched, as the hardware
//! numbers them). One microsecond of the trace is one clock.

use serde_json::json;
use shadersim_engine::observer::{IssueEvent, Observer};
use shadersim_engine::OpSource;
use shadersim_engine::{SimStats, Simulation};

/// Bins kept per series (the resolution of the charts).
const BINS: usize = 256;

/// What to record in slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimelineCap {
    /// Record slices of waves with a launch index below this.
    pub max_waves: u32,
    /// Record slices that start in `[from, to)` clocks (`None`: all).
    pub window: Option<(u64, u64)>,
    /// Record the binned series (unit busy, waves resident, stalled,
    /// executing, issues): the page's charts and the timeline's counter
    /// tracks draw them; a text or JSON report does not, and binning every
    /// issue cost a tenth of a pixel shader's simulation.
    pub series: bool,
}

impl Default for TimelineCap {
    fn default() -> Self {
        TimelineCap {
            max_waves: 64,
            window: None,
            series: true,
        }
    }
}

/// A sum over clock intervals, kept in at most `BINS` bins whose width
/// doubles whenever an interval reaches past the last bin.
#[derive(Debug, Clone, PartialEq)]
pub struct Binned {
    /// Clocks per bin (a power of two).
    pub width: u64,
    /// Per bin: the sum of `weight x overlap` of every interval added.
    pub bins: Vec<f64>,
}

impl Default for Binned {
    fn default() -> Self {
        Binned {
            width: 1,
            bins: vec![0.0; BINS],
        }
    }
}

impl Binned {
    /// Add `weight` for every clock of `[start, end)`.
    pub fn add(&mut self, start: u64, end: u64, weight: f64) {
        if end <= start {
            return;
        }
        while end > self.width * BINS as u64 {
            // Merge pairs: bin i now covers the old bins 2i and 2i+1.
            for i in 0..BINS / 2 {
                self.bins[i] = self.bins[2 * i] + self.bins[2 * i + 1];
            }
            for b in &mut self.bins[BINS / 2..] {
                *b = 0.0;
            }
            self.width *= 2;
        }
        let w = self.width;
        for b in start / w..=(end - 1) / w {
            let lo = start.max(b * w);
            let hi = end.min((b + 1) * w);
            self.bins[b as usize] += weight * (hi - lo) as f64;
        }
    }

    /// The same sums in bins `width` clocks wide (`width` a power of two
    /// at least `self.width`; a narrower one keeps the bins as they are).
    pub fn widened(&self, width: u64) -> Binned {
        let mut b = self.clone();
        while b.width < width {
            for i in 0..BINS / 2 {
                b.bins[i] = b.bins[2 * i] + b.bins[2 * i + 1];
            }
            for x in &mut b.bins[BINS / 2..] {
                *x = 0.0;
            }
            b.width *= 2;
        }
        b
    }

    /// The mean value per clock in each bin up to clock `clocks` (the
    /// last bin divided by the clocks it actually covers), in bins
    /// `width` clocks wide (or this series' own width, if wider). Give
    /// every series of a run the same width ([`Timeline::bin_clocks`]): a
    /// series that saw nothing (an idle unit) still has width 1 and would
    /// otherwise be drawn at clocks 0, 1, 2, ... while the others use
    /// wider bins.
    pub fn means(&self, clocks: u64, width: u64) -> Vec<(u64, f64)> {
        let b = self.widened(width);
        let n = clocks.div_ceil(b.width).min(BINS as u64);
        (0..n)
            .map(|i| {
                let start = i * b.width;
                let span = (clocks.min(start + b.width) - start).max(1);
                (start, b.bins[i as usize] / span as f64)
            })
            .collect()
    }
}

/// The bin width of a run of `clocks` clocks: the smallest power of two
/// whose [`BINS`] bins cover them (what a series that saw intervals up to
/// the last clock has doubled to).
pub fn bin_width(clocks: u64) -> u64 {
    clocks.div_ceil(BINS as u64).max(1).next_power_of_two()
}

/// One recorded slice on a wave slot's track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    /// Wave (launch order).
    pub wave: u32,
    /// The wave's SIMD.
    pub simd: u32,
    /// Its slot on the SIMD.
    pub slot: u32,
    /// First clock.
    pub start: u64,
    /// Clock after the last.
    pub end: u64,
    /// What the wave did.
    pub kind: SliceKind,
    /// Static op (`Simulation::op`).
    pub op: u32,
    /// The op's position in the wave's dynamic trace (stalls: the op it
    /// sits on, which it issues at that position later).
    pub seq: u32,
}

/// What a slice shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceKind {
    /// An op issued to a unit: from the issue to when the wave may issue again.
    Issue,
    /// A free op executed (wait passed, nop, barrier passed): one clock.
    Pass,
    /// The wave sat on the op unable to issue it.
    Stall,
}

impl SliceKind {
    /// The trace's category name.
    pub fn name(self) -> &'static str {
        match self {
            SliceKind::Issue => "issue",
            SliceKind::Pass => "pass",
            SliceKind::Stall => "stall",
        }
    }
}

#[derive(Debug, Clone, Default)]
struct WaveState {
    simd: u32,
    slot: u32,
    /// Dynamic ops issued or passed so far.
    seq: u32,
    /// Clock until which the wave's time is already accounted to an op.
    marker: u64,
    /// Sitting since (and on which op), if sitting.
    sitting: Option<(u64, u32)>,
    launched: u64,
}

/// The recording: an [`Observer`] for `Simulation::run_observed`.
#[derive(Debug, Clone)]
pub struct Timeline<'s> {
    /// The run (each op's category).
    sim: &'s Simulation,
    /// What slices are kept.
    pub cap: TimelineCap,
    /// Recorded slices, in event order.
    pub slices: Vec<Slice>,
    /// Waves launched.
    pub waves: u32,
    /// Per unit (`Simulation::unit_names`): busy clocks, summed over instances.
    pub unit_busy: Vec<Binned>,
    /// Waves resident on the CU.
    pub resident: Binned,
    /// Waves sitting on an op they cannot issue.
    pub stalled: Binned,
    /// Waves between an issue and the clock they may issue again.
    pub executing: Binned,
    /// Issues (one per op issued, at its clock).
    pub issues: Binned,
    /// Issues per issue category (`Simulation::category_names`).
    pub category_issues: Vec<Binned>,
    /// Per static op: clocks waves spent on it, summed over waves (from
    /// leaving the previous op to leaving this one; an issued op keeps the
    /// wave until it may issue again).
    pub dwell: Vec<u64>,
    /// Slices not kept because of the cap.
    pub dropped: u64,
    slots: Vec<Vec<bool>>,
    state: Vec<WaveState>,
}

impl<'s> Timeline<'s> {
    /// An empty recording for `sim`.
    pub fn new(sim: &'s Simulation, cap: TimelineCap) -> Timeline<'s> {
        Timeline {
            sim,
            cap,
            slices: Vec::new(),
            waves: 0,
            unit_busy: vec![Binned::default(); sim.unit_names().len()],
            resident: Binned::default(),
            stalled: Binned::default(),
            executing: Binned::default(),
            issues: Binned::default(),
            category_issues: vec![Binned::default(); sim.category_names().len()],
            dwell: vec![0; sim.op_count()],
            dropped: 0,
            slots: Vec::new(),
            state: Vec::new(),
        }
    }

    fn keep(&mut self, slice: Slice) {
        let in_window = self
            .cap
            .window
            .is_none_or(|(from, to)| slice.start >= from && slice.start < to);
        if slice.wave < self.cap.max_waves && in_window && slice.end > slice.start {
            self.slices.push(slice);
        } else if slice.end > slice.start {
            self.dropped += 1;
        }
    }

    fn advance(&mut self, wave: u32, op: u32, until: u64) {
        let s = &mut self.state[wave as usize];
        self.dwell[op as usize] += until.saturating_sub(s.marker);
        s.marker = s.marker.max(until);
        s.seq += 1;
    }

    /// The bin width every series of the run is drawn with up to clock
    /// `clocks`: the widest any series doubled to, and at least what
    /// covers `clocks` in [`BINS`] bins ([`bin_width`]).
    pub fn bin_clocks(&self, clocks: u64) -> u64 {
        self.unit_busy
            .iter()
            .chain(&self.category_issues)
            .chain([&self.resident, &self.stalled, &self.executing, &self.issues])
            .map(|b| b.width)
            .fold(bin_width(clocks), u64::max)
    }

    /// Whether the cap left anything out, in words (`None`: complete).
    pub fn cap_note(&self) -> Option<String> {
        if self.dropped == 0 {
            return None;
        }
        let mut parts = Vec::new();
        if self.waves > self.cap.max_waves {
            parts.push(format!(
                "the first {} of {} waves",
                self.cap.max_waves, self.waves
            ));
        }
        if let Some((a, b)) = self.cap.window {
            parts.push(format!("slices starting in clocks {a}..{b}"));
        }
        Some(format!(
            "the timeline shows {} ({} slices left out; raise --timeline-waves or set --timeline-clocks)",
            parts.join(", "),
            self.dropped
        ))
    }

    /// The Chrome trace-event JSON of the recording.
    pub fn to_chrome_json(&self, sim: &Simulation, stats: &SimStats) -> String {
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = self.write_chrome_json(&mut out, sim, stats);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Write the Chrome trace-event JSON of the recording to `out`, one
    /// event at a time: memory beyond the recording itself stays constant
    /// (the document is never built whole). The bytes are
    /// [`serde_json::to_string`]'s of the whole document: its keys are
    /// sorted, so `traceEvents` comes last.
    pub fn write_chrome_json(
        &self,
        out: &mut impl std::io::Write,
        sim: &Simulation,
        stats: &SimStats,
    ) -> std::io::Result<()> {
        let head = json!({
            "displayTimeUnit": "ns",
            "otherData": {
                "tool": "shadersim",
                "program": sim.program().name,
                "arch": sim.arch().name,
                "time_unit": "1 us in the trace = 1 clock",
                "clocks": stats.clocks,
                "waves": self.waves,
                "waves_shown": self.waves.min(self.cap.max_waves),
                "window": self.cap.window.map(|(a, b)| vec![a, b]),
                "counter_bin_clocks": self.bin_clocks(stats.clocks),
                "capped": self.cap_note(),
            },
        });
        let head = serde_json::to_string(&head).map_err(std::io::Error::other)?;
        // `{"displayTimeUnit":..,"otherData":{..}}` without its closing brace.
        out.write_all(&head.as_bytes()[..head.len() - 1])?;
        out.write_all(b",\"traceEvents\":[")?;
        let mut first = true;
        let mut emit = |out: &mut dyn std::io::Write, event: serde_json::Value| {
            if !std::mem::take(&mut first) {
                out.write_all(b",")?;
            }
            serde_json::to_writer(out, &event).map_err(std::io::Error::other)
        };
        let simds = self.slots.len();
        emit(
            out,
            json!({"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "CU"}}),
        )?;
        emit(
            out,
            json!({"name": "process_sort_index", "ph": "M", "pid": 0, "args": {"sort_index": 0}}),
        )?;
        for simd in 0..simds {
            let pid = simd + 1;
            emit(
                out,
                json!({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": format!("SIMD {simd}")}}),
            )?;
            emit(
                out,
                json!({"name": "process_sort_index", "ph": "M", "pid": pid, "args": {"sort_index": pid}}),
            )?;
            for slot in 0..self.slots[simd].len() {
                emit(
                    out,
                    json!({"name": "thread_name", "ph": "M", "pid": pid, "tid": slot, "args": {"name": format!("slot {slot}")}}),
                )?;
            }
        }
        for s in &self.slices {
            let op = sim.op(s.op as usize);
            let (line, text) = op_text(sim, s.op as usize);
            let mnemonic = text.split_whitespace().next().unwrap_or("").to_string();
            let name = match s.kind {
                SliceKind::Stall => format!("stall on {mnemonic}"),
                _ => mnemonic,
            };
            emit(
                out,
                json!({
                    "name": name,
                    "cat": s.kind.name(),
                    "ph": "X",
                    "ts": s.start,
                    "dur": s.end - s.start,
                    "pid": s.simd + 1,
                    "tid": s.slot,
                    "args": {
                        "wave": s.wave,
                        "seq": s.seq,
                        "line": line,
                        "class": op.class().name(),
                        "instruction": text,
                    },
                }),
            )?;
        }
        let (from, to) = self.cap.window.unwrap_or((0, stats.clocks));
        let width = self.bin_clocks(stats.clocks);
        let mut counter = |out: &mut dyn std::io::Write,
                           name: &str,
                           series: &Binned,
                           scale: f64| {
            for (t, v) in series.means(stats.clocks, width) {
                if t + width > from && t < to {
                    emit(
                        out,
                        json!({"name": name, "ph": "C", "ts": t, "pid": 0, "args": {"value": round3(v * scale)}}),
                    )?;
                }
            }
            Ok::<(), std::io::Error>(())
        };
        for (u, name) in sim.unit_names().iter().enumerate() {
            let instances = f64::from(stats.unit_instances.get(u).copied().unwrap_or(1).max(1));
            counter(
                out,
                &format!("{name} busy"),
                &self.unit_busy[u],
                1.0 / instances,
            )?;
        }
        counter(out, "waves resident", &self.resident, 1.0)?;
        counter(out, "waves stalled", &self.stalled, 1.0)?;
        out.write_all(b"]}")
    }
}

/// Source line and text of a static op (line 0 for synthesized ones).
pub fn op_text(sim: &Simulation, op: usize) -> (u32, String) {
    match sim.op(op).source() {
        OpSource::Program(i) => {
            let s = &sim.program().instructions[i];
            (s.pos.line, s.text.clone())
        }
        OpSource::Fetch(i) => (0, sim.fetch_shader_text(i).to_string()),
        OpSource::ImplicitEnd => (0, "end of program".into()),
    }
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

impl Observer for Timeline<'_> {
    fn launch(&mut self, clock: u64, wave: u32, simd: u32) {
        let simd_slots = {
            if self.slots.len() <= simd as usize {
                self.slots.resize(simd as usize + 1, Vec::new());
            }
            &mut self.slots[simd as usize]
        };
        let slot = match simd_slots.iter().position(|used| !used) {
            Some(s) => s,
            None => {
                simd_slots.push(false);
                simd_slots.len() - 1
            }
        };
        simd_slots[slot] = true;
        if self.state.len() <= wave as usize {
            self.state.resize(wave as usize + 1, WaveState::default());
        }
        self.state[wave as usize] = WaveState {
            simd,
            slot: slot as u32,
            seq: 0,
            marker: clock,
            sitting: None,
            launched: clock,
        };
        self.waves = self.waves.max(wave + 1);
    }

    fn issue(&mut self, e: &IssueEvent) {
        let s = &self.state[e.wave as usize];
        let slice = Slice {
            wave: e.wave,
            simd: s.simd,
            slot: s.slot,
            start: e.clock,
            end: e.wave_ready.max(e.clock + 1),
            kind: SliceKind::Issue,
            op: e.op,
            seq: s.seq,
        };
        self.keep(slice);
        if self.cap.series {
            self.unit_busy[e.unit as usize].add(e.service_start, e.service_end, 1.0);
            self.executing.add(slice.start, slice.end, 1.0);
            self.issues.add(e.clock, e.clock + 1, 1.0);
            let category = self.sim.op(e.op as usize).category();
            if let Some(b) = category.and_then(|c| self.category_issues.get_mut(c)) {
                b.add(e.clock, e.clock + 1, 1.0);
            }
        }
        self.advance(e.wave, e.op, slice.end);
    }

    fn pass(&mut self, clock: u64, wave: u32, op: u32) {
        let s = &self.state[wave as usize];
        let slice = Slice {
            wave,
            simd: s.simd,
            slot: s.slot,
            start: clock,
            end: clock + 1,
            kind: SliceKind::Pass,
            op,
            seq: s.seq,
        };
        self.keep(slice);
        self.advance(wave, op, clock);
    }

    fn sit(&mut self, clock: u64, wave: u32, op: u32) {
        self.state[wave as usize].sitting = Some((clock, op));
    }

    fn rise(&mut self, clock: u64, wave: u32) {
        let s = &mut self.state[wave as usize];
        if let Some((since, op)) = s.sitting.take() {
            let slice = Slice {
                wave,
                simd: s.simd,
                slot: s.slot,
                start: since,
                end: clock,
                kind: SliceKind::Stall,
                op,
                seq: s.seq,
            };
            if self.cap.series {
                self.stalled.add(since, clock, 1.0);
            }
            self.keep(slice);
        }
    }

    fn end(&mut self, clock: u64, wave: u32, op: u32) {
        let s = &self.state[wave as usize];
        let (simd, slot, launched) = (s.simd as usize, s.slot as usize, s.launched);
        // The time after its last op (waiting for its results before it
        // may end) belongs to the op it ends on.
        if let Some(d) = self.dwell.get_mut(op as usize) {
            *d += clock.saturating_sub(s.marker);
        }
        self.state[wave as usize].marker = clock;
        if self.cap.series {
            self.resident.add(launched, clock, 1.0);
        }
        if let Some(used) = self.slots.get_mut(simd).and_then(|s| s.get_mut(slot)) {
            *used = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bin_width, Binned};

    #[test]
    fn bins_double_and_keep_the_sum() {
        let mut b = Binned::default();
        b.add(0, 10, 1.0);
        assert_eq!(b.width, 1);
        // 1000 clocks need width 4 (4 x 256 = 1024 >= 1000).
        b.add(500, 1000, 2.0);
        assert_eq!(b.width, 4);
        let total: f64 = b.bins.iter().sum();
        assert_eq!(total, 10.0 + 2.0 * 500.0);
        // Bin 0 covers clocks 0..4: 4 clocks of weight 1.
        assert_eq!(b.means(1000, 4)[0], (0, 1.0));
    }

    #[test]
    fn an_idle_series_uses_the_run_bins() {
        // A run of 1000 clocks: 256 bins of width 4 cover 1024 >= 1000
        // clocks (width 2 covers only 512), so bins start at 0, 4, 8, ...
        // and the last starts at 996 (250 bins: 1000 / 4).
        assert_eq!(bin_width(1000), 4);
        let mut busy = Binned::default();
        busy.add(0, 1000, 1.0);
        let idle = Binned::default();
        assert_eq!(idle.width, 1, "an idle unit never doubled");
        let (b, i) = (busy.means(1000, 4), idle.means(1000, 4));
        let times = |v: &[(u64, f64)]| v.iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(times(&b), times(&i));
        assert_eq!(i.len(), 250);
        assert_eq!(i[1].0, 4);
        assert_eq!(i.last().unwrap().0, 996);
        assert!(i.iter().all(|p| p.1 == 0.0));
        // Busy every clock: mean 1 per bin.
        assert!(b.iter().all(|p| p.1 == 1.0));
    }
}
