//! What the HTML charts draw: a recorded run binned over its clocks.

use crate::timeline::{SliceKind, Timeline};
use shadersim_engine::OpSource;
use shadersim_engine::{SimStats, Simulation};

/// Wave-slot tracks drawn in the page's timeline.
const LANES: usize = 16;

/// One slice drawn on a lane: start, end, kind and source line.
pub type LaneSlice = (u64, u64, SliceKind, u32);

/// What the charts draw, binned over the run (from a [`Timeline`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Activity {
    /// Total clocks.
    pub clocks: u64,
    /// Bin start clocks.
    pub times: Vec<u64>,
    /// Mean waves resident per bin.
    pub resident: Vec<f64>,
    /// Mean waves stalled (sitting on an op) per bin.
    pub stalled: Vec<f64>,
    /// Mean waves executing (between an issue and their next chance) per bin.
    pub executing: Vec<f64>,
    /// Issues per clock per bin.
    pub issues: Vec<f64>,
    /// Per issue category: its name and issues per clock per bin.
    pub categories: Vec<(String, Vec<f64>)>,
    /// Per unit: its name and busy fraction per bin.
    pub units: Vec<(String, Vec<f64>)>,
    /// The first wave slots' slices: track label and (start, end, kind, line).
    pub lanes: Vec<(String, Vec<LaneSlice>)>,
    /// Per program instruction: share of the waves' time spent on it.
    pub time_share: Vec<f64>,
}

impl Activity {
    /// Bin a recording.
    pub fn new(sim: &Simulation, stats: &SimStats, t: &Timeline<'_>) -> Activity {
        let clocks = stats.clocks.max(1);
        // One bin width for every series, so bin i is the same clocks in each.
        let width = t.bin_clocks(clocks);
        let means = |b: &crate::timeline::Binned| -> Vec<f64> {
            b.means(clocks, width).into_iter().map(|(_, v)| v).collect()
        };
        let times = t
            .resident
            .means(clocks, width)
            .into_iter()
            .map(|(s, _)| s)
            .collect();
        let units = sim
            .unit_names()
            .iter()
            .enumerate()
            .filter(|(u, _)| stats.unit_busy.get(*u).is_some_and(|&b| b > 0))
            .map(|(u, name)| {
                let n = f64::from(stats.unit_instances.get(u).copied().unwrap_or(1).max(1));
                let v = means(&t.unit_busy[u]).into_iter().map(|x| x / n).collect();
                (name.clone(), v)
            })
            .collect();
        let mut tracks: Vec<((u32, u32), Vec<LaneSlice>)> = Vec::new();
        for s in &t.slices {
            let key = (s.simd, s.slot);
            let line = crate::timeline::op_text(sim, s.op as usize).0;
            let slice = (s.start, s.end, s.kind, line);
            match tracks.iter().position(|(k, _)| *k == key) {
                Some(i) => tracks[i].1.push(slice),
                None if tracks.len() < LANES => tracks.push((key, vec![slice])),
                None => {}
            }
        }
        tracks.sort_by_key(|(k, _)| *k);
        let lanes = tracks
            .into_iter()
            .map(|((simd, slot), v)| (format!("SIMD {simd} slot {slot}"), v))
            .collect();
        let total = stats.wave_clocks_sum.max(1) as f64;
        let mut time_share = vec![0.0; sim.program().instructions.len()];
        for (oi, op) in sim.ops().enumerate() {
            if let OpSource::Program(i) = op.source() {
                time_share[i] += t.dwell[oi] as f64 / total;
            }
        }
        Activity {
            clocks,
            times,
            resident: means(&t.resident),
            stalled: means(&t.stalled),
            executing: means(&t.executing),
            issues: means(&t.issues),
            categories: sim
                .category_names()
                .iter()
                .zip(&t.category_issues)
                .filter(|(_, b)| b.bins.iter().any(|&x| x > 0.0))
                .map(|(name, b)| (name.clone(), means(b)))
                .collect(),
            units,
            lanes,
            time_share,
        }
    }
}
