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

pub(super) fn resolve_branches(
    file: &str,
    dialect: Dialect,
    p: &mut Program,
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
    let addr_index: HashMap<u64, usize> = p
        .instructions
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.address.map(|a| (a, i)))
        .collect();
    let end_address = p
        .instructions
        .last()
        .and_then(|s| s.address.map(|a| a + 4 * s.encoding.len() as u64));
    let mut targets = Vec::with_capacity(p.instructions.len());
    let mut new_labels = Vec::new();
    for s in &p.instructions {
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
                let Some(addr) = s.address else {
                    return Err(AsmError {
                        file: file.to_string(),
                        pos: Some(s.pos),
                        message: format!(
                            "numeric branch offset `{offset}` needs instruction addresses ({} output has none); use a label",
                            dialect.name()
                        ),
                    });
                };
                // SOPP branch: target = PC + 4 + simm16 * 4.
                let simm = i64::from(*offset as u16 as i16);
                let t = addr as i64 + 4 + simm * 4;
                let idx = if Some(t as u64) == end_address {
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
                            "branch target 0x{t:x} is not the address of an instruction of `{}`",
                            p.name
                        ),
                        })
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
