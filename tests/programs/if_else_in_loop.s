; if_else_in_loop.s (see README.md)
.Lhead:
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 .Lelse
    v_add_f32 v0, v0, v1
    s_branch .Ljoin
.Lelse:
    v_mul_f32 v0, v0, v1
    v_mul_f32 v0, v0, v1
.Ljoin:
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 .Lhead
    s_endpgm
