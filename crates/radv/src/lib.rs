//! Compile Vulkan shaders with Mesa's RADV driver and capture what the
//! driver reports: the ACO disassembly of every pipeline executable (the
//! "Assembly" internal representation of `VK_KHR_pipeline_executable_properties`,
//! what RenderDoc shows) and its statistics (VGPRs, SGPRs, LDS, "Subgroups
//! per SIMD", ACO's latency estimates).
//!
//! No AMD GPU is needed: with `RADV_FORCE_FAMILY=<family>` in its
//! environment RADV runs on its null winsys and compiles for that chip.
//! Because the variable must be set before the driver loads and a driver
//! may crash, callers run [`capture::capture_pipeline`] in a child process
//! (shadersim's CLI re-runs itself with a hidden subcommand) and read the
//! [`Capture`] it prints as JSON.
//!
//! * [`reflect`]: what a SPIR-V module needs from the pipeline (descriptor
//!   bindings, vertex inputs, fragment inputs and outputs), so any shader
//!   can be compiled without describing it.
//! * [`passthrough`]: the vertex shader that feeds a fragment shader given
//!   alone.
//! * [`capture`]: the Vulkan calls.
//! * [`family_for`]: the `RADV_FORCE_FAMILY` name of a GPU.

pub mod capture;
pub mod passthrough;
pub mod reflect;

use serde::{Deserialize, Serialize};

/// What the driver reported for one pipeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Capture {
    /// The device name RADV gives (`Null hardware (RADV GFX1100)`).
    pub device: String,
    /// Mesa's driver version string, when the driver reports one.
    pub driver_info: String,
    /// Every executable of the pipeline, in the driver's order.
    pub executables: Vec<CapturedExecutable>,
}

/// One pipeline executable: a hardware shader stage (RADV may merge API
/// stages: "Vertex Shader as ESGS", NGG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapturedExecutable {
    /// The driver's name for it ("Fragment Shader", "Compute Shader").
    pub name: String,
    /// The driver's description.
    pub description: String,
    /// The API stages it runs (`vertex`, `fragment`, `compute`, ...).
    pub stages: Vec<String>,
    /// Lanes per wave.
    pub subgroup_size: u32,
    /// The driver's statistics in its order.
    pub statistics: Vec<Statistic>,
    /// The "Assembly" text representation, when the driver gives one.
    pub assembly: Option<String>,
}

/// One statistic of an executable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Statistic {
    /// Its name ("VGPRs", "Subgroups per SIMD").
    pub name: String,
    /// The driver's description of it.
    pub description: String,
    /// Its value, rendered as a TOML value (`true`, `128`, `0.5`, or a
    /// quoted string for integers beyond TOML's range).
    pub value: String,
}

impl Capture {
    /// The statistics in the TOML form shadersim reads beside a listing
    /// (`FILE.stats.toml`, `shadersim_asm::parse_driver_statistics`): one
    /// `[[executable]]` table per executable, each statistic a
    /// `"Name" = value  # description` line.
    pub fn statistics_toml(&self, writer: &str) -> String {
        let mut out = String::new();
        out.push_str("# VK_KHR_pipeline_executable_properties statistics reported by the driver\n");
        out.push_str(&format!("# (written by {writer})\n"));
        out.push_str(&format!("device = {}\n", toml_string(&self.device)));
        out.push_str(&format!("executables = {}\n", self.executables.len()));
        for (i, e) in self.executables.iter().enumerate() {
            out.push_str("\n[[executable]]\n");
            out.push_str(&format!("index = {i}\n"));
            out.push_str(&format!("name = {}\n", toml_string(&e.name)));
            out.push_str(&format!("description = {}\n", toml_string(&e.description)));
            out.push_str(&format!("stages = {}\n", toml_string(&e.stages.join("+"))));
            out.push_str(&format!("subgroup_size = {}\n", e.subgroup_size));
            out.push_str("[executable.statistics]\n");
            for s in &e.statistics {
                out.push_str(&format!(
                    "{} = {}  # {}\n",
                    toml_string(&s.name),
                    s.value,
                    s.description.replace('\n', " ")
                ));
            }
        }
        out
    }

    /// The executable that runs `stage` (`fragment`, `vertex`, `compute`).
    pub fn executable_for(&self, stage: &str) -> Option<&CapturedExecutable> {
        self.executables
            .iter()
            .find(|e| e.stages.iter().any(|s| s == stage))
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The `RADV_FORCE_FAMILY` name for a GPU given by its LLVM processor name
/// (`gfx900`), or `None` when Mesa 22.3's RADV does not compile for it
/// (gfx12 is newer than that driver; gfx6-gfx7 chips RADV supports are
/// listed too).
pub fn family_for(processor: &str) -> Option<&'static str> {
    // Mesa's family names for the chip each LLVM processor name denotes
    // (Mesa src/amd/common/amd_family.h; LLVM AMDGPUUsage's processor table).
    const FAMILIES: &[(&str, &str)] = &[
        ("gfx600", "tahiti"),
        ("gfx601", "pitcairn"),
        ("gfx602", "oland"),
        ("gfx700", "kaveri"),
        ("gfx701", "hawaii"),
        ("gfx702", "hawaii"),
        ("gfx703", "kabini"),
        ("gfx704", "bonaire"),
        ("gfx705", "kabini"),
        ("gfx801", "carrizo"),
        ("gfx802", "tonga"),
        ("gfx803", "polaris10"),
        ("gfx805", "tonga"),
        ("gfx810", "stoney"),
        ("gfx900", "vega10"),
        ("gfx902", "raven"),
        ("gfx904", "vega12"),
        ("gfx906", "vega20"),
        ("gfx909", "raven2"),
        ("gfx90c", "renoir"),
        ("gfx1010", "navi10"),
        ("gfx1011", "navi12"),
        ("gfx1012", "navi14"),
        ("gfx1030", "navi21"),
        ("gfx1031", "navi22"),
        ("gfx1032", "navi23"),
        ("gfx1033", "vangogh"),
        ("gfx1034", "navi24"),
        ("gfx1035", "rembrandt"),
        ("gfx1036", "gfx1036"),
        ("gfx1100", "gfx1100"),
        ("gfx1101", "gfx1101"),
        ("gfx1102", "gfx1102"),
        ("gfx1103", "gfx1103_r1"),
    ];
    FAMILIES
        .iter()
        .find(|(p, _)| *p == processor)
        .map(|(_, f)| *f)
}

/// Why a pipeline could not be captured.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The SPIR-V is malformed or uses something the reflection does not
    /// know how to give a pipeline layout for.
    #[error("{0}")]
    Spirv(String),
    /// The Vulkan loader could not be opened.
    #[error("cannot load the Vulkan loader (libvulkan.so.1): {0}; install the Debian packages libvulkan1 and mesa-vulkan-drivers")]
    Loader(String),
    /// No RADV device came up.
    #[error("no AMD (RADV) Vulkan device: is the Debian package mesa-vulkan-drivers installed and RADV_FORCE_FAMILY a family this Mesa knows?")]
    NoDevice,
    /// A Vulkan call failed.
    #[error("{call} failed: {result}")]
    Vulkan {
        /// The call.
        call: &'static str,
        /// Its result code.
        result: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_toml_reads_back_with_the_listing_reader_format() {
        let c = Capture {
            device: "Null hardware (RADV GFX1100)".into(),
            driver_info: String::new(),
            executables: vec![CapturedExecutable {
                name: "Compute Shader".into(),
                description: "Vulkan Compute Shader".into(),
                stages: vec!["compute".into()],
                subgroup_size: 64,
                statistics: vec![Statistic {
                    name: "VGPRs".into(),
                    description: "Number of VGPR registers allocated per subgroup".into(),
                    value: "24".into(),
                }],
                assembly: None,
            }],
        };
        let t = c.statistics_toml("test");
        assert!(t.contains("[[executable]]\nindex = 0\nname = \"Compute Shader\""));
        assert!(t.contains("stages = \"compute\"\nsubgroup_size = 64\n"));
        assert!(t.contains("\"VGPRs\" = 24  # Number of VGPR"));
        assert_eq!(c.executable_for("compute").unwrap().name, "Compute Shader");
        assert!(c.executable_for("fragment").is_none());
    }

    #[test]
    fn families() {
        assert_eq!(family_for("gfx900"), Some("vega10"));
        assert_eq!(family_for("gfx1030"), Some("navi21"));
        assert_eq!(family_for("gfx1100"), Some("gfx1100"));
        assert_eq!(family_for("gfx1200"), None);
    }
}
