//! The bottleneck verdict: one line naming what limits throughput, with
//! the numbers behind it.

use super::bounds::{fmt_num, ResourceBound};
use super::latency::LatencyTolerance;
use crate::ops::{OpKind, OpSource};
use crate::run::Simulation;
use crate::stats::SimStats;
use shadersim_asm::Stage;

/// What limits throughput.
#[derive(Debug, Clone, PartialEq)]
pub struct Bottleneck {
    /// VALU, VMEM rate, export, dispatch starvation, memory latency, occupancy, ...
    pub kind: String,
    /// One line with the numbers.
    pub statement: String,
    /// Simulated CU clocks per wave (throughput view).
    pub clocks_per_wave: f64,
    /// Every resource's bound, largest first.
    pub bounds: Vec<ResourceBound>,
}

impl Simulation {
    /// One line naming what limits throughput, with the numbers behind it.
    pub fn bottleneck(&self, stats: &SimStats, latency: Option<&LatencyTolerance>) -> Bottleneck {
        let bounds = self.resource_bounds();
        let simds = f64::from(self.arch.get_u32("simds").unwrap_or(1).max(1));
        let interval = f64::from(self.arch.get_u32("issue_interval").unwrap_or(1).max(1));
        let waves = match self.dispatch.stage {
            Stage::Compute => {
                f64::from(stats.groups)
                    * f64::from(
                        self.dispatch
                            .workgroup_size
                            .div_ceil(stats.wave_size.max(1)),
                    )
            }
            _ => f64::from(stats.waves),
        };
        // CU clocks per wave: the CUs simulated side by side share the waves.
        let per_wave = if waves > 0.0 {
            stats.clocks as f64 * f64::from(stats.cus.max(1)) / waves
        } else {
            0.0
        };
        if let Some(b) = memory_bottleneck(self, stats, per_wave, &bounds) {
            return b;
        }
        let top = bounds.first().cloned();
        let occ = &self.occupancy;
        // Wave slots of the CU, and how many held a wave on average: a
        // front end that starves the CU leaves slots free.
        let capacity = simds * f64::from(occ.waves_per_simd);
        let mean_resident = if stats.clocks > 0 {
            stats.wave_clocks_sum as f64 / stats.clocks as f64
        } else {
            0.0
        };
        // A bound explains the clocks when that resource alone needs at
        // least 90% of them, and its own evidence agrees: the arrival of
        // waves limits only if wave slots stood free waiting for them.
        let explains = |b: &ResourceBound| {
            per_wave > 0.0
                && b.clocks_per_wave >= 0.9 * per_wave
                && (b.resource != "dispatch" || mean_resident < capacity - 0.5)
        };
        let chosen = bounds.iter().find(|b| explains(b)).cloned();
        let frame = Frame {
            per_wave,
            capacity,
            mean_resident,
            simds,
            interval,
        };
        let (kind, statement) = match &chosen {
            Some(b) => self.bound_verdict(b, stats, &frame),
            None => self.unbound_verdict(stats, latency, top, &frame),
        };
        Bottleneck {
            kind,
            statement,
            clocks_per_wave: per_wave,
            bounds,
        }
    }
}

/// The run's figures every verdict reads.
struct Frame {
    /// Simulated CU clocks per wave.
    per_wave: f64,
    /// Wave slots of the CU.
    capacity: f64,
    /// Waves resident on average.
    mean_resident: f64,
    /// SIMDs of the CU.
    simds: f64,
    /// Clocks between a SIMD's issue turns.
    interval: f64,
}

impl Simulation {
    /// The verdict when bound `b` explains the clocks: its kind and statement.
    fn bound_verdict(
        &self,
        b: &ResourceBound,
        stats: &SimStats,
        frame: &Frame,
    ) -> (String, String) {
        let per_wave = frame.per_wave;
        let kind = bound_kind(b, stats);
        let extra = self.bound_extra(b, stats, frame);
        let measured = b.clocks_per_wave - b.assumed_clocks_per_wave;
        let assumed_text = format!(
            "{} of these clocks are charged at assumed costs ({}: no published figure; --set a measured one)",
            fmt_num(b.assumed_clocks_per_wave),
            b.assumed_params.join(", ")
        );
        if b.assumed_clocks_per_wave > 0.0 && measured < 0.9 * per_wave {
            // The verdict would rest on an assumption: say so in
            // the verdict itself.
            let kind = format!("{kind} (assumed cost)");
            let statement = format!(
                "{kind}-bound only through assumed costs: {} = {} clocks per wave, the simulated CU needs {} clocks per wave; {assumed_text}; without them {} clocks per wave{extra}",
                b.detail,
                fmt_num(b.clocks_per_wave),
                fmt_num(per_wave),
                fmt_num(measured)
            );
            (kind, statement)
        } else {
            let note = if b.assumed_clocks_per_wave > 0.0 {
                format!("; {assumed_text}")
            } else {
                String::new()
            };
            (
                kind.clone(),
                format!(
                    "{kind}-bound: {} = {} clocks per wave, the simulated CU needs {} clocks per wave{extra}{note}",
                    b.detail,
                    fmt_num(b.clocks_per_wave),
                    fmt_num(per_wave)
                ),
            )
        }
    }

    /// What the bound's own evidence adds to its statement.
    fn bound_extra(&self, b: &ResourceBound, stats: &SimStats, frame: &Frame) -> String {
        let Frame {
            capacity,
            mean_resident,
            simds,
            interval,
            ..
        } = *frame;
        let issue_category = b.resource.strip_prefix("issue:");
        if b.resource == "dispatch" {
            format!(
                "; the CU is empty {:.0}% of the time and {} of its {} wave slots hold a wave on average",
                100.0 * stats.starve_rate(),
                fmt_num(mean_resident),
                fmt_num(capacity)
            )
        } else if let Some(cat) = issue_category {
            // Issue slots of one category: one per SIMD turn.
            let slots = stats.clocks as f64 * simds / interval;
            let issued = stats
                .category_names
                .iter()
                .position(|c| c == cat)
                .map_or(0, |i| stats.category_issues[i]);
            format!(
                "; {cat} ops took {:.0}% of the {cat} issue slots",
                100.0 * issued as f64 / slots.max(1.0)
            )
        } else if let Some(shared) = self
            .arch
            .units
            .get(&b.resource)
            .and_then(|u| u.shared.as_deref())
        {
            let sharing = self.arch.param(shared).unwrap_or(1.0);
            let path = format!(
                "{} utilization {:.0}%",
                b.resource,
                100.0 * stats.utilization(&b.resource)
            );
            if f64::from(stats.cus) >= sharing {
                format!(
                    "; the {} path shared by all {} CUs limits, not the CU ({path})",
                    b.resource, stats.cus
                )
            } else {
                format!(
                    "; the {} path is shared with {} CUs not simulated, assumed to saturate it ({path}; set [dispatch] cus = {sharing} to simulate them)",
                    b.resource,
                    sharing - f64::from(stats.cus)
                )
            }
        } else {
            format!(
                "; {} utilization {:.0}%",
                b.resource,
                100.0 * stats.utilization(&b.resource)
            )
        }
    }

    /// The verdict when no bound explains the clocks: stalls (occupancy or memory latency)
    /// or no single bound.
    fn unbound_verdict(
        &self,
        stats: &SimStats,
        latency: Option<&LatencyTolerance>,
        top: Option<ResourceBound>,
        frame: &Frame,
    ) -> (String, String) {
        let (per_wave, capacity) = (frame.per_wave, frame.capacity);
        let occ = &self.occupancy;
        let wait = self.longest_wait(stats);
        let top_text = top.map_or(String::new(), |b| {
            format!(
                "; the busiest resource, {}, needs {} of {} clocks per wave",
                b.resource,
                fmt_num(b.clocks_per_wave),
                fmt_num(per_wave)
            )
        });
        let lat = latency.map_or(String::new(), bracket_words);
        // Occupancy limits only if the slots it allows were all
        // taken at some point (not in a one-wave run).
        let slots_filled = f64::from(stats.peak_waves) >= capacity;
        let occ_limited = occ.waves_per_simd < occ.limits[0] && slots_filled;
        let occ_text = if slots_filled {
            format!(
                "occupancy {} waves per SIMD (limited by {})",
                occ.waves_per_simd, occ.limiter
            )
        } else {
            format!(
                "at most {} waves resident of the {} occupancy allows ({} per SIMD)",
                stats.peak_waves,
                fmt_num(capacity),
                occ.waves_per_simd
            )
        };
        // Waves that cannot issue a fifth of the turns they could:
        // the stalls, not a unit, explain the clocks.
        let stalled = stats.stall_rate() > 0.2;
        let kind = match (stalled, occ_limited) {
            (true, true) => "occupancy",
            (true, false) => "memory latency",
            (false, _) => "no single bound",
        };
        let statement = if stalled {
            format!(
                "{kind}-bound: no unit is saturated (stall rate {:.0}%{}); {occ_text}{top_text}{lat}",
                100.0 * stats.stall_rate(),
                wait.map_or(String::new(), |w| format!(", {w}")),
            )
        } else {
            format!(
                "no single bound: no resource needs 90% of the clocks and waves rarely stall (stall rate {:.1}%); {occ_text}{top_text}{lat}",
                100.0 * stats.stall_rate(),
            )
        };
        (kind.to_string(), statement)
    }

    /// Where waves sit longest, and how much of the time.
    fn longest_wait(&self, stats: &SimStats) -> Option<String> {
        let worst = (0..self.compiled.ops.len())
            .max_by(|&a, &b| stats.op_sat[a].cmp(&stats.op_sat[b]).then(b.cmp(&a)));
        worst.filter(|&o| stats.op_sat[o] > 0).map(|o| {
            let op = &self.compiled.ops[o];
            let place = match op.source {
                crate::ops::OpSource::Program(i) if op.kind == OpKind::End => {
                    let s = &self.program.instructions[i];
                    format!(
                        "the end-of-program drain (line {}, `{}`: outstanding memory and exports)",
                        s.pos.line, s.text
                    )
                }
                crate::ops::OpSource::Program(i) => {
                    let s = &self.program.instructions[i];
                    format!("line {} (`{}`)", s.pos.line, s.text)
                }
                crate::ops::OpSource::Fetch(i) => {
                    format!("the fetch shader's `{}`", self.compiled.fetch_shader[i])
                }
                crate::ops::OpSource::ImplicitEnd => {
                    "the implicit end-of-program drain (outstanding memory and exports)".into()
                }
            };
            format!(
                "waves sit on {place} {:.0}% of the time",
                100.0 * stats.op_stall_rate(o)
            )
        })
    }
}

/// The bottleneck kind of a bound's resource.
fn bound_kind(b: &ResourceBound, stats: &SimStats) -> String {
    match (b.resource.as_str(), b.resource.strip_prefix("issue:")) {
        ("valu", _) => "VALU".to_string(),
        ("vmem", _) => "VMEM rate".to_string(),
        ("export", _) => "export".to_string(),
        // Starvation only when the CU really stood empty.
        ("dispatch", _) if stats.starve_rate() >= 0.01 => "dispatch starvation".to_string(),
        ("dispatch", _) => "dispatch rate".to_string(),
        ("dependency", _) => "dependency latency".to_string(),
        ("ray", _) => "ray accelerator".to_string(),
        // CDNA's matrix core per SIMD (the models' `matrix` unit).
        ("matrix", _) => "matrix-core".to_string(),
        ("lds", _) => "LDS".to_string(),
        ("smem", _) => "SMEM".to_string(),
        ("salu", _) => "SALU".to_string(),
        (_, Some(cat)) => format!("{cat} issue"),
        (other, None) => other.to_string(),
    }
}

/// The bottleneck statement when the memory system is the limit: a cache
/// level's bandwidth nearly saturated over the run, or an LDS saturated by
/// bank conflicts (naming the line that costs most). `None` otherwise.
fn memory_bottleneck(
    sim: &Simulation,
    stats: &SimStats,
    per_wave: f64,
    bounds: &[ResourceBound],
) -> Option<Bottleneck> {
    let clocks = stats.clocks.max(1) as f64;
    let busiest = stats
        .cache
        .iter()
        .filter_map(|l| {
            let bw = l.bytes_per_clock?;
            Some((l, l.bytes as f64 / (bw * clocks), bw))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((l, util, bw)) = busiest.filter(|b| b.1 >= 0.9) {
        let kind = format!("{} bandwidth", l.name.to_uppercase());
        // A derived bandwidth (a formula's quotient) prints to 3 decimals.
        let bw = ((bw * 1000.0).round() / 1000.0).to_string();
        let statement = format!(
            "{kind}-bound: {} bytes served at {bw} bytes per clock per CU use {:.0}% of the {} clocks; requests waited {} clocks for it; the simulated CU needs {:.1} clocks per wave",
            l.bytes,
            100.0 * util.min(1.0),
            stats.clocks,
            l.queue_clocks,
            per_wave
        );
        return Some(Bottleneck {
            kind,
            statement,
            clocks_per_wave: per_wave,
            bounds: bounds.to_vec(),
        });
    }
    let lds = bounds.iter().find(|b| b.resource == "lds")?;
    if !(per_wave > 0.0 && lds.clocks_per_wave >= 0.9 * per_wave) {
        return None;
    }
    // The LDS op whose conflicts cost the most clocks per wave.
    let mean = sim.mean_executions();
    let (i, op, lost) = sim
        .compiled
        .ops
        .iter()
        .filter_map(|op| {
            let d = op.lds_conflict.filter(|d| *d > 1.0)?;
            let OpSource::Program(i) = op.source else {
                return None;
            };
            let lost = mean[i] * f64::from(op.cost) * (1.0 - 1.0 / d);
            Some((i, op, lost))
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))?;
    let s = &sim.program.instructions[i];
    let d = op.lds_conflict.unwrap_or(1.0);
    let kind = "LDS bank conflicts".to_string();
    let statement = format!(
        "{kind} on line {} (`{}`): {d:.1}-way, {} clocks per execution instead of {:.0}, {:.0} clocks per wave lost; {} = {:.1} clocks per wave, the simulated CU needs {:.1}",
        s.pos.line,
        s.text,
        op.cost,
        f64::from(op.cost) / d,
        lost,
        lds.detail,
        lds.clocks_per_wave,
        per_wave
    );
    Some(Bottleneck {
        kind,
        statement,
        clocks_per_wave: per_wave,
        bounds: bounds.to_vec(),
    })
}

/// The latency search's bracket in words: a simulation passed at its lower
/// end C and failed at its upper one F, so the shader hides at least C and
/// at most F - 1 clocks ("absorbs 0 but not 85" read as "absorbs none",
/// issue 47 item 7); named by the parameter searched.
fn bracket_words(l: &LatencyTolerance) -> String {
    let what = if l.parameter == "vmem_latency" {
        "VMEM latency"
    } else {
        "extra latency per first-level miss"
    };
    match (l.clocks, l.fails_at) {
        (Some(c), Some(f)) if f > c + 1 => format!(
            "; it hides at least {c} and at most {} clocks of {what} with throughput within 5% (it stayed within 5% at {c} and fell below at {f}; the search tried nothing between)",
            f - 1
        ),
        (Some(c), Some(f)) => format!(
            "; it hides exactly {c} clocks of {what} with throughput within 5% (it stayed within 5% at {c} and fell below at {f})"
        ),
        (Some(c), None) => format!(
            "; it hides at least {c} clocks of {what} (no latency the search tried made throughput fall 5% below)"
        ),
        (None, _) => String::new(),
    }
}
