//! The VMEM rate table: every number of the coalescing model, in one place, with its source.
//!
//! Seed 001 (AMD's note on GCN coalescing) gives the peak clocks per wave64 at the texture
//! addressing / data path:
//!
//! | access                                                     | clocks per wave |
//! |------------------------------------------------------------|-----------------|
//! | 32-bit (or smaller) single-channel buffer loads (cases)     | 4               |
//! | multi-channel buffer loads                                  | 16              |
//! | 128-bit (or smaller) point sampled texels                   | 16              |
//! | 32-bit (or smaller) filtered texels                         | 16              |
//! | 64-bit filtered texels                                      | 32              |
//! | 128-bit filtered texels                                     | 64              |
//!
//! The GCN model (docs/models/gcn.md) adds the filter and gradient factors (trilinear and aniso 2x: x2,
//! aniso 4x: x4, aniso 8x: x8, gradients: a further x2), 16 clocks for buffer stores, gather4 and
//! image load/store, and says that every such number lives in a data table, never as a literal in
//! the engine, so that a user can override it (`--set`). [`GCN_RATE_TABLE`] is that table;
//! [`VmemRates`] holds one set of values and can be changed by key.

use std::fmt;

/// One number of the VMEM model. The discriminant is the row of [`GCN_RATE_TABLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rate {
    /// Clocks per wave of a 32-bit-or-smaller single-channel buffer load in one of seed 001's
    /// three 16-lane cases.
    BufferCoalescedLoadClocks,
    /// Clocks per wave of every other buffer load (multi-channel, wider than 32 bits per lane, or
    /// 32-bit-or-smaller in no 16-lane case), served in groups of 4 lanes like point-sampled texels.
    BufferLoadClocks,
    /// Clocks per wave of a buffer store or atomic.
    BufferStoreClocks,
    /// Clocks per wave of a point-sampled image sample, texels up to 128 bits.
    ImagePointClocks,
    /// Clocks per wave of a filtered sample of 32-bit (or smaller) texels, bilinear.
    ImageFiltered32BitClocks,
    /// Clocks per wave of a filtered sample of 64-bit texels, bilinear.
    ImageFiltered64BitClocks,
    /// Clocks per wave of a filtered sample of 128-bit texels, bilinear.
    ImageFiltered128BitClocks,
    /// Factor on the filtered clocks for bilinear filtering.
    BilinearFactor,
    /// Factor on the filtered clocks for trilinear filtering.
    TrilinearFactor,
    /// Factor on the filtered clocks for 2x anisotropic filtering.
    Aniso2xFactor,
    /// Factor on the filtered clocks for 4x anisotropic filtering.
    Aniso4xFactor,
    /// Factor on the filtered clocks for 8x anisotropic filtering.
    Aniso8xFactor,
    /// Factor on a sample's clocks when it carries user gradients (`_d`, `_cd`).
    GradientFactor,
    /// Clocks per wave of an `image_gather4*`.
    ImageGather4Clocks,
    /// Clocks per wave of an image load, store or atomic (no sampler).
    ImageLoadStoreClocks,
    /// Size and alignment in bytes of one L2 request (a cache line).
    L2LineBytes,
}

impl Rate {
    /// Every rate, in table order.
    pub const ALL: [Rate; 16] = [
        Rate::BufferCoalescedLoadClocks,
        Rate::BufferLoadClocks,
        Rate::BufferStoreClocks,
        Rate::ImagePointClocks,
        Rate::ImageFiltered32BitClocks,
        Rate::ImageFiltered64BitClocks,
        Rate::ImageFiltered128BitClocks,
        Rate::BilinearFactor,
        Rate::TrilinearFactor,
        Rate::Aniso2xFactor,
        Rate::Aniso4xFactor,
        Rate::Aniso8xFactor,
        Rate::GradientFactor,
        Rate::ImageGather4Clocks,
        Rate::ImageLoadStoreClocks,
        Rate::L2LineBytes,
    ];

    /// The row of this rate in [`GCN_RATE_TABLE`].
    pub fn entry(self) -> &'static RateEntry {
        &GCN_RATE_TABLE[self as usize]
    }

    /// The key that names this rate in data files and `--set KEY=VALUE`.
    pub fn key(self) -> &'static str {
        self.entry().key
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// One row of the rate table: the key, the GCN value, its unit and where the number comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateEntry {
    /// Which rate this row is.
    pub rate: Rate,
    /// Key in data files and `--set KEY=VALUE`.
    pub key: &'static str,
    /// The GCN value.
    pub value: u32,
    /// Unit of the value (`clocks/wave`, `factor`, `bytes`).
    pub unit: &'static str,
    /// Where the number comes from.
    pub source: &'static str,
}

/// The GCN VMEM rates, one row per [`Rate`] in the order of [`Rate::ALL`], each with its source.
pub const GCN_RATE_TABLE: [RateEntry; 16] = [
    RateEntry {
        rate: Rate::BufferCoalescedLoadClocks,
        key: "buffer_coalesced_load_clocks",
        value: 4,
        unit: "clocks/wave",
        source: "seed 001 table: 32-bit (or smaller) single-channel buffer loads / wave = 4 clocks (under specific cases)",
    },
    RateEntry {
        rate: Rate::BufferLoadClocks,
        key: "buffer_load_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "seed 001 table: multi-channel buffer loads / wave = 16 clocks; wider and uncoalesced loads are 'handled like point sampled image operations' (16 clocks)",
    },
    RateEntry {
        rate: Rate::BufferStoreClocks,
        key: "buffer_store_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "gcn-model.md: other buffer loads and stores: 16 clocks",
    },
    RateEntry {
        rate: Rate::ImagePointClocks,
        key: "image_point_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "seed 001 table: 128-bit (or smaller) point sampled texels / wave = 16 clocks",
    },
    RateEntry {
        rate: Rate::ImageFiltered32BitClocks,
        key: "image_filtered_32bit_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "seed 001 table: 32-bit (or smaller) filtered texels / wave = 16 clocks",
    },
    RateEntry {
        rate: Rate::ImageFiltered64BitClocks,
        key: "image_filtered_64bit_clocks",
        value: 32,
        unit: "clocks/wave",
        source: "seed 001 table: 64-bit filtered texels / wave = 32 clocks",
    },
    RateEntry {
        rate: Rate::ImageFiltered128BitClocks,
        key: "image_filtered_128bit_clocks",
        value: 64,
        unit: "clocks/wave",
        source: "seed 001 table: 128-bit filtered texels / wave = 64 clocks",
    },
    RateEntry {
        rate: Rate::BilinearFactor,
        key: "bilinear_factor",
        value: 1,
        unit: "factor",
        source: "seed 001: the filtered rates are for one bilinear (4-texel) footprint per fragment",
    },
    RateEntry {
        rate: Rate::TrilinearFactor,
        key: "trilinear_factor",
        value: 2,
        unit: "factor",
        source: "gcn-model.md: trilinear and aniso 2x double it",
    },
    RateEntry {
        rate: Rate::Aniso2xFactor,
        key: "aniso2x_factor",
        value: 2,
        unit: "factor",
        source: "gcn-model.md: trilinear and aniso 2x double it",
    },
    RateEntry {
        rate: Rate::Aniso4xFactor,
        key: "aniso4x_factor",
        value: 4,
        unit: "factor",
        source: "gcn-model.md: aniso 4x x4",
    },
    RateEntry {
        rate: Rate::Aniso8xFactor,
        key: "aniso8x_factor",
        value: 8,
        unit: "factor",
        source: "gcn-model.md: aniso 8x x8",
    },
    RateEntry {
        rate: Rate::GradientFactor,
        key: "gradient_factor",
        value: 2,
        unit: "factor",
        source: "gcn-model.md: gradient samples (_d, _cd) a further x2",
    },
    RateEntry {
        rate: Rate::ImageGather4Clocks,
        key: "image_gather4_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "gcn-model.md: gather4 and image load/store: 16 clocks",
    },
    RateEntry {
        rate: Rate::ImageLoadStoreClocks,
        key: "image_load_store_clocks",
        value: 16,
        unit: "clocks/wave",
        source: "gcn-model.md: gather4 and image load/store: 16 clocks (image atomics counted alike)",
    },
    RateEntry {
        rate: Rate::L2LineBytes,
        key: "l2_line_bytes",
        value: 64,
        unit: "bytes",
        source: "seed 001: the fewest 64-byte aligned 64-byte memory requests",
    },
];

/// Why a rate could not be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RateError {
    /// No rate has this key; the message lists the known keys.
    UnknownKey(String),
    /// The value is not allowed for this rate (a zero line size).
    BadValue {
        /// The rate being set.
        rate: Rate,
        /// The refused value.
        value: u32,
    },
}

impl fmt::Display for RateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RateError::UnknownKey(key) => {
                write!(f, "unknown VMEM rate `{key}`; known rates: ")?;
                for (i, entry) in GCN_RATE_TABLE.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(entry.key)?;
                }
                Ok(())
            }
            RateError::BadValue { rate, value } => {
                write!(
                    f,
                    "VMEM rate `{rate}` cannot be {value}: a line must hold at least one byte"
                )
            }
        }
    }
}

impl std::error::Error for RateError {}

/// One set of VMEM rates: the GCN values of [`GCN_RATE_TABLE`], possibly overridden.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VmemRates {
    values: [u32; 16],
}

impl VmemRates {
    /// The GCN rates of [`GCN_RATE_TABLE`].
    pub const GCN: VmemRates = VmemRates::from_table(&GCN_RATE_TABLE);

    const fn from_table(table: &[RateEntry; 16]) -> VmemRates {
        let mut values = [0; 16];
        let mut i = 0;
        while i < table.len() {
            values[i] = table[i].value;
            i += 1;
        }
        VmemRates { values }
    }

    /// The value of one rate.
    pub fn get(&self, rate: Rate) -> u32 {
        self.values[rate as usize]
    }

    /// Override one rate. A line size of 0 bytes is refused; every other value is allowed
    /// (0 clocks makes that kind of access free).
    pub fn set(&mut self, rate: Rate, value: u32) -> Result<(), RateError> {
        if rate == Rate::L2LineBytes && value == 0 {
            return Err(RateError::BadValue { rate, value });
        }
        self.values[rate as usize] = value;
        Ok(())
    }

    /// Override one rate named by its key (`buffer_load_clocks`, `l2_line_bytes`, ...).
    pub fn set_key(&mut self, key: &str, value: u32) -> Result<(), RateError> {
        let rate = Rate::ALL
            .iter()
            .copied()
            .find(|rate| rate.key() == key)
            .ok_or_else(|| RateError::UnknownKey(key.to_string()))?;
        self.set(rate, value)
    }

    /// Every rate with its current value, in table order.
    pub fn iter(&self) -> impl Iterator<Item = (Rate, u32)> + '_ {
        Rate::ALL.iter().map(|&rate| (rate, self.get(rate)))
    }
}

impl Default for VmemRates {
    fn default() -> Self {
        VmemRates::GCN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_rate_order_with_unique_keys() {
        for (i, entry) in GCN_RATE_TABLE.iter().enumerate() {
            assert_eq!(entry.rate as usize, i, "{}", entry.key);
            assert_eq!(Rate::ALL[i], entry.rate);
            assert!(!entry.source.is_empty());
        }
        let mut keys: Vec<_> = GCN_RATE_TABLE.iter().map(|e| e.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), GCN_RATE_TABLE.len());
    }

    #[test]
    fn seed_001_table_is_4_16_16_16_32_64() {
        let rates = VmemRates::GCN;
        let table = [
            Rate::BufferCoalescedLoadClocks,
            Rate::BufferLoadClocks,
            Rate::ImagePointClocks,
            Rate::ImageFiltered32BitClocks,
            Rate::ImageFiltered64BitClocks,
            Rate::ImageFiltered128BitClocks,
        ]
        .map(|rate| rates.get(rate));
        assert_eq!(table, [4, 16, 16, 16, 32, 64]);
        assert_eq!(rates.get(Rate::L2LineBytes), 64);
    }

    #[test]
    fn set_by_key_and_refusals() {
        let mut rates = VmemRates::default();
        rates.set_key("buffer_load_clocks", 20).unwrap();
        assert_eq!(rates.get(Rate::BufferLoadClocks), 20);
        let err = rates.set_key("nope", 1).unwrap_err();
        assert!(err.to_string().contains("l2_line_bytes"), "{err}");
        assert!(rates.set(Rate::L2LineBytes, 0).is_err());
        assert_eq!(rates.get(Rate::L2LineBytes), 64);
        assert_eq!(rates.iter().count(), 16);
    }
}
