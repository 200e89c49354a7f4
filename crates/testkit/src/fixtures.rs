//! The fixture corpus's manifests: `tests/fixtures/manifest.toml` (every
//! compiler-generated fixture and the facts its compiler reported, written
//! by `scripts/regen-fixtures.sh`) and `tests/fixtures/aco/manifest.toml`
//! (bare ACO listings and the driver's statistics, written by
//! `scripts/regen-aco-listings.sh`). The keys are described at the top of
//! each manifest; the structs hold the ones tests read.

use serde::Deserialize;
use std::path::PathBuf;

/// `tests/fixtures`: the manifests' paths are relative to it.
pub fn fixtures_dir() -> PathBuf {
    crate::repo_root().join("tests/fixtures")
}

/// `tests/fixtures/aco`: the ACO manifest's paths are relative to it.
pub fn aco_dir() -> PathBuf {
    fixtures_dir().join("aco")
}

/// `tests/fixtures/manifest.toml`.
#[derive(Debug, Deserialize)]
pub struct Manifest {
    /// Every fixture, in file order.
    pub fixture: Vec<Fixture>,
}

impl Manifest {
    /// Read and parse `tests/fixtures/manifest.toml`; panics when it is
    /// missing or malformed (the corpus is part of the repository).
    pub fn load() -> Manifest {
        let path = fixtures_dir().join("manifest.toml");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// One `[[fixture]]`: a file and the facts its compiler reported about
/// the subject program (for RADV, the subject shader).
#[derive(Debug, Deserialize)]
pub struct Fixture {
    /// Relative to `tests/fixtures`.
    pub path: String,
    /// `llvm`, `objdump` or `radv`.
    pub dialect: String,
    /// The gfx name (RADV: the gfx of the forced family).
    pub target: String,
    /// `compute`, `pixel` or `vertex`.
    pub stage: String,
    /// The kernel or shader function.
    pub function: Option<String>,
    /// RADV: the forced family (`vega10`, ...); empty otherwise.
    #[serde(default)]
    pub family: String,
    /// RADV: the driver's statistics file, relative to `tests/fixtures`;
    /// empty otherwise.
    #[serde(default)]
    pub statistics: String,
    /// Machine instructions (see the manifest's header for how each
    /// dialect counts them).
    pub instructions: u32,
    /// LLVM: instructions written in the `.s` (without alignment padding).
    pub asm_instructions: Option<u32>,
    /// Natural loops in the machine code, counted as distinct backward-branch targets.
    pub loops: usize,
    /// The compiler's own count of loop headers (LLVM's loop comments, ACO's
    /// loop-header blocks); the natural loops when the two disagree.
    pub loop_headers_reported: Option<usize>,
    /// LLVM: the kernel descriptor's `.amdhsa_next_free_vgpr`.
    pub next_free_vgpr: Option<u32>,
    /// LLVM: the kernel descriptor's `.amdhsa_next_free_sgpr`.
    pub next_free_sgpr: Option<u32>,
    /// VGPRs the compiler reported (RADV: allocated per wave).
    pub vgprs: Option<u32>,
    /// The wave size the program was compiled for.
    pub wave_size: Option<u32>,
    /// LLVM: the compiler's `; Occupancy:` figure (waves per SIMD).
    pub occupancy: Option<u32>,
    /// LLVM, gfx90a/gfx942: the compiler's `; NumAgprs:`.
    pub agprs: Option<u32>,
    /// RADV: every shader of the pipeline, in file order.
    #[serde(default)]
    pub shaders: Vec<Shader>,
}

/// One `[[fixture.shaders]]` of a RADV pipeline dump.
#[derive(Debug, Deserialize)]
pub struct Shader {
    /// `compute`, `pixel` or `vertex`.
    pub stage: String,
    /// Its executable in the statistics file.
    pub executable_index: usize,
    /// ACO's "Instructions" statistic.
    pub instructions: u32,
    /// Instructions of the disassembly block carrying a `; hex` encoding.
    pub hex_words: u32,
    /// Natural loops in its machine code.
    pub loops: usize,
    /// ACO's "VGPRs" (allocated per wave).
    pub vgprs: u32,
    /// Its subgroup size.
    pub wave_size: Option<u32>,
    /// ACO's "Pre-Sched VGPRs" (demand before scheduling).
    pub pre_sched_vgprs: Option<u32>,
}

/// `tests/fixtures/aco/manifest.toml`.
#[derive(Debug, Deserialize)]
pub struct AcoManifest {
    /// Every listing, in file order.
    pub listing: Vec<AcoListing>,
}

impl AcoManifest {
    /// Read and parse `tests/fixtures/aco/manifest.toml`; panics when it
    /// is missing or malformed.
    pub fn load() -> AcoManifest {
        let path = aco_dir().join("manifest.toml");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// One `[[listing]]`: a bare ACO listing and the driver's statistics.
#[derive(Debug, Deserialize)]
pub struct AcoListing {
    /// Relative to `tests/fixtures/aco`.
    pub path: String,
    /// The gfx of the forced family.
    pub target: String,
    /// `pixel`, `vertex` or `compute`.
    pub stage: String,
    /// The statistics file, relative to `tests/fixtures/aco`.
    pub statistics: String,
    /// The listing's executable in the statistics file.
    pub executable: usize,
    /// Copies folded into `(then repeated N times)` lines.
    pub repeated: u32,
}

/// Every fixture of both manifests as (path, gfx name of its target): the
/// compiler-generated fixtures, then the ACO listings.
pub fn labelled() -> Vec<(PathBuf, String)> {
    let fixtures = Manifest::load()
        .fixture
        .into_iter()
        .map(|f| (fixtures_dir().join(f.path), f.target));
    let listings = AcoManifest::load()
        .listing
        .into_iter()
        .map(|l| (aco_dir().join(l.path), l.target));
    fixtures.chain(listings).collect()
}
