//! Building a mesh's BVHs for a layout and encoding a whole scene (every
//! BLAS, then the TLAS over its instances) into one memory.

use super::box8::DecodedBox8Table;
use super::bvh4_encode::encode_bvh4;
use super::bvh8_encode::{bvh8_rotations, encode_bvh8, rotate_box_nodes};
use super::decoded::DecodedNodes;
use super::instance::InstanceNode;
use super::layout::{BvhKind, EncodedBvh, LayoutConfig, NodeCounts};
use super::memory::BvhMemory;
use super::pointer::*;
use super::support::{pairable, triangle_box, InstanceLeaf, Leaves};
use crate::bvh::{BuildParams, Bvh2, WideBvh};
use crate::math::{Aabb, Vec3};
use crate::mesh::Mesh;
use crate::scene::Scene;
use std::sync::OnceLock;

/// Build parameters and width for a layout.
pub fn build_params(kind: BvhKind) -> (BuildParams, usize) {
    match kind {
        BvhKind::Bvh8 => (BuildParams::BVH8, 8),
        _ => (BuildParams::BVH4, 4),
    }
}

/// Build the binary and wide BVHs of a mesh for a layout.
pub fn build_mesh_bvh(mesh: &Mesh, kind: BvhKind) -> (Bvh2, WideBvh) {
    let (params, width) = build_params(kind);
    let boxes: Vec<Aabb> = (0..mesh.triangles.len())
        .map(|i| triangle_box(mesh, i as u32))
        .collect();
    let bvh2 = Bvh2::build(&boxes, &params);
    let wide = if width == 4 {
        WideBvh::collapse(&bvh2, 4, &|p: &[u32]| {
            if p.len() <= 1 || pairable(mesh, p) {
                1
            } else {
                p.len()
            }
        })
    } else {
        WideBvh::collapse(&bvh2, 8, &|_| 1)
    };
    (bvh2, wide)
}

/// The wide BVHs of a scene's meshes (and their binary trees' SAH cost), built once for every layout that shares
/// them: the build depends only on the mesh and the layout's width (4 or 8, with its build
/// parameters; [`build_params`]), not on the generation, the node encoding or OBBs, so the
/// layouts of one run (`bvh8` with and without OBBs, `bvh4` on RDNA 3 and RDNA 4) encode the
/// same trees. Built in parallel, one (mesh, width) per task.
pub struct MeshBuilds<'s> {
    scene: &'s Scene,
    /// `(mesh index, width)` -> the mesh's binary tree's SAH cost and its wide tree (the
    /// binary tree itself is freed once collapsed, as a single build does).
    built: std::collections::HashMap<(usize, usize), (f32, WideBvh)>,
    /// The BVH8 layouts asked for both without and with OBBs, by the configuration without:
    /// that encoding, made once by whichever of the two gets to it first. The two differ only
    /// in the rotated box nodes (same tree, same primitive nodes at the same addresses), so
    /// the one with OBBs is this one with its nodes rotated ([`rotate_box_nodes`]).
    bvh8_plain: std::collections::HashMap<LayoutConfig, OnceLock<PlainBvh8>>,
}

/// A BVH8 encoding without OBBs, and where each BLAS's box nodes are (by mesh, then wide
/// node), which its twin with OBBs rotates.
struct PlainBvh8 {
    encoded: EncodedBvh,
    box_addrs: Vec<Vec<u64>>,
}

impl<'s> MeshBuilds<'s> {
    /// Build the trees every layout of `configs` needs for `scene`'s meshes.
    pub fn for_layouts(scene: &'s Scene, configs: &[LayoutConfig]) -> MeshBuilds<'s> {
        use rayon::prelude::*;
        let mut keys: Vec<(usize, usize, BvhKind)> = Vec::new();
        for c in configs {
            let width = build_params(c.bvh).1;
            for m in 0..scene.meshes.len() {
                if !keys.iter().any(|k| (k.0, k.1) == (m, width)) {
                    keys.push((m, width, c.bvh));
                }
            }
        }
        let build = |&(m, width, kind): &(usize, usize, BvhKind)| {
            let (bvh2, wide) = build_mesh_bvh(&scene.meshes[m], kind);
            ((m, width), (bvh2.sah_cost(&build_params(kind).0), wide))
        };
        // One tree is built on this thread: a worker's allocations would go to another
        // malloc arena, which costs the single-layout run ~2% more instructions.
        let built = if keys.len() == 1 {
            keys.iter().map(build).collect()
        } else {
            keys.par_iter().map(build).collect()
        };
        let mut bvh8_plain = std::collections::HashMap::new();
        for c in configs.iter().filter(|c| c.bvh == BvhKind::Bvh8 && c.obb) {
            let plain = LayoutConfig { obb: false, ..*c };
            if configs.contains(&plain) {
                bvh8_plain.insert(plain, OnceLock::new());
            }
        }
        MeshBuilds {
            scene,
            built,
            bvh8_plain,
        }
    }

    /// The wide tree of mesh `m` for `kind`'s width and its binary tree's SAH cost, from
    /// the builds or (missing there) built now.
    fn tree(&self, m: usize, kind: BvhKind) -> std::borrow::Cow<'_, (f32, WideBvh)> {
        let (params, width) = build_params(kind);
        match self.built.get(&(m, width)) {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => {
                let (bvh2, wide) = build_mesh_bvh(&self.scene.meshes[m], kind);
                std::borrow::Cow::Owned((bvh2.sah_cost(&params), wide))
            }
        }
    }

    /// The scene the trees are of.
    pub fn scene(&self) -> &'s Scene {
        self.scene
    }
}

/// Encode a scene in the layout `config`.
pub fn encode_scene(scene: &Scene, config: LayoutConfig) -> Result<EncodedBvh, String> {
    encode_built(&MeshBuilds::for_layouts(scene, &[config]), config)
}

/// Encode the scene of `builds` in the layout `config`, from the trees built there (a mesh
/// whose trees for this width are missing is built here).
pub fn encode_built(builds: &MeshBuilds<'_>, config: LayoutConfig) -> Result<EncodedBvh, String> {
    config.validate()?;
    let plain_config = LayoutConfig {
        obb: false,
        ..config
    };
    let Some(slot) = builds.bvh8_plain.get(&plain_config) else {
        return Ok(encode_layout(builds, config).0);
    };
    if !config.obb {
        return Ok(slot
            .get_or_init(|| plain_bvh8(builds, plain_config))
            .encoded
            .clone());
    }
    // The rotations first (the larger part), so that when the layout without OBBs is encoded
    // on another thread meanwhile, this one waits for it as little as possible.
    let rotations: Vec<_> = (0..builds.scene.meshes.len())
        .map(|m| bvh8_rotations(&builds.tree(m, config.bvh).1, &builds.scene.meshes[m]))
        .collect();
    let plain = slot.get_or_init(|| plain_bvh8(builds, plain_config));
    let p = &plain.encoded;
    let mut memory = p.memory.clone();
    let mut counts = p.counts;
    for (addrs, r) in plain.box_addrs.iter().zip(rotations) {
        counts.with_obb += rotate_box_nodes(&mut memory, addrs, r);
    }
    let roots = std::iter::once(&p.top)
        .chain(&p.blases)
        .map(|s| (s.base, s.root));
    Ok(EncodedBvh {
        config,
        box8_table: DecodedBox8Table::build(&memory, roots),
        memory,
        blases: p.blases.clone(),
        counts,
        // The primitive nodes are the same bytes at the same addresses.
        decoded: p.decoded.clone(),
        ..*p
    })
}

fn plain_bvh8(builds: &MeshBuilds<'_>, config: LayoutConfig) -> PlainBvh8 {
    let (encoded, box_addrs) = encode_layout(builds, config);
    PlainBvh8 { encoded, box_addrs }
}

/// Encode `config` on its own; also returns, for BVH8, where each BLAS's box nodes are (by
/// mesh, then wide node).
fn encode_layout(builds: &MeshBuilds<'_>, config: LayoutConfig) -> (EncodedBvh, Vec<Vec<u64>>) {
    let scene = builds.scene;
    let mut box_addrs = Vec::new();
    let mut mem = BvhMemory::default();
    let mut counts = NodeCounts::default();
    let mut blases = Vec::new();
    let mut blas_bounds = Vec::new();
    let mut depth = 0;
    let (mut sah, mut sah2) = (0.0f32, 0.0f32);
    let (params, width) = build_params(config.bvh);
    let mut triangles = 0u64;
    for (m, mesh) in scene.meshes.iter().enumerate() {
        let tree = builds.tree(m, config.bvh);
        let (bvh2_sah, wide) = (tree.0, &tree.1);
        sah += wide.sah_cost(&params);
        sah2 += bvh2_sah;
        depth = depth.max(wide.depth());
        triangles += mesh.triangles.len() as u64;
        let s = if config.bvh == BvhKind::Bvh8 {
            let mut addrs = Vec::new();
            let s = encode_bvh8(
                &mut mem,
                wide,
                Leaves::Triangles(mesh),
                config,
                &mut counts,
                &mut addrs,
            );
            box_addrs.push(addrs);
            s
        } else {
            encode_bvh4(&mut mem, wide, Leaves::Triangles(mesh), config, &mut counts)
        };
        blases.push(s);
        blas_bounds.push(mesh.bounds());
    }
    let n = scene.meshes.len().max(1) as f32;
    let (top, two_level) = if scene.is_two_level() {
        let leaves: Vec<InstanceLeaf> = scene
            .instances
            .iter()
            .enumerate()
            .map(|(i, inst)| {
                let b = inst.object_to_world.transform_aabb(&blas_bounds[inst.mesh]);
                // The world box comes through an fp32 transform; pad it so a
                // hit found in object space is never culled at the TLAS.
                let mag = b.min.max_abs().max(b.max.max_abs());
                let p = mag * 8.0 * f32::EPSILON + b.extent().max_abs() * 1e-6;
                let world_box = Aabb {
                    min: b.min - Vec3::new(p, p, p),
                    max: b.max + Vec3::new(p, p, p),
                };
                let s = blases[inst.mesh];
                InstanceLeaf {
                    node: InstanceNode {
                        world_to_object: inst.world_to_object,
                        object_to_world: inst.object_to_world,
                        blas_base: if config.bvh == BvhKind::Bvh8 {
                            s.base
                        } else {
                            s.header
                        },
                        blas_root: s.root,
                        instance_index: i as u32,
                        mask: 0xFF,
                        parent: INVALID_NODE,
                        filter_box: blas_bounds[inst.mesh],
                    },
                    world_box,
                }
            })
            .collect();
        let boxes: Vec<Aabb> = leaves.iter().map(|l| l.world_box).collect();
        let tlas2 = Bvh2::build(&boxes, &BuildParams::TLAS);
        let wide = WideBvh::collapse(&tlas2, width, &|_| 1);
        depth += wide.depth();
        let s = if config.bvh == BvhKind::Bvh8 {
            encode_bvh8(
                &mut mem,
                &wide,
                Leaves::Instances(&leaves),
                config,
                &mut counts,
                &mut Vec::new(),
            )
        } else {
            encode_bvh4(
                &mut mem,
                &wide,
                Leaves::Instances(&leaves),
                config,
                &mut counts,
            )
        };
        (s, true)
    } else {
        (blases[0], false)
    };
    let mut e = EncodedBvh {
        config,
        memory: mem,
        top,
        blases,
        two_level,
        counts,
        depth,
        sah_cost: sah / n,
        bvh2_sah_cost: sah2 / n,
        triangles,
        box8_table: DecodedBox8Table::default(),
        decoded: DecodedNodes::default(),
    };
    e.rebuild_box8_table();
    (e, box_addrs)
}
