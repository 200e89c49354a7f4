//! The SKE (Shader Kernel Executor): one instruction of the Nami the AKB
//! selected each clock (seed, SKE section, figures 4 and 6).
//!
//! Timing (figure 6): the AKB fetches from NMB k at clock t (A), the SKE
//! executes, and the updated dynamic data reaches the NMB at the end of clock
//! t + 4 (E), after the NMB has already been asked again at t + 4 (C). If it
//! sends the same Nami then, its data is stale; the ALU's output at t + 4 is
//! the result of the fetch at t and is also on the forwarding path to the SKE
//! input, so the SKE compares Nami IDs and uses the forwarded data (D).
//!
//! Export is the only instruction that can fail: it is granted only while
//! the ELT's Nami FIFO has room; a refused export leaves the program counter
//! alone, so the Nami retries it the next time it is issued. A granted export
//! retires the Nami, but the NMB may issue it once more before it sees the
//! retire; the forwarded dynamic data then carries the export grant and the
//! SKE inserts a NOP.
//!
//! The model executes an instruction's effect on the registers when it is
//! issued; the pipeline latency is modelled on the dynamic-data path back to
//! the NMB, the only place the seed shows it to be observable.

use crate::akb::{Akb, DynamicData};
use crate::elt::{Elt, ExportNami, ExportPixel};
use crate::shader::{Instruction, Program};

/// What one SKE slot (one clock) was used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotUse {
    /// The selected NMB was empty: a null Nami.
    Null,
    /// A Nami executed an ALU instruction.
    Instruction,
    /// A Nami's export was granted (it retires).
    ExportGranted,
    /// A Nami's export was refused (ELT Nami FIFO full): retried later.
    ExportRefused,
    /// A Nami issued again after its export was granted: NOP.
    PostExportNop,
}

/// The record of one issue, for tests and traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The NMB the AKB selected.
    pub nmb: usize,
    /// The slot the NMB presented (`None` for a null Nami).
    pub slot: Option<usize>,
    /// Whether the forwarded dynamic data replaced the NMB's stale copy.
    pub use_forwarded_data: bool,
    /// The program counter the instruction ran at.
    pub pc: u16,
    /// What the slot was used for.
    pub slot_use: SlotUse,
}

/// Counters of one SKE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkeStats {
    /// Clocks (issue slots).
    pub slots: u64,
    /// Slots given to null Nami.
    pub null_nami: u64,
    /// ALU instructions executed.
    pub instructions: u64,
    /// Exports granted.
    pub exports: u64,
    /// Exports refused and retried.
    pub export_retries: u64,
    /// NOPs inserted for a Nami issued after its export was granted.
    pub post_export_nops: u64,
    /// Issues that used the forwarding path.
    pub forwarded: u64,
}

impl SkeStats {
    /// Slots that carried a real Nami (any use other than a null Nami).
    pub fn real_slots(&self) -> u64 {
        self.slots - self.null_nami
    }
}

/// `clock % n` for a round robin of `n`: a mask when `n` is a power of
/// two (4 NMBs, a 4-clock pipeline), since this runs every clock of every
/// group and a run-time division costs more than the rest of the lookup.
#[inline(always)]
fn clock_slot(clock: u64, n: usize) -> usize {
    let n = n as u64;
    if n.is_power_of_two() {
        (clock & (n - 1)) as usize
    } else {
        (clock % n) as usize
    }
}

/// Dynamic data on its way back from the ALU to an NMB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// Kept small (16 bytes): one is taken out of and put into the ring every clock.
struct Update {
    id: u64,
    nmb: u16,
    slot: u16,
    dynamic: DynamicData,
}

/// The Shader Kernel Executor of one AKB.
#[derive(Clone, Debug)]
pub struct Ske {
    /// Updates in flight, indexed by issue clock modulo the latency.
    in_flight: Vec<Option<Update>>,
    /// Counters.
    pub stats: SkeStats,
}

impl Ske {
    /// An SKE whose dynamic data takes `pipeline_clocks` to return (4).
    pub fn new(pipeline_clocks: usize) -> Ske {
        Ske {
            in_flight: vec![None; pipeline_clocks.max(1)],
            stats: SkeStats::default(),
        }
    }

    /// Whether no dynamic data is on its way back.
    pub fn is_idle(&self) -> bool {
        self.in_flight.iter().all(Option::is_none)
    }

    /// One clock: select the next NMB, issue one instruction of the Nami it
    /// presents, return last-but-pipeline's dynamic data to its NMB.
    // Inlined so the clock loop, which ignores the issue record, does not build it.
    #[inline(always)]
    pub fn clock(&mut self, clock: u64, akb: &mut Akb, elt: &mut Elt, program: &Program) -> Issue {
        self.stats.slots += 1;
        let nmb_index = clock_slot(clock, akb.nmbs.len());
        let ring = clock_slot(clock, self.in_flight.len());
        // The ALU's output now: the Nami issued `pipeline_clocks` ago.
        let alu_out = self.in_flight[ring].take();
        let nmb = &mut akb.nmbs[nmb_index];
        let mut issue = Issue {
            nmb: nmb_index,
            slot: None,
            use_forwarded_data: false,
            pc: 0,
            slot_use: SlotUse::Null,
        };
        let mut new_update = None;
        match nmb.select() {
            None => self.stats.null_nami += 1,
            Some(slot) => {
                issue.slot = Some(slot);
                let entry = &mut nmb.slots[slot];
                let mut dynamic = entry.dynamic;
                if let Some(fwd) = alu_out {
                    if usize::from(fwd.nmb) == nmb_index && fwd.id == entry.id {
                        dynamic = fwd.dynamic;
                        issue.use_forwarded_data = true;
                        self.stats.forwarded += 1;
                    }
                }
                issue.pc = dynamic.pc;
                if dynamic.export_granted {
                    issue.slot_use = SlotUse::PostExportNop;
                    self.stats.post_export_nops += 1;
                } else {
                    // A parsed program ends in `export`, which never moves
                    // the pc past itself; the fallback only keeps a
                    // hand-built program from indexing out of bounds.
                    let instruction = program
                        .instructions
                        .get(dynamic.pc as usize)
                        .copied()
                        .unwrap_or(Instruction::Export {
                            src: crate::shader::Reg {
                                bank: crate::shader::Bank::A,
                                index: 0,
                            },
                        });
                    let exported = entry.registers.execute(&instruction, dynamic.lane_mask);
                    match exported {
                        None => {
                            dynamic.pc += 1;
                            issue.slot_use = SlotUse::Instruction;
                            self.stats.instructions += 1;
                        }
                        Some(colours) => {
                            if elt.can_accept() {
                                let mut request = ExportNami {
                                    count: entry.nami.count,
                                    ..ExportNami::default()
                                };
                                let valid = entry.nami.count as usize;
                                for ((out, p), colour) in request
                                    .pixels
                                    .iter_mut()
                                    .zip(&entry.nami.pixels)
                                    .zip(colours)
                                    .take(valid)
                                {
                                    *out = ExportPixel {
                                        x: p.x,
                                        y: p.y,
                                        colour,
                                        bank: p.bank,
                                        seq: p.seq,
                                    };
                                }
                                elt.accept(request);
                                dynamic.export_granted = true;
                                issue.slot_use = SlotUse::ExportGranted;
                                self.stats.exports += 1;
                            } else {
                                // Not granted: the program counter stays, the
                                // export runs again next time.
                                issue.slot_use = SlotUse::ExportRefused;
                                self.stats.export_retries += 1;
                            }
                        }
                    }
                    new_update = Some(Update {
                        nmb: nmb_index as u16,
                        slot: slot as u16,
                        id: entry.id,
                        dynamic,
                    });
                }
            }
        }
        // The dynamic data issued `pipeline_clocks` ago arrives at its NMB
        // (figure 6, E); a granted export retires the Nami there.
        if let Some(u) = alu_out {
            let (nmb, slot) = (usize::from(u.nmb), usize::from(u.slot));
            let target = &mut akb.nmbs[nmb].slots[slot];
            if target.id == u.id {
                target.dynamic = u.dynamic;
                if u.dynamic.export_granted {
                    akb.retire(nmb, slot);
                }
            }
        }
        self.in_flight[ring] = new_update;
        issue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::RasterPixel;
    use crate::sdn::Nami;

    fn nami(count: u8) -> Nami {
        let mut n = Nami {
            count,
            ..Nami::default()
        };
        for (i, p) in n.pixels.iter_mut().enumerate() {
            *p = RasterPixel {
                x: i as u16,
                colour: [255, 0, 0],
                ..RasterPixel::default()
            };
        }
        n
    }

    /// Run `clocks` clocks of one AKB + SKE + ELT; the ELT drains as it likes.
    fn run(
        akb: &mut Akb,
        ske: &mut Ske,
        elt: &mut Elt,
        program: &Program,
        clocks: std::ops::Range<u64>,
    ) -> Vec<Issue> {
        let mut written = Vec::new();
        let mut issues = Vec::new();
        for t in clocks {
            elt.step(t, &mut written);
            issues.push(ske.clock(t, akb, elt, program));
            akb.end_clock();
        }
        issues
    }

    #[test]
    fn figure6_single_nami_uses_forwarded_data_back_to_back() {
        let program = Program::parse("li a5, 1\nli a6, 2\nexport a5").unwrap();
        let mut akb = Akb::new(4, 4, 4);
        let mut ske = Ske::new(4);
        let mut elt = Elt::new(2, 2, 4, 1, 1);
        akb.add(nami(8), 0);
        akb.end_clock();
        let issues = run(&mut akb, &mut ske, &mut elt, &program, 0..16);
        let nmb0: Vec<&Issue> = issues.iter().filter(|i| i.nmb == 0).collect();
        // (A) t=0: fetch, pc 0, NMB data is fresh.
        assert_eq!(
            (nmb0[0].slot, nmb0[0].pc, nmb0[0].use_forwarded_data),
            (Some(0), 0, false)
        );
        // (C)/(D) t=4: NMB0 sends the same Nami with stale data (pc 0); the
        // SKE uses the forwarded pc 1.
        assert!(nmb0[1].use_forwarded_data);
        assert_eq!(nmb0[1].pc, 1);
        // t=8: the export, with forwarded pc 2, is granted.
        assert_eq!((nmb0[2].pc, nmb0[2].slot_use), (2, SlotUse::ExportGranted));
        // t=12: issued once more before the retire arrives: forwarded grant -> NOP.
        assert_eq!(nmb0[3].slot_use, SlotUse::PostExportNop);
        assert!(nmb0[3].use_forwarded_data);
        // The retire has arrived: NMB0 is empty again; the other NMBs issued null Nami.
        assert!(akb.is_empty());
        assert_eq!(ske.stats.null_nami, 12);
        assert_eq!(elt.stats.nami_accepted, 1);
        // Without forwarding the stale pc would have run instruction 0 twice;
        // the registers show each instruction ran once, in order.
        assert_eq!(ske.stats.instructions, 2);
    }

    #[test]
    fn two_nami_in_one_nmb_need_no_forwarding() {
        let program = Program::parse("li a5, 1\nexport a5").unwrap();
        let mut akb = Akb::new(4, 4, 4);
        let mut ske = Ske::new(4);
        let mut elt = Elt::new(2, 4, 4, 1, 1);
        // Two Nami in NMB 0: it alternates between them, so each is issued
        // every eight clocks and its NMB data is never stale.
        akb.nmbs[0].add(nami(8), 1);
        akb.nmbs[0].add(nami(8), 2);
        akb.end_clock();
        let issues = run(&mut akb, &mut ske, &mut elt, &program, 0..20);
        // t = 0, 4, 8, 12: Nami 1, 2, 1, 2 with fresh NMB data.
        let slots: Vec<_> = issues
            .iter()
            .filter(|i| i.nmb == 0)
            .map(|i| i.slot)
            .collect();
        assert_eq!(slots, [Some(0), Some(1), Some(0), Some(1), Some(1)]);
        assert!(issues[..16].iter().all(|i| !i.use_forwarded_data));
        assert_eq!(ske.stats.exports, 2);
        // t = 16: Nami 1 has retired, Nami 2 is alone and issued right after
        // its own export: forwarded grant, NOP.
        assert!(issues[16].use_forwarded_data);
        assert_eq!(issues[16].slot_use, SlotUse::PostExportNop);
    }

    #[test]
    fn export_refused_while_elt_fifo_full_then_retried() {
        let program = Program::parse("export a0").unwrap();
        let mut akb = Akb::new(4, 4, 4);
        let mut ske = Ske::new(4);
        // A one-entry Nami FIFO and one-entry pixel FIFOs drained every
        // other clock: the first Nami's eight pixels hold the FIFO ~16 clocks.
        let mut elt = Elt::new(2, 1, 1, 1, 2);
        akb.add(nami(8), 0);
        akb.end_clock();
        akb.add(nami(8), 4);
        akb.end_clock();
        // t=0: NMB0's export granted, the FIFO is now full.
        let first = run(&mut akb, &mut ske, &mut elt, &program, 0..2);
        assert_eq!(first[0].slot_use, SlotUse::ExportGranted);
        // t=1: NMB1's export is refused; its pc stays at 0.
        assert_eq!(
            (first[1].slot_use, first[1].pc),
            (SlotUse::ExportRefused, 0)
        );
        // t=5: NMB1 retries (forwarded pc still 0) and is refused again.
        let later = run(&mut akb, &mut ske, &mut elt, &program, 2..6);
        assert_eq!(
            (later[3].slot_use, later[3].pc, later[3].use_forwarded_data),
            (SlotUse::ExportRefused, 0, true)
        );
        // The ELT routes the head Nami's pixels; once its last pixel left the
        // Nami FIFO there is room and the retry is granted.
        let mut t = 6;
        let mut granted_at = None;
        while granted_at.is_none() && t < 200 {
            let i = run(&mut akb, &mut ske, &mut elt, &program, t..t + 1)[0];
            if i.slot_use == SlotUse::ExportGranted {
                granted_at = Some(t);
            }
            t += 1;
        }
        assert!(granted_at.is_some());
        assert!(ske.stats.export_retries >= 2);
        assert_eq!(ske.stats.exports, 2);
    }
}
