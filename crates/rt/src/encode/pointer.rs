//! Node pointers and their sentinels (rt.md §1).
//!
//! RT IP 1.x/2.0/3.0 pointers keep the node type in bits [2:0] and the byte
//! offset, 64-byte aligned, as `(ptr & !7) << 3`. RT IP 3.1 keeps a 4-bit type
//! in [3:0] and a 128-byte-aligned offset `(ptr & !0xF) << 3`.

/// Pointer of an empty child slot, and a stack pop that lost its data.
pub const INVALID_NODE: u32 = 0xFFFF_FFFF;
/// A pop from an empty stack that never overflowed: traversal is done.
pub const TERMINAL_NODE: u32 = 0xFFFF_FFFE;
/// Stack-push marker: skip result slots 0..3.
pub const SKIP_0_3: u32 = 0xFFFF_FFFD;
/// Stack-push marker: skip result slots 4..7.
pub const SKIP_4_7: u32 = 0xFFFF_FFFB;
/// Stack-push marker: skip all remaining slots (an instance's result).
pub const SKIP_0_7: u32 = 0xFFFF_FFF9;
/// Every value at or above this is a sentinel, below it a real node.
pub const END_SEARCH: u32 = 0xFFFF_FFF8;
/// `last_node_ptr` base value that asks the stack for a primitive-range update.
pub const PRIM_RANGE_UPDATE: u32 = 0xFFFF_FFF8;

/// RT IP 2.0 type: first triangle of a pair node.
pub const TYPE_TRI0: u32 = 0;
/// RT IP 2.0 type: second triangle of a pair node.
pub const TYPE_TRI1: u32 = 1;
/// RT IP 2.0 type: 64-byte fp16 4-wide box node.
pub const TYPE_BOX16: u32 = 4;
/// RT IP 2.0 type: 128-byte fp32 4-wide box node; RT IP 3.1: quantized BVH8 box node.
pub const TYPE_BOX: u32 = 5;
/// Instance node (both generations).
pub const TYPE_INSTANCE: u32 = 6;

/// RT IP 2.0 pointer to a node at `offset` bytes (64-byte aligned).
#[inline]
pub fn pack_ptr(offset: u32, node_type: u32) -> u32 {
    debug_assert!(offset % 64 == 0);
    (offset >> 3) | node_type
}

/// Byte offset of an RT IP 2.0 pointer.
#[inline]
pub fn ptr_offset(ptr: u32) -> u32 {
    (ptr & !7) << 3
}

/// RT IP 2.0 node type.
#[inline]
pub fn ptr_type(ptr: u32) -> u32 {
    ptr & 7
}

/// RT IP 3.1 pointer to a node at `offset` bytes (128-byte aligned).
#[inline]
pub fn pack_ptr31(offset: u32, node_type: u32) -> u32 {
    debug_assert!(offset % 128 == 0);
    (offset >> 3) | node_type
}

/// Byte offset of an RT IP 3.1 pointer.
#[inline]
pub fn ptr31_offset(ptr: u32) -> u32 {
    (ptr & !0xF) << 3
}

/// True when an RT IP 3.1 pointer names a triangle pair (low 3 bits <= 3).
#[inline]
pub fn is_triangle31(ptr: u32) -> bool {
    ptr & 7 <= 3
}

/// RT IP 3.1 4-bit type of triangle pair `p` (0..7): pairs 4..7 are types 8..11.
#[inline]
pub fn pair_type(p: u32) -> u32 {
    (p & 3) | ((p & 4) << 1)
}

/// Pair index 0..7 of an RT IP 3.1 triangle pointer.
#[inline]
pub fn pair_index(ptr: u32) -> u32 {
    (ptr & 3) | ((ptr & 8) >> 1)
}

/// True for a stack marker (`SKIP_*`, `INVALID`, ...), i.e. `ptr >> 3 == 0x1fffffff`.
#[inline]
pub fn is_sentinel(ptr: u32) -> bool {
    ptr >= END_SEARCH
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_types_round_trip() {
        for p in 0..8 {
            let t = pair_type(p);
            assert!(is_triangle31(t));
            assert_eq!(pair_index(pack_ptr31(256, t)), p);
        }
        assert_eq!(pair_type(4), 8);
        assert_eq!(ptr31_offset(pack_ptr31(1280, 9)), 1280);
        assert_eq!(ptr_offset(pack_ptr(192, TYPE_TRI1)), 192);
    }
}
