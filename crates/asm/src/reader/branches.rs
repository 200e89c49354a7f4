//! Branch resolution (labels and objdump addresses) and the stage an
//! unnamed program runs as.

use super::code::operand_column;
use super::*;

/// A program that exports to render targets is a pixel shader; one that
/// exports positions is a vertex shader.
pub(super) fn stage_from_exports(p: &Program) -> Option<Stage> {
    use shadersim_isa::ExportTarget::*;
    for i in &p.instructions {
        match i.inst.export_target() {
            Some(Mrt(_) | MrtZ | DualSrcBlend(_)) => return Some(Stage::Pixel),
            Some(Pos(_) | Param(_) | Prim) => return Some(Stage::Vertex),
            _ => {}
        }
    }
    None
}

/// Resolve every branch of `p` to an instruction index; `spans` are the file's functions
/// (name, first address, end address) when it gives addresses.
pub(super) fn resolve_branches(
    file: &str,
    dialect: Dialect,
    p: &mut Program,
    spans: &[(String, u64, u64)],
) -> Result<(), AsmError> {
    let mut label_index: HashMap<String, usize> = HashMap::new();
    let mut label_line: HashMap<&str, u32> = HashMap::new();
    for l in &p.labels {
        if let Some(first) = label_line.insert(&l.name, l.line) {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(SourcePos {
                    line: l.line,
                    column: 1,
                }),
                message: format!("label `{}` defined twice (first at line {first})", l.name),
            });
        }
        label_index.insert(l.name.clone(), l.index);
    }
    let Layout {
        addresses,
        end: end_address,
        first_unsized,
    } = instruction_addresses(p);
    let addr_index: HashMap<u64, usize> = addresses
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.map(|a| (a, i)))
        .collect();
    // Why a numeric offset could not be placed: the first instruction without a size.
    let unsized_note = |what: &str| {
        match &first_unsized {
        Some((line, why)) => format!(
            "; {what} from line {line} on are not known ({why}): give llvm-mc's `; encoding: [...]` comments or use a label"
        ),
        None => String::new(),
    }
    };
    let mut targets = Vec::with_capacity(p.instructions.len());
    let mut new_labels = Vec::new();
    for (s, &address) in p.instructions.iter().zip(&addresses) {
        let target = match s.inst.branch_target() {
            None => None,
            // A plain name (`foo`, kept as text by the operand parser) is
            // a label like `.LBB0_1`; what no label defines is an error at
            // the operand, never a dropped edge.
            Some(Operand::Symbol(name) | Operand::Text(name)) => match label_index.get(name) {
                Some(&i) => Some(i),
                None => {
                    return Err(AsmError {
                        file: file.to_string(),
                        pos: Some(SourcePos {
                            line: s.pos.line,
                            column: s.pos.column + operand_column(&s.text, name) as u32,
                        }),
                        message: format!(
                            "branch to `{name}`, which is not a label of `{}`",
                            p.name
                        ),
                    })
                }
            },
            Some(Operand::Imm(offset)) => {
                let Some(addr) = address else {
                    return Err(AsmError {
                        file: file.to_string(),
                        pos: Some(s.pos),
                        message: match &first_unsized {
                            Some(_) => format!(
                                "numeric branch offset `{offset}`: this instruction's address is not known{}",
                                unsized_note("the sizes of the instructions")
                            ),
                            None => format!(
                                "numeric branch offset `{offset}` needs instruction addresses ({} output has none) or every instruction's encoding (llvm-mc -show-encoding's `; encoding: [...]`); use a label",
                                dialect.name()
                            ),
                        },
                    });
                };
                // SOPP branch: target = PC + 4 + simm16 * 4.
                let simm = i64::from(*offset as u16 as i16);
                let t = addr as i64 + 4 + simm * 4;
                // The end of the code is where a wave stops, unless another function of the
                // file starts there (then the branch would run that function's code).
                let into_other = in_other_function(spans, &p.name, t);
                let idx = if Some(t as u64) == end_address && into_other.is_empty() {
                    Some(p.instructions.len())
                } else {
                    addr_index.get(&(t as u64)).copied()
                };
                match idx {
                    Some(i) => {
                        let name = format!(".L_0x{t:x}");
                        if label_index.insert(name.clone(), i).is_none() {
                            new_labels.push(Label {
                                name,
                                index: i,
                                line: 0,
                            });
                        }
                        Some(i)
                    }
                    None => {
                        return Err(AsmError {
                            file: file.to_string(),
                            pos: Some(s.pos),
                            message: format!(
                                "branch target {} ({simm:+} words from the next instruction) is not the address of an instruction of `{}`{}{}{}",
                                // Before the code's start (a listing's first address is 0).
                                if t < 0 { format!("-0x{:x}", -t) } else { format!("0x{t:x}") },
                                p.name,
                                match (addresses.first().copied().flatten(), end_address) {
                                    (Some(a), Some(e)) => format!(" (its code spans 0x{a:x} to 0x{e:x})"),
                                    _ => String::new(),
                                },
                                into_other,
                                unsized_note("the addresses")
                            ),
                        });
                    }
                }
            }
            Some(_) => None,
        };
        targets.push(target);
    }
    p.labels.extend(new_labels);
    p.labels.sort_by_key(|l| (l.index, l.line == 0, l.line));
    p.branch_targets = targets;
    Ok(())
}

/// Where a branch target outside its function lies when another function of the file holds
/// it: a jump between functions (not a call, which `s_swappc`/`s_call` make and calls.rs
/// follows), which the simulation cannot follow.
fn in_other_function(spans: &[(String, u64, u64)], own: &str, target: i64) -> String {
    spans
        .iter()
        .find(|(name, a, e)| name != own && (*a as i64..*e as i64).contains(&target))
        .map(|(name, a, _)| {
            format!(
                "; it jumps into `{name}` (at +0x{:x}), another function of the file, which a branch does not enter (only calls do)",
                target - *a as i64
            )
        })
        .unwrap_or_default()
}

/// Each instruction's address and the code's end, and the first instruction (line, why) whose
/// size is not known when the addresses are computed.
struct Layout {
    addresses: Vec<Option<u64>>,
    end: Option<u64>,
    first_unsized: Option<(u32, String)>,
}

/// Each instruction's address: the file's own (objdump), or, when the file gives none, the sum
/// of the sizes before it from 0: an instruction's llvm-mc `-show-encoding` comment when it has
/// one, else its size as llvm-mc-22 would encode it (shadersim_isa::size, issue 47 item 17). A
/// numeric branch offset is then a word count from the next instruction, as llvm-mc-22 encodes
/// it (`s_branch 3` is `[0x03,0x00,0x82,0xbf]`: 3 words past the next). From the first
/// instruction whose size the model declines on, addresses are unknown.
fn instruction_addresses(p: &Program) -> Layout {
    if p.instructions.iter().any(|s| s.address.is_some()) {
        let addresses: Vec<Option<u64>> = p.instructions.iter().map(|s| s.address).collect();
        let end = p
            .instructions
            .last()
            .zip(addresses.last().copied().flatten())
            .map(|(s, a)| a + 4 * s.encoding.len() as u64);
        return Layout {
            addresses,
            end,
            first_unsized: None,
        };
    }
    let mut at = Some(0u64);
    let mut first_unsized = None;
    let mut addresses = Vec::with_capacity(p.instructions.len());
    for s in &p.instructions {
        addresses.push(at);
        let size = if s.encoding.is_empty() {
            match &p.target {
                Some(t) => shadersim_isa::size::encoded_bytes(&s.inst, t),
                None => Err("no target processor to size instructions for".to_string()),
            }
        } else {
            Ok(4 * s.encoding.len() as u32)
        };
        match size {
            Ok(n) => at = at.map(|a| a + u64::from(n)),
            Err(why) => {
                if first_unsized.is_none() {
                    first_unsized = Some((s.pos.line, why));
                }
                at = None;
            }
        }
    }
    Layout {
        addresses,
        end: at,
        first_unsized,
    }
}

/// ACO encodes an export source it leaves undefined (a channel the shader
/// does not write, `Operand()` in ACO, whose register number is 128, the
/// encoding of the constant 0) in the 8-bit VGPR field as 0x80, which a
/// disassembler prints `v128`: `exp mrt0 v0, v128, off, off done`
/// (`f8000803 80808000`, a gfx11 fragment shader whose driver allocated
/// 36 VGPRs). Such a source reads no register the program has: an export
/// source `v128` that no instruction of the program writes is kept as text
/// (still an exported channel, see `export_bits`), so register counts,
/// liveness and dependencies do not see a register 128.
pub(super) fn mark_undefined_export_sources(p: &mut Program) {
    const ACO_UNDEFINED: u16 = 128;
    let is_marker = |o: &Operand| {
        o.reg().is_some_and(|r| {
            r.file == shadersim_isa::RegFile::Vgpr && r.first == ACO_UNDEFINED && r.count == 1
        })
    };
    let has_marker = p.instructions.iter().any(|s| {
        s.inst.info.encoding == shadersim_isa::Encoding::Exp
            && s.inst.operands.iter().skip(1).any(is_marker)
    });
    if !has_marker {
        return;
    }
    let written = p.instructions.iter().any(|s| {
        std::iter::once(&s.inst)
            .chain(s.inst.dual.as_deref())
            .flat_map(|i| i.writes())
            .any(|r| {
                r.file == shadersim_isa::RegFile::Vgpr
                    && (u32::from(r.first)..r.end()).contains(&u32::from(ACO_UNDEFINED))
            })
    });
    if written {
        return;
    }
    for s in &mut p.instructions {
        if s.inst.info.encoding != shadersim_isa::Encoding::Exp {
            continue;
        }
        for o in s.inst.operands.iter_mut().skip(1) {
            if is_marker(o) {
                *o = Operand::Text(format!("v{ACO_UNDEFINED}"));
            }
        }
    }
}

/// A kernel the file's metadata declares must end where no wave runs on: `s_endpgm`, a
/// jump or a return. One that ends in anything else (its `s_endpgm` cut off, or none, as in
/// zeroed code) would run past its last instruction; the error is at that instruction.
pub(super) fn check_kernel_end(file: &str, p: &Program) -> Result<(), AsmError> {
    use shadersim_isa::InstrClass;
    let Some(last) = p.instructions.last() else {
        return Ok(());
    };
    if matches!(
        last.inst.class(),
        InstrClass::Endpgm | InstrClass::Branch | InstrClass::BranchIndirect
    ) {
        return Ok(());
    }
    Err(AsmError {
        file: file.to_string(),
        pos: Some(last.pos),
        message: format!(
            "kernel `{}` ends at `{}` with no `s_endpgm` after it: a wave would run past its last instruction (truncated or damaged code)",
            p.name, last.text
        ),
    })
}
