// Ray Accelerator throughput: four independent BVH node tests per iteration per wave, no
// dependence between them (hand-written; assembled by llvm-mc-22 -mcpu=gfx1030). The [[memory]]
// box_fraction hint makes every node a box node (1) or a triangle node (0).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
	.text
	.globl ray_nodes
	.p2align 8
	.type ray_nodes,@function
ray_nodes:
	s_mov_b32 s4, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	image_bvh_intersect_ray v[0:3], v[4:14], s[0:3]
	image_bvh_intersect_ray v[16:19], v[20:30], s[0:3]
	image_bvh_intersect_ray v[32:35], v[36:46], s[0:3]
	image_bvh_intersect_ray v[48:51], v[52:62], s[0:3]
	s_add_i32 s4, s4, 1
	s_cmp_lg_u32 s4, 64
	s_cbranch_scc1 .LBB0_1
	s_waitcnt vmcnt(0)
	s_endpgm
