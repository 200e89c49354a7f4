//! A code object as the `llvm-objdump -d` listing shadersim-asm already reads: one
//! `<name>:` block per function, each instruction with its address, its dwords and, for a
//! branch, the `<name+0xoff>` it jumps to.

use crate::decode::{decode, Decoded};
use crate::elf::CodeObject;
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
