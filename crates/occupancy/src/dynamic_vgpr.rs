//! RDNA 4 dynamic VGPR mode as arithmetic (`rdna-model.md` section 6, seed 000).
//!
//! In dynamic mode the driver picks the wave slots per SIMD; each enabled
//! slot owns one reserved block whether or not a wave runs in it, a wave
//! starts with that block and grows with `s_alloc_vgpr` up to 8 blocks.
//! Deadlock avoidance keeps 7 blocks aside so one wave can always reach the
//! maximum. The simulator's rule (section 6):
//!
//! ```text
//! pool    = 1536 - slots x block - (avoid ? 7 x block : 0)
//! reserve = avoid ? 7 x block : 0
//! ```
//!
//! A wave at N VGPRs holds ceil(N / block) blocks, one of them its own
//! reserved block, so it draws ceil(N / block) - 1 blocks from the pool.

/// Blocks one wave may hold at most (seed 000: "up to eight blocks"); the
/// default when a model does not say (`dynamic_vgpr_max_blocks`).
pub const MAX_BLOCKS_PER_WAVE: u32 = 8;
/// Blocks deadlock avoidance keeps aside: one wave's way from its reserved
/// block to the maximum, 8 - 1 (seed 000; LLVM's `.dynamic_vgpr_saved_count`);
/// the default when a model does not say (`dynamic_vgpr_reserve_blocks`).
pub const AVOIDANCE_BLOCKS: u32 = MAX_BLOCKS_PER_WAVE - 1;
/// Slots per SIMD LLVM's static estimate caps at (RDNA 3/4 wave slots, rdna-model.md 5.1).
pub const LLVM_ESTIMATE_SLOTS: u32 = 16;

/// A dynamic-mode setup (what `SQ_DYN_VGPR` holds, plus the file size).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DynamicVgprConfig {
    /// VGPRs (wave32 registers) per SIMD: 1536 on 192 KB parts.
    pub total_vgprs: u32,
    /// Wave slots the driver enables per SIMD.
    pub slots: u32,
    /// Block size: 16 or 32 VGPRs.
    pub block: u32,
    /// Deadlock-avoidance mode.
    pub deadlock_avoidance: bool,
    /// Blocks one wave may hold at most.
    pub max_blocks: u32,
    /// Blocks deadlock avoidance keeps aside.
    pub reserve_blocks: u32,
}

/// Problems with a dynamic-mode question.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DynamicVgprError {
    /// The block size is not 16 or 32.
    #[error("dynamic VGPR block size must be 16 or 32, got {0}")]
    Block(u32),
    /// The reserved blocks alone do not fit the file.
    #[error(
        "{slots} slots x {block} VGPRs plus the deadlock reserve exceed the {total} VGPR file"
    )]
    NoPool {
        /// Slots enabled.
        slots: u32,
        /// Block size.
        block: u32,
        /// File size.
        total: u32,
    },
    /// More VGPRs than 8 blocks hold.
    #[error("{vgprs} VGPRs exceed the dynamic-mode maximum of {max} (blocks of {block})")]
    TooMany {
        /// VGPRs asked for.
        vgprs: u32,
        /// Most blocks x block.
        max: u32,
        /// Block size.
        block: u32,
    },
}

/// How many waves can reach a VGPR count at the same time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavesReaching {
    /// Waves that reach it drawing on the pool alone.
    pub from_pool: u32,
    /// Waves that reach it when one more may use the deadlock reserve.
    pub with_reserve: u32,
    /// Blocks each such wave draws beyond its reserved one.
    pub extra_blocks: u32,
}

impl DynamicVgprConfig {
    /// RDNA 4 192 KB parts: 1536 VGPRs per SIMD (rdna-model.md 5.2), with
    /// seed 000's 8-block maximum and 7-block reserve.
    pub fn rdna4(slots: u32, block: u32, deadlock_avoidance: bool) -> Self {
        DynamicVgprConfig {
            total_vgprs: 1536,
            slots,
            block,
            deadlock_avoidance,
            max_blocks: MAX_BLOCKS_PER_WAVE,
            reserve_blocks: AVOIDANCE_BLOCKS,
        }
    }

    fn check(&self) -> Result<(), DynamicVgprError> {
        if self.block != 16 && self.block != 32 {
            return Err(DynamicVgprError::Block(self.block));
        }
        if self.max_blocks == 0 {
            return Err(DynamicVgprError::TooMany {
                vgprs: 1,
                max: 0,
                block: self.block,
            });
        }
        let taken = self
            .slots
            .saturating_mul(self.block)
            .saturating_add(self.reserve());
        if taken > self.total_vgprs {
            return Err(DynamicVgprError::NoPool {
                slots: self.slots,
                block: self.block,
                total: self.total_vgprs,
            });
        }
        Ok(())
    }

    /// VGPRs deadlock avoidance keeps aside (7 blocks, or 0 without it).
    pub fn reserve(&self) -> u32 {
        if self.deadlock_avoidance {
            self.reserve_blocks.saturating_mul(self.block)
        } else {
            0
        }
    }

    /// Most VGPRs one wave can hold (8 blocks).
    pub fn max_vgprs(&self) -> u32 {
        self.max_blocks.saturating_mul(self.block)
    }

    /// The pool waves grow from: the file minus every slot's reserved
    /// block minus the deadlock reserve.
    pub fn pool(&self) -> Result<u32, DynamicVgprError> {
        self.check()?;
        Ok(self.total_vgprs - self.slots * self.block - self.reserve())
    }

    /// How many waves can hold `vgprs` at once.
    pub fn waves_reaching(&self, vgprs: u32) -> Result<WavesReaching, DynamicVgprError> {
        let pool = self.pool()?;
        if vgprs > self.max_vgprs() {
            return Err(DynamicVgprError::TooMany {
                vgprs,
                max: self.max_vgprs(),
                block: self.block,
            });
        }
        let extra_blocks = vgprs.max(1).div_ceil(self.block) - 1;
        if extra_blocks == 0 {
            return Ok(WavesReaching {
                from_pool: self.slots,
                with_reserve: self.slots,
                extra_blocks,
            });
        }
        let from_pool = (pool / (extra_blocks * self.block)).min(self.slots);
        // The reserve covers one wave's growth to the maximum, and only one
        // wave may hold it at a time (seed 000's reading).
        let with_reserve = if self.deadlock_avoidance {
            (from_pool + 1).min(self.slots)
        } else {
            from_pool
        };
        Ok(WavesReaching {
            from_pool,
            with_reserve,
            extra_blocks,
        })
    }

    /// LLVM's static occupancy estimate for a function of `vgprs` in this
    /// mode: min(16, 1536 / alignTo(vgprs, block)) (rdna-model.md 6, X22).
    pub fn llvm_estimate(&self, vgprs: u32) -> Result<u32, DynamicVgprError> {
        self.check()?;
        let aligned = vgprs.max(1).div_ceil(self.block) * self.block;
        Ok(LLVM_ESTIMATE_SLOTS.min(self.total_vgprs / aligned))
    }
}
