//! The model's cache hierarchy as the engine builds it: the levels and paths of `[cache]` for
//! one or more compute units, the path an op's requests take, and the depths of a path an
//! access policy (`[[no_allocate]]`) keeps an instruction's lines out of.

use crate::error::SimError;
use shadersim_arch::{ArchSpec, CacheSpec};
use shadersim_mem::{Hierarchy, LevelConfig};

/// Which path of the hierarchy an op's requests take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePath {
    /// Vector memory (the model's `[cache] vector`).
    Vector = 0,
    /// Scalar loads (`[cache] scalar`).
    Scalar = 1,
    /// Vector atomic read-modify-write ops (`[cache] atomic`, else the vector path).
    Atomic = 2,
}

impl CachePath {
    /// The level names the path walks in `cache`.
    pub fn names(self, cache: &CacheSpec) -> &[String] {
        match self {
            CachePath::Vector => &cache.vector,
            CachePath::Scalar => &cache.scalar,
            CachePath::Atomic => cache.atomic.as_deref().unwrap_or(&cache.vector),
        }
    }

    /// The path of memory instruction `inst`'s requests: scalar loads the scalar path, vector
    /// atomics (those that read, modify and write) the atomic path, other vector ops the vector
    /// path.
    pub fn of(inst: &shadersim_isa::Instruction) -> CachePath {
        use shadersim_isa::{InstrClass, MemDirection};
        if inst.class() == InstrClass::Smem {
            CachePath::Scalar
        } else if inst.info.class.mem_direction() == Some(MemDirection::Atomic) {
            CachePath::Atomic
        } else {
            CachePath::Vector
        }
    }
}

/// The level configurations and paths of a model for one compute unit (`None` when it has no
/// enabled hierarchy).
pub fn hierarchy_of(arch: &ArchSpec) -> Result<Option<Hierarchy>, SimError> {
    hierarchy_for(arch, 1)
}

/// The hierarchy of `cus` compute units side by side: each CU its own private levels, and the
/// model's `shared` levels one for all of them with `cus` CUs' shares of their bandwidth (a
/// shared level's `bytes_per_clock` is one CU's share of the chip's).
pub fn hierarchy_for(arch: &ArchSpec, cus: u32) -> Result<Option<Hierarchy>, SimError> {
    hierarchy_shared(arch, cus, 1.0)
}

/// [`hierarchy_for`] with each CU taking `chip_shares` shares of the shared levels (more than
/// one when some of the GPU's CUs have no work: the busy ones share the whole chip's).
pub fn hierarchy_shared(
    arch: &ArchSpec,
    cus: u32,
    chip_shares: f64,
) -> Result<Option<Hierarchy>, SimError> {
    let Some(cache) = arch.cache.as_ref().filter(|c| c.enabled) else {
        return Ok(None);
    };
    let model = |e: shadersim_arch::ArchError| SimError::Model(e.to_string());
    let mut levels = Vec::new();
    for l in &cache.level {
        let capacity = l
            .capacity
            .as_deref()
            .map(|p| arch.get_f64(p).map(|v| v.round() as u64))
            .transpose()
            .map_err(model)?;
        let line_bytes = arch.get_u32(&l.line).map_err(model)?;
        let ways = match &l.ways {
            Some(p) => arch.get_u32(p).map_err(model)?,
            // Fully associative.
            None => capacity.map_or(1, |c| (c / u64::from(line_bytes.max(1))) as u32),
        };
        levels.push(LevelConfig {
            name: l.name.clone(),
            capacity_bytes: capacity,
            line_bytes,
            ways,
            latency: arch.get_u32(&l.latency).map_err(model)?,
            bytes_per_clock: l
                .bytes_per_clock
                .as_deref()
                .map(|p| arch.get_f64(p))
                .transpose()
                .map_err(model)?
                .map(|b| {
                    if l.shared {
                        b * f64::from(cus.max(1)) * chip_shares.max(1.0)
                    } else {
                        b
                    }
                }),
            hashed_sets: l.hashed_sets,
        });
    }
    let shared: Vec<bool> = cache.level.iter().map(|l| l.shared).collect();
    let paths = [CachePath::Vector, CachePath::Scalar, CachePath::Atomic];
    let h = Hierarchy::per_cu(
        levels,
        &paths.map(|p| p.names(cache).to_vec()),
        &shared,
        cus,
    )
    .map_err(|e| SimError::Model(format!("{}: {e}", arch.name)))?;
    Ok(Some(h))
}

/// The depth of level `name` on the path, or the names on it.
pub fn level_depth(arch: &ArchSpec, path: CachePath, name: &str) -> Result<usize, Vec<String>> {
    let Some(cache) = &arch.cache else {
        return Err(Vec::new());
    };
    let p = path.names(cache);
    p.iter().position(|n| n == name).ok_or_else(|| p.to_vec())
}

/// The model's `[[no_allocate]]` policies that keep an instruction's lines out of a level of
/// `path`, given which modifiers it carries, each with that level's depth on the path.
pub(crate) fn no_allocate_policies(
    arch: &ArchSpec,
    path: CachePath,
    carries: impl Fn(&str) -> bool,
) -> Vec<(usize, &shadersim_arch::NoAllocateSpec)> {
    (arch.no_allocate.iter())
        .filter(|p| carries(&p.flag))
        .filter_map(|p| Some((level_depth(arch, path, &p.level).ok()?, p)))
        .filter(|(d, _)| *d < 32)
        .collect()
}
