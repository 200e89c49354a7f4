//! The GPU a file is for: the one it names, or a guess from its encodings,
//! operands and mnemonics.

use super::*;

/// The target the file names: `.amdgcn_target "...--gfx900..."` (or
/// `.amd_amdgpu_isa`, which llc prints for the Mesa triple).
pub(super) fn declared_target(text: &str) -> Option<Target> {
    for line in text.lines() {
        let t = line.trim();
        if let Some(target) = asic_target(t) {
            return Some(target);
        }
        if let Some(target) = compiled_for(t) {
            return Some(target);
        }
        if let Some(rest) = t
            .strip_prefix(".amdgcn_target")
            .or_else(|| t.strip_prefix(".amd_amdgpu_isa"))
        {
            let name = rest.trim().trim_matches('"');
            let gfx = name.rsplit("--").next().unwrap_or(name);
            if let Ok(target) = gfx.parse() {
                return Some(target);
            }
        }
    }
    None
}

/// The GPU of a header comment naming what compiled the listing for which
/// processor, as `shadersim compile` writes it: `; main.frag compiled by
/// Mesa RADV 25.0.7 for gfx1100 (AMD Radeon ...)`. The processor is the
/// word after the last ` for ` following ` compiled by `.
fn compiled_for(t: &str) -> Option<Target> {
    let comment = t.strip_prefix(';').or_else(|| t.strip_prefix("//"))?;
    let (_, by) = comment.split_once(" compiled by ")?;
    let (_, gpu) = by.rsplit_once(" for ")?;
    gpu.split_whitespace().next()?.parse().ok()
}

/// Mnemonics that exist only from a given generation on, used to guess
/// the target of files that do not name it (objdump and RADV output).
const TARGET_EVIDENCE: &[(&str, &str)] = &[
    ("s_wait_loadcnt", "gfx1200"),
    ("s_wait_kmcnt", "gfx1200"),
    ("s_wait_dscnt", "gfx1200"),
    ("s_wait_samplecnt", "gfx1200"),
    ("s_wait_alu", "gfx1200"),
    ("s_wait_storecnt", "gfx1200"),
    ("s_wait_bvhcnt", "gfx1200"),
    ("s_delay_alu", "gfx1100"),
    ("v_dual_", "gfx1100"),
    ("s_sendmsg_rtn", "gfx1100"),
    ("global_load_b", "gfx1100"),
    ("s_load_b", "gfx1100"),
    ("buffer_load_b", "gfx1100"),
    ("ds_load_b", "gfx1100"),
    ("s_waitcnt_vscnt", "gfx1030"),
    ("v_add_nc_u32", "gfx1030"),
    ("s_clause", "gfx1030"),
    ("v_add_co_ci_u32", "gfx1030"),
    ("buffer_gl0_inv", "gfx1030"),
    ("v_add_co_u32", "gfx900"),
    ("global_load_", "gfx900"),
    ("v_add_u32", "gfx900"),
    ("v_add_i32", "gfx600"),
];

/// The processor a generation is guessed as.
const GEN_TARGETS: [&str; 7] = [
    "gfx600", "gfx701", "gfx803", "gfx900", "gfx1030", "gfx1100", "gfx1200",
];

/// The processor a header line names: RGA/SP3's `asic(GFX10.3)`, or a
/// `gfxNNN` word in a comment a tool printed (`; gfx1030`).
fn header_target(line: &str, code_end: usize) -> Option<(Target, String)> {
    let t = line.trim();
    if let Some(target) = asic_target(t) {
        return Some((target, t.to_string()));
    }
    let comment = &line[code_end.min(line.len())..];
    comment
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 6 && w.to_ascii_lowercase().starts_with("gfx"))
        .find_map(|w| w.to_ascii_lowercase().parse().ok())
        .map(|target| (target, comment.trim().to_string()))
}

/// The processor of RGA's (SP3's) `asic(GFX10.3)` header line.
fn asic_target(t: &str) -> Option<Target> {
    let inner = t.strip_prefix("asic(")?.strip_suffix(')')?;
    let lower = inner.to_ascii_lowercase();
    let name = match lower.as_str() {
        "gfx6" => "gfx600".to_string(),
        "gfx7" => "gfx701".to_string(),
        "gfx8" => "gfx803".to_string(),
        "gfx9" => "gfx900".to_string(),
        "gfx10" | "gfx10.1" => "gfx1010".to_string(),
        "gfx10.3" => "gfx1030".to_string(),
        "gfx11" => "gfx1100".to_string(),
        "gfx12" => "gfx1200".to_string(),
        other => other.replace('.', ""),
    };
    name.parse().ok()
}

/// Register names only wave32 code uses (the 32-bit halves of VCC and
/// EXEC as whole operands): gfx10 and later.
fn wave32_operand(code: &str) -> Option<&'static str> {
    ["vcc_lo", "exec_lo", "vcc_hi", "exec_hi"]
        .into_iter()
        .find(|r| {
            code.match_indices(r).any(|(i, _)| {
                let before = code[..i].chars().last();
                let after = code[i + r.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
}

/// The generations of a set, as `gfx8-9` / `gfx10` / `gfx6-7, gfx10`.
fn gens_text(bits: u8) -> String {
    let nums: Vec<u8> = GfxGen::ALL
        .iter()
        .filter(|g| bits & g.bit() != 0)
        .map(|g| g.number())
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let mut j = i;
        while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("gfx{}", nums[i])
        } else {
            format!("gfx{}-{}", nums[i], nums[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// What one pass over a listing's code lines shows about its generation.
struct Scan {
    /// The generations every mnemonic seen is printed for (narrowed as lines come).
    gens: u8,
    /// The first line of each TARGET_EVIDENCE mnemonic: (rank, line, word).
    hits: Vec<(usize, u32, String)>,
    /// The first code line and its mnemonic.
    first_word: Option<(u32, String)>,
    /// A gfx8 carry-out add (`v_add_u32_e32 v0, vcc, ...`) was seen.
    saw_gfx8_carry: bool,
    /// Lines with machine words, and how many of them fit each generation.
    encoded: u32,
    encoded_by: [u32; 7],
    first_encoded: Option<u32>,
    /// The first wave32 operand and its line.
    wave32: Option<(u32, &'static str)>,
}

/// A scan ends early on a header that declares the target.
enum Scanned {
    Declared((Target, u32, String)),
    Seen(Scan),
}

/// Read `text`'s code lines (for a RADV dump, only its `disasm:` sections) for evidence of
/// the generation, or the target a header line declares.
fn scan_lines(text: &str, dialect: Dialect, aco_bare: bool) -> Scanned {
    let table = InstrTable::builtin();
    let mut gens = shadersim_isa::target::GenSet::ALL.0;
    let mut hits: Vec<(usize, u32, String)> = Vec::new();
    let mut first_word: Option<(u32, String)> = None;
    let mut saw_gfx8_carry = false;
    let mut encoded = 0u32;
    let mut encoded_by = [0u32; 7];
    let mut first_encoded: Option<u32> = None;
    let mut wave32: Option<(u32, &'static str)> = None;
    // Only the lines the reader will take as code count: RADV dumps also
    // hold ACO's own IR, printed with ACO's (gfx9-style) names.
    let mut in_disasm = false;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let code_end = comment_start(line).unwrap_or(line.len());
        if let Some((target, what)) = header_target(line, code_end) {
            return Scanned::Declared((target.clone(), n, format!("the listing says `{what}`")));
        }
        if dialect == Dialect::Aco && !aco_bare {
            let t = line.trim();
            if t == "disasm:" {
                in_disasm = true;
                continue;
            }
            if t.is_empty() {
                in_disasm = false;
            }
            if !in_disasm {
                continue;
            }
        }
        let Some(word) = line.split_whitespace().next() else {
            continue;
        };
        let Some(info) = table.lookup(word) else {
            continue;
        };
        let code = &line[..code_end];
        if wave32.is_none() {
            wave32 = wave32_operand(code).map(|r| (n, r));
        }
        let words = match dialect {
            Dialect::Aco => line.get(code_end + 1..).and_then(parse_hex_words),
            Dialect::Objdump | Dialect::Rga => line
                .find("//")
                .and_then(|c| parse_objdump_comment(&line[c + 2..]))
                .map(|(_, w)| w),
            Dialect::Llvm => None,
        };
        if let Some(words) = words {
            let fits =
                shadersim_isa::gen_encoding::gens_encoding(info.mnemonic, info.encoding, &words);
            encoded += 1;
            first_encoded.get_or_insert(n);
            for (k, g) in GfxGen::ALL.iter().enumerate() {
                if fits.contains(*g) {
                    encoded_by[k] += 1;
                }
            }
        }
        let printed = info.printed_gens().0;
        if gens & printed != 0 {
            gens &= printed;
        }
        if first_word.is_none() {
            first_word = Some((n, word.to_string()));
        }
        // gfx8 prints the carry-out add with its VCC operand:
        // `v_add_u32_e32 v0, vcc, s2, v0`; gfx9 has no carry there.
        let gfx8_carry = word.starts_with("v_add_u32") && line.contains(", vcc,");
        if gfx8_carry && gens & GfxGen::Gfx8.bit() != 0 {
            gens = GfxGen::Gfx8.bit();
            saw_gfx8_carry = true;
        }
        if let Some(rank) = TARGET_EVIDENCE
            .iter()
            .position(|(p, _)| word.starts_with(p))
        {
            if !hits.iter().any(|(r, _, _)| *r == rank) {
                hits.push((rank, n, word.to_string()));
            }
        }
    }
    Scanned::Seen(Scan {
        gens,
        hits,
        first_word,
        saw_gfx8_carry,
        encoded,
        encoded_by,
        first_encoded,
        wave32,
    })
}

/// Guess the GPU of a file that does not name it, from what the listing
/// carries, strongest first:
/// 1. a header naming the processor (RGA's `asic(...)`, a `gfxNNN` comment);
/// 2. the machine words of each instruction: the generations whose
///    encoding of that mnemonic can be those words
///    ([`shadersim_isa::gen_encoding`]); the generations that encode the
///    most lines so win;
/// 3. wave32-only operands (`vcc_lo`, `exec_lo`): gfx10 or later;
/// 4. the mnemonics: generations whose compilers print every mnemonic of
///    the file (the table's `gens`), gfx8's carry syntax, and the first
///    mnemonic of [`TARGET_EVIDENCE`] that fits;
/// 5. else the oldest remaining generation.
///
/// Returns the target, the line of the deciding evidence and the evidence
/// in words for the warning.
pub(super) fn guess_target(
    text: &str,
    dialect: Dialect,
    aco_bare: bool,
) -> Option<(Target, u32, String)> {
    let Scan {
        mut gens,
        hits,
        first_word,
        saw_gfx8_carry,
        encoded,
        encoded_by,
        first_encoded,
        wave32,
    } = match scan_lines(text, dialect, aco_bare) {
        Scanned::Declared(t) => return Some(t),
        Scanned::Seen(s) => s,
    };
    let mut evidence = Vec::new();
    let mut decided_at = None;
    // The machine words narrowed the candidates.
    let mut by_words = false;
    if encoded > 0 {
        let most = encoded_by.iter().copied().max().unwrap_or(0);
        let by_encoding: u8 = GfxGen::ALL
            .iter()
            .enumerate()
            .filter(|(k, _)| most > 0 && encoded_by[*k] == most)
            .fold(0, |bits, (_, g)| bits | g.bit());
        if by_encoding != 0 {
            evidence.push(format!(
                "{most} of its {encoded} encodings are {} encodings",
                gens_text(by_encoding)
            ));
            decided_at = first_encoded;
            by_words = true;
            gens = if gens & by_encoding != 0 {
                gens & by_encoding
            } else {
                by_encoding
            };
        }
    }
    if let Some((line, reg)) = wave32 {
        let rdna = GfxGen::Gfx10.bit() | GfxGen::Gfx11.bit() | GfxGen::Gfx12.bit();
        if gens & rdna != 0 {
            if gens & !rdna != 0 {
                evidence.push(format!("wave32 operand `{reg}` (line {line})"));
                decided_at.get_or_insert(line);
            }
            gens &= rdna;
        }
    }
    // The most telling mnemonic that fits the final candidates (evidence
    // seen before later lines narrowed them may no longer fit).
    let fitting = hits
        .iter()
        .filter_map(|(rank, line, word)| {
            let target: Target = TARGET_EVIDENCE[*rank].1.parse().ok()?;
            (gens & target.gen.bit() != 0).then_some((*rank, *line, word, target))
        })
        .min_by_key(|(rank, _, _, _)| *rank);
    if let Some((_, line, word, target)) = fitting {
        if gens != target.gen.bit() || evidence.is_empty() {
            evidence.push(format!(
                "`{word}` (line {line}) first appears in {}",
                target.gen
            ));
        }
        return Some((target, decided_at.unwrap_or(line), evidence.join("; ")));
    }
    // Nothing tells the remaining candidates apart. Code that is valid on
    // gfx9 and on an older GCN generation is read as gfx9: gfx6-8 code
    // shows itself by its carry syntax (`v_add_i32`, `v_add_u32 ..., vcc`)
    // and gfx6-7 by their own mnemonics, and gfx8 and gfx9 encode the
    // instructions both have alike (checked with llvm-mc-19 on every
    // instruction of the ACO fixtures). Otherwise, when the machine words
    // fit several generations equally, the newest wins: far more listings
    // come from RDNA than from Southern Islands (a short listing whose
    // encodings fit gfx6-7 and gfx10 alike is gfx10's), and the warning
    // names the others. Without machine words the mnemonics alone leave
    // wide sets (`gfx9-12` for most code), where the oldest stays the
    // choice.
    let gfx9_rule = gens & GfxGen::Gfx9.bit() != 0
        && gens & !(GfxGen::Gfx10.bit() | GfxGen::Gfx11.bit() | GfxGen::Gfx12.bit())
            != GfxGen::Gfx9.bit();
    let tie_by_encoding = by_words && !gfx9_rule;
    let chosen = if gfx9_rule {
        GfxGen::Gfx9
    } else if tie_by_encoding {
        *GfxGen::ALL.iter().rev().find(|g| gens & g.bit() != 0)?
    } else {
        *GfxGen::ALL.iter().find(|g| gens & g.bit() != 0)?
    };
    let target: Target = GEN_TARGETS[usize::from(chosen.number() - 6)].parse().ok()?;
    let (line, _) = first_word?;
    if saw_gfx8_carry {
        evidence.push("its `v_add_u32 ..., vcc, ...` carry-out adds are gfx8 syntax".to_string());
    } else if !tie_by_encoding && (evidence.is_empty() || gens.count_ones() > 1) {
        evidence.push(format!(
            "every mnemonic in it is printed for {} alike; {chosen} chosen",
            gens_text(gens)
        ));
    } else if gens.count_ones() > 1 {
        evidence.push(format!(
            "it reads alike as {}; {chosen} chosen, the newest",
            gens_text(gens)
        ));
    }
    Some((target, decided_at.unwrap_or(line), evidence.join("; ")))
}
