//! Each resource's demand per wave (what throughput would be if it were
//! the only limit), and the dependency chain of one wave alone.

use crate::ops::OpKind;
use crate::run::Simulation;
use shadersim_arch::{UnitKind, UnitScope};

/// One resource's demand per wave.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceBound {
    /// Unit name, `issue:<category>` or `dispatch`.
    pub resource: String,
    /// CU clocks per wave this resource alone would need.
    pub clocks_per_wave: f64,
    /// The numbers behind it.
    pub detail: String,
    /// The part of `clocks_per_wave` charged at costs whose parameter's
    /// source is an assumption (a cache invalidate's 16 clocks): a verdict
    /// resting on it says so.
    pub assumed_clocks_per_wave: f64,
    /// Those parameters, by name.
    pub assumed_params: Vec<String>,
}

impl Simulation {
    /// Per-wave demand on each resource, in CU clocks per wave: what the
    /// throughput would be if that resource were the only limit.
    pub fn resource_bounds(&self) -> Vec<ResourceBound> {
        let arch = &self.arch;
        let simds = f64::from(arch.get_u32("simds").unwrap_or(1).max(1));
        let interval = f64::from(arch.get_u32("issue_interval").unwrap_or(1).max(1));
        let mut unit_clocks = vec![0f64; self.compiled.units.len()];
        let mut assumed_clocks = vec![0f64; self.compiled.units.len()];
        let mut assumed_params: Vec<Vec<String>> = vec![Vec::new(); self.compiled.units.len()];
        // The cost parameter of each op when its source is an assumption.
        let assumed_cost: Vec<Option<&str>> = self
            .compiled
            .ops
            .iter()
            .map(|op| {
                let name = arch.class(op.class)?.cost.as_deref()?;
                let p = arch.params.get(name)?;
                p.source
                    .trim_start()
                    .starts_with("assumption")
                    .then_some(name)
            })
            .collect();
        let mut cat_ops = vec![0f64; self.compiled.categories.len()];
        let walk = self.walk();
        for (trace, weight) in self.weighted_traces() {
            for i in self.compiled.trace_ops(&walk, trace) {
                let op = &self.compiled.ops[i as usize];
                if op.kind != OpKind::Unit {
                    continue;
                }
                unit_clocks[op.unit as usize] += weight * f64::from(op.cost);
                if let Some(name) = assumed_cost[i as usize] {
                    assumed_clocks[op.unit as usize] += weight * f64::from(op.cost);
                    let names = &mut assumed_params[op.unit as usize];
                    if !names.iter().any(|n| n == name) {
                        names.push(name.to_string());
                    }
                }
                if op.also_unit != crate::ops::NONE {
                    unit_clocks[op.also_unit as usize] += weight * f64::from(op.also_cost);
                }
                cat_ops[op.category as usize] += weight;
            }
        }
        let mut out = Vec::new();
        for (u, name) in self.compiled.units.iter().enumerate() {
            let spec = &arch.units[name];
            let instances = match (spec.per, &spec.count) {
                (UnitScope::Simd, _) => simds,
                (UnitScope::Cu, Some(c)) => f64::from(arch.get_u32(c).unwrap_or(1).max(1)),
                (UnitScope::Cu, None) => 1.0,
            };
            if unit_clocks[u] > 0.0 {
                out.push(ResourceBound {
                    resource: name.clone(),
                    clocks_per_wave: unit_clocks[u] / instances,
                    assumed_clocks_per_wave: assumed_clocks[u] / instances,
                    assumed_params: assumed_params[u].clone(),
                    detail: format!(
                        "{} clocks of {name} work per wave over {} {}",
                        fmt_num(unit_clocks[u]),
                        instances,
                        if spec.kind == UnitKind::Pipe {
                            "pipe(s)"
                        } else {
                            "queue(s)"
                        }
                    ),
                });
            }
        }
        for (c, name) in self.compiled.categories.iter().enumerate() {
            if cat_ops[c] > 0.0 {
                // Each SIMD issues one op of a category per turn, every `interval` clocks.
                out.push(ResourceBound {
                    resource: format!("issue:{name}"),
                    assumed_clocks_per_wave: 0.0,
                    assumed_params: Vec::new(),
                    clocks_per_wave: cat_ops[c] * interval / simds,
                    detail: format!(
                        "{} {name} issues per wave, {} per clock per CU",
                        fmt_num(cat_ops[c]),
                        fmt_num(simds / interval)
                    ),
                });
            }
        }
        if let Some(chain) = self.dependency_chain() {
            // The SIMDs overlap the chains of their resident waves.
            let total = f64::from(self.total_waves());
            let overlap = (simds * f64::from(self.occupancy.waves_per_simd))
                .min(total)
                .max(1.0);
            out.push(ResourceBound {
                resource: "dependency".into(),
                assumed_clocks_per_wave: 0.0,
                assumed_params: Vec::new(),
                clocks_per_wave: chain as f64 / overlap,
                detail: format!(
                    "one wave's issue and register dependency chain takes {chain} clocks, {} waves overlap it",
                    fmt_num(overlap)
                ),
            });
        }
        if let Ok(Some(r)) = self.dispatch.arrival_interval(arch) {
            out.push(ResourceBound {
                resource: "dispatch".into(),
                assumed_clocks_per_wave: 0.0,
                assumed_params: Vec::new(),
                clocks_per_wave: r,
                detail: format!("a new wave reaches this CU every {} clocks", fmt_num(r)),
            });
        }
        // Largest first; on a tie the unit is named before the issue slots
        // that feed it (a VALU op per clock is both).
        out.sort_by(|a, b| {
            b.clocks_per_wave
                .total_cmp(&a.clocks_per_wave)
                .then(
                    a.resource
                        .starts_with("issue:")
                        .cmp(&b.resource.starts_with("issue:")),
                )
                .then(a.resource.cmp(&b.resource))
        });
        out
    }

    /// Clocks one wave needs alone on a SIMD with free units and no memory
    /// latency: in-order issue with every register dependency's latency
    /// (models with a scoreboard; `None` for others).
    pub fn dependency_chain(&self) -> Option<u64> {
        if !self.compiled.scoreboard {
            return None;
        }
        let walk = self.walk();
        let mean: f64 = self
            .weighted_traces()
            .into_iter()
            .map(|(trace, weight)| {
                weight * self.trace_chain(self.compiled.trace_ops(&walk, trace)) as f64
            })
            .sum();
        Some(mean.round() as u64)
    }

    fn trace_chain(&self, trace: impl Iterator<Item = u32>) -> u64 {
        let mut ready = vec![0u64; crate::ops::SCOREBOARD_SLOTS];
        let mut t = 0u64;
        let mut end = 0u64;
        for i in trace {
            let op = &self.compiled.ops[i as usize];
            if op.kind != OpKind::Unit {
                continue;
            }
            let inputs = op
                .reads
                .iter()
                .flat_map(|&(f, c)| &ready[f as usize..(f + c) as usize])
                .copied()
                .max()
                .unwrap_or(0);
            let start = t.max(inputs);
            let is_pipe =
                self.arch.units[&self.compiled.units[op.unit as usize]].kind == UnitKind::Pipe;
            t = start
                + if is_pipe {
                    u64::from(op.cost.max(1))
                } else {
                    1
                };
            let done = start + u64::from(op.result_delay);
            for &(f, c) in &op.writes {
                for r in &mut ready[f as usize..(f + c) as usize] {
                    *r = done;
                }
            }
            end = end.max(t).max(done);
        }
        end
    }
}

/// A count as an integer when it is one, else to one decimal.
pub(super) fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}
