//! The decisions a run took by default because the hints said nothing:
//! loops that ran once, conditional branches that went their default
//! way, and the texels and filter of image ops. A report lists them, so a
//! number that rests on a guess says so.

use shadersim_asm::Program;
use shadersim_cfg::{BranchKind, Cfg};
use std::collections::HashSet;

/// What the trace took by default, by source line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanDefaults {
    /// Header lines of loops whose body ran once per entry because no
    /// `[[loop]]` gave their iterations and none could be inferred (header
    /// executions: [`crate::default_iterations`]), in program order, without
    /// repeats.
    pub loops_once: Vec<u32>,
    /// Loops without a `[[loop]]` hint whose trip count was inferred from
    /// their code ([`crate::infer_trip_counts`]): header line, header
    /// executions, and how it was found (`` `s_cmp_lt_u32 s4, 16` (s4 from
    /// 0, +1 per iteration) ``), in program order.
    pub loops_inferred: Vec<(u32, u64, String)>,
    /// Lines of if/else and skip branches that went their default way
    /// (not taken) because no `[[branch]]` named them.
    pub branches_not_taken: Vec<u32>,
    /// Image ops whose texels or filter no hint gave, in program order (filled by the
    /// engine, which decides them when it compiles the ops).
    pub images: Vec<ImageDefault>,
}

/// What an image op took by default: where its lanes' texels are (a screen-space or 2D tile
/// per wave) and the filter of a sample.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageDefault {
    /// Source line of the op.
    pub line: u32,
    /// The op in words: `sample`, `sample with gradients`, `sample at an explicit LOD`,
    /// `gather4`, `load`, `store`, `atomic`.
    pub op: String,
    /// `screen-space` (pixel shaders: 2x2 quads in a tile) or `2d` (compute and other
    /// stages); `None` when nothing placed the lanes by default.
    pub layout: Option<String>,
    /// Whether waves walk the screen's tiles (`false`: a `wave_stride` or `iteration_stride`
    /// hint moves the first wave's tile instead).
    pub walked: bool,
    /// The tile one wave covers, `[width, height]` in pixels (threads).
    pub tile: Option<[u32; 2]>,
    /// How the tile's shape was found (`2x2 quads in an 8x8 tile`, `the declared 16x16x1
    /// workgroup`, ...).
    pub tile_basis: String,
    /// Texels one pixel covers along x at the sampled mip (1; N for anisotropic N).
    pub texels_per_pixel: u32,
    /// Cache lines one execution with every lane active reads (or writes): the mean over the
    /// first 64 waves' tiles, rounded (tiles fall on lines differently).
    pub requests: u32,
    /// The texel format (`rgba8` by default, or the hint's).
    pub format: String,
    /// The filter whose footprint the op reads.
    pub filter: String,
    /// Why that filter, when the run chose it (`None`: a `[[memory]] filter` gave it).
    pub filter_reason: Option<String>,
}

impl ImageDefault {
    /// Whether anything in it was a default.
    pub fn is_default(&self) -> bool {
        self.layout.is_some() || self.filter_reason.is_some()
    }

    /// The sentence without the line, so that ops taking the same defaults share one.
    fn what(&self) -> String {
        let mut parts = Vec::new();
        if let (Some(layout), Some([w, h])) = (&self.layout, self.tile) {
            parts.push(format!(
                "{layout} default: {w}x{h} {} per wave ({}), {} texel{} per {} at the sampled mip, about {} lines of {} per execution, {}",
                if layout == "screen-space" { "pixels" } else { "threads" },
                self.tile_basis,
                self.texels_per_pixel,
                if self.texels_per_pixel == 1 { "" } else { "s along x" },
                if layout == "screen-space" { "pixel" } else { "thread" },
                self.requests,
                self.format,
                if self.walked {
                    "neighbouring waves on neighbouring tiles (Z order)"
                } else {
                    "the first wave's tile moved by the hinted strides"
                },
            ));
        }
        if let Some(reason) = &self.filter_reason {
            parts.push(format!("filter {} ({reason})", self.filter));
        }
        format!("image {}: {}", self.op, parts.join("; "))
    }
}

impl PlanDefaults {
    /// The defaults of a plan: `hinted_loops` are the loops a `[[loop]]`
    /// named, `hinted_branches` the branch instructions a `[[branch]]`
    /// named (by instruction index). Loop branches (back edges, exits,
    /// guards) follow their loop's count and are not listed on their own.
    pub fn find(
        program: &Program,
        cfg: &Cfg,
        hinted_loops: &HashSet<usize>,
        hinted_branches: &HashSet<usize>,
        inferred: &[Option<crate::InferredTrip>],
    ) -> PlanDefaults {
        let line_of = |instr: usize| program.instructions[instr].pos.line;
        let is_inferred = |l: usize| inferred.get(l).is_some_and(Option::is_some);
        let mut loops_once: Vec<u32> = (0..cfg.loops.len())
            .filter(|&l| !hinted_loops.contains(&l) && !is_inferred(l))
            .map(|l| line_of(cfg.blocks[cfg.loops[l].header].start))
            .collect();
        loops_once.sort_unstable();
        loops_once.dedup();
        let mut loops_inferred: Vec<(u32, u64, String)> = inferred
            .iter()
            .flatten()
            .filter(|t| !hinted_loops.contains(&t.loop_id))
            .map(|t| {
                (
                    line_of(cfg.blocks[cfg.loops[t.loop_id].header].start),
                    t.iterations,
                    t.reason(),
                )
            })
            .collect();
        loops_inferred.sort();
        loops_inferred.dedup();
        let mut branches_not_taken: Vec<u32> = cfg
            .branches
            .iter()
            .filter(|b| matches!(b.kind, BranchKind::IfElse | BranchKind::Skip))
            .filter(|b| !hinted_branches.contains(&b.instr))
            .map(|b| line_of(b.instr))
            .collect();
        branches_not_taken.sort_unstable();
        branches_not_taken.dedup();
        PlanDefaults {
            loops_once,
            loops_inferred,
            branches_not_taken,
            images: Vec::new(),
        }
    }

    /// Whether nothing was taken by default or inferred.
    pub fn is_empty(&self) -> bool {
        self.loops_once.is_empty()
            && self.loops_inferred.is_empty()
            && self.branches_not_taken.is_empty()
            && !self.images.iter().any(ImageDefault::is_default)
    }

    /// One sentence per kind of default, for notes and reports:
    /// `3 loops ran their body once by default: lines 40, 77, 130; give
    /// iterations in a hints file`.
    pub fn sentences(&self) -> Vec<String> {
        let lines = |v: &[u32]| {
            let list: Vec<String> = v.iter().map(u32::to_string).collect();
            format!(
                "line{} {}",
                if v.len() == 1 { "" } else { "s" },
                list.join(", ")
            )
        };
        let mut out = Vec::new();
        // Inferred counts first: they are what the run used, and a user
        // who disagrees overrides them with a hint.
        for (line, n, reason) in &self.loops_inferred {
            out.push(format!(
                "loop at line {line}: {n} iteration{} inferred from {reason}",
                if *n == 1 { "" } else { "s" }
            ));
        }
        match self.loops_once.len() {
            0 => {}
            1 => out.push(format!(
                "1 loop ran its body once by default: {}; give iterations in a hints file",
                lines(&self.loops_once)
            )),
            n => out.push(format!(
                "{n} loops ran their body once by default: {}; give iterations in a hints file",
                lines(&self.loops_once)
            )),
        }
        match self.branches_not_taken.len() {
            0 => {}
            1 => out.push(format!(
                "1 branch took its default direction (not taken): {}; give taken or probability in a hints file",
                lines(&self.branches_not_taken)
            )),
            n => out.push(format!(
                "{n} branches took their default direction (not taken): {}; give taken or probability in a hints file",
                lines(&self.branches_not_taken)
            )),
        }
        // Image ops: one sentence per distinct default, naming its lines.
        let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
        for image in self.images.iter().filter(|i| i.is_default()) {
            let what = image.what();
            match groups.iter_mut().find(|(w, _)| *w == what) {
                Some((_, v)) => v.push(image.line),
                None => groups.push((what, vec![image.line])),
            }
        }
        for (what, mut v) in groups {
            v.sort_unstable();
            v.dedup();
            out.push(format!("{}: {what}", lines(&v)));
        }
        if self.images.iter().any(|i| i.layout.is_some()) {
            out.push(
                "image footprints assume a 4096x4096 texture with its texels (or 4x4 blocks) in Morton (Z) order, so a 64-byte line holds a 4x4 block of 32-bit texels as GCN/RDNA micro-tiles do; bilinear reads the 2x2 texels from each lane's, trilinear adds the next mip's quarter-size footprint, aniso N takes N probes along x; hints replace them: a [[memory]] wave_stride or iteration_stride the walk, filter the filter".to_string(),
            );
        }
        out
    }
}
