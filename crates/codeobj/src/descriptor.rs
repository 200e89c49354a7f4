//! The 64-byte AMDHSA kernel descriptor (`NAME.kd`).
//!
//! Layout: LLVM AMDGPUUsage, "Kernel Descriptor" (code object v3 and later, unchanged through v6):
//! bytes 0..4 group_segment_fixed_size, 4..8 private_segment_fixed_size, 8..12 kernarg_size,
//! 16..24 kernel_code_entry_byte_offset, 44..48 compute_pgm_rsrc3, 48..52 compute_pgm_rsrc1,
//! 52..56 compute_pgm_rsrc2, 56..58 kernel_code_properties, 58..60 kernarg_preload.
//! Bit fields: AMDGPUUsage tables "compute_pgm_rsrc1/2/3 for GFX6-GFX12" and
//! "Kernel Code Properties".

/// Size of a kernel descriptor in bytes.
pub const DESCRIPTOR_SIZE: usize = 64;

/// A kernel descriptor's fields that matter for simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelDescriptor {
    /// LDS bytes per workgroup (static allocation).
    pub group_segment_fixed_size: u32,
    /// Scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// Kernel argument bytes.
    pub kernarg_size: u32,
    /// Byte offset from the descriptor to the kernel's entry (0 in a relocatable file).
    pub kernel_code_entry_byte_offset: i64,
    /// COMPUTE_PGM_RSRC1.
    pub rsrc1: u32,
    /// COMPUTE_PGM_RSRC2.
    pub rsrc2: u32,
    /// COMPUTE_PGM_RSRC3.
    pub rsrc3: u32,
    /// Kernel code properties (user SGPR enables, wave32).
    pub kernel_code_properties: u16,
}

impl KernelDescriptor {
    /// Read a descriptor from its 64 bytes (`None` if fewer are given).
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..DESCRIPTOR_SIZE)?;
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&b[16..24]);
        Some(KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(entry),
            rsrc3: u32_at(44),
            rsrc1: u32_at(48),
            rsrc2: u32_at(52),
            kernel_code_properties: u16::from_le_bytes([b[56], b[57]]),
        })
    }

    /// GRANULATED_WORKITEM_VGPR_COUNT (rsrc1 bits 5:0).
    pub fn granulated_vgprs(&self) -> u32 {
        self.rsrc1 & 0x3f
    }

    /// GRANULATED_WAVEFRONT_SGPR_COUNT (rsrc1 bits 9:6; 0 and unused on gfx10+).
    pub fn granulated_sgprs(&self) -> u32 {
        (self.rsrc1 >> 6) & 0xf
    }

    /// USER_SGPR_COUNT (rsrc2 bits 5:1).
    pub fn user_sgprs(&self) -> u32 {
        (self.rsrc2 >> 1) & 0x1f
    }

    /// ENABLE_SGPR_WORKGROUP_ID_X/Y/Z (rsrc2 bits 7, 8, 9): which workgroup ids the hardware
    /// writes into the system SGPRs after the user SGPRs (LLVM AMDGPUUsage, "compute_pgm_rsrc2").
    pub fn workgroup_ids(&self) -> [bool; 3] {
        [7, 8, 9].map(|bit| self.rsrc2 & (1 << bit) != 0)
    }

    /// ENABLE_WAVEFRONT_SIZE32 (kernel code properties bit 10).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties & (1 << 10) != 0
    }

    /// ENABLE_SGPR_FLAT_SCRATCH_INIT (kernel code properties bit 5).
    pub fn flat_scratch_init(&self) -> bool {
        self.kernel_code_properties & (1 << 5) != 0
    }

    /// ACCUM_OFFSET on gfx90a/gfx94x (rsrc3 bits 5:0, in units of 4 VGPRs, minus one): the
    /// first AGPR of the unified register file.
    pub fn accum_offset(&self) -> u32 {
        ((self.rsrc3 & 0x3f) + 1) * 4
    }

    /// VGPRs the descriptor allocates: (granulated count + 1) x the encoding granule, which is
    /// 8 on gfx90a/gfx94x (the unified file) and in wave32, else 4 (LLVM's
    /// `getVGPREncodingGranule`).
    pub fn vgprs(&self, unified_agprs: bool) -> u32 {
        let granule = if unified_agprs || self.wave32() { 8 } else { 4 };
        (self.granulated_vgprs() + 1) * granule
    }

    /// SGPRs the descriptor allocates on gfx6-gfx9: (granulated count + 1) x 8 (LLVM's
    /// `getSGPREncodingGranule`); gfx10+ always allocate the whole file, so `None`.
    pub fn sgprs(&self, gen_major: u32) -> Option<u32> {
        (gen_major < 10).then(|| (self.granulated_sgprs() + 1) * 8)
    }
}
