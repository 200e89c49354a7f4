//! Reading, merging, overriding and validating architecture models.
//!
//! This file holds the model's types and errors; `spec/load.rs` reads model
//! files (built-in or a user's, with `base` inheritance and derived
//! parameters), `spec/params.rs` applies `--set` and reads parameters, and
//! `spec/validate.rs` checks a model's consistency.

use serde::Deserialize;
use shadersim_isa::Target;
use std::collections::BTreeMap;
use std::fmt;

/// The built-in models: `(name, TOML text)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("gcn", include_str!("../../data/gcn.toml")),
    ("gfx600", include_str!("../../data/gfx600.toml")),
    ("gfx701", include_str!("../../data/gfx701.toml")),
    ("gfx803", include_str!("../../data/gfx803.toml")),
    ("gfx900", include_str!("../../data/gfx900.toml")),
    ("cdna2", include_str!("../../data/cdna2.toml")),
    ("cdna3", include_str!("../../data/cdna3.toml")),
    ("rdna1", include_str!("../../data/rdna1.toml")),
    ("rdna2", include_str!("../../data/rdna2.toml")),
    ("rdna3", include_str!("../../data/rdna3.toml")),
    ("gfx1102", include_str!("../../data/gfx1102.toml")),
    ("rdna4", include_str!("../../data/rdna4.toml")),
    ("cypress", include_str!("../../data/cypress.toml")),
    ("juniper", include_str!("../../data/juniper.toml")),
    ("redwood", include_str!("../../data/redwood.toml")),
    ("rv770", include_str!("../../data/rv770.toml")),
    ("rv740", include_str!("../../data/rv740.toml")),
    ("cayman", include_str!("../../data/cayman.toml")),
];

/// GPUs by product name (`--arch mi300a`): each a built-in model (`base`) with the product's
/// CU count, clocks, memory and caches, every number with its source (`data/products/`).
pub const PRODUCTS: &[(&str, &str)] = &[
    ("mi300x", include_str!("../../data/products/mi300x.toml")),
    ("mi300a", include_str!("../../data/products/mi300a.toml")),
    ("mi250x", include_str!("../../data/products/mi250x.toml")),
    ("mi210", include_str!("../../data/products/mi210.toml")),
    (
        "rx9070xt",
        include_str!("../../data/products/rx9070xt.toml"),
    ),
    (
        "rx7900xtx",
        include_str!("../../data/products/rx7900xtx.toml"),
    ),
    (
        "rx6900xt",
        include_str!("../../data/products/rx6900xt.toml"),
    ),
    (
        "rx5700xt",
        include_str!("../../data/products/rx5700xt.toml"),
    ),
    ("vega64", include_str!("../../data/products/vega64.toml")),
    ("mi50", include_str!("../../data/products/mi50.toml")),
    ("mi100", include_str!("../../data/products/mi100.toml")),
];

/// One number of a model and where it comes from.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "ParamFile")]
pub struct Param {
    /// The value (for a derived parameter, computed from its formula).
    pub value: f64,
    /// Where the value comes from (a seed, an AMD document, a measurement,
    /// or "assumption: ..."). Optional in a user's model file (it then
    /// names the file); required in the built-in models.
    pub source: String,
    /// A derived parameter's arithmetic over other parameters
    /// (`dram_gb_per_s * 1000 / gpu_cus / clock_mhz`, [`crate::Formula`]):
    /// the value follows its inputs after inheritance and every `--set`.
    pub formula: Option<String>,
}

/// A parameter as a model file writes it: a `value` or a `formula`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamFile {
    value: Option<f64>,
    formula: Option<String>,
    #[serde(default)]
    source: String,
}

impl TryFrom<ParamFile> for Param {
    type Error = String;
    fn try_from(p: ParamFile) -> Result<Param, String> {
        match (p.value, p.formula) {
            (Some(value), None) => Ok(Param {
                value,
                source: p.source,
                formula: None,
            }),
            (None, Some(f)) => {
                crate::Formula::parse(&f)?;
                Ok(Param {
                    value: 0.0,
                    source: p.source,
                    formula: Some(f),
                })
            }
            (Some(_), Some(_)) => Err("a parameter has a `value` or a `formula`, not both".into()),
            (None, None) => Err("a parameter needs a `value` (or a `formula`)".into()),
        }
    }
}

/// The `memory` switch of a model file and of `--set memory=...`.
pub const MEMORY_KEY: &str = "memory";

/// How an execution unit behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// Busy for the op's cost; the issuing wave waits until it is done.
    Pipe,
    /// In-order service; the wave goes on, its counters fall when served
    /// (plus the unit's latency).
    Queue,
}

/// Whether each SIMD has its own instance of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitScope {
    /// One per SIMD.
    Simd,
    /// Shared by the CU (`count` instances, SIMDs split evenly among them).
    Cu,
}

/// An execution unit.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Pipe or queue.
    pub kind: UnitKind,
    /// Per SIMD or per CU.
    pub per: UnitScope,
    /// Parameter with the number of instances (per CU units), default 1.
    pub count: Option<String>,
    /// Parameter with the latency added after service.
    pub latency: Option<String>,
    /// Parameter limiting ops of this unit in flight per wave.
    pub wave_in_flight: Option<String>,
    /// Parameter limiting ops of this unit in flight per CU.
    pub cu_in_flight: Option<String>,
    /// The order results come back in: `"cu"` (one in-order queue for
    /// every wave of the CU: a wave's result also waits behind older
    /// results of other waves) or `"wave"` (in order per wave and counter
    /// only). Default: as served, after the latency.
    pub return_order: Option<ReturnOrder>,
    /// Parameter with the number of CUs that share this unit in the real
    /// GPU (`cu_count`: seed 004's export path). Its cost rule charges one
    /// CU's share when all of them use it; with `[dispatch] cus = N`
    /// simulated CUs, one instance serves all N at 1/N of that cost each.
    pub shared: Option<String>,
}

impl UnitSpec {
    /// The parameters the unit names (count, latency, in-flight limits, sharing).
    pub fn params(&self) -> impl Iterator<Item = &String> {
        [
            &self.count,
            &self.latency,
            &self.wave_in_flight,
            &self.cu_in_flight,
            &self.shared,
        ]
        .into_iter()
        .flatten()
    }
}

/// The order a queue's results come back in (rdna-model.md 3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReturnOrder {
    /// One in-order return queue for every wave of the CU.
    Cu,
    /// In order per wave and counter; waves do not wait for each other.
    Wave,
}

/// Where one instruction class goes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassSpec {
    /// Issue category, or `free` for ops that take no issue slot.
    pub issue: String,
    /// Execution unit (none for free ops).
    pub unit: Option<String>,
    /// Cost: a parameter name, or a rule (`vmem_rate`, `smem_dwords`, `export_bits`, `sleep`,
    /// `lds_bytes`).
    pub cost: Option<String>,
    /// Parameter with the result latency the register scoreboard charges
    /// (clocks from issue until a dependent op may issue); none: the
    /// result is ready when the unit is done.
    pub latency: Option<String>,
    /// A second unit the op also occupies (the transcendental unit beside
    /// the VALU), for `also_cost` clocks.
    pub also: Option<String>,
    /// Parameter with the clocks the `also` unit is busy.
    pub also_cost: Option<String>,
}

/// The `[issue]` table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IssueSpec {
    /// Categories: a SIMD issues at most one op of each per turn.
    pub categories: Vec<String>,
    /// Arbitration inside a category (`oldest`).
    pub arbitration: String,
    /// Per-wave register scoreboard: an op waits until the registers it
    /// reads have been written (each class's `latency`).
    #[serde(default)]
    pub scoreboard: bool,
    /// Categories whose ops wait until the wave's outstanding VALU VGPR
    /// writes have completed (RDNA's implicit `va_vdst(0)`).
    #[serde(default)]
    pub wait_valu_vgpr_writes: Vec<String>,
    /// Categories whose ops wait until the wave's outstanding VALU SGPR
    /// writes have completed (RDNA's implicit `va_sdst(0)`).
    #[serde(default)]
    pub wait_valu_sgpr_writes: Vec<String>,
}

/// A model file as written (variants leave out what they inherit).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArchFile {
    base: Option<String>,
    // Optional in a file with a `base` (inherited; a user file's name
    // defaults to the file's stem), required without one.
    name: Option<String>,
    description: Option<String>,
    isa: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, Param>,
    issue: Option<IssueSpec>,
    #[serde(default)]
    units: BTreeMap<String, UnitSpec>,
    #[serde(default)]
    classes: BTreeMap<String, ClassSpec>,
    ray_accelerator: Option<crate::RayAccelerator>,
    cache: Option<crate::CacheSpec>,
    /// `[[no_allocate]]`: present in a file, it replaces its base's list.
    no_allocate: Option<Vec<crate::NoAllocateSpec>>,
    /// `"flat"`: the cache hierarchy is off (every vector request takes the
    /// `[cache] flat_latency` parameter), as `--set memory=flat`;
    /// `"hierarchy"`: on.
    memory: Option<String>,
}

/// A complete, validated architecture model.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchSpec {
    /// Model name (`gcn`, `gfx900`).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// The ISA target used to read files that do not name theirs.
    pub isa: Target,
    /// Every number.
    pub params: BTreeMap<String, Param>,
    /// Issue rules.
    pub issue: IssueSpec,
    /// Units by name.
    pub units: BTreeMap<String, UnitSpec>,
    /// Class patterns (`valu.trans`, `vmem.*`) to their mapping.
    pub classes: BTreeMap<String, ClassSpec>,
    /// The Ray Accelerator (`[ray_accelerator]`): the rates the `ray_node`
    /// cost rule charges and `shadersim rt` reads. None: the model has none.
    pub ray_accelerator: Option<crate::RayAccelerator>,
    /// The memory hierarchy (`[cache]`), if the model describes one.
    pub cache: Option<crate::CacheSpec>,
    /// Instruction modifiers under which a cache level does not allocate (`[[no_allocate]]`).
    pub no_allocate: Vec<crate::NoAllocateSpec>,
}

/// Cost rules the engine implements besides fixed clocks.
pub const COST_RULES: &[&str] = &[
    "vmem_rate",
    "smem_dwords",
    "export_bits",
    "sleep",
    "lds_bytes",
    "ray_node",
    "fetch_dwords",
    MATRIX_CYCLES_RULE,
    MATRIX_ISSUE_RULE,
];

/// The data rule for matrix instructions: the clocks one wave's instruction takes on the model's
/// processor (`isa`), from the ISA crate's matrix table. Usable as a class's `cost`, `latency`
/// and `also_cost`.
pub const MATRIX_CYCLES_RULE: &str = "matrix_cycles";

/// The data rule for the VALU issue a matrix instruction holds: its co-execution delay from the
/// ISA crate's matrix table, or all its cycles when VALU work cannot run beside it.
pub const MATRIX_ISSUE_RULE: &str = "matrix_issue";

/// Problems with a model or an override.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchError {
    /// `--arch` names no built-in model and is not a file.
    #[error("unknown architecture `{name}`; {known}")]
    Unknown {
        /// What was asked for.
        name: String,
        /// The built-in names.
        known: String,
    },
    /// A model file does not parse.
    #[error("{file}:{line}:{column}: error: {message}")]
    Parse {
        /// File name.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A model is inconsistent.
    #[error("architecture `{name}`: {message}")]
    Invalid {
        /// Model name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// `--set` names no parameter or has a bad value.
    #[error("{0}")]
    Override(String),
}

impl ArchSpec {
    /// The built-in model for a target: its own variant if there is one
    /// (`gfx900`, `gfx1102`), else the family model (`gcn` for gfx6-9,
    /// `rdna1` for gfx10.1, `rdna2` for gfx10.3, `rdna3` for gfx11, `rdna4`
    /// for gfx12).
    pub fn for_target(target: &Target) -> Option<ArchSpec> {
        ArchSpec::builtin(&target.name)
            .ok()
            .or_else(|| ArchSpec::builtin(ArchSpec::family_of(target)?).ok())
    }

    /// The family model that runs a target's code, if there is one
    /// (`data/names.toml`).
    pub fn family_of(target: &Target) -> Option<&'static str> {
        crate::names::family_model(&target.name)
    }

    /// The ISA target an `--arch` value stands for: a model's ISA, a
    /// family alias (`gcn3`, `data/names.toml`) or a processor name.
    pub fn target_for_name(name: &str) -> Option<Target> {
        if let Ok(model) = ArchSpec::builtin(name).or_else(|_| ArchSpec::product(name)) {
            return Some(model.isa);
        }
        crate::names::alias_target(name)
            .unwrap_or(name)
            .parse()
            .ok()
    }

    fn invalid(&self, message: String) -> ArchError {
        ArchError::Invalid {
            name: self.name.clone(),
            message,
        }
    }
}

impl fmt::Display for ArchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.description)
    }
}

mod load;
mod params;
mod validate;

#[cfg(test)]
mod tests {
    use super::*;
    use shadersim_isa::InstrClass;

    #[test]
    fn builtins_load_and_map_every_class() {
        for (name, _) in BUILTIN {
            let a = ArchSpec::builtin(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(a.unmapped_classes(), Vec::<InstrClass>::new(), "{name}");
            for (p, v) in &a.params {
                assert!(!v.source.is_empty(), "{name}.{p}");
            }
        }
    }

    #[test]
    fn variants_inherit_and_override() {
        let gcn = ArchSpec::builtin("gcn").unwrap();
        let hawaii = ArchSpec::builtin("gfx701").unwrap();
        assert_eq!(gcn.param("valu_f64_clocks"), Some(64.0));
        assert_eq!(hawaii.param("valu_f64_clocks"), Some(32.0));
        assert_eq!(hawaii.param("valu_clocks"), Some(4.0));
        assert_eq!(hawaii.isa.name, "gfx701");
    }

    #[test]
    fn class_patterns_pick_the_longest_match() {
        let gcn = ArchSpec::builtin("gcn").unwrap();
        assert_eq!(
            gcn.class(InstrClass::VmemCache).unwrap().cost.as_deref(),
            Some("vmem_cache_clocks")
        );
        assert_eq!(
            gcn.class(InstrClass::VmemImageSample)
                .unwrap()
                .cost
                .as_deref(),
            Some("vmem_rate")
        );
        assert_eq!(gcn.class(InstrClass::WaitLoadcnt).unwrap().issue, "free");
    }

    #[test]
    fn overrides_are_checked() {
        let mut gcn = ArchSpec::builtin("gcn").unwrap();
        gcn.set("vmem_latency", "0").unwrap();
        assert_eq!(gcn.param("vmem_latency"), Some(0.0));
        let e = gcn.set("frobs", "3").unwrap_err().to_string();
        assert!(
            e.contains("known parameters") && e.contains("vmem_latency"),
            "{e}"
        );
        assert!(gcn.set("vmem_latency", "-1").is_err());
        assert!(gcn.set("vmem_latency", "x").is_err());
    }

    #[test]
    fn bad_models_are_rejected_with_positions() {
        let e = ArchSpec::from_toml(
            "m.toml",
            "base = \"gcn\"\nname = \"x\"\ndescription = \"d\"\nisa = \"gfx900\"\nfrob = 1\n",
        )
        .unwrap_err();
        assert!(matches!(e, ArchError::Parse { line: 5, .. }), "{e}");
        let e = ArchSpec::from_toml(
            "m.toml",
            "base = \"gcn\"\nname = \"x\"\ndescription = \"d\"\nisa = \"gfx900\"\n[classes]\nvalu = { issue = \"valu\", unit = \"nope\" }\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("unknown unit `nope`"), "{e}");
        let e = ArchSpec::from_toml(
            "m.toml",
            "base = \"gcn\"\nname = \"x\"\ndescription = \"d\"\nisa = \"gfx900\"\n[params]\nvalu_clocks = { value = 4, source = \"\" }\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("no source"), "{e}");
    }

    /// gfx11's `dlc` keeps an access out of the Infinity Cache; RDNA 2's `dlc` is another thing
    /// and RDNA 4 has none, so neither has the policy; a variant inherits it and a model naming a
    /// level it does not have is refused.
    #[test]
    fn no_allocate_policies_are_per_isa_and_name_real_levels() {
        let rdna3 = ArchSpec::builtin("rdna3").unwrap();
        let got: Vec<_> = rdna3
            .no_allocate
            .iter()
            .map(|p| (p.level.as_str(), p.flag.as_str()))
            .collect();
        assert_eq!(got, vec![("mall", "dlc")]);
        assert!(ArchSpec::builtin("gfx1102").unwrap().no_allocate == rdna3.no_allocate);
        for name in ["rdna2", "rdna4", "gcn", "cdna3"] {
            assert!(
                ArchSpec::builtin(name).unwrap().no_allocate.is_empty(),
                "{name}"
            );
        }
        let e = ArchSpec::from_toml(
            "m.toml",
            "base = \"rdna3\"\nname = \"x\"\n[[no_allocate]]\nlevel = \"l3\"\nflag = \"dlc\"\nsource = \"s\"\n",
        )
        .unwrap_err();
        assert!(e.to_string().contains("unknown cache level `l3`"), "{e}");
    }

    /// Atomics bypass the first levels on every AMD target (LLVM's memory model): every built-in
    /// model with a hierarchy sends them from its L2 on, the vector path's tail.
    #[test]
    fn atomics_walk_the_vector_path_from_the_l2() {
        for (name, _) in BUILTIN {
            let a = ArchSpec::builtin(name).unwrap();
            let Some(c) = &a.cache else { continue };
            let atomic = c
                .atomic
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no atomic path"));
            let from = c.vector.iter().position(|l| l == "l2").expect("an l2");
            assert_eq!(atomic[..], c.vector[from..], "{name}");
        }
    }

    #[test]
    fn vmem_rates_match_the_memory_model_table() {
        let gcn = ArchSpec::builtin("gcn").unwrap();
        for entry in shadersim_mem::GCN_RATE_TABLE.iter() {
            assert_eq!(
                gcn.param(entry.key),
                Some(f64::from(entry.value)),
                "{}",
                entry.key
            );
        }
    }
}
