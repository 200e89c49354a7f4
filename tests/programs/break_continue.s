; break_continue.s (see README.md)
    s_mov_b32 s0, 0
.Lhead:
    v_add_f32 v0, v0, v1
    s_cmp_eq_u32 s0, 7
    s_cbranch_scc1 .Lbreak
    v_mul_f32 v0, v0, v0
    s_cmp_eq_u32 s0, 3
    s_cbranch_scc1 .Lcontinue
    v_sub_f32 v0, v0, v1
.Lcontinue:
    s_add_u32 s0, s0, 1
    s_branch .Lhead
.Lbreak:
    s_endpgm
