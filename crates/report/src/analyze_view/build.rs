//! An analyze report from a prepared run and its analysis.

use super::numbers::round;
use super::*;
use shadersim_asm::Stage;
use shadersim_engine::analysis::bottleneck::Bottleneck;
use shadersim_engine::{Analysis, SimStats, Simulation};
use shadersim_engine::{OpKind, OpSource};

/// Per-CU figures when several CUs were simulated.
fn per_cu(st: &shadersim_engine::SimStats) -> Vec<CuView> {
    if st.cus <= 1 {
        return Vec::new();
    }
    let total_waves = f64::from(st.waves.max(1));
    let all = st.throughput_per_clock() * f64::from(st.cus);
    let u = |cu: usize, unit: &str| round(st.cu_utilization(cu, unit).unwrap_or(0.0));
    st.cu_waves
        .iter()
        .enumerate()
        .map(|(cu, &waves)| CuView {
            cu: cu as u32,
            waves,
            throughput_per_clock: round(all * f64::from(waves) / total_waves),
            utilization: CuUtilization {
                valu: u(cu, "valu"),
                salu: u(cu, "salu"),
                vmem: u(cu, "vmem"),
                lds: u(cu, "lds"),
            },
        })
        .collect()
}

/// One entry per distinct trace, when waves ran more than one.
fn paths(sim: &Simulation, st: &shadersim_engine::SimStats) -> Vec<PathView> {
    let n = sim.path_count();
    if !(2..=16).contains(&n) {
        // Per-wave loop counts can give hundreds of paths: not a table.
        return Vec::new();
    }
    let mut out: Vec<PathView> = (0..n)
        .map(|t| PathView {
            waves: 0,
            first_wave: u32::MAX,
            instructions: sim.path_length(t),
            wave_clocks: 0.0,
        })
        .collect();
    for (w, &(launch, end)) in st.wave_life.iter().enumerate() {
        let p = &mut out[sim.path_of_wave(w as u32)];
        p.waves += 1;
        p.first_wave = p.first_wave.min(w as u32);
        p.wave_clocks += (end - launch) as f64;
    }
    for p in &mut out {
        p.wave_clocks = if p.waves == 0 {
            0.0
        } else {
            round(p.wave_clocks / p.waves as f64)
        };
    }
    out.retain(|p| p.waves > 0);
    out
}

impl AnalyzeReport {
    /// Build the report.
    pub fn new(file: &str, sim: &Simulation, analysis: &Analysis) -> AnalyzeReport {
        let st = &analysis.stats;
        let arch = &sim.arch();
        let unit = match sim.dispatch().stage {
            Stage::Pixel => "pixels",
            Stage::Vertex => "vertices",
            Stage::Compute => "threads",
        };
        let clock_mhz = arch.param("clock_mhz").unwrap_or(1000.0);
        let gpu_cus = arch.param("gpu_cus").unwrap_or(1.0);
        let per_clock = st.throughput_per_clock();
        // A launch the model cannot time (a model without the launch parameters) has none.
        let kernel_time = shadersim_engine::analysis::kernel_time::kernel_time(sim, st)
            .ok()
            .flatten();
        let InstructionRows {
            fetch_shader,
            instructions,
            end_drain,
            vmem_l2_requests: mut l2,
        } = instruction_rows(sim, st);
        let line_bytes = arch.param("l2_line_bytes").unwrap_or(64.0) as u64;
        let mut l2_bytes = l2 * line_bytes;
        // What reached L2: the cache hierarchy's level of that name counts
        // the requests the levels before it missed; without the hierarchy
        // (flat latencies) every request of the coalescer goes on.
        if let Some(level) = st.cache.iter().find(|l| l.name == L2_LEVEL) {
            if st.waves > 0 {
                let per_wave = level.requests as f64 / f64::from(st.waves);
                l2 = per_wave.round() as u64;
                l2_bytes = (per_wave * line_bytes as f64).round() as u64;
            }
        }
        AnalyzeReport {
            file: file.to_string(),
            program: sim.program().name.clone(),
            arch: arch.name.clone(),
            isa: sim
                .program()
                .target
                .as_ref()
                .map_or(arch.isa.name.clone(), |t| t.name.clone()),
            stage: sim.dispatch().stage.name().to_string(),
            wave_size: sim.dispatch().wave_size,
            waves: st.waves,
            workgroups: st.groups,
            clocks: st.clocks,
            wave_clocks: round(st.wave_clocks()),
            kernel_time_us: kernel_time.as_ref().map(|k| round(k.us)),
            kernel_time: kernel_time.as_ref().map(KernelTimeView::from),
            throughput: Throughput {
                per_clock: round(per_clock),
                unit: unit.to_string(),
                per_second_per_cu: round(per_clock * clock_mhz * 1e6),
                per_second_gpu: round(per_clock * clock_mhz * 1e6 * gpu_cus),
                clock_mhz,
                gpu_cus,
            },
            utilization: utilization_view(st),
            matrix: matrix_view(sim, st),
            starve_rate: round(st.starve_rate()),
            stall_rate: round(st.stall_rate()),
            lane_utilization: round(sim.lanes().map_or(1.0, |l| l.utilization)),
            end_drain,
            cus: st.cus,
            throughput_all_cus: round(per_clock * f64::from(st.cus.max(1))),
            per_cu: per_cu(st),
            occupancy: occupancy_view(sim, st),
            issued: st
                .category_names
                .iter()
                .zip(&st.category_issues)
                .map(|(n, c)| NamedCount {
                    name: n.clone(),
                    count: *c,
                })
                .collect(),
            free_ops: st.free_ops,
            l2_requests_per_wave: l2,
            l2_bytes_per_wave: l2_bytes,
            bottleneck: bottleneck_view(&analysis.bottleneck),
            cache: cache_view(st),
            latency_tolerance: latency_view(analysis),
            notes: sim.notes().to_vec(),
            defaults: defaults_view(sim, st),
            vliw: None,
            dynamic_vgpr: sim.dispatch().dynamic_vgpr.map(|d| DynamicVgprView {
                block: d.block,
                slots: d.slots,
                deadlock_avoidance: d.deadlock_avoidance,
                pool_blocks: d.pool_blocks,
                reserve_blocks: d.reserve_blocks,
                peak_blocks: st.peak_vgpr_blocks,
                peak_vgprs: st.peak_vgpr_blocks * d.block,
            }),
            paths: paths(sim, st),
            fetch_shader,
            source_lines: crate::source_lines::by_source_line(sim.program(), &instructions, &[]),
            instructions,
            blocks: Vec::new(),
            loops: Vec::new(),
            activity: None,
        }
    }

    /// Name the source files of the `source_lines` entries (the `.file`
    /// table of the listing the program came from).
    pub fn name_source_files(&mut self, source_files: &[(u32, String)]) {
        for l in &mut self.source_lines {
            l.file = source_files
                .iter()
                .find(|(n, _)| *n == l.file_number)
                .map(|(_, p)| p.clone());
        }
    }

    /// Add what a recorded run tells: time per block and loop, and the
    /// activity series the HTML page draws.
    pub fn with_profile(
        mut self,
        sim: &Simulation,
        stats: &shadersim_engine::SimStats,
        timeline: &crate::timeline::Timeline<'_>,
    ) -> AnalyzeReport {
        let (blocks, loops) = crate::blocks::block_views(sim, stats, timeline);
        self.blocks = blocks;
        self.loops = loops;
        self.activity = Some(crate::activity::Activity::new(sim, stats, timeline));
        self
    }
}

/// The cache level whose requests the report's L2 traffic counts (every
/// built-in model names its L2 so).
const L2_LEVEL: &str = "l2";

/// The causes waves sat on ops `ops` (an instruction and its masked
/// variants) for, as shares of their wave-clocks sitting, largest first
/// (JSON `instructions[].stall_reasons`).
fn stall_reasons(st: &shadersim_engine::SimStats, ops: &[usize]) -> Vec<(String, f64)> {
    let mut by_cause: Vec<(shadersim_engine::StallCause, u64)> = Vec::new();
    for &o in ops {
        for (cause, clocks) in st.op_stall_causes(o) {
            match by_cause.iter_mut().find(|(c, _)| *c == cause) {
                Some(e) => e.1 += clocks,
                None => by_cause.push((cause, clocks)),
            }
        }
    }
    let total: u64 = by_cause.iter().map(|e| e.1).sum();
    if total == 0 {
        return Vec::new();
    }
    // Largest first; equal shares keep the engine's row order.
    by_cause.sort_by_key(|e| std::cmp::Reverse(e.1));
    by_cause
        .into_iter()
        .map(|(c, n)| (c.name(&st.unit_names), round(n as f64 / total as f64)))
        .collect()
}

/// Each unit's busy share.
fn utilization_view(st: &SimStats) -> Utilization {
    Utilization {
        valu: round(st.utilization("valu")),
        salu: round(st.utilization("salu")),
        smem: round(st.utilization("smem")),
        vmem: round(st.utilization("vmem")),
        lds: round(st.utilization("lds")),
        export: round(st.utilization("export")),
        gds: round(st.utilization("gds")),
        ray: round(st.utilization("ray")),
        trans: round(st.utilization("trans")),
        matrix: round(st.utilization("matrix")),
    }
}

/// The matrix cores' figures, on a model that has them.
fn matrix_view(sim: &Simulation, st: &SimStats) -> Option<MatrixView> {
    sim.matrix_cores(st).map(|m| MatrixView {
        instructions_per_wave: round(m.ops_per_wave),
        busy_clocks_per_wave: round(m.busy_clocks_per_wave),
        utilization: round(m.utilization),
        flops_per_wave: round(m.flops_per_wave),
        flops_per_clock_per_cu: round(m.flops_per_clock_per_cu),
        peak_flops_per_clock_per_cu: round(m.peak_flops_per_clock_per_cu),
        flops_per_second_per_cu: round(m.flops_per_second_per_cu()),
        peak_flops_per_second_per_cu: round(m.peak_flops_per_second_per_cu()),
        fraction_of_peak: round(if m.peak_flops_per_clock_per_cu > 0.0 {
            m.flops_per_clock_per_cu / m.peak_flops_per_clock_per_cu
        } else {
            0.0
        }),
    })
}

/// Waves per SIMD, what limits them, and the figure the input declared.
fn occupancy_view(sim: &Simulation, st: &SimStats) -> OccupancyView {
    let occ = &sim.occupancy();
    let arch = &sim.arch();
    OccupancyView {
        waves_per_simd: occ.waves_per_simd,
        limiter: occ.limiter.name().to_string(),
        vgprs: occ.vgprs_allocated,
        sgprs: occ.sgprs_allocated,
        lds_bytes: occ.lds_allocated,
        limits: occ.limits,
        peak_waves: st.peak_waves,
        declared_waves_per_simd: sim.program().declared.occupancy,
        radv_convention_waves_per_simd: occ.as_radv_states(
            sim.program()
                .target
                .as_ref()
                .map_or(arch.isa.gen, |t| t.gen),
        ),
        declared_by: sim.program().declared.occupancy.map(|_| {
            if sim.program().declared.occupancy_from_radv {
                "radv".to_string()
            } else {
                "compiler".to_string()
            }
        }),
    }
}

/// The bottleneck statement and the bound of each resource.
fn bottleneck_view(b: &Bottleneck) -> BottleneckView {
    BottleneckView {
        kind: b.kind.clone(),
        statement: b.statement.clone(),
        clocks_per_wave: round(b.clocks_per_wave),
        bounds: b
            .bounds
            .iter()
            .map(|x| BoundView {
                resource: x.resource.clone(),
                clocks_per_wave: round(x.clocks_per_wave),
                assumed_clocks_per_wave: round(x.assumed_clocks_per_wave),
                detail: x.detail.clone(),
            })
            .collect(),
    }
}

/// Each simulated cache level's requests, hits and bandwidth.
fn cache_view(st: &SimStats) -> Option<CacheView> {
    (!st.cache.is_empty()).then(|| {
        CacheView(
            st.cache
                .iter()
                .map(|l| {
                    (
                        l.name.clone(),
                        LevelView {
                            requests: l.requests,
                            hits: l.hits,
                            chip_hits: l.chip_hits,
                            hit_rate: round(l.hit_rate()),
                            bytes: l.bytes,
                            latency: l.latency,
                            bytes_per_clock: l.bytes_per_clock,
                            bandwidth_utilization: l.bytes_per_clock.map(|b| {
                                round((l.bytes as f64 / (b * st.clocks.max(1) as f64)).min(1.0))
                            }),
                        },
                    )
                })
                .collect(),
        )
    })
}

/// The latency-tolerance search's answer and curve.
fn latency_view(analysis: &Analysis) -> Option<LatencyView> {
    analysis.latency.as_ref().map(|l| LatencyView {
        clocks: l.clocks,
        fails_at: l.fails_at,
        searched_up_to: l.searched_up_to,
        model_latency: l.model_latency,
        zero_latency_throughput: round(l.zero_latency_throughput),
        runs: l.runs,
        parameter: l.parameter.clone(),
        curve: l.curve.iter().map(|&(x, t)| (x, round(t))).collect(),
        precision: l.precision,
        budget_runs: l.budget_runs,
        work_runs: round(l.work_runs),
        precision_reached: l.end.precise(),
        stopped_by: l.end.name().to_string(),
        estimate: l.estimate,
    })
}

/// What the run took by default because the hints said nothing.
fn defaults_view(sim: &Simulation, st: &SimStats) -> DefaultsView {
    DefaultsView {
        loops_once: sim.plan().defaults.loops_once.clone(),
        loop_arguments: sim
            .plan()
            .defaults
            .loop_arguments
            .iter()
            .map(|(line, arguments)| LoopArgumentsView {
                line: *line,
                arguments: arguments.clone(),
            })
            .collect(),
        loops_inferred: sim
            .plan()
            .defaults
            .loops_inferred
            .iter()
            .map(|(line, iterations, reason)| InferredLoopView {
                line: *line,
                iterations: *iterations,
                reason: reason.clone(),
            })
            .collect(),
        branches_not_taken: sim.plan().defaults.branches_not_taken.clone(),
        images: sim
            .plan()
            .defaults
            .images
            .iter()
            .filter(|d| d.is_default())
            .map(|d| ImageDefaultView {
                line: d.line,
                op: d.op.clone(),
                layout: d.layout.clone(),
                walked: d.walked,
                tile: d.tile,
                tile_basis: d.tile_basis.clone(),
                texels_per_pixel: d.texels_per_pixel,
                requests: d.requests,
                format: d.format.clone(),
                filter: d.filter.clone(),
                filter_reason: d.filter_reason.clone(),
            })
            .collect(),
        addresses: sim
            .plan()
            .defaults
            .addresses
            .iter()
            .map(|a| AddressDefaultView {
                line: a.line,
                pattern: a.pattern.clone(),
                pattern_from: a.pattern_from.name().to_string(),
                pattern_reason: a.pattern_reason.clone(),
                wave_stride: a.wave_stride,
                wave_stride_from: a.wave_stride_from.name().to_string(),
                wave_stride_reason: a.wave_stride_reason.clone(),
                iteration_stride: a.iteration_stride,
                iteration_stride_from: a.iteration_stride_from.map(|f| f.name().to_string()),
                iteration_stride_reason: a.iteration_stride_reason.clone(),
                region: a.region.as_ref().map(|r| r.0),
                region_from: a.region.as_ref().map(|r| r.1.name().to_string()),
                region_reason: a.region.as_ref().map(|r| r.2.clone()),
            })
            .collect(),
        buffers: BufferDefaultsView {
            default_lines: sim
                .buffers()
                .buffers
                .first()
                .map_or(Vec::new(), |b| b.lines.clone()),
            spacing: sim.buffers().spacing(),
            stagger: sim.buffers().stagger,
        },
        text: {
            let mut t = sim.plan().defaults.sentences();
            // Buffer placement matters only to the simulated caches.
            if st.cache.iter().any(|l| l.requests > 0) {
                t.extend(sim.buffers().sentences());
            }
            t
        },
    }
}

/// The listing's rows and what the walk over the ops sums on the way.
struct InstructionRows {
    /// Rows of the fetch shader's instructions.
    fetch_shader: Vec<InstructionView>,
    /// Rows of the program's instructions.
    instructions: Vec<InstructionView>,
    /// The end of the program's drain.
    end_drain: EndDrainView,
    /// L2 requests per wave of the vector memory ops, by the coalescer.
    vmem_l2_requests: u64,
}

/// One row per instruction (the ops of its partial-EXEC variants folded
/// in), with the end drain and the coalescer's L2 requests per wave.
fn instruction_rows(sim: &Simulation, st: &SimStats) -> InstructionRows {
    let mut l2 = 0u64;
    // Mean over the waves (they may run different paths), rounded.
    let mean = sim.mean_executions();
    let executions_of = |src: OpSource| -> u64 {
        match src {
            OpSource::Program(i) => mean[i].round() as u64,
            OpSource::Fetch(_) | OpSource::ImplicitEnd => 1,
        }
    };
    let mut fetch_shader = Vec::new();
    let mut instructions = Vec::new();
    // Live registers per program instruction (none if the control flow
    // cannot be analysed: the column stays empty).
    let live = shadersim_liveness::Liveness::analyse(sim.program(), sim.dispatch().wave_size).ok();
    // Ops an instruction was compiled into under partial EXEC masks
    // (lane divergence) fold into its row.
    let mut variants: Vec<Vec<usize>> = vec![Vec::new(); sim.op_count()];
    for (oi, op) in sim.ops().enumerate() {
        variants[op.masked_from().unwrap_or(oi)].push(oi);
    }
    let mut end_drain = EndDrainView {
        stall_rate: 0.0,
        exposed_rate: 0.0,
        wave_share: 0.0,
        implicit: false,
    };
    let mut drain_wave_clocks = 0u64;
    for (oi, op) in sim.ops().enumerate() {
        if op.kind() == OpKind::End {
            let (stall, exposed) = st.ops_stall_rates(&[oi]);
            end_drain.stall_rate = round((end_drain.stall_rate + stall).min(1.0));
            end_drain.exposed_rate = round((end_drain.exposed_rate + exposed).min(1.0));
            end_drain.implicit |= op.source() == OpSource::ImplicitEnd && sim.path_reaches(oi);
            drain_wave_clocks += st.op_wave_stall_clocks(oi);
        }
        if op.masked_from().is_some() {
            continue;
        }
        let execs = executions_of(op.source());
        if op.class().is_vmem() {
            l2 += u64::from(op.l2_requests()) * execs;
        }
        let (index, line, text) = match op.source() {
            OpSource::Program(i) => {
                let s = &sim.program().instructions[i];
                (i, s.pos.line, s.text.clone())
            }
            OpSource::Fetch(i) => (i, 0, sim.fetch_shader_text(i).to_string()),
            OpSource::ImplicitEnd => continue,
        };
        let (stall_rate, exposed_rate) = st.ops_stall_rates(&variants[oi]);
        let view = InstructionView {
            index,
            line,
            text,
            class: op.class().name().to_string(),
            executions: execs,
            stall_rate: round(stall_rate),
            exposed_rate: round(exposed_rate),
            stall_reasons: stall_reasons(st, &variants[oi]),
            cost_clocks: if op.kind() == OpKind::Unit {
                op.cost()
            } else {
                0
            },
            cost_basis: op.cost_basis().to_string(),
            l2_requests: op.class().is_vmem().then_some(op.l2_requests()),
            pattern: op.pattern().map(str::to_string),
            wait: op.kind() == OpKind::Wait,
            drain: op.kind() == OpKind::End,
            active_lanes: match (op.source(), &sim.lanes()) {
                (OpSource::Program(i), Some(l)) => Some(round(l.mean_active[i])),
                _ => None,
            },
            alloc_waits: (op.allocates_vgprs() && sim.dispatch().dynamic_vgpr.is_some())
                .then(|| st.alloc_denied[oi]),
            live_vgprs: None,
            live_sgprs: None,
            first_level_hit_rate: st
                .op_cache
                .get(oi)
                .filter(|c| c.requests > 0)
                .map(|c| round(c.first_level_hit_rate())),
            mean_latency: st
                .op_cache
                .get(oi)
                .filter(|c| c.requests > 0)
                .map(|c| round(c.mean_latency())),
            not_allocated_in: (op.not_allocated_in().iter())
                .map(|(level, flag)| NotAllocatedView {
                    level: level.clone(),
                    flag: flag.clone(),
                })
                .collect(),
            lds_conflict_degree: op.lds_conflict().map(round),
            buffer: match op.source() {
                OpSource::Program(i) if op.has_address_stream() => {
                    sim.buffers().buffer_of(i).map(|b| BufferView {
                        id: b.id,
                        name: b.name.clone(),
                        base: b.base,
                        found: b.found.name().to_string(),
                        origin: b.origin.clone(),
                    })
                }
                _ => None,
            },
        };
        let mut view = view;
        if let (OpSource::Program(i), Some(l)) = (op.source(), &live) {
            if let Some(at) = l.per_instruction.get(i) {
                view.live_vgprs = Some(at.vgprs);
                view.live_sgprs = Some(at.sgprs);
            }
        }
        match op.source() {
            OpSource::Fetch(_) => fetch_shader.push(view),
            _ => instructions.push(view),
        }
    }
    if st.wave_clocks_sum > 0 {
        end_drain.wave_share =
            round((drain_wave_clocks as f64 / st.wave_clocks_sum as f64).min(1.0));
    }
    InstructionRows {
        fetch_shader,
        instructions,
        end_drain,
        vmem_l2_requests: l2,
    }
}
