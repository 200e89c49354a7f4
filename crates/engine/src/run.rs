//! From a program, its hints and a model to results: preparing a run and
//! running it. What a run means (bounds, bottleneck, latency tolerance)
//! is `analysis`, above this module.

use crate::config::DispatchConfig;
use crate::error::SimError;
use crate::machine::{simulate, SimInput};
use crate::occupancy::Occupancy;
use crate::ops::{CompileInput, SimProgram};
use crate::stats::SimStats;
use shadersim_arch::{ArchError, ArchSpec};
use shadersim_asm::{Program, Stage};
use shadersim_cfg::{Cfg, CfgError};
use shadersim_isa::InstrClass;
use shadersim_trace::{
    find_buffers, memory_facts, BufferMap, Hints, HintsError, MemoryFacts, TraceError, TracePlan,
    TraceSummary, TraceWalk,
};
use std::collections::HashMap;

/// Most instructions the distinct traces of drawn per-wave paths may hold
/// together (a bound on the time compiling walks them: traces are streamed,
/// never stored).
pub const MAX_DISTINCT_TRACE_OPS: u64 = 50_000_000;

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

/// Why a run could not be prepared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PrepareError {
    /// A hint is wrong (with its position in the hints file).
    #[error("{0}")]
    Hints(#[from] HintsError),
    /// The control flow cannot be analysed.
    #[error("{0}")]
    Cfg(#[from] CfgError),
    /// The trace cannot be built.
    #[error("{0}")]
    Trace(#[from] TraceError),
    /// The model or an override is wrong.
    #[error("{0}")]
    Arch(#[from] ArchError),
    /// The program cannot run on the model.
    #[error("{0}")]
    Sim(#[from] SimError),
}

/// A prepared run: everything decided, ready to simulate (and re-simulate
/// with a parameter changed).
#[derive(Debug, Clone)]
pub struct Simulation {
    /// The program.
    pub program: Program,
    /// Its control flow.
    pub cfg: Cfg,
    /// The resolved hints.
    pub plan: TracePlan,
    /// The distinct traces waves run (one unless hints make waves differ):
    /// their lengths and executions per instruction. The sequences are not
    /// stored: they stream from [`Simulation::walk`].
    pub wave_traces: Vec<TraceSummary>,
    /// The trace each wave runs, by launch order (empty: all the first).
    pub wave_trace: Vec<u32>,
    /// Memory hints by instruction.
    pub memory: HashMap<usize, MemoryFacts>,
    /// The buffer of every memory instruction and each buffer's base.
    pub buffers: BufferMap,
    /// Dispatch parameters.
    pub dispatch: DispatchConfig,
    /// Vertex inputs of the synthesized fetch shader.
    pub vertex_inputs: u32,
    /// The model (with overrides applied).
    pub arch: ArchSpec,
    /// Compiled ops (private: reports read them through `view`).
    pub(crate) compiled: SimProgram,
    /// Occupancy.
    pub occupancy: Occupancy,
    /// Decisions worth telling the user (defaults taken, rules applied).
    pub notes: Vec<String>,
    /// Clock limit.
    pub max_clocks: u64,
    /// Jump over idle clocks and idle SIMD turns (exact; off only to test
    /// that it is exact).
    pub skip_idle: bool,
    /// Lane figures, when lanes diverge (`lane_probability` hints).
    pub lanes: Option<crate::lanes::LaneFigures>,
    /// How far the latency-tolerance search goes: its work budget and the
    /// bracket width it aims for ([`crate::analysis::latency::SearchBudget`]).
    pub latency_budget: crate::analysis::latency::SearchBudget,
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
        // The plan's own walk, checked against the bound first.
        let trace = TraceWalk::new(program, &cfg, &plan).summary(None)?;
        let mut memory = memory_facts(program, hints)?;
        let mut buffers = find_buffers(program, &cfg, &memory)?;
        let d = &hints.dispatch;
        let stage = match &d.stage {
            Some(s) => Stage::from_name(s.get_ref()).ok_or_else(|| {
                HintsError::at(
                    s.span(),
                    format!("unknown stage `{}` (pixel, vertex or compute)", s.get_ref()),
                )
            })?,
            None => match program.stage {
                Some(s) => s,
                None => {
                    notes.push("the file does not say which stage the program is; simulating it as a compute shader (set [dispatch] stage)".into());
                    Stage::Compute
                }
            },
        };
        let mut dispatch = DispatchConfig::new(stage);
        // Every number is checked against its key's range (config.rs); the
        // error points at the value in the hints file.
        let ranged = |key: &str, v: &toml::Spanned<f64>| {
            crate::config::check_dispatch(key, *v.get_ref())
                .map_err(|m| HintsError::at(v.span(), m))
        };
        let whole = |key: &str, v: &toml::Spanned<u32>| {
            crate::config::check_dispatch(key, f64::from(*v.get_ref()))
                .map_err(|m| HintsError::at(v.span(), m))
        };
        if let Some(v) = &d.waves {
            whole("waves", v)?;
            dispatch.count = *v.get_ref();
        }
        if let Some(v) = &d.pixels_per_triangle {
            ranged("pixels_per_triangle", v)?;
            dispatch.pixels_per_triangle = *v.get_ref();
        }
        if let Some(v) = &d.vertices_per_triangle {
            ranged("vertices_per_triangle", v)?;
            dispatch.vertices_per_triangle = *v.get_ref();
        }
        if let Some(v) = &d.vertex_inputs {
            whole("vertex_inputs", v)?;
        }
        if let Some(v) = &d.workgroup_size {
            whole("workgroup_size", v)?;
            dispatch.workgroup_size = *v.get_ref();
        } else if let Some([x, y, z]) = program.declared.workgroup_size {
            dispatch.workgroup_size = x * y * z;
        }
        if stage == Stage::Compute {
            crate::launch::apply_launch(
                &hints.launch,
                crate::launch::LaunchKeys {
                    waves: d.waves.as_ref(),
                    workgroup_size: d.workgroup_size.as_ref(),
                    declared: program.declared.workgroup_size,
                },
                arch.get_u32("gpu_cus")?,
                &mut dispatch,
                &mut notes,
            )?;
            crate::launch::apply_entry_guard(program, &cfg, &mut dispatch);
        } else if let Some(g) = [
            &hints.launch.grid,
            &hints.launch.global,
            &hints.launch.block,
        ]
        .into_iter()
        .flatten()
        .next()
        {
            return Err(HintsError::at(
                g.span(),
                format!(
                    "[launch] applies to compute kernels only, and this one runs as a {} shader",
                    stage.name()
                ),
            )
            .into());
        }
        if let Some(v) = &d.waves_per_simd {
            let slots = arch.get_u32("wave_slots_per_simd")?;
            if *v.get_ref() == 0 || *v.get_ref() > slots {
                return Err(HintsError::at(
                    v.span(),
                    format!("`waves_per_simd` must be a whole number from 1 to {slots} (the model's wave slots per SIMD)"),
                )
                .into());
            }
            dispatch.waves_per_simd = Some(*v.get_ref());
        }
        notes.extend(crate::memstream::check_hints(program, &memory, &arch)?);
        notes.extend(crate::memstream::memory_model_notes(&arch));
        if let Some(v) = &d.cu_count {
            whole("cu_count", v)?;
            arch.set("cu_count", &v.get_ref().to_string())?;
            if let Some(p) = arch.params.get_mut("cu_count") {
                p.source = "[dispatch] cu_count in the hints file".into();
            }
        }
        if let Some(v) = &d.cus {
            let sharing = arch.get_u32("cu_count")?.max(1);
            let simds = arch.get_u32("simds")?.max(1);
            let interval = arch.get_u32("issue_interval")?.max(1);
            if *v.get_ref() == 0 || *v.get_ref() > sharing {
                return Err(HintsError::at(
                    v.span(),
                    format!("cus must be between 1 and cu_count ({sharing}): the CUs simulated are some of those that share the rasterizer and export path"),
                )
                .into());
            }
            if *v.get_ref() > 1 && simds % interval != 0 {
                return Err(HintsError::at(
                    v.span(),
                    format!("the `{}` model's {simds} SIMDs do not fill its issue rotation of {interval}; several CUs need whole rotations", arch.name),
                )
                .into());
            }
            dispatch.cus = *v.get_ref();
        }
        // A key that would change nothing is refused, not ignored: the user
        // meant something the run would not do.
        if let (Some(v), false) = (&d.workgroup_size, stage == Stage::Compute) {
            return Err(HintsError::at(
                v.span(),
                format!("workgroup_size applies to compute shaders only, and this one runs as a {} shader", stage.name()),
            )
            .into());
        }
        // Seed 004 assumption 4: a vertex shader calls a fetch shader
        // (`s_swappc` at its entry). Real LLVM and RADV vertex shaders fetch
        // their own inputs, and many (a full-screen triangle from the vertex
        // index) fetch nothing: synthesize one only for a program that calls
        // a subroutine before its first memory op, or when the hints ask.
        let calls_fetch = program
            .instructions
            .iter()
            .take_while(|s| !s.inst.class().is_vmem())
            .any(|s| s.inst.class() == InstrClass::Call);
        let vertex_inputs = match (&d.vertex_inputs, stage) {
            (Some(v), Stage::Vertex) => *v.get_ref(),
            (Some(v), _) => {
                return Err(HintsError::at(
                    v.span(),
                    format!("vertex_inputs applies to vertex shaders only, and this one runs as a {} shader", stage.name()),
                )
                .into());
            }
            (None, Stage::Vertex) if calls_fetch => {
                notes.push(
                    "the vertex shader calls a fetch subroutine at its entry: synthesized a fetch shader of 1 input element (set vertex_inputs)".into(),
                );
                1
            }
            (None, _) => 0,
        };
        let wave_size = choose_wave_size(program, &arch, d.wave_size.as_ref(), &mut notes)?;
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
            |id| fixed_iterations(&plan, id),
        );
        // A kernel that reads its second or third work-item id, run in one-dimensional
        // workgroups because nothing gave a block, says so (a block the launch gave, even one
        // row high, is the user's statement of the shape).
        let block_given = hints.launch.block.is_some() || program.declared.workgroup_size.is_some();
        if stage == Stage::Compute && !block_given {
            // From the address forms themselves, not the defaults list: a `[[memory]]` hint
            // that gives an op's pattern does not make the kernel one-dimensional.
            let yz = shadersim_trace::address_forms(program, &cfg)
                .into_iter()
                .find_map(|(i, f)| match f {
                    shadersim_trace::AddressForm::Affine(a) if a.lane_used[1] || a.lane_used[2] => {
                        Some(program.instructions[i].pos.line)
                    }
                    _ => None,
                });
            if let Some(line) = yz {
                notes.push(format!(
                    "line {line}: the kernel reads its work-item id in y or z, but the workgroups are one-dimensional ({} work-items); give the block's shape, e.g. --block 16x16",
                    dispatch.workgroup_size
                ));
            }
        }
        let mut lane_tally = (!plan.lane_branches.is_empty())
            .then(|| crate::lanes::LaneTally::new(program.instructions.len()));
        let group_waves = if stage == Stage::Compute {
            dispatch.workgroup_size.div_ceil(wave_size)
        } else {
            1
        };
        let mut occupancy = Occupancy::compute(
            program,
            &arch,
            wave_size,
            group_waves,
            dispatch.waves_per_simd,
        )?;
        if let Some(h) = &d.dynamic_vgpr {
            let dynamic = dynamic_vgpr(h, &arch, stage, wave_size)?;
            // The waves resident per SIMD are the slots enabled, not what
            // the registers allow (LDS and barriers still limit).
            let mut o = Occupancy::for_usage(
                &arch,
                &crate::occupancy::ResourceUsage {
                    vgprs: dynamic.block,
                    sgprs: 1,
                    sgprs_declared: false,
                    lds_bytes: program.declared.lds_bytes.unwrap_or(0),
                    wave_size,
                    waves_per_group: group_waves,
                },
                dispatch.waves_per_simd,
            )?;
            if dynamic.slots <= o.waves_per_simd {
                o.waves_per_simd = dynamic.slots;
                o.limiter = crate::occupancy::Limiter::DynamicVgprSlots;
            }
            o.vgprs_declared = occupancy.vgprs_declared;
            occupancy = o;
            notes.push(format!(
                "dynamic VGPRs: {} slots per SIMD with a {}-VGPR block each, {} blocks in the pool{}",
                dynamic.slots,
                dynamic.block,
                dynamic.pool_blocks,
                if dynamic.deadlock_avoidance {
                    format!(", {} in reserve (deadlock avoidance)", dynamic.reserve_blocks)
                } else {
                    String::new()
                }
            ));
            dispatch.dynamic_vgpr = Some(dynamic);
        }
        // Hints that name waves give waves different paths: one trace per
        // distinct set of directions, chosen by launch order.
        let walk = TraceWalk::new(program, &cfg, &plan);
        // The walk of each distinct trace is its first wave's (launch order).
        let mut trace_waves: Vec<u32> = vec![0];
        let (wave_traces, wave_trace) = if plan.varies_by_wave() {
            trace_waves.clear();
            let total = dispatch.count.saturating_mul(group_waves.max(1));
            if plan.draws() {
                // Each wave draws its own path; waves that drew the same
                // path share its trace. Each wave's walk is streamed once,
                // into the lane tally and the identity of its path.
                let mut index: HashMap<crate::lanes::TraceKey, u32> = HashMap::new();
                let mut traces: Vec<TraceSummary> = Vec::new();
                let mut of_wave = Vec::with_capacity(total as usize);
                let mut kept: u64 = 0;
                for w in 0..total {
                    let mut key = crate::lanes::TraceKeyHasher::new(wave_size);
                    let mut executions = vec![0u64; program.instructions.len()];
                    for step in walk.wave_cursor(w) {
                        let step = step?;
                        if let Some(tally) = &mut lane_tally {
                            tally.add_step(step, wave_size);
                        }
                        executions[step.instr as usize] += 1;
                        key.add(program, step, lane_tally.is_some());
                    }
                    // Waves whose lanes differ only on VALU ops share a
                    // trace (a VMEM op's cost depends on its mask).
                    let key = key.finish();
                    let id = match index.get(&key) {
                        Some(&id) => id,
                        None => {
                            kept += key.len;
                            if kept > MAX_DISTINCT_TRACE_OPS {
                                return Err(SimError::Dispatch(format!(
                                    "the waves' drawn paths add up to more than {MAX_DISTINCT_TRACE_OPS} distinct instructions; simulate fewer waves or shorter loops"
                                ))
                                .into());
                            }
                            let id = traces.len() as u32;
                            index.insert(key, id);
                            traces.push(TraceSummary {
                                len: key.len,
                                executions,
                            });
                            trace_waves.push(w);
                            id
                        }
                    };
                    of_wave.push(id);
                }
                (traces, of_wave)
            } else {
                let mut keys: Vec<Vec<(usize, u32)>> = Vec::new();
                let mut traces = Vec::new();
                let mut of_wave = Vec::with_capacity(total as usize);
                for w in 0..total {
                    let key = plan.wave_key(w);
                    let t = match keys.iter().position(|k| *k == key) {
                        Some(t) => t,
                        None => {
                            traces.push(walk.summary(Some(w))?);
                            trace_waves.push(w);
                            keys.push(key);
                            keys.len() - 1
                        }
                    };
                    of_wave.push(t as u32);
                }
                (traces, of_wave)
            }
        } else {
            (vec![trace], Vec::new())
        };
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
        Ok(Simulation {
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
        })
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

    /// The same run with one model parameter changed (recompiled).
    pub fn with_param(&self, name: &str, value: f64) -> Result<Simulation, PrepareError> {
        let mut s = self.clone();
        s.arch.set(name, &value.to_string())?;
        let walk = self.walk();
        s.compiled = SimProgram::compile(&CompileInput {
            program: &self.program,
            walk: &walk,
            trace_waves: &self.compiled.trace_waves,
            wave_trace: &self.wave_trace,
            memory: &self.memory,
            stage: self.dispatch.stage,
            vertex_inputs: self.vertex_inputs,
            wave_size: self.dispatch.wave_size,
            workgroup: declared_workgroup(&self.program, &self.dispatch),
            arch: &s.arch,
        })?;
        s.buffers.set_default_bases(buffer_stagger(&s.arch));
        s.compiled.set_stream_bases(&s.buffers);
        Ok(s)
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

/// Check `[dispatch] dynamic_vgpr` against the model and the run, and
/// size the pool (rdna-model.md 6): the file less one reserved block per
/// enabled slot, less the reserve in deadlock-avoidance mode.
fn dynamic_vgpr(
    h: &toml::Spanned<shadersim_trace::DynamicVgprHint>,
    arch: &ArchSpec,
    stage: Stage,
    wave_size: u32,
) -> Result<crate::config::DynamicVgpr, PrepareError> {
    let err = |m: String| -> PrepareError { HintsError::at(h.span(), m).into() };
    let v = h.get_ref();
    let Some(max_blocks) = arch.param("dynamic_vgpr_max_blocks") else {
        return Err(err(format!(
            "the `{}` model has no dynamic VGPR mode (RDNA 4 has)",
            arch.name
        )));
    };
    if stage != Stage::Compute || wave_size != 32 {
        return Err(err(
            "dynamic VGPRs apply to wave32 compute programs only".into()
        ));
    }
    if v.block != 16 && v.block != 32 {
        return Err(err("dynamic_vgpr block must be 16 or 32".into()));
    }
    let slots_max = arch.get_u32("wave_slots_per_simd")?;
    if v.slots == 0 || v.slots > slots_max {
        return Err(err(format!(
            "dynamic_vgpr slots must be between 1 and {slots_max}"
        )));
    }
    // The pool arithmetic is shadersim-occupancy's (one source for it and
    // for `shadersim occupancy`).
    let config = shadersim_occupancy::dynamic_vgpr::DynamicVgprConfig {
        total_vgprs: arch.get_u32("vgprs_per_simd")?,
        slots: v.slots,
        block: v.block,
        deadlock_avoidance: v.deadlock_avoidance,
        max_blocks: max_blocks.round() as u32,
        reserve_blocks: arch.get_u32("dynamic_vgpr_reserve_blocks")?,
    };
    let pool = config.pool().map_err(|e| err(e.to_string()))? / v.block;
    let reserve = config.reserve() / v.block;
    Ok(crate::config::DynamicVgpr {
        block: v.block,
        slots: v.slots,
        deadlock_avoidance: v.deadlock_avoidance,
        max_blocks: max_blocks.round() as u32,
        reserve_blocks: reserve,
        pool_blocks: pool,
    })
}

/// The wave size of a run: the `[dispatch] wave_size` hint, else what the
/// file says (declared, or the exec/vcc registers its code names), else the
/// model's default. A model without wave32 runs every program as wave64.
fn choose_wave_size(
    program: &Program,
    arch: &ArchSpec,
    hint: Option<&toml::Spanned<u32>>,
    notes: &mut Vec<String>,
) -> Result<u32, PrepareError> {
    let default = arch.get_u32("wave_size")?;
    let wave32 = arch.param("supports_wave32").unwrap_or(0.0) != 0.0;
    if let Some(h) = hint {
        let w = *h.get_ref();
        crate::config::check_dispatch("wave_size", f64::from(w))
            .map_err(|m| HintsError::at(h.span(), m))?;
        if w == 32 && !wave32 {
            return Err(HintsError::at(
                h.span(),
                format!("the `{}` model runs wave64 only", arch.name),
            )
            .into());
        }
        return Ok(w);
    }
    match program.wave_size() {
        Some((32, why)) if !wave32 => {
            notes.push(format!(
                "the program is wave32 code ({why}); the `{}` model runs it as wave64",
                arch.name
            ));
            Ok(64)
        }
        Some((w, _)) if w == 32 || w == 64 => Ok(w),
        _ => {
            // A bare listing (an ACO paste from RenderDoc) that names neither
            // exec/vcc nor its wave size could be either on a GPU that runs
            // both: the width taken is a default, and a report says so.
            if wave32 {
                let other = if default == 32 { 64 } else { 32 };
                notes.push(format!(
                    "default: wave{default}, the `{}` model's wave size: the program does not show its own (no wave-size declaration, no exec/vcc operand); for wave{other} code give [dispatch] wave_size = {other} in the hints, or --set wave_size={other}",
                    arch.name
                ));
            }
            Ok(default)
        }
    }
}

/// Header executions per entry of loop `id` when every wave and entry runs the same count.
fn fixed_iterations(plan: &shadersim_trace::TracePlan, id: usize) -> Option<u32> {
    let per_wave =
        plan.wave_iterations.contains_key(&id) || plan.drawn_iterations.contains_key(&id);
    (!per_wave)
        .then(|| plan.iterations.get(id).copied())
        .flatten()
}
