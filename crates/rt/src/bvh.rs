//! BVH construction: a binned-SAH binary BVH, and its collapse into a 4- or
//! 8-wide tree the way gpurt's encoder does (rt.md §13: repeatedly open the
//! child with the largest surface area until the node is full).

use crate::math::Aabb;

/// SAH builder settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildParams {
    /// Most primitives a leaf may hold.
    pub max_leaf_size: usize,
    /// Cost of visiting an inner node, relative to...
    pub box_cost: f32,
    /// ...the cost of testing one primitive.
    pub primitive_cost: f32,
    /// Number of centroid bins per axis.
    pub bins: usize,
}

impl BuildParams {
    /// Settings for RDNA 2/3 BVH4: a leaf is one 64-byte triangle pair node,
    /// and a triangle test costs the RA one clock like a box node.
    pub const BVH4: BuildParams = BuildParams {
        max_leaf_size: 2,
        box_cost: 1.0,
        primitive_cost: 1.0,
        bins: 16,
    };
    /// Settings for RDNA 4 BVH8: a leaf is a range of compressed pairs; one
    /// pair (two triangles) costs one step, gpurt's primitive-range cost is
    /// 1.3 per range against 1.0 per box (rt.md §13).
    pub const BVH8: BuildParams = BuildParams {
        max_leaf_size: 8,
        box_cost: 1.0,
        primitive_cost: 0.65,
        bins: 16,
    };
    /// Settings for a TLAS: one instance per leaf.
    pub const TLAS: BuildParams = BuildParams {
        max_leaf_size: 1,
        box_cost: 1.0,
        primitive_cost: 1.0,
        bins: 16,
    };
}

/// A node of the binary BVH.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bvh2Kind {
    /// Two children, indices into [`Bvh2::nodes`].
    Inner {
        /// Left child.
        left: u32,
        /// Right child.
        right: u32,
    },
    /// A run of `count` entries of [`Bvh2::primitives`] from `first`.
    Leaf {
        /// First entry.
        first: u32,
        /// Number of entries.
        count: u32,
    },
}

/// A node of the binary BVH with its bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bvh2Node {
    /// Bounds of everything below.
    pub bounds: Aabb,
    /// Inner or leaf.
    pub kind: Bvh2Kind,
}

/// A binary BVH over primitives given by their boxes. Node 0 is the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Bvh2 {
    /// Nodes, root first.
    pub nodes: Vec<Bvh2Node>,
    /// Primitive indices in leaf order.
    pub primitives: Vec<u32>,
}

struct Item {
    bounds: Aabb,
    centroid: [f32; 3],
    index: u32,
}

impl Bvh2 {
    /// Build with binned SAH over the primitive boxes.
    pub fn build(boxes: &[Aabb], params: &BuildParams) -> Bvh2 {
        let mut items: Vec<Item> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| Item {
                bounds: *b,
                centroid: b.center().0,
                index: i as u32,
            })
            .collect();
        let mut nodes = vec![Bvh2Node {
            bounds: Aabb::EMPTY,
            kind: Bvh2Kind::Leaf { first: 0, count: 0 },
        }];
        // (node index, start, end) still to be split.
        let mut work = vec![(0usize, 0usize, items.len())];
        let bins = params.bins.max(2);
        while let Some((node, start, end)) = work.pop() {
            let slice = &mut items[start..end];
            let mut bounds = Aabb::EMPTY;
            let mut cbounds = Aabb::EMPTY;
            for it in slice.iter() {
                bounds = bounds.union(&it.bounds);
                cbounds.grow(crate::math::Vec3(it.centroid));
            }
            nodes[node].bounds = bounds;
            let n = slice.len();
            let leaf = Bvh2Kind::Leaf {
                first: start as u32,
                count: n as u32,
            };
            if n <= 1 {
                nodes[node].kind = leaf;
                continue;
            }
            let leaf_cost = params.primitive_cost * n as f32;
            let area = bounds.surface_area().max(f32::MIN_POSITIVE);
            // Best split over the three axes.
            let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, bin boundary)
            for axis in 0..3 {
                let lo = cbounds.min.0[axis];
                let hi = cbounds.max.0[axis];
                if hi <= lo {
                    continue;
                }
                let scale = bins as f32 / (hi - lo);
                let mut bin_box = vec![Aabb::EMPTY; bins];
                let mut bin_n = vec![0usize; bins];
                for it in slice.iter() {
                    let b = (((it.centroid[axis] - lo) * scale) as usize).min(bins - 1);
                    bin_box[b] = bin_box[b].union(&it.bounds);
                    bin_n[b] += 1;
                }
                let mut right_area = vec![0.0f32; bins];
                let mut acc = Aabb::EMPTY;
                let mut acc_n = 0;
                let mut right_n = vec![0usize; bins];
                for b in (1..bins).rev() {
                    acc = acc.union(&bin_box[b]);
                    acc_n += bin_n[b];
                    right_area[b] = acc.surface_area();
                    right_n[b] = acc_n;
                }
                let mut left = Aabb::EMPTY;
                let mut left_n = 0;
                for b in 1..bins {
                    left = left.union(&bin_box[b - 1]);
                    left_n += bin_n[b - 1];
                    if left_n == 0 || right_n[b] == 0 {
                        continue;
                    }
                    let cost = params.box_cost
                        + params.primitive_cost
                            * (left.surface_area() * left_n as f32
                                + right_area[b] * right_n[b] as f32)
                            / area;
                    if best.is_none_or(|(c, _, _)| cost < c) {
                        best = Some((cost, axis, b));
                    }
                }
            }
            let split = match best {
                Some((cost, _, _)) if n <= params.max_leaf_size && cost >= leaf_cost => None,
                Some((_, axis, b)) => {
                    let lo = cbounds.min.0[axis];
                    let scale = bins as f32 / (cbounds.max.0[axis] - lo);
                    let mut i = 0;
                    let mut j = n;
                    while i < j {
                        let bin = (((slice[i].centroid[axis] - lo) * scale) as usize).min(bins - 1);
                        if bin < b {
                            i += 1;
                        } else {
                            j -= 1;
                            slice.swap(i, j);
                        }
                    }
                    Some(i)
                }
                // All centroids coincide: a leaf if allowed, else halve the list.
                None if n <= params.max_leaf_size => None,
                None => Some(n / 2),
            };
            match split {
                None => nodes[node].kind = leaf,
                Some(mid) => {
                    let left = nodes.len();
                    nodes.push(nodes[node]);
                    nodes.push(nodes[node]);
                    nodes[node].kind = Bvh2Kind::Inner {
                        left: left as u32,
                        right: left as u32 + 1,
                    };
                    work.push((left + 1, start + mid, end));
                    work.push((left, start, start + mid));
                }
            }
        }
        Bvh2 {
            nodes,
            primitives: items.iter().map(|i| i.index).collect(),
        }
    }

    /// SAH cost `(C_box * sum(A_inner) + C_prim * sum(A_leaf * N)) / A_root`
    /// (tinybvh's definition with explicit constants, rt.md Part 2).
    pub fn sah_cost(&self, params: &BuildParams) -> f32 {
        let root = self.nodes[0].bounds.surface_area().max(f32::MIN_POSITIVE);
        let mut sum = 0.0f64;
        for n in &self.nodes {
            let a = n.bounds.surface_area() as f64;
            sum += match n.kind {
                Bvh2Kind::Inner { .. } => params.box_cost as f64 * a,
                Bvh2Kind::Leaf { count, .. } => params.primitive_cost as f64 * a * count as f64,
            };
        }
        (sum / root as f64) as f32
    }

    /// The primitives of a leaf.
    pub fn leaf_primitives(&self, first: u32, count: u32) -> &[u32] {
        &self.primitives[first as usize..(first + count) as usize]
    }
}

/// A child of a wide node.
#[derive(Debug, Clone, PartialEq)]
pub enum WideChild {
    /// Another wide node (index into [`WideBvh::nodes`]).
    Node(u32),
    /// A leaf: primitive indices.
    Leaf(Vec<u32>),
}

/// A node of the wide BVH.
#[derive(Debug, Clone, PartialEq)]
pub struct WideNode {
    /// Bounds of everything below.
    pub bounds: Aabb,
    /// Children with their bounds.
    pub children: Vec<(Aabb, WideChild)>,
}

/// A 4- or 8-wide BVH collapsed from a [`Bvh2`]. Node 0 is the root.
#[derive(Debug, Clone, PartialEq)]
pub struct WideBvh {
    /// Nodes, root first.
    pub nodes: Vec<WideNode>,
    /// Branching factor it was collapsed to.
    pub width: usize,
}

impl WideBvh {
    /// Collapse `bvh` to at most `width` children per node. `leaf_slots`
    /// tells how many child slots a leaf takes (a BVH4 leaf whose two
    /// triangles cannot share a pair node takes two).
    pub fn collapse(bvh: &Bvh2, width: usize, leaf_slots: &dyn Fn(&[u32]) -> usize) -> WideBvh {
        let mut out = WideBvh {
            nodes: Vec::new(),
            width,
        };
        let slots = |c: u32| -> usize {
            match bvh.nodes[c as usize].kind {
                Bvh2Kind::Inner { .. } => 1,
                Bvh2Kind::Leaf { first, count } => leaf_slots(bvh.leaf_primitives(first, count)),
            }
        };
        // A root that is a leaf becomes a wide node with that one leaf.
        let mut work = vec![(0u32, 0usize)];
        out.nodes.push(WideNode {
            bounds: bvh.nodes[0].bounds,
            children: Vec::new(),
        });
        while let Some((b2, wide)) = work.pop() {
            let mut kids: Vec<u32> = match bvh.nodes[b2 as usize].kind {
                Bvh2Kind::Inner { left, right } => vec![left, right],
                Bvh2Kind::Leaf { .. } => vec![b2],
            };
            loop {
                let used: usize = kids.iter().map(|&k| slots(k)).sum();
                // Open the inner child with the largest area (ties: the last).
                let mut pick: Option<usize> = None;
                for (i, &k) in kids.iter().enumerate() {
                    if let Bvh2Kind::Inner { left, right } = bvh.nodes[k as usize].kind {
                        let extra = slots(left) + slots(right) - 1;
                        if used + extra > width {
                            continue;
                        }
                        let a = bvh.nodes[k as usize].bounds.surface_area();
                        if pick
                            .is_none_or(|p| a >= bvh.nodes[kids[p] as usize].bounds.surface_area())
                        {
                            pick = Some(i);
                        }
                    }
                }
                match pick {
                    Some(i) => {
                        let k = kids.remove(i);
                        if let Bvh2Kind::Inner { left, right } = bvh.nodes[k as usize].kind {
                            kids.insert(i, right);
                            kids.insert(i, left);
                        }
                    }
                    None => break,
                }
            }
            let mut children = Vec::with_capacity(kids.len());
            for k in kids {
                let n = &bvh.nodes[k as usize];
                match n.kind {
                    Bvh2Kind::Leaf { first, count } => children.push((
                        n.bounds,
                        WideChild::Leaf(bvh.leaf_primitives(first, count).to_vec()),
                    )),
                    Bvh2Kind::Inner { .. } => {
                        let idx = out.nodes.len();
                        out.nodes.push(WideNode {
                            bounds: n.bounds,
                            children: Vec::new(),
                        });
                        children.push((n.bounds, WideChild::Node(idx as u32)));
                        work.push((k, idx));
                    }
                }
            }
            out.nodes[wide].children = children;
        }
        out
    }

    /// SAH cost of the wide tree with the same constants as [`Bvh2::sah_cost`].
    pub fn sah_cost(&self, params: &BuildParams) -> f32 {
        let root = self.nodes[0].bounds.surface_area().max(f32::MIN_POSITIVE) as f64;
        let mut sum = 0.0f64;
        for n in &self.nodes {
            sum += params.box_cost as f64 * n.bounds.surface_area() as f64;
            for (b, c) in &n.children {
                if let WideChild::Leaf(p) = c {
                    sum += params.primitive_cost as f64 * b.surface_area() as f64 * p.len() as f64;
                }
            }
        }
        (sum / root) as f32
    }

    /// Depth of the tree (a root with only leaves has depth 1).
    pub fn depth(&self) -> usize {
        let mut best = 0;
        let mut work = vec![(0usize, 1usize)];
        while let Some((n, d)) = work.pop() {
            best = best.max(d);
            for (_, c) in &self.nodes[n].children {
                if let WideChild::Node(k) = c {
                    work.push((*k as usize, d + 1));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    fn boxes(n: usize) -> Vec<Aabb> {
        (0..n)
            .map(|i| {
                let p = Vec3::new(
                    (i % 7) as f32,
                    (i / 7 % 5) as f32 * 1.3,
                    (i / 35) as f32 * 0.7,
                );
                Aabb {
                    min: p,
                    max: p + Vec3::new(0.5, 0.5, 0.5),
                }
            })
            .collect()
    }

    #[test]
    fn every_primitive_is_in_exactly_one_leaf() {
        let b = boxes(300);
        let bvh = Bvh2::build(&b, &BuildParams::BVH4);
        let mut seen = vec![0; b.len()];
        for n in &bvh.nodes {
            if let Bvh2Kind::Leaf { first, count } = n.kind {
                assert!(count as usize <= BuildParams::BVH4.max_leaf_size);
                for &p in bvh.leaf_primitives(first, count) {
                    seen[p as usize] += 1;
                    assert!(n.bounds.contains(&b[p as usize]));
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
        assert!(bvh.sah_cost(&BuildParams::BVH4) > 1.0);
    }

    #[test]
    fn collapse_respects_width_and_keeps_all_primitives() {
        let b = boxes(500);
        let bvh = Bvh2::build(&b, &BuildParams::BVH8);
        for width in [4, 8] {
            let w = WideBvh::collapse(&bvh, width, &|_| 1);
            let mut count = 0;
            for n in &w.nodes {
                assert!(n.children.len() <= width && !n.children.is_empty());
                for (cb, c) in &n.children {
                    assert!(n.bounds.contains(cb));
                    if let WideChild::Leaf(p) = c {
                        count += p.len();
                    }
                }
            }
            assert_eq!(count, b.len());
        }
        let w4 = WideBvh::collapse(&bvh, 4, &|_| 1);
        let w8 = WideBvh::collapse(&bvh, 8, &|_| 1);
        assert!(w8.depth() < w4.depth());
        assert!(w8.nodes.len() < w4.nodes.len());
    }
}
