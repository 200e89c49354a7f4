//! A code object as the `llvm-objdump -d` listing shadersim-asm already reads: one
//! `<name>:` block per function, each instruction with its address, its dwords and, for a
//! branch, the `<name+0xoff>` it jumps to.

use crate::decode::{decode, Decoded};
use crate::elf::{CodeObject, Function};
use crate::error::CodeObjError;
use std::fmt::Write;

/// The decoded functions of a code object.
#[derive(Debug, Clone)]
pub struct DecodedObject {
    /// `(function name, its instructions)` in address order.
    pub functions: Vec<(String, Vec<Decoded>)>,
    /// The listing text (llvm-objdump's layout).
    pub text: String,
}

/// Decode every function of `obj` and print the listing.
pub fn decode_object(obj: &CodeObject) -> Result<DecodedObject, CodeObjError> {
    let mut text = String::new();
    let short = obj.file.rsplit('/').next().unwrap_or(&obj.file);
    let _ = writeln!(
        text,
        "\n{short}:\tfile format elf64-amdgpu\n\nDisassembly of section .text:"
    );
    let mut functions = Vec::new();
    for f in &obj.functions {
        let decoded = decode(&obj.processor, &f.code, f.address).map_err(|e| {
            CodeObjError::whole(
                &obj.file,
                format!(
                    "function `{}` at address 0x{:x}: {}",
                    f.name,
                    f.address.wrapping_add(e.offset as u64),
                    e.message
                ),
            )
        })?;
        check_runnable(obj, f, &decoded)?;
        let _ = writeln!(text, "\n{:016x} <{}>:", f.address, f.name);
        for d in &decoded {
            let hex: Vec<String> = d.words.iter().map(|w| format!("{w:08X}")).collect();
            let mut line = format!("\t{:<58} // {:012X}: {}", d.text, d.address, hex.join(" "));
            if let Some(t) = d.target {
                let _ = write!(line, " <{}+0x{:x}>", f.name, t.wrapping_sub(f.address));
            }
            text.push_str(&line);
            text.push('\n');
        }
        functions.push((f.name.clone(), decoded));
    }
    Ok(DecodedObject { functions, text })
}

/// Code no wave can run is an error at its instruction: `v_illegal` (what zeroed or damaged
/// code decodes as on gfx10+: the GPU traps on it), or a kernel whose last instruction is not
/// one after which no wave runs on (`s_endpgm`, a jump, a return), so its `s_endpgm` lies past
/// the end of its symbol, or it has none.
fn check_runnable(obj: &CodeObject, f: &Function, decoded: &[Decoded]) -> Result<(), CodeObjError> {
    let at = |d: &Decoded, what: String| {
        CodeObjError::whole(
            &obj.file,
            format!("function `{}` at address 0x{:x}: {what}", f.name, d.address),
        )
    };
    if let Some((d, why)) = decoded
        .iter()
        .find_map(|d| crate::rejected::rejected(&obj.processor, d).map(|why| (d, why)))
    {
        return Err(at(d, why));
    }
    if let Some(d) = decoded.iter().find(|d| d.text == "v_illegal") {
        let words: Vec<String> = d.words.iter().map(|w| format!("{w:08X}")).collect();
        return Err(at(
            d,
            format!(
                "`v_illegal` ({}): an illegal instruction (the GPU traps on it), zeroed or damaged code",
                words.join(" ")
            ),
        ));
    }
    let Some(last) = decoded.last() else {
        return Ok(());
    };
    let mnemonic = last.text.split_whitespace().next().unwrap_or("");
    let ends = mnemonic.starts_with("s_endpgm") || matches!(mnemonic, "s_branch" | "s_setpc_b64");
    if f.descriptor.is_some() && !ends {
        return Err(at(
            last,
            format!(
                "kernel `{}` ends at `{}` with no `s_endpgm` after it: a wave would run past its last instruction (truncated or damaged code)",
                f.name, last.text
            ),
        ));
    }
    Ok(())
}
