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
    /// Of the loops in `loops_once`, those whose exit test reads kernel arguments the launch
    /// did not give ([`shadersim_infer::exit_test_arguments`]): header line and the
    /// arguments' source names, so the report can say which `--arg NAME=VALUE` fixes the
    /// count.
    pub loop_arguments: Vec<(u32, Vec<String>)>,
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
    /// Global, flat and buffer ops: where each one's lane pattern, wave stride and iteration
    /// stride came from (the code, a hint, or the default), in program order (filled by the
    /// engine once the wave size is known). Ops whose three facts all came from hints are
    /// left out.
    pub addresses: Vec<AddressDefault>,
}

/// Where one fact of a vector memory op's address stream came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactSource {
    /// Derived from the address arithmetic of the program.
    Code,
    /// A `[[memory]]` hint.
    Hint,
    /// Nothing known: the default.
    Default,
}

impl FactSource {
    /// The JSON spelling: `code`, `hint`, `default`.
    pub fn name(self) -> &'static str {
        match self {
            FactSource::Code => "code",
            FactSource::Hint => "hint",
            FactSource::Default => "default",
        }
    }
}

/// The address stream one global, flat or buffer op ran with, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressDefault {
    /// Source line of the op.
    pub line: u32,
    /// The lane pattern used (`linear`, `stride:16`, `uniform`, ...).
    pub pattern: String,
    /// Where it came from.
    pub pattern_from: FactSource,
    /// Why (`linear: address = base + 4 x work-item id (x)`, or why the code gave none).
    pub pattern_reason: String,
    /// Bytes between consecutive waves (`None`: the default, the op's footprint).
    pub wave_stride: Option<u64>,
    /// Where it came from.
    pub wave_stride_from: FactSource,
    /// Why.
    pub wave_stride_reason: String,
    /// Bytes between executions by one wave (`None`: the default, footprint x waves, or the
    /// op is in no loop).
    pub iteration_stride: Option<u64>,
    /// Where it came from; `None` when the op is in no loop (it runs once per wave and no
    /// iteration stride applies) and no hint gave one.
    pub iteration_stride_from: Option<FactSource>,
    /// Why.
    pub iteration_stride_reason: String,
    /// Bytes past the base the addresses wrap in, where they came from and why (`None`: no
    /// region, from the code or a hint).
    pub region: Option<(u64, FactSource, String)>,
}

impl AddressDefault {
    /// The sentence without the line, so that ops with the same facts share one.
    fn what(&self) -> String {
        let mut parts = Vec::new();
        match self.pattern_from {
            FactSource::Code => parts.push(format!(
                "pattern {} from the code ({})",
                self.pattern, self.pattern_reason
            )),
            FactSource::Hint => parts.push(format!("pattern {} (hint)", self.pattern)),
            FactSource::Default => parts.push(format!(
                "default pattern {} ({})",
                self.pattern, self.pattern_reason
            )),
        }
        match (self.wave_stride_from, self.wave_stride) {
            (FactSource::Hint, Some(w)) => parts.push(format!("wave stride {w} B (hint)")),
            (FactSource::Code, _) => parts.push(self.wave_stride_reason.clone()),
            _ => parts.push(
                "default wave stride: the op's footprint (each wave its own data)".to_string(),
            ),
        }
        match (self.iteration_stride_from, self.iteration_stride) {
            (Some(FactSource::Hint), Some(i)) => {
                parts.push(format!("iteration stride {i} B (hint)"))
            }
            (Some(FactSource::Code), _) => parts.push(self.iteration_stride_reason.clone()),
            (Some(_), _) => {
                // Why the code's stride was not taken, when the pattern's reason does not
                // already say it (an unknown factor the launch could give, a downward stride).
                let why = &self.iteration_stride_reason;
                let why = if why.is_empty() || *why == self.pattern_reason {
                    String::new()
                } else {
                    format!("; {why}")
                };
                parts.push(format!("default iteration stride: footprint x waves (a grid-stride loop that never revisits an address{why})"))
            }
            (None, _) => {}
        }
        match &self.region {
            Some((r, FactSource::Hint, _)) => parts.push(format!("region {r} B (hint)")),
            Some((_, _, why)) => parts.push(why.clone()),
            None => {}
        }
        parts.join("; ")
    }

    /// Whether any of its facts is a default (not from the code or a hint).
    pub fn is_default(&self) -> bool {
        self.pattern_from == FactSource::Default
            || self.wave_stride_from == FactSource::Default
            || self.iteration_stride_from == Some(FactSource::Default)
    }
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
        let header_line = |l: usize| line_of(cfg.blocks[cfg.loops[l].header].start);
        let once: Vec<usize> = (0..cfg.loops.len())
            .filter(|&l| !hinted_loops.contains(&l) && !is_inferred(l))
            .collect();
        let mut loops_once: Vec<u32> = once.iter().map(|&l| header_line(l)).collect();
        loops_once.sort_unstable();
        loops_once.dedup();
        let mut loop_arguments: Vec<(u32, Vec<String>)> = once
            .iter()
            .filter_map(|&l| {
                let offsets = shadersim_infer::exit_test_arguments(program, cfg, l);
                let names = shadersim_infer::argument_names(program, &offsets);
                (!names.is_empty()).then(|| (header_line(l), names))
            })
            .collect();
        loop_arguments.sort();
        loop_arguments.dedup_by(|a, b| a.0 == b.0);
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
        let flag_exits: HashSet<usize> = (0..cfg.loops.len())
            .filter_map(|l| shadersim_infer::flag_exit(program, cfg, l))
            .map(|f| f.branch)
            .collect();
        let mut branches_not_taken: Vec<u32> = cfg
            .branches
            .iter()
            .filter(|b| matches!(b.kind, BranchKind::IfElse | BranchKind::Skip))
            .filter(|b| !hinted_branches.contains(&b.instr))
            // A loop's exit test through a flag follows the loop's count.
            .filter(|b| !flag_exits.contains(&b.instr))
            .map(|b| line_of(b.instr))
            .collect();
        branches_not_taken.sort_unstable();
        branches_not_taken.dedup();
        PlanDefaults {
            loops_once,
            loop_arguments,
            loops_inferred,
            branches_not_taken,
            images: Vec::new(),
            addresses: Vec::new(),
        }
    }

    /// Whether nothing was taken by default or inferred.
    pub fn is_empty(&self) -> bool {
        self.loops_once.is_empty()
            && self.loops_inferred.is_empty()
            && self.branches_not_taken.is_empty()
            && !self.images.iter().any(ImageDefault::is_default)
            && self.addresses.is_empty()
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
        let flags = |names: &[String]| arg_flags(names).join(", ");
        let arguments = match &self.loop_arguments[..] {
            [] => String::new(),
            [(_, names)] if self.loops_once.len() == 1 => format!(
                ", or the kernel argument{} its exit test reads: {}",
                if names.len() == 1 { "" } else { "s" },
                flags(names)
            ),
            several => {
                let per_loop: Vec<String> = several
                    .iter()
                    .map(|(line, names)| format!("{} (line {line})", flags(names)))
                    .collect();
                format!(
                    ", or the kernel arguments their exit tests read: {}",
                    per_loop.join(", ")
                )
            }
        };
        match self.loops_once.len() {
            0 => {}
            1 => out.push(format!(
                "1 loop ran its body once by default: {}; give iterations in a hints file{arguments}",
                lines(&self.loops_once)
            )),
            n => out.push(format!(
                "{n} loops ran their body once by default: {}; give iterations in a hints file{arguments}",
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
        // Global, flat and buffer ops: one sentence per distinct set of facts.
        let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
        for a in &self.addresses {
            let what = a.what();
            match groups.iter_mut().find(|(w, _)| *w == what) {
                Some((_, v)) => v.push(a.line),
                None => groups.push((what, vec![a.line])),
            }
        }
        for (what, mut v) in groups {
            v.sort_unstable();
            v.dedup();
            out.push(format!("{}: {what}", lines(&v)));
        }
        // Which facts rest on no code, each with its lines (an op whose pattern the code gave
        // may still take a default iteration stride).
        let defaulted = |f: &dyn Fn(&AddressDefault) -> bool| -> Vec<u32> {
            let mut v: Vec<u32> = self
                .addresses
                .iter()
                .filter(|a| f(a))
                .map(|a| a.line)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let facts: Vec<String> = [
            (
                "pattern",
                defaulted(&|a| a.pattern_from == FactSource::Default),
            ),
            (
                "wave_stride",
                defaulted(&|a| a.wave_stride_from == FactSource::Default),
            ),
            (
                "iteration_stride",
                defaulted(&|a| a.iteration_stride_from == Some(FactSource::Default)),
            ),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(key, v)| format!("`{key}` for {}", lines(&v)))
        .collect();
        if !facts.is_empty() {
            out.push(format!(
                "address defaults rest on no code: give {} in a [[memory]] hint where the program's address arithmetic was not followed",
                facts.join(", ")
            ));
        }
        if self.images.iter().any(|i| i.layout.is_some()) {
            out.push(
                "image footprints assume a 4096x4096 texture with its texels (or 4x4 blocks) in Morton (Z) order, so a 64-byte line holds a 4x4 block of 32-bit texels as GCN/RDNA micro-tiles do; bilinear reads the 2x2 texels from each lane's, trilinear adds the next mip's quarter-size footprint, aniso N takes N probes along x; hints replace them: a [[memory]] wave_stride or iteration_stride the walk, filter the filter".to_string(),
            );
        }
        out
    }
}

/// The `--arg` each named kernel argument would take (`` `--arg cols=N` ``), for the sentences
/// that say what the launch lacks.
pub(crate) fn arg_flags(names: &[String]) -> Vec<String> {
    names.iter().map(|n| format!("`--arg {n}=N`")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(line: u32, pattern: FactSource, iteration: Option<FactSource>) -> AddressDefault {
        AddressDefault {
            line,
            pattern: "linear".into(),
            pattern_from: pattern,
            pattern_reason: String::new(),
            wave_stride: None,
            wave_stride_from: pattern,
            wave_stride_reason: String::new(),
            iteration_stride: None,
            iteration_stride_from: iteration,
            iteration_stride_reason: String::new(),
            region: None,
        }
    }

    /// The closing address sentence names the facts that rest on no code, each with its lines:
    /// an op derived from the code but for its loop's stride asks for `iteration_stride` alone.
    #[test]
    fn the_address_sentence_names_each_default_fact_and_its_lines() {
        let d = PlanDefaults {
            addresses: vec![
                address(32, FactSource::Code, Some(FactSource::Default)),
                address(44, FactSource::Code, None),
                address(50, FactSource::Default, Some(FactSource::Code)),
            ],
            ..Default::default()
        };
        let last = d.sentences().pop().unwrap();
        assert_eq!(
            last,
            "address defaults rest on no code: give `pattern` for line 50, `wave_stride` for line 50, `iteration_stride` for line 32 in a [[memory]] hint where the program's address arithmetic was not followed"
        );
        let d = PlanDefaults {
            addresses: vec![address(44, FactSource::Code, None)],
            ..Default::default()
        };
        assert!(!d.sentences().iter().any(|s| s.contains("rest on no code")));
    }
}
