//! From a program, its hints and a model to results: preparing a run and
//! running it. What a run means (bounds, bottleneck, latency tolerance)
//! is `analysis`, above this module.

use crate::config::DispatchConfig;
use crate::error::SimError;
use crate::machine::{simulate, SimInput};
use crate::occupancy::Occupancy;
use crate::ops::{CompileInput, SimProgram};
use crate::prepare;
pub use crate::prepare::PrepareError;
use crate::stats::SimStats;
use shadersim_arch::ArchSpec;
use shadersim_asm::{Program, Stage};
use shadersim_cfg::Cfg;
use shadersim_trace::{
    find_buffers, memory_facts, BufferMap, Hints, MemoryFacts, TracePlan, TraceSummary, TraceWalk,
};
use std::collections::HashMap;

/// Default clock limit of one run.
pub const DEFAULT_MAX_CLOCKS: u64 = 20_000_000_000;

/// Bytes between consecutive buffers' default bases beyond their 2^40 spacing:
/// [`shadersim_trace::STAGGER_LINES`] of the model's largest cache line (64 bytes without a
/// hierarchy), a multiple of every level's line, so streams stay line-aligned.
pub fn buffer_stagger(arch: &ArchSpec) -> u64 {
    let largest = arch
        .cache
        .as_ref()
        .map(|c| {
            c.level
                .iter()
                .filter_map(|l| arch.param(&l.line))
                .fold(0.0f64, f64::max)
        })
        .filter(|l| *l >= 1.0)
        .map_or(64, |l| l.round() as u64);
    shadersim_trace::STAGGER_LINES * largest
}

/// A prepared run: everything decided, ready to simulate (and re-simulate
/// with a parameter changed).
#[derive(Debug, Clone)]
pub struct Simulation {
    /// The program.
    pub(crate) program: Program,
    /// Its control flow.
    pub(crate) cfg: Cfg,
    /// The resolved hints.
    pub(crate) plan: TracePlan,
    /// The distinct traces waves run (one unless hints make waves differ):
    /// their lengths and executions per instruction. The sequences are not
    /// stored: they stream from [`Simulation::walk`].
    pub(crate) wave_traces: Vec<TraceSummary>,
    /// The trace each wave runs, by launch order (empty: all the first).
    pub(crate) wave_trace: Vec<u32>,
    /// Memory hints by instruction.
    pub(crate) memory: HashMap<usize, MemoryFacts>,
    /// The buffer of every memory instruction and each buffer's base.
    pub(crate) buffers: BufferMap,
    /// Dispatch parameters.
    pub(crate) dispatch: DispatchConfig,
    /// Vertex inputs of the synthesized fetch shader.
    pub(crate) vertex_inputs: u32,
    /// The model (with overrides applied).
    pub(crate) arch: ArchSpec,
    /// Compiled ops (private: reports read them through `view`).
    pub(crate) compiled: SimProgram,
    /// Occupancy.
    pub(crate) occupancy: Occupancy,
    /// Decisions worth telling the user (defaults taken, rules applied).
    pub(crate) notes: Vec<String>,
    /// Clock limit.
    pub(crate) max_clocks: u64,
    /// Jump over idle clocks and idle SIMD turns (exact; off only to test
    /// that it is exact).
    pub(crate) skip_idle: bool,
    /// Lane figures, when lanes diverge (`lane_probability` hints).
    pub(crate) lanes: Option<crate::lanes::LaneFigures>,
    /// How far the latency-tolerance search goes: its work budget and the
    /// bracket width it aims for ([`crate::analysis::latency::SearchBudget`]).
    pub(crate) latency_budget: crate::analysis::latency::SearchBudget,
    /// The loop simulated for fewer trips than it makes, when the wave's whole trace would
    /// pass the bound ([`crate::loop_sample`]); the kernel time adds the trips left out.
    pub(crate) loop_sample: Option<crate::loop_sample::LoopSample>,
}

/// Compute: the program's declared workgroup size when the run uses it (a `workgroup_size`
/// hint of another thread count replaces it, and the image ops' 2D tiles then take the
/// default 8-wide tile).
fn declared_workgroup(program: &Program, dispatch: &DispatchConfig) -> Option<[u32; 3]> {
    let dims = program.declared.workgroup_size?;
    (dispatch.stage == Stage::Compute
        && dims.iter().try_fold(1u32, |a, &d| a.checked_mul(d)) == Some(dispatch.workgroup_size))
    .then_some(dims)
}

/// The image ops' defaults (texel tiles, filters) by source line, in program order.
fn image_defaults(program: &Program, sim: &SimProgram) -> Vec<shadersim_trace::ImageDefault> {
    // The op of each instruction with every lane active (masked copies come later).
    sim.op_of_instr
        .iter()
        .enumerate()
        .filter_map(|(i, &op)| {
            let mut d = sim.ops[op as usize].image_default.clone()?;
            d.line = program.instructions[i].pos.line;
            Some(d)
        })
        .collect()
}

/// What a prepared run holds, read by reports and tools (the fields stay
/// private so that a run is changed only through the methods that keep it
/// consistent: [`Simulation::with_param`], [`Simulation::set_latency_budget`], ...).
impl Simulation {
    /// The program as run: the file's, with the launch's kernel arguments
    /// and the hints' declared resources applied.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The program's control flow (blocks, loops, branch kinds).
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    /// The resolved hints: loop counts, branch choices, lane branches and
    /// the defaults taken where the hints said nothing.
    pub fn plan(&self) -> &TracePlan {
        &self.plan
    }

    /// The distinct traces waves run (one unless hints make waves differ):
    /// their lengths and executions per instruction. The sequences are not
    /// stored: they stream from [`Simulation::walk`].
    pub fn wave_traces(&self) -> &[TraceSummary] {
        &self.wave_traces
    }

    /// The index into [`Simulation::wave_traces`] of the trace each wave
    /// runs, by launch order (empty: every wave runs the first).
    pub fn trace_of_wave(&self) -> &[u32] {
        &self.wave_trace
    }

    /// The memory facts (hinted or read from the code) of every memory
    /// instruction, by instruction index.
    pub fn memory(&self) -> &HashMap<usize, MemoryFacts> {
        &self.memory
    }

    /// The buffer of every memory instruction and each buffer's base.
    pub fn buffers(&self) -> &BufferMap {
        &self.buffers
    }

    /// The dispatch the run simulates (stage, wave size, workgroups, CUs).
    pub fn dispatch(&self) -> &DispatchConfig {
        &self.dispatch
    }

    /// The model the run charges by, with every `--set` and hint applied.
    pub fn arch(&self) -> &ArchSpec {
        &self.arch
    }

    /// The occupancy the run launches waves with: waves per SIMD and what
    /// limits them.
    pub fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    /// Decisions worth telling the user (defaults taken, rules applied), in
    /// the order they were made.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Put `notes` before the run's own (what a reader decided before the
    /// run was prepared, such as a Triton launch's defaults).
    pub fn prepend_notes(&mut self, notes: impl IntoIterator<Item = String>) {
        self.notes.splice(0..0, notes);
    }

    /// The lane figures (active lanes per op and path), when lanes diverge
    /// (`lane_probability` hints); `None` when every lane takes every branch
    /// the same way.
    pub fn lanes(&self) -> Option<&crate::lanes::LaneFigures> {
        self.lanes.as_ref()
    }

    /// How far the latency-tolerance search goes: its work budget and the
    /// bracket width it aims for.
    pub fn latency_budget(&self) -> crate::analysis::latency::SearchBudget {
        self.latency_budget
    }

    /// The loop run for fewer trips than it makes, when a wave's whole trace would pass the
    /// bound ([`crate::loop_sample`]).
    pub fn loop_sample(&self) -> Option<&crate::loop_sample::LoopSample> {
        self.loop_sample.as_ref()
    }

    /// Let the latency-tolerance search go as far as `budget` says
    /// (`--latency-precision`).
    pub fn set_latency_budget(&mut self, budget: crate::analysis::latency::SearchBudget) {
        self.latency_budget = budget;
    }

    /// Step every clock instead of skipping idle ones: the same statistics,
    /// slower; for the tests that prove skipping exact.
    pub fn step_every_clock(&mut self) {
        self.skip_idle = false;
    }
}

impl Simulation {
    /// Resolve hints and compile. `overrides` are `--set` pairs; a
    /// `[dispatch] cu_count` hint overrides the model's `cu_count` too.
    pub fn prepare(
        program: &Program,
        arch: ArchSpec,
        hints: &Hints,
    ) -> Result<Simulation, PrepareError> {
        let mut arch = arch;
        let mut notes = Vec::new();
        // The `vgprs` / `sgprs` / `lds_bytes` hints stand for what the file
        // would declare: everything below (occupancy) sees them.
        // The launch's argument values (and `__local` sizes) go into the kernel-argument
        // segment the code loads from, before anything reads the program.
        // A grid without a block has workgroups of the run's size: the hint's, else the
        // dispatch default's (the kernel's required size wins inside).
        let default_threads = hints
            .dispatch
            .workgroup_size
            .as_ref()
            .map_or(DispatchConfig::new(Stage::Compute).workgroup_size, |w| {
                *w.get_ref()
            });
        let with_args =
            shadersim_trace::apply_kernel_args(program, &hints.launch, default_threads)?;
        let program = with_args.as_ref().unwrap_or(program);
        let with_resources = hints.with_declared_resources(program)?;
        let program = with_resources.as_ref().unwrap_or(program);
        let cfg = Cfg::build(program)?;
        let mut plan = TracePlan::from_hints(program, &cfg, hints)?;
        // The plan's own walk, checked against the bound first; a launch's kernel past the
        // bound runs one loop for fewer trips (crate::loop_sample).
        let (trace, sample) = match TraceWalk::new(program, &cfg, &plan).summary(None) {
            Ok(trace) => (trace, None),
            Err(e) if samples_loops(hints, &plan) => {
                match crate::loop_sample::choose(program, &cfg, &mut plan, &e) {
                    Some((sample, trace)) => (trace, Some(sample)),
                    None => return Err(e.into()),
                }
            }
            Err(e) => return Err(e.into()),
        };
        let mut memory = memory_facts(program, hints)?;
        let mut buffers = find_buffers(program, &cfg, &memory)?;
        let d = &hints.dispatch;
        let stage = prepare::stage(d, program, &mut notes)?;
        let mut dispatch =
            prepare::dispatch_of_hints(hints, program, &cfg, stage, &arch, &mut notes)?;
        notes.extend(crate::memstream::check_hints(program, &memory, &arch)?);
        notes.extend(crate::memstream::memory_model_notes(&arch));
        prepare::apply_cu_keys(d, stage, &mut arch, &mut dispatch)?;
        let vertex_inputs = prepare::vertex_inputs(d, program, stage, &mut notes)?;
        let wave_size =
            prepare::choose_wave_size(program, &arch, d.wave_size.as_ref(), &mut notes)?;
        dispatch.wave_size = wave_size;
        plan.wave_lanes = wave_size;
        // Address patterns read from the code fill the keys the hints left out (the hints were
        // checked above, on their own).
        let block = crate::launch::block_shape(&hints.launch, program, &dispatch)?;
        plan.defaults.addresses = shadersim_trace::apply_derived_addresses(
            program,
            &cfg,
            &mut memory,
            wave_size,
            block,
            |id| match &sample {
                // Addresses move as the whole loop moves them.
                Some(s) if s.loop_id == id => Some(s.trips),
                _ => fixed_iterations(&plan, id),
            },
        );
        prepare::note_one_dimensional(hints, program, &cfg, &dispatch, &mut notes);
        let mut lane_tally = (!plan.lane_branches.is_empty())
            .then(|| crate::lanes::LaneTally::new(program.instructions.len()));
        let group_waves = if stage == Stage::Compute {
            dispatch.workgroup_size.div_ceil(wave_size)
        } else {
            1
        };
        let occupancy =
            prepare::occupancy(program, &arch, d, group_waves, &mut dispatch, &mut notes)?;
        let walk = TraceWalk::new(program, &cfg, &plan);
        let total = dispatch.count.saturating_mul(group_waves.max(1));
        let prepare::DistinctTraces {
            traces: wave_traces,
            of_wave: wave_trace,
            first_waves: trace_waves,
        } = prepare::distinct_traces(&walk, trace, total, wave_size, &mut lane_tally)?;
        let mut sim = SimProgram::compile(&CompileInput {
            program,
            walk: &walk,
            trace_waves: &trace_waves,
            wave_trace: &wave_trace,
            memory: &memory,
            stage,
            vertex_inputs,
            wave_size,
            workgroup: declared_workgroup(program, &dispatch),
            arch: &arch,
        })?;
        plan.defaults.images = image_defaults(program, &sim);
        buffers.set_default_bases(buffer_stagger(&arch));
        sim.set_stream_bases(&buffers);
        if stage == Stage::Vertex {
            notes.push("vertex waves arrive every cu_count x max(64, 64 / vertices_per_triangle) clocks; seed 004 prints min(), its reasoning gives max() (gcn-model.md)".into());
        }
        let lanes = lane_tally.map(|t| crate::lanes::LaneFigures::new(&t, &sim, wave_size));
        let mut simulation = Simulation {
            lanes,
            program: program.clone(),
            cfg,
            plan,
            wave_traces,
            wave_trace,
            memory,
            buffers,
            dispatch,
            vertex_inputs,
            arch,
            compiled: sim,
            occupancy,
            notes,
            max_clocks: DEFAULT_MAX_CLOCKS,
            skip_idle: true,
            latency_budget: crate::analysis::latency::SearchBudget::DEFAULT,
            loop_sample: None,
        };
        if let Some(mut sample) = sample {
            sample.shorter_clocks = simulation
                .with_trips(sample.loop_id, sample.shorter)?
                .run()?
                .clocks;
            let limit = simulation.plan.max_instructions;
            simulation.notes.push(sample.note(limit));
            simulation.loop_sample = Some(sample);
        }
        Ok(simulation)
    }

    /// The same run with loop `id` making `trips` trips (every wave: the plan must not vary
    /// by wave).
    fn with_trips(&self, id: usize, trips: u32) -> Result<Simulation, PrepareError> {
        let mut plan = self.plan.clone();
        plan.iterations[id] = trips;
        let walk = TraceWalk::new(&self.program, &self.cfg, &plan);
        let wave_traces = vec![walk.summary(None)?];
        let compiled = self.compile_over(&walk, &self.arch)?;
        let mut s = self.clone();
        (s.plan, s.wave_traces, s.compiled) = (plan, wave_traces, compiled);
        s.compiled.set_stream_bases(&s.buffers);
        Ok(s)
    }

    /// The walks of the run's traces (every wave's instructions stream from
    /// it).
    pub fn walk(&self) -> TraceWalk<'_> {
        TraceWalk::new(&self.program, &self.cfg, &self.plan)
    }

    /// What the machine reads of this run, over `walk` (from
    /// [`Self::walk`]).
    fn sim_input<'a>(&'a self, walk: &'a TraceWalk<'a>) -> SimInput<'a> {
        SimInput {
            program: &self.program,
            sim: &self.compiled,
            walk,

            arch: &self.arch,
            dispatch: &self.dispatch,
            occupancy: &self.occupancy,
            max_clocks: self.max_clocks,
            skip_idle: self.skip_idle,
        }
    }

    /// Run the simulation.
    pub fn run(&self) -> Result<SimStats, SimError> {
        let walk = self.walk();
        simulate(&self.sim_input(&walk))
    }

    /// Run the simulation, telling `observer` every launch, issue, stall
    /// and end (timelines, time per block). Same statistics as [`Self::run`].
    pub fn run_observed<O: crate::observer::Observer>(
        &self,
        observer: O,
    ) -> Result<SimStats, SimError> {
        let walk = self.walk();
        crate::machine::simulate_observed(&self.sim_input(&walk), observer)
    }

    /// The clocks and the ops issued or passed of this run simulated without its statistics,
    /// as the latency search's probes run it ([`crate::machine::simulate_probe`]): for
    /// profiling what the statistics cost (`scripts/bench-callgrind.sh` with `PROBE=1`).
    pub fn probe_clocks_and_work(&self) -> Result<(u64, u64), SimError> {
        self.run_probe().map(|r| (r.clocks, r.work))
    }

    /// Run the simulation for its clock count only: the same clocks (or
    /// stop at `max_clocks`, which is not an error here) and work as
    /// [`Self::run`], without the statistics (see
    /// [`crate::machine::simulate_probe`]).
    pub(crate) fn run_probe(&self) -> Result<crate::machine::ProbeRun, SimError> {
        self.run_probe_on(&self.arch, &self.compiled, self.max_clocks)
    }

    /// [`Self::run_probe`] of this run with `arch` for its model, `compiled`
    /// for its ops (compiled for `arch` over this run's walk) and
    /// `max_clocks` for its clock limit: a probe that shares this run's
    /// ops when another value of a parameter leaves them as they are.
    pub(crate) fn run_probe_on(
        &self,
        arch: &ArchSpec,
        compiled: &SimProgram,
        max_clocks: u64,
    ) -> Result<crate::machine::ProbeRun, SimError> {
        let walk = self.walk();
        crate::machine::simulate_probe(&SimInput {
            arch,
            sim: compiled,
            max_clocks,
            ..self.sim_input(&walk)
        })
    }

    /// The same run with one model parameter changed (recompiled).
    pub fn with_param(&self, name: &str, value: f64) -> Result<Simulation, PrepareError> {
        let mut s = self.clone();
        s.arch.set(name, &value.to_string())?;
        s.compiled = self.compile_over(&self.walk(), &s.arch)?;
        s.buffers.set_default_bases(buffer_stagger(&s.arch));
        s.compiled.set_stream_bases(&s.buffers);
        Ok(s)
    }

    /// This run's ops compiled again over `walk` for `arch` (the same program, waves and
    /// memory facts).
    fn compile_over(&self, walk: &TraceWalk<'_>, arch: &ArchSpec) -> Result<SimProgram, SimError> {
        SimProgram::compile(&CompileInput {
            program: &self.program,
            walk,
            trace_waves: &self.compiled.trace_waves,
            wave_trace: &self.wave_trace,
            memory: &self.memory,
            stage: self.dispatch.stage,
            vertex_inputs: self.vertex_inputs,
            wave_size: self.dispatch.wave_size,
            workgroup: declared_workgroup(&self.program, &self.dispatch),
            arch,
        })
    }

    /// Dynamic wave-instructions one run simulates (for speed figures).
    pub fn wave_instructions(&self, stats: &SimStats) -> u64 {
        self.compiled
            .trace_weights(stats.waves)
            .iter()
            .enumerate()
            .map(|(t, w)| w * self.compiled.trace_len[t])
            .sum()
    }

    /// Waves the run launches (workgroups times their waves for compute).
    pub fn total_waves(&self) -> u32 {
        let group_waves = match self.dispatch.stage {
            Stage::Compute => self
                .dispatch
                .workgroup_size
                .div_ceil(self.dispatch.wave_size.max(1)),
            _ => 1,
        };
        self.dispatch.count.saturating_mul(group_waves)
    }

    /// Each distinct trace (its index; its ops stream from
    /// `self.compiled.trace_ops(&self.walk(), t)`) with the fraction of waves
    /// that run it.
    pub fn weighted_traces(&self) -> Vec<(usize, f64)> {
        let weights = self.compiled.trace_weights(self.total_waves());
        let total: u64 = weights.iter().sum::<u64>().max(1);
        (0..weights.len())
            .map(|t| (t, weights[t] as f64 / total as f64))
            .filter(|(_, w)| *w > 0.0)
            .collect()
    }

    /// Mean executions per wave of each static program instruction.
    pub fn mean_executions(&self) -> Vec<f64> {
        let weights = self.compiled.trace_weights(self.total_waves());
        let total: u64 = weights.iter().sum::<u64>().max(1);
        let mut out = vec![0.0; self.program.instructions.len()];
        for (t, w) in self.wave_traces.iter().zip(&weights) {
            for (o, e) in out.iter_mut().zip(&t.executions) {
                *o += *e as f64 * *w as f64 / total as f64;
            }
        }
        out
    }
}

/// Whether a trace past the bound samples a loop ([`crate::loop_sample`]): for a launch that
/// gives a grid (a kernel time to give), when every wave runs the same path.
fn samples_loops(hints: &Hints, plan: &shadersim_trace::TracePlan) -> bool {
    (hints.launch.grid.is_some() || hints.launch.global.is_some())
        && !plan.varies_by_wave()
        && plan.lane_branches.is_empty()
}

/// Header executions per entry of loop `id` when every wave and entry runs the same count.
fn fixed_iterations(plan: &shadersim_trace::TracePlan, id: usize) -> Option<u32> {
    let per_wave =
        plan.wave_iterations.contains_key(&id) || plan.drawn_iterations.contains_key(&id);
    (!per_wave)
        .then(|| plan.iterations.get(id).copied())
        .flatten()
}
