//! Frame timing: how many graphics clocks the rasterizers have for one tile
//! row while HDMI scans out the other bank of the double-buffered cache
//! (seed, rasterizer overview: "racing the beam ... the time HDMI takes to
//! scan out a tile row").

use crate::params::NamiParams;
use serde::Serialize;

/// The frame-timing figures that follow from the parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FrameTiming {
    /// Pixel clocks of one scan line with blanking (640 + 16 + 48 + 96 = 800).
    pub line_pixel_clocks: u64,
    /// Pixel clocks of one tile row (800 x 32 = 25,600).
    pub tile_row_pixel_clocks: u64,
    /// Graphics clocks per HDMI pixel clock (200 MHz / 25 MHz = 8).
    pub graphics_clocks_per_pixel_clock: f64,
    /// Graphics clocks the rasterizers have per tile row (204,800).
    pub tile_row_budget_clocks: u64,
    /// Tile rows per frame (480 / 32 = 15).
    pub tile_rows: u64,
    /// Refresh rate the budget is for.
    pub frame_rate_hz: u64,
}

impl FrameTiming {
    /// Work the timing out from the parameters.
    pub fn new(params: &NamiParams) -> FrameTiming {
        let line = params.line_clocks();
        let row = line * params.tile_size;
        FrameTiming {
            line_pixel_clocks: line,
            tile_row_pixel_clocks: row,
            graphics_clocks_per_pixel_clock: params.graphics_clock_hz as f64
                / params.hdmi_clock_hz as f64,
            tile_row_budget_clocks: row * params.graphics_clock_hz / params.hdmi_clock_hz,
            tile_rows: params.tile_rows(),
            frame_rate_hz: params.frame_rate_hz,
        }
    }

    /// The frame rate a frame whose slowest tile row took `max_row_clocks`
    /// can be shown at: HDMI scans every row at the same pace, so each row
    /// gets the slot of the slowest one; never above the display's rate.
    pub fn achievable_frame_rate(&self, max_row_clocks: u64) -> f64 {
        let slot = max_row_clocks.max(self.tile_row_budget_clocks) as f64;
        self.frame_rate_hz as f64 * self.tile_row_budget_clocks as f64 / slot
    }
}

impl NamiParams {
    /// Graphics clocks per tile row (204,800 for the seed's machine).
    pub fn tile_row_budget_clocks(&self) -> u64 {
        FrameTiming::new(self).tile_row_budget_clocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_budget_is_204800() {
        let t = FrameTiming::new(&NamiParams::seed().unwrap());
        assert_eq!(t.line_pixel_clocks, 800);
        assert_eq!(t.tile_row_pixel_clocks, 25_600);
        assert_eq!(t.tile_row_budget_clocks, 204_800);
        assert_eq!(t.tile_rows, 15);
        assert_eq!(t.achievable_frame_rate(100), 60.0);
        assert_eq!(t.achievable_frame_rate(409_600), 30.0);
    }
}
