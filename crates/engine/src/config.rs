//! What feeds the compute unit: the dispatch parameters of one run.

use crate::error::SimError;
use shadersim_arch::ArchSpec;
use shadersim_asm::Stage;

/// Dispatch parameters (the `[dispatch]` hints with their defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct DispatchConfig {
    /// Stage.
    pub stage: Stage,
    /// Waves (pixel, vertex) or workgroups (compute) to simulate.
    pub count: u32,
    /// Pixel: average triangle size in pixels.
    pub pixels_per_triangle: f64,
    /// Vertex: vertices per triangle after the post-transform cache.
    pub vertices_per_triangle: f64,
    /// Compute: threads per workgroup.
    pub workgroup_size: u32,
    /// Cap on waves per SIMD (None: what resources allow).
    pub waves_per_simd: Option<u32>,
    /// Lanes per wave.
    pub wave_size: u32,
    /// RDNA 4 dynamic VGPR mode, if on.
    pub dynamic_vgpr: Option<DynamicVgpr>,
    /// Compute units simulated side by side, sharing the rasterizer /
    /// vertex grouper (waves dealt round robin) and the model's shared
    /// units (the export path). `count` is the total over them.
    pub cus: u32,
    /// Shares of the chip-wide cache levels' and memory's bandwidth each simulated CU gets
    /// (1: an equal share of every CU of the GPU; more when the launch keeps some CUs idle).
    pub chip_shares: f64,
    /// The host's launch, when one was given (`[launch]`).
    pub launch: Option<LaunchPlan>,
}

/// A launch and what it makes of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct LaunchPlan {
    /// Workgroups per dimension.
    pub grid: [u64; 3],
    /// Work-items per workgroup, per dimension.
    pub block: [u32; 3],
    /// The global size asked for, when the launch gave one (the grid is its ceiling).
    pub global: Option<[u64; 3]>,
    /// CUs of the GPU (`gpu_cus`).
    pub gpu_cus: u32,
    /// CUs that get at least one workgroup.
    pub active_cus: u32,
    /// Workgroups of the busiest CU: `ceil(workgroups / gpu_cus)`.
    pub groups_per_cu: u64,
    /// Workgroups the simulated CU runs (at most `launch::MAX_SIMULATED_GROUPS`).
    pub simulated_groups: u64,
    /// Workgroups with work: past the kernel's entry guard (all of them without one). The
    /// busiest CU's count, the CUs with work and the simulated workgroups follow these; the
    /// others end at once and cost only their dispatch.
    pub working_groups: u64,
    /// The entry guard that emptied the other workgroups: its line and compare.
    pub guard: Option<(u32, String)>,
}

impl LaunchPlan {
    /// Workgroups of the whole dispatch.
    pub fn workgroups(&self) -> u64 {
        self.grid.iter().product()
    }

    /// Shares of the chip-wide levels' bandwidth each busy CU gets (`gpu_cus / active_cus`).
    pub fn chip_shares(&self) -> f64 {
        f64::from(self.gpu_cus) / f64::from(self.active_cus.max(1))
    }
}

/// RDNA 4 dynamic VGPR mode (rdna-model.md 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynamicVgpr {
    /// VGPRs per block.
    pub block: u32,
    /// Wave slots enabled per SIMD.
    pub slots: u32,
    /// Deadlock-avoidance mode.
    pub deadlock_avoidance: bool,
    /// Most blocks one wave may hold.
    pub max_blocks: u32,
    /// Blocks kept in reserve in deadlock-avoidance mode.
    pub reserve_blocks: u32,
    /// Blocks in the SIMD's shared pool (the file less every slot's reserved
    /// block and the reserve).
    pub pool_blocks: u32,
}

impl DispatchConfig {
    /// The documented defaults: 500 waves, 16-pixel triangles, 1 vertex
    /// per triangle, 64-thread workgroups.
    pub fn new(stage: Stage) -> DispatchConfig {
        DispatchConfig {
            stage,
            count: 500,
            pixels_per_triangle: 16.0,
            vertices_per_triangle: 1.0,
            workgroup_size: 64,
            waves_per_simd: None,
            wave_size: 64,
            dynamic_vgpr: None,
            cus: 1,
            chip_shares: 1.0,
            launch: None,
        }
    }

    /// Clocks between two waves arriving at this CU (pixel and vertex), or
    /// `None` for compute (workgroups come as fast as slots free up).
    ///
    /// Pixel (seed 004): the rasterizer emits 4 quads per clock from one
    /// triangle; with p pixels per triangle a wave of 16 quads takes
    /// 16 / max(1, min(4, ceil(p / 4))) clocks (a wave32 is 8 quads). Vertex:
    /// the grouper takes 1 new vertex per clock and one triangle per clock, so
    /// a wave of 64 vertices needs max(64, 64 / A) clocks (the seed prints min(); its own
    /// reasoning gives max, see gcn-model.md). Both times `cu_count`: the
    /// CUs take turns.
    pub fn arrival_interval(&self, arch: &ArchSpec) -> Result<Option<f64>, SimError> {
        let p = |n: &str| arch.get_f64(n).map_err(|e| SimError::Model(e.to_string()));
        let cus = p("cu_count")?.max(1.0);
        let wave = f64::from(self.wave_size.max(1));
        Ok(match self.stage {
            Stage::Pixel => {
                let quads_per_tri = (self.pixels_per_triangle / 4.0).ceil();
                let quads_per_clock = quads_per_tri.min(p("raster_quads_per_clock")?).max(1.0);
                // A wave is wave_size / 4 quads.
                Some(cus * (wave / 4.0) / quads_per_clock)
            }
            Stage::Vertex => {
                let vertices = wave / p("vgt_vertices_per_clock")?.max(f64::MIN_POSITIVE);
                // One triangle's indices (3) per clock.
                let triangles = (wave / self.vertices_per_triangle) * 3.0
                    / p("vgt_indices_per_clock")?.max(f64::MIN_POSITIVE);
                Some(cus * vertices.max(triangles))
            }
            Stage::Compute => None,
        })
    }
}

/// Most waves (or workgroups) one run simulates: an assumption that keeps a
/// run short (the statistics settle long before).
pub const MAX_WAVES: u32 = 100_000;

/// The valid range of a `[dispatch]` key given as a number (in a hints file
/// or with `--set`), or `None` for keys that are not numbers (`stage`) or
/// that no range describes. `waves_per_simd` is further capped by the
/// model's wave slots.
pub fn dispatch_range(key: &str) -> Option<shadersim_arch::ParamRange> {
    use shadersim_arch::ParamRange;
    Some(match key {
        "waves" => ParamRange::whole(1, MAX_WAVES, "waves or workgroups to simulate"),
        "pixels_per_triangle" => ParamRange::real(0.01, 1.0e7, "average triangle size in pixels"),
        "vertices_per_triangle" => ParamRange::real(
            0.01,
            3.0,
            "new vertices per triangle after the post-transform cache; 3 = no reuse",
        ),
        "vertex_inputs" => ParamRange::whole(0, 32, "input elements of the fetch shader"),
        "workgroup_size" => ParamRange::whole(1, 1024, "threads per workgroup"),
        "waves_per_simd" => ParamRange::whole(1, 64, "a cap on waves per SIMD"),
        "wave_size" => ParamRange {
            power_of_two: true,
            ..ParamRange::whole(32, 64, "AMD waves are 32 or 64 lanes")
        },
        "cu_count" => shadersim_arch::ParamRange::of("cu_count").clone(),
        _ => return None,
    })
}

/// Check a dispatch value against [`dispatch_range`]: `Err` is the rule.
pub fn check_dispatch(key: &str, value: f64) -> Result<(), String> {
    match dispatch_range(key) {
        Some(r) if !r.contains(value) => Err(format!("`{key}` must be {r}")),
        _ => Ok(()),
    }
}
