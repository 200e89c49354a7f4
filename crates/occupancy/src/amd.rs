//! AMD occupancy: how many waves fit on a SIMD, and what limits it.
//!
//! One rule for every AMD model, switched by the model's data
//! (`rdna-model.md` section 5, `gcn-model.md` Occupancy):
//!
//! * **VGPRs.** The file holds `vgprs_per_simd` register rows of
//!   `vgpr_row_lanes` lanes (GCN: 256 rows of 64 lanes; RDNA: 1024 or 1536
//!   rows of 32). A wave of W lanes takes ceil(W / row lanes) rows per
//!   register, rounded up to `vgpr_granule` rows. RDNA's granules (8/16/24
//!   wave32 registers, 4/8/12 wave64 registers) are the same number of rows
//!   for both wave sizes, which is why one granule parameter serves both.
//! * **SGPRs** limit only when `sgprs_per_simd` is non-zero (GCN); RDNA
//!   allocates a fixed 128 per wave from a file sized for every slot.
//! * **LDS.** Workgroups whose LDS fits the pool, times their waves, over
//!   the SIMDs sharing the pool: the CU (`lds_bytes_per_cu`, `simds`), or in
//!   WGP mode (`wgp_mode` = 1) the `cus_per_wgp` CUs of a work-group
//!   processor.
//! * **Barriers.** Workgroups of more than one wave need a barrier slot:
//!   at most `barrier_workgroups_per_cu` per CU (times `cus_per_wgp` in WGP
//!   mode) when the model has that parameter.

use shadersim_arch::ArchSpec;
use shadersim_asm::{CountSource, Program};
use std::fmt;

/// Why the rule has no occupancy.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OccupancyError {
    /// The model lacks a parameter the rule reads, or it is invalid.
    #[error("{0}")]
    Model(String),
    /// No wave fits (an LDS or workgroup demand beyond the CU).
    #[error("{0}")]
    Dispatch(String),
}

/// What limits occupancy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limiter {
    /// VGPRs per wave.
    Vgpr,
    /// SGPRs per wave.
    Sgpr,
    /// LDS per workgroup.
    Lds,
    /// Wave slots.
    Slots,
    /// Barrier resources: workgroups per CU (or WGP).
    Workgroups,
    /// The slots enabled in dynamic VGPR mode.
    DynamicVgprSlots,
    /// The user's `waves_per_simd` hint.
    Hints,
}

impl Limiter {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Vgpr => "vgpr",
            Limiter::Sgpr => "sgpr",
            Limiter::Lds => "lds",
            Limiter::Slots => "slots",
            Limiter::Workgroups => "workgroups",
            Limiter::DynamicVgprSlots => "dynamic-vgpr-slots",
            Limiter::Hints => "hints",
        }
    }
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one wave (and its workgroup) asks of the compute unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceUsage {
    /// VGPRs per wave (in registers of the wave's own width), before rounding.
    pub vgprs: u32,
    /// SGPRs per wave before rounding, excluding reserved ones.
    pub sgprs: u32,
    /// Whether the SGPR count came from the compiler's descriptor (which leaves out the
    /// reserved VCC/FLAT_SCRATCH/XNACK registers the hardware adds): `sgpr_reserved` is added.
    /// False for a count computed from the code and for a driver's allocation (RADV's
    /// "SGPRs", which includes them).
    pub sgprs_declared: bool,
    /// LDS bytes per workgroup before rounding.
    pub lds_bytes: u32,
    /// Lanes per wave.
    pub wave_size: u32,
    /// Waves per workgroup.
    pub waves_per_group: u32,
}

/// Occupancy and the numbers behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Occupancy {
    /// Waves per SIMD.
    pub waves_per_simd: u32,
    /// What limits it.
    pub limiter: Limiter,
    /// VGPRs per wave as allocated (rounded to the granule), in registers
    /// of the wave's width.
    pub vgprs_allocated: u32,
    /// SGPRs per wave as allocated.
    pub sgprs_allocated: u32,
    /// LDS bytes per workgroup as allocated.
    pub lds_allocated: u32,
    /// Limit from each resource: (slots, vgpr, sgpr, lds, workgroups).
    pub limits: [u32; 5],
    /// Workgroups the LDS holds at once per CU (`None`: the workgroup uses no LDS). Can be
    /// fewer than the waves per SIMD imply: a 64 KiB one-wave workgroup fills a CU of four
    /// SIMDs alone.
    pub lds_workgroups_per_cu: Option<u32>,
    /// Whether register counts came from the compiler or were computed.
    pub vgprs_declared: bool,
    /// Lanes per wave the figures are for.
    pub wave_size: u32,
}

fn round_up(v: u32, g: u32) -> u32 {
    if g <= 1 {
        v
    } else {
        v.div_ceil(g) * g
    }
}

impl Occupancy {
    /// This occupancy as Mesa RADV 22.3 states it ("Subgroups per SIMD"):
    /// on gfx10 and later it counts wave32-sized waves, so a wave64 figure
    /// is doubled and wave32 is capped at twice the hardware slots, and it
    /// ignores the SGPR and workgroup limits there (docs/models/rdna.md,
    /// occupancy). On GCN it states the hardware figure.
    pub fn as_radv_states(&self, gen: shadersim_isa::GfxGen) -> u32 {
        let [slots, vgpr, _sgpr, lds, _groups] = self.limits;
        // Without LDS the LDS limit is the slots: no limit.
        let lds = if self.lds_allocated == 0 {
            u32::MAX
        } else {
            lds
        };
        if !gen.radv_counts_wave32_units() {
            self.waves_per_simd
        } else if self.wave_size == 64 {
            2 * slots.min(vgpr).min(lds)
        } else {
            (2 * slots).min(vgpr).min(lds)
        }
    }

    /// Occupancy of `program` on `arch` for waves of `wave_size` lanes, with
    /// workgroups of `waves_per_group` waves and an optional cap from the
    /// hints.
    pub fn compute(
        program: &Program,
        arch: &ArchSpec,
        wave_size: u32,
        waves_per_group: u32,
        cap: Option<u32>,
    ) -> Result<Occupancy, OccupancyError> {
        let usage = program.register_usage();
        let occ = Occupancy::for_usage(
            arch,
            &ResourceUsage {
                vgprs: usage.vgprs,
                sgprs: usage.sgprs,
                // A driver's allocated count holds the reserved SGPRs already.
                sgprs_declared: usage.sgpr_source == CountSource::Declared
                    && !program.declared.sgprs_allocated,
                lds_bytes: program.declared.lds_bytes.unwrap_or(0),
                wave_size,
                waves_per_group,
            },
            cap,
        )?;
        Ok(Occupancy {
            vgprs_declared: usage.vgpr_source == CountSource::Declared,
            ..occ
        })
    }

    /// Occupancy for a resource usage on `arch` (the rule of the module
    /// docs), with an optional cap.
    pub fn for_usage(
        arch: &ArchSpec,
        usage: &ResourceUsage,
        cap: Option<u32>,
    ) -> Result<Occupancy, OccupancyError> {
        let p = |n: &str| {
            arch.get_u32(n)
                .map_err(|e| OccupancyError::Model(e.to_string()))
        };
        // Parameters a model may leave out: the feature is absent.
        let opt = |n: &str, default: u32| arch.param(n).map_or(default, |v| v.round() as u32);
        let slots = p("wave_slots_per_simd")?;
        let simds = p("simds")?.max(1);
        let wave_size = usage.wave_size.max(1);
        let row_lanes = opt("vgpr_row_lanes", wave_size).max(1);
        let rows_per_reg = wave_size.div_ceil(row_lanes);
        let rows = round_up(usage.vgprs.max(1) * rows_per_reg, p("vgpr_granule")?);
        let vgprs = rows / rows_per_reg.max(1);
        let by_vgpr = p("vgprs_per_simd")? / rows.max(1);
        // LLVM's descriptor counts exclude VCC/FLAT_SCRATCH/XNACK; the
        // hardware allocates them too.
        let extra = if usage.sgprs_declared {
            opt("sgpr_reserved", 0)
        } else {
            0
        };
        let sgprs = round_up((usage.sgprs + extra).max(1), p("sgpr_granule")?);
        let sgpr_file = p("sgprs_per_simd")?;
        let by_sgpr = if sgpr_file == 0 {
            slots
        } else {
            sgpr_file / sgprs
        };
        let lds = if usage.lds_bytes == 0 {
            0
        } else {
            round_up(usage.lds_bytes, p("lds_granule")?)
        };
        let pool_cus = if opt("wgp_mode", 0) != 0 {
            opt("cus_per_wgp", 1).max(1)
        } else {
            1
        };
        let lds_cu = p("lds_bytes_per_cu")?;
        let pool_bytes = lds_cu * pool_cus;
        let pool_simds = simds * pool_cus;
        let group_waves = usage.waves_per_group.max(1);
        // Waves of the workgroups whose LDS fits, spread over the SIMDs.
        // A workgroup whose LDS fits runs even when its waves are fewer than
        // the SIMDs sharing the pool (one 64 KiB one-wave group on a CU of
        // four SIMDs): at least one wave per SIMD, as LLVM's occupancy from
        // local memory clamps to 1. Dispatch still admits a workgroup only
        // while its LDS fits (`lds_per_group`).
        let lds_workgroups_per_cu = pool_bytes.checked_div(lds).map(|g| g / pool_cus);
        let by_lds = match pool_bytes.checked_div(lds) {
            Some(0) => 0,
            Some(groups) => ((groups * group_waves) / pool_simds).max(1),
            None => slots,
        };
        let by_groups = match arch.param("barrier_workgroups_per_cu") {
            Some(g) if group_waves > 1 => {
                let groups = (g.round() as u32) * pool_cus;
                (groups * group_waves) / pool_simds
            }
            _ => slots,
        };
        let mut best = (slots, Limiter::Slots);
        for (v, l) in [
            (by_vgpr, Limiter::Vgpr),
            (by_sgpr, Limiter::Sgpr),
            (by_lds, Limiter::Lds),
            (by_groups, Limiter::Workgroups),
        ] {
            if v < best.0 {
                best = (v, l);
            }
        }
        if let Some(c) = cap {
            if c < best.0 {
                best = (c, Limiter::Hints);
            }
        }
        if best.0 == 0 {
            return Err(OccupancyError::Dispatch(format!(
                "no wave fits: {} limits occupancy to 0 waves per SIMD ({} VGPRs, {} SGPRs, {} LDS bytes per workgroup)",
                best.1, vgprs, sgprs, lds
            )));
        }
        Ok(Occupancy {
            waves_per_simd: best.0,
            limiter: best.1,
            vgprs_allocated: vgprs,
            sgprs_allocated: sgprs,
            lds_allocated: lds,
            limits: [slots, by_vgpr, by_sgpr, by_lds, by_groups],
            lds_workgroups_per_cu,
            vgprs_declared: false,
            wave_size,
        })
    }
}
