//! The LDS short traversal stacks (rt.md §11).
//!
//! * [`RingStack`]: RDNA 3's `DS_BVH_STACK_RTN_B32` (push 4, pop 1), which
//!   RDNA 4 keeps as `PUSH4_POP1` and RDNA 2's gpurt emulates in software. A
//!   ring indexed by an ever-growing counter; a pop writes INVALID back, so
//!   popping a slot whose entry was overwritten by a deeper push returns
//!   INVALID, which sends the shader into a stackless walk-back.
//! * [`ShortStack`]: RDNA 4's packed-address stack (`PUSH8_POP1`,
//!   `PUSH8_POP2`): a ring with a valid-entry count, an overflow bit, TLAS
//!   bookkeeping and the primitive-range update.
//!
//! Both follow gpurt's emulations (`bvh_stack_dxr_prototype.hlsl`,
//! `rtip3_ds_stack_emulation.hlsl`).

use super::counters::RayCounters;
use crate::encode::pointer::*;

/// Largest capacity either stack models (RDNA 3 size code 3).
pub const MAX_STACK_ENTRIES: usize = 64;

/// RDNA 3 style ring stack.
#[derive(Debug, Clone)]
pub struct RingStack {
    ring: [u32; MAX_STACK_ENTRIES],
    capacity: u32,
    index: u32,
}

impl RingStack {
    /// A stack of `capacity` entries (1..=64).
    pub fn new(capacity: u32) -> RingStack {
        RingStack {
            ring: [INVALID_NODE; MAX_STACK_ENTRIES],
            capacity: capacity.clamp(1, MAX_STACK_ENTRIES as u32),
            index: 0,
        }
    }

    /// The stack index (entries pushed minus entries popped).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Undo the decrement of a pop that returned INVALID (the shader does
    /// this before its walk-back).
    pub fn restore_after_invalid_pop(&mut self) {
        self.index += 1;
    }

    /// The ring slot of stack index `i`. Capacities are powers of two in
    /// practice (the driver's 8 and 16): a mask then, not a division.
    #[inline(always)]
    fn slot(&self, i: u32) -> usize {
        let s = if self.capacity.is_power_of_two() {
            i & (self.capacity - 1)
        } else {
            i % self.capacity
        };
        // `s < capacity <= MAX_STACK_ENTRIES` already: the mask only lets
        // the compiler drop the bounds check.
        s as usize & (MAX_STACK_ENTRIES - 1)
    }

    #[inline(always)]
    fn push(&mut self, v: u32, c: &mut RayCounters) {
        let slot = self.slot(self.index);
        if self.ring[slot] != INVALID_NODE {
            c.stack_overflows += 1;
        }
        self.ring[slot] = v;
        c.stack_pushes += 1;
        if self.index < 0x3FFFF {
            self.index += 1;
        }
    }

    /// Push `data[3], data[2], data[1]` (farthest first) and return
    /// `data[0]` directly; if `data[0]` is INVALID, pop instead. With a real
    /// `last` (walk-back), only entries after the one equal to `last` are
    /// pushed, and nothing if none matches.
    #[inline(always)]
    pub fn store(&mut self, last: u32, data: [u32; 4], c: &mut RayCounters) -> u32 {
        if last != INVALID_NODE {
            // A `last` no entry matches pushes nothing and pops: the common
            // case (BVH4's tri0 step passes TERMINAL with no entries), kept
            // inline rather than in the out-of-line walk-back.
            if !data.contains(&last) {
                return self.pop_or_terminal(c);
            }
            return self.store_walk_back(last, data, c);
        }
        // No walk-back (the common step, inlined): every real entry counts,
        // so the `last` matching reduces to this.
        for &d in data[1..].iter().rev() {
            if d != INVALID_NODE {
                self.push(d, c);
            }
        }
        if data[0] != INVALID_NODE {
            data[0]
        } else {
            self.pop_or_terminal(c)
        }
    }

    /// [`RingStack::store`] with a real `last`.
    #[inline(never)]
    fn store_walk_back(&mut self, last: u32, data: [u32; 4], c: &mut RayCounters) -> u32 {
        let mut lv = data.contains(&last);
        let mut addr = INVALID_NODE;
        for i in (0..4).rev() {
            lv = lv && data[i] != last;
            if lv && data[i] != INVALID_NODE {
                if i == 0 {
                    addr = data[0];
                } else {
                    self.push(data[i], c);
                }
            }
        }
        if addr == INVALID_NODE {
            addr = self.pop_or_terminal(c);
        }
        addr
    }

    /// Pop the top entry (writing INVALID back), TERMINAL when empty.
    #[inline(always)]
    fn pop_or_terminal(&mut self, c: &mut RayCounters) -> u32 {
        if self.index == 0 {
            return TERMINAL_NODE;
        }
        self.index -= 1;
        let slot = self.slot(self.index);
        let addr = self.ring[slot];
        self.ring[slot] = INVALID_NODE;
        c.stack_pops += 1;
        addr
    }
}

/// RDNA 4 packed-address stack.
#[derive(Debug, Clone)]
pub struct ShortStack {
    ring: [u32; MAX_STACK_ENTRIES],
    capacity: u32,
    addr: u32,
    valid: u32,
    to_tlas: u32,
    has_tlas: bool,
    overflowed: bool,
    /// Set by the last pop when it crossed from BLAS entries into TLAS ones
    /// (the shader then restores the world ray); the shader also sets it
    /// when a walk-back leaves a BLAS.
    pub blas_to_tlas: bool,
}

#[inline]
fn node_type3(p: u32) -> u32 {
    p & 7
}

impl ShortStack {
    /// A stack of `capacity` entries (1..=64; the driver uses 16).
    pub fn new(capacity: u32) -> ShortStack {
        ShortStack {
            ring: [INVALID_NODE; MAX_STACK_ENTRIES],
            capacity: capacity.clamp(1, MAX_STACK_ENTRIES as u32),
            addr: 0,
            valid: 0,
            to_tlas: 0,
            has_tlas: false,
            overflowed: false,
            blas_to_tlas: false,
        }
    }

    fn push(&mut self, v: u32, c: &mut RayCounters) {
        if self.valid == self.capacity {
            self.overflowed = true;
            c.stack_overflows += 1;
        }
        self.ring[self.addr as usize] = v;
        // addr < capacity always: wrap with a compare, not a division.
        self.addr = if self.addr + 1 == self.capacity {
            0
        } else {
            self.addr + 1
        };
        if self.to_tlas == self.capacity {
            self.has_tlas = false;
        }
        self.to_tlas = (self.to_tlas + 1).min(self.capacity);
        self.valid = (self.valid + 1).min(self.capacity);
        c.stack_pushes += 1;
    }

    fn pop(&mut self, c: &mut RayCounters) -> u32 {
        self.blas_to_tlas = self.to_tlas == 0 && self.has_tlas;
        if self.blas_to_tlas {
            self.has_tlas = false;
        }
        if self.valid == 0 {
            self.blas_to_tlas = false;
            self.has_tlas = false;
            return if self.overflowed {
                INVALID_NODE
            } else {
                TERMINAL_NODE
            };
        }
        self.to_tlas = self.to_tlas.saturating_sub(1);
        self.valid -= 1;
        self.addr = self.below(self.addr);
        let r = self.ring[self.addr as usize];
        c.stack_pops += 1;
        self.note_popped(r);
        r
    }

    /// What popping `r` does to the levels: an instance node starts a
    /// bottom level, and the entries of an outer BVH still on the stack
    /// are dropped (the overflow bit lets the walk-back find them again).
    #[inline(always)]
    fn note_popped(&mut self, r: u32) {
        if node_type3(r) == TYPE_INSTANCE {
            if self.has_tlas {
                self.valid = self.to_tlas;
                self.overflowed = true;
            }
            self.has_tlas = true;
            self.to_tlas = 0;
        }
    }

    /// The ring address below `a` (which is < capacity).
    #[inline(always)]
    fn below(&self, a: u32) -> u32 {
        if a == 0 {
            self.capacity - 1
        } else {
            a - 1
        }
    }

    /// Pop one more entry without crossing into TLAS entries or popping an
    /// instance; INVALID when it cannot.
    fn try_pop(&mut self, c: &mut RayCounters) -> u32 {
        if (self.to_tlas == 0 && self.has_tlas) || self.valid == 0 {
            return INVALID_NODE;
        }
        let a = self.below(self.addr);
        let r = self.ring[a as usize];
        if node_type3(r) == TYPE_INSTANCE {
            return INVALID_NODE;
        }
        self.addr = a;
        self.to_tlas = self.to_tlas.saturating_sub(1);
        self.valid -= 1;
        c.stack_pops += 1;
        r
    }

    /// Push the 8 results (slot 7 first, so slot 0 ends on top).
    /// `rtip31` enables primitive matching in walk-back and the
    /// primitive-range update driven by `last`.
    fn push8(&mut self, last: u32, r: &[u32; 8], rtip31: bool, c: &mut RayCounters) {
        // The common step: no walk-back, no range update, and no sentinel
        // but INVALID among the results. Then nothing is skipped and every
        // real result is pushed, slot 7 first (what the general path below
        // computes for these inputs, without its per-slot flag logic).
        if last == INVALID_NODE && r.iter().all(|&n| n == INVALID_NODE || !is_sentinel(n)) {
            for &n in r.iter().rev() {
                if n != INVALID_NODE {
                    self.push(n, c);
                }
            }
            return;
        }
        let stackless = !is_sentinel(last);
        let mut d = [false; 8];
        for i in 0..8 {
            d[i] = r[i] == last || (rtip31 && node_type3(r[i]) <= 3);
        }
        let mut data_valid = !stackless || d.iter().any(|&x| x);
        let mut range_update = false;
        if rtip31 {
            range_update = last & 4 == 0 && !stackless;
            let range_end = range_update && last & 2 != 0;
            let last_is_prim = node_type3(last) <= 3;
            data_valid = (data_valid || last_is_prim) && !range_end;
        }
        let (mut skip03, mut skip47) = (false, false);
        for i in (4..8).rev() {
            let node = r[i];
            let sentinel = is_sentinel(node);
            skip03 |= sentinel && node & 2 == 0 && data_valid && !skip47;
            skip47 |= sentinel && node & 4 == 0 && data_valid && !skip47;
            if i == 6 && rtip31 && range_update {
                skip03 = true;
                skip47 = true;
            }
            if stackless && d[i] {
                data_valid = false;
            }
            if data_valid && !sentinel && !skip47 {
                let v = if i == 7 && rtip31 && range_update {
                    update_primitive_range(node, last & 1 != 0)
                } else {
                    node
                };
                self.push(v, c);
            }
        }
        for i in (0..4).rev() {
            let node = r[i];
            let sentinel = is_sentinel(node);
            skip03 |= sentinel && node & 2 == 0 && data_valid && !skip03;
            if stackless && d[i] {
                data_valid = false;
            }
            if data_valid && !sentinel && !skip03 {
                self.push(node, c);
            }
        }
    }

    /// `DS_BVH_STACK_PUSH8_POP1`: push the results, return the top.
    pub fn push8_pop1(
        &mut self,
        last: u32,
        r: &[u32; 8],
        rtip31: bool,
        c: &mut RayCounters,
    ) -> u32 {
        self.push8(last, r, rtip31, c);
        self.pop(c)
    }

    /// [`ShortStack::push8_pop1`] without a walk-back or range update
    /// (`last` INVALID) of results sorted real first: `r[..n]` real,
    /// INVALID after. If none of those is a sentinel, the general push
    /// pushes exactly them, last first, and that is done here without its
    /// per-slot tests.
    /// `sentinel_free` says that no real one is a sentinel (else the
    /// general push runs).
    #[inline(always)]
    pub fn push_sorted_pop1(
        &mut self,
        r: &[u32; 8],
        n: u32,
        sentinel_free: bool,
        c: &mut RayCounters,
    ) -> u32 {
        let n = (n as usize).min(8);
        if !sentinel_free {
            return self.push8_pop1(INVALID_NODE, r, true, c);
        }
        for &p in r[1..n.max(1)].iter().rev() {
            self.push(p, c);
        }
        if n == 0 {
            self.pop(c)
        } else {
            self.push_then_pop(r[0], c)
        }
    }

    /// [`ShortStack::push_sorted_pop1`] of at most one real result (no
    /// sentinel): push `only` and pop it, or just pop when there is none.
    #[inline(always)]
    pub fn push_one_pop1(&mut self, only: Option<u32>, c: &mut RayCounters) -> u32 {
        match only {
            Some(v) => self.push_then_pop(v, c),
            None => self.pop(c),
        }
    }

    /// `push(v)` followed by `pop()`, which returns `v`: the state and
    /// counters both leave, without going round the ring. The push counts
    /// an overflow into a full stack and keeps `has_tlas` as it does; the
    /// pop then finds a TLAS count of at least one (so no BLAS-to-TLAS
    /// crossing) and undoes the push's increments, which saturate at the
    /// capacity; popping an instance does what [`ShortStack::pop`] does.
    #[inline(always)]
    fn push_then_pop(&mut self, v: u32, c: &mut RayCounters) -> u32 {
        let cap = self.capacity;
        if self.valid == cap {
            self.overflowed = true;
            c.stack_overflows += 1;
        }
        if self.to_tlas == cap {
            self.has_tlas = false;
        }
        // The pushed slot is above the top again; written as push leaves it.
        self.ring[self.addr as usize] = v;
        self.to_tlas -= u32::from(self.to_tlas == cap);
        self.valid -= u32::from(self.valid == cap);
        self.blas_to_tlas = false;
        c.stack_pushes += 1;
        c.stack_pops += 1;
        self.note_popped(v);
        v
    }

    /// [`ShortStack::push8_pop1`] of a BVH8 primitive step: the results
    /// are INVALID but slot 7, the primitive pointer `node` (never a
    /// sentinel), and `last` is the range update (`PRIM_RANGE_UPDATE` with
    /// the navigation bits). For those inputs the general push comes down
    /// to this: unless the range ended, push `node`, advanced past the
    /// pair when the update asks for it. (With navigation 7, `last` is
    /// INVALID and the plain push of `node` is what this does too.)
    #[inline(always)]
    pub fn push_range_pop1(&mut self, node: u32, last: u32, c: &mut RayCounters) -> u32 {
        debug_assert!(!is_sentinel(node) && is_sentinel(last));
        let range_update = last & 4 == 0;
        let range_end = range_update && last & 2 != 0;
        if !range_end {
            let v = if range_update {
                update_primitive_range(node, last & 1 != 0)
            } else {
                node
            };
            self.push(v, c);
        }
        self.pop(c)
    }

    /// `DS_BVH_STACK_PUSH8_POP2` (BVH4x2): push, then pop two paths. A
    /// popped tri1 pointer brings its tri0 (same node) as the second path.
    /// Returns `(first, second, first_is_generated_tri0)`; `first` is valid
    /// whenever anything was popped.
    pub fn push8_pop2(&mut self, last: u32, r: &[u32; 8], c: &mut RayCounters) -> (u32, u32, bool) {
        self.push8(last, r, false, c);
        let mut res2 = self.pop(c);
        let mut generated = false;
        let mut res1;
        if !is_sentinel(res2) && node_type3(res2) == TYPE_TRI1 {
            res1 = res2 & !7;
            generated = true;
        } else {
            res1 = self.try_pop(c);
            if res1 == INVALID_NODE {
                res1 = res2;
                res2 = INVALID_NODE;
            }
        }
        (res1, res2, generated)
    }
}

/// Advance a primitive pointer after a pair: next pair (type 3 steps to 8),
/// or pair 0 of the next 128-byte node.
#[inline]
pub fn update_primitive_range(node: u32, end_of_node: bool) -> u32 {
    if end_of_node {
        (node & !0xF) + 0x10
    } else if node & 0xF == 3 {
        node ^ 0xB
    } else {
        node + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_stack_returns_closest_directly_and_detects_loss() {
        let mut c = RayCounters::default();
        let mut s = RingStack::new(2);
        // Push 3 (w, z, y) into a ring of 2: the first is overwritten.
        assert_eq!(s.store(INVALID_NODE, [10, 11, 12, 13], &mut c), 10);
        assert_eq!(c.stack_pushes, 3);
        assert_eq!(c.stack_overflows, 1);
        assert_eq!(s.store(TERMINAL_NODE, [INVALID_NODE; 4], &mut c), 11);
        assert_eq!(s.store(TERMINAL_NODE, [INVALID_NODE; 4], &mut c), 12);
        // 13 was lost: the slot now reads INVALID.
        assert_eq!(
            s.store(TERMINAL_NODE, [INVALID_NODE; 4], &mut c),
            INVALID_NODE
        );
        s.restore_after_invalid_pop();
        // Walk-back: re-test gives the same list; only entries after `last` = 12 are pushed.
        assert_eq!(s.store(12, [10, 11, 12, 13], &mut c), 13);
    }

    #[test]
    fn short_stack_overflow_and_walk_back_push() {
        let mut c = RayCounters::default();
        let mut s = ShortStack::new(4);
        let r = [
            1 << 4 | 5,
            2 << 4 | 5,
            3 << 4 | 5,
            4 << 4 | 5,
            5 << 4 | 5,
            6 << 4 | 5,
            INVALID_NODE,
            INVALID_NODE,
        ];
        assert_eq!(s.push8_pop1(INVALID_NODE, &r, true, &mut c), 1 << 4 | 5);
        assert_eq!(c.stack_overflows, 2);
        for want in [2, 3, 4] {
            assert_eq!(
                s.push8_pop1(INVALID_NODE, &[INVALID_NODE; 8], true, &mut c),
                want << 4 | 5
            );
        }
        assert_eq!(
            s.push8_pop1(INVALID_NODE, &[INVALID_NODE; 8], true, &mut c),
            INVALID_NODE
        );
        // Walk-back from child 4: only 5 and 6 (sorted after it) come back.
        assert_eq!(s.push8_pop1(4 << 4 | 5, &r, true, &mut c), 5 << 4 | 5);
        assert_eq!(
            s.push8_pop1(INVALID_NODE, &[INVALID_NODE; 8], true, &mut c),
            6 << 4 | 5
        );
    }

    /// `push_then_pop` leaves what `push` then `pop` leave, on random
    /// walks over small stacks with instances among the entries.
    #[test]
    fn push_then_pop_matches_push_and_pop() {
        let mut rng = crate::rng::SplitMix64::new(0x1234_5678_9ABC_DEF0);
        let mut next = move || rng.next_u32();
        for cap in [1u32, 2, 3, 8] {
            let (mut a, mut b) = (ShortStack::new(cap), ShortStack::new(cap));
            let (mut ca, mut cb) = (RayCounters::default(), RayCounters::default());
            for step in 0..20_000 {
                let v = (next() % 50 + 1) << 4 | [0, 5, 5, 6][(next() % 4) as usize];
                match next() % 3 {
                    0 => {
                        a.push(v, &mut ca);
                        b.push(v, &mut cb);
                    }
                    1 => {
                        assert_eq!(a.pop(&mut ca), b.pop(&mut cb));
                    }
                    _ => {
                        a.push(v, &mut ca);
                        assert_eq!(a.pop(&mut ca), v);
                        assert_eq!(b.push_then_pop(v, &mut cb), v);
                    }
                }
                assert_eq!(cb, ca, "cap {cap} step {step}");
                assert_eq!(
                    (
                        b.addr,
                        b.valid,
                        b.to_tlas,
                        b.has_tlas,
                        b.overflowed,
                        b.blas_to_tlas,
                        b.ring
                    ),
                    (
                        a.addr,
                        a.valid,
                        a.to_tlas,
                        a.has_tlas,
                        a.overflowed,
                        a.blas_to_tlas,
                        a.ring
                    ),
                    "cap {cap} step {step}"
                );
            }
        }
    }

    /// `push_one_pop1` leaves what the general push-8/pop-1 leaves for
    /// results that are one child (box, leaf or instance) or none, on random
    /// walks over small stacks that overflow and hold instances.
    #[test]
    fn push_one_pop1_matches_push8_pop1() {
        let mut rng = crate::rng::SplitMix64::new(0x0DDB_1A5E_5BAD_5EED);
        let mut next = move || rng.next_u32();
        for cap in [1u32, 2, 3, 8, 16] {
            let (mut a, mut b) = (ShortStack::new(cap), ShortStack::new(cap));
            let (mut ca, mut cb) = (RayCounters::default(), RayCounters::default());
            for step in 0..20_000 {
                let v = (next() % 50 + 1) << 4 | [0, 1, 5, 5, 6][(next() % 5) as usize];
                let mut r = [INVALID_NODE; 8];
                let only = match next() % 4 {
                    0 => None,
                    1 => {
                        // Deepen the stack as a box step with several
                        // results does.
                        r[..3].copy_from_slice(&[v, v + 16, v + 32]);
                        a.push8(INVALID_NODE, &r, true, &mut ca);
                        b.push8(INVALID_NODE, &r, true, &mut cb);
                        continue;
                    }
                    _ => Some(v),
                };
                if let Some(v) = only {
                    r[0] = v;
                }
                let want = a.push8_pop1(INVALID_NODE, &r, true, &mut ca);
                let got = b.push_one_pop1(only, &mut cb);
                assert_eq!(got, want, "cap {cap} step {step}");
                assert_eq!(cb, ca, "cap {cap} step {step}");
                assert_eq!(
                    (b.addr, b.valid, b.to_tlas, b.has_tlas, b.overflowed),
                    (a.addr, a.valid, a.to_tlas, a.has_tlas, a.overflowed),
                    "cap {cap} step {step}"
                );
                assert_eq!(b.blas_to_tlas, a.blas_to_tlas, "cap {cap} step {step}");
            }
        }
    }

    /// The primitive step's push gives what the general push gives, for
    /// every navigation and stacks from empty to overflowing.
    #[test]
    fn primitive_step_push_matches_push8() {
        for nav in 0..8u32 {
            for depth in 0..12u32 {
                for node in [0x40u32, 0x43, 0x4B, 0x1_0009] {
                    let (mut a, mut b) = (ShortStack::new(8), ShortStack::new(8));
                    let (mut ca, mut cb) = (RayCounters::default(), RayCounters::default());
                    for k in 0..depth {
                        let mut r = [INVALID_NODE; 8];
                        r[0] = (k + 1) << 4 | 5;
                        r[1] = (k + 100) << 4 | 5;
                        a.push8(INVALID_NODE, &r, true, &mut ca);
                        b.push8(INVALID_NODE, &r, true, &mut cb);
                    }
                    let last = PRIM_RANGE_UPDATE | nav;
                    let mut r = [INVALID_NODE; 8];
                    r[7] = node;
                    let want = a.push8_pop1(last, &r, true, &mut ca);
                    let got = b.push_range_pop1(node, last, &mut cb);
                    assert_eq!(
                        (got, cb),
                        (want, ca),
                        "nav {nav} depth {depth} node {node:x}"
                    );
                    assert_eq!(
                        (b.addr, b.valid, b.to_tlas, b.has_tlas, b.overflowed, b.ring),
                        (a.addr, a.valid, a.to_tlas, a.has_tlas, a.overflowed, a.ring)
                    );
                }
            }
        }
    }

    #[test]
    fn primitive_range_update() {
        assert_eq!(update_primitive_range(0x40 | 2, false), 0x43);
        assert_eq!(update_primitive_range(0x40 | 3, false), 0x48);
        assert_eq!(update_primitive_range(0x40 | 9, true), 0x50);
        let mut c = RayCounters::default();
        let mut s = ShortStack::new(16);
        let mut r = [INVALID_NODE; 8];
        r[7] = 0x43;
        assert_eq!(s.push8_pop1(PRIM_RANGE_UPDATE, &r, true, &mut c), 0x48);
        assert_eq!(s.push8_pop1(PRIM_RANGE_UPDATE | 1, &r, true, &mut c), 0x50);
        assert_eq!(
            s.push8_pop1(PRIM_RANGE_UPDATE | 3, &r, true, &mut c),
            TERMINAL_NODE
        );
    }
}
