//! Memory facts: what the coalescing model charges a vector memory instruction by, per mnemonic.
//!
//! The facts are data (`data/memory_facts.tsv`, generated from `data/instructions.tsv` by
//! `scripts/isa/gen_memory_facts.py`, where the mnemonic grammar lives, and embedded); the
//! instruction table attaches them to its entries ([`crate::InstrInfo::memory`]), so consumers
//! ask the table, never the spelling.

use crate::tsv::{tsv_rows, TableError};

/// The instruction family of a vector memory instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VmemPath {
    /// `buffer_*` (MUBUF).
    Buffer,
    /// `tbuffer_*` (MTBUF).
    TypedBuffer,
    /// `global_*`.
    Global,
    /// `flat_*`.
    Flat,
    /// `scratch_*`.
    Scratch,
    /// `image_*` (MIMG).
    Image,
}

impl VmemPath {
    /// The table's spelling (also the mnemonic prefix).
    pub fn name(self) -> &'static str {
        match self {
            VmemPath::Buffer => "buffer",
            VmemPath::TypedBuffer => "tbuffer",
            VmemPath::Global => "global",
            VmemPath::Flat => "flat",
            VmemPath::Scratch => "scratch",
            VmemPath::Image => "image",
        }
    }

    fn from_name(s: &str) -> Option<VmemPath> {
        [
            VmemPath::Buffer,
            VmemPath::TypedBuffer,
            VmemPath::Global,
            VmemPath::Flat,
            VmemPath::Scratch,
            VmemPath::Image,
        ]
        .into_iter()
        .find(|p| p.name() == s)
    }
}

/// Whether the instruction reads, writes or read-modify-writes memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VmemOp {
    /// Reads memory (loads, samples, gathers).
    Load,
    /// Writes memory.
    Store,
    /// Read-modify-write.
    Atomic,
}

/// What kind of access a vector memory instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VmemKind {
    /// A buffer-like op moving [`VmemFacts::channels`] x [`VmemFacts::bits_per_channel`] per lane.
    Data,
    /// `image_sample*`; `gradients` for the `_d`/`_cd` forms carrying user derivatives,
    /// `explicit_lod` for the `_l`/`_lz` forms naming their mip level (no derivatives at all).
    Sample {
        /// Whether the sample carries user gradients.
        gradients: bool,
        /// Whether the sample names its level of detail (`_l`, `_lz`).
        explicit_lod: bool,
    },
    /// `image_gather4*`.
    Gather4,
    /// `image_load*`, `image_msaa_load`.
    ImageLoad,
    /// `image_store*`.
    ImageStore,
    /// `image_atomic_*`.
    ImageAtomic,
    /// Cache control (`buffer_wbinvl1`, `buffer_gl0_inv`, `global_inv`, ...): no lane data.
    CacheControl,
    /// Descriptor query (`image_get_resinfo`, `image_get_lod`): no texels read.
    Query,
    /// Ray intersection (`image_bvh*`): charged by the ray-tracing model by
    /// the nodes it tests.
    Bvh(BvhNodes),
    /// gfx12 `_block` moves (32 VGPRs per lane): not in the coalescing model.
    Block,
}

/// The BVH nodes one ray-intersection op tests per lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BvhNodes {
    /// Nodes tested (2 for `image_bvh_dual_*`).
    pub count: u8,
    /// Children of each node (4, or 8 for `image_bvh8_*`).
    pub width: u8,
}

/// Which half of 16-bit register data a `d16` op uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum D16 {
    /// Not a d16 op.
    No,
    /// `d16`: 16-bit data in the low halves.
    Low,
    /// `d16_hi`: 16-bit data in the high halves.
    High,
}

/// The memory facts of one vector memory mnemonic (a row of `data/memory_facts.tsv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VmemFacts {
    /// Instruction family.
    pub path: VmemPath,
    /// Load, store or atomic; `None` for kinds the coalescing model does not describe.
    pub op: Option<VmemOp>,
    /// What kind of access.
    pub kind: VmemKind,
    /// Values per lane (1, or 2 to 4 for a multi-channel format op); 0 for image and op-less rows.
    pub channels: u8,
    /// Bits of one channel; 0 for image and op-less rows.
    pub bits_per_channel: u16,
    /// A format conversion (`format_x`..`format_xyzw`): channels of an assumed memory width.
    pub format: bool,
    /// 16-bit register data.
    pub d16: D16,
}

/// The memory facts shipped with shadersim.
pub(crate) const BUILTIN_MEMORY_FACTS: &str = include_str!("../data/memory_facts.tsv");

/// Parse a memory facts table into `(mnemonic, facts)` rows.
pub fn parse_memory_facts(
    source_name: &str,
    text: &'static str,
) -> Result<Vec<(&'static str, VmemFacts)>, TableError> {
    let mut rows = Vec::new();
    for (line, cols) in tsv_rows(text) {
        let err = |message: String| TableError {
            source_name: source_name.to_string(),
            line,
            message,
        };
        let [mnemonic, path, op, kind, channels, bits, format, d16] = cols[..] else {
            return Err(err(format!(
                "expected 8 tab-separated columns, found {}",
                cols.len()
            )));
        };
        let path = VmemPath::from_name(path).ok_or_else(|| err(format!("bad path `{path}`")))?;
        let op = match op {
            "load" => Some(VmemOp::Load),
            "store" => Some(VmemOp::Store),
            "atomic" => Some(VmemOp::Atomic),
            "-" => None,
            other => return Err(err(format!("bad op `{other}`"))),
        };
        let kind = match kind {
            "data" => VmemKind::Data,
            "sample" => VmemKind::Sample {
                gradients: false,
                explicit_lod: false,
            },
            "sample_d" => VmemKind::Sample {
                gradients: true,
                explicit_lod: false,
            },
            "sample_l" => VmemKind::Sample {
                gradients: false,
                explicit_lod: true,
            },
            "gather4" => VmemKind::Gather4,
            "load" => VmemKind::ImageLoad,
            "store" => VmemKind::ImageStore,
            "atomic" => VmemKind::ImageAtomic,
            "cache" => VmemKind::CacheControl,
            "query" => VmemKind::Query,
            "bvh4" => VmemKind::Bvh(BvhNodes { count: 1, width: 4 }),
            "bvh8" => VmemKind::Bvh(BvhNodes { count: 1, width: 8 }),
            "bvh4x2" => VmemKind::Bvh(BvhNodes { count: 2, width: 4 }),
            "block" => VmemKind::Block,
            other => return Err(err(format!("bad kind `{other}`"))),
        };
        let number = |s: &str, what: &str| -> Result<u16, TableError> {
            match s {
                "-" => Ok(0),
                n => n.parse().map_err(|_| err(format!("bad {what} `{n}`"))),
            }
        };
        let channels = number(channels, "channel count")?;
        let bits_per_channel = number(bits, "bit count")?;
        let format = match format {
            "format" => true,
            "-" => false,
            other => return Err(err(format!("bad format column `{other}`"))),
        };
        let d16 = match d16 {
            "d16" => D16::Low,
            "d16_hi" => D16::High,
            "-" => D16::No,
            other => return Err(err(format!("bad d16 column `{other}`"))),
        };
        let data = kind == VmemKind::Data;
        if data != (channels > 0 && bits_per_channel > 0) || channels > 4 {
            return Err(err(format!(
                "kind `{kind:?}` with {channels} channels of {bits_per_channel} bits"
            )));
        }
        let image = path == VmemPath::Image;
        let expected_op = match kind {
            VmemKind::Sample { .. } | VmemKind::Gather4 | VmemKind::ImageLoad => Some(VmemOp::Load),
            VmemKind::ImageStore => Some(VmemOp::Store),
            VmemKind::ImageAtomic => Some(VmemOp::Atomic),
            VmemKind::CacheControl | VmemKind::Query | VmemKind::Bvh(_) | VmemKind::Block => None,
            VmemKind::Data => op,
        };
        let image_kind = !matches!(
            kind,
            VmemKind::Data | VmemKind::CacheControl | VmemKind::Block
        );
        if op != expected_op || (data && op.is_none()) || image != image_kind {
            return Err(err(format!(
                "path `{}`, op {op:?} and kind {kind:?} do not go together",
                path.name()
            )));
        }
        rows.push((
            mnemonic,
            VmemFacts {
                path,
                op,
                kind,
                channels: channels as u8,
                bits_per_channel,
                format,
                d16,
            },
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InstrTable;

    #[test]
    fn every_vmem_mnemonic_has_facts_and_only_those() {
        let table = InstrTable::builtin();
        let rows = parse_memory_facts("memory_facts.tsv", BUILTIN_MEMORY_FACTS).unwrap();
        assert_eq!(
            rows.len(),
            table.iter().filter(|i| i.class.is_vmem()).count()
        );
        for info in table.iter() {
            assert_eq!(
                info.memory.is_some(),
                info.class.is_vmem(),
                "{}",
                info.mnemonic
            );
        }
        let facts = |m: &str| table.lookup(m).unwrap().memory.unwrap();
        let dword = facts("buffer_load_dword");
        assert_eq!(
            (dword.path, dword.op, dword.channels, dword.bits_per_channel),
            (VmemPath::Buffer, Some(VmemOp::Load), 1, 32)
        );
        let d16 = facts("tbuffer_load_format_d16_xyzw");
        assert_eq!((d16.channels, d16.bits_per_channel), (4, 16));
        assert!(d16.format);
        assert_eq!(d16.d16, D16::Low);
        assert_eq!(facts("global_load_short_d16_hi").d16, D16::High);
        assert_eq!(facts("flat_atomic_cmpswap_x2").bits_per_channel, 64);
        assert_eq!(
            facts("image_sample_c_d_cl_o").kind,
            VmemKind::Sample {
                gradients: true,
                explicit_lod: false
            }
        );
        for lod in ["image_sample_lz", "image_sample_c_l_o"] {
            assert_eq!(
                facts(lod).kind,
                VmemKind::Sample {
                    gradients: false,
                    explicit_lod: true
                },
                "{lod}"
            );
        }
        assert_eq!(facts("buffer_wbinvl1").kind, VmemKind::CacheControl);
        assert_eq!(facts("buffer_wbinvl1").op, None);
    }

    #[test]
    fn malformed_rows_are_rejected_with_line_numbers() {
        let bad = [
            "buffer_load_dword\tbuffer\tload\tdata\t1\t32\t-\n",
            "x\tbufer\tload\tdata\t1\t32\t-\t-\n",
            "x\tbuffer\tload\tdata\t-\t-\t-\t-\n",
            "x\tbuffer\tload\tsample\t-\t-\t-\t-\n",
            "x\timage\t-\tsample\t-\t-\t-\t-\n",
            "x\tbuffer\tload\tdata\t5\t32\t-\t-\n",
        ];
        for text in bad {
            let e = parse_memory_facts("t", text).unwrap_err();
            assert_eq!(e.line, 1, "{text}");
        }
        assert!(parse_memory_facts("t", "# c\nx\timage\t-\tbvh8\t-\t-\t-\t-\n").is_ok());
        // The BVH kinds name the nodes an op tests; a bare `bvh` says nothing.
        assert!(parse_memory_facts("t", "x\timage\t-\tbvh\t-\t-\t-\t-\n").is_err());
    }

    /// The committed table is what the generator writes today. Without
    /// python3 the check is skipped, except on CI (`CI` set), where it fails:
    /// `.ci/run` installs python3.
    #[test]
    fn generated_table_is_up_to_date() {
        if !shadersim_testkit::tools::have_python3() {
            return;
        }
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/isa/gen_memory_facts.py"
        );
        let out = std::process::Command::new("python3")
            .arg(script)
            .arg("--check")
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
