//! Instruction forms LLVM-22 refuses that a reader or decoder could still take: a reserved scalar
//! source (`src_209`, what llvm-objdump prints for no operand; "invalid instruction encoding"),
//! `src_lds_direct` as a SALU operand, `abs` (|x|) on an operand of an integer op
//! (`v_add3_u32 v0, |v46|, ...`), a VGPR or AGPR tuple that starts at an odd register on gfx90a
//! and gfx94x, an `s_delay_alu` field past its names (`instid0(/* invalid instid value */)`,
//! what llvm-objdump-22 prints for one) (issue 47 item 14). One rule set, judged on the instruction's text in LLVM syntax:
//! the listing reader (shadersim-asm) refuses such a line at its operand, and the code-object
//! decoder (shadersim-codeobj) such an encoding at its offset. Each was checked with llvm-mc-22
//! (text) and llvm-mc-22 -disassemble / llvm-objdump-22 (encodings).

/// Why LLVM-22 refuses an instruction, and the operand text that makes it so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The reason, naming the instruction.
    pub message: String,
    /// The operand (as written) that LLVM refuses, for a column.
    pub operand: String,
}

/// Why LLVM-22 would refuse the instruction `text` (mnemonic and operands, LLVM syntax) on
/// `processor` (when known), or `None`.
pub fn refused_form(processor: Option<&str>, text: &str) -> Option<Refusal> {
    let text = text.trim();
    let (mnemonic, operands) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let refuse = |message: String, operand: String| Some(Refusal { message, operand });
    if let Some(code) = reserved_source(operands) {
        return refuse(
            format!(
                "`{text}`: scalar source encoding {code} is reserved{} (llvm-objdump-22: invalid instruction encoding)",
                processor.map(|p| format!(" on {p}")).unwrap_or_default()
            ),
            format!("src_{code}"),
        );
    }
    if mnemonic == "s_delay_alu" && operands.contains("/* invalid") {
        return refuse(
            format!(
                "`{text}`: an s_delay_alu field names no dependency (instid0/instid1 take 0-11, instskip 0-5; llvm-objdump-22 prints the field as invalid)"
            ),
            operands.split("/*").next().unwrap_or(operands).to_string(),
        );
    }
    if mnemonic.starts_with("s_") && operands.contains("src_lds_direct") {
        return refuse(
            format!(
                "`{text}`: `src_lds_direct` as a scalar ALU operand, which takes SGPRs and constants only (llvm-objdump-22: invalid register, operand has 'SReg_32' register class)"
            ),
            "src_lds_direct".to_string(),
        );
    }
    if abs_on_integer(mnemonic, operands) {
        return refuse(
            format!(
                "`{text}`: `abs` (|x|) on an operand of an integer op, which has no such modifier (llvm-objdump-22: invalid instruction encoding)"
            ),
            "|".to_string(),
        );
    }
    if let Some(p) =
        processor.filter(|p| matches!(*p, "gfx90a" | "gfx940" | "gfx941" | "gfx942" | "gfx950"))
    {
        if let Some(tuple) = odd_tuple(operands) {
            return refuse(
                format!(
                    "`{text}`: register tuple `{tuple}` starts at an odd register; {p} takes VGPR and AGPR tuples at even registers only (llvm-objdump-22: invalid instruction encoding)"
                ),
                tuple,
            );
        }
    }
    None
}

/// The number of a source the decoder could only print as `src_N` (no name: reserved).
fn reserved_source(operands: &str) -> Option<u32> {
    operands
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find_map(|w| w.strip_prefix("src_")?.parse().ok())
}

/// An `|x|` operand on a vector op with no floating-point type in its name (`v_add3_u32`,
/// `v_and_b32_e64`): llvm-mc-22 refuses `abs` on each (gfx9 to gfx12). `v_cndmask_*`
/// takes it (its sources are selected bits, modifiers allowed).
fn abs_on_integer(mnemonic: &str, operands: &str) -> bool {
    if !mnemonic.starts_with("v_") || mnemonic.starts_with("v_cndmask") {
        return false;
    }
    let float = mnemonic.split('_').any(|t| {
        let t = t.strip_prefix('b').unwrap_or(t);
        t.strip_prefix('f')
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
            || t == "fp8"
            || t == "bf8"
    });
    !float && operands.contains('|')
}

/// The first `v[a:b]` or `a[a:b]` whose first register `a` is odd.
fn odd_tuple(operands: &str) -> Option<String> {
    let mut rest = operands;
    while let Some(i) = rest.find('[') {
        let file = rest[..i].chars().last();
        let after = &rest[i + 1..];
        let end = after.find(']')?;
        let inside = &after[..end];
        if matches!(file, Some('v' | 'a')) {
            if let Some((first, _)) = inside.split_once(':') {
                if first.trim().parse::<u32>().is_ok_and(|r| r % 2 == 1) {
                    return Some(format!("{}[{inside}]", file.unwrap_or('v')));
                }
            }
        }
        rest = &after[end..];
    }
    None
}
