//! The issue stage of the compute unit: each SIMD's turn (the scan over
//! its waves, oldest first, one op per category), the issue check
//! (pipes, register scoreboard, counters, dynamic VGPRs), issuing an op to
//! its unit, and the free ops (waits, barriers, the end of the program)
//! that take no unit.

use super::*;

/// The `op_flags` of ALU writes `s_waitcnt_depctr` counts.
const ALU_WRITES: u16 = op_flags::VALU_VGPR_WRITE
    | op_flags::VALU_SGPR_WRITE
    | op_flags::VALU_VCC_WRITE
    | op_flags::SALU_SGPR_WRITE;

impl<O: Observer, const STATS: bool> ComputeUnit<'_, O, STATS> {
    /// The launch-order id of the wave in slot `wid`, for the observer
    /// (not looked up when no observer listens: its calls vanish then).
    #[inline(always)]
    pub(super) fn observed_id(&self, wid: usize) -> u32 {
        if O::ACTIVE {
            self.waves[wid].id
        } else {
            0
        }
    }

    pub(super) fn issue_turn(&mut self, simd: u32) -> Result<bool, SimError> {
        let now = self.now;
        if self.resident[simd as usize].is_empty() {
            return Ok(false);
        }
        if self.quiet_until[simd as usize] > now {
            self.quiet_turn(simd);
            return Ok(false);
        }
        if STATS {
            self.stats.turns_with_waves += 1;
        }
        // Categories taken this turn (one bit each; `issue_cat` keeps
        // categories below 64).
        let mut used = 0u64;
        let mut any = false;
        // One pass, oldest first: a wave on a unit op takes its category's
        // slot if no older wave took it; a wave on a free op takes it. A
        // free op never changes what another wave may issue this turn, so
        // this equals issuing first and running free ops after.
        let row = simd as usize * self.ncat;
        let mut len = self.resident[simd as usize].len();
        // Positions still to visit this turn: not asleep until an event,
        // not sitting on a category taken this turn. Bits after the current
        // position change only when a wave retires (positions move), which
        // rebuilds it.
        let mut todo = positions(len) & !self.event_sleepers[simd as usize];
        loop {
            // Pass over the waves that are not ready (a look at their wave
            // finds nothing to do or record; the asleep and the ones already
            // sitting on a unit op whose category an older wave took this
            // turn are not in `todo`, and need not even that). A tight loop
            // over shared borrows, one step per position to look at.
            let found = {
                let list = &self.resident[simd as usize];
                let waves = &self.waves;
                let mut found = None;
                while todo != 0 {
                    let pos = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let id = list[pos];
                    let w = &waves[id as usize];
                    // (A wave sitting on a category taken this turn is not
                    // in `todo`: `sit_masks` of the taken categories.)
                    debug_assert!(!(w.sitting && w.cat != NO_CAT && used & (1 << w.cat) != 0));
                    if w.ready_at <= now {
                        found = Some((pos, id as usize, w.opi as usize, w.sitting, w.cat));
                        break;
                    }
                }
                found
            };
            let Some((pos, wid, opi, sitting, wcat)) = found else {
                break;
            };
            // A wave with an issue category is on a unit op.
            let kind = if wcat != NO_CAT {
                OpKind::Unit
            } else {
                self.hot[opi].kind
            };
            match kind {
                OpKind::NoPath => {
                    return Err(self.stuck_error(wid, self.input.sim.ops[opi].cost_basis.clone()));
                }
                OpKind::Unit => {
                    if wcat != NO_CAT && used & (1 << wcat) == 0 {
                        // (Held across the unit's changes: `hot` is a
                        // shared slice, not the unit's.)
                        let op = &self.hot[opi];
                        if self.can_issue(wid, opi, op) {
                            self.issue(wid, opi, op);
                            used |= 1 << wcat;
                            todo &= !self.sit_masks[row + wcat as usize];
                            any = true;
                        } else if !sitting {
                            self.start_sitting(wid);
                        }
                    } else {
                        // An older wave took the category this turn.
                        self.note_cause(wid, self.causes.arbitration, u64::MAX);
                        if !sitting {
                            self.start_sitting(wid);
                        }
                    }
                }
                _ => {
                    if self.free_step(wid) {
                        any = true;
                    } else if self.resident[simd as usize].len() == len {
                        self.sit(wid);
                    }
                    if self.resident[simd as usize].len() < len {
                        // The wave retired; this position now holds the next
                        // one, and the masks were rebuilt.
                        len -= 1;
                        let mut blocked = self.event_sleepers[simd as usize];
                        let mut taken = used;
                        while taken != 0 {
                            blocked |= self.sit_masks[row + taken.trailing_zeros() as usize];
                            taken &= taken - 1;
                        }
                        // (`pos` < 64: it was a position of the list.)
                        todo = positions(len) & !blocked & (u64::MAX << pos);
                    }
                }
            }
        }
        if any {
            // (A real turn runs only when `quiet_until` has passed: no
            // need to clear it.)
            return Ok(true);
        }
        // Nothing issued: the SIMD is quiet until its earliest wave wakes
        // (a wave left ready but unable, on a full counter, a barrier or
        // the VGPR pool, makes that at most now), or an event. Found
        // here, not in the scan, so that turns that issue pay nothing.
        if !STATS {
            // (The same clock `gather_and_stall` finds; a probe counts no
            // stall turns, so a quiet SIMD's turns cost nothing and it
            // never goes dormant.)
            self.quiet_until[simd as usize] = self.earliest_wake(simd);
            return Ok(false);
        }
        let pipes_free_at = self.simd_pipes_free_at(simd);
        self.quiet_pipes_free_at[simd as usize] = pipes_free_at;
        self.quiet_ops[simd as usize].clear();
        if pipes_free_at > now {
            self.quiet_until[simd as usize] = self.earliest_wake(simd);
        } else {
            self.gather_and_stall(simd, true);
        }
        Ok(false)
    }

    /// The earliest clock a wave of SIMD `simd` wakes by time (`u64::MAX`
    /// if all sleep until an event). Out of line: a turn that issues
    /// nothing asks, and inline it changes how the rest of the turn is
    /// compiled.
    #[inline(never)]
    fn earliest_wake(&self, simd: u32) -> u64 {
        let list = &self.resident[simd as usize];
        let sleepers = self.event_sleepers[simd as usize];
        let mut wake = u64::MAX;
        if sleepers == 0 {
            for &wid in list {
                wake = wake.min(self.waves[wid as usize].ready_at);
            }
        } else {
            // Only the waves awake: an event sleeper's `ready_at` is
            // `WAIT_SLEEP`, which lowers no minimum (a walk by mask costs
            // more per wave, so only when it passes some).
            let mut awake = !sleepers & positions(list.len());
            while awake != 0 {
                let wid = list[awake.trailing_zeros() as usize];
                awake &= awake - 1;
                wake = wake.min(self.waves[wid as usize].ready_at);
            }
        }
        wake
    }

    /// A turn of a quiet SIMD: nothing can issue, so only the statistics
    /// a turn counts, from the distinct ops its waves sit on. A dormant
    /// SIMD's turns are counted when it wakes.
    #[inline(always)]
    fn quiet_turn(&mut self, simd: u32) {
        if !STATS || self.dormant_from[simd as usize] != NOT_DORMANT {
            return;
        }
        self.stats.turns_with_waves += 1;
        if self.quiet_pipes_free_at[simd as usize] > self.now {
            return;
        }
        if self.quiet_ops[simd as usize].is_empty() {
            self.gather_and_stall(simd, false);
        } else {
            self.quiet_stall(simd);
        }
    }

    /// Gather quiet SIMD `simd`'s `quiet_ops` (and with `set_until`, make
    /// its waves' earliest wake-up its `quiet_until`), then count its stall
    /// turn: one call, not two (a SIMD goes quiet about once per memory
    /// return, so the calls' entry and exit are a measurable share).
    #[inline(never)]
    fn gather_and_stall(&mut self, simd: u32, set_until: bool) {
        let wake = self.gather_quiet_ops_now(simd);
        if set_until {
            self.quiet_until[simd as usize] = wake;
        }
        self.quiet_stall_now(simd);
    }

    /// `quiet_stall_now`, out of line (the turns of an already gathered
    /// quiet SIMD).
    #[inline(never)]
    fn quiet_stall(&mut self, simd: u32) {
        self.quiet_stall_now(simd);
    }

    /// A stall turn of quiet SIMD `simd` at `now` (its pipes free, its
    /// `quiet_ops` gathered): count it, and if more turns before it wakes
    /// would only count the same, it goes dormant from its next turn: its
    /// ops are covered from then on (see `quiet_cover`).
    #[inline(always)]
    fn quiet_stall_now(&mut self, simd: u32) {
        let now = self.now;
        let s = simd as usize;
        self.stats.stall_turns += 1;
        let interval = self.interval as usize;
        let phase = phase_of(s, self.interval);
        // (Stepping every clock, for tests, steps every turn too: they
        // compare the two.)
        let dormant = self.quiet_until[s] > now + self.interval && self.input.skip_idle;
        let first = now + self.interval;
        let (cover, cover_from) = (&mut self.quiet_cover, &mut self.quiet_cover_from);
        let (stamps, counts) = (&mut self.op_stall_stamp, &mut self.stats.op_stalls);
        for &opi in &self.quiet_ops[s] {
            let k = opi as usize * interval + phase;
            // (An op a dormant SIMD of the phase sits on is counted by it.)
            if cover[k] == 0 {
                count_op_stall((&mut stamps[..], &mut counts[..]), opi as usize, now, 1);
                if dormant {
                    cover_from[k] = first;
                }
            }
            if dormant {
                cover[k] += 1;
            }
        }
        if dormant {
            self.dormant_from[s] = first;
            self.next_dormant_wake = self.next_dormant_wake.min(self.quiet_until[s]);
        }
    }

    /// Fill `quiet_ops` of quiet SIMD `simd` (its waves' ops cannot change
    /// while it is quiet) and return the earliest of its waves' wake-ups.
    #[inline(always)]
    fn gather_quiet_ops_now(&mut self, simd: u32) -> u64 {
        let s = simd as usize;
        let ops = &mut self.quiet_ops[s];
        // Each op once (a stamp per op: a SIMD's waves are often many on
        // few ops, or many on many): the sleepers' ops (kept as they fall
        // asleep), then the waves awake, which alone can wake by time.
        self.stamp_seq += 1;
        let stamp = self.stamp_seq;
        let base = s * self.hot.len();
        let sleepers = &mut self.sleeper_ops[s];
        let mut i = 0;
        while let Some(&opi) = sleepers.get(i) {
            let k = base + opi as usize;
            if self.sleeper_op_count[k] == 0 {
                // No sleeper on it any more.
                self.sleeper_listed[k] = false;
                sleepers.swap_remove(i);
                continue;
            }
            self.quiet_gathered[opi as usize] = stamp;
            ops.push(opi);
            i += 1;
        }
        let list = &self.resident[s];
        let mut awake = !self.event_sleepers[s] & positions(list.len());
        let mut wake = u64::MAX;
        while awake != 0 {
            let wid = list[awake.trailing_zeros() as usize];
            awake &= awake - 1;
            let w = &self.waves[wid as usize];
            wake = wake.min(w.ready_at);
            let seen = &mut self.quiet_gathered[w.opi as usize];
            if *seen != stamp {
                *seen = stamp;
                ops.push(w.opi);
            }
        }
        wake
    }

    /// When the last of SIMD `simd`'s own pipes frees up.
    pub(super) fn simd_pipes_free_at(&self, simd: u32) -> u64 {
        self.simd_pipes
            .iter()
            .map(|&u| self.units[usize::from(u)].free_at[simd as usize])
            .max()
            .unwrap_or(0)
    }

    #[inline]
    fn can_issue(&mut self, wid: usize, opi: usize, op: &HotOp) -> bool {
        let w = &self.waves[wid];
        // A busy pipe frees at a known clock and nothing before it can
        // change that (a unit is only taken once free), and it is checked
        // first, so the wave sleeps until then: visiting it meanwhile would
        // change nothing.
        if op.pipe {
            let u = &self.units[op.unit as usize];
            let free = u.free_at[u.instance(w.simd)];
            if free > self.now {
                let cause = self.causes.busy + u16::from(op.unit);
                self.sleep_noting(wid, free, cause, free);
                return false;
            }
        }
        if op.also_unit != NONE {
            let a = &self.units[op.also_unit as usize];
            let free = a.free_at[a.instance(w.simd)];
            if free > self.now {
                // As above: no check before this one can fail until then.
                let cause = self.causes.busy + u16::from(op.also_unit);
                self.sleep_noting(wid, free, cause, free);
                return false;
            }
        }
        // (Nothing to wait for once every write the wave issued is done.)
        if let Some(t) = w.track.as_ref().filter(|t| t.latest > self.now) {
            // Register dependencies and the hardware's implicit waits: the
            // wave cannot issue before its inputs are ready. The time is
            // known now (only the wave itself writes its registers), so the
            // wave sleeps until then.
            let mut ready = 0u64;
            let (start, len) = op.reads;
            let slots = self.slots;
            for &slot in &slots[start as usize..start as usize + len as usize] {
                ready = ready.max(t.ready(slot));
            }
            if op.flags & op_flags::WAIT_VALU_VGPR != 0 {
                ready = ready.max(t.valu_vgpr_done);
            }
            if op.flags & op_flags::WAIT_VALU_SGPR != 0 {
                ready = ready.max(t.valu_sgpr_done);
            }
            if ready > self.now {
                let announced = w.prev_opi != super::NONE_OP
                    && self.hot[w.prev_opi as usize].flags & op_flags::DELAY_ALU != 0;
                let extra = if announced { 0 } else { self.dependency_extra };
                self.sleep_noting(wid, ready + extra, self.causes.dependency, ready + extra);
                return false;
            }
        }
        if !op.pipe {
            let u = &self.units[op.unit as usize];
            if w.unit_in_flight[op.unit as usize] >= u.wave_limit
                || u.cu_in_flight[w.cu as usize] >= u.cu_limit
            {
                let cause = self.causes.in_flight + u16::from(op.unit);
                self.note_cause(wid, cause, u64::MAX);
                return false;
            }
        }
        let mut inc = op.inc;
        while inc != 0 {
            let c = inc.trailing_zeros() as usize;
            if w.cnt[c] >= self.counter_max[c] {
                self.note_cause(wid, self.causes.full + c as u16, u64::MAX);
                return false;
            }
            inc &= inc - 1;
        }
        if op.flags & op_flags::ALLOC_VGPR != 0 && !self.alloc_fits(wid, opi) {
            // The compiler's retry loop spins on s_alloc_vgpr until it
            // succeeds: the wave sits on it.
            if STATS {
                self.stats.alloc_denied[opi] += 1;
            }
            self.note_cause(wid, self.causes.alloc, u64::MAX);
            return false;
        }
        true
    }

    /// The blocks `s_alloc_vgpr` at `opi` asks wave `wid` to hold.
    pub(super) fn alloc_target(&self, opi: usize) -> Option<u32> {
        let d = self.dynamic?;
        let vgprs = self.alloc[opi]?;
        Some(if vgprs == u32::MAX {
            d.max_blocks
        } else {
            // At least the slot's reserved block.
            vgprs.div_ceil(d.block).max(1)
        })
    }

    /// Can wave `wid`'s allocation at `opi` succeed now?
    fn alloc_fits(&self, wid: usize, opi: usize) -> bool {
        let (Some(d), Some(target)) = (self.dynamic, self.alloc_target(opi)) else {
            return true;
        };
        let w = &self.waves[wid];
        if target > d.max_blocks {
            return false;
        }
        if target <= w.vgpr_blocks {
            return true;
        }
        let extra = target - w.vgpr_blocks;
        let pool = &self.pools[w.simd as usize];
        extra <= pool.free
            || d.deadlock_avoidance
                && pool.reserve_holder.is_none_or(|h| h as usize == wid)
                && extra <= pool.free + pool.reserve_free
    }

    /// Apply a successful allocation (grow or shrink) of wave `wid`.
    fn alloc_apply(&mut self, wid: usize, opi: usize) {
        let Some(target) = self.alloc_target(opi) else {
            return;
        };
        let w = &mut self.waves[wid];
        let pool = &mut self.pools[w.simd as usize];
        if target >= w.vgpr_blocks {
            let extra = target - w.vgpr_blocks;
            let from_pool = extra.min(pool.free);
            pool.free -= from_pool;
            let from_reserve = extra - from_pool;
            if from_reserve > 0 {
                pool.reserve_free -= from_reserve;
                pool.reserve_holder = Some(wid as u32);
                w.reserve_blocks += from_reserve;
            }
            pool.in_use += extra;
        } else {
            Self::release_blocks(w, pool, w.vgpr_blocks - target);
        }
        w.vgpr_blocks = target;
        let in_use = pool.in_use;
        self.stats.peak_vgpr_blocks = self.stats.peak_vgpr_blocks.max(in_use);
    }

    /// Give back `n` of a wave's extra blocks: the reserve first.
    pub(super) fn release_blocks(w: &mut Wave<'_>, pool: &mut VgprPool, n: u32) {
        let to_reserve = n.min(w.reserve_blocks);
        w.reserve_blocks -= to_reserve;
        pool.reserve_free += to_reserve;
        if w.reserve_blocks == 0 && to_reserve > 0 {
            pool.reserve_holder = None;
        }
        pool.free += n - to_reserve;
        pool.in_use -= n;
    }

    fn issue(&mut self, wid: usize, opi: usize, op: &HotOp) {
        self.unsit(wid);
        let now = self.now;
        // (Allocations apply in dynamic VGPR mode only.)
        if self.dynamic.is_some() && op.flags & op_flags::ALLOC_VGPR != 0 {
            self.alloc_apply(wid, opi);
        }
        let unit_idx = op.unit as usize;
        // (The wave is looked up once: the rest changes other fields.)
        let w = &mut self.waves[wid];
        let simd = w.simd;
        let u = &mut self.units[unit_idx];
        let inst = u.instance(simd);
        let cost = u64::from(op.cost);
        u.inst_busy[inst] += cost;
        let mut inc = op.inc;
        while inc != 0 {
            w.cnt[inc.trailing_zeros() as usize] += 1;
            inc &= inc - 1;
        }
        w.advance(self.input.sim, self.issue_cat);
        if let Some(t) = &mut w.track {
            let done = now + u64::from(op.result_delay);
            let (start, len) = op.writes;
            let slots = self.slots;
            t.write(&slots[start as usize..start as usize + len as usize], done);
            // (`write` raised the track's latest clock to `done`: the
            // pushes of `done` need not.)
            let flags = op.flags;
            if flags & ALU_WRITES != 0 {
                if flags & op_flags::VALU_VGPR_WRITE != 0 {
                    t.push_written(VA_VDST, done);
                    t.valu_vgpr_done = t.valu_vgpr_done.max(done);
                }
                if flags & op_flags::VALU_SGPR_WRITE != 0 {
                    t.push_written(VA_SDST, done);
                    t.valu_sgpr_done = t.valu_sgpr_done.max(done);
                }
                if flags & op_flags::VALU_VCC_WRITE != 0 {
                    t.push_written(VA_VCC, done);
                }
                if flags & op_flags::SALU_SGPR_WRITE != 0 {
                    t.push_written(SA_SDST, done);
                }
            }
            if op.flags & op_flags::VMEM_VGPR_READ != 0 {
                // Sources are read while the op is served.
                let served = u.free_at[inst].max(now) + cost;
                t.push(VM_VSRC, served);
            }
        }
        if op.also_unit != NONE {
            let a = &mut self.units[op.also_unit as usize];
            let ai = a.instance(simd);
            a.set_free_at(ai, now + u64::from(op.also_cost));
            a.inst_busy[ai] += u64::from(op.also_cost);
        }
        let u = &mut self.units[unit_idx];
        match u.kind {
            UnitKind::Pipe => {
                u.set_free_at(inst, now + cost);
                w.ready_at = now + cost.max(1);
                if op.inc != 0 {
                    self.events.push(Reverse(Event::new(
                        now + cost + u.latency,
                        wid as u32,
                        op.inc,
                        NONE,
                    )));
                }
            }
            UnitKind::Queue => {
                let start = u.free_at[inst].max(now);
                let end = start + cost;
                u.set_free_at(inst, end);
                // A `[[memory]] latency` hint wins; else the cache
                // hierarchy serves the op's requests; else the unit's latency.
                let latency = if op.latency != u32::MAX {
                    u64::from(op.latency)
                } else if let Some(l) = self
                    .memory
                    .as_mut()
                    .and_then(|m| m.serve(opi, w.id as usize, wid, w.cu as usize, end))
                {
                    l
                } else {
                    u.latency
                };
                let returned = match u.return_order {
                    None => end + latency,
                    Some(ReturnOrder::Cu) => {
                        let cu = w.cu as usize;
                        let t = (end + latency).max(u.last_return[cu]);
                        u.last_return[cu] = t;
                        t
                    }
                    Some(ReturnOrder::Wave) => {
                        let mut t = end + latency;
                        let mut inc = op.inc & !op.dec_at_service;
                        while inc != 0 {
                            let c = inc.trailing_zeros() as usize;
                            t = t.max(self.wave_returns[wid][c]);
                            inc &= inc - 1;
                        }
                        let mut inc = op.inc & !op.dec_at_service;
                        while inc != 0 {
                            let c = inc.trailing_zeros() as usize;
                            self.wave_returns[wid][c] = t;
                            inc &= inc - 1;
                        }
                        t
                    }
                };
                u.cu_in_flight[w.cu as usize] += 1;
                w.unit_in_flight[unit_idx] += 1;
                w.ready_at = now + 1;
                if op.dec_at_service != 0 {
                    self.events.push(Reverse(Event::new(
                        end,
                        wid as u32,
                        op.dec_at_service,
                        NONE,
                    )));
                }
                self.events.push(Reverse(Event::new(
                    returned,
                    wid as u32,
                    op.inc & !op.dec_at_service,
                    unit_idx as u8,
                )));
            }
        }
        // (`issues`, their sum, is summed at the end.)
        self.stats.category_issues[op.category as usize] += 1;
        if O::ACTIVE {
            // The unit's `free_at` now ends this op's service.
            let end = self.units[unit_idx].free_at[inst];
            let event = IssueEvent {
                clock: now,
                wave: self.waves[wid].id,
                simd,
                op: opi as u32,
                unit: op.unit,
                service_start: end.saturating_sub(cost),
                service_end: end,
                wave_ready: self.waves[wid].ready_at,
            };
            self.observer.issue(&event);
        }
    }

    /// Wave `wid` sleeps until one of its counters falls.
    fn sleep_until_event(&mut self, wid: usize) {
        let w = &mut self.waves[wid];
        if w.ready_at == WAIT_SLEEP {
            return;
        }
        w.ready_at = WAIT_SLEEP;
        self.event_sleepers[w.simd as usize] |= 1 << w.pos;
        if STATS {
            let (simd, opi) = (w.simd, w.opi);
            self.sleeper_op_add(simd, opi);
        }
    }

    /// Wave `wid` moves on to its next op.
    #[inline(always)]
    fn advance(&mut self, wid: usize) {
        self.waves[wid].advance(self.input.sim, self.issue_cat);
    }

    /// Wave `wid` passes its free op `opi`: it stops sitting, `settle`
    /// updates it (a sleep's wake-up clock, leaving a barrier), it moves on,
    /// and the pass is counted and observed. (The one sequence every free
    /// op that passes takes.)
    #[inline(always)]
    fn pass_free_op(&mut self, wid: usize, opi: usize, settle: impl FnOnce(&mut Wave<'_>)) {
        self.unsit(wid);
        settle(&mut self.waves[wid]);
        self.advance(wid);
        self.stats.free_ops += 1;
        self.observer
            .pass(self.now, self.observed_id(wid), opi as u32);
    }

    /// Let wave `wid` take one free op if it can. Returns whether it did.
    /// (A bool, not a `Result`: no free op fails, and the turn's loop
    /// tests it for every free op.)
    #[inline(never)]
    fn free_step(&mut self, wid: usize) -> bool {
        let w = &self.waves[wid];
        let opi = w.opi as usize;
        // (`hot` is the run's slice, not the unit's: holding the op does
        // not hold the unit, and the wait's limits are read where used,
        // not copied for every kind.)
        let hot = self.hot;
        let o = &hot[opi];
        match o.kind {
            OpKind::Unit | OpKind::NoPath => false,
            OpKind::Nop => {
                self.pass_free_op(wid, opi, |_| {});
                true
            }
            OpKind::Sleep => {
                let ready_at = self.now + u64::from(o.cost).max(1);
                self.pass_free_op(wid, opi, |w| w.ready_at = ready_at);
                true
            }
            OpKind::DepWait => {
                let now = self.now;
                let until = w
                    .track
                    .as_ref()
                    .map_or(now, |t| t.depctr_settled(&self.depctr[opi], now));
                if until > now {
                    // Only time settles it: sleep until then.
                    self.sleep_noting(wid, until, self.causes.dependency, until);
                    false
                } else {
                    self.pass_free_op(wid, opi, |_| {});
                    true
                }
            }
            OpKind::Wait => {
                // Counters without a limit (`u8::MAX`) always pass.
                let mut m = o.wait_mask;
                // The first counter (in counter order) above its limit.
                let mut unmet = None;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    if w.cnt[c] > o.wait[c] {
                        unmet = Some(c);
                        break;
                    }
                    m &= m - 1;
                }
                let Some(c) = unmet else {
                    self.pass_free_op(wid, opi, |_| {});
                    return true;
                };
                // Only a returning op can satisfy it: sleep until one of
                // the wave's counters falls.
                self.sleep_until_event(wid);
                self.note_cause(wid, self.causes.wait + c as u16, u64::MAX);
                false
            }
            OpKind::Barrier => {
                let gid = w.group as usize;
                let mut changed = false;
                if !w.at_barrier {
                    let gen = self.groups[gid].gen;
                    let w = &mut self.waves[wid];
                    w.at_barrier = true;
                    w.barrier_gen = gen;
                    self.groups[gid].arrived += 1;
                    self.try_release(gid);
                    changed = true;
                }
                if self.waves[wid].at_barrier && self.groups[gid].gen > self.waves[wid].barrier_gen
                {
                    self.pass_free_op(wid, opi, |w| w.at_barrier = false);
                    changed = true;
                } else {
                    self.note_cause(wid, self.causes.barrier, u64::MAX);
                }
                changed
            }
            OpKind::End => {
                // The wave's registers are released only when its ALU
                // results have been written.
                let alu_done = w.track.as_ref().map_or(0, |t| {
                    t.valu_vgpr_done
                        .max(t.valu_sgpr_done)
                        .max(t.rings[SA_SDST].iter().copied().max().unwrap_or(0))
                });
                if alu_done > self.now {
                    self.sleep_noting(wid, alu_done, self.causes.drain, alu_done);
                    return false;
                }
                if w.cnt.iter().all(|&c| c == 0) {
                    self.retire(wid);
                    true
                } else {
                    self.sleep_until_event(wid);
                    self.note_cause(wid, self.causes.drain, u64::MAX);
                    false
                }
            }
        }
    }
}
