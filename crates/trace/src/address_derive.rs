//! From an op's address form ([`crate::address_affine`]) to the facts a `[[memory]]` hint
//! would give: the lane pattern, the wave stride, the workgroup stride, the constant offset and
//! the iteration stride, each with the reason it was (or was not) derived; and their merge
//! with the hints (hints win per key).

use crate::address_affine::{address_forms, AddressForm, AffineAddress};
use shadersim_asm::Program;
use shadersim_cfg::Cfg;
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
    /// Bytes between consecutive workgroups' first waves, when the code fixes it (`Some(0)`:
    /// every workgroup reads the same addresses); `None`: the waves of the next workgroup
    /// continue the wave stride.
    pub group_stride: Option<u64>,
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
}

/// Derive every global, flat and buffer op's lane pattern, wave stride and iteration stride
/// from its address arithmetic, for waves of `wave_size` lanes.
pub fn derive_address_patterns(
    program: &Program,
    cfg: &Cfg,
    wave_size: u32,
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
        let not = |why: &str| Err::<u64, String>(why.to_string());
        let d = match &form {
            AddressForm::DataDependent { line, mnemonic } => {
                let why = format!(
                    "data-dependent: the address comes from the `{mnemonic}` at line {line}"
                );
                DerivedAddress {
                    instr: i,
                    line: s.pos.line,
                    form: form.clone(),
                    pattern: Err(why.clone()),
                    pattern_reason: why.clone(),
                    wave_stride: not(&why),
                    wave_stride_reason: why.clone(),
                    group_stride: None,
                    offset: None,
                    iteration_stride: in_loop.then(|| not(&why)),
                    iteration_stride_reason: why,
                }
            }
            AddressForm::Unknown(w) => {
                let why = format!("not derived: {w}");
                DerivedAddress {
                    instr: i,
                    line: s.pos.line,
                    form: form.clone(),
                    pattern: Err(why.clone()),
                    pattern_reason: why.clone(),
                    wave_stride: not(&why),
                    wave_stride_reason: why.clone(),
                    group_stride: None,
                    offset: None,
                    iteration_stride: in_loop.then(|| not(&why)),
                    iteration_stride_reason: why,
                }
            }
            AddressForm::Affine(a) => derive(i, s.pos.line, &form, a, element, wave_size),
        };
        out.push(d);
    }
    out
}

fn derive(
    instr: usize,
    line: u32,
    form: &AddressForm,
    a: &AffineAddress,
    element: i64,
    wave_size: u32,
) -> DerivedAddress {
    use shadersim_mem::LanePattern;
    let words = &a.words;
    let (pattern, pattern_reason) = if a.lane_used[1] || a.lane_used[2] {
        let why = format!(
            "2D: address = {words}; a 2D lane pattern needs the workgroup's width, not derived"
        );
        (Err(why.clone()), why)
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
                    "the lane stride is an unknown uniform value: address = {words}; not derived"
                );
                (Err(why.clone()), why)
            }
        }
    };
    let (wave_stride, wave_stride_reason) = match (a.lane_used, a.lane[0]) {
        ([_, true, _] | [_, _, true], _) => {
            let why = "2D lanes: the wave stride is not derived".to_string();
            (Err(why.clone()), why)
        }
        (_, Some(x)) if x > 0 => {
            let ws = (x as u64).saturating_mul(u64::from(wave_size));
            let across = match a.group {
                Some(0) => "; the address does not move with the workgroup id: every workgroup reads the same addresses".to_string(),
                Some(g) if g > 0 => format!("; workgroups {g} B apart"),
                _ if a.group_used => "; the workgroup id's factor taken to be the workgroup's size".to_string(),
                _ => String::new(),
            };
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
            let why = "the loop moves the address by an unknown uniform value (a kernel argument): not derived".to_string();
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
        (Ok(_), Some(g)) if g >= 0 && !a.lane_used[1] && !a.lane_used[2] => Some(g as u64),
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
    }
}

/// Give every global, flat and buffer op the lane pattern, wave stride and iteration stride its
/// code shows where `memory` (the `[[memory]]` hints) does not give them: hints win per key.
/// Returns where each op's facts came from, for the report's `defaults` (ops whose three
/// facts all came from hints are left out).
pub fn apply_derived_addresses(
    program: &Program,
    cfg: &Cfg,
    memory: &mut HashMap<usize, crate::MemoryFacts>,
    wave_size: u32,
) -> Vec<crate::AddressDefault> {
    use crate::FactSource;
    let mut out = Vec::new();
    for d in derive_address_patterns(program, cfg, wave_size) {
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
                    (
                        Some(*i),
                        Some(FactSource::Code),
                        d.iteration_stride_reason.clone(),
                    )
                }
                (None, Some(Err(why))) => (None, Some(FactSource::Default), why.clone()),
                (None, None) => (None, None, String::new()),
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
            });
        }
    }
    out
}
