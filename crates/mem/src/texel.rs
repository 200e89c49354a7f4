//! Texel formats and texture filters of image operations, named as in the hints file
//! (`format = "rgba8"`, `filter = "trilinear"`), and what one sample of them costs.

use crate::rates::{Rate, VmemRates};
use std::fmt;
use std::str::FromStr;

/// The size class that decides a filtered sample's rate (seed 001's table has one row per class).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FilterClass {
    /// 32-bit (or smaller) texels: 16 clocks per wave filtered.
    Bits32,
    /// 64-bit texels: 32 clocks per wave filtered.
    Bits64,
    /// 128-bit texels (and 96-bit ones, rounded up): 64 clocks per wave filtered.
    Bits128,
}

impl FilterClass {
    /// The rate that gives this class's bilinear clocks per wave.
    pub fn rate(self) -> Rate {
        match self {
            FilterClass::Bits32 => Rate::ImageFiltered32BitClocks,
            FilterClass::Bits64 => Rate::ImageFiltered64BitClocks,
            FilterClass::Bits128 => Rate::ImageFiltered128BitClocks,
        }
    }
}

impl fmt::Display for FilterClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FilterClass::Bits32 => "32-bit (or smaller)",
            FilterClass::Bits64 => "64-bit",
            FilterClass::Bits128 => "128-bit",
        })
    }
}

/// The texel format of an image, as the hints file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TexelFormat {
    /// `r8`: one 8-bit channel.
    R8,
    /// `rg8`: two 8-bit channels.
    Rg8,
    /// `rgba8`: four 8-bit channels (the default of gcn-model.md).
    Rgba8,
    /// `bgra8`: four 8-bit channels, swizzled.
    Bgra8,
    /// `rgba8_srgb`: four 8-bit channels, sRGB encoded.
    Rgba8Srgb,
    /// `r16`: one 16-bit normalized channel.
    R16,
    /// `r16f`: one 16-bit float channel.
    R16f,
    /// `rg16`: two 16-bit normalized channels.
    Rg16,
    /// `rg16f`: two 16-bit float channels.
    Rg16f,
    /// `rgba16`: four 16-bit normalized channels.
    Rgba16,
    /// `rgba16f`: four 16-bit float channels.
    Rgba16f,
    /// `r32ui`: one 32-bit integer channel.
    R32ui,
    /// `r32f`: one 32-bit float channel.
    R32f,
    /// `rg32ui`: two 32-bit integer channels.
    Rg32ui,
    /// `rg32f`: two 32-bit float channels.
    Rg32f,
    /// `rgb32f`: three 32-bit float channels (96 bits; filtered at the 128-bit rate).
    Rgb32f,
    /// `rgba32ui`: four 32-bit integer channels.
    Rgba32ui,
    /// `rgba32f`: four 32-bit float channels.
    Rgba32f,
    /// `rgb10a2`: packed 10-10-10-2.
    Rgb10a2,
    /// `r11g11b10f`: packed 11-11-10 float.
    R11g11b10f,
    /// `rgb9e5`: shared-exponent 9-9-9-5.
    Rgb9e5,
    /// `d16`: 16-bit depth.
    D16,
    /// `d24s8`: 24-bit depth and 8-bit stencil.
    D24s8,
    /// `d32f`: 32-bit float depth.
    D32f,
    /// `bc1`: block compressed, 8 bytes per 4x4 block.
    Bc1,
    /// `bc2`: block compressed, 16 bytes per 4x4 block.
    Bc2,
    /// `bc3`: block compressed, 16 bytes per 4x4 block.
    Bc3,
    /// `bc4`: block compressed, 8 bytes per 4x4 block.
    Bc4,
    /// `bc5`: block compressed, 16 bytes per 4x4 block.
    Bc5,
    /// `bc6` (also spelled `bc6h`): HDR block compressed, 16 bytes per 4x4 block; filtered at the
    /// 64-bit rate.
    Bc6,
    /// `bc7`: block compressed, 16 bytes per 4x4 block.
    Bc7,
}

/// One row of the format table: name, bits per texel after decompression, bytes one lane fetches.
struct FormatRow {
    format: TexelFormat,
    name: &'static str,
    /// Bits of one decoded texel; decides the filter class of uncompressed formats.
    bits: u32,
    /// Bytes one lane reads from memory: the texel, or for block-compressed formats its block.
    fetch_bytes: u32,
    compressed: bool,
}

const fn row(format: TexelFormat, name: &'static str, bits: u32) -> FormatRow {
    FormatRow {
        format,
        name,
        bits,
        fetch_bytes: bits / 8,
        compressed: false,
    }
}

const fn block(format: TexelFormat, name: &'static str, block_bytes: u32) -> FormatRow {
    FormatRow {
        format,
        name,
        bits: 0,
        fetch_bytes: block_bytes,
        compressed: true,
    }
}

const FORMATS: [FormatRow; 31] = [
    row(TexelFormat::R8, "r8", 8),
    row(TexelFormat::Rg8, "rg8", 16),
    row(TexelFormat::Rgba8, "rgba8", 32),
    row(TexelFormat::Bgra8, "bgra8", 32),
    row(TexelFormat::Rgba8Srgb, "rgba8_srgb", 32),
    row(TexelFormat::R16, "r16", 16),
    row(TexelFormat::R16f, "r16f", 16),
    row(TexelFormat::Rg16, "rg16", 32),
    row(TexelFormat::Rg16f, "rg16f", 32),
    row(TexelFormat::Rgba16, "rgba16", 64),
    row(TexelFormat::Rgba16f, "rgba16f", 64),
    row(TexelFormat::R32ui, "r32ui", 32),
    row(TexelFormat::R32f, "r32f", 32),
    row(TexelFormat::Rg32ui, "rg32ui", 64),
    row(TexelFormat::Rg32f, "rg32f", 64),
    row(TexelFormat::Rgb32f, "rgb32f", 96),
    row(TexelFormat::Rgba32ui, "rgba32ui", 128),
    row(TexelFormat::Rgba32f, "rgba32f", 128),
    row(TexelFormat::Rgb10a2, "rgb10a2", 32),
    row(TexelFormat::R11g11b10f, "r11g11b10f", 32),
    row(TexelFormat::Rgb9e5, "rgb9e5", 32),
    row(TexelFormat::D16, "d16", 16),
    row(TexelFormat::D24s8, "d24s8", 32),
    row(TexelFormat::D32f, "d32f", 32),
    block(TexelFormat::Bc1, "bc1", 8),
    block(TexelFormat::Bc2, "bc2", 16),
    block(TexelFormat::Bc3, "bc3", 16),
    block(TexelFormat::Bc4, "bc4", 8),
    block(TexelFormat::Bc5, "bc5", 16),
    block(TexelFormat::Bc6, "bc6", 16),
    block(TexelFormat::Bc7, "bc7", 16),
];

/// Other spellings accepted by [`TexelFormat::from_str`].
const FORMAT_ALIASES: [(&str, TexelFormat); 3] = [
    ("bc6h", TexelFormat::Bc6),
    ("srgba8", TexelFormat::Rgba8Srgb),
    ("rgba8_unorm", TexelFormat::Rgba8),
];

impl TexelFormat {
    /// Every format, in table order.
    pub fn all() -> impl Iterator<Item = TexelFormat> {
        FORMATS.iter().map(|row| row.format)
    }

    fn row(self) -> &'static FormatRow {
        // The table has one row per variant in declaration order; the search keeps this
        // correct even if someone reorders one of the two.
        FORMATS
            .iter()
            .find(|row| row.format == self)
            .unwrap_or(&FORMATS[2])
    }

    /// The hints-file name (`rgba8`, `r32f`, `bc1`, ...).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether the format is block compressed (BC1..BC7).
    pub fn is_compressed(self) -> bool {
        self.row().compressed
    }

    /// Bytes one lane reads from memory: the texel, or for block-compressed formats the whole
    /// 4x4 block (8 or 16 bytes). This is the element size of a lane pattern for image ops.
    pub fn fetch_bytes(self) -> u32 {
        self.row().fetch_bytes
    }

    /// The filter class. gcn-model.md: "Compressed formats count as 32-bit texels except BC6
    /// (64-bit)"; 96-bit texels take the 128-bit rate.
    pub fn filter_class(self) -> FilterClass {
        let row = self.row();
        if row.compressed {
            return if self == TexelFormat::Bc6 {
                FilterClass::Bits64
            } else {
                FilterClass::Bits32
            };
        }
        match row.bits {
            0..=32 => FilterClass::Bits32,
            33..=64 => FilterClass::Bits64,
            _ => FilterClass::Bits128,
        }
    }

    /// Clocks per wave64 of one sample of this format with `filter`, without gradients:
    /// point sampling costs the point rate whatever the size (seed 001: four 128-bit texels per
    /// clock), a filtered sample costs the class's rate times the filter's factor.
    pub fn sample_clocks(self, filter: TextureFilter, rates: &VmemRates) -> u32 {
        match filter.factor_rate() {
            None => rates.get(Rate::ImagePointClocks),
            Some(factor) => rates
                .get(self.filter_class().rate())
                .saturating_mul(rates.get(factor)),
        }
    }
}

impl fmt::Display for TexelFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A texel format or filter name that is not known; the message lists the known names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownName {
    /// What was being named (`texel format`, `texture filter`).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names accepted.
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}`; known: {}",
            self.what,
            self.given,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for TexelFormat {
    type Err = UnknownName;

    /// Parses a hints-file name, ignoring ASCII case and surrounding blanks.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_ascii_lowercase();
        FORMATS
            .iter()
            .map(|row| (row.name, row.format))
            .chain(FORMAT_ALIASES)
            .find(|(known, _)| *known == name)
            .map(|(_, format)| format)
            .ok_or_else(|| UnknownName {
                what: "texel format",
                given: s.to_string(),
                known: FORMATS.iter().map(|row| row.name).collect(),
            })
    }
}

/// The filter of an image sample, as the hints file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TextureFilter {
    /// `point`: nearest texel, no filtering.
    Point,
    /// `bilinear`: 2x2 texels of one mip level.
    Bilinear,
    /// `trilinear`: bilinear on two mip levels (the default of gcn-model.md).
    Trilinear,
    /// `aniso2x`: anisotropic, up to 2 probes.
    Aniso2x,
    /// `aniso4x`: anisotropic, up to 4 probes.
    Aniso4x,
    /// `aniso8x`: anisotropic, up to 8 probes.
    Aniso8x,
}

impl TextureFilter {
    /// Every filter, cheapest first.
    pub const ALL: [TextureFilter; 6] = [
        TextureFilter::Point,
        TextureFilter::Bilinear,
        TextureFilter::Trilinear,
        TextureFilter::Aniso2x,
        TextureFilter::Aniso4x,
        TextureFilter::Aniso8x,
    ];

    /// The hints-file name.
    pub fn name(self) -> &'static str {
        match self {
            TextureFilter::Point => "point",
            TextureFilter::Bilinear => "bilinear",
            TextureFilter::Trilinear => "trilinear",
            TextureFilter::Aniso2x => "aniso2x",
            TextureFilter::Aniso4x => "aniso4x",
            TextureFilter::Aniso8x => "aniso8x",
        }
    }

    /// Whether the filter blends texels (everything but `point`).
    pub fn is_filtered(self) -> bool {
        self != TextureFilter::Point
    }

    /// The rate holding this filter's factor on the filtered clocks; `None` for `point`, which
    /// has its own rate instead.
    pub fn factor_rate(self) -> Option<Rate> {
        match self {
            TextureFilter::Point => None,
            TextureFilter::Bilinear => Some(Rate::BilinearFactor),
            TextureFilter::Trilinear => Some(Rate::TrilinearFactor),
            TextureFilter::Aniso2x => Some(Rate::Aniso2xFactor),
            TextureFilter::Aniso4x => Some(Rate::Aniso4xFactor),
            TextureFilter::Aniso8x => Some(Rate::Aniso8xFactor),
        }
    }

    /// Clocks per wave64 of one sample of `format` with this filter (see
    /// [`TexelFormat::sample_clocks`]).
    pub fn sample_clocks(self, format: TexelFormat, rates: &VmemRates) -> u32 {
        format.sample_clocks(self, rates)
    }
}

impl fmt::Display for TextureFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TextureFilter {
    type Err = UnknownName;

    /// Parses a hints-file name, ignoring ASCII case and surrounding blanks.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_ascii_lowercase();
        TextureFilter::ALL
            .into_iter()
            .find(|filter| filter.name() == name)
            .ok_or_else(|| UnknownName {
                what: "texture filter",
                given: s.to_string(),
                known: TextureFilter::ALL.iter().map(|f| f.name()).collect(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_table_has_every_variant_once_and_names_round_trip() {
        assert_eq!(TexelFormat::all().count(), FORMATS.len());
        for (i, row) in FORMATS.iter().enumerate() {
            assert_eq!(row.format.row().name, row.name, "row {i}");
            assert_eq!(row.name.parse::<TexelFormat>(), Ok(row.format));
            assert_eq!(row.format.to_string(), row.name);
            assert!(row.fetch_bytes > 0);
        }
        assert_eq!("BC6H".parse::<TexelFormat>(), Ok(TexelFormat::Bc6));
        assert_eq!(" Rgba8 ".parse::<TexelFormat>(), Ok(TexelFormat::Rgba8));
        let err = "rgb565".parse::<TexelFormat>().unwrap_err();
        assert!(err.to_string().contains("`rgb565`") && err.to_string().contains("rgba8"));
    }

    #[test]
    fn filter_names_round_trip() {
        for filter in TextureFilter::ALL {
            assert_eq!(filter.name().parse::<TextureFilter>(), Ok(filter));
            assert_eq!(filter.to_string().parse::<TextureFilter>(), Ok(filter));
        }
        let err = "anisotropic".parse::<TextureFilter>().unwrap_err();
        assert!(err.to_string().contains("aniso8x"), "{err}");
    }

    #[test]
    fn filter_classes_follow_gcn_model() {
        use FilterClass::*;
        assert_eq!(TexelFormat::Rgba8.filter_class(), Bits32);
        assert_eq!(TexelFormat::R8.filter_class(), Bits32);
        assert_eq!(TexelFormat::Rgba16f.filter_class(), Bits64);
        assert_eq!(TexelFormat::Rg32f.filter_class(), Bits64);
        assert_eq!(TexelFormat::Rgb32f.filter_class(), Bits128);
        assert_eq!(TexelFormat::Rgba32f.filter_class(), Bits128);
        // "Compressed formats count as 32-bit texels except BC6 (64-bit)."
        for bc in [
            TexelFormat::Bc1,
            TexelFormat::Bc2,
            TexelFormat::Bc3,
            TexelFormat::Bc4,
            TexelFormat::Bc5,
            TexelFormat::Bc7,
        ] {
            assert_eq!(bc.filter_class(), Bits32, "{bc}");
        }
        assert_eq!(TexelFormat::Bc6.filter_class(), Bits64);
        assert_eq!(TexelFormat::Bc1.fetch_bytes(), 8);
        assert_eq!(TexelFormat::Bc7.fetch_bytes(), 16);
        assert_eq!(TexelFormat::Rgba32f.fetch_bytes(), 16);
    }

    #[test]
    fn sample_clocks_follow_the_table_and_factors() {
        let r = VmemRates::GCN;
        use TextureFilter::*;
        // Seed 001 table rows 3..6.
        assert_eq!(TexelFormat::Rgba32f.sample_clocks(Point, &r), 16);
        assert_eq!(TexelFormat::Rgba8.sample_clocks(Bilinear, &r), 16);
        assert_eq!(TexelFormat::Rgba16f.sample_clocks(Bilinear, &r), 32);
        assert_eq!(TexelFormat::Rgba32f.sample_clocks(Bilinear, &r), 64);
        // gcn-model.md: default rgba8 + trilinear = 32 clocks; aniso factors.
        assert_eq!(TexelFormat::Rgba8.sample_clocks(Trilinear, &r), 32);
        assert_eq!(Aniso2x.sample_clocks(TexelFormat::Rgba8, &r), 32);
        assert_eq!(Aniso4x.sample_clocks(TexelFormat::Rgba8, &r), 64);
        assert_eq!(Aniso8x.sample_clocks(TexelFormat::Rgba32f, &r), 512);
        assert_eq!(TexelFormat::Bc6.sample_clocks(Bilinear, &r), 32);
    }
}
