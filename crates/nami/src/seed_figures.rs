//! The seed's headline figures, worked out by the model.
//!
//! Seed, rasterizer overview: "if a rasterizer takes 3072 clocks to process a
//! triangle for a 32x32 tile, this works out to 67 triangles per rasterizer
//! per tile row per frame ... the rasterizers process a maximum of 60,300
//! triangles per second, and output pixels at a rate of 1.24 Gpix/sec."
//!
//! The budget comes from [`FrameTiming`]; the clocks a triangle takes come
//! from running one [`crate::raster::Rasterizer`] over a triangle covering
//! its whole tile. The seed's own arithmetic (budget / clocks per triangle,
//! 66.67, which it rounds to 67) is reported next to the cycle model's.

use crate::frame::FrameTiming;
use crate::params::NamiParams;
use crate::raster::clocks_for_full_tile_triangle;
use serde::Serialize;

/// The seed's figures as the seed's text states them, for side-by-side
/// display only (the model computes its own).
pub const SEED_TEXT: SeedText = SeedText {
    triangles_per_rasterizer_per_tile_row: "67",
    triangles_per_second: "60,300",
    pixels_per_second: "1.24 Gpix/s",
};

/// Figures quoted from the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeedText {
    /// "67 triangles per rasterizer per tile row per frame".
    pub triangles_per_rasterizer_per_tile_row: &'static str,
    /// "a maximum of 60,300 triangles per second".
    pub triangles_per_second: &'static str,
    /// "output pixels at a rate of 1.24 Gpix/sec".
    pub pixels_per_second: &'static str,
}

/// The headline figures for one cost per triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SeedFigures {
    /// Clocks per triangle per tile assumed (the parameter).
    pub raster_clocks_per_triangle: u64,
    /// Graphics clocks per tile row (204,800).
    pub tile_row_budget_clocks: u64,
    /// Clocks the cycle model's rasterizer takes for a triangle covering its
    /// whole tile (the cost, or longer when its pixels cannot leave as fast).
    pub simulated_clocks_per_full_tile_triangle: u64,
    /// Budget / cost: the seed's arithmetic, unrounded (66.67 at 3,072).
    pub triangles_per_rasterizer_per_tile_row_exact: f64,
    /// The same rounded to a whole triangle as the seed does (67).
    pub triangles_per_rasterizer_per_tile_row_rounded: u64,
    /// Whole triangles that fit the budget in the cycle model (66 at 3,072).
    pub triangles_per_rasterizer_per_tile_row_simulated: u64,
    /// Exact figure x tile rows x frame rate (60,000 at 3,072).
    pub triangles_per_second_exact: f64,
    /// Rounded figure x tile rows x frame rate (60,300 at 3,072).
    pub triangles_per_second_rounded: u64,
    /// Simulated whole triangles x tile rows x frame rate (59,400 at 3,072).
    pub triangles_per_second_simulated: u64,
    /// Exact triangles/s x every pixel of a tile row (1.2288 G at 3,072).
    pub pixels_per_second_exact: f64,
    /// Rounded triangles/s x every pixel of a tile row (1.2349 G at 3,072).
    pub pixels_per_second_rounded: u64,
    /// Simulated triangles/s x every pixel of a tile row.
    pub pixels_per_second_simulated: u64,
}

impl SeedFigures {
    /// Work the figures out for `clocks_per_triangle` on the machine `params`.
    pub fn new(params: &NamiParams, clocks_per_triangle: u64) -> SeedFigures {
        let mut p = params.clone();
        p.raster_clocks_per_triangle = clocks_per_triangle.max(1);
        let budget = FrameTiming::new(&p).tile_row_budget_clocks;
        let simulated_clocks = clocks_for_full_tile_triangle(&p).max(1);
        let per_row_exact = budget as f64 / p.raster_clocks_per_triangle as f64;
        let per_row_rounded = per_row_exact.round() as u64;
        let per_row_simulated = budget / simulated_clocks;
        let rows_per_second = (p.tile_rows() * p.frame_rate_hz) as f64;
        // Every triangle covers the whole tile row: all rasterizers' pixels.
        let row_pixels = (p.rasterizer_count * p.pixels_per_rasterizer()) as f64;
        SeedFigures {
            raster_clocks_per_triangle: p.raster_clocks_per_triangle,
            tile_row_budget_clocks: budget,
            simulated_clocks_per_full_tile_triangle: simulated_clocks,
            triangles_per_rasterizer_per_tile_row_exact: per_row_exact,
            triangles_per_rasterizer_per_tile_row_rounded: per_row_rounded,
            triangles_per_rasterizer_per_tile_row_simulated: per_row_simulated,
            triangles_per_second_exact: per_row_exact * rows_per_second,
            triangles_per_second_rounded: (per_row_rounded as f64 * rows_per_second) as u64,
            triangles_per_second_simulated: (per_row_simulated as f64 * rows_per_second) as u64,
            pixels_per_second_exact: per_row_exact * rows_per_second * row_pixels,
            pixels_per_second_rounded: (per_row_rounded as f64 * rows_per_second * row_pixels)
                as u64,
            pixels_per_second_simulated: (per_row_simulated as f64 * rows_per_second * row_pixels)
                as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_figures_at_3072_clocks() {
        let f = SeedFigures::new(&NamiParams::seed().unwrap(), 3072);
        assert_eq!(f.tile_row_budget_clocks, 204_800);
        assert_eq!(f.simulated_clocks_per_full_tile_triangle, 3072);
        assert!((f.triangles_per_rasterizer_per_tile_row_exact - 66.6667).abs() < 1e-3);
        assert_eq!(f.triangles_per_rasterizer_per_tile_row_rounded, 67);
        assert_eq!(f.triangles_per_rasterizer_per_tile_row_simulated, 66);
        assert!((f.triangles_per_second_exact - 60_000.0).abs() < 1e-6);
        assert_eq!(f.triangles_per_second_rounded, 60_300);
        assert_eq!(f.triangles_per_second_simulated, 59_400);
        assert!((f.pixels_per_second_exact - 1.2288e9).abs() < 1.0);
        assert_eq!(f.pixels_per_second_rounded, 1_234_944_000);
        // The seed's "1.24 Gpix/sec" is 1.2349 G rounded up to two places.
        assert_eq!(
            (f.pixels_per_second_rounded as f64 / 1e7).ceil() / 100.0,
            1.24
        );
    }

    #[test]
    fn the_authors_512_clock_target() {
        let f = SeedFigures::new(&NamiParams::seed().unwrap(), 512);
        assert_eq!(f.triangles_per_rasterizer_per_tile_row_exact, 400.0);
        assert_eq!(f.triangles_per_rasterizer_per_tile_row_rounded, 400);
        assert_eq!(f.triangles_per_second_rounded, 360_000);
        assert_eq!(f.pixels_per_second_rounded, 7_372_800_000);
        // One pixel per clock into the SDN: a full tile takes 1,024 clocks.
        assert_eq!(f.simulated_clocks_per_full_tile_triangle, 1024);
        assert_eq!(f.triangles_per_rasterizer_per_tile_row_simulated, 200);
    }
}
