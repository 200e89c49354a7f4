//! Which memory levels of which models the latency points check, and why a level has fewer than
//! two independent points (issue 44: every level of every model checked by two published
//! measurements the model was not set from, or a stated reason).
//!
//! A points file may carry `[[gap]]` entries (`model`, `level`, `reason`); the report lists one
//! [`LevelCoverage`] per model and level that a latency point names or a gap states.

use crate::{Row, ValidateError, LEVELS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Independent points a level should have.
pub const WANTED_INDEPENDENT: usize = 2;

/// A model's memory level with fewer than [`WANTED_INDEPENDENT`] independent latency points, and
/// why (no published measurement found, the only one sets the model, ...).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gap {
    /// The model (`--arch` name).
    pub model: String,
    /// The level (one of [`LEVELS`]).
    pub level: String,
    /// Why the level has fewer independent points, in words.
    pub reason: String,
}

/// The latency points of one model's level.
#[derive(Debug, Clone, Serialize)]
pub struct LevelCoverage {
    /// The model.
    pub model: String,
    /// The level.
    pub level: String,
    /// Latency points that set a model value (`calibrates`).
    pub calibration: usize,
    /// Latency points that set nothing: checks by a source the model was not set from.
    pub independent: usize,
    /// Median |error| of the independent points (`None` without one that ran).
    pub independent_median_abs_error: Option<f64>,
    /// The stated reason for fewer than [`WANTED_INDEPENDENT`] independent points.
    pub reason: Option<String>,
}

/// Check the gaps: known levels, a reason, one gap per model and level.
pub fn check_gaps(gaps: &[Gap]) -> Result<(), ValidateError> {
    let mut seen = std::collections::BTreeSet::new();
    for g in gaps {
        let bad = |message: String| ValidateError::Gap {
            model: g.model.clone(),
            level: g.level.clone(),
            message,
        };
        if !LEVELS.contains(&g.level.as_str()) {
            return Err(bad(format!("level is none of {}", LEVELS.join(", "))));
        }
        if g.reason.trim().is_empty() {
            return Err(bad("a gap needs its reason".into()));
        }
        if !seen.insert((g.model.as_str(), g.level.as_str())) {
            return Err(bad("a second gap for this model and level".into()));
        }
    }
    Ok(())
}

/// The latency points of one model's level, counted while the rows are read.
#[derive(Default)]
struct Tally {
    calibration: usize,
    independent: usize,
    errors: Vec<f64>,
}

/// One entry per model and level named by a latency point or a gap, in model then [`LEVELS`]
/// order.
pub fn coverage(rows: &[Row], gaps: &[Gap]) -> Vec<LevelCoverage> {
    let rank = |l: &str| LEVELS.iter().position(|x| *x == l).unwrap_or(LEVELS.len());
    // Keyed by model, the level's place in LEVELS (the order), and the level.
    let mut by_level: BTreeMap<(String, usize, String), Tally> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.kind == "latency") {
        let Some(level) = &r.level else { continue };
        let t = by_level
            .entry((r.model.clone(), rank(level), level.clone()))
            .or_default();
        if r.calibrates.is_some() {
            t.calibration += 1;
        } else {
            t.independent += 1;
            t.errors.extend(r.error.map(f64::abs));
        }
    }
    for g in gaps {
        by_level
            .entry((g.model.clone(), rank(&g.level), g.level.clone()))
            .or_default();
    }
    by_level
        .into_iter()
        .map(|((model, _, level), mut t)| {
            t.errors.sort_by(f64::total_cmp);
            let (errs, n) = (&t.errors, t.errors.len());
            let median = match n {
                0 => None,
                _ if n % 2 == 1 => Some(errs[n / 2]),
                _ => Some((errs[n / 2 - 1] + errs[n / 2]) / 2.0),
            };
            let reason = gaps
                .iter()
                .find(|g| g.model == model && g.level == level)
                .map(|g| g.reason.clone());
            LevelCoverage {
                model,
                level,
                calibration: t.calibration,
                independent: t.independent,
                independent_median_abs_error: median,
                reason,
            }
        })
        .collect()
}
