//! Calls between programs of one file: LLVM's non-inlined device functions.
//!
//! LLVM calls a function by building its address and swapping the PC:
//!
//! ```text
//! s_getpc_b64 s[8:9]
//! s_add_u32 s8, s8, helper@rel32@lo+4
//! s_addc_u32 s9, s9, helper@rel32@hi+12
//! s_swappc_b64 s[30:31], s[8:9]
//! ```
//!
//! The callee returns with `s_setpc_b64 s[30:31]`. A call is resolved by
//! the symbol last put into the low register of its address pair (in
//! program order: the address is built in the same block, or reused from
//! an earlier call, in every listing LLVM prints). A resolved call to a
//! function of the file is followed: the callee's instructions (its own
//! calls followed in turn) are copied after the call, each copy keeping
//! the callee's source position, and the callee's returns jump to the
//! instruction after the call. A call that cannot be resolved is a warning
//! naming it and falls through (the callee's work is not simulated).

use crate::program::{Label, Program, Warning};
use shadersim_isa::{InstrClass, Operand, RegFile};
use std::collections::HashMap;

/// How deep calls are followed: deeper chains (and recursion) stop with a
/// warning instead of growing the program without bound.
const MAX_CALL_DEPTH: usize = 8;

/// The most instructions the followed calls of one program may add: a
/// function called many times from functions called many times grows
/// exponentially, and a file must not be able to exhaust memory.
const MAX_FOLLOWED_INSTRUCTIONS: usize = 1 << 20;

/// Whether `p` is a device function (returns to a caller) rather than a
/// kernel or shader (ends the program): it has no `s_endpgm` and returns
/// with `s_setpc_b64`.
pub(crate) fn is_device_function(p: &Program) -> bool {
    let ends = p
        .instructions
        .iter()
        .any(|i| i.inst.class() == InstrClass::Endpgm);
    let returns = p.instructions.iter().any(is_return);
    !ends && returns
}

fn is_return(i: &crate::SourceInstr) -> bool {
    i.inst.class() == InstrClass::BranchIndirect && i.inst.mnemonic.starts_with("s_setpc")
}

/// What a scalar register holds, as far as building a call address goes.
#[derive(Clone)]
enum Held {
    /// The address of a symbol (`s_add_u32 s8, s8, f@rel32@lo+4`, or an
    /// objdump relocation the reader turned into that operand).
    Symbol(String),
    /// A known address (`s_getpc_b64` in objdump output, plus literals).
    Address(u64),
}

/// For each instruction that is a call (`s_swappc_*`), what it calls: a
/// symbol, or (objdump output of linked code) the address the code built.
fn call_targets(p: &Program) -> Vec<(usize, Option<Held>)> {
    let mut held: HashMap<u16, Held> = HashMap::new();
    let mut calls = Vec::new();
    let sgpr = |o: &Operand| match o {
        Operand::Reg { range, .. } if range.file == RegFile::Sgpr => {
            Some((range.first, range.count))
        }
        _ => None,
    };
    for (i, s) in p.instructions.iter().enumerate() {
        let inst = &s.inst;
        if inst.info.class == InstrClass::Call && inst.mnemonic.starts_with("s_swappc") {
            let target = inst.operands.get(1).and_then(sgpr);
            calls.push((i, target.and_then(|(r, _)| held.get(&r).cloned())));
            continue;
        }
        let Some((dst, count)) = inst
            .operands
            .first()
            .filter(|_| inst.defs > 0)
            .and_then(sgpr)
        else {
            continue;
        };
        let lo_symbol = inst.operands.iter().find_map(|o| match o {
            Operand::Symbol(s) if s.contains("@lo") => s.split('@').next().map(str::to_string),
            _ => None,
        });
        let hi_symbol = inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Symbol(s) if s.contains("@hi")));
        let literal = inst.operands.iter().skip(1).find_map(|o| match o {
            Operand::Imm(v) => Some(*v),
            _ => None,
        });
        let same_source = inst
            .operands
            .get(1)
            .and_then(sgpr)
            .is_some_and(|(r, _)| r == dst);
        match (lo_symbol, &held.get(&dst)) {
            (Some(sym), _) => {
                held.insert(dst, Held::Symbol(sym));
            }
            // `s_getpc_b64` holds the address of the next instruction.
            (None, _) if inst.mnemonic.starts_with("s_getpc") => match s.address {
                Some(a) => {
                    held.insert(
                        dst,
                        Held::Address(a.wrapping_add(4 * s.encoding.len() as u64)),
                    );
                }
                None => {
                    held.remove(&dst);
                }
            },
            // The high half, and a GOT load through the pair, keep what the
            // low register holds.
            (None, Some(_)) if hi_symbol || inst.info.class == InstrClass::Smem => {}
            (None, Some(Held::Address(a)))
                if inst.mnemonic.starts_with("s_add_u32")
                    || inst.mnemonic.starts_with("s_add_co_u32") =>
            {
                match (same_source, literal) {
                    (true, Some(v)) => {
                        // A 32-bit literal added to the low half: sign-extend.
                        let target = a.wrapping_add(i64::from(v as i32) as u64);
                        held.insert(dst, Held::Address(target));
                    }
                    _ => {
                        held.remove(&dst);
                    }
                }
            }
            (None, Some(Held::Address(_))) if inst.mnemonic.starts_with("s_addc") => {}
            _ => {
                for r in dst..dst.saturating_add(count) {
                    held.remove(&r);
                }
            }
        }
    }
    calls
}

/// A program's code with its calls followed, as a relocatable body.
struct Body {
    instructions: Vec<crate::SourceInstr>,
    /// Branch targets relative to the body; `usize::MAX` marks a return.
    targets: Vec<Option<usize>>,
    labels: Vec<Label>,
}

const RETURN: usize = usize::MAX;

/// Marks a target already relative to the body being built (a call's
/// entry into the callee copy), not to the program's own instructions.
const RELOCATED: usize = 1 << (usize::BITS - 2);

fn body(
    p: &Program,
    functions: &HashMap<&str, &Program>,
    stack: &mut Vec<String>,
    calls_made: &mut usize,
    budget: &mut usize,
    warnings: &mut Vec<Warning>,
) -> Body {
    let calls: HashMap<usize, Option<String>> = call_targets(p)
        .into_iter()
        .map(|(i, held)| {
            let name = match held {
                Some(Held::Symbol(s)) => Some(s),
                Some(Held::Address(a)) => Some(
                    functions
                        .values()
                        .find(|f| f.instructions.first().and_then(|i| i.address) == Some(a))
                        .map_or(format!("0x{a:x}"), |f| f.name.clone()),
                ),
                None => None,
            };
            (i, name)
        })
        .collect();
    let device = is_device_function(p);
    let n = p.instructions.len();
    let mut out = Body {
        instructions: Vec::with_capacity(n),
        targets: Vec::with_capacity(n),
        labels: Vec::new(),
    };
    let mut new_index = vec![0; n + 1];
    // Own branch targets are remapped once every position is known.
    let mut own = Vec::new();
    for (i, s) in p.instructions.iter().enumerate() {
        new_index[i] = out.instructions.len();
        out.instructions.push(s.clone());
        let target = p.branch_targets.get(i).copied().flatten();
        if device && is_return(s) {
            out.targets.push(Some(RETURN));
        } else {
            own.push(out.targets.len());
            out.targets.push(target);
        }
        let Some(symbol) = calls.get(&i) else {
            continue;
        };
        let warn = |warnings: &mut Vec<Warning>, why: String| {
            warnings.push(Warning {
                pos: Some(s.pos),
                message: why,
            })
        };
        let callee = symbol
            .as_deref()
            .and_then(|sym| functions.get(sym).copied());
        match (symbol, callee) {
            (Some(sym), Some(callee)) if stack.len() < MAX_CALL_DEPTH && !stack.contains(sym) => {
                stack.push(sym.clone());
                let inner = body(callee, functions, stack, calls_made, budget, warnings);
                stack.pop();
                if inner.instructions.len() > *budget {
                    warn(
                        warnings,
                        format!("call to `{sym}` not followed: the program would exceed {MAX_FOLLOWED_INSTRUCTIONS} instructions of followed calls"),
                    );
                    continue;
                }
                *budget -= inner.instructions.len();
                *calls_made += 1;
                let base = out.instructions.len();
                let end = base + inner.instructions.len();
                // The callee's entry starts a block (the call falls into it).
                if let Some(call) = out.targets.last_mut() {
                    *call = Some(RELOCATED | base);
                }
                out.labels.push(Label {
                    name: format!("{sym}#{calls_made}"),
                    index: base,
                    line: callee.line,
                });
                out.labels.extend(inner.labels.into_iter().map(|l| Label {
                    name: format!("{}#{calls_made}", l.name),
                    index: base + l.index,
                    line: l.line,
                }));
                out.instructions.extend(inner.instructions);
                out.targets.extend(inner.targets.into_iter().map(|t| {
                    t.map(|t| if t == RETURN { end } else { base + t })
                }));
            }
            (Some(sym), Some(_)) => warn(
                warnings,
                format!("call to `{sym}` not followed (recursion, or calls nested deeper than {MAX_CALL_DEPTH}); its instructions are not simulated"),
            ),
            (Some(sym), None) => warn(
                warnings,
                format!("call to `{sym}`, which is not a function of this file; its instructions are not simulated (the call returns at once)"),
            ),
            (None, _) => warn(
                warnings,
                format!("call `{}` to an address this file does not build from a symbol; its instructions are not simulated (the call returns at once)", s.text),
            ),
        }
    }
    new_index[n] = out.instructions.len();
    for slot in own {
        match out.targets[slot] {
            Some(t) if t != RETURN && t & RELOCATED != 0 => {
                out.targets[slot] = Some(t & !RELOCATED)
            }
            Some(t) => out.targets[slot] = Some(new_index[t.min(n)]),
            None => {}
        }
    }
    out.labels.extend(p.labels.iter().map(|l| Label {
        name: l.name.clone(),
        index: new_index[l.index.min(n)],
        line: l.line,
    }));
    out.labels.sort_by_key(|l| (l.index, l.line == 0, l.line));
    out
}

/// Follow the calls of every program that is not a device function into
/// the device functions of the file, and mark the device functions.
pub(crate) fn follow_calls(programs: &mut [Program], warnings: &mut Vec<Warning>) {
    let snapshot: Vec<Program> = programs.to_vec();
    let functions: HashMap<&str, &Program> = snapshot
        .iter()
        .filter(|p| is_device_function(p))
        .map(|p| (p.name.as_str(), p))
        .collect();
    for p in programs.iter_mut() {
        p.device_function = is_device_function(p);
        if p.device_function
            || !p
                .instructions
                .iter()
                .any(|i| i.inst.info.class == InstrClass::Call)
        {
            continue;
        }
        let mut calls_made = 0;
        let mut budget = MAX_FOLLOWED_INSTRUCTIONS;
        let b = body(
            p,
            &functions,
            &mut vec![p.name.clone()],
            &mut calls_made,
            &mut budget,
            warnings,
        );
        p.instructions = b.instructions;
        p.branch_targets = b
            .targets
            .into_iter()
            .map(|t| t.filter(|&t| t != RETURN))
            .collect();
        p.labels = b.labels;
    }
}

/// A call of a kernel or shader to a function its file does not define:
/// the reader lets it return at once, so its work is missing from the
/// simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalCall {
    /// The program (kernel or shader) that makes the call.
    pub program: String,
    /// The symbol called, when the call's address is built from one
    /// (`None`: an address the file does not build from a symbol).
    pub symbol: Option<String>,
    /// Where the call instruction (`s_swappc_*`) is in the file.
    pub pos: crate::SourcePos,
}

/// Every call of the file's programs (not its device functions, whose
/// bodies are copied into their callers) that does not reach a function
/// of the file. Calls in linked code (objdump) whose address is a number
/// are not listed: whether a function starts there is not known here.
pub fn external_calls(file: &crate::ProgramFile) -> Vec<ExternalCall> {
    let defined: std::collections::HashSet<&str> =
        file.programs.iter().map(|p| p.name.as_str()).collect();
    let mut out = Vec::new();
    for p in file.programs.iter().filter(|p| !p.device_function) {
        for (i, held) in call_targets(p) {
            let symbol = match held {
                Some(Held::Symbol(sym)) if defined.contains(sym.as_str()) => continue,
                Some(Held::Symbol(sym)) => Some(sym),
                Some(Held::Address(_)) => continue,
                None => None,
            };
            out.push(ExternalCall {
                program: p.name.clone(),
                symbol,
                pos: p.instructions[i].pos,
            });
        }
    }
    out
}
