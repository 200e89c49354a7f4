//! The BVH8 half of the decoded tables: every compressed primitive node's
//! pairs, found by walking the box nodes (whose table `box8` builds).

use super::box8::{DecodedBox8, DecodedBox8Table};
use super::decoded::{AddrTable, DecodedNodes, DecodedPair};
use super::memory::BvhMemory;
use super::pointer::{is_triangle31, ptr31_offset, END_SEARCH, INVALID_NODE, TYPE_BOX};
use super::primitive::{PrimitiveHeader, PRIMITIVE_NODE_BYTES};

impl DecodedNodes {
    /// Decode every compressed primitive node of a BVH8 layout reachable from
    /// the given structure roots (the nodes leaf children point at and those
    /// their ranges go on into), box nodes' children read from `boxes`.
    pub fn build8(
        mem: &BvhMemory,
        roots: impl IntoIterator<Item = (u64, u32)>,
        boxes: &DecodedBox8Table,
    ) -> Self {
        let mut t = DecodedNodes::default();
        t.primitive_nodes = AddrTable::for_memory(mem);
        let node_bytes = u64::from(PRIMITIVE_NODE_BYTES);
        let mut boxes_seen = AddrTable::<()>::for_memory(mem);
        for (base, root) in roots {
            let mut todo = vec![root];
            while let Some(p) = todo.pop() {
                if p >= END_SEARCH {
                    continue;
                }
                let mut addr = base + u64::from(ptr31_offset(p));
                if p & 7 == TYPE_BOX {
                    if addr + node_bytes <= mem.len_bytes() && !boxes_seen.contains(addr) {
                        boxes_seen.insert(addr, ());
                        let d = (boxes.get(addr).copied())
                            .unwrap_or_else(|| DecodedBox8::decode(mem.block_ref(addr)));
                        todo.extend(d.ptrs.iter().copied().filter(|&c| c != INVALID_NODE));
                    }
                    continue;
                }
                if !is_triangle31(p) {
                    continue;
                }
                // A range without a stop bit in a node's last pair goes on
                // in the next node.
                while addr + node_bytes <= mem.len_bytes() && !t.primitive_nodes.contains(addr) {
                    let w: &[u32; 32] = mem.block_ref(addr);
                    let h = PrimitiveHeader::read(w);
                    let start = t.pairs.len() as u32;
                    let mut n = 0;
                    while let Some(d) = DecodedPair::decode(w, &h, n) {
                        t.pairs.push(d);
                        n += 1;
                    }
                    t.primitive_nodes.insert(addr, (start, n));
                    let last = h.pair_desc(w, h.pair_count() - 1);
                    if last & 1 != 0 {
                        break;
                    }
                    addr += node_bytes;
                }
            }
        }
        t
    }
}
