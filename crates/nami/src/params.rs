//! Every number of the model, loaded from the embedded data file
//! `data/params.toml` (each entry carries its source: a section of seed 003,
//! or "assumption") and overridable by key (`--set KEY=VALUE`).

use serde::Serialize;
use std::fmt;

/// The data file the defaults come from, embedded in the binary.
pub const PARAMS_TOML: &str = include_str!("../data/params.toml");

/// How the pixels of a 640x32 tile row are dealt out to the rasterizers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PixelInterleave {
    /// Today's hardware: rasterizer R takes screen pixels R + 20N of every line
    /// of the tile row (seed, SDN "things to eventually fix").
    R20n,
    /// The fix the author wants: rasterizer R owns the 32x32 tile R and walks
    /// it in 2x2 quads (assumption on the walk order: quads row-major).
    Quad,
}

impl PixelInterleave {
    /// The knob's spelling (`r20n` or `quad`).
    pub fn name(self) -> &'static str {
        match self {
            PixelInterleave::R20n => "r20n",
            PixelInterleave::Quad => "quad",
        }
    }

    /// The other interleave, for the report's comparison.
    pub fn other(self) -> PixelInterleave {
        match self {
            PixelInterleave::R20n => PixelInterleave::Quad,
            PixelInterleave::Quad => PixelInterleave::R20n,
        }
    }
}

impl fmt::Display for PixelInterleave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A parameter that could not be loaded, set or validated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// `--set` named a key the model does not have.
    #[error("unknown parameter `{key}`; known parameters: {}", known_keys().join(", "))]
    UnknownKey {
        /// The key as given.
        key: String,
    },
    /// The value does not parse as the parameter's type.
    #[error("parameter `{key}`: `{value}` is not {expected}")]
    BadValue {
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// `--set` without `=`.
    #[error("`--set {0}`: expected KEY=VALUE")]
    NoEquals(String),
    /// Values that parse but describe a machine the model cannot build.
    #[error("{0}")]
    Invalid(String),
    /// The embedded data file is broken (a build defect, reported rather than panicking).
    #[error("embedded params.toml: {0}")]
    DataFile(String),
}

macro_rules! integer_params {
    ($( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        /// The parameters of the modelled GPU. Defaults come from `data/params.toml`.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        pub struct NamiParams {
            $( $(#[$doc])* pub $name: u64, )*
            /// Pixel interleave of the rasterizers (`pixel_interleave`).
            pub pixel_interleave: PixelInterleave,
            /// Whether rasterizers skip triangles that miss their pixel columns (`horizontal_culling`).
            pub horizontal_culling: bool,
        }

        const INTEGER_KEYS: &[&str] = &[$( stringify!($name) ),*];

        impl NamiParams {
            fn integer_mut(&mut self, key: &str) -> Option<&mut u64> {
                match key {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }

            /// The value of an integer parameter by key.
            pub fn integer(&self, key: &str) -> Option<u64> {
                match key {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            fn empty() -> NamiParams {
                NamiParams {
                    $( $name: 0, )*
                    pixel_interleave: PixelInterleave::R20n,
                    horizontal_culling: false,
                }
            }
        }
    };
}

integer_params! {
    /// Graphics clock in Hz (200 MHz).
    graphics_clock_hz,
    /// HDMI pixel clock in Hz (25 MHz).
    hdmi_clock_hz,
    /// Visible width in pixels.
    screen_width,
    /// Visible height in pixels.
    screen_height,
    /// Horizontal front porch in pixel clocks.
    h_front_porch,
    /// Horizontal back porch in pixel clocks.
    h_back_porch,
    /// Horizontal sync in pixel clocks.
    h_sync,
    /// Side of a rasterizer's square tile, and height of a tile row.
    tile_size,
    /// Display refresh rate.
    frame_rate_hz,
    /// Number of rasterizers across a tile row.
    rasterizer_count,
    /// Clocks a rasterizer spends on one triangle for its 32x32 pixels.
    raster_clocks_per_triangle,
    /// The author's target for the same (512).
    raster_target_clocks_per_triangle,
    /// Rasterizers feeding one SDN (and one AKB, SKE, ELT).
    rasterizers_per_sdn,
    /// Clocks without a new pixel before the SDN sends a partial Nami.
    nami_timeout_clocks,
    /// NMBs per AKB.
    nmb_count,
    /// Nami slots per NMB.
    nami_per_nmb,
    /// Minimum spacing of new Nami the AKB relies on.
    akb_min_clocks_between_nami,
    /// Clocks from issue to the updated dynamic data reaching the NMB.
    ske_pipeline_clocks,
    /// Longest shader the i-cache holds, in instructions.
    icache_instructions,
    /// Entries of the ELT's Nami FIFO.
    elt_nami_fifo_depth,
    /// Entries of each ELT pixel FIFO.
    elt_pixel_fifo_depth,
    /// Pixels the ELT moves from the head Nami into the pixel FIFOs per clock.
    elt_pixels_per_clock,
    /// Clocks between two pixels a cache bank accepts from its ELT pixel FIFO.
    cache_clocks_per_pixel,
}

/// Every key `--set` accepts, in data-file order of kind (integers, then the rest).
pub fn known_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = INTEGER_KEYS.to_vec();
    keys.push("pixel_interleave");
    keys.push("horizontal_culling");
    keys
}

/// One entry of the data file: its value as text and its documented source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParamSource {
    /// The key.
    pub key: String,
    /// The default value, as written in the data file.
    pub default: String,
    /// Where the number comes from (seed section or "assumption").
    pub source: String,
}

/// The sources of every parameter, as listed in the data file.
pub fn param_sources() -> Result<Vec<ParamSource>, ParamError> {
    let table: toml::Table = PARAMS_TOML
        .parse()
        .map_err(|e: toml::de::Error| ParamError::DataFile(e.to_string()))?;
    let mut out = Vec::new();
    for (key, entry) in &table {
        let value = entry
            .get("value")
            .ok_or_else(|| ParamError::DataFile(format!("`{key}` has no value")))?;
        let source = entry
            .get("source")
            .and_then(|s| s.as_str())
            .ok_or_else(|| ParamError::DataFile(format!("`{key}` has no source")))?;
        out.push(ParamSource {
            key: key.clone(),
            default: value.to_string().trim_matches('"').to_string(),
            source: source.to_string(),
        });
    }
    Ok(out)
}

impl NamiParams {
    /// The seed's machine, as the embedded data file describes it.
    pub fn seed() -> Result<NamiParams, ParamError> {
        let mut params = NamiParams::empty();
        let mut seen = Vec::new();
        for entry in param_sources()? {
            params
                .set(&entry.key, &entry.default)
                .map_err(|e| ParamError::DataFile(e.to_string()))?;
            seen.push(entry.key);
        }
        for key in known_keys() {
            if !seen.iter().any(|k| k == key) {
                return Err(ParamError::DataFile(format!("`{key}` is missing")));
            }
        }
        params.validate()?;
        Ok(params)
    }

    /// Set one parameter from text (`--set KEY=VALUE`). Does not validate the
    /// whole set: call [`NamiParams::validate`] after the last change.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        let bad = |expected| ParamError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected,
        };
        match key {
            "pixel_interleave" => {
                self.pixel_interleave = match value {
                    "r20n" => PixelInterleave::R20n,
                    "quad" => PixelInterleave::Quad,
                    _ => return Err(bad("`r20n` or `quad`")),
                }
            }
            "horizontal_culling" => {
                self.horizontal_culling = match value {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(bad("`true` or `false`")),
                }
            }
            _ => {
                let slot = self
                    .integer_mut(key)
                    .ok_or_else(|| ParamError::UnknownKey {
                        key: key.to_string(),
                    })?;
                let digits: String = value.chars().filter(|c| *c != '_').collect();
                *slot = digits
                    .parse::<u64>()
                    .map_err(|_| bad("a non-negative integer"))?;
            }
        }
        Ok(())
    }

    /// Apply one `KEY=VALUE` assignment.
    pub fn set_assignment(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::NoEquals(assignment.to_string()))?;
        self.set(key.trim(), value.trim())
    }

    /// Check that the values describe a machine the model can build; the
    /// message says which rule of the seed a value breaks.
    pub fn validate(&self) -> Result<(), ParamError> {
        let invalid = |msg: String| Err(ParamError::Invalid(msg));
        for key in INTEGER_KEYS {
            let v = self.integer(key).unwrap_or(1);
            if v == 0 {
                return invalid(format!("parameter `{key}` must be at least 1"));
            }
        }
        // Upper limits keep every run finite and every stall shorter than
        // the simulation's progress watchdog.
        for (key, limit) in [
            ("screen_width", 4096),
            ("screen_height", 4096),
            ("tile_size", 4096),
            ("rasterizer_count", 4096),
            ("raster_clocks_per_triangle", 1 << 20),
            ("raster_target_clocks_per_triangle", 1 << 20),
            ("nami_timeout_clocks", 1 << 16),
            ("akb_min_clocks_between_nami", 1 << 16),
            ("ske_pipeline_clocks", 64),
            ("icache_instructions", 65_535),
            ("elt_nami_fifo_depth", 4096),
            ("elt_pixel_fifo_depth", 4096),
            ("elt_pixels_per_clock", crate::LANES as u64),
            ("cache_clocks_per_pixel", 1024),
            ("h_front_porch", 1 << 16),
            ("h_back_porch", 1 << 16),
            ("h_sync", 1 << 16),
            ("frame_rate_hz", 1000),
        ] {
            let v = self.integer(key).unwrap_or(0);
            if v > limit {
                return invalid(format!(
                    "parameter `{key}` = {v} is beyond the model's limit of {limit}"
                ));
            }
        }
        if self.graphics_clock_hz > 10_000_000_000 || self.hdmi_clock_hz > 10_000_000_000 {
            return invalid("graphics_clock_hz and hdmi_clock_hz are limited to 10 GHz".into());
        }
        if self.tile_size % 2 != 0 {
            return invalid(format!(
                "tile_size ({}) must be even: quads are 2x2",
                self.tile_size
            ));
        }
        if self.screen_height % self.tile_size != 0 {
            return invalid(format!(
                "screen_height ({}) must be a multiple of tile_size ({}): the screen is cut into tile rows",
                self.screen_height, self.tile_size
            ));
        }
        if self.rasterizer_count * self.tile_size != self.screen_width {
            return invalid(format!(
                "rasterizer_count x tile_size ({} x {}) must equal screen_width ({}): the rasterizers together cover one tile row (seed figure 2)",
                self.rasterizer_count, self.tile_size, self.screen_width
            ));
        }
        if self.rasterizers_per_sdn > crate::LANES as u64
            || self.rasterizer_count % self.rasterizers_per_sdn != 0
        {
            return invalid(format!(
                "rasterizers_per_sdn ({}) must divide rasterizer_count ({}) and be at most {} (the Nami width), so that one clock overflows into at most one new Nami",
                self.rasterizers_per_sdn,
                self.rasterizer_count,
                crate::LANES
            ));
        }
        if self.nami_per_nmb > 32 {
            return invalid(format!(
                "nami_per_nmb ({}) is limited to 32 (the NMB masks are modelled as 32-bit words)",
                self.nami_per_nmb
            ));
        }
        if self.nmb_count > 64 {
            return invalid(format!("nmb_count ({}) is limited to 64", self.nmb_count));
        }
        if self.nmb_count < self.ske_pipeline_clocks {
            return invalid(format!(
                "nmb_count ({}) must be at least ske_pipeline_clocks ({}): the AKB visits the NMBs round robin with no skipping so that the same Nami is issued at most once every {} clocks (seed, AKB and NMBs)",
                self.nmb_count, self.ske_pipeline_clocks, self.ske_pipeline_clocks
            ));
        }
        let pixel_clocks = self.line_clocks() * self.tile_size;
        if (pixel_clocks * self.graphics_clock_hz) % self.hdmi_clock_hz != 0 {
            return invalid(format!(
                "graphics_clock_hz x pixel clocks per tile row ({} x {}) must be a multiple of hdmi_clock_hz ({})",
                self.graphics_clock_hz, pixel_clocks, self.hdmi_clock_hz
            ));
        }
        Ok(())
    }

    /// Pixel clocks of one scan line including blanking (800 in the seed).
    pub fn line_clocks(&self) -> u64 {
        self.screen_width + self.h_front_porch + self.h_back_porch + self.h_sync
    }

    /// Rasterizers per SDN as a count.
    pub fn group_size(&self) -> usize {
        self.rasterizers_per_sdn as usize
    }

    /// Number of SDN/AKB/SKE/ELT groups.
    pub fn group_count(&self) -> usize {
        (self.rasterizer_count / self.rasterizers_per_sdn) as usize
    }

    /// Pixels one rasterizer owns in a tile row (1,024 in the seed).
    pub fn pixels_per_rasterizer(&self) -> u64 {
        self.tile_size * self.tile_size
    }

    /// Number of tile rows on screen (15 in the seed).
    pub fn tile_rows(&self) -> u64 {
        self.screen_height / self.tile_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_file_loads_the_seed_machine() {
        let p = NamiParams::seed().unwrap();
        assert_eq!(p.raster_clocks_per_triangle, 3072);
        assert_eq!(p.rasterizer_count, 20);
        assert_eq!(p.pixel_interleave, PixelInterleave::R20n);
        assert_eq!(p.group_count(), 10);
        assert_eq!(p.tile_rows(), 15);
    }

    #[test]
    fn every_entry_has_a_source() {
        let sources = param_sources().unwrap();
        assert_eq!(sources.len(), known_keys().len());
        for s in sources {
            assert!(
                s.source.starts_with("seed") || s.source.starts_with("assumption"),
                "{}: {}",
                s.key,
                s.source
            );
        }
    }

    #[test]
    fn unknown_key_lists_the_known_ones() {
        let mut p = NamiParams::seed().unwrap();
        let err = p.set_assignment("raster_clocks=5").unwrap_err().to_string();
        assert!(err.contains("unknown parameter `raster_clocks`"));
        assert!(err.contains("raster_clocks_per_triangle"));
        assert!(err.contains("pixel_interleave"));
    }

    #[test]
    fn set_and_validate() {
        let mut p = NamiParams::seed().unwrap();
        p.set_assignment("pixel_interleave=quad").unwrap();
        p.set_assignment("raster_clocks_per_triangle=512").unwrap();
        assert_eq!(p.pixel_interleave, PixelInterleave::Quad);
        assert_eq!(p.raster_clocks_per_triangle, 512);
        p.validate().unwrap();
        assert!(p.set_assignment("pixel_interleave=tiles").is_err());
        assert!(p.set_assignment("nmb_count=-1").is_err());
        p.set_assignment("nmb_count=2").unwrap();
        assert!(p
            .validate()
            .unwrap_err()
            .to_string()
            .contains("at least ske_pipeline_clocks"));
        p.set_assignment("nmb_count=4").unwrap();
        p.set_assignment("rasterizers_per_sdn=3").unwrap();
        assert!(p.validate().is_err());
        p.set_assignment("rasterizers_per_sdn=4").unwrap();
        p.validate().unwrap();
        p.set_assignment("elt_nami_fifo_depth=0").unwrap();
        assert!(p.validate().is_err());
    }
}
