//! Building a `ComputeUnit` from a `SimInput`: its units (instances per SIMD
//! or CU, shared units), the shape of the dispatch (groups, waves per
//! group) and its limits, the packed hot ops with their register slots,
//! the issue categories and the dynamic VGPR pools.

use super::*;

impl OpTables {
    /// The ops of `input` packed for the cycle loop, and the units they
    /// were packed against (built once: the compute unit takes them);
    /// models whose units cannot be built and ops naming too many
    /// registers are refused.
    pub(super) fn new(input: &SimInput<'_>) -> Result<(OpTables, Vec<Unit>), SimError> {
        let p = |n: &str| param(input.arch, n);
        let cu_simds = p("simds")?.max(1);
        let cus = input.dispatch.cus.max(1);
        let units = build_units(input, cu_simds, cus, cu_simds * cus)?;
        check_op_slots(input)?;
        let (hot, slots) = hot_ops(input, &units, cus);
        let ncat = input.sim.categories.len().min(64);
        let tables = OpTables {
            hot,
            slots,
            issue_cat: issue_categories(input, ncat),
        };
        Ok((tables, units))
    }
}

impl<'a, O: Observer, const STATS: bool> ComputeUnit<'a, O, STATS> {
    /// A compute unit (or `cus` of them) ready to run `input` with its ops
    /// `tables` and the `units` they were built with; model and dispatch errors (missing parameters, workgroups
    /// that cannot fit, too many units or registers per op) are refused
    /// here.
    pub(super) fn new(
        input: &'a SimInput<'a>,
        tables: &'a OpTables,
        units: Vec<Unit>,
        observer: O,
    ) -> Result<Self, SimError> {
        let arch = input.arch;
        let p = |n: &str| param(arch, n);
        let cu_simds = p("simds")?.max(1);
        let cus = input.dispatch.cus.max(1);
        // Several CUs are one machine with `cus` x the SIMDs; each unit's
        // instances are per CU, except the units the CUs share.
        let simds = cu_simds * cus;
        let interval = u64::from(p("issue_interval")?.max(1));
        let wave_size = input.sim.wave_size.max(1);
        let dispatch = input.dispatch;
        let (total_groups, group_waves) = group_shape(input, wave_size, cu_simds)?;
        let wps = input.occupancy.waves_per_simd;
        let nops = input.sim.ops.len();
        // The per-op bookkeeping only the statistics read (a probe
        // allocates none of it: a stray use would fail loudly).
        let stat_ops = if STATS { nops } else { 0 };
        let instances: Vec<u32> = units.iter().map(|u| u.free_at.len() as u32).collect();
        let mut stats = SimStats::new(input.sim, &input.sim.units, &instances);
        stats.cu_waves = vec![0; cus as usize];
        if !STATS {
            stats.op_stalls = Vec::new();
            stats.op_sat = Vec::new();
            stats.op_cause_clocks = Vec::new();
            stats.alloc_denied = Vec::new();
        }
        let depctr = input.sim.ops.iter().map(|o| o.depctr).collect();
        let ncat = input.sim.categories.len().min(64);
        if wps > 64 {
            // `sit_masks` holds a SIMD's waves in a u64 (the model ranges
            // allow at most 64 wave slots per SIMD).
            return Err(SimError::Model(format!(
                "at most 64 waves per SIMD are supported ({wps})"
            )));
        }
        let dependency_extra = arch
            .param("dependency_stall_extra_clocks")
            .map_or(0, |v| v.round() as u64);
        let dynamic = input.dispatch.dynamic_vgpr;
        let pools = vgpr_pools(dynamic, simds);
        Ok(ComputeUnit {
            input,
            observer,
            op_sit: vec![OpSit::default(); stat_ops],
            hot: &tables.hot,
            issue_cat: &tables.issue_cat,
            slots: &tables.slots,
            depctr,
            dynamic,
            wave_returns: Vec::new(),
            per_wave_returns: units
                .iter()
                .any(|u| u.return_order == Some(ReturnOrder::Wave)),
            pools,
            alloc: input.sim.ops.iter().map(|o| o.alloc_vgprs).collect(),
            scoreboard: input.sim.scoreboard,
            dependency_extra,
            counter_max: input.sim.counter_max,
            simds,
            interval,
            wave_size,
            waves_per_simd: wps,
            // (Grown to the most waves resident at once: slots are reused.)
            waves: Vec::new(),
            free_slots: Vec::new(),
            launched_waves: 0,
            resident: vec![Vec::new(); simds as usize],
            sit_masks: vec![0; simds as usize * ncat],
            event_sleepers: vec![0; simds as usize],
            ncat,
            quiet_until: vec![0; simds as usize],
            quiet_ops: vec![Vec::new(); simds as usize],
            quiet_pipes_free_at: vec![0; simds as usize],
            quiet_gathered: vec![0; stat_ops],
            sleeper_ops: vec![Vec::new(); simds as usize],
            sleeper_op_count: vec![0; simds as usize * stat_ops],
            sleeper_listed: vec![false; simds as usize * stat_ops],
            dormant_from: vec![NOT_DORMANT; simds as usize],
            next_dormant_wake: u64::MAX,
            quiet_cover: vec![0; stat_ops * interval as usize],
            quiet_cover_from: vec![0; stat_ops * interval as usize],
            resident_count: 0,
            spare_tracks: Vec::new(),
            groups: Vec::new(),
            free_groups: Vec::new(),
            simd_pipes: (0..units.len() as u8)
                .filter(|&u| {
                    let u = &units[usize::from(u)];
                    u.kind == UnitKind::Pipe && u.scope == UnitScope::Simd
                })
                .collect(),
            units,
            events: BinaryHeap::new(),
            now: 0,
            arrival: dispatch.arrival_interval(arch)?,
            next_arrival: 0,
            total_groups,
            group_waves,
            groups_started: 0,
            launching_group: None,
            dispatch_blocked: false,
            dispatch_at: 0,
            next_simd: vec![0; cus as usize],
            lds_used: vec![0; cus as usize],
            cus,
            cu_simds,
            next_cu: 0,
            lds_capacity: p("lds_bytes_per_cu")?,
            lds_per_group: input.occupancy.lds_allocated,
            launches_per_clock: p("compute_waves_per_clock")?.max(1) * cus,
            stats,
            ncauses: StallCause::row_len(input.sim.units.len()),
            causes: CauseIndex::new(input.sim.units.len()),
            op_stall_stamp: vec![u64::MAX; stat_ops],
            stamp_seq: 1 << 62,
            idle_clocks: 0,
            memory: crate::memstream::MemorySystem::new(
                arch,
                &input
                    .sim
                    .ops
                    .iter()
                    .map(|o| o.stream.clone())
                    .collect::<Vec<_>>(),
                total_groups.saturating_mul(group_waves),
                group_waves,
                cus,
                input.dispatch.chip_shares,
                input
                    .dispatch
                    .launch
                    .as_ref()
                    .map(|l| crate::chip_reuse::ChipLayout {
                        grid: l.grid,
                        working: l.working_groups,
                        active_cus: l.active_cus,
                    }),
            )?,
        })
    }
}

/// The model's integer parameter `name`, or a model error.
fn param(arch: &ArchSpec, name: &str) -> Result<u32, SimError> {
    arch.get_u32(name)
        .map_err(|e| SimError::Model(e.to_string()))
}

/// The program's units, each with its instances (`cu_simds` SIMDs per CU,
/// `cus` CUs, `simds` SIMDs in all) and in-flight limits from the model.
fn build_units(
    input: &SimInput<'_>,
    cu_simds: u32,
    cus: u32,
    simds: u32,
) -> Result<Vec<Unit>, SimError> {
    let arch = input.arch;
    let p = |n: &str| param(arch, n);
    let mut units = Vec::new();
    for name in &input.sim.units {
        let u = &arch.units[name];
        let per_cu = match (&u.per, &u.count) {
            (UnitScope::Simd, _) => cu_simds,
            (UnitScope::Cu, Some(c)) => p(c)?.max(1),
            (UnitScope::Cu, None) => 1,
        };
        let shared = u.shared.is_some();
        let count = if shared { 1 } else { per_cu * cus };
        units.push(Unit {
            kind: u.kind,
            scope: u.per,
            free_at: vec![0; count as usize],
            latest_free_at: 0,
            latency: u
                .latency
                .as_deref()
                .map(p)
                .transpose()?
                .map_or(0, u64::from),
            wave_limit: u
                .wave_in_flight
                .as_deref()
                .map(p)
                .transpose()?
                .map_or(u16::MAX, |v| v.min(u32::from(u16::MAX)) as u16),
            cu_limit: u
                .cu_in_flight
                .as_deref()
                .map(p)
                .transpose()?
                .unwrap_or(u32::MAX),
            cu_in_flight: vec![0; cus as usize],
            return_order: u.return_order,
            last_return: vec![0; cus as usize],
            inst_busy: vec![0; count as usize],
            cu_of_instance: (0..count)
                .map(|i| if shared { u32::MAX } else { i / per_cu })
                .collect(),
            instance_of: (0..simds)
                .map(|s| match (shared, u.per) {
                    (true, _) => 0,
                    (false, UnitScope::Simd) => s,
                    // The CU's instances, its SIMDs split evenly among them.
                    (false, UnitScope::Cu) => {
                        (s / cu_simds) * per_cu + (s % cu_simds) * per_cu / cu_simds
                    }
                })
                .collect(),
        });
    }
    if units.len() > MAX_UNITS {
        return Err(SimError::Model(format!(
            "at most {MAX_UNITS} units are supported"
        )));
    }
    Ok(units)
}

/// The dispatch's groups and waves per group, refused when a group needs
/// more waves than the model or the occupancy allows on one CU.
fn group_shape(
    input: &SimInput<'_>,
    wave_size: u32,
    cu_simds: u32,
) -> Result<(u32, u32), SimError> {
    let dispatch = input.dispatch;
    let (total_groups, group_waves) = match dispatch.stage {
        Stage::Compute => (dispatch.count, dispatch.workgroup_size.div_ceil(wave_size)),
        _ => (dispatch.count, 1),
    };
    let max_group = param(input.arch, "group_waves_max")?;
    if group_waves > max_group {
        return Err(SimError::Dispatch(format!(
            "a workgroup of {} threads needs {group_waves} waves; the model allows {max_group}",
            dispatch.workgroup_size
        )));
    }
    let wps = input.occupancy.waves_per_simd;
    if group_waves > wps * cu_simds {
        return Err(SimError::Dispatch(format!(
            "a workgroup of {group_waves} waves cannot fit: occupancy allows {wps} waves per SIMD x {cu_simds} SIMDs ({} limits it)",
            input.occupancy.limiter
        )));
    }
    Ok((total_groups, group_waves))
}

/// Refuses ops naming more register slots than a u16 counts.
fn check_op_slots(input: &SimInput<'_>) -> Result<(), SimError> {
    // An op's register slots are counted in a u16: the readers refuse
    // instructions with more operands than any real one, but a program
    // built another way may name more. An error, not a panic.
    let slots_of = |ranges: &[SlotRange]| ranges.iter().map(|r| usize::from(r.1)).sum::<usize>();
    if let Some((i, n)) = input
        .sim
        .ops
        .iter()
        .map(|o| slots_of(&o.reads).max(slots_of(&o.writes)))
        .enumerate()
        .find(|(_, n)| *n > usize::from(u16::MAX))
    {
        return Err(SimError::Model(format!(
            "operation {i} of the program names {n} registers; the engine holds at most {} per operation",
            u16::MAX
        )));
    }
    Ok(())
}

/// The ops packed for the cycle loop, and the register slots they read and
/// write (`HotOp::reads` / `writes` index into it).
fn hot_ops(input: &SimInput<'_>, units: &[Unit], cus: u32) -> (Vec<HotOp>, Vec<u16>) {
    let mut slots = Vec::new();
    let mut push_slots = |ranges: &[SlotRange]| {
        let start = slots.len() as u32;
        for &(first, count) in ranges {
            slots.extend(first..first + count);
        }
        let len = u16::try_from(slots.len() - start as usize).expect("few slots per op");
        (start, len)
    };
    let hot = input
        .sim
        .ops
        .iter()
        .map(|o| HotOp {
            kind: o.kind,
            pipe: units
                .get(o.unit as usize)
                .is_some_and(|u| u.kind == UnitKind::Pipe),
            category: o.category,
            unit: o.unit,
            also_unit: o.also_unit,
            cost: shared_cost(units, o.unit, o.cost, cus),
            also_cost: shared_cost(units, o.also_unit, o.also_cost, cus),
            result_delay: o.result_delay,
            inc: o.inc.0,
            dec_at_service: o.dec_at_service.0,
            flags: o.flags,
            wait: o.wait,
            wait_mask: (0..NCOUNTERS)
                .filter(|&c| o.wait[c] != u8::MAX)
                .fold(0, |m, c| m | 1 << c),
            reads: push_slots(&o.reads),
            writes: push_slots(&o.writes),
            latency: o.latency_override.unwrap_or(u32::MAX),
        })
        .collect();
    (hot, slots)
}

/// Each op's issue category, `NO_CAT` for ops that are not unit ops with
/// one of the first `ncat` categories.
fn issue_categories(input: &SimInput<'_>, ncat: usize) -> Vec<u8> {
    input
        .sim
        .ops
        .iter()
        .map(|o| match o.kind {
            OpKind::Unit if (o.category as usize) < ncat => o.category,
            _ => NO_CAT,
        })
        .collect()
}

/// One VGPR pool per SIMD in dynamic VGPR mode, none otherwise.
fn vgpr_pools(dynamic: Option<crate::config::DynamicVgpr>, simds: u32) -> Vec<VgprPool> {
    dynamic.map_or_else(Vec::new, |d| {
        vec![
            VgprPool {
                free: d.pool_blocks,
                reserve_free: d.reserve_blocks,
                reserve_holder: None,
                in_use: 0,
            };
            simds as usize
        ]
    })
}

/// Clocks an op holds unit `unit`: its cost, except on a unit the CUs
/// share, whose cost rule charged one CU's share of it when every CU that
/// shares it (`cu_count`) uses it: the `cus` simulated CUs hold it `cus`
/// times shorter (with `cus = cu_count`, the unit's own rate).
fn shared_cost(units: &[Unit], unit: u8, cost: u32, cus: u32) -> u32 {
    match units.get(unit as usize) {
        Some(u) if u.cu_of_instance == [u32::MAX] && cost > 0 => cost.div_ceil(cus).max(1),
        _ => cost,
    }
}
