//! The hardware's child sort (rt.md §11): a sorting network over
//! (extended key, entry distance) per result, of which the traversal keeps
//! only the pointer order.

use crate::encode::pointer::INVALID_NODE;

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
fn exchange<K: PartialOrd + Copy>(k: &mut [K], p: &mut [u32], a: usize, b: usize) {
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
pub(super) fn sort8(ext: &[u32; 8], key: &[f32; 8], ptr: &mut [u32; 8], wide: bool) {
    // With at most one result that is not INVALID, every other entry is the
    // same (INVALID, infinity) and both networks sort completely: the
    // result is that one entry first. Deep in the tree this is the common
    // case, so skip the 19 compare-exchanges.
    if at_most_one_real_first(ptr) {
        return;
    }
    let mut k = order_keys8(ext, key, wide);
    for &(a, b) in &NET8 {
        exchange(&mut k, ptr, a, b);
    }
}

/// The 8 results' order keys for [`sort8`]'s network: the narrow sort adds
/// the half as the lowest extended-key bit.
#[inline(always)]
fn order_keys8(ext: &[u32; 8], key: &[f32; 8], wide: bool) -> [u64; 8] {
    let mut k = [0u64; 8];
    for i in 0..8 {
        let e = if wide {
            ext[i]
        } else {
            (ext[i] << 1) | (i >= 4) as u32
        };
        k[i] = order_key(e, key[i]);
    }
    k
}

/// Sort the 4 results at `at..at + 4` with the 4-input network, pointers
/// only (nothing reads the keys afterwards): the order keys are built once
/// and moved with the pointers by the network's compare-exchanges
/// ([`exchange`]).
#[inline(always)]
pub(super) fn sort4(ptr: &mut [u32; 8], key: &[f32; 8], at: usize, tri_first: bool) {
    let p: &mut [u32; 4] = (&mut ptr[at..at + 4]).try_into().expect("4 slots");
    // With at most one real result the other three are identical (INVALID,
    // infinity, extended key 4, after any real one): the network leaves the
    // real one first, so move it there without the 5 compare-exchanges.
    if at_most_one_real_first(p) {
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

/// [`sort8`] of the results `take` keeps (bit `slot`) out of a BVH8 node's
/// children `ptr` with entry distances `key`, triangles first: the sorted
/// pointers, INVALID for the rest, and how many were taken. Most steps
/// take at most three children: one needs no sort, and two or three with
/// different order keys have only one sorted order, which any complete
/// sort (so the network) gives; those skip the network. Equal keys, or
/// more children, go through it, since which of two equal ones it puts
/// first depends on its wiring.
#[inline(always)]
pub(super) fn sort8_taken(
    take: u32,
    ptr: &[u32; 8],
    key: &[f32; 8],
    wide: bool,
) -> ([u32; 8], u32) {
    let ext = |i: usize| {
        let e = ext_key(ptr[i], true);
        if wide {
            e
        } else {
            (e << 1) | (i >= 4) as u32
        }
    };
    let mut out = [INVALID_NODE; 8];
    let order = |i: usize| order_key(ext(i), key[i]);
    if let Some(n) = sort_at_most_two(take, &mut out, |i| ptr[i], order) {
        return (out, n);
    }
    if sort_three(take, &mut out, |i| ptr[i], order) {
        return (out, 3);
    }
    let mut k = [f32::INFINITY; 8];
    let mut e = [4u32; 8];
    for i in 0..8 {
        if (take >> i) & 1 != 0 {
            out[i] = ptr[i];
            k[i] = key[i];
            e[i] = ext_key(ptr[i], true);
        }
    }
    sort8(&e, &k, &mut out, wide);
    (out, take.count_ones())
}

/// [`sort4`] of the results `take` keeps (bit `slot`) out of a 4-wide
/// node's children `ptr` with entry distances `key`: the sorted pointers,
/// INVALID for the rest, found as [`sort8_taken`] finds them.
#[inline(always)]
pub(super) fn sort4_taken(take: u32, ptr: &[u32; 4], key: &[f32; 4], tri_first: bool) -> [u32; 4] {
    let mut out = [INVALID_NODE; 4];
    debug_assert!((0..4).all(|i| take >> i & 1 == 0 || ptr[i] != INVALID_NODE));
    if tri_first {
        let order = |i: usize| order_key(ext_key(ptr[i & 3], true), key[i & 3]);
        if sort_at_most_two(take, &mut out, |i| ptr[i & 3], order).is_some()
            || sort_three(take, &mut out, |i| ptr[i & 3], order)
        {
            return out;
        }
    } else {
        // Without triangles first, a taken child (never INVALID) has
        // extended key 0, so two taken children's order keys compare as
        // their entry distances do: those are never negative nor NaN, and
        // -0.0 equals +0.0 as the order key folds them. The shortcuts then
        // compare the distances themselves.
        let order = |i: usize| key[i & 3];
        if sort_at_most_two(take, &mut out, |i| ptr[i & 3], order).is_some()
            || sort_three(take, &mut out, |i| ptr[i & 3], order)
        {
            return out;
        }
    }
    sort4_taken_network(take, ptr, key, tri_first)
}

/// [`sort4_taken`] through the network: four children taken, or ties.
/// Rare, and out of line so that the hot path keeps the entry distances in
/// one vector instead of taking the lanes apart for it.
#[inline(never)]
fn sort4_taken_network(take: u32, ptr: &[u32; 4], key: &[f32; 4], tri_first: bool) -> [u32; 4] {
    let mut out = [INVALID_NODE; 8];
    let mut k = [f32::INFINITY; 8];
    for i in 0..4 {
        if (take >> i) & 1 != 0 {
            out[i] = ptr[i];
            k[i] = key[i];
        }
    }
    sort4(&mut out, &k, 0, tri_first);
    [out[0], out[1], out[2], out[3]]
}

/// The shortcuts of [`sort8_taken`]: with at most one result taken, or
/// two with different order keys (`order` of a slot), write them to `out`
/// in sorted order and give their number; else `None`.
#[inline(always)]
fn sort_at_most_two<K: PartialOrd + Copy, const N: usize>(
    take: u32,
    out: &mut [u32; N],
    ptr: impl Fn(usize) -> u32,
    order: impl Fn(usize) -> K,
) -> Option<u32> {
    let first = (take.trailing_zeros() & 7) as usize;
    let rest = take & take.wrapping_sub(1);
    if rest == 0 {
        // No result at all reads slot 0 and throws it away.
        out[0] = if take != 0 { ptr(first) } else { INVALID_NODE };
        return Some(u32::from(take != 0));
    }
    if rest & rest.wrapping_sub(1) != 0 {
        return None;
    }
    let second = (rest.trailing_zeros() & 7) as usize;
    let (a, b) = (order(first), order(second));
    if a == b {
        return None;
    }
    let (p, q) = (ptr(first), ptr(second));
    out[0] = if b < a { q } else { p };
    out[1] = if b < a { p } else { q };
    Some(2)
}

/// The next shortcut of [`sort8_taken`]: with exactly three results taken
/// and their order keys all different, write them to `out` in their one
/// sorted order (three compare-exchanges) and say so.
#[inline(always)]
fn sort_three<K: PartialOrd + Copy, const N: usize>(
    take: u32,
    out: &mut [u32; N],
    ptr: impl Fn(usize) -> u32,
    order: impl Fn(usize) -> K,
) -> bool {
    let rest = take & take.wrapping_sub(1);
    let last = rest & rest.wrapping_sub(1);
    if take.count_ones() != 3 {
        return false;
    }
    let slot = |m: u32| (m.trailing_zeros() & 7) as usize;
    let (a, b, c) = (slot(take), slot(rest), slot(last));
    let mut k = [order(a), order(b), order(c)];
    if k[0] == k[1] || k[1] == k[2] || k[0] == k[2] {
        return false;
    }
    let mut p = [ptr(a), ptr(b), ptr(c)];
    for (a, b) in [(0, 1), (1, 2), (0, 1)] {
        exchange(&mut k, &mut p, a, b);
    }
    out[..3].copy_from_slice(&p);
    true
}

/// If at most one of `p` is a real result (not INVALID), move it to slot 0
/// and say so. Counted as a bit mask rather than by searching: the search's
/// loop exits mispredict.
#[inline(always)]
fn at_most_one_real_first<const N: usize>(p: &mut [u32; N]) -> bool {
    let mut m = 0u32;
    for i in 0..N {
        m |= u32::from(p[i] != INVALID_NODE) << i;
    }
    if m & m.wrapping_sub(1) != 0 {
        return false;
    }
    // No real result: trailing_zeros is 32, and slot 0 swaps with itself.
    p.swap(0, m.trailing_zeros() as usize % N);
    true
}

/// Extended sort key: bit 2 invalid/missed; with triangles-first, bit 1 =
/// not a leaf (type > 3) and bit 0 = type != 1.
#[inline(always)]
pub(super) fn ext_key(ptr: u32, tri_first: bool) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcuts give the networks' order on random results, ties and
    /// empty slots included, in both sorts and every mode.
    #[test]
    fn sorts_match_the_networks() {
        let mut rng = crate::rng::SplitMix64::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move || rng.next_u32();
        let types = [0u32, 1, 4, 5, 6];
        for _ in 0..20_000 {
            let mut ptr = [INVALID_NODE; 8];
            let fill = next() % 4; // 1 in 4: at most one real result
            let mut key = [f32::INFINITY; 8];
            let mut ext = [4u32; 8];
            for i in 0..8 {
                if next() % 3 != 0 && (fill != 0 || i == 5) {
                    ptr[i] = (i as u32 + 1) << 4 | types[(next() % 5) as usize];
                    // Few distinct distances, so that ties are common.
                    key[i] = [0.0, 0.5, 1.0, 2.5][(next() % 4) as usize];
                    ext[i] = ext_key(ptr[i], true);
                }
            }
            for wide in [false, true] {
                let mut want = ptr;
                let mut k = order_keys8(&ext, &key, wide);
                for &(a, b) in &NET8 {
                    exchange(&mut k, &mut want, a, b);
                }
                let mut got = ptr;
                sort8(&ext, &key, &mut got, wide);
                assert_eq!(got, want, "sort8 wide {wide} {ptr:x?} {key:?}");
            }
            // The taken-result sorts: the network's order over the taken
            // slots of the node's children (INVALID elsewhere).
            let take = (0..8).fold(0u32, |m, i| m | u32::from(ptr[i] != INVALID_NODE) << i);
            let node: [u32; 8] = std::array::from_fn(|i| (i as u32 + 1) << 4 | types[i % 5]);
            let dist: [f32; 8] =
                std::array::from_fn(|i| if take >> i & 1 != 0 { key[i] } else { 7.0 });
            for wide in [false, true] {
                let mut want = ptr;
                let e: [u32; 8] = std::array::from_fn(|i| ext_key(ptr[i], true));
                let mut k = order_keys8(&e, &key, wide);
                for &(a, b) in &NET8 {
                    exchange(&mut k, &mut want, a, b);
                }
                let mut node = node;
                for i in 0..8 {
                    if take >> i & 1 != 0 {
                        node[i] = ptr[i];
                    }
                }
                let (got, n) = sort8_taken(take, &node, &dist, wide);
                assert_eq!(
                    (got, n),
                    (want, take.count_ones()),
                    "sort8_taken {ptr:x?} {key:?}"
                );
            }
            for tri_first in [false, true] {
                let mut want = ptr;
                let mut k = [0u64; 4];
                for i in 0..4 {
                    k[i] = order_key(ext_key(ptr[i], tri_first), key[i]);
                }
                for &(a, b) in &NET4 {
                    exchange(&mut k, &mut want[..4], a, b);
                }
                let take4 = take & 15;
                let node4: [u32; 4] =
                    std::array::from_fn(|i| if take4 >> i & 1 != 0 { ptr[i] } else { node[i] });
                let dist4: [f32; 4] = std::array::from_fn(|i| dist[i]);
                let got = sort4_taken(take4, &node4, &dist4, tri_first);
                assert_eq!(got, want[..4], "sort4_taken {ptr:x?} {key:?}");
            }
            for tri_first in [false, true] {
                for at in [0, 4] {
                    let mut want = ptr;
                    let mut k = [0u64; 4];
                    for i in 0..4 {
                        k[i] = order_key(ext_key(ptr[at + i], tri_first), key[at + i]);
                    }
                    let mut p = [ptr[at], ptr[at + 1], ptr[at + 2], ptr[at + 3]];
                    for &(a, b) in &NET4 {
                        exchange(&mut k, &mut p, a, b);
                    }
                    want[at..at + 4].copy_from_slice(&p);
                    let mut got = ptr;
                    sort4(&mut got, &key, at, tri_first);
                    assert_eq!(got, want, "sort4 at {at} {ptr:x?} {key:?}");
                }
            }
        }
    }
}
