//! One shader group (an SDN with its rasterizers, AKB, SKE and ELT) and
//! the framebuffer its rows write: the state both the cycle loop (`sim`)
//! and the row replay (`row_replay`) advance, and the sums of their units'
//! statistics.

use crate::akb::{Akb, AkbStats};
use crate::elt::{Elt, EltStats, ExportPixel};
use crate::params::NamiParams;
use crate::raster::{RasterPixel, Rasterizer, RasterizerStats, TriangleSetup};
use crate::sdn::{Sdn, SdnStats};
use crate::shader::{unpack_rgb565, Program};
use crate::ske::{Ske, SkeStats};
use crate::LANES;

/// The render cache as the screen sees it: RGB565 per pixel, plus what the
/// model tracks to expose the seed's lost ordering guarantee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Colours, row-major.
    pub pixels: Vec<u16>,
    in_flight: Vec<u16>,
    last_seq: Vec<u64>,
    /// Pixels rasterized while an earlier pixel for the same address was
    /// still in flight: their "previous colour" was stale.
    pub stale_previous_reads: u64,
    /// Cache writes of an older pixel after a newer one for the same address.
    pub out_of_order_writes: u64,
}

impl Framebuffer {
    /// A frame cleared to `clear`.
    pub fn new(width: usize, height: usize, clear: [u8; 3]) -> Framebuffer {
        let n = width * height;
        Framebuffer {
            width,
            height,
            pixels: vec![crate::shader::pack_rgb565(clear); n],
            in_flight: vec![0; n],
            last_seq: vec![0; n],
            stale_previous_reads: 0,
            out_of_order_writes: 0,
        }
    }

    /// Take the pixels another frame of the same size drew (those it wrote
    /// or has in flight), and its ordering counts. Used to join the frames
    /// of groups simulated apart, whose pixels never overlap.
    pub(crate) fn merge(&mut self, other: &Framebuffer) {
        for i in 0..self.pixels.len() {
            if other.last_seq[i] != 0 || other.in_flight[i] != 0 {
                self.pixels[i] = other.pixels[i];
                self.in_flight[i] = other.in_flight[i];
                self.last_seq[i] = other.last_seq[i];
            }
        }
        self.stale_previous_reads += other.stale_previous_reads;
        self.out_of_order_writes += other.out_of_order_writes;
    }

    /// The previous colour for a pixel being rasterized (and note it in flight).
    pub(crate) fn read_for_raster(&mut self, x: u16, y: u16) -> [u8; 3] {
        let i = self.note_read(x, y);
        unpack_rgb565(self.pixels[i])
    }

    /// [`Framebuffer::read_for_raster`] without the colour: the pixel's
    /// index, noted in flight.
    #[inline]
    pub(crate) fn note_read(&mut self, x: u16, y: u16) -> usize {
        let i = y as usize * self.width + x as usize;
        if self.in_flight[i] > 0 {
            self.stale_previous_reads += 1;
        }
        self.in_flight[i] = self.in_flight[i].saturating_add(1);
        i
    }

    /// A cache bank writes an exported pixel.
    pub(crate) fn write(&mut self, p: &ExportPixel) {
        let i = self.note_write(p.x, p.y, p.seq);
        self.pixels[i] = p.colour;
    }

    /// [`Framebuffer::write`] without the colour (the caller stores it at
    /// the returned index, or a later write's).
    #[inline]
    pub(crate) fn note_write(&mut self, x: u16, y: u16, seq: u64) -> usize {
        let i = y as usize * self.width + x as usize;
        self.in_flight[i] = self.in_flight[i].saturating_sub(1);
        // last_seq holds seq + 1 of the newest pixel written (0: none yet).
        if seq + 1 < self.last_seq[i] {
            self.out_of_order_writes += 1;
        } else {
            self.last_seq[i] = seq + 1;
        }
        i
    }

    /// Give pixel `i`, which nothing has touched yet, the in-flight count
    /// and newest write a replayed row leaves it with.
    pub(crate) fn settle(&mut self, i: usize, in_flight: u16, last_seq: u64) {
        debug_assert!(self.in_flight[i] == 0 && self.last_seq[i] == 0);
        self.in_flight[i] = in_flight;
        self.last_seq[i] = last_seq;
    }

    /// Store a colour (the last write to the pixel, noted already).
    pub(crate) fn set(&mut self, i: usize, colour: u16) {
        self.pixels[i] = colour;
    }

    /// 8-bit RGB, row-major, for a PNG.
    pub fn to_rgb8(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|&c| unpack_rgb565(c)).collect()
    }

    /// Encode as a PNG file's bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, png::EncodingError> {
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&self.to_rgb8())?;
        }
        Ok(out)
    }
}

/// One SDN with its rasterizers, AKB, SKE and ELT.
#[derive(Clone, Debug)]
pub struct ShaderGroup {
    /// The rasterizers (A, B, ...).
    pub rasterizers: Vec<Rasterizer>,
    /// The SDN.
    pub sdn: Sdn,
    /// The AKB and its NMBs.
    pub akb: Akb,
    /// The SKE.
    pub ske: Ske,
    /// The ELT.
    pub elt: Elt,
}

impl ShaderGroup {
    /// Group `index` (rasterizers `index * k .. index * k + k`).
    pub fn new(params: &NamiParams, index: usize) -> ShaderGroup {
        let k = params.group_size();
        ShaderGroup {
            rasterizers: (0..k)
                .map(|i| Rasterizer::new(params, (index * k + i) as u32))
                .collect(),
            sdn: Sdn::new(params.nami_timeout_clocks),
            akb: Akb::new(
                params.nmb_count as usize,
                params.nami_per_nmb as usize,
                params.akb_min_clocks_between_nami,
            ),
            ske: Ske::new(params.ske_pipeline_clocks as usize),
            elt: Elt::new(
                k,
                params.elt_nami_fifo_depth as usize,
                params.elt_pixel_fifo_depth as usize,
                params.elt_pixels_per_clock as usize,
                params.cache_clocks_per_pixel,
            ),
        }
    }

    /// Whether every block is empty.
    pub fn is_done(&self) -> bool {
        self.rasterizers.iter().all(Rasterizer::is_done)
            && self.sdn.is_empty()
            && self.akb.is_empty()
            && self.ske.is_idle()
            && self.elt.is_empty()
    }

    pub(crate) fn progress(&self) -> u64 {
        self.rasterizers
            .iter()
            .map(|r| r.stats.busy_clocks)
            .sum::<u64>()
            + self.ske.stats.instructions
            + self.ske.stats.exports
            + self.elt.stats.pixels_routed
            + self.elt.stats.pixels_written
            + self.sdn.stats.fill_histogram.iter().sum::<u64>()
    }

    /// One clock of the group; `traffic` hears the render cache's reads
    /// and writes.
    // Always inlined, as are the blocks' clocks: one straight clock loop
    // per caller (with or without listening to the traffic).
    #[inline(always)]
    pub(crate) fn clock(
        &mut self,
        clock: u64,
        setups: &[TriangleSetup],
        program: &Program,
        frame: &mut Framebuffer,
        seq: &mut u64,
        traffic: &mut impl CacheTraffic,
    ) {
        self.elt.step_with(clock, |p| {
            frame.write(p);
            traffic.write(p.seq);
        });
        self.ske.clock(clock, &mut self.akb, &mut self.elt, program);
        if self.akb.all_full() {
            // Seed, AKB function 4: backpressure clock-gates the SDN and rasterizers.
            self.akb.stats.all_full_clocks += 1;
            self.sdn.gate();
            for r in &mut self.rasterizers {
                r.gate();
            }
        } else {
            let mut inputs = [None; LANES];
            for (r, input) in self.rasterizers.iter_mut().zip(inputs.iter_mut()) {
                r.step_into(setups, seq, input);
                if let Some(p) = input {
                    p.previous = frame.read_for_raster(p.x, p.y);
                    traffic.read(p);
                }
            }
            let (sent, _) = self.sdn.advance(&inputs[..self.rasterizers.len()]);
            if sent {
                // Not all NMBs were full, and one Nami per clock at most: it fits.
                self.akb.add_ref(self.sdn.sent(), clock);
            }
        }
        // Every add and retire of the clock went through the AKB.
        self.akb.end_clock_touched();
    }
}

pub(crate) fn add_raster(a: &mut RasterizerStats, b: &RasterizerStats) {
    a.triangles += b.triangles;
    a.culled_horizontally += b.culled_horizontally;
    a.pixels += b.pixels;
    a.port_stall_clocks += b.port_stall_clocks;
    a.gated_clocks += b.gated_clocks;
    a.busy_clocks += b.busy_clocks;
}

pub(crate) fn add_sdn(a: &mut SdnStats, b: &SdnStats) {
    for (x, y) in a.fill_histogram.iter_mut().zip(b.fill_histogram) {
        *x += y;
    }
    a.completed_by_single += b.completed_by_single;
    a.completed_exactly += b.completed_exactly;
    a.overflows += b.overflows;
    a.timeouts += b.timeouts;
    a.gated_clocks += b.gated_clocks;
}

pub(crate) fn add_akb(a: &mut AkbStats, b: &AkbStats) {
    a.nami_added += b.nami_added;
    a.all_full_clocks += b.all_full_clocks;
    a.add_spacing_violations += b.add_spacing_violations;
}

pub(crate) fn add_ske(a: &mut SkeStats, b: &SkeStats) {
    a.slots += b.slots;
    a.null_nami += b.null_nami;
    a.instructions += b.instructions;
    a.exports += b.exports;
    a.export_retries += b.export_retries;
    a.post_export_nops += b.post_export_nops;
    a.forwarded += b.forwarded;
}

pub(crate) fn add_elt(a: &mut EltStats, b: &EltStats) {
    a.nami_accepted += b.nami_accepted;
    a.pixels_routed += b.pixels_routed;
    for (x, y) in a.pixels_per_bank.iter_mut().zip(b.pixels_per_bank) {
        *x += y;
    }
    a.pixel_fifo_full_clocks += b.pixel_fifo_full_clocks;
    a.pixels_written += b.pixels_written;
}

/// What the clock loop tells about the render cache's traffic, in order.
pub(crate) trait CacheTraffic {
    /// `pixel` left its rasterizer for the SDN, reading its previous colour.
    fn read(&mut self, pixel: &RasterPixel);
    /// A cache bank wrote pixel `seq`.
    fn write(&mut self, seq: u64);
}

/// Not listening (the clock loop of a row that is not recorded).
impl CacheTraffic for () {
    #[inline(always)]
    fn read(&mut self, _: &RasterPixel) {}
    #[inline(always)]
    fn write(&mut self, _: u64) {}
}
