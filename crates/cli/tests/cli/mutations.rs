//! A mutation harness over real inputs (issue 35's "done when"): real
//! compiler listings of every dialect and real hints files, each changed in
//! one random place the way a hand edit, a truncated download or a
//! different compiler version changes them, then given to `analyze`; and
//! real code objects of four GPUs damaged in each of their parts (issue 47).
//!
//! Every run must end on its own within a time bound with exit code 0, 1 or
//! 2; a failed run must say why on standard error without a panic; a run
//! that succeeds must print only finite numbers. The generator is a fixed
//! xorshift: the same cases run every time, and a failure names its case,
//! the mutation and the file it wrote, so it reproduces by hand.

use crate::command;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Listings the harness mutates: small real programs of each dialect the
/// reader knows (LLVM, objdump, ACO, RADV capture, r600), with the
/// architecture each is analyzed for.
const LISTINGS: &[(&str, &str)] = &[
    ("tests/fixtures/llvm/gfx900/loop_sum.s", "gfx900"),
    ("tests/fixtures/llvm/gfx900/matmul_tile.s", "gfx900"),
    ("tests/fixtures/llvm/gfx1100/ooo_chase.s", "gfx1100"),
    ("tests/fixtures/llvm/gfx1200/ooo_chase.s", "gfx1200"),
    ("tests/fixtures/objdump/gfx1030/bvh_traverse.dis", "gfx1030"),
    ("tests/fixtures/aco/gfx1100/blur.ps.s", "gfx1100"),
    ("tests/fixtures/llvm/gfx1100/nested_loops.s", "gfx1100"),
    (
        "tests/fixtures/r600/blur_loop.cypress.clang-22.s",
        "cypress",
    ),
];

/// Hints files with the listing they describe.
const HINTS: &[(&str, &str, &str)] = &[
    (
        "examples/lighting_ps.txt",
        "examples/lighting_ps.toml",
        "gfx900",
    ),
    (
        "tests/fixtures/llvm/gfx1100/ooo_chase.s",
        "examples/ooo_chase/gfx1100.toml",
        "gfx1100",
    ),
];

/// Mutated listings and hints files per input.
const CASES_PER_LISTING: usize = 12;
const CASES_PER_HINTS: usize = 16;

/// The longest one run may take. A debug build simulates every fixture
/// here in well under a second; a mutation that makes a run take this long
/// is a hang (or a bound the input can push without limit).
const RUN_BOUND: Duration = Duration::from_secs(60);

/// Values a hand edit or a broken generator puts where a number was.
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-4",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "1e308",
    "1e7",
    "0.5",
    "nan",
    "inf",
    "0x7fffffff",
];

/// Characters a damaged file holds.
const JUNK: &[&str] = &[
    "\t", ",", "[", "]", ":", "\"", "é", "\u{0}", "v", "s[", "0x", "-", ";", "#", "\u{feff}",
];

/// Values put in place of a hints value.
const HINT_VALUES: &[&str] = &[
    "-4",
    "0",
    "1",
    "10000000",
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "4294967295",
    "18446744073709551616",
    "\"x\"",
    "\"0..100000\"",
    "\"1000000..0\"",
    "\"list:0\"",
    "true",
    "[]",
    "{}",
];

/// A fixed xorshift generator: the cases are the same on every run.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The byte ranges of the tokens of `line` made of ASCII alphanumerics,
/// `_`, `.` and `-`.
fn tokens(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let word = c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
    out
}

/// One random edit of a listing; returns the new text and what was done.
fn mutate_listing(text: &str, rng: &mut Xorshift) -> (String, String) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Instruction lines: indented and not a directive or comment.
    let code: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            l.starts_with(char::is_whitespace)
                && !t.is_empty()
                && !t.starts_with(['.', ';', '/', '#'])
        })
        .map(|(i, _)| i)
        .collect();
    let at = if code.is_empty() {
        rng.below(lines.len())
    } else {
        code[rng.below(code.len())]
    };
    let what = match rng.below(8) {
        0 => {
            lines.remove(at);
            "deleted".to_string()
        }
        1 => {
            let copies = 1 + rng.below(200);
            let line = lines[at].clone();
            for _ in 0..copies {
                lines.insert(at, line.clone());
            }
            format!("repeated {copies} times")
        }
        2 => {
            let other = code.get(rng.below(code.len())).copied().unwrap_or(0);
            lines.swap(at, other);
            format!("swapped with line {}", other + 1)
        }
        3 => {
            let line = &lines[at];
            let mut cut = rng.below(line.len() + 1);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            lines[at] = line[..cut].to_string();
            format!("cut at byte {cut}")
        }
        4 | 5 => {
            // A number or register index changed: the most common damage,
            // and the one that reaches the engine's limits.
            let toks = tokens(&lines[at]);
            let numeric: Vec<_> = toks
                .iter()
                .filter(|(s, e)| lines[at][*s..*e].bytes().any(|b| b.is_ascii_digit()))
                .collect();
            if let Some(&&(s, e)) = numeric.get(rng.below(numeric.len())) {
                let old = lines[at][s..e].to_string();
                let prefix: String = old
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                let new = if prefix.is_empty() || prefix.starts_with("0x") {
                    rng.pick(NUMBERS).to_string()
                } else {
                    format!(
                        "{prefix}{}",
                        rng.pick(&["255", "256", "1000", "4294967296"])
                    )
                };
                lines[at].replace_range(s..e, &new);
                format!("`{old}` -> `{new}`")
            } else {
                lines[at].push_str(", 0");
                "operand added".to_string()
            }
        }
        6 => {
            // Another line's mnemonic on this line's operands.
            let other = code.get(rng.below(code.len())).copied().unwrap_or(at);
            let theirs = tokens(&lines[other]).first().copied();
            let ours = tokens(&lines[at]).first().copied();
            if let (Some((s1, e1)), Some((s2, e2))) = (theirs, ours) {
                let mnemonic = lines[other][s1..e1].to_string();
                lines[at].replace_range(s2..e2, &mnemonic);
                format!("mnemonic `{mnemonic}` from line {}", other + 1)
            } else {
                "nothing".to_string()
            }
        }
        _ => {
            let junk = rng.pick(JUNK);
            let line = &lines[at];
            let mut pos = rng.below(line.len() + 1);
            while !line.is_char_boundary(pos) {
                pos -= 1;
            }
            lines[at].insert_str(pos, junk);
            format!("{junk:?} inserted at byte {pos}")
        }
    };
    (lines.join("\n") + "\n", format!("line {}: {what}", at + 1))
}

/// One random edit of a hints file.
fn mutate_hints(text: &str, rng: &mut Xorshift) -> (String, String) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let values: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains('=') && !l.trim_start().starts_with('#'))
        .map(|(i, _)| i)
        .collect();
    let at = values[rng.below(values.len())];
    let what = match rng.below(5) {
        0 => {
            let removed = lines.remove(at);
            format!("`{}` deleted", removed.trim())
        }
        1 => {
            // A table header repeated: a second hint for the same place.
            let header = (0..=at).rev().find(|&i| lines[i].starts_with('['));
            let Some(h) = header else {
                return (text.to_string(), "nothing".to_string());
            };
            let block: Vec<String> = lines[h..=at].to_vec();
            for (k, l) in block.into_iter().enumerate() {
                lines.insert(at + 1 + k, l);
            }
            format!("table at line {} repeated", h + 1)
        }
        _ => {
            let line = &lines[at];
            let eq = line.find('=').unwrap();
            let key = line[..eq].trim().to_string();
            let new = rng.pick(HINT_VALUES);
            lines[at] = format!("{key} = {new}");
            format!("`{key} = {new}`")
        }
    };
    (lines.join("\n") + "\n", format!("line {}: {what}", at + 1))
}

/// Runs `shadersim ARGS` with a time bound and checks the promise: exit
/// 0, 1 or 2, no panic, an explanation on failure, finite numbers on
/// success. Returns a description of what broke it, if anything.
fn check_run(args: &[&str], outcomes: &mut [usize; 3]) -> Option<String> {
    let Some(output) = command().args(args).output_within(RUN_BOUND) else {
        return Some(format!("ran over {RUN_BOUND:?}"));
    };
    let status = output.status;
    if let Some(code @ 0..=2) = status.code() {
        outcomes[code as usize] += 1;
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Some(format!("panicked: {stderr}"));
    }
    match status.code() {
        Some(0) => {
            // The text report names every number it computed; a NaN or an
            // infinity is a silently wrong answer.
            for word in stdout.split(|c: char| !c.is_ascii_alphanumeric()) {
                if word.eq_ignore_ascii_case("nan") || word.eq_ignore_ascii_case("inf") {
                    return Some(format!("non-finite number in the report:\n{stdout}"));
                }
            }
            None
        }
        Some(1 | 2) if stderr.trim().is_empty() => Some("failed with nothing on stderr".into()),
        Some(1 | 2) => None,
        other => Some(format!("exit {other:?}: {stderr}")),
    }
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shadersim-mutations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &str) -> String {
    std::fs::read_to_string(crate::root().join(path)).unwrap()
}

fn file_name(path: &str) -> &str {
    Path::new(path).file_name().unwrap().to_str().unwrap()
}

#[test]
fn mutated_listings_end_in_a_report_or_a_clear_error() {
    let dir = scratch();
    let mut rng = Xorshift(0x5eed_0035);
    let mut failures = Vec::new();
    let mut outcomes = [0usize; 3];
    for (path, arch) in LISTINGS {
        let text = read(path);
        for case in 0..CASES_PER_LISTING {
            let (mutated, what) = mutate_listing(&text, &mut rng);
            let file = dir.join(format!("{case}-{}", file_name(path)));
            std::fs::write(&file, mutated).unwrap();
            let file = file.to_str().unwrap();
            let args = ["analyze", file, "--arch", arch, "--no-latency-search"];
            if let Some(broke) = check_run(&args, &mut outcomes) {
                failures.push(format!(
                    "{path} case {case} ({what}), kept as {file}: {broke}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The harness is not vacuous: some mutations still read and run, and
    // some are refused (the counts are fixed by the seed).
    eprintln!("exit codes 0, 1, 2: {outcomes:?}");
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mutated_hints_end_in_a_report_or_a_clear_error() {
    let dir = scratch().join("hints");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Xorshift(0x4a11_0035);
    let mut failures = Vec::new();
    let mut outcomes = [0usize; 3];
    for (listing, hints, arch) in HINTS {
        let text = read(hints);
        for case in 0..CASES_PER_HINTS {
            let (mutated, what) = mutate_hints(&text, &mut rng);
            let file = dir.join(format!("{case}-{}", file_name(hints)));
            std::fs::write(&file, mutated).unwrap();
            let file = file.to_str().unwrap();
            let args = [
                "analyze",
                listing,
                "--arch",
                arch,
                "--hints",
                file,
                "--no-latency-search",
            ];
            if let Some(broke) = check_run(&args, &mut outcomes) {
                failures.push(format!(
                    "{hints} case {case} ({what}), kept as {file}: {broke}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The harness is not vacuous: some mutations still read and run, and
    // some are refused (the counts are fixed by the seed).
    eprintln!("exit codes 0, 1, 2: {outcomes:?}");
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Code objects the harness damages: clang's linked kernels for four GPUs (GCN 5, RDNA 3,
/// RDNA 4, CDNA 3), as `scripts/regen-fixtures.sh` makes them.
const CODE_OBJECTS: &[&str] = &[
    "tests/fixtures/codeobj/gfx900/loop_sum.co",
    "tests/fixtures/codeobj/gfx1100/lds_reduce.co",
    "tests/fixtures/codeobj/gfx1200/loop_sum.co",
    "tests/fixtures/codeobj/gfx942/stencil_f64.co",
];

/// The parts of a code object a damage lands in.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// The 64-byte ELF header (class, machine, flags, the section table's place and size).
    Header,
    /// A field of a section header (type, offset, size, link, name).
    Sections,
    /// A byte of the metadata note (msgpack: kernel names, counts, `.args`, sizes).
    Note,
    /// A field of a `.symtab` entry (name, type, section, value, size).
    Symbols,
    /// A byte of a kernel's 64-byte descriptor (`NAME.kd`: register counts, rsrc words).
    Descriptor,
    /// The file cut short.
    Truncation,
}

const PARTS: [Part; 6] = [
    Part::Header,
    Part::Sections,
    Part::Note,
    Part::Symbols,
    Part::Descriptor,
    Part::Truncation,
];

/// Damaged code objects per file and part.
const CASES_PER_PART: usize = 3;

/// Values written over a field: the ends of its range, sizes past the file, small numbers.
fn field_value(rng: &mut Xorshift, len: usize) -> u64 {
    match rng.below(7) {
        0 => 0,
        1 => u64::MAX,
        2 => u64::from(u32::MAX),
        3 => len as u64,
        4 => len as u64 + 1 + rng.below(4096) as u64,
        5 => rng.below(64) as u64,
        _ => rng.next(),
    }
}

/// Little-endian `value` into `bytes[at..at + width]`, as far as the file goes.
fn put(bytes: &mut [u8], at: usize, width: usize, value: u64) {
    for i in 0..width {
        if let Some(b) = bytes.get_mut(at + i) {
            *b = (value >> (8 * i)) as u8;
        }
    }
}

/// `bytes` damaged once in `part`, and what was done.
fn damage(bytes: &[u8], part: Part, rng: &mut Xorshift) -> (Vec<u8>, String) {
    use object::{Object, ObjectSection, ObjectSymbol};
    let mut out = bytes.to_vec();
    let elf = object::File::parse(bytes).expect("the fixture is an ELF file");
    let range_of = |name: &str| {
        elf.section_by_name(name)
            .and_then(|s| s.file_range())
            .unwrap_or_else(|| panic!("no {name} in the fixture"))
    };
    let len = bytes.len();
    let what = match part {
        Part::Header => {
            // ELF64: e_ident 0-15, e_type 16, e_machine 18, e_flags 48, e_shoff 40,
            // e_shentsize 58, e_shnum 60, e_shstrndx 62, or any byte of it.
            let (at, width, field) = *[
                (4usize, 1usize, "EI_CLASS"),
                (5, 1, "EI_DATA"),
                (16, 2, "e_type"),
                (18, 2, "e_machine"),
                (48, 4, "e_flags"),
                (40, 8, "e_shoff"),
                (58, 2, "e_shentsize"),
                (60, 2, "e_shnum"),
                (62, 2, "e_shstrndx"),
                (rng.below(64), 1, "a byte"),
            ]
            .get(rng.below(10))
            .unwrap();
            let v = field_value(rng, len);
            put(&mut out, at, width, v);
            format!("header {field} at {at} = {v:#x}")
        }
        Part::Sections => {
            let shoff = u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize;
            let shnum = u16::from_le_bytes(bytes[60..62].try_into().unwrap()) as usize;
            let index = rng.below(shnum);
            // Elf64_Shdr: sh_name 0, sh_type 4, sh_offset 24, sh_size 32, sh_link 40,
            // sh_entsize 56.
            let (off, width, field) = *[
                (0usize, 4usize, "sh_name"),
                (4, 4, "sh_type"),
                (24, 8, "sh_offset"),
                (32, 8, "sh_size"),
                (40, 4, "sh_link"),
                (56, 8, "sh_entsize"),
            ]
            .get(rng.below(6))
            .unwrap();
            let v = field_value(rng, len);
            put(&mut out, shoff + 64 * index + off, width, v);
            format!("section {index} {field} = {v:#x}")
        }
        Part::Note => {
            let (start, size) = range_of(".note");
            let at = start as usize + rng.below(size as usize);
            let v = rng.next() as u8;
            out[at] = v;
            format!("note byte {at:#x} = {v:#04x}")
        }
        Part::Symbols => {
            let (start, size) = range_of(".symtab");
            let index = rng.below(size as usize / 24);
            // Elf64_Sym: st_name 0, st_info 4, st_shndx 6, st_value 8, st_size 16.
            let (off, width, field) = *[
                (0usize, 4usize, "st_name"),
                (4, 1, "st_info"),
                (6, 2, "st_shndx"),
                (8, 8, "st_value"),
                (16, 8, "st_size"),
            ]
            .get(rng.below(5))
            .unwrap();
            let v = field_value(rng, len);
            put(&mut out, start as usize + 24 * index + off, width, v);
            format!("symbol {index} {field} = {v:#x}")
        }
        Part::Descriptor => {
            let kd = elf
                .symbols()
                .find(|s| s.name().is_ok_and(|n| n.ends_with(".kd")))
                .expect("a kernel descriptor symbol");
            let section = elf
                .sections()
                .find(|s| s.address() <= kd.address() && kd.address() < s.address() + s.size())
                .expect("the descriptor's section");
            let start =
                section.file_range().expect("in the file").0 + kd.address() - section.address();
            let at = start as usize + rng.below(64);
            let v = rng.next() as u8;
            out[at] = v;
            format!("descriptor byte {} = {v:#04x}", at - start as usize)
        }
        Part::Truncation => {
            let keep = rng.below(len);
            out.truncate(keep);
            format!("cut to {keep} of {len} bytes")
        }
    };
    (out, what)
}

#[test]
fn damaged_code_objects_end_in_a_report_or_a_clear_error() {
    let dir = scratch().join("codeobj");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Xorshift(0xc0de_0047);
    let mut failures = Vec::new();
    let mut outcomes = [0usize; 3];
    for path in CODE_OBJECTS {
        let bytes = std::fs::read(crate::root().join(path)).unwrap();
        for part in PARTS {
            for case in 0..CASES_PER_PART {
                let (damaged, what) = damage(&bytes, part, &mut rng);
                let file = dir.join(format!("{part:?}-{case}-{}", file_name(path)));
                std::fs::write(&file, damaged).unwrap();
                let file = file.to_str().unwrap();
                let args = ["analyze", file, "--no-latency-search"];
                if let Some(broke) = check_run(&args, &mut outcomes) {
                    failures.push(format!("{path} ({what}), kept as {file}: {broke}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Not vacuous: some damage leaves a program that runs, some is refused.
    eprintln!("exit codes 0, 1, 2: {outcomes:?}");
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
