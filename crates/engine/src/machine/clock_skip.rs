//! The clocks between events: when the loop next has work (an event, a
//! wave's arrival, a free unit, a wake), what the skipped clocks count,
//! the dormant SIMDs woken, and the events that fall due.

use super::*;

impl<O: Observer, const STATS: bool> ComputeUnit<'_, O, STATS> {
    /// The earliest clock after `now` at which an event falls due, a wave
    /// arrives, a unit frees up or a wave wakes; `None` if nothing will
    /// ever change (a deadlock).
    pub(super) fn next_wake(&self) -> Option<u64> {
        let now = self.now;
        let mut t = u64::MAX;
        if let Some(Reverse(e)) = self.events.peek() {
            t = t.min(e.time());
        }
        // A unit that freed up, or a wave that woke, less than one issue
        // interval ago has not yet been seen by every SIMD's turn (a cost
        // that is not a multiple of the interval frees a unit between
        // turns): that is not a deadlock, the next clock may issue.
        // (With an interval of one clock every SIMD had its turn at `now`,
        // after the events and the dispatch: anything up to `now` was seen.)
        let recent = |x: u64| self.interval > 1 && x <= now && x + self.interval > now;
        if self.interval > 1 {
            for u in &self.units {
                // (Every instance free long enough ago to be neither after
                // `now` nor recent: nothing to read.)
                if u.latest_free_at + self.interval <= now {
                    continue;
                }
                for &f in &u.free_at {
                    if f > now {
                        t = t.min(f);
                    } else if recent(f) {
                        t = t.min(now + 1);
                    }
                }
            }
        } else {
            // Nothing is recent: the earliest unit freeing after `now`,
            // branch-free (this runs on every idle stretch).
            for u in &self.units {
                // (Every instance free by `now`: nothing after it.)
                if u.latest_free_at <= now {
                    continue;
                }
                t = u
                    .free_at
                    .iter()
                    .fold(t, |t, &f| t.min(if f > now { f } else { u64::MAX }));
            }
        }
        // Nested loops: a flattened iterator costs more per wave here.
        for (s, (list, &quiet)) in self.resident.iter().zip(&self.quiet_until).enumerate() {
            if quiet > now {
                // The earliest of its waves' wake-ups (the others sleep
                // until an event).
                t = t.min(quiet);
                continue;
            }
            // (Only the waves awake: an event sleeper's `ready_at` is
            // `WAIT_SLEEP`, which lowers no minimum.)
            let mut awake = !self.event_sleepers[s] & positions(list.len());
            while awake != 0 {
                let w = list[awake.trailing_zeros() as usize];
                awake &= awake - 1;
                let r = self.waves[w as usize].ready_at;
                if r > now {
                    t = t.min(r);
                } else if recent(r) {
                    t = t.min(now + 1);
                }
            }
        }
        let pending = self.groups_started < self.total_groups || self.launching_group.is_some();
        if pending {
            match self.launching_group {
                Some(g) => {
                    if self.cu_free(self.groups[g as usize].cu) > 0 {
                        t = t.min(now + 1);
                    }
                }
                None => {
                    // (Blocked: no CU had room, and none has until a wave
                    // retires.)
                    if !self.dispatch_blocked && self.dispatch_cu().is_some() {
                        t = t.min(self.arrival_time(self.groups_started).max(now + 1));
                    }
                }
            }
        }
        (t != u64::MAX).then_some(t)
    }

    /// Account the statistics of clocks `now+1 .. t` in which nothing can
    /// happen: starve clocks, issue turns, stall turns and per-op stalls,
    /// exactly as stepping each clock would.
    pub(super) fn account_skipped(&mut self, t: u64) {
        let from = self.now + 1;
        if !STATS || t <= from {
            return;
        }
        let span = t - from;
        if self.resident_total() == 0 {
            self.stats.starve_clocks += span;
            return;
        }
        let interval = self.interval;
        // Turns of phase p (clocks = p mod interval) in [from, t).
        let turns = |p: u64| -> u64 {
            let first = from + (p + interval - from % interval) % interval;
            if first >= t {
                0
            } else {
                (t - 1 - first) / interval + 1
            }
        };
        for phase in 0..interval {
            let n = turns(phase);
            if n == 0 {
                continue;
            }
            self.stamp_seq += 1;
            let stamp = self.stamp_seq;
            let mut s = phase as u32;
            while s < self.simds {
                // A dormant SIMD's turns are counted when it wakes.
                if !self.resident[s as usize].is_empty()
                    && self.dormant_from[s as usize] == NOT_DORMANT
                {
                    self.stats.turns_with_waves += n;
                    let quiet = self.quiet_until[s as usize] > self.now;
                    let pipes_free_at = if quiet {
                        self.quiet_pipes_free_at[s as usize]
                    } else {
                        self.simd_pipes_free_at(s)
                    };
                    if pipes_free_at <= from {
                        self.stats.stall_turns += n;
                        for &wid in &self.resident[s as usize] {
                            let opi = self.waves[wid as usize].opi as usize;
                            // (An op a dormant SIMD of the phase sits on is
                            // counted by it.)
                            if self.quiet_cover[opi * interval as usize + phase as usize] == 0 {
                                let stalls =
                                    (&mut self.op_stall_stamp[..], &mut self.stats.op_stalls[..]);
                                count_op_stall(stalls, opi, stamp, n);
                            }
                        }
                    }
                }
                s += interval as u32;
            }
        }
    }

    /// Turns of a SIMD whose turns fall on `from` (a turn clock) and every
    /// `interval` clocks after it, before clock `to`.
    pub(super) fn turns_between(&self, from: u64, to: u64) -> u64 {
        if to > from {
            turns_in(to - from, self.interval)
        } else {
            0
        }
    }

    /// Dormant SIMD `simd` wakes at the start of clock `now` (before any
    /// turn of it): count the turns it slept through, as `quiet_turn`
    /// would have one by one.
    pub(super) fn wake_dormant(&mut self, simd: u32) {
        let s = simd as usize;
        let now = self.now;
        let n = self.turns_between(self.dormant_from[s], now);
        self.dormant_from[s] = NOT_DORMANT;
        self.stats.turns_with_waves += n;
        self.stats.stall_turns += n;
        let interval = self.interval as usize;
        let phase = phase_of(s, self.interval);
        let (cover, cover_from) = (&mut self.quiet_cover, &self.quiet_cover_from);
        for &opi in &self.quiet_ops[s] {
            let k = opi as usize * interval + phase;
            cover[k] -= 1;
            if cover[k] == 0 {
                // The last dormant SIMD of the phase on this op: the turns
                // since the first of them went dormant.
                let from = cover_from[k];
                if now > from {
                    self.stats.op_stalls[opi as usize] += turns_in(now - from, self.interval);
                }
            }
        }
    }

    /// Wake the dormant SIMDs whose `quiet_until` has come, and find the
    /// next such clock.
    #[inline(never)]
    pub(super) fn wake_due_dormant(&mut self) {
        let mut next = u64::MAX;
        for s in 0..self.simds {
            if self.dormant_from[s as usize] == NOT_DORMANT {
                continue;
            }
            let until = self.quiet_until[s as usize];
            if until <= self.now {
                self.wake_dormant(s);
            } else {
                next = next.min(until);
            }
        }
        self.next_dormant_wake = next;
    }

    /// SIMD `simd` looks again this clock (an event for one of its waves,
    /// or a new wave): it is no longer quiet.
    #[inline(always)]
    pub(super) fn end_quiet(&mut self, simd: u32) {
        self.quiet_until[simd as usize] = 0;
        if self.dormant_from[simd as usize] != NOT_DORMANT {
            self.wake_dormant(simd);
        }
    }

    pub(super) fn apply_events(&mut self) -> bool {
        let mut any = false;
        while let Some(Reverse(e)) = self.events.peek() {
            if e.time() > self.now {
                break;
            }
            let e = *e;
            self.events.pop();
            any = true;
            let w = &mut self.waves[e.wave() as usize];
            // (A retired wave had every counter at zero: only unit
            // releases can still come for it, never for a freed slot.)
            debug_assert!(!w.draining || e.counters() == 0);
            // (A freed slot has nothing in flight. A stale event for a
            // reused slot would underflow a count: debug builds catch it.)
            debug_assert!(!self.free_slots.contains(&e.wave()));
            let mut m = e.counters();
            while m != 0 {
                w.cnt[m.trailing_zeros() as usize] -= 1;
                m &= m - 1;
            }
            let simd = w.simd;
            // (A wave whose wait still holds for the same counter would
            // only fail again for the cause it is charged to, changing
            // nothing: it sleeps on and its SIMD stays quiet. A return for
            // one of several loads in flight wakes nothing.)
            let sleeps_on = w.ready_at == WAIT_SLEEP && self.still_waits(e.wave() as usize);
            if !sleeps_on {
                // A counter or in-flight count fell: the SIMD looks again.
                self.end_quiet(simd);
            }
            let w = &mut self.waves[e.wave() as usize];
            if w.ready_at == WAIT_SLEEP && !sleeps_on {
                // A counter it waits on fell: look again.
                w.ready_at = self.now;
                self.event_sleepers[w.simd as usize] &= !(1 << w.pos);
                // (Its op stays listed until a gathering finds no sleeper
                // on it.)
                if STATS {
                    let k = w.simd as usize * self.hot.len() + w.opi as usize;
                    self.sleeper_op_count[k] -= 1;
                }
            }
            let w = &mut self.waves[e.wave() as usize];
            if e.unit() != NONE {
                w.unit_in_flight[e.unit() as usize] -= 1;
                let cu = w.cu as usize;
                self.units[e.unit() as usize].cu_in_flight[cu] -= 1;
                if w.draining && w.unit_in_flight.iter().all(|&n| n == 0) {
                    // Its last event: the slot may take the next wave.
                    w.draining = false;
                    self.free_slots.push(e.wave());
                }
            }
        }
        any
    }

    /// Whether wave `wid`, asleep until an event, would fail its op again
    /// now for the cause it sleeps on: its wait's first counter above its
    /// limit is the one it was charged to (a full run; a probe charges no
    /// cause, so any counter above its limit), or the end of program still
    /// has counters to drain. Inline: out of line it cost every benchmark
    /// more (callgrind).
    #[inline(always)]
    fn still_waits(&self, wid: usize) -> bool {
        let w = &self.waves[wid];
        let o = &self.hot[w.opi as usize];
        match o.kind {
            OpKind::Wait => {
                let mut m = o.wait_mask;
                while m != 0 {
                    let c = m.trailing_zeros() as usize;
                    if w.cnt[c] > o.wait[c] {
                        return !STATS || w.cause == self.causes.wait + c as u16;
                    }
                    m &= m - 1;
                }
                false
            }
            OpKind::End => w.cnt.iter().any(|&c| c != 0),
            _ => false,
        }
    }

    /// A wave of SIMD `simd` on op `opi` went to sleep until an event.
    #[inline(always)]
    pub(super) fn sleeper_op_add(&mut self, simd: u32, opi: u32) {
        let k = simd as usize * self.hot.len() + opi as usize;
        self.sleeper_op_count[k] += 1;
        if !self.sleeper_listed[k] {
            self.sleeper_listed[k] = true;
            self.sleeper_ops[simd as usize].push(opi);
        }
    }
}
