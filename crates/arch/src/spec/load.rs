//! Reading model files: the built-in models, a user's file, `base`
//! inheritance, derived parameters, and positions of errors in the file.

use std::collections::BTreeMap;

use shadersim_isa::Target;

use super::{ArchError, ArchFile, ArchSpec, BUILTIN, MEMORY_KEY, PRODUCTS};
use std::sync::OnceLock;

impl ArchSpec {
    /// Names and descriptions of the built-in models.
    pub fn builtin_list() -> Vec<(String, String)> {
        listed(BUILTIN, ArchSpec::builtin)
    }

    /// A built-in model by name.
    ///
    /// Each is parsed once per process and cloned after: a batch asks for
    /// its programs' models once a program, and parsing a model's TOML
    /// (with its `base` chain) cost a batch over the fixtures 3.6% of its
    /// instructions.
    pub fn builtin(name: &str) -> Result<ArchSpec, ArchError> {
        static PARSED: [OnceLock<Result<ArchSpec, ArchError>>; BUILTIN.len()] =
            [const { OnceLock::new() }; BUILTIN.len()];
        parsed_once(BUILTIN, &PARSED, name, "builtin")
    }

    /// Names and descriptions of the GPUs known by product name.
    pub fn product_list() -> Vec<(String, String)> {
        listed(PRODUCTS, ArchSpec::product)
    }

    /// A GPU by product name (`mi300a`, `rx7900xtx`): its model with the product's numbers.
    /// Parsed once per process, as the built-in models are.
    pub fn product(name: &str) -> Result<ArchSpec, ArchError> {
        static PARSED: [OnceLock<Result<ArchSpec, ArchError>>; PRODUCTS.len()] =
            [const { OnceLock::new() }; PRODUCTS.len()];
        parsed_once(PRODUCTS, &PARSED, name, "product")
    }

    /// Every name `--arch` takes besides a model file: models, products, and processors
    /// (a `gfx` name runs on its chip's or family's model, by the prefixes of
    /// `data/names.toml`), for error messages.
    fn known_names() -> String {
        let mut families: Vec<(&str, &str)> = crate::names::families().collect();
        // GCN and CDNA (gfx6..gfx94) before RDNA (gfx10..gfx12).
        families.sort_by_key(|(prefix, _)| (prefix.starts_with("gfx1"), *prefix));
        let families: Vec<String> = families
            .iter()
            .map(|(prefix, model)| format!("{prefix}* -> {model}"))
            .collect();
        format!(
            "models: {}; products: {}; processors by name prefix, the longest match winning: {} (a processor with a model of its own, such as gfx900 or gfx1102, runs on it), or a chip's name such as vega10, navi21, navi31",
            BUILTIN.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
            PRODUCTS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", "),
            families.join(", ")
        )
    }

    /// The error for a name `--arch` does not take. A family name that begins
    /// some products' names (`mi300`: `mi300x`, `mi300a`) names them and the
    /// model of their compute unit: the products differ in CUs, clocks and
    /// memory, so none is picked for the user (issue 47).
    fn unknown(name: &str) -> ArchError {
        let key = product_key(name);
        let members: Vec<String> = PRODUCTS
            .iter()
            .filter(|(n, _)| key.len() >= 2 && n.starts_with(&key))
            .filter_map(|(n, _)| ArchSpec::product(n).ok())
            .map(|p| {
                let cu = ArchSpec::for_target(&p.isa).map_or_else(
                    || p.isa.name.clone(),
                    |m| format!("{}, {}", m.name, p.isa.name),
                );
                format!("{} ({}; compute unit: {cu})", p.name, p.description)
            })
            .collect();
        let family = if members.is_empty() {
            String::new()
        } else {
            format!(
                "no product is named `{name}`, but {} begin with it: {}; give one of them, or the compute unit's model or processor to simulate one CU without the product's CU count, clocks and memory; ",
                if members.len() == 1 { "one name does" } else { "these names" },
                members.join("; ")
            )
        };
        ArchError::Unknown {
            name: name.to_string(),
            known: format!("{family}{}", ArchSpec::known_names()),
        }
    }

    /// Parse a model from TOML text (resolving `base` against the built-ins).
    /// Every parameter needs its `source`.
    pub fn from_toml(file: &str, text: &str) -> Result<ArchSpec, ArchError> {
        ArchSpec::parse_file(file, text, false)
    }

    /// Parse a model; `user`: a parameter without a source is sourced to
    /// the file. A parameter outside its range is an error at its line.
    fn parse_file(file: &str, text: &str, user: bool) -> Result<ArchSpec, ArchError> {
        let parsed = Self::read_file(file, text, user)?;
        let base_name = parsed.base.clone();
        let mut spec = Self::base_of(&parsed)?;
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
        if let Some(policies) = parsed.no_allocate {
            spec.no_allocate = policies;
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

    /// The file's TOML, checked: a model without `base` names itself, and every number it
    /// gives (not a formula's) is in its parameter's range. A user file's parameters without
    /// a source cite the file.
    fn read_file(file: &str, text: &str, user: bool) -> Result<ArchFile, ArchError> {
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
        Ok(parsed)
    }

    /// The model the file starts from: its `base`, else an empty one with the file's issue
    /// rules.
    fn base_of(parsed: &ArchFile) -> Result<ArchSpec, ArchError> {
        Ok(match &parsed.base {
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
                no_allocate: Vec::new(),
            },
        })
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
        } else if PRODUCTS.iter().any(|(n, _)| *n == product_key(arch)) {
            // Products as people write them: `MI300X`, `rx-7900-xtx`, `RX 7900 XTX`.
            ArchSpec::product(&product_key(arch))?
        } else {
            ArchSpec::builtin(&arch.to_ascii_lowercase())?
        };
        spec.set_all(overrides)?;
        Ok(spec)
    }
}

/// A product name as the table spells it: lower case, without the spaces,
/// hyphens and underscores people put in (`RX 7900 XTX`, `mi-300x`).
fn product_key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
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

/// Names and descriptions of the models of `table`, as `get` reads them.
fn listed(
    table: &[(&str, &str)],
    get: fn(&str) -> Result<ArchSpec, ArchError>,
) -> Vec<(String, String)> {
    table
        .iter()
        .filter_map(|(name, _)| get(name).ok().map(|a| (a.name, a.description)))
        .collect()
}

/// The model `name` of `table` (`(name, TOML text)`), parsed on first use into its slot of
/// `parsed` and cloned after; `kind` names the table in the file name errors show.
fn parsed_once(
    table: &[(&str, &str)],
    parsed: &[OnceLock<Result<ArchSpec, ArchError>>],
    name: &str,
    kind: &str,
) -> Result<ArchSpec, ArchError> {
    let index = table
        .iter()
        .position(|(n, _)| *n == name)
        .ok_or_else(|| ArchSpec::unknown(name))?;
    parsed[index]
        .get_or_init(|| ArchSpec::from_toml(&format!("<{kind} {name}>"), table[index].1))
        .clone()
}
