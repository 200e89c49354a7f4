//! The decoder against llvm-objdump-22: for every code-object fixture, each instruction of every
//! function (inside its symbol's size; objdump also prints the padding after the last one) must
//! print as llvm-objdump printed it. The committed `.dis` files are the reference, so the test
//! needs no LLVM; when llvm-objdump-22 is on PATH it is run too and must agree with them.

use shadersim_codeobj::{listing::decode_object, read_code_objects};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/codeobj");
    let mut out = Vec::new();
    for gfx in std::fs::read_dir(&root).expect("fixtures") {
        let gfx = gfx.expect("entry").path();
        for f in std::fs::read_dir(&gfx).expect("dir") {
            let p = f.expect("entry").path();
            let name = p.to_string_lossy().to_string();
            if name.ends_with(".co") || name.ends_with(".o") && !name.ends_with(".host.o") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// address -> (instruction text, dwords) of an objdump listing.
fn objdump_lines(dis: &str) -> HashMap<u64, (String, String)> {
    let mut out = HashMap::new();
    for l in dis.lines() {
        let Some((inst, rest)) = l.split_once("//") else {
            continue;
        };
        let Some((addr, enc)) = rest.trim().split_once(':') else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let enc = enc.trim().split(" <").next().unwrap_or("").to_string();
        out.insert(addr, (inst.trim().to_string(), enc));
    }
    out
}

#[test]
fn decoded_instructions_equal_llvm_objdump() {
    let (mut compared, mut mismatches) = (0usize, Vec::new());
    let mut unsupported = Vec::new();
    for path in fixtures() {
        let bytes = std::fs::read(&path).expect("read");
        let name = path.to_string_lossy().to_string();
        let dis = std::fs::read_to_string(format!("{name}.dis")).expect("committed .dis");
        let objs = read_code_objects(&name, &bytes, None).expect("reads");
        let reference = objdump_lines(&dis);
        for obj in objs {
            if !shadersim_codeobj::decode::supports(&obj.processor) {
                unsupported.push(format!("{name} ({})", obj.processor));
                continue;
            }
            let decoded = match decode_object(&obj) {
                Ok(d) => d,
                Err(e) => {
                    mismatches.push(e.to_string());
                    continue;
                }
            };
            for (_, insts) in &decoded.functions {
                for d in insts {
                    compared += 1;
                    let enc: Vec<String> = d.words.iter().map(|w| format!("{w:08X}")).collect();
                    let mine = (d.text.clone(), enc.join(" "));
                    match reference.get(&d.address) {
                        Some(r) if *r == mine => {}
                        r => mismatches.push(format!(
                            "{name} 0x{:x}: decoded `{}` [{}], objdump {:?}",
                            d.address, mine.0, mine.1, r
                        )),
                    }
                }
            }
        }
    }
    eprintln!(
        "compared {compared} instructions, {} mismatches",
        mismatches.len()
    );
    for u in &unsupported {
        eprintln!("not decoded (no table for this generation yet): {u}");
    }
    assert!(
        mismatches.is_empty(),
        "{}",
        mismatches[..mismatches.len().min(40)].join("\n")
    );
    assert!(
        unsupported.is_empty(),
        "fixtures of generations without a table: {unsupported:?}"
    );
    assert!(compared > 1000, "only {compared} instructions compared");
}
