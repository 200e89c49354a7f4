//! The layout choices (GPU generation, BVH kind, OBB) and what encoding a
//! scene produces: the memory image, where each structure sits in it, and
//! node counts.

use super::box8::DecodedBox8Table;
use super::decoded::DecodedNodes;
use super::memory::BvhMemory;
use serde::Serialize;
use shadersim_arch::RayAccelerator;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// A GPU generation `shadersim rt` encodes for: one of the built-in models
/// its data file lists (`models` in `data/ray_accelerator.toml`), whose
/// `[ray_accelerator]` gives the rates and the node formats. Every question
/// about a generation is answered from that model, never from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arch {
    /// Its place in [`generations`] (oldest first).
    index: usize,
}

/// A generation's name and its model's Ray Accelerator.
struct Generation {
    name: String,
    rates: RayAccelerator,
}

/// The generations of `data/ray_accelerator.toml`'s `models`, oldest first,
/// each with its built-in model's `[ray_accelerator]`.
fn generations() -> &'static [Generation] {
    static T: OnceLock<Vec<Generation>> = OnceLock::new();
    T.get_or_init(|| {
        /// The data file's list of generations (its measurements are `cost`'s).
        #[derive(serde::Deserialize)]
        struct Listed {
            models: Vec<String>,
        }
        let listed: Listed = toml::from_str(include_str!("../../data/ray_accelerator.toml"))
            .expect("the embedded RA table lists its generations");
        listed
            .models
            .iter()
            .map(|name| {
                let model = shadersim_arch::ArchSpec::builtin(name)
                    .expect("every generation `shadersim rt` lists is a built-in model");
                let rates = model
                    .ray_accelerator
                    .expect("every generation `shadersim rt` lists has a [ray_accelerator]");
                Generation {
                    name: name.clone(),
                    rates,
                }
            })
            .collect()
    })
}

impl Arch {
    /// Every generation, oldest first.
    pub fn all() -> impl Iterator<Item = Arch> {
        (0..generations().len()).map(|index| Arch { index })
    }

    /// The generation named `s` (a model name such as `rdna3`), if `shadersim
    /// rt` encodes for it.
    pub fn parse(s: &str) -> Option<Arch> {
        Arch::all().find(|a| a.name() == s)
    }

    /// The model's name.
    pub fn name(self) -> &'static str {
        &generations()[self.index].name
    }

    /// True when the model's Ray Accelerator reads the RT IP 3.x node
    /// formats (BVH8, dual 4-wide pairs, oriented boxes): the model's
    /// `[ray_accelerator] rtip3_nodes`.
    pub fn rtip3(self) -> bool {
        self.rates().rtip3_nodes
    }

    /// The model's Ray Accelerator (`[ray_accelerator]`).
    pub fn rates(self) -> &'static RayAccelerator {
        &generations()[self.index].rates
    }

    /// The names of the generations whose nodes have the RT IP 3.x forms,
    /// for messages (`rdna4`).
    pub fn rtip3_names() -> String {
        let names: Vec<&str> = Arch::all().filter(|a| a.rtip3()).map(Arch::name).collect();
        names.join(", ")
    }
}

impl Serialize for Arch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The Ray Accelerator of every generation, by name, as the models state it.
pub fn ra_rates() -> BTreeMap<&'static str, &'static RayAccelerator> {
    Arch::all().map(|a| (a.name(), a.rates())).collect()
}

/// BVH layout and traversal mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BvhKind {
    /// 4-wide nodes, one node per step.
    Bvh4,
    /// 4-wide nodes, two nodes per step (RDNA 4 DUAL_INTERSECT_RAY).
    Bvh4x2,
    /// Quantized 8-wide nodes (RDNA 4 BVH8_INTERSECT_RAY).
    Bvh8,
}

impl BvhKind {
    /// Parse `bvh4`, `bvh4x2` or `bvh8`.
    pub fn parse(s: &str) -> Option<BvhKind> {
        match s {
            "bvh4" => Some(BvhKind::Bvh4),
            "bvh4x2" => Some(BvhKind::Bvh4x2),
            "bvh8" => Some(BvhKind::Bvh8),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            BvhKind::Bvh4 => "bvh4",
            BvhKind::Bvh4x2 => "bvh4x2",
            BvhKind::Bvh8 => "bvh8",
        }
    }
}

/// What to build: generation, layout and options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LayoutConfig {
    /// GPU generation.
    pub arch: Arch,
    /// Layout / traversal mode.
    pub bvh: BvhKind,
    /// Oriented bounding boxes (RDNA 4 only).
    pub obb: bool,
    /// fp16 box nodes below the root (4-wide layouts only).
    pub fp16: bool,
}

impl LayoutConfig {
    /// A configuration with OBBs and fp16 off.
    pub fn new(arch: Arch, bvh: BvhKind) -> LayoutConfig {
        LayoutConfig {
            arch,
            bvh,
            obb: false,
            fp16: false,
        }
    }

    /// Check that the generation supports the options.
    pub fn validate(&self) -> Result<(), String> {
        if !self.arch.rtip3() && self.bvh != BvhKind::Bvh4 {
            return Err(format!(
                "{} exists only on {}",
                self.bvh.name(),
                Arch::rtip3_names()
            ));
        }
        if !self.arch.rtip3() && self.obb {
            return Err(format!(
                "oriented bounding boxes exist only on {}",
                Arch::rtip3_names()
            ));
        }
        if self.bvh == BvhKind::Bvh8 && self.fp16 {
            return Err("fp16 box nodes are 4-wide; bvh8 nodes are quantized".into());
        }
        Ok(())
    }

    /// True for the RT IP 3.x forms of the nodes (RDNA 4).
    pub fn rtip3(&self) -> bool {
        self.arch.rtip3()
    }

    /// Short name such as `rdna4 bvh8+obb`.
    pub fn label(&self) -> String {
        let mut s = format!("{} {}", self.arch.name(), self.bvh.name());
        if self.obb {
            s.push_str("+obb");
        }
        if self.fp16 {
            s.push_str("+fp16");
        }
        s
    }
}

impl fmt::Display for LayoutConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// Where a structure sits in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StructureRef {
    /// Byte address node pointers are relative to.
    pub base: u64,
    /// Root node pointer.
    pub root: u32,
    /// Byte address of the header.
    pub header: u64,
    /// Size in bytes, header and parent table included.
    pub bytes: u64,
    /// Byte offset (from `base`) of the parent-pointer table, 4-wide layouts only.
    pub parent_table: u32,
}

/// Node counts by type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct NodeCounts {
    /// 128-byte fp32 4-wide box nodes.
    pub box_fp32: u64,
    /// 64-byte fp16 4-wide box nodes.
    pub box_fp16: u64,
    /// 128-byte quantized 8-wide box nodes.
    pub box_quantized: u64,
    /// 64-byte triangle pair nodes.
    pub triangle_pair: u64,
    /// 128-byte compressed primitive nodes.
    pub primitive: u64,
    /// 128-byte instance nodes.
    pub instance: u64,
    /// Box nodes carrying an OBB rotation.
    pub with_obb: u64,
}

/// An encoded scene: memory, where its structures are, and statistics.
#[derive(Debug, Clone)]
pub struct EncodedBvh {
    /// What was built.
    pub config: LayoutConfig,
    /// All structures.
    pub memory: BvhMemory,
    /// The structure rays start in (the TLAS, or the only BLAS).
    pub top: StructureRef,
    /// One per scene mesh.
    pub blases: Vec<StructureRef>,
    /// True when `top` is a TLAS.
    pub two_level: bool,
    /// Node counts.
    pub counts: NodeCounts,
    /// Deepest box-node path from the root (TLAS and BLAS levels added).
    pub depth: usize,
    /// SAH cost of the wide trees (mean over BLASes).
    pub sah_cost: f32,
    /// SAH cost of the binary BVHs they were collapsed from.
    pub bvh2_sah_cost: f32,
    /// Triangles stored (per BLAS, not per instance).
    pub triangles: u64,
    /// BVH8 box nodes decoded once from `memory` (empty for 4-wide
    /// layouts); the traversal reads nodes here and falls back to decoding
    /// `memory` for any address it lacks. Derived data: anyone who edits
    /// `memory` must rebuild it with [`EncodedBvh::rebuild_box8_table`].
    pub box8_table: DecodedBox8Table,
    /// The other nodes decoded once from `memory` (4-wide box and triangle
    /// nodes, BVH8 primitive nodes), with the same fallback; rebuilt with
    /// the box8 table.
    pub decoded: DecodedNodes,
}

impl EncodedBvh {
    /// Decode the nodes of `memory` into [`EncodedBvh::box8_table`] and
    /// [`EncodedBvh::decoded`] again (after editing it).
    pub fn rebuild_box8_table(&mut self) {
        let roots = std::iter::once(&self.top)
            .chain(&self.blases)
            .map(|s| (s.base, s.root));
        if self.config.bvh == BvhKind::Bvh8 {
            self.box8_table = DecodedBox8Table::build(&self.memory, roots.clone());
            self.decoded = DecodedNodes::build8(&self.memory, roots, &self.box8_table);
        } else {
            self.box8_table = DecodedBox8Table::default();
            self.decoded = DecodedNodes::build4(&self.memory, roots, self.config.rtip3());
        }
    }

    /// Total bytes of all structures.
    pub fn bytes(&self) -> u64 {
        self.memory.len_bytes()
    }
}
