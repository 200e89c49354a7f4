//! The AKB (ALU Kernel Block) and its NMBs (Nami Management Blocks)
//! (seed, "AKB and NMBs", figures 4 and 5).
//!
//! * New Nami from the SDN go to the next non-full NMB after the last one
//!   that received a Nami (round robin over the full flags).
//! * Each clock the AKB selects the next NMB round robin with no skipping:
//!   an empty NMB yields a null Nami. Visiting all four NMBs in turn is what
//!   keeps four clocks between two executions of the same Nami.
//! * An NMB holds up to four Nami: constant data (the pixels), dynamic data
//!   (lane mask, program counter, export grant) and, in the model, the Nami's
//!   registers. It remembers the Nami it sent last and picks a different one
//!   next time if it can.
//! * The valid mask is updated each clock from the add mask A (the lowest
//!   free slot) and the retire mask R: V = (V | A) & !R. The seed prints
//!   `V = V | A & R`, which read literally would never retire anything; the
//!   model implements what the text describes. Full is the AND of V.
//! * When every NMB is full the AKB tells the SDN, which clock-gates itself
//!   and its rasterizers.

use crate::sdn::Nami;
use crate::shader::RegisterFile;

/// The part of a Nami's state that changes while it runs (seed: "valid lane
/// mask, status flags, program counter, and retire status").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DynamicData {
    /// Index of the next instruction.
    pub pc: u16,
    /// Lanes that hold a pixel.
    pub lane_mask: u8,
    /// Set once the export was granted: the Nami is retiring, and an
    /// execution that sees this (through forwarding) becomes a NOP.
    pub export_granted: bool,
}

/// One Nami slot of an NMB.
#[derive(Clone, Debug, Default)]
pub struct NamiSlot {
    /// Constant data: the pixels (address, interpolated and previous colour).
    pub nami: Nami,
    /// Dynamic data as the NMB last heard it (may be stale by one execution).
    pub dynamic: DynamicData,
    /// The Nami's registers.
    pub registers: RegisterFile,
    /// A number unique to this Nami within the AKB, compared by the SKE's
    /// forwarding path (the seed compares Nami IDs).
    pub id: u64,
}

/// V' = (V | A) & !R, the NMB's valid-mask update (seed figure 5, with the
/// retire term negated as the text requires).
pub fn next_valid_mask(valid: u32, add: u32, retire: u32) -> u32 {
    (valid | add) & !retire
}

/// The add mask for a valid mask: the lowest free slot, or 0 when full.
pub fn add_mask(valid: u32, slots: usize) -> u32 {
    let free = !valid & all_slots(slots);
    free & free.wrapping_neg()
}

fn all_slots(slots: usize) -> u32 {
    if slots >= 32 {
        u32::MAX
    } else {
        (1u32 << slots) - 1
    }
}

/// A Nami Management Block.
#[derive(Clone, Debug)]
pub struct Nmb {
    /// Valid mask V.
    valid: u32,
    /// Add and retire masks collected during the current clock.
    add: u32,
    retire: u32,
    /// The slots.
    pub slots: Vec<NamiSlot>,
    /// Slot sent for execution last time, for the fair choice.
    last_sent: usize,
    /// V when every slot is valid (checked every clock: kept, not recomputed).
    full: u32,
}

impl Nmb {
    /// An empty NMB with `slots` Nami slots.
    pub fn new(slots: usize) -> Nmb {
        Nmb {
            valid: 0,
            add: 0,
            retire: 0,
            slots: vec![NamiSlot::default(); slots],
            last_sent: slots.saturating_sub(1),
            full: all_slots(slots),
        }
    }

    /// The valid mask V.
    pub fn valid_mask(&self) -> u32 {
        self.valid
    }

    /// The full flag: AND reduction of V.
    pub fn is_full(&self) -> bool {
        self.valid == self.full
    }

    /// Whether no slot is valid and none is being added.
    pub fn is_empty(&self) -> bool {
        self.valid == 0 && self.add == 0
    }

    /// Take a new Nami into the slot the add mask names; it becomes valid at
    /// the end of the clock. Returns the slot, or `None` if full.
    pub fn add(&mut self, nami: Nami, id: u64) -> Option<usize> {
        self.add_ref(&nami, id)
    }

    /// [`Nmb::add`] filling the slot in place from a borrowed Nami (a slot
    /// is over 300 bytes: building one and moving it in cost a copy per Nami).
    pub fn add_ref(&mut self, nami: &Nami, id: u64) -> Option<usize> {
        let a = add_mask(self.valid | self.add, self.slots.len());
        if a == 0 {
            return None;
        }
        let slot = a.trailing_zeros() as usize;
        self.add |= a;
        let entry = &mut self.slots[slot];
        entry.nami = *nami;
        entry.dynamic = DynamicData {
            pc: 0,
            lane_mask: nami.lane_mask(),
            export_granted: false,
        };
        entry.id = id;
        let registers = &mut entry.registers;
        *registers = RegisterFile::default();
        for (lane, p) in nami.pixels[..nami.count as usize].iter().enumerate() {
            registers.launch(lane, p.colour, p.previous, p.x, p.y);
        }
        Some(slot)
    }

    /// Mark a slot as retiring (its bit goes into R for this clock).
    pub fn retire(&mut self, slot: usize) {
        self.retire |= 1 << slot;
    }

    /// Pick the Nami to present to the AKB: the next valid slot after the one
    /// sent last (so a different one whenever there is one), or `None` for a
    /// null Nami.
    pub fn select(&mut self) -> Option<usize> {
        if self.valid == 0 {
            return None;
        }
        // The first valid slot after `last_sent`, wrapping round to the
        // lowest valid one (`last_sent` itself last): found from the mask
        // directly, since this runs every clock and a loop with a run-time
        // modulo cost more than the rest of the issue.
        let later = u64::from(self.valid) & !((2u64 << self.last_sent) - 1);
        let slot = if later != 0 {
            later.trailing_zeros() as usize
        } else {
            self.valid.trailing_zeros() as usize
        };
        self.last_sent = slot;
        Some(slot)
    }

    /// End of clock: V = (V | A) & !R.
    pub fn end_clock(&mut self) {
        self.valid = next_valid_mask(self.valid, self.add, self.retire);
        self.add = 0;
        self.retire = 0;
    }
}

/// Counters of one AKB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AkbStats {
    /// Nami taken in from the SDN.
    pub nami_added: u64,
    /// Clocks every NMB was full (backpressure to the SDN).
    pub all_full_clocks: u64,
    /// New Nami arriving sooner than the spacing the AKB relies on.
    pub add_spacing_violations: u64,
}

/// Bits 0..n set (the NMB count is at most 64).
fn every_nmb(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// The AKB: its NMBs, the round-robin pointers.
#[derive(Clone, Debug)]
pub struct Akb {
    /// The NMBs.
    pub nmbs: Vec<Nmb>,
    last_added: usize,
    last_add_clock: Option<u64>,
    min_add_spacing: u64,
    next_id: u64,
    /// Per NMB (bit k), whether it was full at the end of the last clock:
    /// the valid masks change only at the end of a clock, and the clock
    /// loop asks whether all are full every clock, so this is kept rather
    /// than an AND over the NMBs redone.
    full_nmbs: u64,
    /// Per NMB, whether a Nami was added to or retired from it this clock
    /// through the AKB ([`Akb::add_ref`], [`Akb::retire`]): the clock loop
    /// ends the clock of those NMBs only ([`Akb::end_clock_touched`]).
    touched: u64,
    /// Counters.
    pub stats: AkbStats,
}

impl Akb {
    /// An AKB with `nmb_count` NMBs of `nami_per_nmb` slots; it relies on new
    /// Nami arriving at least `min_add_spacing` clocks apart.
    pub fn new(nmb_count: usize, nami_per_nmb: usize, min_add_spacing: u64) -> Akb {
        Akb {
            nmbs: (0..nmb_count).map(|_| Nmb::new(nami_per_nmb)).collect(),
            last_added: nmb_count.saturating_sub(1),
            last_add_clock: None,
            min_add_spacing,
            next_id: 1,
            full_nmbs: if nami_per_nmb == 0 {
                every_nmb(nmb_count)
            } else {
                0
            },
            touched: 0,
            stats: AkbStats::default(),
        }
    }

    /// Backpressure: every NMB is full.
    pub fn all_full(&self) -> bool {
        let all_full = self.full_nmbs == every_nmb(self.nmbs.len());
        debug_assert_eq!(all_full, self.nmbs.iter().all(Nmb::is_full));
        all_full
    }

    /// Whether every NMB is empty.
    pub fn is_empty(&self) -> bool {
        self.nmbs.iter().all(Nmb::is_empty)
    }

    /// The NMB the next new Nami goes to: the first non-full one after the
    /// last that received one.
    pub fn next_add_target(&self) -> Option<usize> {
        let n = self.nmbs.len();
        (1..=n)
            .map(|step| (self.last_added + step) % n)
            .find(|&k| !self.nmbs[k].is_full())
    }

    /// Take a Nami from the SDN at `clock`. Returns (NMB, slot), or `None`
    /// when every NMB is full (the SDN is gated then and never sends).
    pub fn add(&mut self, nami: Nami, clock: u64) -> Option<(usize, usize)> {
        self.add_ref(&nami, clock)
    }

    /// [`Akb::add`] from a borrowed Nami (the SDN's, copied once into its slot).
    pub fn add_ref(&mut self, nami: &Nami, clock: u64) -> Option<(usize, usize)> {
        let k = self.next_add_target()?;
        let slot = self.nmbs[k].add_ref(nami, self.next_id)?;
        self.next_id += 1;
        if let Some(last) = self.last_add_clock {
            if clock - last < self.min_add_spacing {
                self.stats.add_spacing_violations += 1;
            }
        }
        self.last_add_clock = Some(clock);
        self.last_added = k;
        self.touched |= 1 << k;
        self.stats.nami_added += 1;
        Some((k, slot))
    }

    /// End of clock for every NMB.
    pub fn end_clock(&mut self) {
        let mut full_nmbs = 0;
        for (k, nmb) in self.nmbs.iter_mut().enumerate() {
            nmb.end_clock();
            full_nmbs |= u64::from(nmb.is_full()) << k;
        }
        self.full_nmbs = full_nmbs;
        self.touched = 0;
    }

    /// [`Akb::end_clock`] for a clock in which every add and retire went
    /// through the AKB: only the NMBs they touched can change, so only
    /// those are updated (the clock loop's end of clock; most clocks touch
    /// none or one of the four).
    pub fn end_clock_touched(&mut self) {
        while self.touched != 0 {
            let k = self.touched.trailing_zeros() as usize;
            self.touched &= self.touched - 1;
            let nmb = &mut self.nmbs[k];
            nmb.end_clock();
            if nmb.is_full() {
                self.full_nmbs |= 1 << k;
            } else {
                self.full_nmbs &= !(1 << k);
            }
        }
        debug_assert!(self.nmbs.iter().all(|n| n.add == 0 && n.retire == 0));
    }

    /// Mark `slot` of NMB `nmb` as retiring (see [`Nmb::retire`]).
    pub fn retire(&mut self, nmb: usize, slot: usize) {
        self.nmbs[nmb].retire(slot);
        self.touched |= 1 << nmb;
    }

    /// The AKB's state that carries over from one tile row to the next
    /// (every NMB is empty between rows): the NMB that received the last
    /// Nami, then each NMB's slot sent last.
    pub fn round_robin(&self) -> Vec<usize> {
        std::iter::once(self.last_added)
            .chain(self.nmbs.iter().map(|n| n.last_sent))
            .collect()
    }

    /// Restore a [`Akb::round_robin`] state and account for `nami` Nami
    /// added meanwhile (their ids are used up): the end of a tile row
    /// whose simulation is replayed instead of stepped.
    pub fn skip_row(&mut self, round_robin: &[usize], nami: u64) {
        self.last_added = round_robin[0];
        for (nmb, &last_sent) in self.nmbs.iter_mut().zip(&round_robin[1..]) {
            nmb.last_sent = last_sent;
        }
        self.next_id += nami;
    }

    /// Forget the add spacing history (a new tile row).
    pub fn start_row(&mut self) {
        self.last_add_clock = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure5_valid_add_retire_masks() {
        // V = 4'b0101 (slots 0 and 2 valid): the add mask is 4'b0010, slot 1.
        let v = 0b0101;
        let a = add_mask(v, 4);
        assert_eq!(a, 0b0010);
        // R = 4'b0100: slot 2 retires. Slot 1 added, slot 2 gone.
        assert_eq!(next_valid_mask(v, a, 0b0100), 0b0011);
        // Full is the AND reduction of V.
        assert_eq!(add_mask(0b1111, 4), 0);
    }

    #[test]
    fn nmb_replays_figure5() {
        let mut nmb = Nmb::new(4);
        for _ in 0..3 {
            nmb.add(Nami::default(), 0);
            nmb.end_clock();
        }
        nmb.retire(1);
        nmb.end_clock();
        assert_eq!(nmb.valid_mask(), 0b0101);
        assert_eq!(nmb.add(Nami::default(), 9), Some(1));
        nmb.retire(2);
        nmb.end_clock();
        assert_eq!(nmb.valid_mask(), 0b0011);
        assert!(!nmb.is_full());
        nmb.add(Nami::default(), 10);
        nmb.end_clock();
        nmb.add(Nami::default(), 11);
        nmb.end_clock();
        assert!(nmb.is_full());
        assert_eq!(nmb.add(Nami::default(), 12), None);
    }

    #[test]
    fn nmb_choice_is_fair() {
        let mut nmb = Nmb::new(4);
        assert_eq!(nmb.select(), None);
        nmb.add(Nami::default(), 1);
        nmb.end_clock();
        assert_eq!((nmb.select(), nmb.select()), (Some(0), Some(0)));
        nmb.add(Nami::default(), 2);
        nmb.add(Nami::default(), 3);
        nmb.end_clock();
        let picks: Vec<_> = (0..6).map(|_| nmb.select().unwrap()).collect();
        assert_eq!(picks, [1, 2, 0, 1, 2, 0]);
    }

    #[test]
    fn akb_assigns_round_robin_to_non_full_nmbs() {
        let mut akb = Akb::new(4, 1, 4);
        let mut targets = Vec::new();
        for clock in 0..3 {
            targets.push(akb.add(Nami::default(), clock * 4).unwrap().0);
            akb.end_clock();
        }
        assert_eq!(targets, [0, 1, 2]);
        // NMB 3 is the only non-full one left.
        assert_eq!(akb.next_add_target(), Some(3));
        akb.add(Nami::default(), 12);
        akb.end_clock();
        assert!(akb.all_full());
        assert_eq!(akb.add(Nami::default(), 16), None);
        // Free NMB 1: the next Nami goes there.
        akb.nmbs[1].retire(0);
        akb.end_clock();
        assert_eq!(akb.next_add_target(), Some(1));
        assert_eq!(akb.stats.add_spacing_violations, 0);
        akb.add(Nami::default(), 17);
        akb.end_clock();
        akb.nmbs[1].retire(0);
        akb.end_clock();
        akb.add(Nami::default(), 18);
        assert_eq!(akb.stats.add_spacing_violations, 1);
    }
}
