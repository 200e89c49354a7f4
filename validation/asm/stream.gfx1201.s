	.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"
	.amdhsa_code_object_version 6
	.text
	.protected	stream_read             ; -- Begin function stream_read
	.globl	stream_read
	.p2align	8
	.type	stream_read,@function
stream_read:                            ; @stream_read
; %bb.0:
	s_load_b32 s4, s[0:1], 0x8
	s_wait_kmcnt 0x0
	s_cmp_lt_i32 s4, 1
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	s_load_b64 s[2:3], s[0:1], 0x0
	v_dual_mov_b32 v6, 0 :: v_dual_mov_b32 v5, v0
	s_delay_alu instid0(VALU_DEP_1)
	v_dual_mov_b32 v1, v6 :: v_dual_mov_b32 v2, v6
	v_dual_mov_b32 v3, v6 :: v_dual_mov_b32 v4, v6
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	s_delay_alu instid0(VALU_DEP_3) | instskip(SKIP_1) | instid1(SALU_CYCLE_1)
	v_lshlrev_b64_e32 v[7:8], 4, v[5:6]
	s_add_co_i32 s4, s4, -1
	s_cmp_lg_u32 s4, 0
	s_wait_kmcnt 0x0
	s_delay_alu instid0(VALU_DEP_1)
	v_add_co_u32 v7, vcc_lo, s2, v7
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v8, null, s3, v8, vcc_lo
	global_load_b128 v[7:10], v[7:8], off
	s_wait_loadcnt 0x0
	v_dual_add_f32 v2, v2, v8 :: v_dual_add_nc_u32 v5, 0x1000, v5
	v_dual_add_f32 v1, v1, v7 :: v_dual_add_f32 v4, v4, v10
	v_add_f32_e32 v3, v3, v9
	s_cbranch_scc1 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	v_dual_mov_b32 v4, 0 :: v_dual_mov_b32 v3, 0
	v_dual_mov_b32 v2, 0 :: v_dual_mov_b32 v1, 0
.LBB0_4:
	s_load_b64 s[0:1], s[0:1], 0x10
	v_lshlrev_b32_e32 v0, 4, v0
	s_wait_kmcnt 0x0
	global_store_b128 v0, v[1:4], s[0:1]
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel stream_read
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 11
		.amdhsa_next_free_sgpr 5
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_inst_pref_size 2
		.amdhsa_round_robin_scheduling 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	stream_read, .Lfunc_end0-stream_read
                                        ; -- End function
	.set stream_read.num_vgpr, 11
	.set stream_read.num_agpr, 0
	.set stream_read.numbered_sgpr, 5
	.set stream_read.num_named_barrier, 0
	.set stream_read.private_seg_size, 0
	.set stream_read.uses_vcc, 1
	.set stream_read.uses_flat_scratch, 0
	.set stream_read.has_dyn_sized_stack, 0
	.set stream_read.has_recursion, 0
	.set stream_read.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 196
; TotalNumSgprs: 7
; NumVgprs: 11
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 7
; NumVGPRsForWavesPerEU: 11
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_stream_read ; -- Begin function __clang_ocl_kern_imp_stream_read
	.globl	__clang_ocl_kern_imp_stream_read
	.p2align	2
	.type	__clang_ocl_kern_imp_stream_read,@function
__clang_ocl_kern_imp_stream_read:       ; @__clang_ocl_kern_imp_stream_read
; %bb.0:
	s_wait_loadcnt_dscnt 0x0
	s_wait_expcnt 0x0
	s_wait_samplecnt 0x0
	s_wait_bvhcnt 0x0
	s_wait_kmcnt 0x0
	v_dual_mov_b32 v8, 0 :: v_dual_and_b32 v11, 0x3ff, v31
	v_dual_mov_b32 v7, 0 :: v_dual_mov_b32 v6, 0
	v_mov_b32_e32 v5, 0
	s_mov_b32 s1, 0
	s_mov_b32 s0, exec_lo
	v_cmpx_lt_i32_e32 0, v2
	s_cbranch_execz .LBB1_4
; %bb.1:
	v_dual_mov_b32 v10, 0 :: v_dual_mov_b32 v9, v11
	s_delay_alu instid0(VALU_DEP_1)
	v_dual_mov_b32 v5, v10 :: v_dual_mov_b32 v6, v10
	v_dual_mov_b32 v7, v10 :: v_dual_mov_b32 v8, v10
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	s_delay_alu instid0(VALU_DEP_3) | instskip(NEXT) | instid1(VALU_DEP_1)
	v_lshlrev_b64_e32 v[12:13], 4, v[9:10]
	v_add_co_u32 v12, vcc_lo, v0, v12
	s_wait_alu depctr_va_vcc(0)
	s_delay_alu instid0(VALU_DEP_2)
	v_add_co_ci_u32_e64 v13, null, v1, v13, vcc_lo
	global_load_b128 v[12:15], v[12:13], off
	v_add_nc_u32_e32 v2, -1, v2
	s_wait_loadcnt 0x0
	v_dual_add_f32 v8, v8, v15 :: v_dual_add_nc_u32 v9, 0x1000, v9
	v_add_f32_e32 v5, v5, v12
	s_delay_alu instid0(VALU_DEP_3)
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	v_dual_add_f32 v6, v6, v13 :: v_dual_add_f32 v7, v7, v14
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 s1, vcc_lo, s1
	s_wait_alu depctr_sa_sdst(0)
	s_and_not1_b32 exec_lo, exec_lo, s1
	s_cbranch_execnz .LBB1_2
; %bb.3:
	s_or_b32 exec_lo, exec_lo, s1
.LBB1_4:
	s_wait_alu depctr_sa_sdst(0)
	s_or_b32 exec_lo, exec_lo, s0
	v_lshlrev_b32_e32 v0, 4, v11
	s_delay_alu instid0(VALU_DEP_1)
	v_add_co_u32 v0, vcc_lo, v3, v0
	s_wait_alu depctr_va_vcc(0)
	v_add_co_ci_u32_e64 v1, null, 0, v4, vcc_lo
	global_store_b128 v[0:1], v[5:8], off
	s_setpc_b64 s[30:31]
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_stream_read, .Lfunc_end1-__clang_ocl_kern_imp_stream_read
                                        ; -- End function
	.set __clang_ocl_kern_imp_stream_read.num_vgpr, 32
	.set __clang_ocl_kern_imp_stream_read.num_agpr, 0
	.set __clang_ocl_kern_imp_stream_read.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_stream_read.num_named_barrier, 0
	.set __clang_ocl_kern_imp_stream_read.private_seg_size, 0
	.set __clang_ocl_kern_imp_stream_read.uses_vcc, 1
	.set __clang_ocl_kern_imp_stream_read.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_stream_read.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_stream_read.has_recursion, 0
	.set __clang_ocl_kern_imp_stream_read.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 248
; TotalNumSgprs: 34
; NumVgprs: 32
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 7, 3214868480
	.fill 96, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 32
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 32
	.set amdgpu.max_num_named_barrier, 0
	.text
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .is_const:       true
        .offset:         0
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .offset:         16
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           stream_read
    .private_segment_fixed_size: 0
    .sgpr_count:     7
    .sgpr_spill_count: 0
    .symbol:         stream_read.kd
    .uses_dynamic_stack: false
    .vgpr_count:     11
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
amdhsa.target:   amdgcn-amd-amdhsa--gfx1201
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
