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

/// The Triton code objects of tests/fixtures/triton (`<gfx>/<kernel>/<kernel>.hsaco`), which
/// have no committed listing: the live test compares them.
fn triton_fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/triton");
    let mut out = Vec::new();
    for gfx in std::fs::read_dir(&root).expect("triton fixtures") {
        for k in std::fs::read_dir(gfx.expect("entry").path()).expect("dir") {
            let k = k.expect("entry").path();
            let name = k.file_name().expect("name").to_string_lossy().to_string();
            out.push(k.join(format!("{name}.hsaco")));
        }
    }
    out.sort();
    out
}

/// `llvm-objdump-22 -d --mcpu=GFX FILE` (with `--mattr=+real-true16` on gfx12, which the decoder
/// reads as true16 as LLVM reads gfx11 by default), or why it could not run.
fn live_objdump(file: &Path, gfx: &str) -> Result<String, String> {
    let mut args = vec!["-d".to_string(), format!("--mcpu={gfx}")];
    if gfx.starts_with("gfx12") {
        args.push("--mattr=+real-true16".into());
    }
    let out = std::process::Command::new("llvm-objdump-22")
        .args(&args)
        .arg(file)
        .output()
        .map_err(|e| format!("llvm-objdump-22 not runnable ({e})"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compare every code object in `files` with `reference(file, processor)`'s listing;
/// returns (instructions compared, mismatches, files of generations without a table).
fn compare(
    files: &[PathBuf],
    reference: &dyn Fn(&Path, &str) -> Result<String, String>,
) -> (usize, Vec<String>, Vec<String>) {
    let (mut compared, mut mismatches, mut unsupported) = (0usize, Vec::new(), Vec::new());
    for path in files {
        let bytes = std::fs::read(path).expect("read");
        let name = path.to_string_lossy().to_string();
        let objs = match read_code_objects(&name, &bytes, None) {
            Ok(o) => o,
            Err(e) => {
                mismatches.push(e.to_string());
                continue;
            }
        };
        for obj in objs {
            if !shadersim_codeobj::decode::supports(&obj.processor) {
                unsupported.push(format!("{name} ({})", obj.processor));
                continue;
            }
            let dis = match reference(path, &obj.processor) {
                Ok(d) => d,
                Err(e) => {
                    mismatches.push(format!("{name}: no reference: {e}"));
                    continue;
                }
            };
            let reference = objdump_lines(&dis);
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
    (compared, mismatches, unsupported)
}

/// With llvm-objdump-22 on PATH, it is run on every fixture and the decoder must agree with it
/// (so a stale committed `.dis` cannot hide a difference); without it, skipped with the reason.
#[test]
fn decoded_instructions_equal_live_llvm_objdump() {
    // On CI (`CI` set) a missing llvm-objdump-22 fails: .ci/run installs llvm-22.
    let present = shadersim_testkit::tools::runs("llvm-objdump-22");
    if !shadersim_testkit::tools::require(present, "llvm-objdump-22", "llvm-22") {
        return;
    }
    let mut files = fixtures();
    files.extend(triton_fixtures());
    let (compared, mismatches, unsupported) = compare(&files, &live_objdump);
    eprintln!(
        "live llvm-objdump-22: compared {compared} instructions, {} mismatches",
        mismatches.len()
    );
    assert!(unsupported.is_empty(), "{unsupported:?}");
    assert!(
        mismatches.is_empty(),
        "{}",
        mismatches[..mismatches.len().min(40)].join("\n")
    );
}

/// Extra corpus for a one-off check: every `*.co` under `$CODEOBJ_CORPUS` against live
/// llvm-objdump-22 (`cargo test -p shadersim-codeobj --test objdump_agreement -- --ignored`).
#[test]
#[ignore = "needs a corpus of code objects outside the repository ($CODEOBJ_CORPUS) and llvm-objdump-22; a one-off check, the fixtures are compared by the tests above"]
fn corpus_from_environment_equals_live_llvm_objdump() {
    let Ok(dir) = std::env::var("CODEOBJ_CORPUS") else {
        eprintln!("skipped: CODEOBJ_CORPUS is not set");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "co"))
        .collect();
    files.sort();
    let (compared, mismatches, unsupported) = compare(&files, &live_objdump);
    eprintln!("corpus: {} files, compared {compared} instructions, {} mismatches, unsupported {unsupported:?}", files.len(), mismatches.len());
    for m in mismatches.iter().take(60) {
        eprintln!("{m}");
    }
    assert!(mismatches.is_empty());
}

#[test]
fn decoded_instructions_equal_llvm_objdump() {
    let committed = |path: &Path, _: &str| {
        std::fs::read_to_string(format!("{}.dis", path.display())).map_err(|e| e.to_string())
    };
    let (compared, mismatches, unsupported) = compare(&fixtures(), &committed);
    eprintln!(
        "compared {compared} instructions, {} mismatches",
        mismatches.len()
    );
    assert!(
        unsupported.is_empty(),
        "fixtures of generations without a table: {unsupported:?}"
    );
    assert!(
        mismatches.is_empty(),
        "{}",
        mismatches[..mismatches.len().min(40)].join("\n")
    );
    assert!(compared > 1000, "only {compared} instructions compared");
}

/// One-off check of single encodings: each line of `$DECODE_CASES` is `processor<TAB>hex
/// dwords (space-separated)<TAB>what llvm-mc-22 -disassemble printed` (`invalid`: LLVM refuses
/// it, so must the decoder; further columns are ignored); mismatches are printed
/// (`cargo test -p shadersim-codeobj --test objdump_agreement -- --ignored cases --nocapture`).
#[test]
#[ignore = "needs a file of encodings made outside the repository ($DECODE_CASES) with llvm-mc-22; a one-off check of random encodings"]
fn cases_from_environment_equal_llvm_mc() {
    let Ok(file) = std::env::var("DECODE_CASES") else {
        eprintln!("skipped: DECODE_CASES is not set");
        return;
    };
    let text = std::fs::read_to_string(file).expect("cases");
    let (mut compared, mut bad) = (0usize, Vec::new());
    for line in text.lines() {
        let c: Vec<&str> = line.split('\t').collect();
        let words: Vec<u8> = c[1]
            .split(' ')
            .flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes())
            .collect();
        compared += 1;
        match shadersim_codeobj::decode::decode(c[0], &words, 0) {
            Err(_) if c[2] == "invalid" => {}
            Ok(d) if d.len() == 1 && d[0].text == c[2] => {}
            Ok(d) => bad.push(format!(
                "{} {}: decoded {:?}, llvm `{}`",
                c[0],
                c[1],
                d.iter().map(|x| &x.text).collect::<Vec<_>>(),
                c[2]
            )),
            Err(e) => bad.push(format!(
                "{} {}: error {}, llvm `{}`",
                c[0], c[1], e.message, c[2]
            )),
        }
    }
    eprintln!("cases: compared {compared}, {} mismatches", bad.len());
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(bad.is_empty());
}
