//! The search run on a [`Simulation`]: its parameter, its first
//! simulation beside the main run, and the probes as runs of the
//! simulation with one latency changed.

use super::budget::SearchPlan;
use super::search::{bracket, search, LatencyTolerance};
use super::threshold::{throughput, Probe, Threshold, SEARCH_LIMIT};
use crate::error::SimError;
use crate::machine::ProbeRun;
use crate::ops::OpKind;
use crate::run::{PrepareError, Simulation};
use crate::stats::SimStats;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The search's first simulation, which needs nothing from the main run,
/// so it can run beside it: made by [`Simulation::latency_head`], used by
/// [`Simulation::latency_tolerance_with`] of the same simulation. It is the
/// zero-latency base when the model's latency is not 0 (else the main run
/// is the base and there is nothing to run beside it: the search's probes
/// are placed from the main run's statistics). A probe run: the search
/// reads its clocks, threads and CUs only.
#[derive(Debug, Clone)]
pub struct LatencyHead(Option<ProbeRun>);

/// Whether and how an analysis searches the latency tolerance.
#[derive(Debug, Clone)]
pub enum LatencySearch {
    /// No search.
    Off,
    /// Search, running its first simulation after the main run.
    On,
    /// Search, its first simulation run beside the main run
    /// ([`Simulation::latency_head`]; `None`: there is nothing to search).
    Started(Option<LatencyHead>),
}

/// What the search varies: the parameter, the model's value of it, and
/// that value as a latency the search could probe (the main run is then
/// a free probe).
struct SearchSetup {
    param: String,
    model_latency: f64,
    main: Option<u64>,
}

impl Simulation {
    /// The search's parameter, or `None` when there is nothing to search
    /// (no such parameter, or no vector memory op in the trace).
    fn search_setup(&self) -> Option<SearchSetup> {
        // With the hierarchy on, the question is how much extra miss
        // latency the shader absorbs: the levels' latencies stay, every
        // request the first level does not serve takes longer.
        let param = match &self.arch.cache {
            Some(c) if c.enabled => c.miss_extra_latency.clone(),
            _ => "vmem_latency".to_string(),
        };
        let model_latency = self.arch.param(&param)?;
        let uses_vmem = self
            .compiled
            .ops
            .iter()
            .zip(&self.compiled.in_trace)
            .any(|(op, &run)| run && op.kind == OpKind::Unit && op.class.is_vmem());
        // The main run is a probe at the model's latency when that is a
        // whole number of clocks the search could probe.
        let main = (model_latency.fract() == 0.0
            && (0.0..=SEARCH_LIMIT as f64).contains(&model_latency))
        .then_some(model_latency as u64);
        uses_vmem.then_some(SearchSetup {
            param,
            model_latency,
            main,
        })
    }

    /// `main` (the main run) and, with `search`, the latency search's first
    /// simulation beside it ([`Simulation::latency_head`]): what `main`
    /// gave, and how [`Simulation::analyse_run`] should then search
    /// ([`LatencySearch::Off`] without `search`).
    pub fn beside_latency_head<R: Send>(
        &self,
        search: bool,
        main: impl FnOnce() -> R + Send,
    ) -> (R, Result<LatencySearch, PrepareError>) {
        let (result, head) = rayon::join(main, || search.then(|| self.latency_head()));
        let search = match head {
            None => Ok(LatencySearch::Off),
            Some(head) => head.map(LatencySearch::Started),
        };
        (result, search)
    }

    /// Run the latency search's first simulation (`None`: there is no
    /// search). It does not depend on the main run: run the two side by
    /// side and pass both to [`Simulation::latency_tolerance_with`].
    pub fn latency_head(&self) -> Result<Option<LatencyHead>, PrepareError> {
        let Some(setup) = self.search_setup() else {
            return Ok(None);
        };
        let base = if setup.main == Some(0) {
            None
        } else {
            let base = self.with_param(&setup.param, 0.0)?.run_probe()?;
            if base.stopped {
                // (What a full run past the clock limit says.)
                return Err(SimError::TooLong(base.clocks).into());
            }
            Some(base)
        };
        Ok(Some(LatencyHead(base)))
    }

    /// The largest `vmem_latency` the shader absorbs before its throughput
    /// falls more than 5% below its zero-latency throughput ("latency
    /// potential" in seed 004), found by re-running the simulation (see
    /// the module comment of `latency.rs`), within
    /// [`Simulation::latency_budget`]: the answer `lo` passes and a probe
    /// at `hi` failed (if one did within the budget). `stats` is
    /// this simulation's own run (a free probe at the model's latency).
    /// Runs the search's first simulation after it; see
    /// [`Simulation::latency_tolerance_with`] to run them side by side.
    pub fn latency_tolerance(
        &self,
        stats: &SimStats,
    ) -> Result<Option<LatencyTolerance>, PrepareError> {
        self.latency_tolerance_with(stats, None)
    }

    /// [`Simulation::latency_tolerance`] with the search's first
    /// simulation already run (`head`, from [`Simulation::latency_head`]
    /// of this simulation; `None`: run it now).
    pub fn latency_tolerance_with(
        &self,
        stats: &SimStats,
        head: Option<LatencyHead>,
    ) -> Result<Option<LatencyTolerance>, PrepareError> {
        let Some(setup) = self.search_setup() else {
            return Ok(None);
        };
        let head = match head {
            Some(h) => h,
            None => match self.latency_head()? {
                Some(h) => h,
                None => return Ok(None),
            },
        };
        let param = setup.param.as_str();
        // The zero-latency base, when it is not the main run, is a run of
        // the search, paid from its budget.
        let runs = AtomicU32::new(u32::from(head.0.is_some()));
        // A run's work: its ops, issued and passed (the same at every
        // latency: the waves run the same traces).
        let work = stats.issues + stats.free_ops;
        let shared = OnceLock::new();
        let run = |lat: u64, limit: u64| -> Result<(Probe, f64), PrepareError> {
            runs.fetch_add(1, Ordering::Relaxed);
            let (probe, done) = self.shared_probe(param, lat, limit, &shared)?;
            let share = match probe {
                Probe::Finished(_) => 1.0,
                Probe::Stopped(_) => (done as f64 / work.max(1) as f64).min(1.0),
            };
            Ok((probe, share))
        };
        let base_run = head.0.is_some();
        // The base's clocks, threads and CUs (all the search reads of it).
        let base = match head.0 {
            Some(b) => (b.clocks, b.threads, b.cus),
            None => (stats.clocks, stats.threads, stats.cus),
        };
        let threshold = Threshold::from_counts(base.1, base.2, base.0);
        let mut known = vec![(0, Probe::Finished(base.0))];
        if let Some(m) = setup.main {
            known.push((m, Probe::Finished(stats.clocks)));
        }
        let (estimate, ceiling, slope) = match self.latency_estimate(stats, &threshold) {
            Some((e, c, s)) => (Some(e), Some(c), Some(s)),
            None => (None, None, None),
        };
        let plan = SearchPlan {
            budget: self.latency_budget,
            estimate,
            ceiling,
            slope,
            // The base, when the search ran it, is paid from the budget.
            spent: if base_run { 1.0 } else { 0.0 },
        };
        let found = search(&threshold, &known, &plan, run)?;
        let curve = found
            .probes
            .iter()
            .filter_map(|&(lat, p)| match p {
                Probe::Finished(c) => Some((lat, throughput(base.1, c, base.2))),
                Probe::Stopped(_) => None,
            })
            .collect();
        Ok(Some(LatencyTolerance {
            curve,
            clocks: found.answer,
            fails_at: bracket(&threshold, &found.probes).1,
            searched_up_to: SEARCH_LIMIT,
            model_latency: setup.model_latency.round() as u64,
            zero_latency_throughput: threshold.base_throughput(),
            model_throughput: stats.throughput_per_clock(),
            runs: runs.into_inner(),
            parameter: param.to_string(),
            precision: plan.budget.precision,
            budget_runs: plan.budget.runs,
            work_runs: found.work,
            end: found.end,
            estimate,
        }))
    }

    /// The estimate the search's first probe is placed from, and the
    /// slope it predicts, from the trace and the main run's statistics
    /// (`None`: no wave waits for vector memory).
    ///
    /// A wave that waits for a load it issued *exposes* the load: from
    /// issue to data it takes the op's service clocks plus the latency L,
    /// and the wave cannot pass its wait before. `exposures` counts, per
    /// wave (a mean over the traces, by weight), the waits and program
    /// ends that find vector memory ops of the wave outstanding on a
    /// counter they wait for (the counters are in order: a wait for at
    /// most N outstanding waits for all but the newest N), each weighted
    /// with the cache hierarchy by the share of executions a first-level
    /// miss delays (the most of the ops it waits for), and `service` sums
    /// the most any of those ops takes besides L: its service clocks, and
    /// with the cache hierarchy (L is then the extra latency of a miss)
    /// the mean latency of its requests in the main run. Exposures of one
    /// wave come one after
    /// the other, and the waves that share a wave slot over the run (`g`
    /// = waves / the most resident at once, from the run's statistics)
    /// run one after the other, so once L shows, the run takes at least
    /// `g * (service + exposures * L)` clocks: its clocks then rise by
    /// `g * exposures` per clock of latency (the slope). Below that the
    /// other waves' work hides the latency: the run keeps its
    /// zero-latency clocks as long as that bound stays under them. The
    /// throughput holds within 5% while the bound stays within the pass
    /// limit `P` ([`Threshold::max_passing_clocks`]):
    ///
    /// `L <= (P / g - service) / exposures`
    ///
    /// An upper estimate (a wave's own work before its first load and
    /// after its last wait adds to the chain, and a wave waits for
    /// issue turns the others take), exact for one wave with independent
    /// work between a load and its wait (the test of `latency_search.rs`).
    /// For N waves resident together the same work hides N times the
    /// latency: the pass limit then holds N waves' work, which is the
    /// "per-wave independent work times the waves that can hide it".
    ///
    /// The first probe goes below that, to where the run's own clocks
    /// put it: if the latency showed from its first clock (every exposure
    /// already on the run's longest chain at latency 0, no slack), each
    /// clock of it would add the slope to the zero-latency run's clocks
    /// `C0` ([`Threshold::base_clocks`]), which pass `P` at
    ///
    /// `L = (P - C0) / (g * exposures)`
    ///
    /// The estimate is the smaller of the two. On the fixtures the
    /// no-slack one usually lies below the answer, within 2 times of it
    /// (slack the waves' other work gives an exposure raises the answer;
    /// several misses in series behind one wait, which the weights count
    /// once, lower it), where the upper one lay a median 3.9 times above:
    /// a probe there passes, a point on the curve at a whole run's cost
    /// that a bracket needs anyway, and the probe beside it can fail
    /// within 2 times of it.
    ///
    /// Returns the estimate, the upper estimate and the slope.
    pub fn latency_estimate(&self, stats: &SimStats, th: &Threshold) -> Option<(u64, u64, f64)> {
        let walk = self.walk();
        let (mut exposures, mut service) = (0.0, 0.0);
        for (trace, weight) in self.weighted_traces() {
            let (n, s) = self.trace_exposures(self.compiled.trace_ops(&walk, trace), stats);
            exposures += weight * n;
            service += weight * s as f64;
        }
        let slots = f64::from(stats.peak_waves.max(1));
        let g = (f64::from(stats.waves.max(1)) / slots).max(1.0);
        if exposures <= 0.0 || th.max_passing_clocks() == u64::MAX {
            return None;
        }
        let slope = g * exposures;
        let upper = (th.max_passing_clocks() as f64 / g - service) / exposures;
        let no_slack = th.max_passing_clocks().saturating_sub(th.base_clocks()) as f64 / slope;
        let clamp = |e: f64| e.clamp(1.0, SEARCH_LIMIT as f64) as u64;
        Some((clamp(upper.min(no_slack)), clamp(upper), slope))
    }

    /// One trace's exposures and their service clocks (see
    /// [`Simulation::latency_estimate`]).
    fn trace_exposures(&self, trace: impl Iterator<Item = u32>, stats: &SimStats) -> (f64, u64) {
        // What an op's data takes beyond the latency searched: its service
        // clocks, and with the cache hierarchy the levels' own latencies
        // the main run measured (the searched extra latency is 0 there);
        // in flat-latency mode the searched latency is all of it.
        let fixed = |i: usize, op: &crate::ops::StaticOp| {
            let levels = stats.op_cache.get(i).map_or(0.0, |c| c.mean_latency());
            op.cost + levels.round() as u32
        };
        // The share of an op's executions the searched latency delays:
        // every one in flat-latency mode, with the hierarchy those with a
        // request the first level missed (at most one per missed request).
        let delayed = |i: usize| {
            stats.op_cache.get(i).map_or(1.0, |c| {
                let missed = c.requests.saturating_sub(c.first_level_hits) as f64;
                (missed / c.executions.max(1) as f64).min(1.0)
            })
        };
        // Per counter, the ops outstanding, oldest first: for a vector
        // memory op what its data takes besides the latency and the share
        // of its executions the latency delays (`None`: another op). The
        // counters are in order: a wait for at most N outstanding waits
        // for all but the newest N, whatever op came last.
        let mut outstanding: [std::collections::VecDeque<Option<(u32, f64)>>; 16] =
            Default::default();
        // Vector memory ops issued since the last exposure: a wait for
        // ops already in flight during an earlier exposure overlaps it.
        let mut fresh = 0u32;
        let (mut n, mut service) = (0f64, 0u64);
        for i in trace {
            let op = &self.compiled.ops[i as usize];
            match op.kind {
                OpKind::Unit => {
                    fresh += u32::from(op.class.is_vmem());
                    let entry = op
                        .class
                        .is_vmem()
                        .then(|| (fixed(i as usize, op), delayed(i as usize)));
                    for c in op.inc.indices() {
                        outstanding[c].push_back(entry);
                    }
                }
                OpKind::Wait | OpKind::End => {
                    let mut exposed: Option<(u32, f64)> = None;
                    for (c, queue) in outstanding.iter_mut().enumerate() {
                        let limit = if op.kind == OpKind::End {
                            0
                        } else {
                            op.wait.get(c).map_or(usize::MAX, |&w| {
                                if w == u8::MAX {
                                    usize::MAX
                                } else {
                                    usize::from(w)
                                }
                            })
                        };
                        while queue.len() > limit {
                            if let Some(Some((s, d))) = queue.pop_front() {
                                let (s0, d0) = exposed.unwrap_or((0, 0.0));
                                exposed = Some((s0.max(s), d0.max(d)));
                            }
                        }
                    }
                    if let (Some((s, d)), true) = (exposed, fresh > 0) {
                        n += d;
                        service += u64::from(s);
                        fresh = 0;
                    }
                }
                _ => {}
            }
        }
        (n, service)
    }

    /// One probe of the search: this simulation with `param` set to
    /// `latency`, stopped once it passes `limit` clocks (or its own clock
    /// limit, if lower), and the ops its waves issued or passed by then
    /// (all of them when it finished).
    pub fn latency_probe(
        &self,
        param: &str,
        latency: u64,
        limit: u64,
    ) -> Result<(Probe, u64), PrepareError> {
        let mut s = self.with_param(param, latency as f64)?;
        s.max_clocks = limit.min(self.max_clocks);
        // A probe run: the machine without the statistics no probe reads
        // (the same clocks and stop as a full run).
        Ok(probe_of(s.run_probe()?))
    }

    /// [`Simulation::latency_probe`], on this simulation's own compiled
    /// ops when they are the probe's: `shared` (one per search) holds
    /// whether the ops compiled for another value of `param` equal this
    /// run's, found by the first probe that compiles them. (A latency
    /// reaches the machine's units and memory, not the ops, unless a
    /// model's cost rule names it: compared, not assumed.)
    fn shared_probe(
        &self,
        param: &str,
        latency: u64,
        limit: u64,
        shared: &OnceLock<bool>,
    ) -> Result<(Probe, u64), PrepareError> {
        let max_clocks = limit.min(self.max_clocks);
        if shared.get() == Some(&true) {
            // The model as `with_param` sets it, the ops as they are.
            let mut arch = self.arch.clone();
            arch.set(param, &(latency as f64).to_string())?;
            return Ok(probe_of(self.run_probe_on(
                &arch,
                &self.compiled,
                max_clocks,
            )?));
        }
        let s = self.with_param(param, latency as f64)?;
        // (Side by side probes may both compare: they find the same.)
        let _ = shared.set(s.compiled == self.compiled);
        Ok(probe_of(s.run_probe_on(
            &s.arch,
            &s.compiled,
            max_clocks,
        )?))
    }
}

/// What the search reads of a probe run: its verdict's input and the ops
/// it got through.
fn probe_of(run: ProbeRun) -> (Probe, u64) {
    // The machine stops as soon as its clock passes the limit, and a run's
    // clock count is the clock it ended at: stopped means it would have
    // taken more than `max_clocks`.
    let probe = if run.stopped {
        Probe::Stopped(run.clocks)
    } else {
        Probe::Finished(run.clocks)
    };
    (probe, run.work)
}
