//! Single encodings against llvm-mc-22's disassembler (llvm-objdump-22's): the operand kinds
//! the fixtures do not cover (issue 47 items 14 and 17-20: sparse-matrix index registers, matrix
//! destinations, interpolation fields, 16-bit integer literals, gfx12 cache policy and buffer
//! addresses, returning 64-bit atomics; issue 48: gfx12 real true16). The expected text is
//! LLVM's, recorded in tests/data/decode_cases.tsv by scripts/isa/gen_decode_cases.py (from
//! scripts/isa/decode_cases.in); `invalid` means LLVM refuses the encoding, so must the decoder.

use shadersim_codeobj::decode::decode;

const CASES: &str = include_str!("data/decode_cases.tsv");

#[test]
fn every_case_prints_as_llvm_mc_disassembles_it() {
    let (mut compared, mut bad) = (0usize, Vec::new());
    for line in CASES.lines().filter(|l| !l.starts_with('#')) {
        let c: Vec<&str> = line.split('\t').collect();
        let (processor, llvm) = (c[0], c[2]);
        let bytes: Vec<u8> = c[1]
            .split(' ')
            .flat_map(|w| u32::from_str_radix(w, 16).expect("hex").to_le_bytes())
            .collect();
        compared += 1;
        match (decode(processor, &bytes, 0), llvm) {
            (Err(_), "invalid") => {}
            (Ok(d), _) if d.len() == 1 && d[0].text == llvm => {}
            (Ok(d), _) => bad.push(format!(
                "{processor} {}: decoded {:?}, llvm `{llvm}`",
                c[1],
                d.iter().map(|x| &x.text).collect::<Vec<_>>()
            )),
            (Err(e), _) => bad.push(format!(
                "{processor} {}: error `{}`, llvm `{llvm}`",
                c[1], e.message
            )),
        }
    }
    assert!(compared >= 50, "only {compared} cases");
    assert!(
        bad.is_empty(),
        "{} of {compared}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The committed cases are what the script writes (when llvm-mc-22 and python3 are present).
#[test]
fn the_cases_file_is_current() {
    let present = shadersim_testkit::tools::runs("llvm-mc-22");
    if !shadersim_testkit::tools::require(present, "llvm-mc-22", "llvm-22") {
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/isa/gen_decode_cases.py"))
        .arg("--check")
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
