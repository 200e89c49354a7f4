//! GPU generations and targets (`gfx900`, `gfx1100`, ...).

use std::fmt;
use std::str::FromStr;

/// An AMD GPU instruction-set generation. The ISA of one generation is the
/// same for all its chips as far as shadersim's tables are concerned; chip
/// differences that matter for timing (f64 rate, register file size) live in
/// the architecture models, not here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GfxGen {
    /// TeraScale VLIW (LLVM's R600 backend: R700, Evergreen, Northern
    /// Islands). Its instructions live in crates/r600's own table, not in
    /// the GCN/RDNA table, so it is not in [`GfxGen::ALL`].
    TeraScale,
    /// GCN 1.0 (Southern Islands: Tahiti, Pitcairn, ...): gfx6.
    Gfx6,
    /// GCN 2.0 (Sea Islands: Bonaire, Hawaii, ...): gfx7.
    Gfx7,
    /// GCN 3/4 (Volcanic Islands, Polaris): gfx8.
    Gfx8,
    /// GCN 5 (Vega): gfx9.
    Gfx9,
    /// RDNA 1 and 2: gfx10.
    Gfx10,
    /// RDNA 3 and 3.5: gfx11.
    Gfx11,
    /// RDNA 4: gfx12.
    Gfx12,
}

impl GfxGen {
    /// Every generation of the GCN/RDNA instruction table, oldest first.
    pub const ALL: [GfxGen; 7] = [
        GfxGen::Gfx6,
        GfxGen::Gfx7,
        GfxGen::Gfx8,
        GfxGen::Gfx9,
        GfxGen::Gfx10,
        GfxGen::Gfx11,
        GfxGen::Gfx12,
    ];

    /// The generation number as in `gfxN` (6..=12; 0 for TeraScale, which
    /// has no `gfx` number).
    pub fn number(self) -> u8 {
        match self {
            GfxGen::TeraScale => 0,
            GfxGen::Gfx6 => 6,
            GfxGen::Gfx7 => 7,
            GfxGen::Gfx8 => 8,
            GfxGen::Gfx9 => 9,
            GfxGen::Gfx10 => 10,
            GfxGen::Gfx11 => 11,
            GfxGen::Gfx12 => 12,
        }
    }

    /// The generation with number `n` (6..=12).
    pub fn from_number(n: u32) -> Option<GfxGen> {
        GfxGen::ALL.into_iter().find(|g| u32::from(g.number()) == n)
    }

    /// A bit for sets of table generations (`1 << (n - 6)`; none for
    /// TeraScale, which the table does not describe).
    pub fn bit(self) -> u8 {
        match self {
            GfxGen::TeraScale => 0,
            g => 1 << (g.number() - 6),
        }
    }

    /// True for the GCN generations (wave64 only, SIMD16, 4-clock issue cadence).
    pub fn is_gcn(self) -> bool {
        matches!(
            self,
            GfxGen::Gfx6 | GfxGen::Gfx7 | GfxGen::Gfx8 | GfxGen::Gfx9
        )
    }

    /// The generation whose wait-counter layout this one's waits use: its
    /// own, except TeraScale, which has no counter-wait instruction: the
    /// fetch-clause waits shadersim synthesizes for it are vmcnt waits laid
    /// out as gfx6's.
    pub fn wait_layout(self) -> GfxGen {
        match self {
            GfxGen::TeraScale => GfxGen::Gfx6,
            g => g,
        }
    }

    /// Whether the generation runs wave32 code (RDNA, gfx10 on).
    pub fn has_wave32(self) -> bool {
        matches!(self, GfxGen::Gfx10 | GfxGen::Gfx11 | GfxGen::Gfx12)
    }

    /// Whether the hardware hands a wave its workgroup ids in trap temporaries rather than in
    /// SGPRs the kernel descriptor enables (LLVM AMDGPU `FeatureArchitectedSGPRs`, gfx12):
    /// `ttmp9` holds the id in x, `ttmp7` those in y (bits 15:0) and z (bits 31:16).
    pub fn has_architected_workgroup_ids(self) -> bool {
        matches!(self, GfxGen::Gfx12)
    }

    /// Whether Mesa RADV 22.3's "Subgroups per SIMD" statistic counts
    /// wave32-sized waves (gfx10 on: a wave64 counts twice); on GCN it
    /// states the hardware's waves per SIMD.
    pub fn radv_counts_wave32_units(self) -> bool {
        self.has_wave32()
    }

    /// The marketing family, for reports.
    pub fn family(self) -> &'static str {
        match self {
            GfxGen::TeraScale => "TeraScale",
            GfxGen::Gfx6 => "GCN 1",
            GfxGen::Gfx7 => "GCN 2",
            GfxGen::Gfx8 => "GCN 3",
            GfxGen::Gfx9 => "GCN 5",
            GfxGen::Gfx10 => "RDNA 1/2",
            GfxGen::Gfx11 => "RDNA 3",
            GfxGen::Gfx12 => "RDNA 4",
        }
    }
}

impl fmt::Display for GfxGen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GfxGen::TeraScale => write!(f, "terascale"),
            g => write!(f, "gfx{}", g.number()),
        }
    }
}

/// A concrete GPU target as compilers name it: `gfx900`, `gfx1030`,
/// `gfx1100`, optionally with feature suffixes (`gfx90a:xnack-`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Target {
    /// The processor name without features, e.g. `gfx1030`.
    pub name: String,
    /// Its generation.
    pub gen: GfxGen,
}

impl Target {
    /// Whether the processor's VGPRs and AGPRs form one register file allocated together
    /// (the AGPRs from `accum_offset` on): gfx90a and gfx94x/gfx95x, CDNA 2 and later (LLVM
    /// AMDGPU `FeatureGFX90AInsts`, `getTotalNumVGPRs`). gfx908 (CDNA 1) keeps them apart.
    pub fn has_unified_agprs(&self) -> bool {
        self.name.starts_with("gfx90a")
            || self.name.starts_with("gfx94")
            || self.name.starts_with("gfx95")
    }
}

/// A target name that is not a known `gfxNNN` processor or family.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown GPU target `{0}` (expected a name such as gfx900, gfx1030, gfx1100, gfx1200, vega10, navi21)")]
pub struct UnknownTarget(pub String);

/// TeraScale (R600 backend) processor names LLVM's `-mcpu` accepts for the
/// chips shadersim models: R700 (`rv770`, `rv740`), Evergreen (`cypress`,
/// `juniper`, `redwood`) and Northern Islands VLIW4 (`cayman`).
pub const TERASCALE_CHIPS: &[&str] = &["rv770", "rv740", "cypress", "juniper", "redwood", "cayman"];

/// Whether a target is a TeraScale (VLIW) chip.
pub fn is_terascale(target: &Target) -> bool {
    target.gen == GfxGen::TeraScale
}

/// Chip family names (as Mesa's `RADV_FORCE_FAMILY` and drivers print them)
/// and the processor each one is.
const FAMILY_NAMES: &[(&str, &str)] = &[
    ("tahiti", "gfx600"),
    ("pitcairn", "gfx601"),
    ("verde", "gfx601"),
    ("oland", "gfx602"),
    ("hainan", "gfx602"),
    ("bonaire", "gfx704"),
    ("hawaii", "gfx701"),
    ("kaveri", "gfx700"),
    ("kabini", "gfx703"),
    ("tonga", "gfx802"),
    ("iceland", "gfx802"),
    ("carrizo", "gfx801"),
    ("fiji", "gfx803"),
    ("polaris10", "gfx803"),
    ("polaris11", "gfx803"),
    ("polaris12", "gfx803"),
    ("vegam", "gfx803"),
    ("stoney", "gfx810"),
    ("vega10", "gfx900"),
    ("vega12", "gfx904"),
    ("vega20", "gfx906"),
    ("raven", "gfx902"),
    ("raven2", "gfx909"),
    ("renoir", "gfx90c"),
    ("aldebaran", "gfx90a"),
    ("aqua_vanjaram", "gfx942"),
    ("navi10", "gfx1010"),
    ("navi12", "gfx1011"),
    ("navi14", "gfx1012"),
    ("navi21", "gfx1030"),
    ("navi22", "gfx1031"),
    ("navi23", "gfx1032"),
    ("navi24", "gfx1034"),
    ("vangogh", "gfx1033"),
    ("rembrandt", "gfx1035"),
    ("raphael", "gfx1036"),
    ("navi31", "gfx1100"),
    ("navi32", "gfx1101"),
    ("navi33", "gfx1102"),
    ("phoenix", "gfx1103"),
    ("navi44", "gfx1200"),
    ("navi48", "gfx1201"),
];

impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let base = s
            .trim()
            .split(':')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if let Some(chip) = TERASCALE_CHIPS.iter().find(|c| **c == base) {
            // TeraScale programs are read by shadersim-r600, never by the
            // GCN table (`GfxGen::wait_layout` gives the layout of the
            // clause waits the reader synthesizes).
            return Ok(Target {
                name: (*chip).to_string(),
                gen: GfxGen::TeraScale,
            });
        }
        let proc_name = FAMILY_NAMES
            .iter()
            .find(|(family, _)| *family == base)
            .map(|(_, gfx)| (*gfx).to_string())
            .unwrap_or(base);
        let digits = proc_name
            .strip_prefix("gfx")
            .ok_or_else(|| UnknownTarget(s.to_string()))?;
        // gfxNNN: the generation is the number without its last two
        // characters (minor and stepping, the stepping may be a hex letter:
        // gfx90a, gfx90c).
        if digits.len() < 3 || !digits.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(UnknownTarget(s.to_string()));
        }
        let major: u32 = digits[..digits.len() - 2]
            .parse()
            .map_err(|_| UnknownTarget(s.to_string()))?;
        let gen = GfxGen::from_number(major).ok_or_else(|| UnknownTarget(s.to_string()))?;
        Ok(Target {
            name: proc_name,
            gen,
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A set of generations, as the instruction table stores validity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GenSet(pub u8);

impl GenSet {
    /// Every generation.
    pub const ALL: GenSet = GenSet(0x7f);

    /// Does the set hold `gen`?
    pub fn contains(self, gen: GfxGen) -> bool {
        self.0 & gen.bit() != 0
    }

    /// Parse the table's compressed form: `6-9,10,12`.
    pub fn parse(s: &str) -> Option<GenSet> {
        let mut bits = 0u8;
        for part in s.split(',') {
            let part = part.trim();
            let (lo, hi) = match part.split_once('-') {
                Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
                None => {
                    let n: u32 = part.parse().ok()?;
                    (n, n)
                }
            };
            if lo > hi {
                return None;
            }
            for n in lo..=hi {
                bits |= GfxGen::from_number(n)?.bit();
            }
        }
        Some(GenSet(bits))
    }
}

impl fmt::Display for GenSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i = 0;
        let gens = GfxGen::ALL;
        while i < gens.len() {
            if !self.contains(gens[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i + 1 < gens.len() && self.contains(gens[i + 1]) {
                i += 1;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if start == i {
                write!(f, "{}", gens[i].number())?;
            } else {
                write!(f, "{}-{}", gens[start].number(), gens[i].number())?;
            }
            i += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_to_generations() {
        let cases = [
            ("gfx600", GfxGen::Gfx6),
            ("gfx701", GfxGen::Gfx7),
            ("gfx803", GfxGen::Gfx8),
            ("gfx900", GfxGen::Gfx9),
            ("gfx90a:xnack-", GfxGen::Gfx9),
            ("gfx90c", GfxGen::Gfx9),
            ("gfx940", GfxGen::Gfx9),
            ("gfx941", GfxGen::Gfx9),
            ("gfx942:sramecc+:xnack-", GfxGen::Gfx9),
            ("aldebaran", GfxGen::Gfx9),
            ("gfx1030", GfxGen::Gfx10),
            ("gfx1100", GfxGen::Gfx11),
            ("gfx1151", GfxGen::Gfx11),
            ("gfx1201", GfxGen::Gfx12),
            ("vega10", GfxGen::Gfx9),
            ("navi21", GfxGen::Gfx10),
            ("NAVI31", GfxGen::Gfx11),
        ];
        for (name, gen) in cases {
            assert_eq!(name.parse::<Target>().unwrap().gen, gen, "{name}");
        }
        assert_eq!("vega10".parse::<Target>().unwrap().name, "gfx900");
        // CDNA processors keep their own names (their models and matrix data are keyed by them).
        for (name, proc_name) in [
            ("gfx90a:xnack-", "gfx90a"),
            ("gfx940", "gfx940"),
            ("gfx941", "gfx941"),
            ("gfx942:sramecc+:xnack-", "gfx942"),
            ("aqua_vanjaram", "gfx942"),
        ] {
            assert_eq!(name.parse::<Target>().unwrap().name, proc_name, "{name}");
        }
        for bad in ["", "gfx", "gfx5", "gfx1300", "sm_80", "gfx9x9!"] {
            assert!(bad.parse::<Target>().is_err(), "{bad}");
        }
    }

    #[test]
    fn gen_sets_round_trip() {
        for s in ["6-12", "6-9", "10-12", "6-8,10", "9", "6,8,10,12"] {
            assert_eq!(GenSet::parse(s).unwrap().to_string(), s);
        }
        assert!(GenSet::parse("5-7").is_none());
        assert!(GenSet::parse("9-6").is_none());
        assert!(GenSet::parse("x").is_none());
    }
}
