//! How many waves fit on a SIMD, and what limits it.

use crate::error::SimError;
use shadersim_arch::ArchSpec;
use shadersim_asm::{CountSource, Program};
use std::fmt;

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
            Limiter::Hints => "hints",
        }
    }
}

impl fmt::Display for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Occupancy and the numbers behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Occupancy {
    /// Waves per SIMD.
    pub waves_per_simd: u32,
    /// What limits it.
    pub limiter: Limiter,
    /// VGPRs per wave as allocated (rounded to the granule).
    pub vgprs_allocated: u32,
    /// SGPRs per wave as allocated.
    pub sgprs_allocated: u32,
    /// LDS bytes per workgroup as allocated.
    pub lds_allocated: u32,
    /// Limit from each resource: (slots, vgpr, sgpr, lds).
    pub limits: [u32; 4],
    /// Whether register counts came from the compiler or were computed.
    pub vgprs_declared: bool,
}

fn round_up(v: u32, g: u32) -> u32 {
    if g <= 1 {
        v
    } else {
        v.div_ceil(g) * g
    }
}

impl Occupancy {
    /// Occupancy of `program` on `arch`, with workgroups of `waves_per_group`
    /// waves and an optional cap from the hints.
    pub fn compute(
        program: &Program,
        arch: &ArchSpec,
        waves_per_group: u32,
        cap: Option<u32>,
    ) -> Result<Occupancy, SimError> {
        let p = |n: &str| arch.get_u32(n).map_err(|e| SimError::Model(e.to_string()));
        let slots = p("wave_slots_per_simd")?;
        let simds = p("simds")?.max(1);
        let usage = program.register_usage();
        let vgprs = round_up(usage.vgprs.max(1), p("vgpr_granule")?);
        // LLVM's descriptor counts exclude VCC/FLAT_SCRATCH/XNACK; the
        // hardware allocates them too.
        let extra = if usage.sgpr_source == CountSource::Declared {
            p("sgpr_reserved")?
        } else {
            0
        };
        let sgprs = round_up((usage.sgprs + extra).max(1), p("sgpr_granule")?);
        let by_vgpr = p("vgprs_per_simd")? / vgprs;
        let sgpr_file = p("sgprs_per_simd")?;
        let by_sgpr = if sgpr_file == 0 {
            slots
        } else {
            sgpr_file / sgprs
        };
        let lds_bytes = program.declared.lds_bytes.unwrap_or(0);
        let lds = if lds_bytes == 0 {
            0
        } else {
            round_up(lds_bytes, p("lds_granule")?)
        };
        // Waves of the workgroups whose LDS fits, spread over the SIMDs.
        let by_lds = match p("lds_bytes_per_cu")?.checked_div(lds) {
            Some(groups) => (groups * waves_per_group.max(1)) / simds,
            None => slots,
        };
        let mut best = (slots, Limiter::Slots);
        for (v, l) in [
            (by_vgpr, Limiter::Vgpr),
            (by_sgpr, Limiter::Sgpr),
            (by_lds, Limiter::Lds),
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
            return Err(SimError::Dispatch(format!(
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
            limits: [slots, by_vgpr, by_sgpr, by_lds],
            vgprs_declared: usage.vgpr_source == CountSource::Declared,
        })
    }
}
