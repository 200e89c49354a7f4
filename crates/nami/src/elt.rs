//! The ELT (Export Lit/Luminous Texels): export to the render cache (seed,
//! ELT section and figure 7).
//!
//! An export the SKE grants puts the Nami's colours and cache addresses into
//! the small Nami FIFO; the SKE may grant only while the FIFO has room. The
//! ELT takes the head Nami and loops over its pixels, putting each into the
//! pixel FIFO of the cache bank it belongs to (one bank per rasterizer of the
//! pair). A full pixel FIFO is backpressure: the pixel is retried next clock.
//! Each cache bank takes one pixel every `cache_clocks_per_pixel` clocks.

use crate::LANES;
use std::collections::VecDeque;

/// One pixel on its way to the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportPixel {
    /// Screen x.
    pub x: u16,
    /// Screen y.
    pub y: u16,
    /// Exported colour (RGB565).
    pub colour: u16,
    /// Cache bank within the pair (which pixel FIFO).
    pub bank: u8,
    /// Rasterization order, to detect out-of-order writes.
    pub seq: u64,
}

/// An export request: the valid pixels of one Nami.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportNami {
    /// Pixels; `0..count` are valid.
    pub pixels: [ExportPixel; LANES],
    /// Number of valid pixels.
    pub count: u8,
}

/// Counters of one ELT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EltStats {
    /// Export requests accepted into the Nami FIFO.
    pub nami_accepted: u64,
    /// Pixels moved into the pixel FIFOs.
    pub pixels_routed: u64,
    /// Pixels routed per bank (pixel FIFO).
    pub pixels_per_bank: [u64; LANES],
    /// Clocks a pixel could not enter its full pixel FIFO (backpressure).
    pub pixel_fifo_full_clocks: u64,
    /// Pixels written to the cache banks.
    pub pixels_written: u64,
}

/// The export block of one AKB.
#[derive(Clone, Debug)]
pub struct Elt {
    nami_fifo: VecDeque<ExportNami>,
    nami_fifo_depth: usize,
    /// Next pixel of the head Nami to route.
    head_pixel: usize,
    pixel_fifos: Vec<VecDeque<ExportPixel>>,
    pixel_fifo_depth: usize,
    pixels_per_clock: usize,
    cache_clocks_per_pixel: u64,
    next_accept: Vec<u64>,
    /// Pixels in all pixel FIFOs together (to skip idle clocks cheaply).
    queued_pixels: usize,
    /// Counters.
    pub stats: EltStats,
}

impl Elt {
    /// An ELT with `banks` pixel FIFOs (one per rasterizer of the group).
    pub fn new(
        banks: usize,
        nami_fifo_depth: usize,
        pixel_fifo_depth: usize,
        pixels_per_clock: usize,
        cache_clocks_per_pixel: u64,
    ) -> Elt {
        Elt {
            nami_fifo: VecDeque::with_capacity(nami_fifo_depth),
            nami_fifo_depth,
            head_pixel: 0,
            pixel_fifos: (0..banks)
                .map(|_| VecDeque::with_capacity(pixel_fifo_depth))
                .collect(),
            pixel_fifo_depth,
            pixels_per_clock,
            cache_clocks_per_pixel,
            next_accept: vec![0; banks],
            queued_pixels: 0,
            stats: EltStats::default(),
        }
    }

    /// Whether an export request would be granted now (the Nami FIFO has room).
    pub fn can_accept(&self) -> bool {
        self.nami_fifo.len() < self.nami_fifo_depth
    }

    /// Take a granted export request. Returns false (and drops nothing) if
    /// the FIFO is full: the SKE must not grant then.
    pub fn accept(&mut self, nami: ExportNami) -> bool {
        if !self.can_accept() {
            return false;
        }
        self.nami_fifo.push_back(nami);
        self.stats.nami_accepted += 1;
        true
    }

    /// A new tile row starts at clock 0: the banks are ready at once.
    pub fn start_row(&mut self) {
        self.next_accept.iter_mut().for_each(|t| *t = 0);
    }

    /// Entries in the Nami FIFO.
    pub fn nami_fifo_len(&self) -> usize {
        self.nami_fifo.len()
    }

    /// The pixels waiting in pixel FIFO `bank`.
    pub fn pixel_fifo(&self, bank: usize) -> impl Iterator<Item = &ExportPixel> {
        self.pixel_fifos[bank].iter()
    }

    /// Whether nothing is left to export.
    pub fn is_empty(&self) -> bool {
        self.nami_fifo.is_empty() && self.queued_pixels == 0
    }

    /// One clock at time `clock`: each cache bank that is ready takes a pixel
    /// from its FIFO (appended to `written`), then the ELT routes up to
    /// `pixels_per_clock` pixels of the head Nami into the pixel FIFOs.
    pub fn step(&mut self, clock: u64, written: &mut Vec<ExportPixel>) {
        self.step_with(clock, |p| written.push(*p));
    }

    /// [`Elt::step`] handing each pixel a cache bank takes to `write` as it
    /// is taken (the banks' pixels never feed back into the ELT, so this is
    /// the same as writing them after the clock), without a buffer.
    #[inline(always)]
    pub fn step_with(&mut self, clock: u64, mut write: impl FnMut(&ExportPixel)) {
        if self.queued_pixels == 0 && self.nami_fifo.is_empty() {
            return;
        }
        for (bank, fifo) in self.pixel_fifos.iter_mut().enumerate() {
            if clock >= self.next_accept[bank] {
                if let Some(p) = fifo.pop_front() {
                    self.queued_pixels -= 1;
                    write(&p);
                    self.stats.pixels_written += 1;
                    self.next_accept[bank] = clock + self.cache_clocks_per_pixel;
                }
            }
        }
        for _ in 0..self.pixels_per_clock {
            let Some(head) = self.nami_fifo.front() else {
                return;
            };
            let p = &head.pixels[self.head_pixel];
            let bank = p.bank as usize;
            if self.pixel_fifos[bank].len() >= self.pixel_fifo_depth {
                // Figure 7, pixel H: no room, backpressure, retry next clock.
                self.stats.pixel_fifo_full_clocks += 1;
                return;
            }
            self.pixel_fifos[bank].push_back(*p);
            self.queued_pixels += 1;
            self.stats.pixels_routed += 1;
            self.stats.pixels_per_bank[bank] += 1;
            self.head_pixel += 1;
            if self.head_pixel >= head.count as usize {
                self.nami_fifo.pop_front();
                self.head_pixel = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figure 7: Nami A..H with cache-pair numbers [0,1,1,0,1,1,0,1].
    fn figure7_nami() -> ExportNami {
        let banks = [0u8, 1, 1, 0, 1, 1, 0, 1];
        let mut n = ExportNami {
            count: 8,
            ..ExportNami::default()
        };
        for (i, b) in banks.iter().enumerate() {
            n.pixels[i] = ExportPixel {
                x: i as u16,
                colour: b'A' as u16 + i as u16,
                bank: *b,
                ..ExportPixel::default()
            };
        }
        n
    }

    fn letters(elt: &Elt, bank: usize) -> String {
        elt.pixel_fifo(bank)
            .map(|p| p.colour as u8 as char)
            .collect()
    }

    #[test]
    fn figure7_mixed_nami_is_routed_by_bank_and_h_waits_for_room() {
        // Cache banks that take nothing for a long while, FIFOs of four.
        let mut elt = Elt::new(2, 2, 4, 1, 1_000);
        let mut written = Vec::new();
        // Neither bank takes a pixel until told otherwise.
        elt.next_accept = vec![u64::MAX; 2];
        assert!(elt.accept(figure7_nami()));
        for clock in 0..7 {
            elt.step(clock, &mut written);
        }
        assert_eq!(letters(&elt, 0), "ADG");
        assert_eq!(letters(&elt, 1), "BCEF");
        // H belongs to pixel FIFO 1, which is full: backpressure, retried.
        elt.step(7, &mut written);
        elt.step(8, &mut written);
        assert_eq!(elt.stats.pixel_fifo_full_clocks, 2);
        assert_eq!(elt.nami_fifo_len(), 1);
        // Bank 1 takes B; H gets in on the same clock.
        elt.next_accept[1] = 9;
        elt.step(9, &mut written);
        assert_eq!(written.len(), 1);
        assert_eq!(written[0].colour as u8, b'B');
        assert_eq!(letters(&elt, 1), "CEFH");
        assert_eq!(elt.nami_fifo_len(), 0);
        assert!(elt.can_accept());
    }

    #[test]
    fn nami_fifo_refuses_when_full() {
        let mut elt = Elt::new(2, 1, 4, 1, 1);
        assert!(elt.accept(figure7_nami()));
        assert!(!elt.can_accept());
        assert!(!elt.accept(figure7_nami()));
        assert_eq!(elt.stats.nami_accepted, 1);
    }

    #[test]
    fn cache_drains_at_its_rate() {
        let mut elt = Elt::new(2, 2, 8, 1, 2);
        let mut written = Vec::new();
        let mut n = ExportNami {
            count: 4,
            ..ExportNami::default()
        };
        for p in n.pixels.iter_mut() {
            p.bank = 0;
        }
        elt.accept(n);
        let mut clocks = 0;
        while !elt.is_empty() {
            elt.step(clocks, &mut written);
            clocks += 1;
        }
        // Routed on clocks 0..3, bank 0 writes on 1, 3, 5, 7.
        assert_eq!((written.len(), clocks), (4, 8));
    }
}
