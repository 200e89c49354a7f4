// Ray Accelerator throughput: four independent BVH node tests per iteration per wave, no
// dependence between them (hand-written; assembled by llvm-mc-22 -mcpu=gfx1201). The [[memory]]
// box_fraction hint makes every node a box node (1) or a triangle node (0).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.text
	.globl ray_nodes
	.p2align 8
	.type ray_nodes,@function
ray_nodes:
	s_mov_b32 s4, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
	image_bvh8_intersect_ray v[0:9], [v[10:11], v[12:13], v[14:16], v[16:18], v19], s[0:3]
	image_bvh8_intersect_ray v[20:29], [v[30:31], v[32:33], v[34:36], v[36:38], v39], s[0:3]
	image_bvh8_intersect_ray v[40:49], [v[50:51], v[52:53], v[54:56], v[56:58], v59], s[0:3]
	image_bvh8_intersect_ray v[60:69], [v[70:71], v[72:73], v[74:76], v[76:78], v79], s[0:3]
	s_add_co_i32 s4, s4, 1
	s_cmp_lg_u32 s4, 64
	s_cbranch_scc1 .LBB0_1
	s_wait_bvhcnt 0x0
	s_endpgm
