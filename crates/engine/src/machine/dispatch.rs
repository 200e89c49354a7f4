//! Dispatch and retirement: when groups arrive, which CU and SIMDs a
//! group's waves launch on (wave slots, LDS, dynamic VGPRs), launching
//! them, releasing barriers, and retiring waves that end.

use super::*;

impl<O: Observer, const STATS: bool> ComputeUnit<'_, O, STATS> {
    /// Clock at which group `k` arrives (pixel and vertex dispatch).
    pub(super) fn arrival_time(&self, k: u32) -> u64 {
        // `r` is one CU's interval; the CUs simulated take turns.
        self.arrival.map_or(0, |r| {
            (f64::from(k) * r / f64::from(self.cus)).ceil() as u64
        })
    }

    /// Free wave slots on CU `cu`.
    pub(super) fn cu_free(&self, cu: u32) -> u32 {
        let first = (cu * self.cu_simds) as usize;
        self.resident[first..first + self.cu_simds as usize]
            .iter()
            .map(|r| self.waves_per_simd.saturating_sub(r.len() as u32))
            .sum()
    }

    /// The CU the next group goes to, if it has room for it now: pixel and
    /// vertex waves are dealt in turn (the shared rasterizer / vertex
    /// grouper waits for that CU), compute groups go to the next CU with
    /// room.
    pub(super) fn dispatch_cu(&self) -> Option<u32> {
        let fits = |cu: u32| {
            self.cu_free(cu) >= self.group_waves
                && self.lds_used[cu as usize] + self.lds_per_group <= self.lds_capacity
        };
        if self.arrival.is_some() {
            Some(self.next_cu).filter(|&cu| fits(cu))
        } else {
            (0..self.cus)
                .map(|k| (self.next_cu + k) % self.cus)
                .find(|&cu| fits(cu))
        }
    }

    /// The clock from which dispatch may launch a wave, as its state now
    /// says (`u64::MAX`: not before a wave retires, or never).
    pub(super) fn dispatch_from(&self) -> u64 {
        if self.launching_group.is_some() {
            0
        } else if self.groups_started == self.total_groups || self.dispatch_blocked {
            u64::MAX
        } else {
            self.next_arrival
        }
    }

    /// Launch at most the allowed number of waves this clock.
    #[inline(always)]
    pub(super) fn dispatch(&mut self) -> bool {
        // (Asked every clock: one comparison when there is nothing to do.)
        if self.now < self.dispatch_at {
            return false;
        }
        let launched = self.dispatch_now();
        self.dispatch_at = self.dispatch_from();
        launched
    }

    fn dispatch_now(&mut self) -> bool {
        let mut launched = false;
        for _ in 0..self.launches_per_clock {
            if self.launching_group.is_none() {
                if self.groups_started == self.total_groups {
                    break;
                }
                // Pixel and vertex waves arrive at fixed intervals.
                if self.next_arrival > self.now {
                    break;
                }
                let Some(cu) = self.dispatch_cu() else {
                    self.dispatch_blocked = true;
                    break;
                };
                self.next_cu = (cu + 1) % self.cus;
                // A finished group's slot is reused: `groups` holds the
                // groups with waves resident, not the whole dispatch.
                let group = Group {
                    cu,
                    waves: self.group_waves,
                    id: self.groups_started,
                    ..Default::default()
                };
                let id = match self.free_groups.pop() {
                    Some(slot) => {
                        self.groups[slot as usize] = group;
                        slot
                    }
                    None => {
                        self.groups.push(group);
                        self.groups.len() as u32 - 1
                    }
                };
                self.lds_used[cu as usize] += self.lds_per_group;
                self.groups_started += 1;
                self.next_arrival = self.arrival_time(self.groups_started);
                self.launching_group = Some(id);
            }
            let gid = self.launching_group.expect("group open");
            let cu = self.groups[gid as usize].cu;
            let first = cu * self.cu_simds;
            let next = self.next_simd[cu as usize];
            // The CU's next SIMD (round robin) with a free slot.
            let Some(simd) = (0..self.cu_simds)
                .map(|k| first + (next + k) % self.cu_simds)
                .find(|&s| (self.resident[s as usize].len() as u32) < self.waves_per_simd)
            else {
                break;
            };
            self.next_simd[cu as usize] = (simd - first + 1) % self.cu_simds;
            let id = self.launched_waves;
            self.launched_waves += 1;
            let walk_wave = self.input.sim.trace_waves[self.input.sim.trace_of_wave(id)];
            // A free slot's cursor is restarted (its buffers kept), else a
            // new slot is made: `waves` grows to the most waves resident
            // (and draining) at once, not with the dispatch.
            let (slot, mut cursor) = match self.free_slots.pop() {
                Some(slot) => {
                    let mut cursor = self.waves[slot as usize]
                        .cursor
                        .take()
                        .expect("a slot keeps its cursor");
                    cursor.restart(walk_wave);
                    (slot, cursor)
                }
                None => (
                    self.waves.len() as u32,
                    OpCursor::new(self.input.walk, walk_wave),
                ),
            };
            let opi = cursor
                .next_op(self.input.sim)
                .unwrap_or(self.input.sim.implicit_end);
            let wave = Wave {
                simd,
                cu,
                group: gid,
                launch: self.now,
                id,
                opi,
                prev_opi: NONE_OP,
                cat: self.issue_cat[opi as usize],
                ready_at: self.now,
                cnt: [0; NCOUNTERS],
                unit_in_flight: [0; MAX_UNITS],
                draining: false,
                at_barrier: false,
                barrier_gen: 0,
                track: self
                    .scoreboard
                    .then(|| WaveTrack::reuse(&mut self.spare_tracks, self.now)),
                sitting: false,
                pos: self.resident[simd as usize].len() as u8,
                vgpr_blocks: 1,
                reserve_blocks: 0,
                cause: self.causes.arbitration,
                cause_since: self.now,
                cause_until: u64::MAX,
                cursor: Some(cursor),
                _odd_lines: [0; 64],
            };
            if slot as usize == self.waves.len() {
                self.waves.push(wave);
                if self.per_wave_returns {
                    self.wave_returns.push([0; NCOUNTERS]);
                }
            } else {
                self.waves[slot as usize] = wave;
                if self.per_wave_returns {
                    self.wave_returns[slot as usize] = [0; NCOUNTERS];
                }
            }
            if let Some(pool) = self.pools.get_mut(simd as usize) {
                // The slot's reserved block.
                pool.in_use += 1;
                self.stats.peak_vgpr_blocks = self.stats.peak_vgpr_blocks.max(pool.in_use);
            }
            // (Before the new wave joins: a dormant SIMD's owed turns are
            // those of its old waves.)
            self.end_quiet(simd);
            self.resident[simd as usize].push(slot);
            self.resident_count += 1;
            self.observer.launch(self.now, id, simd);
            let g = &mut self.groups[gid as usize];
            g.launched += 1;
            g.alive += 1;
            if g.launched == g.waves {
                self.launching_group = None;
            }
            launched = true;
        }
        launched
    }

    pub(super) fn try_release(&mut self, gid: usize) {
        let g = &mut self.groups[gid];
        if g.launched == g.waves && g.arrived > 0 && g.arrived >= g.alive {
            g.gen += 1;
            g.arrived = 0;
        }
    }

    pub(super) fn retire(&mut self, wid: usize) {
        self.unsit(wid);
        let now = self.now;
        let w = &self.waves[wid];
        let simd = w.simd as usize;
        let gid = w.group as usize;
        self.stats.waves += 1;
        let id = w.id as usize;
        if STATS {
            self.stats.wave_clocks_sum += now - w.launch;
            if self.stats.wave_life.len() <= id {
                self.stats.wave_life.resize(id + 1, (0, 0));
            }
            self.stats.wave_life[id] = (w.launch, now);
        }
        self.observer.end(now, id as u32, w.opi);
        if let Some(t) = self.waves[wid].track.take() {
            self.spare_tracks.push(t);
        }
        // Its slot (with its walk's buffers) takes the next wave once no
        // event can name it: ops it issued that count no counter may still
        // be in flight on a unit (the end of program waited only for the
        // counters), and their releases come to this slot.
        let w = &mut self.waves[wid];
        if w.unit_in_flight.iter().all(|&n| n == 0) {
            self.free_slots.push(wid as u32);
        } else {
            w.draining = true;
        }
        if let Some(m) = &mut self.memory {
            m.release_wave(wid);
        }
        if let Some(pool) = self.pools.get_mut(simd) {
            let w = &mut self.waves[wid];
            let extra = w.vgpr_blocks.saturating_sub(1);
            Self::release_blocks(w, pool, extra);
            w.vgpr_blocks = 0;
            // The slot's reserved block goes back with the slot.
            pool.in_use -= 1;
        }
        let list = &mut self.resident[simd];
        if let Some(p) = list.iter().position(|&x| x as usize == wid) {
            list.remove(p);
            self.resident_count -= 1;
            // The younger waves move up one place: renumber them and
            // rebuild the SIMD's sitting and sleeping masks.
            let row = &mut self.sit_masks[simd * self.ncat..(simd + 1) * self.ncat];
            row.fill(0);
            let mut sleepers = 0u64;
            for (i, &x) in list.iter().enumerate() {
                let w = &mut self.waves[x as usize];
                w.pos = i as u8;
                if w.sitting && w.cat != NO_CAT {
                    row[w.cat as usize] |= 1 << i;
                }
                if w.ready_at == WAIT_SLEEP {
                    sleepers |= 1 << i;
                }
            }
            self.event_sleepers[simd] = sleepers;
        }
        // Its slot (and maybe its group's LDS) is free: dispatch may fit now.
        self.dispatch_blocked = false;
        self.dispatch_at = self.dispatch_from();
        let g = &mut self.groups[gid];
        g.alive -= 1;
        if STATS {
            self.stats.cu_waves[g.cu as usize] += 1;
        }
        if g.launched == g.waves && g.alive == 0 {
            self.lds_used[g.cu as usize] -= self.lds_per_group;
            self.stats.groups += 1;
            // No wave names it any more (a draining wave's events do not
            // read its group): the next group may take its slot.
            self.free_groups.push(gid as u32);
        } else {
            // A wave that ends counts as arrived for its group's barrier.
            self.try_release(gid);
        }
    }
}
