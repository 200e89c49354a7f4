//! Non-AMD occupancy models as data, and their calculator.
//!
//! A model file (`data/*.toml`) names one or more *units* (an NVIDIA SM
//! sub-partition, an Intel XVE, a GeForce 6 pixel core), each with its
//! thread slots, its per-thread register maximum and one allocation rule:
//!
//! * `granule`: a file of `file` entries; a thread of `lanes_per_thread`
//!   lanes takes `registers x lanes` entries rounded up to `block`, so
//!   threads = min(slots, floor(file / allocated)). This is NVIDIA's
//!   per-sub-partition rule (cuda_occupancy.h) and Intel Xe3's.
//! * `modes`: fixed register modes (Intel Xe2: 128 registers and 8 threads,
//!   or 256 and 4); a thread takes the smallest mode that holds it.
//!
//! Every number is a [`Sourced`] value: it cannot be written without saying
//! where it comes from.

use serde::Deserialize;

/// A number and where it comes from (a document, or "assumption").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sourced {
    /// The number.
    pub value: u32,
    /// Its source.
    pub source: String,
}

/// A fixed register mode: threads that need at most `registers` get this many.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterMode {
    /// Registers every thread of this mode gets.
    pub registers: Sourced,
    /// Threads per unit in this mode.
    pub threads: Sourced,
}

/// A register file shared by granules.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterGranule {
    /// Entries in the unit's file (in thread-lane registers).
    pub file: Sourced,
    /// Allocation unit, in file entries (for the whole thread's lanes).
    pub block: Sourced,
}

/// One occupancy unit of a model.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VendorUnit {
    /// What the unit is called ("SM sub-partition", "XVE").
    pub name: String,
    /// What it runs ("warps", "threads").
    pub threads: String,
    /// What groups units ("SM", "Xe core", "GPU").
    pub core: String,
    /// File entries one register of one thread takes (32 for a warp).
    pub lanes_per_thread: Sourced,
    /// Units per core.
    pub units_per_core: Sourced,
    /// Thread slots per unit.
    pub slots: Sourced,
    /// Most registers one thread may use.
    pub max_registers: Sourced,
    /// Resident workgroups (blocks) per core, when the vendor limits them.
    #[serde(default)]
    pub max_groups_per_core: Option<Sourced>,
    /// Granule rule, if the unit allocates by granules.
    #[serde(default)]
    pub granule: Option<RegisterGranule>,
    /// Fixed modes, if the unit allocates by modes.
    #[serde(default)]
    pub modes: Vec<RegisterMode>,
}

/// A whole vendor model file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VendorModel {
    /// Model name (`xe3`, `blackwell`).
    pub name: String,
    /// Vendor.
    pub vendor: String,
    /// One-line description.
    pub description: String,
    /// Bits of one register of one lane.
    pub register_bits: Sourced,
    /// Facts worth printing beside the numbers (what `setmaxnreg` can do...).
    #[serde(default)]
    pub notes: Vec<String>,
    /// The occupancy units.
    pub units: Vec<VendorUnit>,
}

/// Problems with a model file or a question put to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VendorModelError {
    /// The TOML does not parse or has unknown keys.
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
    /// The model is inconsistent.
    #[error("occupancy model `{name}`: {message}")]
    Invalid {
        /// Model name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// No such built-in model.
    #[error("unknown occupancy model `{0}`")]
    Unknown(String),
}

/// What limits a vendor unit's occupancy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VendorLimiter {
    /// Thread slots.
    Slots,
    /// Register file capacity.
    Registers,
    /// Resident workgroups (blocks) per core.
    Workgroups,
    /// More registers than one thread may have: nothing runs.
    TooManyRegisters,
}

impl VendorLimiter {
    /// The report's name (the AMD limiter names where they agree).
    pub fn name(self) -> &'static str {
        match self {
            VendorLimiter::Slots => "slots",
            VendorLimiter::Registers => "registers",
            VendorLimiter::Workgroups => "workgroups",
            VendorLimiter::TooManyRegisters => "max registers",
        }
    }
}

/// How registers are handed out, for the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// In granules of this many registers per thread.
    Granule(u32),
    /// In fixed modes; this is the mode the thread got.
    Mode(u32),
}

/// Occupancy of one unit at one register count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitOccupancy {
    /// Threads (warps) per unit.
    pub waves_per_unit: u32,
    /// Threads (warps) per core.
    pub waves_per_core: u32,
    /// What limits it.
    pub limiter: VendorLimiter,
    /// Registers per thread as allocated.
    pub allocated: u32,
    /// Allocation granule (or mode) per thread.
    pub allocation: Allocation,
}

impl UnitOccupancy {
    /// Registers per thread lost to rounding, for `registers` asked.
    pub fn wasted(&self, registers: u32) -> u32 {
        self.allocated.saturating_sub(registers)
    }
}

/// The embedded model files, in the order reports list them.
const BUILTIN: &[(&str, &str)] = &[
    ("ampere", include_str!("../data/ampere.toml")),
    ("hopper", include_str!("../data/hopper.toml")),
    ("blackwell", include_str!("../data/blackwell.toml")),
    ("xe2", include_str!("../data/xe2.toml")),
    ("xe3", include_str!("../data/xe3.toml")),
    ("nv40", include_str!("../data/nv40.toml")),
];

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl VendorModel {
    /// Names of the built-in models.
    pub fn builtin_names() -> Vec<&'static str> {
        BUILTIN.iter().map(|(n, _)| *n).collect()
    }

    /// Every built-in model.
    pub fn builtins() -> Vec<VendorModel> {
        BUILTIN
            .iter()
            .map(|(n, t)| {
                VendorModel::from_toml(&format!("<builtin {n}>"), t)
                    .expect("built-in occupancy models are checked by tests")
            })
            .collect()
    }

    /// A built-in model by name.
    pub fn builtin(name: &str) -> Result<VendorModel, VendorModelError> {
        let (n, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| VendorModelError::Unknown(name.to_string()))?;
        VendorModel::from_toml(&format!("<builtin {n}>"), text)
    }

    /// Parse and check a model file.
    pub fn from_toml(file: &str, text: &str) -> Result<VendorModel, VendorModelError> {
        let model: VendorModel = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
            VendorModelError::Parse {
                file: file.to_string(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        model.validate()?;
        Ok(model)
    }

    fn validate(&self) -> Result<(), VendorModelError> {
        let bad = |message: String| VendorModelError::Invalid {
            name: self.name.clone(),
            message,
        };
        if self.name.trim().is_empty() {
            return Err(bad("empty name".into()));
        }
        if self.units.is_empty() {
            return Err(bad("no [[units]]".into()));
        }
        let mut numbers: Vec<(&str, &Sourced)> = vec![("register_bits", &self.register_bits)];
        for u in &self.units {
            numbers.extend([
                ("lanes_per_thread", &u.lanes_per_thread),
                ("units_per_core", &u.units_per_core),
                ("slots", &u.slots),
                ("max_registers", &u.max_registers),
            ]);
            if let Some(g) = &u.max_groups_per_core {
                numbers.push(("max_groups_per_core", g));
            }
            match (&u.granule, u.modes.is_empty()) {
                (Some(g), true) => {
                    numbers.extend([("granule.file", &g.file), ("granule.block", &g.block)]);
                    if g.block.value % u.lanes_per_thread.value != 0 {
                        return Err(bad(format!(
                            "unit `{}`: granule.block {} is not a multiple of lanes_per_thread {}",
                            u.name, g.block.value, u.lanes_per_thread.value
                        )));
                    }
                }
                (None, false) => {
                    let mut last = 0;
                    for m in &u.modes {
                        numbers.extend([
                            ("modes.registers", &m.registers),
                            ("modes.threads", &m.threads),
                        ]);
                        if m.registers.value <= last {
                            return Err(bad(format!(
                                "unit `{}`: modes must grow in registers",
                                u.name
                            )));
                        }
                        last = m.registers.value;
                    }
                    if last < u.max_registers.value {
                        return Err(bad(format!(
                            "unit `{}`: no mode holds max_registers {}",
                            u.name, u.max_registers.value
                        )));
                    }
                }
                _ => {
                    return Err(bad(format!(
                        "unit `{}` needs exactly one of [units.granule] and [[units.modes]]",
                        u.name
                    )))
                }
            }
        }
        for (key, n) in numbers {
            if n.value == 0 {
                return Err(bad(format!("{key} must be positive")));
            }
            if n.source.trim().is_empty() {
                return Err(bad(format!("{key} has no source")));
            }
        }
        Ok(())
    }
}

impl VendorUnit {
    /// Registers per thread allocated for `registers`, or `None` past the maximum.
    fn allocated(&self, registers: u32) -> Option<(u32, u32, Allocation)> {
        let n = registers.max(1);
        if n > self.max_registers.value {
            return None;
        }
        let slots = self.slots.value;
        match &self.granule {
            Some(g) => {
                let lanes = self.lanes_per_thread.value;
                let entries = (n * lanes).div_ceil(g.block.value) * g.block.value;
                let by_regs = g.file.value / entries;
                Some((
                    entries / lanes,
                    by_regs,
                    Allocation::Granule(g.block.value / lanes),
                ))
            }
            None => {
                let mode = self.modes.iter().find(|m| m.registers.value >= n)?;
                let threads = mode.threads.value;
                // A mode's thread count is what the file allows; it binds
                // only when it is below the slots.
                let by_regs = if threads < slots { threads } else { u32::MAX };
                Some((
                    mode.registers.value,
                    by_regs,
                    Allocation::Mode(mode.registers.value),
                ))
            }
        }
    }

    /// Occupancy at `registers` per thread, for workgroups of
    /// `group_threads` threads (warps) when given (only vendors with a
    /// per-core workgroup limit use it).
    pub fn occupancy(&self, registers: u32, group_threads: Option<u32>) -> UnitOccupancy {
        let slots = self.slots.value;
        let units = self.units_per_core.value;
        let Some((allocated, by_regs, allocation)) = self.allocated(registers) else {
            return UnitOccupancy {
                waves_per_unit: 0,
                waves_per_core: 0,
                limiter: VendorLimiter::TooManyRegisters,
                allocated: 0,
                allocation: match &self.granule {
                    Some(g) => Allocation::Granule(g.block.value / self.lanes_per_thread.value),
                    None => Allocation::Mode(self.max_registers.value),
                },
            };
        };
        let (mut per_unit, mut limiter) = if by_regs < slots {
            (by_regs, VendorLimiter::Registers)
        } else {
            (slots, VendorLimiter::Slots)
        };
        let mut per_core = per_unit.saturating_mul(units);
        if let Some(g) = group_threads.filter(|g| *g > 0) {
            // cudaOccMaxActiveBlocksPerMultiprocessor: whole blocks, limited
            // by warps per SM from registers, warp slots, and blocks per SM.
            let by_regs_blocks = by_regs.min(u32::MAX / units).saturating_mul(units) / g;
            let by_slots_blocks = slots.saturating_mul(units) / g;
            let by_groups = self
                .max_groups_per_core
                .as_ref()
                .map_or(u32::MAX, |m| m.value);
            let mut blocks = by_regs_blocks.min(by_slots_blocks);
            limiter = if by_regs_blocks < by_slots_blocks {
                VendorLimiter::Registers
            } else {
                VendorLimiter::Slots
            };
            if by_groups < blocks {
                blocks = by_groups;
                limiter = VendorLimiter::Workgroups;
            }
            per_core = blocks.saturating_mul(g);
            per_unit = per_core / units;
        }
        UnitOccupancy {
            waves_per_unit: per_unit,
            waves_per_core: per_core,
            limiter,
            allocated,
            allocation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses() {
        for name in VendorModel::builtin_names() {
            let m = VendorModel::builtin(name).unwrap();
            assert_eq!(m.name, name);
        }
    }

    #[test]
    fn a_number_without_source_is_refused() {
        // Blank out the first source of a built-in file.
        let text = BUILTIN[0].1;
        let at = text.find("source = \"").unwrap() + "source = \"".len();
        let close = at + text[at..].find('"').unwrap();
        let blanked = format!("{} {}", &text[..at], &text[close..]);
        let err = VendorModel::from_toml("t.toml", &blanked).unwrap_err();
        assert!(err.to_string().contains("has no source"), "{err}");
    }

    #[test]
    fn granule_and_modes_are_exclusive() {
        let text = BUILTIN
            .iter()
            .find(|(n, _)| *n == "xe2")
            .unwrap()
            .1
            .replace(
                "[[units.modes]]\nregisters = { value = 128",
                "[units.granule]\nfile = { value = 1, source = \"s\" }\nblock = { value = 1, source = \"s\" }\n\n[[units.modes]]\nregisters = { value = 128",
            );
        let err = VendorModel::from_toml("t.toml", &text).unwrap_err();
        assert!(err.to_string().contains("exactly one"), "{err}");
    }
}
