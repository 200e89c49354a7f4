//! shadersim-mem: the memory model of shadersim.
//!
//! So far: the GCN coalescing model of seed 001 (AMD's note on how a GCN compute unit groups the
//! 64 lane addresses of one memory instruction into L1 and L2 work).
//!
//! * [`access`]: what an instruction is ([`MemAccess`]), built from the instruction table's
//!   memory facts ([`MemAccess::from_info`], or [`MemAccess::from_mnemonic`], a table lookup).
//! * [`texel`]: texel formats and filters of image ops ([`TexelFormat`], [`TextureFilter`]).
//! * [`pattern`]: lane address patterns of the hints file and the CLI ([`LanePattern`]).
//! * [`coalesce`](mod@coalesce): the model ([`coalesce()`], [`CoalesceResult`]).
//! * [`footprint`]: the texels and lines of an image op without address hints: a screen-space
//!   or 2D tile per wave ([`ImageFootprint`], [`TileWalk`]).
//! * [`cache`]: the cache hierarchy: LRU set-associative levels walked per request ([`Hierarchy`]).
//! * [`lds`]: LDS bank conflicts of lane addresses ([`BankLayout`]).
//! * [`rates`]: every number of the model with its source ([`GCN_RATE_TABLE`], [`VmemRates`]).
//!
//! ```
//! use shadersim_mem::{coalesce_pattern, LaneOrder, LanePattern, MemAccess, VmemRates};
//!
//! let access = MemAccess::from_mnemonic("buffer_load_dword").unwrap();
//! let pattern: LanePattern = "linear".parse().unwrap();
//! let result = coalesce_pattern(&access, &pattern, 0, LaneOrder::Compute, u64::MAX, &VmemRates::GCN)
//!     .unwrap();
//! assert_eq!((result.l2_requests, result.group_size, result.clocks), (4, 16, 4));
//! ```

pub mod access;
pub mod cache;
pub mod coalesce;
pub mod footprint;
pub mod lds;
pub mod pattern;
pub mod rates;
pub mod texel;

pub use access::{
    AccessError, BufferAccess, BufferPath, ImageAccess, ImageOp, LaneData, MemAccess, MemOp,
    WaveClocks,
};
pub use cache::{CacheConfigError, Hierarchy, LevelConfig, LevelStats, LinesServed, Serve, Served};
pub use coalesce::{
    coalesce, coalesce_pattern, CoalesceResult, CoalesceRule, QUAD_GROUP_LANES, WAVE64,
    WIDE_GROUP_LANES,
};
pub use footprint::{ImageFootprint, TileWalk, WaveLanes};
pub use lds::{BankConflicts, BankLayout};
pub use pattern::{parse_number, LaneOrder, LanePattern, PatternError};
pub use rates::{Rate, RateEntry, RateError, VmemRates, GCN_RATE_TABLE};
pub use texel::{FilterClass, TexelFormat, TextureFilter, UnknownName};
