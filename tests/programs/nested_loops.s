; nested_loops.s (see README.md)
    s_mov_b32 s0, 0
.Louter:
    s_mov_b32 s1, 0
.Linner:
    v_add_f32 v0, v0, v1
    s_add_u32 s1, s1, 1
    s_cmp_lt_u32 s1, 4
    s_cbranch_scc1 .Linner
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 3
    s_cbranch_scc1 .Louter
    s_endpgm
