//! `shadersim hints FILE`: a complete, commented hints file for a program.

use shadersim_asm::{Program, Stage};
use shadersim_cfg::{BranchKind, Cfg};
use shadersim_isa::InstrClass;
use std::fmt::Write;

/// Defaults the template shows for dispatch.
const DEFAULT_PIXELS_PER_TRIANGLE: f64 = 16.0;
const DEFAULT_VERTICES_PER_TRIANGLE: f64 = 1.0;

/// What the model the program would run on makes of it, for the template's
/// comments: a commented default shows the figure the report uses (issue 47:
/// `waves_per_simd = 10` on a 16-slot model, `sgprs = 28` where the report
/// allocated 48).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ModelFigures {
    /// The model's wave slots per SIMD, the most `waves_per_simd` can cap to.
    pub wave_slots: Option<u32>,
    /// SGPRs per wave as the model's occupancy rule allocates them (the
    /// report's `occupancy` line and JSON `occupancy.sgprs`).
    pub sgprs_allocated: Option<u32>,
}

/// Write a hints template for `program` of `file_name`: every loop (with
/// its header line and label), every conditional branch, every memory
/// instruction with its default format/filter/pattern, and the dispatch
/// section. Values are the defaults, so the template changes nothing
/// until edited. `model` holds the figures of the model it would run on
/// (`ModelFigures::default()`: no model at hand).
pub fn hints_template(
    file_name: &str,
    program: &Program,
    cfg: &Cfg,
    model: ModelFigures,
) -> String {
    template(file_name, program, cfg, None, model)
}

/// [`hints_template`] keyed by source location (`source = "FILE:LINE"`)
/// instead of listing lines, so the file fits the program compiled for any
/// GPU (`shadersim hints --by-source`). `source_files` are the listing's
/// `.file` names. Entries no source line names alone (a source line that
/// became two loops, code without `.loc`) keep `line =` with a note; LDS ops
/// are left out (a `source =` memory hint maps to vector and scalar memory
/// ops). The error is [`crate::NO_SOURCE_LINES`] for a listing without
/// `.loc` lines.
pub fn hints_template_by_source(
    file_name: &str,
    program: &Program,
    cfg: &Cfg,
    source_files: &[(u32, String)],
    model: ModelFigures,
) -> Result<String, &'static str> {
    if program.instructions.iter().all(|i| i.source.is_none()) {
        return Err(crate::NO_SOURCE_LINES);
    }
    let keys = crate::source_hints::SourceKeys::new(program, cfg, source_files);
    Ok(template(file_name, program, cfg, Some(&keys), model))
}

/// A `[[loop]]`, `[[branch]]` or `[[memory]]` entry (`table`) keyed by its
/// `source` when there is one, else by its listing line, with `body` (its
/// value lines) after the key. In a by-source template an entry no source
/// line names alone is written commented out: its listing line fits only
/// this GPU's listing, and the file must fit every GPU's (its values are the
/// defaults, so leaving it out changes nothing).
fn write_entry(
    out: &mut String,
    table: &str,
    (source, by_source): (Option<String>, bool),
    (line, text): (u32, &str),
    body: &str,
) {
    let entry = match &source {
        Some(src) => format!(
            "[[{table}]]\nsource = {:<22} # {text}\n{body}",
            format!("\"{src}\"")
        ),
        None => format!("[[{table}]]\nline = {line:<24} # {text}\n{body}"),
    };
    if by_source && source.is_none() {
        let _ = writeln!(
            out,
            "# No source line names this alone (no .loc, or it maps to several). A listing line fits\n# only this GPU's listing, so the entry is left out; uncomment it to use it here alone:"
        );
        for l in entry.lines() {
            let _ = writeln!(out, "# {l}");
        }
    } else {
        out.push_str(&entry);
    }
}

/// The template, keyed by `keys` when given.
fn template(
    file_name: &str,
    program: &Program,
    cfg: &Cfg,
    source_keys: Option<&crate::source_hints::SourceKeys>,
    model: ModelFigures,
) -> String {
    let by_source = source_keys.is_some();
    let mut out = String::new();
    let target = program
        .target
        .as_ref()
        .map_or("unknown GPU".to_string(), |t| t.name.clone());
    let stage = program.stage.unwrap_or(Stage::Compute);
    let stage_src = if program.stage.is_some() {
        "from the file"
    } else {
        "default: the file does not say"
    };
    let _ = writeln!(
        out,
        "# Hints for {file_name}, program `{}` ({target}).",
        program.name
    );
    let _ = writeln!(
        out,
        "# Written by `shadersim hints`. Every value below is the default; edit what you know."
    );
    match by_source {
        true => {
            let _ = writeln!(
                out,
                "# Keyed by source location (`source = \"FILE:LINE\"`): fits the program compiled for any GPU."
            );
        }
        false => {
            let _ = writeln!(out, "# Lines are 1-based lines of {file_name}.");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "[dispatch]");
    let stage_line = format!("stage = \"{}\"", stage.name());
    let _ = writeln!(
        out,
        "{stage_line:<28} # {stage_src}; \"pixel\" | \"vertex\" | \"compute\""
    );
    match stage {
        Stage::Pixel => {
            let _ = writeln!(out, "pixels_per_triangle = {DEFAULT_PIXELS_PER_TRIANGLE:.1}   # average triangle size in pixels");
        }
        Stage::Vertex => {
            let _ = writeln!(out, "vertices_per_triangle = {DEFAULT_VERTICES_PER_TRIANGLE:.1} # post-transform cache efficiency, 0.5 .. 3");
            let _ = writeln!(out, "# vertex_inputs = 1          # elements a synthesized fetch shader loads first (seed 004); default:");
            let _ = writeln!(
                out,
                "#                            # 0 unless the shader calls a fetch subroutine at its entry"
            );
        }
        Stage::Compute => match program.declared.workgroup_size {
            Some([x, y, z]) => {
                let line = format!("workgroup_size = {}", x * y * z);
                let _ = writeln!(
                    out,
                    "{line:<28} # threads per workgroup; the file requires {x} x {y} x {z}"
                );
            }
            None => {
                let _ = writeln!(out, "workgroup_size = 64          # threads per workgroup");
            }
        },
    }
    resource_lines(&mut out, program, model);
    let _ = writeln!(
        out,
        "cu_count = 10                # CUs sharing the rasterizer / vertex grouper / export path"
    );
    let _ = writeln!(
        out,
        "waves = 500                  # waves (pixel, vertex) or workgroups (compute) to simulate"
    );
    // The cap's example is the model's own slot count (a 10 on a
    // 16-slot RDNA 3 model read as its limit).
    let _ = match model.wave_slots {
        Some(s) => {
            let line = format!("# waves_per_simd = {s}");
            writeln!(
                out,
                "{line:<29}# cap on occupancy, at most the model's {s} wave slots; default: what registers and LDS allow"
            )
        }
        None => writeln!(
            out,
            "# waves_per_simd = N         # cap on occupancy, at most the model's wave slots per SIMD; default: what registers and LDS allow"
        ),
    };
    let _ = writeln!(
        out,
        "# cus = 1                    # CUs simulated side by side, sharing rasterizer and export path"
    );
    if program.gen().has_wave32() {
        let _ = writeln!(
            out,
            "# wave_size = 32             # RDNA: 32 | 64; default: what the file says, else the model's"
        );
    }

    loop_entries(&mut out, program, cfg, source_keys);
    branch_entries(&mut out, program, cfg, source_keys);
    memory_entries(&mut out, program, cfg, source_keys);
    out
}

/// The template's commented resource lines (`vgprs`, `sgprs`, `lds_bytes`):
/// what the file declares, else what the code names; a hint overrides
/// either (for files that say nothing). The `sgprs` line gives what the
/// model's occupancy allocates for the count when a model is at hand.
fn resource_lines(out: &mut String, program: &Program, model: ModelFigures) {
    let usage = program.register_usage();
    let d = &program.declared;
    let resource = |key: &str, value: u32, declared: bool, what: &str| {
        let line = format!("# {key} = {value}");
        let from = if declared {
            "the file declares it"
        } else {
            "default: computed from the code"
        };
        format!("{line:<29}# {what}; {from}")
    };
    // What the report's occupancy counts for that value, when a model is at hand.
    let sgprs_used = model.sgprs_allocated.map_or(String::new(), |n| {
        format!("; the model's occupancy allocates {n} for it (the report's SGPRs figure)")
    });
    let _ = writeln!(
        out,
        "{}",
        resource("vgprs", usage.vgprs, d.vgprs.is_some(), "VGPRs per wave")
    );
    let _ = writeln!(
        out,
        "{}{sgprs_used}",
        resource(
            "sgprs",
            usage.sgprs,
            d.sgprs.is_some(),
            // The file's `.amdhsa_next_free_sgpr`: LLVM's NumSgprs and the
            // report's allocation are larger (issue 47: 28 beside LLVM's 32).
            "SGPRs per wave as .amdhsa_next_free_sgpr counts them (occupancy adds VCC, flat scratch and XNACK, as LLVM's NumSgprs does)"
        )
    );
    let _ = writeln!(
        out,
        "{}",
        resource(
            "lds_bytes",
            d.lds_bytes.unwrap_or(0),
            d.lds_bytes.is_some(),
            "LDS bytes per workgroup"
        )
    );
}

/// The template's `[[branch]]` entries: one per conditional branch line
/// (loop branches as comments: their loop's iterations decide them).
fn branch_entries(
    out: &mut String,
    program: &Program,
    cfg: &Cfg,
    source_keys: Option<&crate::source_hints::SourceKeys>,
) {
    let by_source = source_keys.is_some();
    let line_of = |b: usize| program.instructions[cfg.blocks[b].start].pos.line;
    let mut wrote_branch_header = false;
    let mut branch_lines = std::collections::HashSet::new();
    for br in &cfg.branches {
        let s = &program.instructions[br.instr];
        if !branch_lines.insert(s.pos.line) {
            continue;
        }
        if !wrote_branch_header {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "# Conditional branches. `taken = true` jumps to the target; the default is"
            );
            let _ = writeln!(
                out,
                "# not taken (fall through). Loop branches follow their loop's iterations."
            );
            let _ = writeln!(
                out,
                "# Or `probability = 0.25` (each wave draws, whole-wave coherent; [trace] seed"
            );
            let _ = writeln!(
                out,
                "# repeats the draws), or `waves = \"1..63\"` (only those waves take it)."
            );
            let _ = writeln!(
                out,
                "# On an `s_cbranch_execz`: `lane_probability = 0.5` (each lane draws; a wave"
            );
            let _ = writeln!(
                out,
                "# whose lanes disagree runs both sides with EXEC masked)."
            );
            wrote_branch_header = true;
        }
        match br.kind {
            BranchKind::IfElse | BranchKind::Skip => {
                let _ = writeln!(out);
                let _ = writeln!(
                    out,
                    "# {}: taken goes to line {}, not taken to line {}",
                    br.kind.name(),
                    line_of(br.taken),
                    line_of(br.not_taken)
                );
                let key = source_keys.and_then(|k| k.branch(br.instr));
                write_entry(
                    out,
                    "branch",
                    (key, by_source),
                    (s.pos.line, &s.text),
                    "taken = false\n",
                );
            }
            kind => {
                let l = kind
                    .loop_id()
                    .map(|id| line_of(cfg.loops[id].header))
                    .unwrap_or(0);
                let _ = writeln!(
                    out,
                    "# line {}: {} ({} of the loop at line {l})",
                    s.pos.line,
                    s.text,
                    kind.name()
                );
            }
        }
    }
}

/// The template's `[[memory]]` entries: one per memory instruction line
/// (by source: one per source line, LDS ops left out), with its defaults.
fn memory_entries(
    out: &mut String,
    program: &Program,
    cfg: &Cfg,
    source_keys: Option<&crate::source_hints::SourceKeys>,
) {
    let by_source = source_keys.is_some();
    let mut wrote_mem_header = false;
    let mut memory_lines = std::collections::HashSet::new();
    let mut memory_sources = std::collections::HashSet::new();
    let roots = shadersim_infer::root_words(program, cfg);
    for (index, s) in program.instructions.iter().enumerate() {
        let class = s.inst.class();
        if memory_lines.contains(&s.pos.line) {
            continue;
        }
        let keys: &[(&str, &str)] = match class {
            InstrClass::VmemImageSample => &[("format", "\"rgba8\""), ("filter", "\"trilinear\"")],
            InstrClass::VmemImageGather4 => &[("format", "\"rgba8\"")],
            InstrClass::VmemImageLoad
            | InstrClass::VmemImageStore
            | InstrClass::VmemImageAtomic => &[("format", "\"rgba8\"")],
            InstrClass::VmemBufferLoad
            | InstrClass::VmemBufferStore
            | InstrClass::VmemBufferAtomic
            | InstrClass::VmemGlobalLoad
            | InstrClass::VmemGlobalStore
            | InstrClass::VmemGlobalAtomic
            | InstrClass::VmemFlatLoad
            | InstrClass::VmemFlatStore
            | InstrClass::VmemFlatAtomic
            | InstrClass::VmemScratchLoad
            | InstrClass::VmemScratchStore => &[("pattern", "\"linear\"")],
            InstrClass::Lds => &[("pattern", "\"linear\"")],
            _ => continue,
        };
        let vector = class.is_vmem();
        if !wrote_mem_header {
            let _ = writeln!(out);
            let _ = writeln!(
                out,
                "# Memory instructions: texel format and filter of image ops, lane address"
            );
            let _ = writeln!(
                out,
                "# pattern of buffer/global/flat/scratch ops (uniform, linear, stride:BYTES,"
            );
            let _ = writeln!(
                out,
                "# quad-uniform, quad-permuted, tile2d:WxH, random:SEED:RANGE, list:...)."
            );
            let _ = writeln!(
                out,
                "# The address stream the caches see: wave_stride (bytes between waves; default"
            );
            let _ = writeln!(
                out,
                "# the wave's footprint), iteration_stride (bytes per loop iteration; default all"
            );
            let _ = writeln!(
                out,
                "# waves' footprint), region (addresses wrap in this many bytes); hit_rate (0..1)"
            );
            let _ = writeln!(
                out,
                "# or level (\"l2\", ...) override the cache simulation. buffer (a name: ops with"
            );
            let _ = writeln!(
                out,
                "# one name share an address range) or base (its first byte address) place the"
            );
            let _ = writeln!(
                out,
                "# op's buffer; by default each buffer the program shows has its own range. LDS"
            );
            let _ = writeln!(out, "# ops: pattern only.");
            wrote_mem_header = true;
        }
        memory_lines.insert(s.pos.line);
        let key = match (source_keys, class == InstrClass::Lds) {
            (Some(_), true) => continue,
            (Some(k), false) => k.memory(index),
            (None, _) => None,
        };
        // One entry per source line: it applies to all of that line's ops.
        if let Some(k) = &key {
            if !memory_sources.insert(k.clone()) {
                continue;
            }
        }
        let _ = writeln!(out);
        let mut body = String::new();
        for (k, v) in keys {
            let _ = writeln!(body, "{k} = {v}");
        }
        if vector {
            let _ = writeln!(body, "# wave_stride = 256");
            let _ = writeln!(body, "# iteration_stride = 65536");
            let _ = writeln!(body, "# region = 4096");
            let _ = writeln!(body, "# hit_rate = 0.7");
            let found = match roots.get(&index) {
                Some(Some(words)) => format!("found: {words}"),
                _ => "no root found: the default buffer 0".to_string(),
            };
            let _ = writeln!(
                body,
                "# buffer = \"b{}\"              # {found}",
                s.pos.line
            );
            let _ = writeln!(body, "# base = 0x10000000000");
        }
        write_entry(
            out,
            "memory",
            (key, by_source),
            (s.pos.line, &s.text),
            &body,
        );
    }
}

/// The template's `[[loop]]` entries: one per loop, with its header line,
/// label, depth and size, and its inferred or default iterations.
fn loop_entries(
    out: &mut String,
    program: &Program,
    cfg: &Cfg,
    source_keys: Option<&crate::source_hints::SourceKeys>,
) {
    let by_source = source_keys.is_some();
    let line_of = |b: usize| program.instructions[cfg.blocks[b].start].pos.line;
    if !cfg.loops.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "# Loops: `iterations` is how many times the loop's header block runs each time"
        );
        let _ = writeln!(
            out,
            "# the loop is entered (nested loops multiply). 0 skips a loop that has a guard."
        );
        let _ = writeln!(
            out,
            "# Per wave: a list [12, 9, 30] (one count per wave, launch order), a range \"4..16\""
        );
        let _ = writeln!(
            out,
            "# (drawn uniformly per wave and entry) or {{ mean = 8.0, max = 32 }} (geometric)."
        );
    }
    // A line with several copies (repeats, a device function followed from
    // several calls) gets one entry: its hint applies to every copy.
    let mut loop_lines = std::collections::HashSet::new();
    // A loop whose count its code fixes runs that count without a hint;
    // the template writes it, so the file states what the run does.
    let inferred = crate::infer_trip_counts(program, cfg);
    for l in &cfg.loops {
        let header = &cfg.blocks[l.header];
        let first = &program.instructions[header.start];
        if !loop_lines.insert(first.pos.line) {
            continue;
        }
        let size: usize = l.blocks.iter().map(|&b| cfg.blocks[b].len()).sum();
        let parent = match l.parent {
            Some(p) => format!(", inside the loop at line {}", line_of(cfg.loops[p].header)),
            None => String::new(),
        };
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "# Loop at line {} {}(depth {}, {} instructions in {} blocks{parent})",
            first.pos.line,
            header
                .label
                .as_ref()
                .map_or(String::new(), |l| format!("{l} ")),
            l.depth,
            size,
            l.blocks.len()
        );
        // A loop whose header ends in its exit test (a top-tested loop)
        // runs its body one time fewer than its header.
        let top_tested = cfg
            .branch_of_block(l.header)
            .is_some_and(|b| b.kind == BranchKind::LoopExit { loop_id: l.id });
        if top_tested {
            let _ = writeln!(
                out,
                "# Its exit test is at the top: the rest of the body runs iterations - 1 times."
            );
        }
        let key = source_keys.and_then(|k| k.loop_key(l.id));
        let body = match &inferred[l.id] {
            Some(t) => format!(
                "# Inferred from {}; the run uses it without this hint.\niterations = {}\n",
                t.reason(),
                t.iterations
            ),
            // The default the run uses: the body once.
            None => format!(
                "iterations = {}\n",
                crate::default_iterations(program, cfg, l)
            ),
        };
        write_entry(
            out,
            "loop",
            (key, by_source),
            (first.pos.line, &first.text),
            &body,
        );
    }
}
