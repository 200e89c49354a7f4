//! From an op's address form ([`shadersim_infer::address_forms`]) to the facts a `[[memory]]` hint
//! would give: the lane pattern, the wave stride, the workgroup stride, the constant offset and
//! the iteration stride, each with the reason it was (or was not) derived; and their merge
//! with the hints (hints win per key).

use shadersim_asm::Program;
use shadersim_cfg::Cfg;
use shadersim_infer::{address_forms, AddressForm, AffineAddress};
use std::collections::HashMap;

/// The facts derived for one op, each with its reason (`None`: not derived, the default
/// stays, and the reason says why).
#[derive(Debug, Clone, PartialEq)]
pub struct DerivedAddress {
    /// Instruction index.
    pub instr: usize,
    /// Source line.
    pub line: u32,
    /// What the code says.
    pub form: AddressForm,
    /// The lane pattern, or why none was derived.
    pub pattern: Result<shadersim_mem::LanePattern, String>,
    /// Why that pattern (`linear: address = base + 4 x id.x`).
    pub pattern_reason: String,
    /// Bytes between consecutive waves.
    pub wave_stride: Result<u64, String>,
    /// Bytes between workgroups one apart in x, y and z, when the code fixes them (all 0:
    /// every workgroup reads the same addresses); `None`: the waves of the next workgroup
    /// continue the wave stride.
    pub group_stride: Option<[i64; 3]>,
    /// Bytes the address lies past its buffer's base beyond lanes, workgroups and loops
    /// (`AffineAddress::offset`), when the code fixes them.
    pub offset: Option<i64>,
    /// Why that wave stride.
    pub wave_stride_reason: String,
    /// Bytes between executions by one wave (`None`: the op is in no loop, it runs once per
    /// wave and has no iteration stride).
    pub iteration_stride: Option<Result<u64, String>>,
    /// Why that iteration stride.
    pub iteration_stride_reason: String,
    /// The loop around the op's innermost loop and the bytes one of its iterations moves the
    /// address, when that is the only other loop that moves it, by a positive number.
    pub parent_stride: Option<(usize, u64)>,
    /// Bytes past the base the addresses stay in (a mask keeps the index below a power of
    /// two), and why.
    pub region: Option<(u64, String)>,
}

/// Derive every global, flat and buffer op's lane pattern, wave stride and iteration stride
/// from its address arithmetic, for waves of `wave_size` lanes in workgroups of `block`
/// work-items (x, y, z; the waves cover local ids in x-fastest order).
pub fn derive_address_patterns(
    program: &Program,
    cfg: &Cfg,
    wave_size: u32,
    block: [u32; 3],
) -> Vec<DerivedAddress> {
    let forms = address_forms(program, cfg);
    let mut out = Vec::new();
    for (i, form) in forms {
        let s = &program.instructions[i];
        let element = shadersim_mem::MemAccess::from_info(&s.inst.info)
            .map(|a| i64::from(a.bytes_per_lane()))
            .unwrap_or(4);
        let in_loop = cfg
            .block_of
            .get(i)
            .and_then(|&b| cfg.innermost_loop.get(b).copied().flatten())
            .is_some();
        let at = (i, s.pos.line, in_loop);
        out.push(derive_form(&form, at, element, wave_size, block));
    }
    out
}

/// The facts of one op (`at`: instruction, line, whether it is in a loop) from its form.
fn derive_form(
    form: &AddressForm,
    (i, line, in_loop): (usize, u32, bool),
    element: i64,
    wave_size: u32,
    block: [u32; 3],
) -> DerivedAddress {
    let not_derived = |why: String| {
        let not = Err::<u64, String>(why.clone());
        DerivedAddress {
            instr: i,
            line,
            form: form.clone(),
            pattern: Err(why.clone()),
            pattern_reason: why.clone(),
            wave_stride: not.clone(),
            wave_stride_reason: why.clone(),
            group_stride: None,
            offset: None,
            iteration_stride: in_loop.then_some(not),
            iteration_stride_reason: why,
            parent_stride: None,
            region: None,
        }
    };
    match form {
        AddressForm::DataDependent { line, mnemonic } => not_derived(format!(
            "data-dependent: the address comes from the `{mnemonic}` at line {line}"
        )),
        AddressForm::Unknown(w) => not_derived(format!("not derived: {w}")),
        AddressForm::Affine(a) => derive(i, line, form, a, element, wave_size, block),
        AddressForm::Masked {
            inner,
            region,
            line: mask_line,
            mnemonic,
        } => {
            // Inside the region, what the code says of the masked index; the form is the whole.
            let mut d = derive_form(inner, (i, line, in_loop), element, wave_size, block);
            d.form = form.clone();
            d.region = Some((
                *region,
                format!("wraps in {region} B: `{mnemonic}` at line {mask_line} masks the index"),
            ));
            d
        }
    }
}

fn derive(
    instr: usize,
    line: u32,
    form: &AddressForm,
    a: &AffineAddress,
    element: i64,
    wave_size: u32,
    block: [u32; 3],
) -> DerivedAddress {
    use shadersim_mem::LanePattern;
    let words = &a.words;
    // A dimension one work-item deep holds id 0 in every lane: its factor moves nothing.
    let multi = (1..3).any(|d| a.lane_used[d] && block[d] > 1);
    let in_block = multi.then(|| lanes_in_block(a, element, wave_size, block));
    let (pattern, pattern_reason) = if let Some(b) = &in_block {
        (b.pattern.clone(), b.pattern_reason.clone())
    } else {
        match a.lane[0] {
            Some(0) => (
                Ok(LanePattern::Uniform),
                format!("uniform: address = {words}, the same for every lane"),
            ),
            Some(x) if x == element => (
                Ok(LanePattern::Linear),
                format!("linear: address = {words}"),
            ),
            Some(x) if x > 0 => (
                Ok(LanePattern::Stride { bytes: x as u64 }),
                format!("stride {x} B: address = {words}"),
            ),
            Some(x) => {
                let why = format!("lane stride {x} B (downwards): address = {words}; not derived");
                (Err(why.clone()), why)
            }
            None => {
                let why = format!(
                    "the lane stride is an unknown uniform value: address = {words}; not derived{}",
                    give_arguments(a)
                );
                (Err(why.clone()), why)
            }
        }
    };
    let (wave_stride, wave_stride_reason) = match (in_block, a.lane[0]) {
        (Some(b), _) => (b.wave_stride, b.wave_stride_reason),
        (_, Some(x)) if x > 0 => {
            let ws = (x as u64).saturating_mul(u64::from(wave_size));
            let across = groups_apart(a);
            (
                Ok(ws),
                format!(
                    "wave stride {ws} B: {x} B per work-item x {wave_size} lanes (waves of a workgroup cover consecutive local ids{across})"
                ),
            )
        }
        (_, Some(0)) if !a.uniform_scaled => (
            Ok(0),
            "wave stride 0 B: every wave reads the same addresses".to_string(),
        ),
        _ => {
            let why =
                "the address does not move with the work-item id; the wave stride is not derived"
                    .to_string();
            (Err(why.clone()), why)
        }
    };
    let (iteration_stride, iteration_stride_reason) = match a.iteration {
        None => (None, String::new()),
        Some(Some(0)) => (
            Some(Ok(0)),
            "iteration stride 0 B: the loop does not move the address (every iteration reuses it)"
                .to_string(),
        ),
        Some(Some(c)) if c > 0 => (
            Some(Ok(c as u64)),
            format!("iteration stride {c} B: the loop adds {c} to the address each iteration"),
        ),
        Some(Some(c)) => {
            let why = format!("iteration stride {c} B (downwards): not derived");
            (Some(Err(why.clone())), why)
        }
        Some(None) => {
            // With the values named (an argument, the launch's grid), the suggestion says
            // which; without, the likeliest kind.
            let give = give_arguments(a);
            let why = if give.is_empty() {
                "the loop moves the address by an unknown uniform value (a kernel argument): not derived".to_string()
            } else {
                format!("the loop moves the address by an unknown uniform value: not derived{give}")
            };
            (Some(Err(why.clone())), why)
        }
    };
    let iteration_stride_reason = if a.outer_loops.is_empty() || iteration_stride.is_none() {
        iteration_stride_reason
    } else {
        let list: Vec<String> = a.outer_loops.iter().map(u32::to_string).collect();
        format!(
            "{iteration_stride_reason}; the address also moves with the loop{} at line {} (not modelled)",
            if list.len() == 1 { "" } else { "s" },
            list.join(", ")
        )
    };
    // Workgroups apart by the code's own factor, when the lanes' is known too (the wave
    // stride came from the code).
    let group_stride = match (&wave_stride, a.group) {
        (Ok(_), [Some(x), Some(y), Some(z)]) => Some([x, y, z]),
        _ => None,
    };
    DerivedAddress {
        instr,
        line,
        form: form.clone(),
        pattern,
        pattern_reason,
        wave_stride,
        wave_stride_reason,
        group_stride,
        offset: a.offset.filter(|&o| o != 0),
        iteration_stride,
        iteration_stride_reason,
        parent_stride: a
            .parent
            .and_then(|(id, c)| u64::try_from(c).ok().filter(|&c| c > 0).map(|c| (id, c))),
        region: None,
    }
}

/// The lane pattern and wave stride of an address that moves with the work-item id in more
/// than one dimension of the workgroup.
struct BlockLanes {
    pattern: Result<shadersim_mem::LanePattern, String>,
    pattern_reason: String,
    wave_stride: Result<u64, String>,
    wave_stride_reason: String,
}

/// Lanes of a workgroup of `block` work-items: wave `k`'s lane `l` holds local id
/// `t = k x wave_size + l`, that is x = t mod bx, y = (t / bx) mod by, z = t / (bx by) (x fastest,
/// as the hardware fills a wave). The first wave's offsets are the pattern; the waves after it
/// must move by one stride, the same for every lane, for the wave stride to be derived.
fn lanes_in_block(a: &AffineAddress, element: i64, wave_size: u32, block: [u32; 3]) -> BlockLanes {
    use shadersim_mem::LanePattern;
    let words = &a.words;
    let shape = format!("{}x{}x{}", block[0], block[1], block[2]);
    let not = |why: String| BlockLanes {
        pattern: Err(why.clone()),
        pattern_reason: why.clone(),
        wave_stride: Err(why.clone()),
        wave_stride_reason: why,
    };
    let [Some(fx), Some(fy), Some(fz)] = a.lane else {
        return not(format!(
            "lanes in a {shape} workgroup: address = {words}; a work-item id's factor is an unknown uniform value, not derived{}",
            give_arguments(a)
        ));
    };
    let factor = [fx, fy, fz];
    let [bx, by, _] = block.map(|b| i64::from(b.max(1)));
    let threads: i64 = block.iter().map(|&b| i64::from(b.max(1))).product();
    let at =
        |t: i64| factor[0] * (t % bx) + factor[1] * ((t / bx) % by) + factor[2] * (t / (bx * by));
    let lanes = i64::from(wave_size);
    if threads < lanes {
        return not(format!(
            "lanes in a {shape} workgroup: address = {words}; the workgroup fills part of a wave, not derived"
        ));
    }
    let first: Vec<i64> = (0..lanes).map(at).collect();
    if first.iter().any(|&o| o < 0) {
        return not(format!(
            "lanes in a {shape} workgroup: address = {words}; lanes below the first lane's address, not derived"
        ));
    }
    let stride = first.get(1).copied().unwrap_or(0);
    let pattern = if first
        .iter()
        .enumerate()
        .all(|(t, &o)| o == t as i64 * stride)
    {
        match stride {
            0 => LanePattern::Uniform,
            s if s == element => LanePattern::Linear,
            s => LanePattern::Stride { bytes: s as u64 },
        }
    } else {
        LanePattern::List(first.iter().map(|&o| o as u64).collect())
    };
    let name = match &pattern {
        LanePattern::List(_) => format!(
            "a list of {lanes} offsets, {} lanes to a row",
            bx.min(lanes)
        ),
        p => p.to_string(),
    };
    let pattern_reason = format!("{name} (lanes in a {shape} workgroup): address = {words}");
    let waves = (threads + lanes - 1) / lanes;
    let step = if waves > 1 { at(lanes) - first[0] } else { 0 };
    let uniform_steps = (1..waves).all(|k| {
        (0..lanes)
            .filter(|l| k * lanes + l < threads)
            .all(|l| at(k * lanes + l) - first[l as usize] == k * step)
    });
    let (wave_stride, wave_stride_reason) = if waves == 1 {
        (
            Ok(0),
            format!("one wave per {shape} workgroup: no wave stride within it"),
        )
    } else if uniform_steps && step >= 0 {
        (
            Ok(step as u64),
            format!("wave stride {step} B: each wave of the {shape} workgroup is the one before moved by {step} B (local ids x fastest)"),
        )
    } else {
        let why =
            format!("the waves of a {shape} workgroup do not move by one stride: not derived");
        (Err(why.clone()), why)
    };
    BlockLanes {
        pattern: Ok(pattern),
        pattern_reason,
        wave_stride,
        wave_stride_reason,
    }
}

/// What the address does across workgroups, for the wave stride's reason.
fn groups_apart(a: &AffineAddress) -> String {
    match a.group {
        [Some(0), Some(0), Some(0)] => "; the address does not move with the workgroup id: every workgroup reads the same addresses".to_string(),
        [Some(g), Some(0), Some(0)] if g > 0 => format!("; workgroups {g} B apart"),
        [Some(x), Some(y), Some(z)] => {
            let dims: Vec<String> = [("x", x), ("y", y), ("z", z)]
                .iter()
                .filter(|(_, c)| *c != 0)
                .map(|(d, c)| format!("{c} B in {d}"))
                .collect();
            format!("; workgroups apart by {}", dims.join(", "))
        }
        _ if a.group_used => "; the workgroup id's factor taken to be the workgroup's size".to_string(),
        _ => String::new(),
    }
}

/// Give every global, flat and buffer op the lane pattern, wave stride and iteration stride its
/// code shows where `memory` (the `[[memory]]` hints) does not give them: hints win per key.
/// Returns where each op's facts came from, for the report's `defaults` (ops whose three
/// facts all came from hints are left out).
///
/// `fixed_iterations` gives a loop's header executions per entry when every wave and entry
/// runs the same number (the trace plan's): an op whose address also moves with the loop
/// around its own then moves by that loop's bytes after every such count of executions.
pub fn apply_derived_addresses(
    program: &Program,
    cfg: &Cfg,
    memory: &mut HashMap<usize, crate::MemoryFacts>,
    wave_size: u32,
    block: [u32; 3],
    fixed_iterations: impl Fn(usize) -> Option<u32>,
) -> Vec<crate::AddressDefault> {
    use crate::FactSource;
    let mut out = Vec::new();
    for d in derive_address_patterns(program, cfg, wave_size, block) {
        let facts = memory.entry(d.instr).or_default();
        let (pattern, pattern_from, pattern_reason) = match (&facts.pattern, &d.pattern) {
            (Some(p), _) => (p.to_string(), FactSource::Hint, String::new()),
            (None, Ok(p)) => {
                facts.pattern = Some(p.clone());
                (p.to_string(), FactSource::Code, d.pattern_reason.clone())
            }
            (None, Err(why)) => (
                shadersim_mem::LanePattern::default().to_string(),
                FactSource::Default,
                why.clone(),
            ),
        };
        let (wave_stride, wave_stride_from, wave_stride_reason) =
            match (facts.wave_stride, &d.wave_stride) {
                (Some(w), _) => (Some(w), FactSource::Hint, String::new()),
                (None, Ok(w)) => {
                    facts.wave_stride = Some(*w);
                    facts.group_stride = d.group_stride;
                    facts.offset = d.offset;
                    (Some(*w), FactSource::Code, d.wave_stride_reason.clone())
                }
                (None, Err(why)) => (None, FactSource::Default, why.clone()),
            };
        let (iteration_stride, iteration_stride_from, iteration_stride_reason) =
            match (facts.iteration_stride, &d.iteration_stride) {
                (Some(i), _) => (Some(i), Some(FactSource::Hint), String::new()),
                (None, Some(Ok(i))) => {
                    facts.iteration_stride = Some(*i);
                    let inner = cfg
                        .block_of
                        .get(d.instr)
                        .and_then(|&b| cfg.innermost_loop.get(b).copied().flatten());
                    // The loop around: its bytes after every pass through the op's own loop,
                    // whose header runs the same count for every wave (a bottom-tested
                    // body's op runs once per header execution).
                    let outer = d.parent_stride.and_then(|(parent, bytes)| {
                        let period = fixed_iterations(inner?)?;
                        fixed_iterations(parent)?;
                        (period > 0).then_some((u64::from(period), bytes))
                    });
                    facts.outer = outer;
                    let reason = match outer {
                        Some((period, bytes)) => d.iteration_stride_reason.replace(
                            " (not modelled)",
                            &format!(
                                ", by {bytes} B per iteration after every {period} executions"
                            ),
                        ),
                        None => d.iteration_stride_reason.clone(),
                    };
                    (Some(*i), Some(FactSource::Code), reason)
                }
                (None, Some(Err(why))) => (None, Some(FactSource::Default), why.clone()),
                (None, None) => (None, None, String::new()),
            };
        let region = match (facts.region, &d.region) {
            (Some(r), _) => Some((r, FactSource::Hint, String::new())),
            (None, Some((r, why))) => {
                facts.region = Some(*r);
                Some((*r, FactSource::Code, why.clone()))
            }
            (None, None) => None,
        };
        let all_hinted = pattern_from == FactSource::Hint
            && wave_stride_from == FactSource::Hint
            && iteration_stride_from.is_none_or(|f| f == FactSource::Hint);
        if !all_hinted {
            out.push(crate::AddressDefault {
                line: d.line,
                pattern,
                pattern_from,
                pattern_reason,
                wave_stride,
                wave_stride_from,
                wave_stride_reason,
                iteration_stride,
                iteration_stride_from,
                iteration_stride_reason,
                region,
            });
        }
    }
    out
}

/// `; give `--arg cols=N`` when the address holds kernel arguments the launch did not give,
/// and the launch's grid and block when it holds numbers they set (the values that would let
/// the reader derive what it could not); else nothing.
fn give_arguments(a: &AffineAddress) -> String {
    let mut what = crate::defaults::arg_flags(&a.arguments);
    if a.launch_fields {
        what.push("the launch's grid and block (`--grid` or `--global`, `--block`)".to_string());
    }
    if what.is_empty() {
        return String::new();
    }
    format!("; give {}", what.join(", "))
}
