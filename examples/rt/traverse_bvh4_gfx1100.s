; A minimal RDNA 3 (gfx1100) BVH4 traversal kernel, written by hand for shadersim's examples,
; the RDNA 3 counterpart of traverse_bvh8_gfx1200.s: one BVH4 node per step
; (image_bvh_intersect_ray: 4 box tests or 1 triangle test), the shader supplying the inverse
; direction, and the gfx11 LDS stack instruction (ds_bvh_stack_rtn_b32). It assembles with:
;   llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 traverse_bvh4_gfx1100.s
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
	.text
	.globl traverse
	.p2align 8
	.type traverse,@function
traverse:
	s_load_b128 s[4:7], s[0:1], 0x0
	s_load_b64 s[2:3], s[0:1], 0x10
	v_lshlrev_b32_e32 v0, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_b128 v[2:5], v0, s[2:3]
	global_load_b128 v[6:9], v0, s[2:3] offset:16
	v_mov_b32_e32 v12, 0
	v_mov_b32_e32 v10, 0
	s_waitcnt vmcnt(0)
	v_rcp_f32_e32 v14, v6
	v_rcp_f32_e32 v15, v7
	v_rcp_f32_e32 v16, v8
.LBB0_1:
	image_bvh_intersect_ray v[20:23], [v10, v5, v[2:4], v[6:8], v[14:16]], s[4:7]
	s_waitcnt vmcnt(0)
	ds_bvh_stack_rtn_b32 v10, v12, v10, v[20:23] offset:16
	s_waitcnt lgkmcnt(0)
	v_cmp_ne_u32_e32 vcc_lo, -1, v10
	s_cbranch_vccnz .LBB0_1
	global_store_b32 v0, v20, s[2:3]
	s_endpgm
.Lfunc_end0:
	.size traverse, .Lfunc_end0-traverse
