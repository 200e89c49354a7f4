//! What `shadersim nami` tells the user about a simulated frame, as a
//! serialisable struct (the JSON output) and as text.

use crate::params::NamiParams;
use crate::seed_figures::{SeedFigures, SEED_TEXT};
use crate::shader::RegisterFile;
use crate::sim::FrameResult;
use crate::LANES;
use serde::Serialize;
use std::fmt::Write;

/// Figure 3's cases, counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SdnCases {
    /// A full Nami completed by one pixel (upper cases).
    pub completed_by_single_pixel: u64,
    /// A full Nami completed exactly by several pixels (lower left).
    pub completed_exactly: u64,
    /// Overflow: full Nami sent, the remaining pixel starts the next (lower right).
    pub overflow: u64,
    /// Partial Nami sent by the 32-clock timer.
    pub timer_expired: u64,
}

/// How the SKE's issue slots were used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SkeSlots {
    /// All slots (one per clock per SKE).
    pub total: u64,
    /// Slots that carried a real Nami.
    pub real_nami: u64,
    /// Slots given to null Nami (the AKB selected an empty NMB).
    pub null_nami: u64,
    /// ALU instructions executed.
    pub instructions: u64,
    /// Exports granted.
    pub exports: u64,
    /// Exports refused because the ELT's Nami FIFO was full (retried).
    pub export_retries: u64,
    /// NOPs for a Nami issued once more after its export was granted.
    pub post_export_nops: u64,
    /// Issues that used the forwarding path.
    pub forwarded: u64,
}

/// Clocks each block spent held up by the next one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BackpressureClocks {
    /// Rasterizer clocks whose walk stalled on the one-pixel-per-clock port to the SDN.
    pub rasterizer_port_stall: u64,
    /// Rasterizer clocks clock-gated because every NMB was full.
    pub rasterizers_gated: u64,
    /// SDN clocks clock-gated because every NMB was full.
    pub sdn_gated: u64,
    /// AKB clocks with every NMB full (the backpressure signal).
    pub akb_all_nmbs_full: u64,
    /// SKE slots lost to refused exports.
    pub ske_export_refused: u64,
    /// ELT clocks a pixel waited for room in a full pixel FIFO (cache too slow).
    pub elt_pixel_fifo_full: u64,
}

/// The seed's lost ordering guarantee, made visible.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ordering {
    /// Pixels whose "previous colour" was read while an earlier pixel for the
    /// same address was still in flight.
    pub stale_previous_colour_reads: u64,
    /// Cache writes of an older pixel after a newer one (the older colour wins).
    pub out_of_order_cache_writes: u64,
}

/// The same scene under the other pixel interleave.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct InterleaveComparison {
    /// This run's interleave.
    pub interleave: &'static str,
    /// This run's share of partial Nami.
    pub partial_nami_fraction: f64,
    /// The other interleave.
    pub other_interleave: &'static str,
    /// Its share of partial Nami.
    pub other_partial_nami_fraction: f64,
    /// Its slowest tile row.
    pub other_max_tile_row_clocks: u64,
    /// Relative change, other vs this ((other - this) / this); negative is fewer partial Nami.
    pub relative_change: f64,
}

/// The report of one simulated frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Scene name.
    pub scene: String,
    /// Triangles in the scene.
    pub triangles: usize,
    /// Triangles dropped for having no area.
    pub degenerate_triangles_dropped: usize,
    /// Shader length in instructions.
    pub shader_instructions: usize,
    /// The parameters used.
    pub parameters: NamiParams,
    /// Graphics clocks per tile row (204,800).
    pub tile_row_budget_clocks: u64,
    /// Clocks per tile row, top to bottom.
    pub tile_row_clocks: Vec<u64>,
    /// The slowest tile row.
    pub max_tile_row_clocks: u64,
    /// Share of the budget the slowest row used.
    pub max_tile_row_budget_fraction: f64,
    /// Whether every tile row finished within its budget.
    pub fits_60hz: bool,
    /// The rate HDMI could show frames at (60 when it fits).
    pub achievable_frame_rate_hz: f64,
    /// Triangles drawn per frame (reaching at least one tile row).
    pub triangles_per_frame: usize,
    /// Triangles per second at the achievable frame rate.
    pub triangles_per_second: f64,
    /// Pixels written to the cache per frame.
    pub pixels_per_frame: u64,
    /// Pixels per second at the achievable frame rate.
    pub pixels_per_second: f64,
    /// Nami sent by the SDNs.
    pub nami: u64,
    /// Nami by number of valid lanes, 1..=8.
    pub nami_fill_histogram: Vec<u64>,
    /// Share of Nami with fewer than eight pixels.
    pub partial_nami_fraction: f64,
    /// Average valid lanes per Nami.
    pub average_nami_fill: f64,
    /// Figure 3's cases.
    pub sdn_cases: SdnCases,
    /// Share of SKE slots that carried a real Nami.
    pub ske_utilization: f64,
    /// SKE slot use.
    pub ske_slots: SkeSlots,
    /// Exports refused and retried.
    pub export_retries: u64,
    /// Backpressure, per block.
    pub backpressure_clocks: BackpressureClocks,
    /// New Nami that reached an AKB sooner than it can take them.
    pub akb_add_spacing_violations: u64,
    /// Ordering effects.
    pub ordering: Ordering,
    /// Register file bits per AKB (32,768 in the seed).
    pub register_file_bits_per_akb: u64,
    /// The seed's headline figures at the seed's cost per triangle (3,072),
    /// the author's target (512) and this run's cost if it is neither.
    pub seed_figures: Vec<SeedFigures>,
    /// The other interleave's partial-Nami share, when it was simulated too.
    pub interleave_comparison: Option<InterleaveComparison>,
}

/// Costs per triangle the headline figures are worked out for: the seed's
/// (the data file's default), the author's target, and this run's.
fn seed_figure_costs(params: &NamiParams) -> Vec<u64> {
    let seed_cost = NamiParams::seed()
        .map(|p| p.raster_clocks_per_triangle)
        .unwrap_or(params.raster_clocks_per_triangle);
    let mut costs = vec![seed_cost, params.raster_target_clocks_per_triangle];
    if !costs.contains(&params.raster_clocks_per_triangle) {
        costs.push(params.raster_clocks_per_triangle);
    }
    costs.dedup();
    costs
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Share of partial Nami in a result.
pub fn partial_nami_fraction(result: &FrameResult) -> f64 {
    let total: u64 = result.sdn.fill_histogram.iter().sum();
    ratio(total - result.sdn.fill_histogram[LANES], total)
}

impl Report {
    /// Build the report of `result`, simulated with `params`; `other` is the
    /// same scene simulated under the other pixel interleave, if it was.
    pub fn new(
        params: &NamiParams,
        scene_name: &str,
        degenerate_dropped: usize,
        shader_instructions: usize,
        result: &FrameResult,
        other: Option<&FrameResult>,
    ) -> Report {
        let timing = result.timing;
        let max_row = result.max_tile_row_clocks();
        let rate = timing.achievable_frame_rate(max_row);
        let nami: u64 = result.sdn.fill_histogram.iter().sum();
        let lanes_used: u64 = result
            .sdn
            .fill_histogram
            .iter()
            .enumerate()
            .map(|(n, c)| n as u64 * c)
            .sum();
        let partial = partial_nami_fraction(result);
        let ske = result.ske;
        let comparison = other.map(|o| {
            let other_partial = partial_nami_fraction(o);
            InterleaveComparison {
                interleave: params.pixel_interleave.name(),
                partial_nami_fraction: partial,
                other_interleave: params.pixel_interleave.other().name(),
                other_partial_nami_fraction: other_partial,
                other_max_tile_row_clocks: o.max_tile_row_clocks(),
                relative_change: if partial > 0.0 {
                    (other_partial - partial) / partial
                } else {
                    0.0
                },
            }
        });
        Report {
            scene: scene_name.to_string(),
            triangles: result.triangles,
            degenerate_triangles_dropped: degenerate_dropped,
            shader_instructions,
            parameters: params.clone(),
            tile_row_budget_clocks: timing.tile_row_budget_clocks,
            tile_row_clocks: result.row_clocks.clone(),
            max_tile_row_clocks: max_row,
            max_tile_row_budget_fraction: ratio(max_row, timing.tile_row_budget_clocks),
            fits_60hz: max_row <= timing.tile_row_budget_clocks,
            achievable_frame_rate_hz: rate,
            triangles_per_frame: result.triangles_drawn,
            triangles_per_second: result.triangles_drawn as f64 * rate,
            pixels_per_frame: result.elt.pixels_written,
            pixels_per_second: result.elt.pixels_written as f64 * rate,
            nami,
            nami_fill_histogram: result.sdn.fill_histogram[1..].to_vec(),
            partial_nami_fraction: partial,
            average_nami_fill: ratio(lanes_used, nami),
            sdn_cases: SdnCases {
                completed_by_single_pixel: result.sdn.completed_by_single,
                completed_exactly: result.sdn.completed_exactly,
                overflow: result.sdn.overflows,
                timer_expired: result.sdn.timeouts,
            },
            ske_utilization: ratio(ske.real_slots(), ske.slots),
            ske_slots: SkeSlots {
                total: ske.slots,
                real_nami: ske.real_slots(),
                null_nami: ske.null_nami,
                instructions: ske.instructions,
                exports: ske.exports,
                export_retries: ske.export_retries,
                post_export_nops: ske.post_export_nops,
                forwarded: ske.forwarded,
            },
            export_retries: ske.export_retries,
            backpressure_clocks: BackpressureClocks {
                rasterizer_port_stall: result.raster.port_stall_clocks,
                rasterizers_gated: result.raster.gated_clocks,
                sdn_gated: result.sdn.gated_clocks,
                akb_all_nmbs_full: result.akb.all_full_clocks,
                ske_export_refused: ske.export_retries,
                elt_pixel_fifo_full: result.elt.pixel_fifo_full_clocks,
            },
            akb_add_spacing_violations: result.akb.add_spacing_violations,
            ordering: Ordering {
                stale_previous_colour_reads: result.framebuffer.stale_previous_reads,
                out_of_order_cache_writes: result.framebuffer.out_of_order_writes,
            },
            register_file_bits_per_akb: RegisterFile::BITS * params.nami_per_nmb * params.nmb_count,
            seed_figures: seed_figure_costs(params)
                .into_iter()
                .map(|cost| SeedFigures::new(params, cost))
                .collect(),
            interleave_comparison: comparison,
        }
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.header_text(&mut s);
        self.frame_text(&mut s);
        self.nami_text(&mut s);
        self.pipeline_text(&mut s);
        s
    }

    /// The scene, the shader and the machine's parameters.
    fn header_text(&self, s: &mut String) {
        let p = &self.parameters;
        let _ = writeln!(
            s,
            "shadersim nami: {} ({} triangles{}), shader of {} instructions",
            self.scene,
            self.triangles,
            if self.degenerate_triangles_dropped > 0 {
                format!(
                    ", {} without area dropped",
                    self.degenerate_triangles_dropped
                )
            } else {
                String::new()
            },
            self.shader_instructions
        );
        let _ = writeln!(
            s,
            "machine: {} rasterizers at {} clocks/triangle, interleave {}, horizontal culling {}, {} per SDN, {} NMBs x {} Nami, SKE loop {} clocks",
            p.rasterizer_count,
            p.raster_clocks_per_triangle,
            p.pixel_interleave,
            if p.horizontal_culling { "on" } else { "off" },
            p.rasterizers_per_sdn,
            p.nmb_count,
            p.nami_per_nmb,
            p.ske_pipeline_clocks
        );
        let _ = writeln!(
            s,
            "         Nami timer {} clocks, ELT Nami FIFO {}, pixel FIFOs {}, cache takes a pixel every {} clocks",
            p.nami_timeout_clocks, p.elt_nami_fifo_depth, p.elt_pixel_fifo_depth, p.cache_clocks_per_pixel
        );
    }

    /// Frame timing, and the seed's headline figures beside the cycle model's.
    fn frame_text(&self, s: &mut String) {
        let p = &self.parameters;
        let _ = writeln!(s, "\nframe timing");
        let _ = writeln!(
            s,
            "  tile row budget      {:>12} clocks  (({}+{}+{}+{}) x {} pixel clocks at {} MHz, in {} MHz clocks)",
            group(self.tile_row_budget_clocks),
            p.screen_width,
            p.h_front_porch,
            p.h_back_porch,
            p.h_sync,
            p.tile_size,
            p.hdmi_clock_hz as f64 / 1e6,
            p.graphics_clock_hz as f64 / 1e6
        );
        let rows: Vec<String> = self.tile_row_clocks.iter().map(|c| group(*c)).collect();
        let _ = writeln!(s, "  clocks per tile row  {}", rows.join(" "));
        let _ = writeln!(
            s,
            "  slowest tile row     {:>12} clocks  ({:.1}% of budget)",
            group(self.max_tile_row_clocks),
            100.0 * self.max_tile_row_budget_fraction
        );
        let _ = writeln!(
            s,
            "  {:<20} {:>12}{}",
            format!("fits {} Hz", p.frame_rate_hz),
            if self.fits_60hz { "yes" } else { "no" },
            if self.fits_60hz {
                String::new()
            } else {
                format!(
                    "         (every row would need the slowest row's slot: {:.1} Hz)",
                    self.achievable_frame_rate_hz
                )
            }
        );

        let _ = writeln!(
            s,
            "\nthroughput (this scene, at {:.1} frames/s)",
            self.achievable_frame_rate_hz
        );
        let _ = writeln!(
            s,
            "  triangles per second {:>12}  ({} per frame)",
            group(self.triangles_per_second.round() as u64),
            self.triangles_per_frame
        );
        let _ = writeln!(
            s,
            "  pixels per second    {:>12}  ({} per frame, {:.3} G/s)",
            group(self.pixels_per_second.round() as u64),
            group(self.pixels_per_frame),
            self.pixels_per_second / 1e9
        );

        self.seed_figures_text(s);
    }

    /// The seed's headline figures per rasterizer speed, exact, rounded and
    /// by the cycle model.
    fn seed_figures_text(&self, s: &mut String) {
        let p = &self.parameters;
        let _ = writeln!(
            s,
            "\nseed headline figures (every tile row has its own full-row triangles)"
        );
        let figs = &self.seed_figures;
        let mut header = format!("  {:<44}", "");
        for f in figs {
            header += &format!(
                " {:>14}",
                format!("{} clocks", group(f.raster_clocks_per_triangle))
            );
        }
        let _ = writeln!(s, "{header}   seed text (3,072 clocks)");
        let row =
            |s: &mut String, label: &str, cell: &dyn Fn(&SeedFigures) -> String, seed: &str| {
                let mut line = format!("  {label:<44}");
                for f in figs {
                    line += &format!(" {:>14}", cell(f));
                }
                let _ = writeln!(s, "{line}   {seed}");
            };
        row(
            s,
            "clocks per full-tile triangle (cycle model)",
            &|f| group(f.simulated_clocks_per_full_tile_triangle),
            "",
        );
        row(
            s,
            "triangles/rasterizer/tile row, exact",
            &|f| format!("{:.2}", f.triangles_per_rasterizer_per_tile_row_exact),
            "",
        );
        row(
            s,
            "  rounded as the seed does",
            &|f| f.triangles_per_rasterizer_per_tile_row_rounded.to_string(),
            SEED_TEXT.triangles_per_rasterizer_per_tile_row,
        );
        row(
            s,
            "  whole triangles that fit (cycle model)",
            &|f| {
                f.triangles_per_rasterizer_per_tile_row_simulated
                    .to_string()
            },
            "",
        );
        row(
            s,
            &format!(
                "triangles/s (x {} rows x {} frames), exact",
                p.tile_rows(),
                p.frame_rate_hz
            ),
            &|f| group(f.triangles_per_second_exact.round() as u64),
            "",
        );
        row(
            s,
            "  rounded",
            &|f| group(f.triangles_per_second_rounded),
            SEED_TEXT.triangles_per_second,
        );
        row(
            s,
            "  cycle model",
            &|f| group(f.triangles_per_second_simulated),
            "",
        );
        row(
            s,
            &format!(
                "pixels/s (x {} pixels per row), exact",
                group(p.rasterizer_count * p.pixels_per_rasterizer())
            ),
            &|f| format!("{:.4} G", f.pixels_per_second_exact / 1e9),
            "",
        );
        row(
            s,
            "  rounded",
            &|f| format!("{:.4} G", f.pixels_per_second_rounded as f64 / 1e9),
            SEED_TEXT.pixels_per_second,
        );
        row(
            s,
            "  cycle model",
            &|f| format!("{:.4} G", f.pixels_per_second_simulated as f64 / 1e9),
            "",
        );
        let _ = writeln!(
            s,
            "  (exact: budget / clocks per triangle; rounded: to a whole triangle, as the seed does;"
        );
        let _ = writeln!(
            s,
            "   cycle model: whole triangles the modelled rasterizer finishes within the budget)"
        );
    }

    /// The Nami the SDNs sent: their fill and the cases that made them.
    fn nami_text(&self, s: &mut String) {
        let _ = writeln!(s, "\nNami (SDN output)");
        let _ = writeln!(
            s,
            "  sent {}, average {:.2} of 8 lanes, partial {:.1}%",
            group(self.nami),
            self.average_nami_fill,
            100.0 * self.partial_nami_fraction
        );
        let hist: Vec<String> = self
            .nami_fill_histogram
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}:{}", i + 1, c))
            .collect();
        let _ = writeln!(s, "  fill histogram (lanes:count)  {}", hist.join("  "));
        let c = &self.sdn_cases;
        let _ = writeln!(
            s,
            "  figure 3 cases: completed by one pixel {}, exactly by both {}, overflow {}, timer expired {}",
            c.completed_by_single_pixel, c.completed_exactly, c.overflow, c.timer_expired
        );
        if let Some(cmp) = &self.interleave_comparison {
            let _ = writeln!(
                s,
                "  partial Nami: {:.1}% with {}, {:.1}% with {} ({:+.1} percentage points, {:+.1}% relative; slowest row there {} clocks)",
                100.0 * cmp.partial_nami_fraction,
                cmp.interleave,
                100.0 * cmp.other_partial_nami_fraction,
                cmp.other_interleave,
                100.0 * (cmp.other_partial_nami_fraction - cmp.partial_nami_fraction),
                100.0 * cmp.relative_change,
                group(cmp.other_max_tile_row_clocks)
            );
        }
    }

    /// SKE slots, backpressure between the blocks, and ordering.
    fn pipeline_text(&self, s: &mut String) {
        let p = &self.parameters;
        let k = &self.ske_slots;
        let _ = writeln!(s, "\nSKE slots");
        let _ = writeln!(
            s,
            "  {} slots: real Nami {} ({:.1}%), null Nami {}",
            group(k.total),
            group(k.real_nami),
            100.0 * self.ske_utilization,
            group(k.null_nami)
        );
        let _ = writeln!(
            s,
            "  of the real: instructions {}, exports {}, export retries {}, post-export NOPs {}; forwarded {}",
            group(k.instructions),
            group(k.exports),
            group(k.export_retries),
            group(k.post_export_nops),
            group(k.forwarded)
        );
        let _ = writeln!(
            s,
            "  register file per AKB: {} bits",
            group(self.register_file_bits_per_akb)
        );

        let b = &self.backpressure_clocks;
        let _ = writeln!(s, "\nbackpressure (clocks, summed over blocks)");
        let _ = writeln!(
            s,
            "  rasterizer walk stalled on its SDN port   {:>12}",
            group(b.rasterizer_port_stall)
        );
        let _ = writeln!(
            s,
            "  rasterizers clock-gated (all NMBs full)   {:>12}",
            group(b.rasterizers_gated)
        );
        let _ = writeln!(
            s,
            "  SDNs clock-gated (all NMBs full)          {:>12}",
            group(b.sdn_gated)
        );
        let _ = writeln!(
            s,
            "  AKBs with every NMB full                  {:>12}",
            group(b.akb_all_nmbs_full)
        );
        let _ = writeln!(
            s,
            "  SKE exports refused (ELT Nami FIFO full)  {:>12}",
            group(b.ske_export_refused)
        );
        let _ = writeln!(
            s,
            "  ELT pixel FIFO full (cache bank behind)   {:>12}",
            group(b.elt_pixel_fifo_full)
        );
        if self.akb_add_spacing_violations > 0 {
            let _ = writeln!(
                s,
                "  warning: {} Nami reached an AKB less than {} clocks after the previous one; the seed's AKB relies on that never happening",
                group(self.akb_add_spacing_violations),
                p.akb_min_clocks_between_nami
            );
        }
        let o = &self.ordering;
        let _ = writeln!(s, "\nordering (the seed's lost ordering guarantee)");
        let _ = writeln!(
            s,
            "  stale previous-colour reads {}, out-of-order cache writes {}",
            group(o.stale_previous_colour_reads),
            group(o.out_of_order_cache_writes)
        );
    }
}

/// 1234567 -> "1,234,567".
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group;

    #[test]
    fn grouping() {
        assert_eq!(group(0), "0");
        assert_eq!(group(204_800), "204,800");
        assert_eq!(group(1_234_944_000), "1,234,944,000");
    }
}
