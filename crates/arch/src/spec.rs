//! Reading, merging, overriding and validating architecture models.

use serde::Deserialize;
use shadersim_isa::{InstrClass, Target};
use std::collections::BTreeMap;
use std::fmt;

/// The built-in models: `(name, TOML text)`.
pub const BUILTIN: &[(&str, &str)] = &[
    ("gcn", include_str!("../data/gcn.toml")),
    ("gfx600", include_str!("../data/gfx600.toml")),
    ("gfx701", include_str!("../data/gfx701.toml")),
    ("gfx803", include_str!("../data/gfx803.toml")),
    ("gfx900", include_str!("../data/gfx900.toml")),
    ("rdna1", include_str!("../data/rdna1.toml")),
    ("rdna2", include_str!("../data/rdna2.toml")),
    ("rdna3", include_str!("../data/rdna3.toml")),
    ("gfx1102", include_str!("../data/gfx1102.toml")),
    ("rdna4", include_str!("../data/rdna4.toml")),
    ("cypress", include_str!("../data/cypress.toml")),
    ("juniper", include_str!("../data/juniper.toml")),
    ("redwood", include_str!("../data/redwood.toml")),
    ("rv770", include_str!("../data/rv770.toml")),
    ("rv740", include_str!("../data/rv740.toml")),
    ("cayman", include_str!("../data/cayman.toml")),
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
    ray_accelerator: Option<String>,
    cache: Option<crate::CacheSpec>,
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
    /// The Ray Accelerator generation whose rates the `ray_node` cost rule
    /// uses: a key of `crates/rt/data/ray_accelerator.toml` (the one table
    /// `shadersim rt` reads too).
    pub ray_accelerator: Option<String>,
    /// The memory hierarchy (`[cache]`), if the model describes one.
    pub cache: Option<crate::CacheSpec>,
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
];

/// Problems with a model or an override.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchError {
    /// `--arch` names no built-in model and is not a file.
    #[error("unknown architecture `{name}`; built-in models: {known}")]
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
    /// Names and descriptions of the built-in models.
    pub fn builtin_list() -> Vec<(String, String)> {
        BUILTIN
            .iter()
            .filter_map(|(name, _)| {
                ArchSpec::builtin(name)
                    .ok()
                    .map(|a| (a.name, a.description))
            })
            .collect()
    }

    /// A built-in model by name.
    pub fn builtin(name: &str) -> Result<ArchSpec, ArchError> {
        let text = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| ArchError::Unknown {
                name: name.to_string(),
                known: BUILTIN
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        ArchSpec::from_toml(&format!("<builtin {name}>"), text)
    }

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
        if let Ok(model) = ArchSpec::builtin(name) {
            return Some(model.isa);
        }
        crate::names::alias_target(name)
            .unwrap_or(name)
            .parse()
            .ok()
    }

    /// Parse a model from TOML text (resolving `base` against the built-ins).
    /// Every parameter needs its `source`.
    pub fn from_toml(file: &str, text: &str) -> Result<ArchSpec, ArchError> {
        ArchSpec::parse_file(file, text, false)
    }

    /// Parse a model; `user`: a parameter without a source is sourced to
    /// the file. A parameter outside its range is an error at its line.
    fn parse_file(file: &str, text: &str, user: bool) -> Result<ArchSpec, ArchError> {
        let mut parsed: ArchFile = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            ArchError::Parse {
                file: file.to_string(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        let missing = |key: &str| ArchError::Parse {
            file: file.to_string(),
            line: 1,
            column: 1,
            message: format!("a model without `base` needs `{key}`"),
        };
        if parsed.base.is_none() {
            for (key, v) in [
                ("name", &parsed.name),
                ("description", &parsed.description),
                ("isa", &parsed.isa),
            ] {
                if v.is_none() {
                    return Err(missing(key));
                }
            }
        }
        for (name, p) in &mut parsed.params {
            if user && p.source.trim().is_empty() {
                p.source = format!("model file {file}");
            }
            let rule = crate::ParamRange::of(name);
            if p.formula.is_none() && !rule.contains(p.value) {
                let (line, column) = param_position(text, name);
                return Err(ArchError::Parse {
                    file: file.to_string(),
                    line,
                    column,
                    message: format!("`{name}` = {} is out of range: it must be {rule}", p.value),
                });
            }
        }
        let base_name = parsed.base.clone();
        let mut spec = match &base_name {
            Some(base) => {
                if Some(base) == parsed.name.as_ref() {
                    return Err(ArchError::Invalid {
                        name: base.clone(),
                        message: "a model cannot be its own base".into(),
                    });
                }
                ArchSpec::builtin(base)?
            }
            None => ArchSpec {
                name: String::new(),
                description: String::new(),
                isa: Target {
                    name: "gfx900".into(),
                    gen: shadersim_isa::GfxGen::Gfx9,
                },
                params: BTreeMap::new(),
                issue: parsed.issue.clone().ok_or_else(|| ArchError::Invalid {
                    name: parsed.name.clone().unwrap_or_default(),
                    message: "a model without `base` needs an [issue] table".into(),
                })?,
                units: BTreeMap::new(),
                classes: BTreeMap::new(),
                ray_accelerator: None,
                cache: None,
            },
        };
        spec.name = match parsed.name {
            Some(n) => n,
            None => std::path::Path::new(file)
                .file_stem()
                .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned()),
        };
        if let Some(d) = parsed.description {
            spec.description = d;
        } else if let Some(base) = &base_name {
            spec.description = format!("{base} with the changes of {file}");
        }
        if let Some(isa) = parsed.isa {
            spec.isa = isa
                .parse()
                .map_err(
                    |e: shadersim_isa::target::UnknownTarget| ArchError::Invalid {
                        name: spec.name.clone(),
                        message: e.to_string(),
                    },
                )?;
        }
        let base_params: Vec<String> = spec.params.keys().cloned().collect();
        let file_params: Vec<String> = parsed.params.keys().cloned().collect();
        spec.params.extend(parsed.params);
        if let Some(issue) = parsed.issue {
            spec.issue = issue;
        }
        spec.units.extend(parsed.units);
        spec.classes.extend(parsed.classes);
        if parsed.ray_accelerator.is_some() {
            spec.ray_accelerator = parsed.ray_accelerator;
        }
        if parsed.cache.is_some() {
            spec.cache = parsed.cache;
        }
        if let Some(m) = &parsed.memory {
            spec.set_memory(m).map_err(|message| {
                let (line, column) = key_position(text, MEMORY_KEY);
                ArchError::Parse {
                    file: file.to_string(),
                    line,
                    column,
                    message,
                }
            })?;
        }
        // A name that is no parameter of the base, of the shared table of
        // ranges, or of this file's own units, classes and formulas is a
        // typo: refused, never carried along unused.
        let used = spec.referenced_params();
        for name in &file_params {
            let known = base_params.contains(name)
                || crate::ParamRange::is_listed(name)
                || used.contains(name.as_str());
            if !known {
                let (line, column) = param_position(text, name);
                return Err(ArchError::Parse {
                    file: file.to_string(),
                    line,
                    column,
                    message: format!(
                        "unknown parameter `{name}`: it is not a parameter of {} nor named by this file's units, classes, cache or formulas (`shadersim archs --params MODEL` lists them)",
                        base_name.as_deref().map_or("any model".to_string(), |b| format!("`{b}`"))
                    ),
                });
            }
        }
        spec.derive().map_err(|message| ArchError::Invalid {
            name: spec.name.clone(),
            message,
        })?;
        for name in &file_params {
            let p = &spec.params[name];
            let rule = crate::ParamRange::of(name);
            if p.formula.is_some() && !rule.contains(p.value) {
                let (line, column) = param_position(text, name);
                return Err(ArchError::Parse {
                    file: file.to_string(),
                    line,
                    column,
                    message: format!(
                        "`{name}` = {} (from its formula) is out of range: it must be {rule}",
                        p.value
                    ),
                });
            }
        }
        spec.validate()?;
        Ok(spec)
    }

    /// Parameter names the model's units, classes, cache and formulas read.
    fn referenced_params(&self) -> std::collections::BTreeSet<&str> {
        let mut used = std::collections::BTreeSet::new();
        for u in self.units.values() {
            for p in u.params() {
                used.insert(p.as_str());
            }
        }
        for c in self.classes.values() {
            for p in [&c.cost, &c.latency, &c.also_cost].into_iter().flatten() {
                used.insert(p.as_str());
            }
        }
        if let Some(c) = &self.cache {
            used.extend(c.params().map(String::as_str));
        }
        for p in self.params.values() {
            if let Some(f) = p
                .formula
                .as_deref()
                .and_then(|f| crate::Formula::parse(f).ok())
            {
                for i in f.inputs() {
                    if let Some((k, _)) = self.params.get_key_value(i) {
                        used.insert(k.as_str());
                    }
                }
            }
        }
        used
    }

    /// Recompute every derived parameter from its formula (after
    /// inheritance and after each `--set`).
    pub fn derive(&mut self) -> Result<(), String> {
        let formulas: BTreeMap<String, String> = self
            .params
            .iter()
            .filter_map(|(k, p)| p.formula.clone().map(|f| (k.clone(), f)))
            .collect();
        if formulas.is_empty() {
            return Ok(());
        }
        let mut values: BTreeMap<String, f64> = self
            .params
            .iter()
            .map(|(k, p)| (k.clone(), p.value))
            .collect();
        crate::formula::evaluate_all(&formulas, &mut values)?;
        for name in formulas.keys() {
            if let Some(p) = self.params.get_mut(name) {
                p.value = values[name];
            }
        }
        Ok(())
    }

    /// Whether the cache hierarchy serves memory requests (`memory =
    /// "hierarchy"`, the default of a model with a `[cache]`), rather than the
    /// flat latency of seed 004's model.
    pub fn hierarchy_on(&self) -> bool {
        self.cache.as_ref().is_some_and(|c| c.enabled)
    }

    /// The memory switch: `flat` turns the cache hierarchy off (every vector
    /// request takes the `[cache] flat_latency` parameter, every scalar load
    /// its unit's latency), `hierarchy` turns it on.
    pub fn set_memory(&mut self, value: &str) -> Result<(), String> {
        match (value.trim(), &mut self.cache) {
            ("flat", Some(c)) => c.enabled = false,
            ("flat", None) => {}
            ("hierarchy", Some(c)) => c.enabled = true,
            ("hierarchy", None) => {
                return Err(format!(
                    "`{}` describes no cache hierarchy; its memory is flat",
                    self.name
                ))
            }
            (other, _) => {
                return Err(format!(
                    "memory = `{other}`: expected `flat` (no caches: one latency for every request) or `hierarchy`"
                ))
            }
        }
        Ok(())
    }

    /// Parse a user's model file: as [`ArchSpec::from_toml`], but a
    /// parameter without a `source` is sourced to the file itself (a user
    /// writes `base = "gcn"` and only the numbers they change).
    pub fn from_user_toml(file: &str, text: &str) -> Result<ArchSpec, ArchError> {
        ArchSpec::parse_file(file, text, true)
    }

    /// Load `--arch` (a built-in name or a path to a `.toml` file) and
    /// apply `--set` overrides.
    pub fn load(arch: &str, overrides: &[(String, String)]) -> Result<ArchSpec, ArchError> {
        let mut spec = if arch.ends_with(".toml") || arch.contains('/') {
            let text = std::fs::read_to_string(arch).map_err(|e| ArchError::Invalid {
                name: arch.to_string(),
                message: format!("cannot read: {e}"),
            })?;
            ArchSpec::from_user_toml(arch, &text)?
        } else {
            ArchSpec::builtin(arch)?
        };
        spec.set_all(overrides)?;
        Ok(spec)
    }

    /// Apply `--set` overrides in order, the `memory` switch first (so
    /// `--set vmem_latency=900 --set memory=flat` means what it says).
    pub fn set_all(&mut self, sets: &[(String, String)]) -> Result<(), ArchError> {
        for (k, v) in sets.iter().filter(|(k, _)| k == MEMORY_KEY) {
            self.set(k, v)?;
        }
        for (k, v) in sets.iter().filter(|(k, _)| k != MEMORY_KEY) {
            self.set(k, v)?;
        }
        Ok(())
    }

    /// Override one parameter (`--set NAME=VALUE`), or switch the memory
    /// model (`--set memory=flat|hierarchy`). A derived parameter set this
    /// way keeps the value given; every other derived parameter follows
    /// its inputs.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ArchError> {
        if key == MEMORY_KEY {
            return self
                .set_memory(value)
                .map_err(|e| ArchError::Override(format!("--set {key}={value}: {e}")));
        }
        if !self.params.contains_key(key) {
            return Err(ArchError::Override(format!(
                "--set {key}: no such parameter in `{}`; known parameters: {}",
                self.name,
                self.params.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        // Value errors name this parameter's rule, nothing else.
        let rule = crate::ParamRange::of(key);
        let v: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| rule.contains(*v))
            .ok_or_else(|| {
                ArchError::Override(format!("--set {key}={value}: `{key}` must be {rule}"))
            })?;
        if let Some(p) = self.params.get_mut(key) {
            p.value = v;
            p.source = "--set on the command line".into();
            p.formula = None;
        }
        // The flat latency no longer switches the hierarchy off: a latency
        // raised never silently changes the memory model (`memory=flat`
        // does, explicitly).
        self.derive().map_err(|e| self.invalid(e))?;
        self.validate()
    }

    /// A parameter's value.
    pub fn param(&self, name: &str) -> Option<f64> {
        self.params.get(name).map(|p| p.value)
    }

    /// A parameter as a whole number (rounded), or an error naming it.
    pub fn get_u32(&self, name: &str) -> Result<u32, ArchError> {
        let v = self.param(name).ok_or_else(|| ArchError::Invalid {
            name: self.name.clone(),
            message: format!("missing parameter `{name}`"),
        })?;
        Ok(v.round().min(f64::from(u32::MAX)) as u32)
    }

    /// A parameter as a number, or an error naming it.
    pub fn get_f64(&self, name: &str) -> Result<f64, ArchError> {
        self.param(name).ok_or_else(|| ArchError::Invalid {
            name: self.name.clone(),
            message: format!("missing parameter `{name}`"),
        })
    }

    /// The mapping of an instruction class: the exact pattern, else the
    /// longest `prefix*` pattern that matches.
    pub fn class(&self, class: InstrClass) -> Option<&ClassSpec> {
        let name = class.name();
        if let Some(c) = self.classes.get(name) {
            return Some(c);
        }
        self.classes
            .iter()
            .filter_map(|(pat, c)| {
                pat.strip_suffix('*')
                    .filter(|p| name.starts_with(p))
                    .map(|p| (p.len(), c))
            })
            .max_by_key(|(len, _)| *len)
            .map(|(_, c)| c)
    }

    fn invalid(&self, message: String) -> ArchError {
        ArchError::Invalid {
            name: self.name.clone(),
            message,
        }
    }

    /// Check internal consistency: sources, references, class coverage.
    pub fn validate(&self) -> Result<(), ArchError> {
        for (name, p) in &self.params {
            if p.source.trim().is_empty() {
                return Err(self.invalid(format!("parameter `{name}` has no source")));
            }
            let rule = crate::ParamRange::of(name);
            if !rule.contains(p.value) {
                return Err(self.invalid(format!(
                    "parameter `{name}` = {} is out of range: it must be {rule}",
                    p.value
                )));
            }
        }
        for (uname, u) in &self.units {
            for p in u.params() {
                if !self.params.contains_key(p) {
                    return Err(
                        self.invalid(format!("unit `{uname}` names missing parameter `{p}`"))
                    );
                }
            }
        }
        for (pat, c) in &self.classes {
            if c.issue != "free" && !self.issue.categories.contains(&c.issue) {
                return Err(self.invalid(format!(
                    "class `{pat}` uses unknown issue category `{}`",
                    c.issue
                )));
            }
            if let Some(u) = &c.unit {
                if !self.units.contains_key(u) {
                    return Err(self.invalid(format!("class `{pat}` uses unknown unit `{u}`")));
                }
            }
            if c.issue != "free" && c.unit.is_none() {
                return Err(self.invalid(format!(
                    "class `{pat}` issues on `{}` but names no unit",
                    c.issue
                )));
            }
            if let Some(cost) = &c.cost {
                if !COST_RULES.contains(&cost.as_str()) && !self.params.contains_key(cost) {
                    return Err(self.invalid(format!(
                        "class `{pat}` has cost `{cost}`, which is neither a rule nor a parameter"
                    )));
                }
            }
            for p in [&c.latency, &c.also_cost].into_iter().flatten() {
                if !self.params.contains_key(p) {
                    return Err(
                        self.invalid(format!("class `{pat}` names missing parameter `{p}`"))
                    );
                }
            }
            if let Some(u) = &c.also {
                if !self.units.contains_key(u) {
                    return Err(self.invalid(format!("class `{pat}` also uses unknown unit `{u}`")));
                }
                if c.also_cost.is_none() {
                    return Err(self.invalid(format!(
                        "class `{pat}` also uses unit `{u}` but names no `also_cost`"
                    )));
                }
            }
        }
        if let Some(c) = &self.cache {
            c.check().map_err(|m| self.invalid(m))?;
            for p in c.params() {
                if !self.params.contains_key(p) {
                    return Err(self.invalid(format!("[cache] names missing parameter `{p}`")));
                }
            }
        }
        for cat in self
            .issue
            .wait_valu_vgpr_writes
            .iter()
            .chain(&self.issue.wait_valu_sgpr_writes)
        {
            if !self.issue.categories.contains(cat) {
                return Err(self.invalid(format!(
                    "[issue] names unknown category `{cat}` among the waiting categories"
                )));
            }
        }
        Ok(())
    }

    /// Classes of shadersim-isa this model does not map (an op of such a
    /// class cannot execute on it).
    pub fn unmapped_classes(&self) -> Vec<InstrClass> {
        InstrClass::ALL
            .iter()
            .copied()
            .filter(|c| self.class(*c).is_none())
            .collect()
    }
}

/// Line and column of the value of parameter `name` in a model file (the
/// first line that starts with `name =`), or 1:1.
fn param_position(text: &str, name: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix(name) {
            if rest.trim_start().starts_with('=') {
                let indent = line.len() - t.len();
                let col = line.find("value").map_or(indent + 1, |c| c + 1);
                return (i + 1, col);
            }
        }
    }
    (1, 1)
}

/// Line and column of a top-level `key =` in a model file, or 1:1.
fn key_position(text: &str, key: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key) {
            if rest.trim_start().starts_with('=') {
                return (i + 1, 1);
            }
        }
    }
    (1, 1)
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = offset - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

impl fmt::Display for ArchSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.description)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
