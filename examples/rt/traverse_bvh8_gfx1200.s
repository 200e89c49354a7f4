; A minimal RDNA 4 (gfx1200) BVH8 traversal kernel, written by hand for shadersim's examples
; (clang-22 output of a real kernel is in tests/fixtures/llvm/gfx1200/). Each lane traces one
; ray: the loop intersects the ray with one BVH8 node (image_bvh8_intersect_ray: 8 box tests
; or 2 triangle tests on the two intersection engines), then pushes the 8 sorted results on
; the LDS traversal stack and pops the next node (ds_bvh_stack_push8_pop1_rtn_b32), until the
; stack is empty (node -1). It assembles with:
;   llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=gfx1200 traverse_bvh8_gfx1200.s
; Simulate it with the bunny's per-ray step counts:
;   shadersim rt bunny.obj --arch rdna4 --bvh bvh8 --hints-for examples/rt/traverse_bvh8_gfx1200.s \
;       --hints-out bunny_bvh8.toml
;   shadersim analyze examples/rt/traverse_bvh8_gfx1200.s --hints bunny_bvh8.toml
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"
	.text
	.globl traverse
	.p2align 8
	.type traverse,@function
traverse:
	s_load_b128 s[4:7], s[0:1], 0x0
	s_load_b64 s[2:3], s[0:1], 0x10
	v_lshlrev_b32_e32 v0, 5, v0
	s_wait_kmcnt 0x0
	global_load_b128 v[2:5], v0, s[2:3]
	global_load_b128 v[6:9], v0, s[2:3] offset:16
	v_mov_b32_e32 v12, 0
	v_mov_b32_e32 v10, 0
	v_mov_b32_e32 v11, 0
	v_mov_b32_e32 v13, 0
	s_wait_loadcnt 0x0
.LBB0_1:
	image_bvh8_intersect_ray v[20:29], [v[10:11], v[4:5], v[2:4], v[6:8], v13], s[4:7]
	s_wait_bvhcnt 0x0
	ds_bvh_stack_push8_pop1_rtn_b32 v13, v12, v13, v[20:27] offset:32
	s_wait_dscnt 0x0
	v_cmp_ne_u32_e32 vcc_lo, -1, v13
	s_cbranch_vccnz .LBB0_1
	global_store_b32 v0, v28, s[2:3]
	s_endpgm
.Lfunc_end0:
	.size traverse, .Lfunc_end0-traverse
