//! The driver's statistics beside a listing: what Vulkan's
//! `VK_KHR_pipeline_executable_properties` reports per pipeline executable
//! (RADV: "VGPRs", "SGPRs", "LDS size", "Subgroups per SIMD",
//! "Instructions", ...), saved as `shadersim compile -o` and `shadersim radv-capture` write
//! it: one `[[executable]]` table per executable with `stages` and
//! `subgroup_size`, statistics as `"Name" = value` lines.

use crate::program::{ProgramFile, Stage};

/// One executable's statistics.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecutableStatistics {
    /// Its stage, when the file names one this crate knows.
    pub stage: Option<Stage>,
    /// Lanes per wave.
    pub subgroup_size: Option<u32>,
    /// "VGPRs": VGPRs allocated per wave.
    pub vgprs: Option<u32>,
    /// "SGPRs": SGPRs allocated per wave.
    pub sgprs: Option<u32>,
    /// "LDS size": bytes per workgroup.
    pub lds_bytes: Option<u32>,
    /// "Scratch size": bytes per wave.
    pub scratch_bytes: Option<u32>,
    /// "Subgroups per SIMD": the driver's occupancy.
    pub waves_per_simd: Option<u32>,
    /// "Instructions".
    pub instructions: Option<u32>,
}

/// Parse a statistics file; lines that are not statistics are skipped.
pub fn parse_driver_statistics(text: &str) -> Vec<ExecutableStatistics> {
    let mut out: Vec<ExecutableStatistics> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t == "[[executable]]" {
            out.push(ExecutableStatistics::default());
            continue;
        }
        let Some(e) = out.last_mut() else {
            continue;
        };
        let Some((key, value)) = t.split_once(" = ") else {
            continue;
        };
        let value = value.split('#').next().unwrap_or("").trim();
        let int = || value.parse::<u32>().ok();
        match key.trim_matches('"') {
            "stages" => {
                e.stage = match value.trim_matches('"') {
                    "fragment" => Some(Stage::Pixel),
                    "vertex" => Some(Stage::Vertex),
                    "compute" => Some(Stage::Compute),
                    _ => None,
                }
            }
            "subgroup_size" => e.subgroup_size = int(),
            "VGPRs" => e.vgprs = int(),
            "SGPRs" => e.sgprs = int(),
            "LDS size" => e.lds_bytes = int(),
            "Scratch size" => e.scratch_bytes = int(),
            "Subgroups per SIMD" => e.waves_per_simd = int(),
            "Instructions" => e.instructions = int(),
            _ => {}
        }
    }
    out
}

/// Give the programs of `file` the statistics of their executables: a
/// program takes the executable of its stage (a compute listing, whose
/// stage the code does not show, the compute one), or the only one when
/// both are alone. Returns how many programs got statistics.
pub fn apply_driver_statistics(file: &mut ProgramFile, stats: &[ExecutableStatistics]) -> usize {
    let single = file.programs.len() == 1 && stats.len() == 1;
    let mut applied = 0;
    for p in &mut file.programs {
        let e = if single {
            stats.first()
        } else {
            let stage = p.stage.unwrap_or(Stage::Compute);
            stats.iter().find(|e| e.stage == Some(stage))
        };
        let Some(e) = e else {
            continue;
        };
        if p.stage.is_none() {
            p.stage = e.stage;
        }
        let d = &mut p.declared;
        // The driver's numbers are what it allocated: they win.
        d.vgprs = e.vgprs.or(d.vgprs);
        if e.sgprs.is_some() {
            d.sgprs = e.sgprs;
            d.sgprs_allocated = true;
        }
        d.lds_bytes = e.lds_bytes.or(d.lds_bytes);
        d.scratch_bytes = e.scratch_bytes.or(d.scratch_bytes);
        if e.waves_per_simd.is_some() {
            d.occupancy = e.waves_per_simd;
            d.occupancy_from_radv = true;
        }
        d.wave_size = e.subgroup_size.or(d.wave_size);
        d.instruction_count = e.instructions.or(d.instruction_count);
        applied += 1;
    }
    applied
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_capture_format() {
        let text = "device = \"x\"\n\n[[executable]]\nindex = 0\nstages = \"compute\"\nsubgroup_size = 64\n[executable.statistics]\n\"VGPRs\" = 20  # Number of VGPR registers\n\"LDS size\" = 8192  # LDS\n\"Subgroups per SIMD\" = 8  # max\n";
        let s = parse_driver_statistics(text);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].stage, Some(Stage::Compute));
        assert_eq!(s[0].vgprs, Some(20));
        assert_eq!(s[0].lds_bytes, Some(8192));
        assert_eq!(s[0].waves_per_simd, Some(8));
        assert_eq!(s[0].subgroup_size, Some(64));
    }
}
