//! The SDN (Setup Data for Nami): packs the pixels of its rasterizers into
//! 8-lane Nami (seed, SDN section and figure 3).
//!
//! Each clock it takes at most one pixel from each rasterizer, in rasterizer
//! order (A before B), and fills the free slots of the Nami it is building.
//! When the Nami is full it is sent to the AKB; a pixel that no longer fits
//! starts the next Nami (with two rasterizers this single overflow case is
//! the only one). A timer, reset to 32 on every new pixel, sends a partial
//! Nami when it runs down to zero, so that a few lone pixels cannot hang.

use crate::raster::RasterPixel;
use crate::LANES;

/// Up to eight pixels travelling together through the AKB, SKE and ELT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Nami {
    /// The pixels; lanes `0..count` are valid.
    pub pixels: [RasterPixel; LANES],
    /// Number of valid lanes (1..=8 once sent).
    pub count: u8,
}

impl Nami {
    /// The valid-lane mask (lanes 0..count).
    pub fn lane_mask(&self) -> u8 {
        if self.count as usize >= LANES {
            0xff
        } else {
            (1u8 << self.count) - 1
        }
    }

    /// Whether all eight lanes hold a pixel.
    pub fn is_full(&self) -> bool {
        self.count as usize == LANES
    }

    fn push(&mut self, p: RasterPixel) {
        self.pixels[self.count as usize] = p;
        self.count += 1;
    }
}

/// What the SDN did in one clock, named after the cases of figure 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SdnCase {
    /// Nothing sent: no pixel, or pixels that did not complete the Nami.
    Filling,
    /// One pixel completed the Nami (figure 3 upper left for A, upper right
    /// for B); `input` is the rasterizer's position in the group.
    CompletedBySingle {
        /// Which input completed it (0 = A, 1 = B, ...).
        input: usize,
    },
    /// Several pixels exactly filled the free slots (figure 3 lower left).
    CompletedExactly,
    /// More pixels than free slots: the Nami is sent and the rest start the
    /// next one (figure 3 lower right); `carried` pixels start it.
    Overflow {
        /// Pixels that start the next Nami.
        carried: usize,
    },
    /// The timer ran out and a partial Nami was sent.
    Timeout,
}

/// Counters of one SDN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SdnStats {
    /// Nami sent, by number of valid lanes (index 1..=8).
    pub fill_histogram: [u64; LANES + 1],
    /// Full Nami completed by a single pixel (figure 3 upper cases).
    pub completed_by_single: u64,
    /// Full Nami completed exactly by several pixels (figure 3 lower left).
    pub completed_exactly: u64,
    /// Overflow cases (figure 3 lower right).
    pub overflows: u64,
    /// Partial Nami sent by the timer.
    pub timeouts: u64,
    /// Clocks clock-gated by AKB backpressure.
    pub gated_clocks: u64,
}

/// The SDN of one group of rasterizers.
#[derive(Clone, Debug)]
pub struct Sdn {
    /// Two Nami buffers: `buffers[building]` is being filled, the other is
    /// the one sent last. Sending flips `building` instead of moving the
    /// 200-byte Nami (the clock loop sends one every few clocks and the
    /// AKB copies it into its slot from here).
    buffers: [Nami; 2],
    building: usize,
    timer: u64,
    timeout: u64,
    /// Counters.
    pub stats: SdnStats,
}

impl Sdn {
    /// An SDN whose partial-Nami timer is `timeout_clocks` (32 in the seed).
    pub fn new(timeout_clocks: u64) -> Sdn {
        Sdn {
            buffers: [Nami::default(); 2],
            building: 0,
            timer: 0,
            timeout: timeout_clocks,
            stats: SdnStats::default(),
        }
    }

    /// An SDN whose Nami already holds `filled` pixels (to replay figure 3).
    pub fn with_filled(timeout_clocks: u64, filled: &[RasterPixel]) -> Sdn {
        let mut sdn = Sdn::new(timeout_clocks);
        for p in filled.iter().take(LANES) {
            sdn.buffers[0].push(*p);
        }
        sdn.timer = timeout_clocks;
        sdn
    }

    /// Pixels in the Nami being built.
    pub fn filled(&self) -> usize {
        self.buffers[self.building].count as usize
    }

    /// Whether no Nami is being built.
    pub fn is_empty(&self) -> bool {
        self.buffers[self.building].count == 0
    }

    /// One clock (not gated): take this clock's pixel from each rasterizer,
    /// in order, and return the Nami sent to the AKB, if any.
    pub fn step(&mut self, inputs: &[Option<RasterPixel>]) -> (Option<Nami>, SdnCase) {
        let (sent, case) = self.advance(inputs);
        (sent.then_some(*self.sent()), case)
    }

    /// [`Sdn::step`] without moving the Nami out: returns whether one was
    /// sent (then it is [`Sdn::sent`]) and the case.
    // Inlined so the clock loop, which ignores the case, does not build it.
    #[inline(always)]
    pub fn advance(&mut self, inputs: &[Option<RasterPixel>]) -> (bool, SdnCase) {
        let arrivals = inputs.iter().filter(|p| p.is_some()).count();
        if arrivals == 0 {
            if self.buffers[self.building].count == 0 {
                return (false, SdnCase::Filling);
            }
            self.timer = self.timer.saturating_sub(1);
            if self.timer == 0 {
                self.stats.timeouts += 1;
                self.send();
                return (true, SdnCase::Timeout);
            }
            return (false, SdnCase::Filling);
        }
        self.timer = self.timeout;
        let free = LANES - self.buffers[self.building].count as usize;
        if arrivals < free {
            // The common clock: every pixel fits and none completes the Nami.
            let building = &mut self.buffers[self.building];
            for p in inputs.iter().flatten() {
                building.push(*p);
            }
            return (false, SdnCase::Filling);
        }
        let mut sent = false;
        let mut last_input = 0;
        let mut carried = 0;
        for (input, p) in inputs.iter().enumerate() {
            let Some(p) = p else { continue };
            if sent {
                carried += 1;
            }
            let building = &mut self.buffers[self.building];
            building.push(*p);
            last_input = input;
            if building.is_full() {
                self.send();
                sent = true;
            }
        }
        let case = match sent {
            false => SdnCase::Filling,
            true if carried > 0 => {
                self.stats.overflows += 1;
                SdnCase::Overflow { carried }
            }
            true if arrivals == 1 => {
                self.stats.completed_by_single += 1;
                SdnCase::CompletedBySingle { input: last_input }
            }
            true => {
                debug_assert_eq!(arrivals, free);
                self.stats.completed_exactly += 1;
                SdnCase::CompletedExactly
            }
        };
        (sent, case)
    }

    /// A clock during which AKB backpressure clock-gates the SDN: nothing
    /// moves, the timer included.
    pub fn gate(&mut self) {
        self.stats.gated_clocks += 1;
    }

    /// The Nami the last [`Sdn::advance`] that sent one sent.
    pub fn sent(&self) -> &Nami {
        &self.buffers[self.building ^ 1]
    }

    /// Send the Nami being built: it becomes [`Sdn::sent`] and the other
    /// buffer, emptied, is built next. Lanes past `count` keep old pixels,
    /// which nothing reads (every reader stops at `count`).
    fn send(&mut self) {
        let count = self.buffers[self.building].count;
        self.stats.fill_histogram[count as usize] += 1;
        self.building ^= 1;
        self.buffers[self.building].count = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(x: u16) -> RasterPixel {
        RasterPixel {
            x,
            ..RasterPixel::default()
        }
    }

    fn xs(n: &Nami) -> Vec<u16> {
        n.pixels[..n.count as usize].iter().map(|p| p.x).collect()
    }

    #[test]
    fn figure3_upper_left_a_completes_a_seven_pixel_nami() {
        let mut sdn = Sdn::with_filled(32, &(0..7).map(px).collect::<Vec<_>>());
        let (sent, case) = sdn.step(&[Some(px(100)), None]);
        assert_eq!(case, SdnCase::CompletedBySingle { input: 0 });
        assert_eq!(xs(&sent.unwrap()), [0, 1, 2, 3, 4, 5, 6, 100]);
        assert_eq!(sdn.filled(), 0);
    }

    #[test]
    fn figure3_upper_right_b_completes_it() {
        let mut sdn = Sdn::with_filled(32, &(0..7).map(px).collect::<Vec<_>>());
        let (sent, case) = sdn.step(&[None, Some(px(200))]);
        assert_eq!(case, SdnCase::CompletedBySingle { input: 1 });
        assert_eq!(xs(&sent.unwrap())[7], 200);
        assert_eq!(sdn.filled(), 0);
    }

    #[test]
    fn figure3_lower_left_a_and_b_fill_the_last_two_slots() {
        let mut sdn = Sdn::with_filled(32, &(0..6).map(px).collect::<Vec<_>>());
        let (sent, case) = sdn.step(&[Some(px(100)), Some(px(200))]);
        assert_eq!(case, SdnCase::CompletedExactly);
        assert_eq!(xs(&sent.unwrap())[6..], [100, 200]);
        assert_eq!(sdn.filled(), 0);
    }

    #[test]
    fn figure3_lower_right_overflow_starts_a_one_pixel_nami_with_b() {
        let mut sdn = Sdn::with_filled(32, &(0..7).map(px).collect::<Vec<_>>());
        let (sent, case) = sdn.step(&[Some(px(100)), Some(px(200))]);
        assert_eq!(case, SdnCase::Overflow { carried: 1 });
        assert_eq!(xs(&sent.unwrap())[7], 100);
        assert_eq!(sdn.filled(), 1);
        assert_eq!(sdn.buffers[sdn.building].pixels[0].x, 200);
    }

    #[test]
    fn timer_sends_a_partial_nami_32_clocks_after_the_last_pixel() {
        let mut sdn = Sdn::new(32);
        assert!(sdn.step(&[Some(px(1)), Some(px(2))]).0.is_none());
        for clock in 1..32 {
            assert!(sdn.step(&[None, None]).0.is_none(), "clock {clock}");
        }
        let (sent, case) = sdn.step(&[None, None]);
        assert_eq!(case, SdnCase::Timeout);
        assert_eq!(sent.unwrap().count, 2);
        assert_eq!(sdn.stats.fill_histogram[2], 1);
        // A new pixel resets the timer.
        sdn.step(&[Some(px(3)), None]);
        for _ in 0..20 {
            sdn.step(&[None, None]);
        }
        sdn.step(&[None, Some(px(4))]);
        for _ in 0..31 {
            assert!(sdn.step(&[None, None]).0.is_none());
        }
        assert_eq!(sdn.step(&[None, None]).0.unwrap().count, 2);
    }
}
