; guarded_loop.s (see README.md)
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 .Lend
    s_mov_b32 s1, 0
.Lloop:
    v_add_f32 v0, v0, v1
    s_add_u32 s1, s1, 1
    s_cmp_lt_u32 s1, s0
    s_cbranch_scc1 .Lloop
.Lend:
    s_endpgm
