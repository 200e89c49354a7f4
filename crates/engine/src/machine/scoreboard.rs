//! A wave's register scoreboard: when each register's newest value can
//! be read, and the completion times of its outstanding ALU writes that
//! `s_waitcnt_depctr` counts (models with `scoreboard = true`; RDNA). The
//! issue check reads it; only the wave itself writes it.

use crate::ops::SCOREBOARD_SLOTS;
use shadersim_isa::DepCtr;

/// Kinds of outstanding work `s_waitcnt_depctr` counts (rdna-model.md 2.7).
pub(super) const VA_VDST: usize = 0;
pub(super) const VA_SDST: usize = 1;
pub(super) const VA_VCC: usize = 2;
pub(super) const SA_SDST: usize = 3;
pub(super) const VM_VSRC: usize = 4;
pub(super) const TRACKED_KINDS: usize = 5;
/// Completion times kept per kind: the widest field (`va_vdst`) counts to 15.
pub(super) const RING: usize = 16;

/// Entries of [`WaveTrack::ready`]: the slots rounded up to a power of
/// two, so that a slot masked with `READY_LEN - 1` (every slot is below
/// `SCOREBOARD_SLOTS`: the mask changes none) indexes it without a bounds
/// check. The issue check reads a slot per register an op names.
const READY_LEN: usize = SCOREBOARD_SLOTS.next_power_of_two();

/// A wave's register scoreboard and its outstanding ALU writes (models
/// with `scoreboard = true`).
#[derive(Debug, Clone)]
pub(super) struct WaveTrack {
    /// Clock at which each register's newest value can be read (by
    /// slot, [`WaveTrack::ready`]; the entries past `SCOREBOARD_SLOTS`
    /// are never used).
    ready: [u64; READY_LEN],
    /// Completion times of the latest writes of each tracked kind.
    pub(super) rings: [[u64; RING]; TRACKED_KINDS],
    heads: [u8; TRACKED_KINDS],
    /// The latest clock each kind's ring holds: a kind whose writes are
    /// all done by now has nothing outstanding, and `settled` need not
    /// look at its ring.
    kind_latest: [u64; TRACKED_KINDS],
    /// When every VALU VGPR / SGPR write issued so far has completed.
    pub(super) valu_vgpr_done: u64,
    pub(super) valu_sgpr_done: u64,
    /// The latest clock any entry holds. Every reader compares entries
    /// with the current clock, so entries not after it read as zeros do:
    /// once this has passed, the issue check skips the wave's registers,
    /// and a retired wave's track serves a new wave unzeroed
    /// (`ComputeUnit::spare_tracks`). Kept by [`WaveTrack::write`] and
    /// [`WaveTrack::push`], the only writers of entries.
    pub(super) latest: u64,
}

impl WaveTrack {
    pub(super) fn new() -> Box<WaveTrack> {
        Box::new(WaveTrack::zeroed())
    }

    pub(super) fn zeroed() -> WaveTrack {
        WaveTrack {
            ready: [0; READY_LEN],
            rings: [[0; RING]; TRACKED_KINDS],
            heads: [0; TRACKED_KINDS],
            kind_latest: [0; TRACKED_KINDS],
            valu_vgpr_done: 0,
            valu_sgpr_done: 0,
            latest: 0,
        }
    }

    /// A track for a wave launched at `now`: a retired wave's if one is
    /// spare (zeroed only if it still holds a clock after `now`), else a
    /// new one. Saves an allocation and a clearing of its ~6 KB per wave.
    pub(super) fn reuse(spare: &mut Vec<Box<WaveTrack>>, now: u64) -> Box<WaveTrack> {
        match spare.pop() {
            Some(mut t) => {
                if t.latest > now {
                    *t = WaveTrack::zeroed();
                }
                t
            }
            None => WaveTrack::new(),
        }
    }

    /// Registers `slots` hold their new values from `done` on.
    pub(super) fn write(&mut self, slots: &[u16], done: u64) {
        self.latest = self.latest.max(done);
        for &slot in slots {
            self.ready[usize::from(slot) & (READY_LEN - 1)] = done;
        }
    }

    /// The clock at which register slot `slot`'s newest value can be read.
    #[inline(always)]
    pub(super) fn ready(&self, slot: u16) -> u64 {
        self.ready[usize::from(slot) & (READY_LEN - 1)]
    }

    /// A write of `kind` outstanding until `done`.
    pub(super) fn push(&mut self, kind: usize, done: u64) {
        self.latest = self.latest.max(done);
        self.push_written(kind, done);
    }

    /// [`WaveTrack::push`] of a `done` that `latest` already covers (the
    /// op's register writes, [`WaveTrack::write`], raised it).
    #[inline(always)]
    pub(super) fn push_written(&mut self, kind: usize, done: u64) {
        debug_assert!(self.latest >= done);
        let h = self.heads[kind] as usize;
        self.rings[kind][h] = done;
        self.kind_latest[kind] = self.kind_latest[kind].max(done);
        self.heads[kind] = ((h + 1) % RING) as u8;
    }

    /// The clock from which at most `limit` writes of `kind` are still
    /// outstanding (`now` if already so).
    pub(super) fn settled(&self, kind: usize, limit: u8, now: u64) -> u64 {
        if self.kind_latest[kind] <= now {
            // No entry after `now`: none outstanding.
            return now;
        }
        // On the stack: waits ask this often, a heap vector costs more
        // than the search.
        let mut pending = [0u64; RING];
        let mut n = 0;
        for &t in &self.rings[kind] {
            if t > now {
                pending[n] = t;
                n += 1;
            }
        }
        if n <= usize::from(limit) {
            return now;
        }
        let pending = &mut pending[..n];
        pending.sort_unstable();
        pending[n - usize::from(limit) - 1]
    }

    /// The clock from which a depctr wait is satisfied.
    pub(super) fn depctr_settled(&self, d: &DepCtr, now: u64) -> u64 {
        if self.latest <= now {
            // Every write issued is done: nothing outstanding.
            return now;
        }
        [
            (VA_VDST, d.va_vdst),
            (VA_SDST, d.va_sdst),
            (VA_VCC, d.va_vcc),
            (SA_SDST, d.sa_sdst),
            (VM_VSRC, d.vm_vsrc),
        ]
        .into_iter()
        .map(|(k, l)| self.settled(k, l, now))
        .max()
        .unwrap_or(now)
    }
}
