//! The steps of [`crate::Simulation::prepare`] that read one group of hints each: the stage,
//! the dispatch keys, the vertex inputs, the occupancy (dynamic VGPRs included), the wave
//! size, and the distinct traces the waves run. `run` strings them together in the order
//! their notes and errors appear.

use crate::config::DispatchConfig;
use crate::error::SimError;
use crate::occupancy::Occupancy;
use shadersim_arch::{ArchError, ArchSpec};
use shadersim_asm::{Program, Stage};
use shadersim_cfg::{Cfg, CfgError};
use shadersim_isa::InstrClass;
use shadersim_trace::{DispatchHints, Hints, HintsError, TraceError, TraceSummary, TraceWalk};
use std::collections::HashMap;

/// Most instructions the distinct traces of drawn per-wave paths may hold
/// together (a bound on the time compiling walks them: traces are streamed,
/// never stored).
pub const MAX_DISTINCT_TRACE_OPS: u64 = 50_000_000;

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

// Every number is checked against its key's range (config.rs); the
// error points at the value in the hints file.
fn ranged(key: &str, v: &toml::Spanned<f64>) -> Result<(), HintsError> {
    crate::config::check_dispatch(key, *v.get_ref()).map_err(|m| HintsError::at(v.span(), m))
}

fn whole(key: &str, v: &toml::Spanned<u32>) -> Result<(), HintsError> {
    crate::config::check_dispatch(key, f64::from(*v.get_ref()))
        .map_err(|m| HintsError::at(v.span(), m))
}

/// The stage the program runs as: the `[dispatch] stage` hint, else the file's, else compute
/// (with a note).
pub(crate) fn stage(
    d: &DispatchHints,
    program: &Program,
    notes: &mut Vec<String>,
) -> Result<Stage, HintsError> {
    Ok(match &d.stage {
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
    })
}

/// The dispatch the `[dispatch]` keys up to `waves_per_simd` and the `[launch]` give (the
/// CU keys come after the memory notes: [`apply_cu_keys`]).
pub(crate) fn dispatch_of_hints(
    hints: &Hints,
    program: &Program,
    cfg: &Cfg,
    stage: Stage,
    arch: &ArchSpec,
    notes: &mut Vec<String>,
) -> Result<DispatchConfig, PrepareError> {
    let d = &hints.dispatch;
    let mut dispatch = DispatchConfig::new(stage);
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
            notes,
        )?;
        crate::launch::apply_entry_guard(program, cfg, &mut dispatch);
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
    Ok(dispatch)
}

/// `[dispatch] cu_count` (into the model) and `cus`, then the refusal of a `workgroup_size`
/// outside compute.
pub(crate) fn apply_cu_keys(
    d: &DispatchHints,
    stage: Stage,
    arch: &mut ArchSpec,
    dispatch: &mut DispatchConfig,
) -> Result<(), PrepareError> {
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
            format!(
                "workgroup_size applies to compute shaders only, and this one runs as a {} shader",
                stage.name()
            ),
        )
        .into());
    }
    Ok(())
}

/// The input elements of the synthesized fetch shader.
pub(crate) fn vertex_inputs(
    d: &DispatchHints,
    program: &Program,
    stage: Stage,
    notes: &mut Vec<String>,
) -> Result<u32, HintsError> {
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
    Ok(match (&d.vertex_inputs, stage) {
        (Some(v), Stage::Vertex) => *v.get_ref(),
        (Some(v), _) => {
            return Err(HintsError::at(
                v.span(),
                format!("vertex_inputs applies to vertex shaders only, and this one runs as a {} shader", stage.name()),
            ));
        }
        (None, Stage::Vertex) if calls_fetch => {
            notes.push(
                "the vertex shader calls a fetch subroutine at its entry: synthesized a fetch shader of 1 input element (set vertex_inputs)".into(),
            );
            1
        }
        (None, _) => 0,
    })
}

/// A kernel that reads its second or third work-item id, run in one-dimensional
/// workgroups because nothing gave a block, says so (a block the launch gave, even one
/// row high, is the user's statement of the shape).
pub(crate) fn note_one_dimensional(
    hints: &Hints,
    program: &Program,
    cfg: &Cfg,
    dispatch: &DispatchConfig,
    notes: &mut Vec<String>,
) {
    let block_given = hints.launch.block.is_some() || program.declared.workgroup_size.is_some();
    if dispatch.stage == Stage::Compute && !block_given {
        // From the address forms themselves, not the defaults list: a `[[memory]]` hint
        // that gives an op's pattern does not make the kernel one-dimensional.
        let yz = shadersim_trace::address_forms(program, cfg)
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
}

/// The run's occupancy: the registers' and LDS's, or with `[dispatch] dynamic_vgpr` the
/// slots it enables (which it also puts in `dispatch`).
pub(crate) fn occupancy(
    program: &Program,
    arch: &ArchSpec,
    d: &DispatchHints,
    group_waves: u32,
    dispatch: &mut DispatchConfig,
    notes: &mut Vec<String>,
) -> Result<Occupancy, PrepareError> {
    let (stage, wave_size) = (dispatch.stage, dispatch.wave_size);
    let mut occupancy = Occupancy::compute(
        program,
        arch,
        wave_size,
        group_waves,
        dispatch.waves_per_simd,
    )
    .map_err(SimError::from)?;
    if let Some(h) = &d.dynamic_vgpr {
        let dynamic = dynamic_vgpr(h, arch, stage, wave_size)?;
        // The waves resident per SIMD are the slots enabled, not what
        // the registers allow (LDS and barriers still limit).
        let mut o = Occupancy::for_usage(
            arch,
            &crate::occupancy::ResourceUsage {
                vgprs: dynamic.block,
                sgprs: 1,
                sgprs_declared: false,
                lds_bytes: program.declared.lds_bytes.unwrap_or(0),
                wave_size,
                waves_per_group: group_waves,
            },
            dispatch.waves_per_simd,
        )
        .map_err(SimError::from)?;
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
                format!(
                    ", {} in reserve (deadlock avoidance)",
                    dynamic.reserve_blocks
                )
            } else {
                String::new()
            }
        ));
        dispatch.dynamic_vgpr = Some(dynamic);
    }
    Ok(occupancy)
}

/// The distinct traces of a run's waves.
pub(crate) struct DistinctTraces {
    /// Each distinct trace's length and executions per instruction.
    pub(crate) traces: Vec<TraceSummary>,
    /// The trace of each wave by launch order (empty: all run the first).
    pub(crate) of_wave: Vec<u32>,
    /// The first wave (launch order) of each trace, whose walk is the trace's.
    pub(crate) first_waves: Vec<u32>,
}

/// The distinct traces the waves run: their summaries, the trace of each wave by launch
/// order (empty: all run `trace`, the plan's own walk), and the first wave of each.
/// Hints that name waves give waves different paths: one trace per distinct set of
/// directions, chosen by launch order.
pub(crate) fn distinct_traces(
    walk: &TraceWalk<'_>,
    trace: TraceSummary,
    total: u32,
    wave_size: u32,
    lane_tally: &mut Option<crate::lanes::LaneTally>,
) -> Result<DistinctTraces, PrepareError> {
    let plan = walk.plan;
    if !plan.varies_by_wave() {
        // The walk of each distinct trace is its first wave's (launch order).
        return Ok(DistinctTraces {
            traces: vec![trace],
            of_wave: Vec::new(),
            first_waves: vec![0],
        });
    }
    let mut trace_waves = Vec::new();
    if plan.draws() {
        let (traces, of_wave) = drawn_traces(walk, total, wave_size, lane_tally, &mut trace_waves)?;
        return Ok(DistinctTraces {
            traces,
            of_wave,
            first_waves: trace_waves,
        });
    }
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
    Ok(DistinctTraces {
        traces,
        of_wave,
        first_waves: trace_waves,
    })
}

/// Each wave draws its own path; waves that drew the same path share its trace. Each
/// wave's walk is streamed once, into the lane tally and the identity of its path.
fn drawn_traces(
    walk: &TraceWalk<'_>,
    total: u32,
    wave_size: u32,
    lane_tally: &mut Option<crate::lanes::LaneTally>,
    trace_waves: &mut Vec<u32>,
) -> Result<(Vec<TraceSummary>, Vec<u32>), PrepareError> {
    let program = walk.program;
    let mut index: HashMap<crate::lanes::TraceKey, u32> = HashMap::new();
    let mut traces: Vec<TraceSummary> = Vec::new();
    let mut of_wave = Vec::with_capacity(total as usize);
    let mut kept: u64 = 0;
    for w in 0..total {
        let mut key = crate::lanes::TraceKeyHasher::new(wave_size);
        let mut executions = vec![0u64; program.instructions.len()];
        for step in walk.wave_cursor(w) {
            let step = step?;
            if let Some(tally) = lane_tally {
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
    Ok((traces, of_wave))
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
pub(crate) fn choose_wave_size(
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
