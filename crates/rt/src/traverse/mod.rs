//! Traversal over the encoded bytes, following gpurt's `TraceRay2_0`
//! (BVH4), `TraceRay3_0` (BVH4x2) and `TraceRay3_1` (BVH8) loops with the
//! hardware's intersection rules (rt.md §9, §11, §12).
//!
//! Each loop reads nodes from [`BvhMemory`] only: the tree the builder made
//! is gone by now, so what is measured is what the bytes say.

pub mod counters;
mod sort;
pub mod stack;

use crate::encode::box4::BoxNode4;
use crate::encode::box8::DecodedBox8;
use crate::encode::decoded::{DecodedBox4, DecodedNodes, SlabRay};
use crate::encode::instance::InstanceNode;
use crate::encode::memory::BvhMemory;
use crate::encode::obb::{obb_matrices, rotate, NO_OBB};
use crate::encode::pointer::*;
use crate::encode::primitive::{triangle_indices, PrimitiveHeader};
use crate::encode::triangle::TriangleNode;
use crate::encode::{parent_of_bvh4, BvhKind, EncodedBvh, StructureRef};
use crate::math::{Aabb, Vec3};
use crate::ray::{Hit, PreparedTriangle, Ray};
pub use counters::RayCounters;
use sort::{sort4_taken, sort8_taken};
use stack::{RingStack, ShortStack};

/// Traversal settings (the T# fields and driver choices that change what a
/// ray does).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraversalOptions {
    /// LDS short-stack entries per lane (the driver uses 16). The stackless
    /// walk-back is exact only if one step's results fit: at least 4 entries
    /// for BVH4 and 8 for BVH8/BVH4x2 are used whatever is asked (RDNA 3's
    /// smallest stack size is 8).
    pub stack_entries: u32,
    /// Box-test growth in ULPs: hit if `entry <= exit * (1 + grow * 2^-24)`
    /// (the driver uses 6).
    pub box_grow_ulp: u32,
    /// Sort all 8 results of a BVH8/BVH4x2 step together (else each 4-wide
    /// half on its own).
    pub wide_sort: bool,
    /// Put triangle children before box children in the 4-wide layouts'
    /// sort. BVH8 always sorts them first: the RT IP 3.1 walk-back and
    /// primitive ranges depend on it (gpurt's emulation hard-wires it).
    pub sort_triangles_first: bool,
}

impl Default for TraversalOptions {
    fn default() -> Self {
        TraversalOptions {
            stack_entries: 16,
            box_grow_ulp: 6,
            wide_sort: true,
            sort_triangles_first: false,
        }
    }
}

/// The result of tracing one ray.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraceResult {
    /// Closest hit, if any.
    pub hit: Option<Hit>,
    /// What it cost.
    pub counters: RayCounters,
}

/// Trace one ray through an encoded BVH.
pub fn trace(e: &EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> TraceResult {
    match e.config.bvh {
        BvhKind::Bvh4 => trace_bvh4(e, ray, opts),
        BvhKind::Bvh4x2 => trace_bvh4x2(e, ray, opts),
        BvhKind::Bvh8 => trace_bvh8(e, ray, opts),
    }
}

/// The slab test: entry distance if the box is hit. Slab distances use
/// `inv_dir`; NaN distances (0 * inf) drop out of the min/max, entry is
/// clamped to >= 0 and exit to <= `extent`.
#[inline(always)]
fn slab(o: Vec3, inv: Vec3, b: &Aabb, extent: f32, grow: f32) -> Option<f32> {
    let (entry, hit) = slab_entry(o, inv, b, extent, grow);
    hit.then_some(entry)
}

/// [`slab`] as the entry distance and whether the box is hit, for callers
/// that combine the outcome with selects instead of branching on it.
#[inline(always)]
fn slab_entry(o: Vec3, inv: Vec3, b: &Aabb, extent: f32, grow: f32) -> (f32, bool) {
    let mut entry = 0.0f32;
    let mut exit = extent;
    for a in 0..3 {
        let t1 = (b.min.0[a] - o.0[a]) * inv.0[a];
        let t2 = (b.max.0[a] - o.0[a]) * inv.0[a];
        entry = entry.max(t1.min(t2));
        exit = exit.min(t1.max(t2));
    }
    (entry, entry <= exit * grow)
}

/// Whether a ray's origin, direction and inverse direction `inv` are all
/// finite (the condition of [`DecodedBox4::slab4_finite`] and
/// [`DecodedBox8::slab8_finite`]: `inv` is then non-zero too). `x * 0` is
/// a zero for a finite `x` and NaN otherwise, so one sum says it for all
/// nine without a compare per component.
#[inline(always)]
fn finite_ray(ray: &Ray, inv: Vec3) -> bool {
    finite_parts(ray.origin, ray.dir, inv)
}

/// [`finite_ray`] of origin `o`, direction `dir` and inverse direction `inv`
/// (a ray rotated into an OBB's frame).
#[inline(always)]
fn finite_parts(o: Vec3, dir: Vec3, inv: Vec3) -> bool {
    let zeros = o * 0.0 + dir * 0.0 + inv * 0.0;
    zeros.0[0] + zeros.0[1] + zeros.0[2] == 0.0
}

/// What a 4-wide box node test found.
struct Box4Result {
    /// The node's child pointers.
    children: [u32; 4],
    /// Their slab entry distances.
    entries: [f32; 4],
    /// The children hit (bit `slot`), INVALID slots never.
    take: u32,
}

/// Per-ray traversal state shared by the loops.
struct RayState<'a> {
    mem: &'a BvhMemory,
    nodes: &'a DecodedNodes,
    top: StructureRef,
    world: Ray,
    local: Ray,
    inv: Vec3,
    /// `local`'s origin and `inv` in the lanes the 4-wide box test reads.
    lanes: SlabRay,
    /// `local`'s origin and direction and `inv` are all finite, so the
    /// NaN-free slab tests ([`DecodedBox4::slab4_finite`],
    /// [`DecodedBox8::slab8_finite`]) are exact.
    finite_ray: bool,
    base: u64,
    structure: StructureRef,
    in_blas: bool,
    instance: u32,
    instance_ptr: u32,
    best: Option<Hit>,
    t_max: f32,
    grow: f32,
    rtip3: bool,
    c: RayCounters,
}

impl<'a> RayState<'a> {
    fn new(e: &'a EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> RayState<'a> {
        let inv = ray.dir.recip();
        RayState {
            mem: &e.memory,
            nodes: &e.decoded,
            top: e.top,
            world: *ray,
            local: *ray,
            inv,
            lanes: SlabRay::new(ray.origin, inv),
            finite_ray: finite_ray(ray, inv),
            base: e.top.base,
            structure: e.top,
            in_blas: false,
            instance: 0,
            instance_ptr: INVALID_NODE,
            best: None,
            t_max: f32::INFINITY,
            grow: 1.0 + opts.box_grow_ulp as f32 * (1.0 / 16_777_216.0),
            rtip3: e.config.rtip3(),
            c: RayCounters::default(),
        }
    }

    /// Set `lanes` and `finite_ray` for the current `local` ray and `inv`.
    fn refresh_slab_ray(&mut self) {
        self.lanes = SlabRay::new(self.local.origin, self.inv);
        self.finite_ray = finite_ray(&self.local, self.inv);
    }

    fn restore_world(&mut self) {
        self.local = self.world;
        self.inv = self.world.dir.recip();
        self.refresh_slab_ray();
        self.base = self.top.base;
        self.structure = self.top;
        self.in_blas = false;
    }

    fn enter_instance(&mut self, inst: &InstanceNode, ptr: u32, blas: StructureRef) {
        self.local = Ray::new(
            inst.world_to_object.transform_point(self.world.origin),
            inst.world_to_object.transform_dir(self.world.dir),
        );
        self.inv = self.local.dir.recip();
        self.refresh_slab_ray();
        self.base = blas.base;
        self.structure = blas;
        self.in_blas = true;
        self.instance = inst.instance_index;
        self.instance_ptr = ptr;
    }

    #[inline(always)]
    fn consider(&mut self, t: Option<f32>, triangle: u32) {
        if let Some(t) = t {
            let h = Hit {
                t,
                triangle,
                instance: self.instance,
            };
            if self.best.is_none_or(|b| h.closer_than(&b)) {
                self.best = Some(h);
                self.t_max = t;
            }
        }
    }

    /// The extent a box step tests children against: the committed hit's distance, or the ray's
    /// own extent (unbounded: these rays carry no tMax) when the step revisits a node on a
    /// stackless walk-back (`last` a node pointer), as the hardware does (notes/rt.md, box test).
    /// A revisit then keeps every child that was taken before it, `last` included, so the
    /// children after `last` are found whatever the sort's order; with the committed distance
    /// a `last` no longer hit took its later siblings with it when the sort is not by distance
    /// (BVH8 without the wide sort).
    fn box_extent(&self, last: u32) -> f32 {
        if last < END_SEARCH {
            f32::INFINITY
        } else {
            self.t_max
        }
    }

    /// Test a 4-wide box node: its children, their entry distances and
    /// which of them were hit. Inlined: the slab test
    /// ([`DecodedBox4::slab4`]) vectorizes 4 lanes wide inside the loops
    /// too, and the result then stays in registers.
    #[inline(always)]
    fn box4_test(&mut self, ptr: u32, extent: f32) -> Box4Result {
        let addr = self.base + ptr_offset(ptr) as u64;
        let fp16 = ptr_type(ptr) != TYPE_BOX;
        self.c.bytes_fetched += if fp16 { 64 } else { 128 };
        // Nodes were decoded once at encode time; decode here only for an
        // address the table lacks.
        let decoded;
        let node = match self.nodes.box4(addr, fp16) {
            Some(n) => n,
            None => {
                let n = if fp16 {
                    BoxNode4::read_fp16(self.mem, addr)
                } else {
                    BoxNode4::read_fp32(self.mem, addr, self.top_rtip3())
                };
                decoded = DecodedBox4::new(&n, fp16);
                &decoded
            }
        };
        // `box_tests` is 4 per node: the loops set it from `box_nodes` once,
        // after the last step.
        self.c.box_nodes += 1;
        // Every slot is tested and the result selected: a branch on the
        // data-dependent hit would mispredict. An empty slot's planes are
        // whatever the node holds; its result is discarded.
        let (entries, hits) = if node.obb != NO_OBB {
            let m = &obb_matrices()[node.obb as usize];
            let o = rotate(m, self.local.origin);
            let inv = rotate(m, self.local.dir).recip();
            node.slab4(&SlabRay::new(o, inv), extent, self.grow)
        } else if node.no_nan_planes && self.finite_ray {
            // Nearly every step: the cheaper test, exact under these
            // conditions (see `slab4_finite`).
            node.slab4_finite(&self.lanes, extent, self.grow)
        } else {
            node.slab4(&self.lanes, extent, self.grow)
        };
        Box4Result {
            children: node.children,
            entries,
            take: hits,
        }
    }

    /// The triangle a 4-wide triangle pointer of type `t` names in the
    /// 64-byte node at `addr`, and its primitive index. The table was built
    /// with the encoding's `rtip3`; a read with another one decodes here.
    #[inline(always)]
    fn triangle(&self, addr: u64, t: u32, rtip3: bool) -> (PreparedTriangle, u32) {
        if rtip3 == self.rtip3 {
            if let Some(n) = self.nodes.triangle_node(addr) {
                return (n.triangles[t as usize], n.primitive[t as usize]);
            }
        }
        let n = TriangleNode::read(self.mem, addr, rtip3);
        let [a, b, c] = n.triangle(t);
        (PreparedTriangle::new(a, b, c), n.primitive[t as usize])
    }

    fn top_rtip3(&self) -> bool {
        self.rtip3
    }
}

/// BVH4: one 4-wide node per step, RDNA 3's push-4/pop-1 ring stack
/// (`TraceRay2_0`). Triangle pair nodes are reached through a tri1 pointer;
/// after tri1 the shader tests tri0 without touching the stack.
fn trace_bvh4(e: &EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> TraceResult {
    let mut s = RayState::new(e, ray, opts);
    let rtip3 = e.config.rtip3();
    let tri_first = opts.sort_triangles_first;
    let mut stack = RingStack::new(opts.stack_entries.max(4));
    let mut node = e.top.root;
    let mut prev = INVALID_NODE;
    let mut last = INVALID_NODE;
    let mut stack_top = 0u32;
    let mut prev_is_instance = false;
    while node < TERMINAL_NODE {
        // One node per step: `nodes_fetched` is set from `steps` at the end.
        s.c.steps += 1;
        let pair_continuation = prev != INVALID_NODE && ptr_type(prev) == TYPE_TRI1;
        prev = node;
        prev_is_instance = false;
        let mut ptrs = [INVALID_NODE; 8];
        match ptr_type(node) {
            TYPE_BOX | TYPE_BOX16 => {
                let r = s.box4_test(node, s.box_extent(last));
                let sorted = sort4_taken(r.take, &r.children, &r.entries, tri_first);
                ptrs[..4].copy_from_slice(&sorted);
            }
            TYPE_INSTANCE => {
                s.c.instance_tests += 1;
                s.c.bytes_fetched += 128;
                let inst = InstanceNode::read_rtip2(s.mem, s.base + ptr_offset(node) as u64);
                let blas = blas_at(e, inst.blas_base);
                s.enter_instance(&inst, node, blas);
                prev_is_instance = true;
                ptrs[0] = inst.blas_root;
                stack_top = stack.index();
            }
            t @ (TYPE_TRI0 | TYPE_TRI1) => {
                s.c.triangle_tests += 1;
                s.c.bytes_fetched += 64;
                let (tri, primitive) = s.triangle(s.base + ptr_offset(node) as u64, t, rtip3);
                s.consider(tri.intersect(&s.local), primitive);
                if t == TYPE_TRI1 {
                    ptrs[0] = node & !7;
                } else {
                    last = TERMINAL_NODE;
                }
            }
            _ => break, // not a node type a builder writes: stop rather than loop
        }
        node = stack.store(last, [ptrs[0], ptrs[1], ptrs[2], ptrs[3]], &mut s.c);
        last = INVALID_NODE;
        let mut reset = s.in_blas && stack.index() < stack_top;
        if node == INVALID_NODE {
            s.c.walk_backs += 1;
            stack.restore_after_invalid_pop();
            reset = s.in_blas && stack.index() < stack_top;
            let blas_root = s.in_blas && prev == s.structure.root && !prev_is_instance;
            let mut from = prev;
            let mut from_instance = prev_is_instance;
            if blas_root {
                from = s.instance_ptr;
                from_instance = true;
            }
            if from_instance {
                s.restore_world();
                reset = true;
            }
            node = parent_of_bvh4(s.mem, &s.structure, from);
            s.c.bytes_fetched += 4;
            last = if pair_continuation && !from_instance {
                from + 1
            } else {
                from
            };
        }
        if reset {
            s.restore_world();
            stack_top = 0;
        }
    }
    let _ = prev_is_instance;
    s.c.nodes_fetched = s.c.steps;
    s.c.box_tests = 4 * s.c.box_nodes;
    TraceResult {
        hit: s.best,
        counters: s.c,
    }
}

/// The BLAS whose pointer base or header is at `addr`.
fn blas_at(e: &EncodedBvh, addr: u64) -> StructureRef {
    *e.blases
        .iter()
        .find(|b| b.base == addr || b.header == addr)
        .unwrap_or(&e.blases[0])
}

/// Test the triangle(s) a 4-wide triangle pointer names in a BVH4x2 step.
fn tri4(s: &mut RayState<'_>, ptr: u32, rtip3: bool) {
    s.c.triangle_tests += 1;
    s.c.bytes_fetched += 64;
    let t = ptr_type(ptr);
    let (tri, primitive) = s.triangle(s.base + ptr_offset(ptr) as u64, t, rtip3);
    s.consider(tri.intersect(&s.local), primitive);
}

/// BVH4x2: up to two 4-wide nodes per step (`DUAL_INTERSECT_RAY`) and the
/// push-8/pop-2 stack (`TraceRay3_0`).
fn trace_bvh4x2(e: &EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> TraceResult {
    let mut s = RayState::new(e, ray, opts);
    let tri_first = opts.sort_triangles_first;
    let mut stack = ShortStack::new(opts.stack_entries.max(8));
    let (mut x, mut y, mut x_generated) = (e.top.root, INVALID_NODE, false);
    let mut last = INVALID_NODE;
    while x < TERMINAL_NODE {
        s.c.steps += 1;
        let mut ptrs = [INVALID_NODE; 8];
        let mut instance_step = false;
        if ptr_type(x) == TYPE_INSTANCE {
            s.c.nodes_fetched += 1;
            s.c.instance_tests += 1;
            s.c.bytes_fetched += 128;
            let inst = InstanceNode::read_rtip2(s.mem, s.base + ptr_offset(x) as u64);
            let blas = blas_at(e, inst.blas_base);
            s.enter_instance(&inst, x, blas);
            ptrs[7] = inst.blas_root;
            ptrs[6] = SKIP_0_7;
            instance_step = true;
        } else {
            // The first pop (`y`, earlier in depth-first order) goes in slots
            // 0..3 so its children end on top of the stack; `x` in 4..7.
            for (half, p) in [(0usize, y), (1usize, x)] {
                if p >= TERMINAL_NODE {
                    continue;
                }
                s.c.nodes_fetched += 1;
                match ptr_type(p) {
                    // Each node's results are sorted on their own. Merging
                    // the two halves by distance (the hardware's wide sort)
                    // would interleave two subtrees, and the stackless
                    // walk-back needs the stack in depth-first order to stay
                    // exact, so this model never merges them.
                    TYPE_BOX | TYPE_BOX16 => {
                        let r = s.box4_test(p, s.box_extent(last));
                        let sorted = sort4_taken(r.take, &r.children, &r.entries, tri_first);
                        ptrs[4 * half..4 * half + 4].copy_from_slice(&sorted);
                    }
                    t @ (TYPE_TRI0 | TYPE_TRI1) => {
                        tri4(&mut s, p, true);
                        // A tri1 popped without its tri0 (the second pop found
                        // one): the shader pushes the tri0 for a later step.
                        let partner_tested = half == 0 && x_generated;
                        if t == TYPE_TRI1 && !partner_tested {
                            ptrs[4 * half] = p & !7;
                        }
                    }
                    _ => {}
                }
            }
        }
        // The walk-back restarts from the later of the two paths.
        let mut prev = x;
        let prev_generated = x_generated;
        let prev_instance = instance_step;
        let r = stack.push8_pop2(last, &ptrs, &mut s.c);
        x = r.0;
        y = r.1;
        x_generated = r.2;
        last = INVALID_NODE;
        if stack.blas_to_tlas {
            s.restore_world();
        }
        if x == INVALID_NODE {
            s.c.walk_backs += 1;
            if prev_generated {
                prev += 1; // the box holds the tri1 pointer of a pair
            }
            let mut from_instance = prev_instance;
            if s.in_blas && !prev_instance && prev == s.structure.root {
                prev = s.instance_ptr;
                from_instance = true;
            }
            if from_instance {
                s.restore_world();
            }
            last = prev;
            x = parent_of_bvh4(s.mem, &s.structure, prev);
            y = INVALID_NODE;
            x_generated = false;
            s.c.bytes_fetched += 4;
        }
    }
    s.c.box_tests = 4 * s.c.box_nodes;
    TraceResult {
        hit: s.best,
        counters: s.c,
    }
}

/// BVH8: one quantized 8-wide node or one compressed triangle pair per
/// step, push-8/pop-1 with triangles sorted first and primitive ranges
/// drained through the stack (`TraceRay3_1`).
#[inline(always)]
fn trace_bvh8(e: &EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> TraceResult {
    let mut s = RayState::new(e, ray, opts);
    let mut stack = ShortStack::new(opts.stack_entries.max(8));
    let mut node = e.top.root;
    let mut last = INVALID_NODE;
    let mut parent_box = INVALID_NODE;
    while node < END_SEARCH {
        // One 128-byte node per step: `nodes_fetched` and those bytes are
        // set from `steps` at the end, `box_tests` (8 a node) from `box_nodes`.
        s.c.steps += 1;
        let addr = s.base + ptr31_offset(node) as u64;
        let t = node & 7;
        let prev = node;
        let mut instance_step = false;
        // Each kind of step pushes its results and pops the next node
        // itself: a box step's sorted results go to the stack straight from
        // the sort, without a results array shared by every kind of step
        // (copying that round cost more than the push).
        node = if t == TYPE_BOX {
            s.c.box_nodes += 1;
            // Nodes were decoded once at encode time; decode here only for
            // an address the table lacks.
            let decoded;
            let node8 = match e.box8_table.get(addr) {
                Some(n) => n,
                None => {
                    decoded = DecodedBox8::decode(s.mem.block_ref(addr));
                    &decoded
                }
            };
            let extent = s.box_extent(last);
            // `&`, not `&&`: one branch, not two.
            let (entries, hit_mask) = if node8.plain_slab & s.finite_ray {
                // Nearly every step: the cheaper test, exact under these
                // conditions (see `slab8_finite`).
                node8.slab8_finite(&s.lanes, extent, s.grow)
            } else if node8.obb != NO_OBB {
                let m = &obb_matrices()[node8.obb as usize];
                let o = rotate(m, s.local.origin);
                let dir = rotate(m, s.local.dir);
                let inv = dir.recip();
                let ray = SlabRay::new(o, inv);
                // The rotated ray, if finite, meets the NaN-free test's
                // condition as the ray itself does: the same hits and
                // distances as `slab8` (see `slab8_finite`).
                if node8.nan_free & finite_parts(o, dir, inv) {
                    node8.slab8_finite(&ray, extent, s.grow)
                } else {
                    node8.slab8(&ray, extent, s.grow)
                }
            } else {
                node8.slab8(&s.lanes, extent, s.grow)
            };
            // Child reuse (range 0) repeats a pointer: keep the first.
            let take_mask = node8.take_mask(hit_mask);
            parent_box = prev;
            if last == INVALID_NODE
                && node8.sentinel_free
                && take_mask & take_mask.wrapping_sub(1) == 0
            {
                // Most steps take one child or none: the sorted results are
                // then that child alone (see `push_sorted_pop1`), with no
                // sort and no results array.
                let only =
                    (take_mask != 0).then(|| node8.ptrs[take_mask.trailing_zeros() as usize]);
                stack.push_one_pop1(only, &mut s.c)
            } else {
                let (sorted, n) =
                    sort8_taken(u32::from(take_mask), &node8.ptrs, &entries, opts.wide_sort);
                if last == INVALID_NODE {
                    stack.push_sorted_pop1(&sorted, n, node8.sentinel_free, &mut s.c)
                } else {
                    stack.push8_pop1(last, &sorted, true, &mut s.c)
                }
            }
        } else if t == TYPE_INSTANCE {
            s.c.instance_tests += 1;
            let inst = InstanceNode::read_rtip31(s.mem, addr);
            let blas = blas_at(e, inst.blas_base);
            s.enter_instance(&inst, prev, blas);
            instance_step = true;
            // The filter box is tested with the object-space ray.
            let hit = slab(s.local.origin, s.inv, &inst.filter_box, s.t_max, s.grow).is_some();
            let mut ptrs = [INVALID_NODE; 8];
            ptrs[7] = if hit { blas.root } else { INVALID_NODE };
            ptrs[6] = SKIP_0_7;
            stack.push8_pop1(last, &ptrs, true, &mut s.c)
        } else if t <= 3 {
            let pair = pair_index(prev);
            // Pairs were decoded once at encode time, as box nodes were.
            let navigation = if let Some(d) = s.nodes.pair(addr, pair) {
                for tri in 0..2 {
                    if tri == 0 || d.has_tri1 {
                        s.c.triangle_tests += 1;
                        let hit = d.triangles[tri].intersect(&s.local);
                        if hit.is_some() {
                            s.consider(hit, d.primitive[tri]);
                        }
                    }
                }
                d.navigation
            } else {
                test_pair(&mut s, addr, pair)
            };
            // The results are INVALID but slot 7, the primitive pointer,
            // and the range update replaces any walk-back `last`.
            stack.push_range_pop1(prev, PRIM_RANGE_UPDATE | navigation, &mut s.c)
        } else {
            break; // not a node type a builder writes
        };
        last = INVALID_NODE;
        if stack.blas_to_tlas {
            s.restore_world();
        }
        if node == INVALID_NODE {
            s.c.walk_backs += 1;
            let mut from = prev;
            let mut from_instance = instance_step;
            if s.in_blas && !instance_step && prev == s.structure.root {
                from = s.instance_ptr;
                from_instance = true;
            }
            if from_instance {
                s.restore_world();
            }
            last = from;
            node = if !from_instance && is_triangle31(from) {
                parent_box
            } else {
                // Box nodes keep their parent at +8, instance nodes at +56.
                let off = if from_instance { 56 } else { 8 };
                s.c.bytes_fetched += 4;
                s.mem.read(s.base + ptr31_offset(from) as u64 + off)
            };
        }
    }
    s.c.nodes_fetched = s.c.steps;
    s.c.bytes_fetched += 128 * s.c.steps;
    s.c.box_tests = 8 * s.c.box_nodes;
    TraceResult {
        hit: s.best,
        counters: s.c,
    }
}

/// Test pair `pair` of the compressed primitive node at `addr`, decoding
/// it from memory (for a pair the decoded table lacks); returns the
/// navigation bits after the pair.
fn test_pair(s: &mut RayState<'_>, addr: u64, pair: u32) -> u32 {
    let w: &[u32; 32] = s.mem.block_ref(addr);
    let h = PrimitiveHeader::read(w);
    let d = h.pair_desc(w, pair);
    for tri in 0..2 {
        if let Some(i) = triangle_indices(d, tri) {
            s.c.triangle_tests += 1;
            let (a, b, c) = (h.vertex(w, i[0]), h.vertex(w, i[1]), h.vertex(w, i[2]));
            let hit = PreparedTriangle::new(a, b, c).intersect(&s.local);
            if hit.is_some() {
                s.consider(hit, h.primitive_id(w, 2 * pair + tri));
            }
        }
    }
    h.navigation(d, pair)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `finite_ray` says yes only when the NaN-free slab tests are exact:
    /// origin finite, `inv` finite and non-zero; and yes for ordinary rays.
    #[test]
    fn finite_ray_only_for_finite_origin_and_inverse() {
        let special = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            1.0e-45,
            -1.0e-39,
            2.9e-39,
            1.0e-30,
            3.0e38,
            -3.4e38,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut rng = crate::rng::SplitMix64::new(0x5851_F42D_4C95_7F2D);
        let mut next = move || rng.next_u32() as usize;
        for _ in 0..200_000 {
            let mut pick = || special[next() % special.len()];
            let ray = Ray::new(
                Vec3::new(pick(), pick(), pick()),
                Vec3::new(pick(), pick(), pick()),
            );
            let inv = ray.dir.recip();
            let exact_ok =
                ray.origin.is_finite() && inv.is_finite() && (0..3).all(|a| inv.0[a] != 0.0);
            if finite_ray(&ray, inv) {
                assert!(exact_ok, "{ray:?} {inv:?}");
            }
        }
        let ray = Ray::new(Vec3::new(1.0, -2.0, 3.0), Vec3::new(0.3, -0.5, 1.0e-20));
        assert!(finite_ray(&ray, ray.dir.recip()));
    }
}
