//! The stall causes of the issue stage: a wave that cannot issue or pass
//! its op sits on it, and the clocks it sits are charged to the cause it
//! waits for (per wave, per op and per cause), so the report can say why
//! the time went.

use super::*;

impl<O: Observer, const STATS: bool> ComputeUnit<'_, O, STATS> {
    /// Wave `wid` could not issue its op this turn: it sits on it (from
    /// now on, if it was not already).
    #[inline(always)]
    pub(super) fn sit(&mut self, wid: usize) {
        if !self.waves[wid].sitting {
            self.start_sitting(wid);
        }
    }

    /// Wave `wid` starts sitting on its op. A probe keeps only what the
    /// issue scan reads (the flag and its SIMD's sitting mask), inline; a
    /// full run counts the op's sitting too, out of line.
    #[inline(always)]
    pub(super) fn start_sitting(&mut self, wid: usize) {
        if STATS {
            self.start_sitting_counted(wid);
        } else {
            self.mark_sitting(wid, true);
        }
    }

    /// Set wave `wid`'s sitting flag and its bit in its SIMD's sitting
    /// mask of its op's category.
    #[inline(always)]
    fn mark_sitting(&mut self, wid: usize, sitting: bool) {
        let w = &mut self.waves[wid];
        w.sitting = sitting;
        if w.cat != NO_CAT {
            let mask = &mut self.sit_masks[w.simd as usize * self.ncat + w.cat as usize];
            if sitting {
                *mask |= 1 << w.pos;
            } else {
                *mask &= !(1 << w.pos);
            }
        }
    }

    #[inline(never)]
    fn start_sitting_counted(&mut self, wid: usize) {
        self.mark_sitting(wid, true);
        let w = &self.waves[wid];
        let op = w.opi as usize;
        let sit = &mut self.op_sit[op];
        if sit.count == 0 {
            sit.sat = sit.sat.wrapping_sub(self.now);
        }
        sit.count += 1;
        self.observer
            .sit(self.now, self.observed_id(wid), op as u32);
    }

    /// Wave `wid` cannot issue or pass its op now, for `cause` (a
    /// `StallCause` row position), which time alone ends at `until`
    /// (`u64::MAX`: an event or another wave ends it). The clocks it sat
    /// since the last cause go to that one.
    #[inline(always)]
    pub(super) fn note_cause(&mut self, wid: usize, cause: u16, until: u64) {
        if !STATS {
            return;
        }
        let clock = self.cause_clock();
        let w = &mut self.waves[wid];
        let counts = (&mut self.stats.op_cause_clocks[..], &mut self.op_sit[..]);
        note_wave_cause(w, clock, counts, cause, until);
    }

    /// `note_cause` for a wave that sleeps until `ready_at` (looked up
    /// once for both).
    #[inline(always)]
    pub(super) fn sleep_noting(&mut self, wid: usize, ready_at: u64, cause: u16, until: u64) {
        if !STATS {
            self.waves[wid].ready_at = ready_at;
            return;
        }
        let clock = self.cause_clock();
        let w = &mut self.waves[wid];
        w.ready_at = ready_at;
        let counts = (&mut self.stats.op_cause_clocks[..], &mut self.op_sit[..]);
        note_wave_cause(w, clock, counts, cause, until);
    }

    /// What charging a wave's cause reads of the unit.
    #[inline(always)]
    pub(super) fn cause_clock(&self) -> CauseClock {
        CauseClock {
            now: self.now,
            interval: self.interval,
            ncauses: self.ncauses,
        }
    }

    /// Charge the clocks sitting wave `wid` sat since its cause was noted
    /// to its op's row: to that cause until it cleared and its SIMD's turn
    /// came round (the wave could not issue sooner), and to arbitration
    /// after (the wave could have issued, but nobody looked at it: an older
    /// wave took its category each turn).
    /// Inline: called for most ops (a wave that sat and issues, or fails
    /// again), and measured cheaper inline than a call (callgrind); the
    /// sit and rise around it stay calls (inline, they cost more).
    #[inline(always)]
    pub(super) fn charge_cause(&mut self, wid: usize) {
        if !STATS {
            return;
        }
        let clock = self.cause_clock();
        let counts = (&mut self.stats.op_cause_clocks[..], &mut self.op_sit[..]);
        charge_wave_cause(&mut self.waves[wid], clock, counts);
    }

    /// Wave `wid` leaves its op (issued it, passed it, or ended).
    #[inline(always)]
    pub(super) fn unsit(&mut self, wid: usize) {
        if self.waves[wid].sitting {
            if STATS {
                self.stop_sitting(wid);
            } else {
                self.mark_sitting(wid, false);
            }
        }
    }

    #[inline(never)]
    pub(super) fn stop_sitting(&mut self, wid: usize) {
        self.charge_cause(wid);
        self.mark_sitting(wid, false);
        let w = &self.waves[wid];
        let op = w.opi as usize;
        let sit = &mut self.op_sit[op];
        sit.count -= 1;
        if sit.count == 0 {
            sit.sat = sit.sat.wrapping_add(self.now);
        }
        self.observer.rise(self.now, self.observed_id(wid));
    }
}

/// What charging a wave's cause reads besides the wave: the clock, the
/// issue interval and the row width of `op_cause_clocks`.
#[derive(Clone, Copy)]
pub(super) struct CauseClock {
    now: u64,
    interval: u64,
    ncauses: usize,
}

/// Where charged clocks go: `op_cause_clocks` (per op and cause), and the
/// per-op records, which hold the arbitration clocks until `finish`.
pub(super) type CauseCounts<'c> = (&'c mut [u64], &'c mut [OpSit]);

/// Wave `w` cannot issue or pass its op now, for `cause`, which time
/// alone ends at `until` (see `ComputeUnit::note_cause`).
#[inline(always)]
pub(super) fn note_wave_cause(
    w: &mut Wave<'_>,
    clock: CauseClock,
    counts: CauseCounts<'_>,
    cause: u16,
    until: u64,
) {
    if w.sitting {
        // The same cause again, not yet cleared (`cause_until` not
        // passed), ending no earlier than now: charging now would give
        // every clock since `cause_since` to the cause, and the next
        // charge would split from `until` as it will without this one
        // (`until` >= now >= `cause_since`), so the sums are the same
        // with one charge instead of one per failed turn.
        if cause == w.cause && w.cause_until >= clock.now && until >= clock.now {
            w.cause_until = until;
            return;
        }
        charge_wave_cause(w, clock, counts);
    }
    w.cause = cause;
    w.cause_since = clock.now;
    w.cause_until = until;
}

/// Charge the clocks sitting wave `w` sat since its cause was noted to its
/// op's `OpSit` (the cause's share to its cached cause, or to its row of
/// `op_cause_clocks` if another cause is cached; the arbitration share to
/// its arbitration count; see `ComputeUnit::charge_cause`).
/// A share of nothing writes nothing (a line not dirtied).
#[inline(always)]
pub(super) fn charge_wave_cause(w: &mut Wave<'_>, clock: CauseClock, counts: CauseCounts<'_>) {
    let CauseClock {
        now,
        interval,
        ncauses,
    } = clock;
    let since = w.cause_since;
    if now <= since {
        return;
    }
    let split = if w.cause_until >= now {
        now
    } else {
        let clear = w.cause_until.max(since);
        // Its SIMD's turns are the clocks of phase `simd % interval`: the
        // first at or after `clear` is `(simd - clear) mod interval` later.
        // (Issue intervals are mostly powers of two: a mask of the
        // wrapping difference, not a division.)
        let simd = u64::from(w.simd);
        let to_turn = if interval.is_power_of_two() {
            simd.wrapping_sub(clear) & (interval - 1)
        } else {
            (simd % interval + interval - clear % interval) % interval
        };
        (clear + to_turn).min(now)
    };
    let (clocks, sits) = counts;
    let op = w.opi as usize;
    let sit = &mut sits[op];
    if split > since {
        let cause = w.cause;
        if sit.cause == cause {
            sit.cause_clocks += split - since;
        } else {
            // Another cause: the record's goes to the row, this one
            // takes its place.
            if sit.cause_clocks != 0 {
                clocks[op * ncauses + sit.cause as usize] += sit.cause_clocks;
            }
            sit.cause = cause;
            sit.cause_clocks = split - since;
        }
    }
    if now > split {
        sit.arbitration += now - split;
    }
    w.cause_since = now;
}
