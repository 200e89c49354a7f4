//! Resolving the `[[memory]]` hints into [`MemoryFacts`] per memory
//! instruction (formats, filters, lane patterns, streams, cache levels and
//! buffers), checked against what each instruction is.

use super::plan::{hint_line, no_instruction_at, DEFAULT_SEED};
use crate::hints::{Hints, HintsError};
use shadersim_asm::Program;
use std::collections::HashMap;
use std::ops::Range;

/// A `list:` pattern gives one address per lane of the program's waves: 32
/// entries only for a program known to run wave32 (the hints' `wave_size`,
/// else the file's), since the wave64 lanes 32..63 would otherwise repeat
/// the first half unnoticed.
fn check_list_length(
    program: &Program,
    hints: &Hints,
    entries: usize,
    span: Range<usize>,
) -> Result<(), HintsError> {
    let wave = match &hints.dispatch.wave_size {
        Some(w) => Some((*w.get_ref(), "set by `[dispatch] wave_size`".to_string())),
        None => program.wave_size(),
    };
    match (entries, wave) {
        (32, Some((32, _))) | (64, _) => Ok(()),
        (32, Some((w, why))) => Err(HintsError::at(
            span,
            format!("the list has 32 addresses, but the program runs wave{w} ({why}): give {w}"),
        )),
        (n, _) => Err(HintsError::at(
            span,
            format!(
                "the list has {n} addresses, one per lane of a wave32; the program's wave size is \
                 not known from the file: give 64 addresses, or set `[dispatch] wave_size = 32`"
            ),
        )),
    }
}

/// Largest `[[memory]] latency`: the engine reads `u32::MAX` as "no
/// override" (the unit's latency), so that one value would silently mean
/// no hint.
pub const MAX_LATENCY_HINT: u32 = u32::MAX - 1;

/// What the hints say about one memory instruction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryFacts {
    /// Texel format of an image op.
    pub format: Option<shadersim_mem::TexelFormat>,
    /// Filter of a sample.
    pub filter: Option<shadersim_mem::TextureFilter>,
    /// Lane address pattern of a buffer/global/flat/scratch op.
    pub pattern: Option<shadersim_mem::LanePattern>,
    /// Latency after service, overriding the unit's.
    pub latency: Option<u32>,
    /// BVH intersections: fraction of nodes that are box nodes.
    pub box_fraction: Option<f64>,
    /// BVH intersections: mean fraction of the wave's lanes active.
    pub active_lanes: Option<f64>,
    /// Bytes between consecutive waves' addresses.
    pub wave_stride: Option<u64>,
    /// Bytes between workgroups one apart in x, y and z, when the code fixes them (all 0: every
    /// workgroup reads the same addresses); `None`: a workgroup's waves continue the wave
    /// stride of the waves before (derived from the code, never a hint key).
    pub group_stride: Option<[i64; 3]>,
    /// Bytes the op's address lies past its buffer's base, when the code fixes them (rows a
    /// launch argument apart); derived from the code, never a hint key.
    pub offset: Option<i64>,
    /// Bytes per execution by the same wave.
    pub iteration_stride: Option<u64>,
    /// The loop around the op's own: (executions per pass through the op's loop, bytes one
    /// iteration of the loop around moves the address); derived from the code, never a hint
    /// key.
    pub outer: Option<(u64, u64)>,
    /// Addresses wrap inside this many bytes.
    pub region: Option<u64>,
    /// `order = "random"`: executions visit the region's elements in the
    /// order of a pseudo-random permutation with this seed (`[trace] seed`).
    pub random_order_seed: Option<u64>,
    /// First-level hit rate overriding the cache simulation.
    pub hit_rate: Option<f64>,
    /// The cache level serving every request, and the hint's byte range (the
    /// level names are the model's, checked when the run is prepared).
    pub level: Option<(String, std::ops::Range<usize>)>,
    /// `base`: the first byte address of the op's buffer, and the hint's byte range.
    pub base: Option<(u64, std::ops::Range<usize>)>,
    /// `buffer`: the op's buffer by name, and the hint's byte range.
    pub buffer: Option<(String, std::ops::Range<usize>)>,
}

/// Resolve the `[[memory]]` hints: each line must be a vector memory, LDS
/// or scalar memory instruction; `format` applies to image ops, `filter` to
/// samples and gathers, `pattern` to buffer/global/flat/scratch and LDS ops,
/// the stream and cache keys (`wave_stride`, `iteration_stride`, `region`,
/// `hit_rate`, `level`) and the buffer keys (`base`, `buffer`) to vector and scalar
/// memory ops.
pub fn memory_facts(
    program: &Program,
    hints: &Hints,
) -> Result<HashMap<usize, MemoryFacts>, HintsError> {
    use shadersim_isa::InstrClass;
    let mut out: HashMap<usize, MemoryFacts> = HashMap::new();
    for h in &hints.memory {
        let line_hint = hint_line(&h.line, &h.source, "[[memory]]", memory_spans(h))?;
        let line = *line_hint.get_ref();
        let copies = program.indices_at_line(line);
        let Some(&idx) = copies.first() else {
            return Err(HintsError::at(
                line_hint.span(),
                no_instruction_at(program, line),
            ));
        };
        let s = &program.instructions[idx];
        let class = s.inst.class();
        let lds = matches!(
            class,
            InstrClass::Lds | InstrClass::LdsBvhStack | InstrClass::LdsParam
        );
        let smem = class == InstrClass::Smem;
        if !(class.is_vmem() || lds || smem) || class == InstrClass::VmemCache {
            return Err(HintsError::at(
                line_hint.span(),
                format!(
                    "line {line} (`{}`) is not a vector memory, LDS or scalar memory instruction",
                    s.text
                ),
            ));
        }
        if lds || smem {
            refuse_keys(h, s, class, lds, line)?;
        }
        if out.contains_key(&idx) {
            return Err(HintsError::at(
                line_hint.span(),
                format!("line {line} already has [[memory]] hints"),
            ));
        }
        let mut facts = MemoryFacts::default();
        op_facts(h, program, hints, s, line, &mut facts)?;
        stream_facts(h, hints, &mut facts)?;
        for idx in copies {
            out.insert(idx, facts.clone());
        }
    }
    Ok(out)
}

/// An LDS or scalar memory op refuses the keys of vector memory (and LDS the stream and
/// buffer keys, scalar memory the lane pattern).
fn refuse_keys(
    h: &crate::MemoryHint,
    s: &shadersim_asm::SourceInstr,
    class: shadersim_isa::InstrClass,
    lds: bool,
    line: u32,
) -> Result<(), HintsError> {
    let what = if lds { "an LDS" } else { "a scalar memory" };
    let vector_only: [(&str, Option<Range<usize>>); 4] = [
        ("format", h.format.as_ref().map(|v| v.span())),
        ("filter", h.filter.as_ref().map(|v| v.span())),
        ("box_fraction", h.box_fraction.as_ref().map(|v| v.span())),
        ("active_lanes", h.active_lanes.as_ref().map(|v| v.span())),
    ];
    let lds_refuses: [(&str, Option<Range<usize>>); 8] = [
        ("base", h.base.as_ref().map(|v| v.span())),
        ("buffer", h.buffer.as_ref().map(|v| v.span())),
        ("wave_stride", h.wave_stride.as_ref().map(|v| v.span())),
        (
            "iteration_stride",
            h.iteration_stride.as_ref().map(|v| v.span()),
        ),
        ("region", h.region.as_ref().map(|v| v.span())),
        ("order", h.order.as_ref().map(|v| v.span())),
        ("hit_rate", h.hit_rate.as_ref().map(|v| v.span())),
        ("level", h.level.as_ref().map(|v| v.span())),
    ];
    let smem_refuses = [("pattern", h.pattern.as_ref().map(|v| v.span()))];
    let refused = vector_only.iter().chain(if lds {
        &lds_refuses[..]
    } else {
        &smem_refuses[..]
    });
    for (key, span) in refused {
        if let Some(span) = span {
            return Err(HintsError::at(
                span.clone(),
                format!("`{key}` does not apply to {what} instruction; line {line} (`{}`) is a {class} op", s.text),
            ));
        }
    }
    Ok(())
}

/// The keys about the op itself: image format and filter, lane pattern, latency, and the
/// BVH keys, each checked against what the op is.
fn op_facts(
    h: &crate::MemoryHint,
    program: &Program,
    hints: &Hints,
    s: &shadersim_asm::SourceInstr,
    line: u32,
    facts: &mut MemoryFacts,
) -> Result<(), HintsError> {
    use shadersim_isa::InstrClass;
    let class = s.inst.class();
    if let Some(f) = &h.format {
        if !class.is_image() {
            return Err(HintsError::at(
                f.span(),
                format!("`format` applies to image ops; line {line} (`{}`) is a {class} op (give it a `pattern`)", s.text),
            ));
        }
        facts.format = Some(
            f.get_ref()
                .parse()
                .map_err(|e: shadersim_mem::UnknownName| HintsError::at(f.span(), e.to_string()))?,
        );
    }
    if let Some(f) = &h.filter {
        if !matches!(
            class,
            InstrClass::VmemImageSample | InstrClass::VmemImageGather4
        ) {
            return Err(HintsError::at(
                f.span(),
                format!(
                    "`filter` applies to image samples; line {line} (`{}`) is a {class} op",
                    s.text
                ),
            ));
        }
        facts.filter = Some(
            f.get_ref()
                .parse()
                .map_err(|e: shadersim_mem::UnknownName| HintsError::at(f.span(), e.to_string()))?,
        );
    }
    if let Some(p) = &h.pattern {
        if class.is_image() {
            return Err(HintsError::at(
                p.span(),
                format!("`pattern` applies to buffer, global, flat, scratch and LDS ops; line {line} (`{}`) is an image op", s.text),
            ));
        }
        let pattern: shadersim_mem::LanePattern = p
            .get_ref()
            .parse()
            .map_err(|e: shadersim_mem::PatternError| HintsError::at(p.span(), e.to_string()))?;
        if let shadersim_mem::LanePattern::List(offsets) = &pattern {
            check_list_length(program, hints, offsets.len(), p.span())?;
        }
        facts.pattern = Some(pattern);
    }
    if let Some(l) = &h.latency {
        if *l.get_ref() > MAX_LATENCY_HINT {
            return Err(HintsError::at(
                l.span(),
                format!("latency must be at most {MAX_LATENCY_HINT} clocks"),
            ));
        }
        facts.latency = Some(*l.get_ref());
    }
    if let Some(b) = &h.box_fraction {
        if class != InstrClass::VmemImageBvh {
            return Err(HintsError::at(
                b.span(),
                format!("`box_fraction` applies to BVH intersections; line {line} (`{}`) is a {class} op", s.text),
            ));
        }
        let v = *b.get_ref();
        if !(0.0..=1.0).contains(&v) {
            return Err(HintsError::at(
                b.span(),
                "box_fraction must be between 0 and 1",
            ));
        }
        facts.box_fraction = Some(v);
    }
    if let Some(a) = &h.active_lanes {
        if class != InstrClass::VmemImageBvh {
            return Err(HintsError::at(
                a.span(),
                format!("`active_lanes` applies to BVH intersections; line {line} (`{}`) is a {class} op", s.text),
            ));
        }
        let v = *a.get_ref();
        if !(v > 0.0 && v <= 1.0) {
            return Err(HintsError::at(
                a.span(),
                "active_lanes must be above 0 and at most 1",
            ));
        }
        facts.active_lanes = Some(v);
    }
    Ok(())
}

/// The stream, cache and buffer keys.
fn stream_facts(
    h: &crate::MemoryHint,
    hints: &Hints,
    facts: &mut MemoryFacts,
) -> Result<(), HintsError> {
    facts.wave_stride = h.wave_stride.as_ref().map(|v| *v.get_ref());
    facts.iteration_stride = h.iteration_stride.as_ref().map(|v| *v.get_ref());
    if let Some(r) = &h.region {
        if *r.get_ref() == 0 {
            return Err(HintsError::at(r.span(), "region must be at least 1 byte"));
        }
        facts.region = Some(*r.get_ref());
    }
    if let Some(o) = &h.order {
        match o.get_ref().as_str() {
            "stride" => {}
            "random" => {
                // The permutation's elements are `iteration_stride` bytes
                // inside `region`: both must be given.
                let (Some(region), Some(stride)) = (facts.region, facts.iteration_stride) else {
                    return Err(HintsError::at(
                        o.span(),
                        "order = \"random\" needs `region` (the bytes visited) and `iteration_stride` (the element size)",
                    ));
                };
                if stride == 0 || stride > region {
                    return Err(HintsError::at(
                        o.span(),
                        "order = \"random\" needs an `iteration_stride` of at least 1 byte and at most `region`",
                    ));
                }
                facts.random_order_seed = Some(
                    hints
                        .trace
                        .seed
                        .as_ref()
                        .map_or(DEFAULT_SEED, |s| *s.get_ref()),
                );
            }
            other => {
                return Err(HintsError::at(
                    o.span(),
                    format!("unknown order `{other}`; known: stride, random"),
                ))
            }
        }
    }
    if let Some(r) = &h.hit_rate {
        let v = *r.get_ref();
        if !(0.0..=1.0).contains(&v) {
            return Err(HintsError::at(r.span(), "hit_rate must be between 0 and 1"));
        }
        if h.level.is_some() {
            return Err(HintsError::at(
                r.span(),
                "give `hit_rate` or `level`, not both",
            ));
        }
        facts.hit_rate = Some(v);
    }
    if let Some(l) = &h.level {
        facts.level = Some((l.get_ref().clone(), l.span()));
    }
    facts.base = h.base.as_ref().map(|b| (*b.get_ref(), b.span()));
    if let Some(b) = &h.buffer {
        if b.get_ref().trim().is_empty() {
            return Err(HintsError::at(b.span(), "a buffer name must not be empty"));
        }
        facts.buffer = Some((b.get_ref().clone(), b.span()));
    }
    Ok(())
}

/// The spans of a memory hint's keys, for an error about the hint as a whole.
fn memory_spans(h: &crate::MemoryHint) -> Vec<Option<Range<usize>>> {
    vec![
        h.format.as_ref().map(|v| v.span()),
        h.filter.as_ref().map(|v| v.span()),
        h.pattern.as_ref().map(|v| v.span()),
        h.latency.as_ref().map(|v| v.span()),
        h.active_lanes.as_ref().map(|v| v.span()),
        h.box_fraction.as_ref().map(|v| v.span()),
        h.wave_stride.as_ref().map(|v| v.span()),
        h.iteration_stride.as_ref().map(|v| v.span()),
        h.region.as_ref().map(|v| v.span()),
        h.order.as_ref().map(|v| v.span()),
        h.hit_rate.as_ref().map(|v| v.span()),
        h.level.as_ref().map(|v| v.span()),
        h.base.as_ref().map(|v| v.span()),
        h.buffer.as_ref().map(|v| v.span()),
    ]
}
