//! The grammar of one line: CF words, fetch instructions, ALU operations and
//! their operands, and the slot each operation of a group takes.

use super::*;

fn chan_of(c: &str) -> Option<Chan> {
    match c {
        "X" | "x" => Some(0),
        "Y" | "y" => Some(1),
        "Z" | "z" => Some(2),
        "W" | "w" => Some(3),
        _ => None,
    }
}

fn mask_of(cs: &str) -> Option<u8> {
    let mut m = 0u8;
    for ch in cs.chars() {
        m |= 1 << chan_of(&ch.to_string())?;
    }
    (m != 0).then_some(m)
}

/// `T12.XYZW` -> (12, mask).
fn parse_gpr(s: &str) -> Option<(u16, u8)> {
    let rest = s.strip_prefix('T')?;
    let (n, c) = rest.split_once('.')?;
    let n: u16 = n.parse().ok().filter(|n| *n < 128)?;
    Some((n, mask_of(c)?))
}

fn parse_src(tok: &str) -> Option<Src> {
    let mut t = tok.trim();
    t = t.strip_prefix('-').unwrap_or(t);
    if let Some(inner) = t.strip_prefix('|').and_then(|x| x.strip_suffix('|')) {
        t = inner;
    }
    t = t.strip_suffix('+').unwrap_or(t);
    if let Some((n, m)) = parse_gpr(t) {
        return (m.count_ones() == 1).then(|| Src::Gpr(n, m.trailing_zeros() as Chan));
    }
    if let Some(rest) = t.strip_prefix("T(") {
        let (inside, c) = rest.split_once(").")?;
        let n: u16 = inside.split('+').next()?.trim().parse().ok()?;
        return Some(Src::Indirect(n.min(127), chan_of(c)?));
    }
    if let Some(c) = t.strip_prefix("PV.") {
        return Some(Src::Pv(chan_of(c)?));
    }
    if t == "PS" {
        return Some(Src::Ps);
    }
    if let Some(c) = t.strip_prefix("literal.") {
        return Some(Src::Literal(chan_of(c)?));
    }
    for (bank, p) in [(0u8, "KC0["), (1, "KC1[")] {
        if let Some(rest) = t.strip_prefix(p) {
            let (i, c) = rest.split_once("].")?;
            return Some(Src::Constant(bank, i.parse().ok()?, chan_of(c)?));
        }
    }
    match t {
        "0.0" | "1.0" | "0.5" | "1" | "-1" | "0" => Some(Src::Inline),
        "OQAP" => Some(Src::Oqap),
        "PredicateBit" | "AR.x" => Some(Src::Special),
        _ => None,
    }
}

fn int_token(s: &str) -> Option<i64> {
    let head = s.trim().split('(').next()?.trim();
    head.parse().ok()
}

/// A literal line: `4(5.605194e-45), 0(0.000000e+00)` or `@symbol`.
pub(super) fn is_literal_line(t: &str) -> bool {
    t.starts_with('@') || t.split(',').all(|f| int_token(f).is_some())
}

pub(super) fn parse_start(cx: &LineCx<'_>, rest: &str) -> Result<u32, AsmError> {
    rest.trim_end_matches(':')
        .trim()
        .parse()
        .map_err(|_| cx.err(rest, "expected a word address after `starting at`"))
}

fn parse_at(cx: &LineCx<'_>, s: &str) -> Result<u32, AsmError> {
    let a = s
        .split_whitespace()
        .find_map(|w| w.trim_end_matches(',').strip_prefix('@'))
        .ok_or_else(|| cx.err(s, "expected a word address `@N`"))?;
    a.parse()
        .map_err(|_| cx.err(a, format!("`@{a}` is not a word address")))
}

pub(super) fn parse_cf(cx: &LineCx<'_>, t: &str, addr: u32) -> Result<CfWord, AsmError> {
    let name = t.split_whitespace().next().unwrap_or("");
    let rest = t[name.len()..].trim();
    let count_of = |s: &str| -> Result<u32, AsmError> {
        let n = s
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("");
        n.parse::<u32>()
            .map(|n| n + 1)
            .map_err(|_| cx.err(s, format!("`{name}` expects a count, found `{n}`")))
    };
    let kind = match name {
        n if n.starts_with("ALU") => CfKind::Alu {
            count: count_of(rest)?,
            addr: parse_at(cx, rest)?,
        },
        "TEX" | "VTX" | "VTX_TC" | "GDS" => CfKind::Fetch {
            count: count_of(rest)?,
            addr: parse_at(cx, rest)?,
        },
        "JUMP" | "ELSE" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Jump,
        },
        n if n.starts_with("LOOP_START") => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Start,
        },
        "END_LOOP" | "LOOP_END" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::End,
        },
        "LOOP_BREAK" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Break,
        },
        "LOOP_CONTINUE" | "CONTINUE" => CfKind::Branch {
            target: parse_at(cx, rest)?,
            loop_role: LoopRole::Continue,
        },
        "POP" | "PUSH" | "CALL_FS" | "NOP" => CfKind::Stack,
        n if n.starts_with("MEM_") || n.starts_with("EXPORT") => {
            let atomic = rest.starts_with("ATOMIC") || rest.starts_with("MSKOR");
            let data = rest
                .split_whitespace()
                .nth(1)
                .map(|d| d.trim_end_matches(','))
                .unwrap_or("");
            let dwords = parse_gpr(data).map_or(1, |(_, m)| m.count_ones());
            CfKind::Store { dwords, atomic }
        }
        "CF_END" => CfKind::End,
        "PAD" => CfKind::Pad,
        _ => {
            return Err(cx.err(
                name,
                format!("unknown control-flow word `{name}` (expected ALU*, TEX, VTX, JUMP, ELSE, POP, PUSH, LOOP_*, END_LOOP, MEM_RAT*, CF_END or PAD)"),
            ))
        }
    };
    Ok(CfWord {
        addr,
        name: name.to_string(),
        pos: cx.pos_of(name),
        text: t.to_string(),
        kind,
    })
}

pub(super) fn parse_fetch(cx: &LineCx<'_>, t: &str) -> Result<Fetch, AsmError> {
    let name = t.split_whitespace().next().unwrap_or("");
    if !(name.starts_with("VTX_") || name.starts_with("TEX_") || name.starts_with("SAMPLE")) {
        return Err(cx.err(
            name,
            format!("expected a fetch (`VTX_READ_*`, `TEX_*`), found `{name}`"),
        ));
    }
    let fields: Vec<&str> = t[name.len()..].split(',').map(str::trim).collect();
    let dst = fields.first().and_then(|f| parse_gpr(f));
    // The address register: one GPR channel, in range like an ALU
    // clause's (`T9999.X` or a wrapping `T4294967298.X` is refused, not
    // dropped).
    let addr = match fields.get(1).filter(|f| !f.is_empty()) {
        None => None,
        Some(f) => {
            let reg = f.split_whitespace().next().unwrap_or("");
            match parse_gpr(reg) {
                Some((n, m)) if m.count_ones() == 1 => Some((n, m.trailing_zeros() as Chan)),
                _ => {
                    return Err(cx.err_after(
                        cx.raw.find(',').unwrap_or(0),
                        reg,
                        format!("`{name}` reads its address from one register channel `T<n>.<c>` (n below 128), found `{reg}`"),
                    ))
                }
            }
        }
    };
    if dst.is_none() {
        return Err(cx.err(
            t,
            format!("`{name}` needs a destination register `T<n>.<channels>`"),
        ));
    }
    Ok(Fetch {
        name: name.to_string(),
        pos: cx.pos_of(name),
        text: t.to_string(),
        dst,
        addr,
    })
}

pub(super) fn parse_alu(cx: &LineCx<'_>, t: &str) -> Result<(AluOp, bool), AsmError> {
    let mut words = t.split_whitespace();
    let mut name = words.next().unwrap_or("").to_string();
    let mut rest = t[name.len()..].trim_start();
    if name == "MUL" && rest.starts_with("NON-IEEE") {
        name = "MUL_NON-IEEE".to_string();
        rest = rest["NON-IEEE".len()..].trim_start();
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-')
        || name.is_empty()
    {
        return Err(cx.err(
            &name,
            format!("expected an ALU operation name, found `{name}`"),
        ));
    }
    let last = rest.starts_with('*');
    if last {
        rest = rest[1..].trim_start();
    }
    let mut fields: Vec<&str> = rest
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty() && !f.starts_with("BS:") && !f.starts_with("Pred_sel"))
        .collect();
    while matches!(fields.first(), Some(&"ExecMask") | Some(&"Pred")) {
        fields.remove(0);
    }
    let info = alu_op(&name);
    let lds_no_ret = info.is_some_and(|i| i.slots[1] == SlotClass::Lds) && !name.ends_with("_RET");
    let mut dst = Dst::None;
    let mut src_fields: &[&str] = &fields;
    if name != "GROUP_BARRIER" && !lds_no_ret && !fields.is_empty() {
        let d = fields[0];
        let masked = d.contains("(MASKED)");
        let reg = d.split_whitespace().next().unwrap_or("");
        dst = if reg == "PredicateBit" {
            Dst::Predicate
        } else if reg == "OQAP" {
            Dst::Oqap
        } else if let Some((index, m)) = parse_gpr(reg) {
            if m.count_ones() != 1 {
                return Err(cx.err(
                    reg,
                    format!("`{reg}`: an ALU destination names one channel"),
                ));
            }
            Dst::Gpr {
                index,
                chan: m.trailing_zeros() as Chan,
                masked,
            }
        } else {
            return Err(cx.err(
                reg,
                format!(
                    "expected a destination (`T<n>.<c>`, `PredicateBit`, `OQAP`), found `{reg}`"
                ),
            ));
        };
        src_fields = &fields[1..];
    }
    let mut srcs = Vec::new();
    for f in src_fields {
        let tok = f.split_whitespace().next().unwrap_or("");
        if tok.is_empty() {
            continue;
        }
        let s = parse_src(tok).ok_or_else(|| {
            cx.err(
                tok,
                format!("unknown operand `{tok}` (expected T<n>.<c>, PV.<c>, PS, KC0[i].<c>, literal.<c>, an inline constant or OQAP)"),
            )
        })?;
        srcs.push(s);
    }
    Ok((
        AluOp {
            pos: cx.pos_of(&name.replace("_NON-IEEE", "")),
            name,
            text: t.to_string(),
            dst,
            srcs,
            slot: Slot::X,
        },
        last,
    ))
}

/// Give each operation of a group its slot (vliw5-model.md 5.3): vector
/// operations come in increasing destination channel; the last is the t
/// operation iff it is t-only or its channel does not increase. Cayman has
/// no t slot.
pub(super) fn assign_slots(
    file: &str,
    b: &mut Bundle,
    chip: ChipClass,
    warnings: &mut Vec<Warning>,
) -> Result<(), AsmError> {
    let n = b.ops.len();
    let mut prev: Option<Chan> = None;
    let mut used = 0u8;
    for (i, op) in b.ops.iter_mut().enumerate() {
        let info = alu_op(&op.name);
        if info.is_none() {
            warnings.push(Warning {
                pos: Some(op.pos),
                message: format!(
                    "`{}` is not in the VLIW operation table; slot from its destination",
                    op.name
                ),
            });
        }
        let chan = op.dst.chan();
        let t_only = info.is_some_and(|i| i.slot_class(chip) == SlotClass::Trans);
        let increases = prev.is_none_or(|p| chan > p);
        let slot = if chip.has_t_slot() && i + 1 == n && (t_only || !increases) {
            Slot::T
        } else if increases || n == 1 {
            Slot::of_chan(chan)
        } else {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(op.pos),
                message: format!(
                    "`{}` writes channel {} after channel {} in the same group: no slot left (vector slots go in channel order, only the last operation may take t)",
                    op.name,
                    Slot::of_chan(chan).name(),
                    Slot::of_chan(prev.unwrap_or(0)).name()
                ),
            });
        };
        if used & slot.bit() != 0 {
            return Err(AsmError {
                file: file.to_string(),
                pos: Some(op.pos),
                message: format!("slot {} taken twice in one group", slot.name()),
            });
        }
        used |= slot.bit();
        op.slot = slot;
        prev = Some(chan);
    }
    Ok(())
}
