//! Traversal over the encoded bytes, following gpurt's `TraceRay2_0`
//! (BVH4), `TraceRay3_0` (BVH4x2) and `TraceRay3_1` (BVH8) loops with the
//! hardware's intersection rules (rt.md §9, §11, §12).
//!
//! Each loop reads nodes from [`BvhMemory`] only: the tree the builder made
//! is gone by now, so what is measured is what the bytes say.

pub mod counters;
pub mod stack;

use crate::encode::box4::BoxNode4;
use crate::encode::box8::DecodedBox8;
use crate::encode::instance::InstanceNode;
use crate::encode::memory::BvhMemory;
use crate::encode::obb::{obb_matrices, rotate, NO_OBB};
use crate::encode::pointer::*;
use crate::encode::primitive::{triangle_indices, PrimitiveHeader};
use crate::encode::triangle::TriangleNode;
use crate::encode::{parent_of_bvh4, BvhKind, EncodedBvh, StructureRef};
use crate::math::{Aabb, Vec3};
use crate::ray::{intersect_triangle, Hit, Ray};
pub use counters::RayCounters;
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

/// The sort order of one result as one integer: extended key in the high
/// half, the float key's bits in the low half. Keys are slab entry
/// distances, never negative nor NaN, and for those the bits order like the
/// numbers; -0.0 is folded onto +0.0 so that they tie as they compare.
#[inline(always)]
fn order_key(ext: u32, key: f32) -> u64 {
    debug_assert!(key >= 0.0 && !key.is_nan(), "sort keys are entry distances");
    let bits = if key == 0.0 { 0 } else { key.to_bits() };
    (u64::from(ext) << 32) | u64::from(bits)
}

/// Compare-exchange of the hardware sorting networks over order keys (see
/// [`order_key`]) and the pointers they belong to; equal keys keep their
/// places. Written as selects, not a branch: which way a network stage goes
/// is data-dependent and mispredicts often.
#[inline(always)]
fn exchange(k: &mut [u64], p: &mut [u32], a: usize, b: usize) {
    let swap = k[b] < k[a];
    let (ka, kb) = (k[a], k[b]);
    let (pa, pb) = (p[a], p[b]);
    k[a] = if swap { kb } else { ka };
    k[b] = if swap { ka } else { kb };
    p[a] = if swap { pb } else { pa };
    p[b] = if swap { pa } else { pb };
}

const NET4: [(usize, usize); 5] = [(0, 2), (1, 3), (0, 1), (2, 3), (1, 2)];
const NET8: [(usize, usize); 19] = [
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (1, 2),
    (5, 6),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
    (2, 4),
    (3, 5),
    (1, 2),
    (3, 4),
    (5, 6),
];

/// Sort 8 results: with `wide`, one 8-input network over all of them.
/// Without it each 4-wide half keeps its own distance order (half 0 before
/// half 1), but the extended key still orders across halves, so primitives
/// stay ahead of boxes: the RT IP 3.1 walk-back treats every primitive as
/// already visited, which is only true if they all come first. Only the
/// pointers come out sorted (the traversal needs nothing else): each
/// result's order key is built once, then the network's compare-exchanges
/// ([`exchange`]) move keys and pointers together.
#[inline(always)]
fn sort8(ext: &[u32; 8], key: &[f32; 8], ptr: &mut [u32; 8], wide: bool) {
    // With at most one result that is not INVALID, every other entry is the
    // same (INVALID, infinity) and both networks sort completely: the
    // result is that one entry first. Deep in the tree this is the common
    // case, so skip the 19 compare-exchanges.
    let real = ptr.iter().filter(|&&p| p != INVALID_NODE).count();
    if real <= 1 {
        if let Some(i) = ptr.iter().position(|&p| p != INVALID_NODE) {
            ptr.swap(0, i);
        }
        return;
    }
    // The narrow sort adds the half as the lowest extended-key bit.
    let mut k = [0u64; 8];
    for i in 0..8 {
        let e = if wide {
            ext[i]
        } else {
            (ext[i] << 1) | (i >= 4) as u32
        };
        k[i] = order_key(e, key[i]);
    }
    for &(a, b) in &NET8 {
        exchange(&mut k, ptr, a, b);
    }
}

/// Sort the 4 results at `at..at + 4` with the 4-input network, pointers
/// only (nothing reads the keys afterwards): the order keys are built once
/// and moved with the pointers by the network's compare-exchanges
/// ([`exchange`]).
#[inline(always)]
fn sort4(ptr: &mut [u32; 8], key: &[f32; 8], at: usize, tri_first: bool) {
    let p = &mut ptr[at..at + 4];
    // With at most one real result the other three are identical (INVALID,
    // infinity, extended key 4, after any real one): the network leaves the
    // real one first, so move it there without the 5 compare-exchanges.
    let real = p.iter().filter(|&&x| x != INVALID_NODE).count();
    if real <= 1 {
        if let Some(i) = p.iter().position(|&x| x != INVALID_NODE) {
            p.swap(0, i);
        }
        return;
    }
    let mut k = [0u64; 4];
    for i in 0..4 {
        k[i] = order_key(ext_key(p[i], tri_first), key[at + i]);
    }
    for &(a, b) in &NET4 {
        exchange(&mut k, p, a, b);
    }
}

/// Extended sort key: bit 2 invalid/missed; with triangles-first, bit 1 =
/// not a leaf (type > 3) and bit 0 = type != 1.
#[inline(always)]
fn ext_key(ptr: u32, tri_first: bool) -> u32 {
    if ptr == INVALID_NODE {
        return 4;
    }
    let t = ptr & 7;
    if tri_first {
        (((t > 3) as u32) << 1) | (t != 1) as u32
    } else {
        0
    }
}

/// Per-ray traversal state shared by the loops.
struct RayState<'a> {
    mem: &'a BvhMemory,
    top: StructureRef,
    world: Ray,
    local: Ray,
    inv: Vec3,
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
        RayState {
            mem: &e.memory,
            top: e.top,
            world: *ray,
            local: *ray,
            inv: ray.dir.recip(),
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

    fn restore_world(&mut self) {
        self.local = self.world;
        self.inv = self.world.dir.recip();
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

    /// Test a 4-wide box node; fills 4 result slots (pointer, sort key) unsorted.
    #[inline(always)]
    fn box4(&mut self, ptr: u32, ptrs: &mut [u32; 8], keys: &mut [f32; 8], at: usize) {
        let addr = self.base + ptr_offset(ptr) as u64;
        let node = if ptr_type(ptr) == TYPE_BOX {
            self.c.bytes_fetched += 128;
            BoxNode4::read_fp32(self.mem, addr, self.top_rtip3())
        } else {
            self.c.bytes_fetched += 64;
            BoxNode4::read_fp16(self.mem, addr)
        };
        self.c.box_nodes += 1;
        self.c.box_tests += 4;
        let (o, inv) = if node.obb != NO_OBB {
            let m = &obb_matrices()[node.obb as usize];
            (
                rotate(m, self.local.origin),
                rotate(m, self.local.dir).recip(),
            )
        } else {
            (self.local.origin, self.inv)
        };
        // Every slot is tested and the result selected: a branch on the
        // data-dependent hit would mispredict. An empty slot's planes are
        // whatever the node holds; its result is discarded.
        for i in 0..4 {
            let child = node.children[i];
            let (entry, hit) = slab_entry(o, inv, &node.boxes[i], self.t_max, self.grow);
            let take = hit & (child != INVALID_NODE);
            ptrs[at + i] = if take { child } else { INVALID_NODE };
            keys[at + i] = if take { entry } else { f32::INFINITY };
        }
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
        s.c.steps += 1;
        s.c.nodes_fetched += 1;
        let pair_continuation = prev != INVALID_NODE && ptr_type(prev) == TYPE_TRI1;
        prev = node;
        prev_is_instance = false;
        let mut ptrs = [INVALID_NODE; 8];
        let mut keys = [f32::INFINITY; 8];
        match ptr_type(node) {
            TYPE_BOX | TYPE_BOX16 => {
                s.box4(node, &mut ptrs, &mut keys, 0);
                sort4(&mut ptrs, &keys, 0, tri_first);
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
                let n = TriangleNode::read(s.mem, s.base + ptr_offset(node) as u64, rtip3);
                let [a, b, c] = n.triangle(t);
                s.consider(
                    intersect_triangle(&s.local, a, b, c),
                    n.primitive[t as usize],
                );
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
    let n = TriangleNode::read(s.mem, s.base + ptr_offset(ptr) as u64, rtip3);
    let t = ptr_type(ptr);
    let [a, b, c] = n.triangle(t);
    s.consider(
        intersect_triangle(&s.local, a, b, c),
        n.primitive[t as usize],
    );
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
        let mut keys = [f32::INFINITY; 8];
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
            let mut is_box = [false; 2];
            for (half, p) in [(0usize, y), (1usize, x)] {
                if p >= TERMINAL_NODE {
                    continue;
                }
                s.c.nodes_fetched += 1;
                match ptr_type(p) {
                    TYPE_BOX | TYPE_BOX16 => {
                        s.box4(p, &mut ptrs, &mut keys, 4 * half);
                        is_box[half] = true;
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
            // Each node's results are sorted on their own. Merging the two
            // halves by distance (the hardware's wide sort) would interleave
            // two subtrees, and the stackless walk-back needs the stack in
            // depth-first order to stay exact, so this model never merges them.
            for half in 0..2 {
                if is_box[half] {
                    sort4(&mut ptrs, &keys, 4 * half, tri_first);
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
    TraceResult {
        hit: s.best,
        counters: s.c,
    }
}

/// BVH8: one quantized 8-wide node or one compressed triangle pair per
/// step, push-8/pop-1 with triangles sorted first and primitive ranges
/// drained through the stack (`TraceRay3_1`).
fn trace_bvh8(e: &EncodedBvh, ray: &Ray, opts: &TraversalOptions) -> TraceResult {
    let mut s = RayState::new(e, ray, opts);
    let tri_first = true;
    let mut stack = ShortStack::new(opts.stack_entries.max(8));
    let mut node = e.top.root;
    let mut last = INVALID_NODE;
    let mut parent_box = INVALID_NODE;
    while node < END_SEARCH {
        s.c.steps += 1;
        s.c.nodes_fetched += 1;
        s.c.bytes_fetched += 128;
        let addr = s.base + ptr31_offset(node) as u64;
        let mut ptrs = [INVALID_NODE; 8];
        let mut keys = [f32::INFINITY; 8];
        let t = node & 7;
        let mut instance_step = false;
        if t == TYPE_BOX {
            s.c.box_nodes += 1;
            s.c.box_tests += 8;
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
            let (o, inv) = if node8.obb != NO_OBB {
                let m = &obb_matrices()[node8.obb as usize];
                (rotate(m, s.local.origin), rotate(m, s.local.dir).recip())
            } else {
                (s.local.origin, s.inv)
            };
            let (entries, hit_mask) = node8.slab8(o, inv, s.t_max, s.grow);
            // Selects rather than branches, as in the slab test: whether a
            // child is hit is data-dependent.
            let mut prev_ptr = INVALID_NODE;
            let mut ext = [4u32; 8];
            for slot in 0..8 {
                let ptr = node8.ptrs[slot];
                let hit = (hit_mask >> slot) & 1 != 0;
                // Child reuse (range 0) repeats a pointer: keep the first.
                let take = hit & (ptr != prev_ptr);
                ptrs[slot] = if take { ptr } else { INVALID_NODE };
                keys[slot] = if take { entries[slot] } else { f32::INFINITY };
                ext[slot] = if take { ext_key(ptr, tri_first) } else { 4 };
                prev_ptr = if hit { ptr } else { prev_ptr };
            }
            sort8(&ext, &keys, &mut ptrs, opts.wide_sort);
            parent_box = node;
        } else if t == TYPE_INSTANCE {
            s.c.instance_tests += 1;
            let inst = InstanceNode::read_rtip31(s.mem, addr);
            let blas = blas_at(e, inst.blas_base);
            s.enter_instance(&inst, node, blas);
            instance_step = true;
            // The filter box is tested with the object-space ray.
            let hit = slab(s.local.origin, s.inv, &inst.filter_box, s.t_max, s.grow).is_some();
            ptrs[7] = if hit { blas.root } else { INVALID_NODE };
            ptrs[6] = SKIP_0_7;
        } else if t <= 3 {
            let w: &[u32; 32] = s.mem.block_ref(addr);
            let h = PrimitiveHeader::read(w);
            let pair = pair_index(node);
            let d = h.pair_desc(w, pair);
            for tri in 0..2 {
                if let Some(i) = triangle_indices(d, tri) {
                    s.c.triangle_tests += 1;
                    let (a, b, c) = (h.vertex(w, i[0]), h.vertex(w, i[1]), h.vertex(w, i[2]));
                    let hit = intersect_triangle(&s.local, a, b, c);
                    if hit.is_some() {
                        s.consider(hit, h.primitive_id(w, 2 * pair + tri));
                    }
                }
            }
            ptrs[7] = node;
            last = PRIM_RANGE_UPDATE | h.navigation(d, pair);
        } else {
            break; // not a node type a builder writes
        }
        let prev = node;
        node = stack.push8_pop1(last, &ptrs, true, &mut s.c);
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
    TraceResult {
        hit: s.best,
        counters: s.c,
    }
}
