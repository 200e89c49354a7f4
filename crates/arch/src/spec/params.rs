//! Parameter access and overrides: `--set NAME=VALUE`, the memory switch,
//! typed parameter reads, and the class table lookup.

use shadersim_isa::InstrClass;

use super::{ArchError, ArchSpec, ClassSpec, MEMORY_KEY};

impl ArchSpec {
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
}
