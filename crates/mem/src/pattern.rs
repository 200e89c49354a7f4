//! Lane address patterns: the `pattern = "..."` of a `[[memory]]` hint and `shadersim coalesce
//! --pattern`, turned into the 64 byte addresses of one wave.
//!
//! Grammar (numbers are decimal or `0x` hex; `BYTES`, `SEED`, `RANGE`, `PITCH` and list entries
//! may use either, `W` and `H` are decimal):
//!
//! | pattern | lane `i` accesses (`e` = element size in bytes, `b` = base) |
//! |---|---|
//! | `uniform` | `b` |
//! | `linear` | `b + i*e` |
//! | `stride:BYTES` | `b + i*BYTES` |
//! | `quad-uniform` | `b + (i/4)*e`: each aligned group of 4 lanes on one element |
//! | `quad-permuted` | each aligned group of 4 lanes on 4 consecutive elements, shuffled: lane `4q+j` on element `4q + P_q(j)` with `P_q` the permutation number `1 + (5q mod 23)` of the 24 orderings of (0,1,2,3) in lexicographic order (never the identity) |
//! | `tile2d:WxH` or `tile2d:WxH:PITCH` | the texel `(x, y)` of a row-major 2D array with rows `PITCH` bytes apart (default `W*e`): `b + x*e + y*PITCH`, where `(x, y)` is the lane's position in a `W` x `H` tile (see [`LaneOrder::tile_xy`]) |
//! | `random:SEED:RANGE` | `b + k*e` with `k` uniform in `0 .. RANGE/e`, drawn by SplitMix64 from `SEED` (deterministic) |
//! | `list:A0,A1,...,A63` | `b + Ai`: 64 entries, or 32 for a wave32 program (lane `i` of a 32-entry list beyond 31 repeats lane `i - 32`; a wave32 never runs those lanes) |
//!
//! Lane order ([`LaneOrder`]) matters only for `tile2d`: compute shaders number lanes linearly,
//! seed 001's `invocationIndex = x + (width*y) + (width*height*z)`; pixel shaders put each 2x2
//! pixel quad in 4 consecutive lanes.

use std::fmt;
use std::str::FromStr;

/// Lanes in a GCN wave (the most lanes a pattern gives addresses for).
pub const WAVE64: usize = 64;

/// Lanes of a wave32: the other length a `list:` may have.
const WAVE32: usize = 32;

/// How a shader stage assigns lanes to positions of a 2D tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LaneOrder {
    /// Compute (and vertex) shaders: lane `i` is invocation `i`, and seed 001's
    /// `invocationIndex = x + width*y + width*height*z`, so lane `i` sits at
    /// `x = i mod width`, `y = (i / width) mod height`, `z = i / (width*height)`.
    #[default]
    Compute,
    /// Pixel shaders: lanes come in 2x2 pixel quads (seed 001: "in fragment or pixel shaders each
    /// 2x2 fragment quad is a group"): lanes `4q .. 4q+3` are the pixels (0,0), (1,0), (0,1),
    /// (1,1) of quad `q`, and the quads fill the tile row by row.
    PixelQuads,
}

impl LaneOrder {
    /// The position `(x, y)` of `lane` in a `width` x `height` tile, with the tiles of further
    /// lanes (when `width*height < 64`) stacked below: `y` counts rows across stacked tiles, so
    /// a compute lane's `z` slice adds `z*height` rows. Pixel quads need an even width and
    /// height. Errors say which dimension is wrong.
    pub fn tile_xy(self, lane: u32, width: u32, height: u32) -> Result<(u64, u64), String> {
        if width == 0 || height == 0 {
            return Err(format!("a {width}x{height} tile has no pixels"));
        }
        let (lane, width, height) = (u64::from(lane), u64::from(width), u64::from(height));
        match self {
            // x + width*y + width*height*z: rows of `width` lanes, slices of `height` rows
            // stacked below, which is the same as rows of `width` lanes all the way down.
            LaneOrder::Compute => Ok((lane % width, lane / width)),
            LaneOrder::PixelQuads => {
                if width % 2 != 0 || height % 2 != 0 {
                    return Err(format!(
                        "a {width}x{height} tile cannot be covered by 2x2 pixel quads: width and \
                         height must be even"
                    ));
                }
                let quad = lane / 4;
                let in_quad = lane % 4;
                let quads_per_row = width / 2;
                let quads_per_tile = quads_per_row * (height / 2);
                let tile = quad / quads_per_tile;
                let quad_in_tile = quad % quads_per_tile;
                let x = 2 * (quad_in_tile % quads_per_row) + (in_quad & 1);
                let y = tile * height + 2 * (quad_in_tile / quads_per_row) + (in_quad >> 1);
                Ok((x, y))
            }
        }
    }
}

impl fmt::Display for LaneOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LaneOrder::Compute => "compute",
            LaneOrder::PixelQuads => "pixel",
        })
    }
}

impl FromStr for LaneOrder {
    type Err = String;

    /// `compute` or `pixel` (also `pixel-quads`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "compute" => Ok(LaneOrder::Compute),
            "pixel" | "pixel-quads" => Ok(LaneOrder::PixelQuads),
            other => Err(format!(
                "unknown lane order `{other}`; expected compute or pixel"
            )),
        }
    }
}

/// Where the 64 lanes of a wave point, relative to a base address (grammar in the module
/// documentation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LanePattern {
    /// `uniform`: every lane on the base address.
    Uniform,
    /// `linear`: lane `i` on element `i`.
    Linear,
    /// `stride:BYTES`: lane `i` at `i*BYTES` bytes.
    Stride {
        /// Bytes between consecutive lanes.
        bytes: u64,
    },
    /// `quad-uniform`: each aligned group of 4 lanes on one element, groups on consecutive ones.
    QuadUniform,
    /// `quad-permuted`: each aligned group of 4 lanes on 4 consecutive elements in a shuffled
    /// order.
    QuadPermuted,
    /// `tile2d:WxH[:PITCH]`: a 2D tile of a row-major array.
    Tile2d {
        /// Tile width in elements.
        width: u32,
        /// Tile height in rows.
        height: u32,
        /// Bytes between rows of the array; `None` for `width` elements (a tile as wide as the
        /// array).
        pitch: Option<u64>,
    },
    /// `random:SEED:RANGE`: element-aligned addresses uniform in `RANGE` bytes.
    Random {
        /// Seed of the generator.
        seed: u64,
        /// Bytes the addresses spread over.
        range: u64,
    },
    /// `list:...`: an explicit offset for every lane: 64 entries, or 32 (a
    /// wave32's lanes; whether the program runs wave32 is the caller's check).
    List(Box<[u64]>),
}

impl Default for LanePattern {
    /// `linear`: gcn-model.md makes a 16-lane coalescing case "the default pattern for such a
    /// load", and `linear` is case 3 for every 32-bit-or-smaller single-channel load (and the
    /// natural layout for every other access), so an instruction without a hint gets it.
    fn default() -> Self {
        LanePattern::Linear
    }
}

/// Names of the patterns, for error messages.
const PATTERN_NAMES: &str = "uniform, linear, stride:BYTES, quad-uniform, quad-permuted, \
                             tile2d:WxH[:PITCH], random:SEED:RANGE, list:A0,...,A63";

/// A pattern that does not parse, or cannot produce addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// The pattern text.
    pub pattern: String,
    /// 1-based column (in characters) of the offending part of `pattern`, when the error is
    /// about a place in it.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(
                f,
                "bad lane pattern `{}` at column {column}: {}",
                self.pattern, self.message
            ),
            None => write!(f, "bad lane pattern `{}`: {}", self.pattern, self.message),
        }
    }
}

impl std::error::Error for PatternError {}

/// Parses a non-negative integer: decimal, `0x` hexadecimal or `0b` binary (ASCII case of the
/// prefix and digits ignored). Used for pattern numbers, EXEC masks and base addresses.
pub fn parse_number(text: &str) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix, what) = if let Some(hex) = lower.strip_prefix("0x") {
        (hex, 16, "hexadecimal")
    } else if let Some(binary) = lower.strip_prefix("0b") {
        (binary, 2, "binary")
    } else {
        (lower.as_str(), 10, "decimal")
    };
    if digits.is_empty() {
        return Err(format!("`{text}` is not a number"));
    }
    if let Some(bad) = digits.chars().find(|c| !c.is_digit(radix)) {
        return Err(format!(
            "`{text}` is not a number: `{bad}` is not a {what} digit"
        ));
    }
    u64::from_str_radix(digits, radix).map_err(|_| format!("`{text}` does not fit in 64 bits"))
}

/// Parsing state: the whole input, for columns.
struct Parser<'a> {
    input: &'a str,
}

impl<'a> Parser<'a> {
    fn error(&self, at: usize, message: impl Into<String>) -> PatternError {
        PatternError {
            pattern: self.input.to_string(),
            column: Some(self.input[..at.min(self.input.len())].chars().count() + 1),
            message: message.into(),
        }
    }

    /// A number at byte offset `at` of the input.
    fn number(&self, text: &str, at: usize, what: &str) -> Result<u64, PatternError> {
        let trimmed = text.trim_start();
        let at = at + (text.len() - trimmed.len());
        let trimmed = trimmed.trim_end();
        if trimmed.is_empty() {
            return Err(self.error(at, format!("missing {what}")));
        }
        parse_number(trimmed).map_err(|e| self.error(at, format!("{what}: {e}")))
    }

    /// A decimal dimension (at least 1) at byte offset `at`.
    fn dimension(&self, text: &str, at: usize, what: &str) -> Result<u32, PatternError> {
        if text.is_empty() {
            return Err(self.error(at, format!("missing {what}")));
        }
        if let Some(bad) = text.chars().find(|c| !c.is_ascii_digit()) {
            return Err(self.error(
                at,
                format!("{what} `{text}` is not a decimal number (`{bad}`)"),
            ));
        }
        match text.parse::<u32>() {
            Ok(0) => Err(self.error(at, format!("{what} must be at least 1"))),
            Ok(value) => Ok(value),
            Err(_) => Err(self.error(at, format!("{what} `{text}` is too large"))),
        }
    }

    fn parse(&self) -> Result<LanePattern, PatternError> {
        let start = self.input.len() - self.input.trim_start().len();
        let text = self.input.trim();
        if text.is_empty() {
            return Err(self.error(
                start,
                format!("the pattern is empty; expected one of {PATTERN_NAMES}"),
            ));
        }
        let (name, args) = match text.find(':') {
            Some(colon) => (
                &text[..colon],
                Some((&text[colon + 1..], start + colon + 1)),
            ),
            None => (text, None),
        };
        let no_args = |pattern: LanePattern| match args {
            Some((_, at)) => Err(self.error(
                at - 1,
                format!("`{name}` takes no argument (nothing after `{name}`)"),
            )),
            None => Ok(pattern),
        };
        let needs_args = |shape: &str| match args {
            Some(args) => Ok(args),
            None => Err(self.error(
                start + name.len(),
                format!("`{name}` needs arguments: `{shape}`"),
            )),
        };
        match name {
            "uniform" => no_args(LanePattern::Uniform),
            "linear" => no_args(LanePattern::Linear),
            "quad-uniform" => no_args(LanePattern::QuadUniform),
            "quad-permuted" => no_args(LanePattern::QuadPermuted),
            "stride" => {
                let (arg, at) = needs_args("stride:BYTES")?;
                let bytes = self.number(arg, at, "stride in bytes")?;
                Ok(LanePattern::Stride { bytes })
            }
            "tile2d" => {
                let (arg, at) = needs_args("tile2d:WIDTHxHEIGHT[:PITCH_BYTES]")?;
                let (dims, pitch) = match arg.find(':') {
                    Some(colon) => (&arg[..colon], Some((&arg[colon + 1..], at + colon + 1))),
                    None => (arg, None),
                };
                let Some(x) = dims.find(['x', 'X']) else {
                    return Err(self.error(
                        at,
                        format!("`{dims}` is not WIDTHxHEIGHT (for example 8x8)"),
                    ));
                };
                let width = self.dimension(&dims[..x], at, "tile width")?;
                let height = self.dimension(&dims[x + 1..], at + x + 1, "tile height")?;
                let pitch = match pitch {
                    Some((text, at)) => Some(self.number(text, at, "row pitch in bytes")?),
                    None => None,
                };
                Ok(LanePattern::Tile2d {
                    width,
                    height,
                    pitch,
                })
            }
            "random" => {
                let (arg, at) = needs_args("random:SEED:RANGE_BYTES")?;
                let Some(colon) = arg.find(':') else {
                    return Err(self.error(
                        at + arg.len(),
                        "missing `:RANGE_BYTES` after the seed (random:SEED:RANGE_BYTES)",
                    ));
                };
                let seed = self.number(&arg[..colon], at, "random seed")?;
                let range = self.number(&arg[colon + 1..], at + colon + 1, "random range")?;
                if range == 0 {
                    return Err(self.error(at + colon + 1, "random range must be at least 1 byte"));
                }
                Ok(LanePattern::Random { seed, range })
            }
            "list" => {
                let (arg, at) = needs_args("list:A0,A1,...,A63")?;
                let mut offsets = vec![0u64; WAVE64];
                let mut count = 0;
                let mut item_at = at;
                for item in arg.split(',') {
                    if count < WAVE64 {
                        offsets[count] =
                            self.number(item, item_at, &format!("address of lane {count}"))?;
                    }
                    count += 1;
                    item_at += item.len() + 1;
                }
                if count != WAVE64 && count != WAVE32 {
                    return Err(self.error(
                        at,
                        format!(
                            "the list has {count} addresses; a wave64 needs exactly 64, a wave32 \
                             exactly 32"
                        ),
                    ));
                }
                offsets.truncate(count);
                Ok(LanePattern::List(offsets.into_boxed_slice()))
            }
            _ => Err(self.error(
                start,
                format!("unknown pattern `{name}`; expected one of {PATTERN_NAMES}"),
            )),
        }
    }
}

impl FromStr for LanePattern {
    type Err = PatternError;

    /// Parses the grammar of the module documentation; blanks around the pattern and around
    /// numbers are ignored. Errors give the column of the offending part.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Parser { input: s }.parse()
    }
}

impl fmt::Display for LanePattern {
    /// The canonical spelling, which parses back to the same pattern.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LanePattern::Uniform => f.write_str("uniform"),
            LanePattern::Linear => f.write_str("linear"),
            LanePattern::Stride { bytes } => write!(f, "stride:{bytes}"),
            LanePattern::QuadUniform => f.write_str("quad-uniform"),
            LanePattern::QuadPermuted => f.write_str("quad-permuted"),
            LanePattern::Tile2d {
                width,
                height,
                pitch,
            } => {
                write!(f, "tile2d:{width}x{height}")?;
                match pitch {
                    Some(pitch) => write!(f, ":{pitch}"),
                    None => Ok(()),
                }
            }
            LanePattern::Random { seed, range } => write!(f, "random:{seed}:{range}"),
            LanePattern::List(offsets) => {
                f.write_str("list:")?;
                for (lane, offset) in offsets.iter().enumerate() {
                    if lane > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{offset}")?;
                }
                Ok(())
            }
        }
    }
}

/// The permutation of (0,1,2,3) used by `quad-permuted` for quad `quad`: number
/// `1 + (5*quad mod 23)` in lexicographic order, decoded from its factorial-base digits.
pub fn quad_permutation(quad: u32) -> [u64; 4] {
    let mut rank = 1 + (5 * u64::from(quad)) % 23;
    let mut pool: Vec<u64> = vec![0, 1, 2, 3];
    let mut permutation = [0; 4];
    for (slot, factorial) in [6u64, 2, 1, 1].into_iter().enumerate() {
        let index = (rank / factorial) as usize;
        rank %= factorial;
        permutation[slot] = pool.remove(index.min(pool.len() - 1));
    }
    permutation
}

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, well-known generator, here so that `random`
/// patterns are the same on every machine and version.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0 .. n` (`n` at least 1), by the multiply-high method.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

impl LanePattern {
    /// The byte address of every lane: `base` is the address of element 0, `element_bytes` the
    /// bytes one lane accesses (see [`crate::MemAccess::bytes_per_lane`]), `order` how the stage
    /// numbers its lanes (used by `tile2d` only). Errors (never panics) when an address would
    /// not fit in 64 bits, the element size is 0, a `random` range holds no whole element, or
    /// a `tile2d` tile cannot be cut into pixel quads.
    pub fn addresses(
        &self,
        base: u64,
        element_bytes: u32,
        order: LaneOrder,
    ) -> Result<[u64; WAVE64], PatternError> {
        let error = |message: String| PatternError {
            pattern: self.to_string(),
            column: None,
            message,
        };
        if element_bytes == 0 {
            return Err(error("the element size must be at least 1 byte".into()));
        }
        let e = u128::from(element_bytes);
        let mut random = match self {
            LanePattern::Random { seed, range } => {
                let elements = range / u64::from(element_bytes);
                if elements == 0 {
                    return Err(error(format!(
                        "a range of {range} bytes holds no whole element of {element_bytes} bytes"
                    )));
                }
                Some((SplitMix64(*seed), elements))
            }
            _ => None,
        };
        let mut addresses = [0u64; WAVE64];
        for (lane, address) in addresses.iter_mut().enumerate() {
            let i = lane as u128;
            let offset: u128 = match self {
                LanePattern::Uniform => 0,
                LanePattern::Linear => i * e,
                LanePattern::Stride { bytes } => i * u128::from(*bytes),
                LanePattern::QuadUniform => (i / 4) * e,
                LanePattern::QuadPermuted => {
                    let quad = lane as u32 / 4;
                    let element =
                        u128::from(quad) * 4 + u128::from(quad_permutation(quad)[lane % 4]);
                    element * e
                }
                LanePattern::Tile2d {
                    width,
                    height,
                    pitch,
                } => {
                    let (x, y) = order.tile_xy(lane as u32, *width, *height).map_err(error)?;
                    let pitch = pitch.map_or(u128::from(*width) * e, u128::from);
                    u128::from(x) * e + u128::from(y) * pitch
                }
                LanePattern::Random { .. } => match random.as_mut() {
                    Some((generator, elements)) => u128::from(generator.below(*elements)) * e,
                    None => 0,
                },
                LanePattern::List(offsets) => u128::from(offsets[lane % offsets.len()]),
            };
            *address = u64::try_from(u128::from(base) + offset).map_err(|_| {
                error(format!(
                    "the address of lane {lane} (base {base:#x} + {offset:#x}) does not fit in \
                     64 bits"
                ))
            })?;
        }
        Ok(addresses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> LanePattern {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn addresses(text: &str, element: u32, order: LaneOrder) -> [u64; WAVE64] {
        parse(text)
            .addresses(0, element, order)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(parse("uniform"), LanePattern::Uniform);
        assert_eq!(parse(" linear "), LanePattern::Linear);
        assert_eq!(parse("stride:8"), LanePattern::Stride { bytes: 8 });
        assert_eq!(parse("stride:0x40"), LanePattern::Stride { bytes: 64 });
        assert_eq!(parse("quad-uniform"), LanePattern::QuadUniform);
        assert_eq!(parse("quad-permuted"), LanePattern::QuadPermuted);
        assert_eq!(
            parse("tile2d:8x8"),
            LanePattern::Tile2d {
                width: 8,
                height: 8,
                pitch: None
            }
        );
        assert_eq!(
            parse("tile2d:16X4:0x1000"),
            LanePattern::Tile2d {
                width: 16,
                height: 4,
                pitch: Some(4096)
            }
        );
        assert_eq!(
            parse("random:7:65536"),
            LanePattern::Random {
                seed: 7,
                range: 65536
            }
        );
        let list = (0..64)
            .map(|i| format!("{:#x}", i * 4))
            .collect::<Vec<_>>()
            .join(", ");
        let LanePattern::List(offsets) = parse(&format!("list:{list}")) else {
            panic!("not a list");
        };
        assert_eq!(offsets[63], 252);
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "uniform",
            "linear",
            "stride:12",
            "quad-uniform",
            "quad-permuted",
            "tile2d:8x8",
            "tile2d:4x2:256",
            "random:1:4096",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
        let list = LanePattern::List((0..64).map(|i| i * 3).collect());
        assert_eq!(parse(&list.to_string()), list);
        let list32 = LanePattern::List((0..32).map(|i| i * 3).collect());
        assert_eq!(parse(&list32.to_string()), list32);
    }

    #[test]
    fn errors_name_the_problem_and_its_column() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 1, "empty"),
            ("lineer", 1, "unknown pattern `lineer`"),
            ("linear:4", 7, "takes no argument"),
            ("stride", 7, "needs arguments"),
            ("stride:", 8, "missing stride"),
            ("stride:4k", 8, "`k` is not a decimal digit"),
            ("stride:0xg", 8, "`g` is not a hexadecimal digit"),
            ("stride:99999999999999999999", 8, "does not fit in 64 bits"),
            ("tile2d:8", 8, "not WIDTHxHEIGHT"),
            ("tile2d:0x8", 8, "tile width must be at least 1"),
            ("tile2d:8xq", 10, "tile height `q` is not a decimal number"),
            ("tile2d:8x8:", 12, "missing row pitch"),
            ("random:5", 9, "missing `:RANGE_BYTES`"),
            ("random:x:5", 8, "random seed"),
            ("random:5:0", 10, "at least 1 byte"),
            ("list:1,2,3", 6, "has 3 addresses"),
            ("list:1,,3", 8, "missing address of lane 1"),
            ("  stride:z", 10, "`z`"),
        ];
        for &(text, column, expected) in cases {
            let err = text.parse::<LanePattern>().unwrap_err();
            assert_eq!(err.column, Some(column), "{text}: {err}");
            assert!(err.to_string().contains(expected), "{text}: {err}");
        }
    }

    #[test]
    fn simple_patterns_follow_their_definitions() {
        let linear = addresses("linear", 4, LaneOrder::Compute);
        assert_eq!(linear[..4], [0, 4, 8, 12]);
        assert_eq!(linear[63], 252);
        assert!(addresses("uniform", 16, LaneOrder::Compute)
            .iter()
            .all(|&a| a == 0));
        assert_eq!(addresses("stride:64", 4, LaneOrder::Compute)[5], 320);
        let quad = addresses("quad-uniform", 4, LaneOrder::Compute);
        assert_eq!(quad[..8], [0, 0, 0, 0, 4, 4, 4, 4]);
        let with_base = parse("linear")
            .addresses(0x1000, 2, LaneOrder::Compute)
            .unwrap();
        assert_eq!(with_base[3], 0x1006);
    }

    #[test]
    fn quad_permuted_shuffles_each_quad_over_its_own_block() {
        let a = addresses("quad-permuted", 4, LaneOrder::Compute);
        for quad in 0..16 {
            let mut elements: Vec<u64> = a[quad * 4..quad * 4 + 4].iter().map(|x| x / 4).collect();
            assert_ne!(
                elements,
                (quad as u64 * 4..quad as u64 * 4 + 4).collect::<Vec<_>>(),
                "quad {quad} is not shuffled"
            );
            elements.sort_unstable();
            assert_eq!(
                elements,
                (quad as u64 * 4..quad as u64 * 4 + 4).collect::<Vec<_>>()
            );
        }
        for quad in 0..64 {
            let mut p = quad_permutation(quad);
            p.sort_unstable();
            assert_eq!(p, [0, 1, 2, 3]);
        }
    }

    #[test]
    fn compute_lanes_are_linear_invocation_indices() {
        // Seed 001: invocationIndex = x + (width*y) + (width*height*z).
        for lane in 0..64u32 {
            let (x, y) = LaneOrder::Compute.tile_xy(lane, 4, 4).unwrap();
            let z = y / 4;
            assert_eq!(x + 4 * (y % 4) + 16 * z, u64::from(lane));
        }
        // With the default pitch (the array as wide as the tile) compute order is linear.
        assert_eq!(
            addresses("tile2d:8x8", 4, LaneOrder::Compute),
            addresses("linear", 4, LaneOrder::Compute)
        );
        let pitched = addresses("tile2d:8x8:1024", 4, LaneOrder::Compute);
        assert_eq!(pitched[..9], [0, 4, 8, 12, 16, 20, 24, 28, 1024]);
    }

    #[test]
    fn pixel_lanes_come_in_2x2_quads() {
        let order = LaneOrder::PixelQuads;
        assert_eq!(order.tile_xy(0, 8, 8), Ok((0, 0)));
        assert_eq!(order.tile_xy(1, 8, 8), Ok((1, 0)));
        assert_eq!(order.tile_xy(2, 8, 8), Ok((0, 1)));
        assert_eq!(order.tile_xy(3, 8, 8), Ok((1, 1)));
        assert_eq!(order.tile_xy(4, 8, 8), Ok((2, 0)));
        assert_eq!(order.tile_xy(16, 8, 8), Ok((0, 2)));
        assert_eq!(order.tile_xy(63, 8, 8), Ok((7, 7)));
        // A 4x4 tile holds 16 lanes; the next tiles stack below.
        assert_eq!(order.tile_xy(16, 4, 4), Ok((0, 4)));
        let a = addresses("tile2d:8x8", 4, order);
        assert_eq!(a[..4], [0, 4, 32, 36]);
        // Every pixel of the tile exactly once.
        let mut sorted = a.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, addresses("linear", 4, LaneOrder::Compute).to_vec());
        let err = parse("tile2d:3x8").addresses(0, 4, order).unwrap_err();
        assert!(err.to_string().contains("must be even"), "{err}");
        assert!(parse("tile2d:3x8")
            .addresses(0, 4, LaneOrder::Compute)
            .is_ok());
    }

    #[test]
    fn random_is_deterministic_element_aligned_and_in_range() {
        let a = addresses("random:42:4096", 4, LaneOrder::Compute);
        assert_eq!(a, addresses("random:42:4096", 4, LaneOrder::Compute));
        assert_ne!(a, addresses("random:43:4096", 4, LaneOrder::Compute));
        assert!(a.iter().all(|&x| x % 4 == 0 && x < 4096));
        let mut distinct = a.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() > 50, "{}", distinct.len());
        let err = parse("random:1:2")
            .addresses(0, 4, LaneOrder::Compute)
            .unwrap_err();
        assert!(err.to_string().contains("no whole element"), "{err}");
    }

    #[test]
    fn overflow_and_zero_element_are_errors() {
        let err = parse("stride:0xffffffffffffffff")
            .addresses(0, 4, LaneOrder::Compute)
            .unwrap_err();
        assert!(err.to_string().contains("lane 2"), "{err}");
        let err = parse("linear")
            .addresses(u64::MAX, 4, LaneOrder::Compute)
            .unwrap_err();
        assert!(err.to_string().contains("lane 1"), "{err}");
        assert!(parse("linear").addresses(0, 0, LaneOrder::Compute).is_err());
    }

    #[test]
    fn default_is_linear() {
        assert_eq!(LanePattern::default(), LanePattern::Linear);
    }

    #[test]
    fn numbers_and_orders() {
        assert_eq!(parse_number("0xFF"), Ok(255));
        assert_eq!(parse_number("0b101"), Ok(5));
        assert_eq!(parse_number("18446744073709551615"), Ok(u64::MAX));
        assert!(parse_number("-1").is_err());
        assert!(parse_number("0x").is_err());
        assert_eq!("pixel".parse(), Ok(LaneOrder::PixelQuads));
        assert_eq!("compute".parse(), Ok(LaneOrder::Compute));
        assert!("vertex".parse::<LaneOrder>().is_err());
        assert_eq!(LaneOrder::PixelQuads.to_string(), "pixel");
    }
}
