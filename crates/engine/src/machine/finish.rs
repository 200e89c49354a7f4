//! The end of a run: the statistics handed back, and the errors a run
//! that cannot go on reports (a stuck wave, a deadlock), naming the op
//! and the source line each wave sits on.

use super::*;

impl<O: Observer, const STATS: bool> ComputeUnit<'_, O, STATS> {
    pub(super) fn op_place(&self, opi: usize) -> (u32, String) {
        match self.input.sim.ops[opi].source {
            OpSource::Program(i) => {
                let s = &self.input.program.instructions[i];
                (s.pos.line, s.text.clone())
            }
            OpSource::Fetch(i) => (
                0,
                format!("{} (fetch shader)", self.input.sim.fetch_shader[i]),
            ),
            OpSource::ImplicitEnd => (0, "end of program".into()),
        }
    }

    pub(super) fn stuck_error(&self, wid: usize, reason: String) -> SimError {
        let w = &self.waves[wid];
        let opi = w.opi as usize;
        let (line, text) = self.op_place(opi);
        SimError::Deadlock {
            clock: self.now,
            waves: vec![StuckWave {
                wave: w.id,
                simd: w.simd,
                line,
                text,
                reason,
            }],
        }
    }

    pub(super) fn deadlock(&self) -> SimError {
        let mut waves = Vec::new();
        for &wid in self.resident.iter().flatten() {
            let w = &self.waves[wid as usize];
            let opi = w.opi as usize;
            let op = &self.input.sim.ops[opi];
            let (line, text) = self.op_place(opi);
            let reason = match op.kind {
                OpKind::Wait | OpKind::End => {
                    let waits: Vec<String> = Counter::ALL
                        .iter()
                        .filter(|c| w.cnt[c.index()] > op.wait[c.index()])
                        .map(|c| format!("{c} is {} and must fall to {}", w.cnt[c.index()], op.wait[c.index()]))
                        .collect();
                    format!("{}, but nothing it issued is still in flight", waits.join(", "))
                }
                OpKind::Barrier => {
                    let g = &self.groups[w.group as usize];
                    format!("the barrier waits for {} of {} waves of workgroup {}", g.alive, g.waves, g.id)
                }
                _ if self.alloc[opi].is_some() && self.dynamic.is_some() => {
                    let d = self.dynamic.expect("dynamic mode");
                    let pool = &self.pools[w.simd as usize];
                    let target = self.alloc_target(opi).unwrap_or(0);
                    if target > d.max_blocks {
                        format!("it asks for {target} VGPR blocks of {}; a wave may hold at most {}", d.block, d.max_blocks)
                    } else {
                        format!(
                            "it waits for {} more VGPR blocks of {} (holds {}); SIMD {}'s pool has {} free{} and no wave can free any",
                            target.saturating_sub(w.vgpr_blocks),
                            d.block,
                            w.vgpr_blocks,
                            w.simd,
                            pool.free,
                            if d.deadlock_avoidance {
                                format!(
                                    ", the reserve {}{}",
                                    pool.reserve_free,
                                    pool.reserve_holder.map_or(String::new(), |h| format!(" (held by wave {})", self.waves[h as usize].id))
                                )
                            } else {
                                String::new()
                            }
                        )
                    }
                }
                _ => "no unit can accept it (a counter or in-flight limit is full and nothing will drain it)".into(),
            };
            waves.push(StuckWave {
                wave: w.id,
                simd: w.simd,
                line,
                text,
                reason,
            });
            if waves.len() >= 4 {
                break;
            }
        }
        SimError::Deadlock {
            clock: self.now,
            waves,
        }
    }

    pub(super) fn finish(mut self) -> SimStats {
        // The sitting counters kept per op during the run.
        let arbitration = self.causes.arbitration as usize;
        for (op, sit) in self.op_sit.iter().enumerate() {
            // (Every wave retired, so rose: no op has a sitter.)
            debug_assert_eq!(sit.count, 0);
            self.stats.op_sat[op] += sit.sat;
            let row = op * self.ncauses;
            self.stats.op_cause_clocks[row + arbitration] += sit.arbitration;
            self.stats.op_cause_clocks[row + sit.cause as usize] += sit.cause_clocks;
        }
        // Every issue counted its category.
        self.stats.issues = self.stats.category_issues.iter().sum();
        self.stats.cus = self.cus;
        self.stats.cu_unit_busy = vec![vec![0; self.units.len()]; self.cus as usize];
        self.stats.shared_units = self
            .units
            .iter()
            .map(|u| u.cu_of_instance == [u32::MAX])
            .collect();
        if let Some(m) = &self.memory {
            (self.stats.cache, self.stats.op_cache) = m.report();
        }
        for (i, u) in self.units.iter().enumerate() {
            self.stats.unit_busy[i] = u.inst_busy.iter().sum();
            for (inst, &cu) in u.cu_of_instance.iter().enumerate() {
                if let Some(row) = self.stats.cu_unit_busy.get_mut(cu as usize) {
                    row[i] += u.inst_busy[inst];
                }
            }
        }
        self.stats.wave_slots = self.waves.len() as u32;
        self.stats.wave_size = self.wave_size;
        self.stats.issue_interval = self.interval;
        self.stats.threads = self.threads();
        self.stats
    }

    /// Threads of the groups (compute) or waves finished so far.
    pub(super) fn threads(&self) -> u64 {
        match self.input.dispatch.stage {
            Stage::Compute => {
                u64::from(self.stats.groups) * u64::from(self.input.dispatch.workgroup_size)
            }
            _ => u64::from(self.stats.waves) * u64::from(self.wave_size),
        }
    }
}
