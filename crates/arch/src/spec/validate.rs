//! Checking a model's internal consistency: sources, ranges, references,
//! class coverage.

use shadersim_isa::InstrClass;

use super::{ArchError, ArchSpec, COST_RULES};

impl ArchSpec {
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
                if p != super::MATRIX_CYCLES_RULE && !self.params.contains_key(p) {
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
        for policy in &self.no_allocate {
            let known = self
                .cache
                .as_ref()
                .is_some_and(|c| c.level.iter().any(|l| l.name == policy.level));
            if !known {
                return Err(self.invalid(format!(
                    "[[no_allocate]] names unknown cache level `{}`",
                    policy.level
                )));
            }
            if policy.flag.is_empty() {
                return Err(self.invalid("[[no_allocate]] has an empty `flag`".to_string()));
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
