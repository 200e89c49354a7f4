	.amdgcn_target "amdgcn-amd-amdhsa--gfx1010"
	.amdhsa_code_object_version 6
	.text
	.protected	fp32_fma                ; -- Begin function fp32_fma
	.globl	fp32_fma
	.p2align	8
	.type	fp32_fma,@function
fp32_fma:                               ; @fp32_fma
.Lfunc_begin0:
	.file	0 "." "kernels/rates.cl" md5 0x3a83fedf755fa4a8b897df7d2e5f284a
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.0:
	.loc	0 11 19 prologue_end            ; kernels/rates.cl:11:19 @[ kernels/rates.cl:10:77 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s6, s[4:5], 0x8
	.loc	0 11 17 is_stmt 0               ; kernels/rates.cl:11:17 @[ kernels/rates.cl:10:77 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[4:7], v32, s[0:1] offset:48
	global_load_dwordx4 v[12:15], v32, s[0:1] offset:32
	global_load_dwordx4 v[20:23], v32, s[0:1] offset:16
	global_load_dwordx4 v[24:27], v32, s[0:1]
	global_load_dwordx4 v[0:3], v32, s[0:1] offset:112
	global_load_dwordx4 v[8:11], v32, s[0:1] offset:96
	global_load_dwordx4 v[16:19], v32, s[0:1] offset:80
	global_load_dwordx4 v[28:31], v32, s[0:1] offset:64
	.loc	0 15 23 is_stmt 1               ; kernels/rates.cl:15:23 @[ kernels/rates.cl:10:77 ]
	s_cmp_lt_i32 s6, 1
	.loc	0 15 5 is_stmt 0                ; kernels/rates.cl:15:5 @[ kernels/rates.cl:10:77 ]
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	.loc	0 13 18 is_stmt 1               ; kernels/rates.cl:13:18 @[ kernels/rates.cl:10:77 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx4 s[0:3], s[0:1], 0x0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 15 44                         ; kernels/rates.cl:15:44 @[ kernels/rates.cl:10:77 ]
	s_waitcnt vmcnt(4) lgkmcnt(0)
	v_fma_f32 v27, s3, v27, v27
	v_fma_f32 v26, s2, v26, v26
	v_fma_f32 v25, s1, v25, v25
	v_fmac_f32_e32 v24, s0, v24
	v_fma_f32 v23, s3, v23, v23
	v_fma_f32 v22, s2, v22, v22
	v_fma_f32 v21, s1, v21, v21
	v_fmac_f32_e32 v20, s0, v20
	v_fma_f32 v15, s3, v15, v15
	v_fma_f32 v14, s2, v14, v14
	v_fma_f32 v13, s1, v13, v13
	v_fmac_f32_e32 v12, s0, v12
	v_fma_f32 v7, s3, v7, v7
	v_fma_f32 v6, s2, v6, v6
	v_fma_f32 v5, s1, v5, v5
	v_fmac_f32_e32 v4, s0, v4
	s_waitcnt vmcnt(0)
	v_fma_f32 v31, s3, v31, v31
	v_fma_f32 v30, s2, v30, v30
	v_fma_f32 v29, s1, v29, v29
	v_fmac_f32_e32 v28, s0, v28
	v_fma_f32 v19, s3, v19, v19
	v_fma_f32 v18, s2, v18, v18
	v_fma_f32 v17, s1, v17, v17
	v_fmac_f32_e32 v16, s0, v16
	v_fma_f32 v11, s3, v11, v11
	v_fma_f32 v10, s2, v10, v10
	v_fma_f32 v9, s1, v9, v9
	v_fmac_f32_e32 v8, s0, v8
	v_fma_f32 v3, s3, v3, v3
	v_fma_f32 v2, s2, v2, v2
	v_fma_f32 v1, s1, v1, v1
	v_fmac_f32_e32 v0, s0, v0
	.loc	0 15 23 is_stmt 0               ; kernels/rates.cl:15:23 @[ kernels/rates.cl:10:77 ]
	s_add_i32 s6, s6, -1
	s_cmp_lg_u32 s6, 0
	.loc	0 15 5                          ; kernels/rates.cl:15:5 @[ kernels/rates.cl:10:77 ]
	s_cbranch_scc1 .LBB0_2
.LBB0_3:
	.loc	0 17 18 is_stmt 1               ; kernels/rates.cl:17:18 @[ kernels/rates.cl:10:77 ]
	s_waitcnt vmcnt(4)
	v_add_f32_e32 v23, v23, v27
	v_add_f32_e32 v22, v22, v26
	v_add_f32_e32 v21, v21, v25
	v_add_f32_e32 v20, v20, v24
	.loc	0 11 19                         ; kernels/rates.cl:11:19 @[ kernels/rates.cl:10:77 ]
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 17 23                         ; kernels/rates.cl:17:23 @[ kernels/rates.cl:10:77 ]
	v_add_f32_e32 v15, v15, v23
	v_add_f32_e32 v14, v14, v22
	v_add_f32_e32 v13, v13, v21
	v_add_f32_e32 v12, v12, v20
	.loc	0 17 28 is_stmt 0               ; kernels/rates.cl:17:28 @[ kernels/rates.cl:10:77 ]
	v_add_f32_e32 v7, v7, v15
	v_add_f32_e32 v6, v6, v14
	v_add_f32_e32 v5, v5, v13
	v_add_f32_e32 v4, v4, v12
	.loc	0 17 33                         ; kernels/rates.cl:17:33 @[ kernels/rates.cl:10:77 ]
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v7, v31, v7
	v_add_f32_e32 v6, v30, v6
	v_add_f32_e32 v5, v29, v5
	v_add_f32_e32 v4, v28, v4
	.loc	0 17 38                         ; kernels/rates.cl:17:38 @[ kernels/rates.cl:10:77 ]
	v_add_f32_e32 v7, v19, v7
	v_add_f32_e32 v6, v18, v6
	v_add_f32_e32 v5, v17, v5
	v_add_f32_e32 v4, v16, v4
	.loc	0 17 43                         ; kernels/rates.cl:17:43 @[ kernels/rates.cl:10:77 ]
	v_add_f32_e32 v7, v11, v7
	v_add_f32_e32 v6, v10, v6
	v_add_f32_e32 v5, v9, v5
	v_add_f32_e32 v4, v8, v4
	.loc	0 17 48                         ; kernels/rates.cl:17:48 @[ kernels/rates.cl:10:77 ]
	v_add_f32_e32 v3, v3, v7
	v_add_f32_e32 v2, v2, v6
	v_add_f32_e32 v1, v1, v5
	v_add_f32_e32 v0, v0, v4
	.loc	0 17 13                         ; kernels/rates.cl:17:13 @[ kernels/rates.cl:10:77 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp0:
	.loc	0 18 1 is_stmt 1                ; kernels/rates.cl:18:1
	s_endpgm
.Ltmp1:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel fp32_fma
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 7
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
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
	.size	fp32_fma, .Lfunc_end0-fp32_fma
	.cfi_endproc
                                        ; -- End function
	.set fp32_fma.num_vgpr, 33
	.set fp32_fma.num_agpr, 0
	.set fp32_fma.numbered_sgpr, 7
	.set fp32_fma.num_named_barrier, 0
	.set fp32_fma.private_seg_size, 0
	.set fp32_fma.uses_vcc, 0
	.set fp32_fma.uses_flat_scratch, 0
	.set fp32_fma.has_dyn_sized_stack, 0
	.set fp32_fma.has_recursion, 0
	.set fp32_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 512
; TotalNumSgprs: 7
; NumVgprs: 33
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 7
; NumVGPRsForWavesPerEU: 33
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_fp32_fma ; -- Begin function __clang_ocl_kern_imp_fp32_fma
	.globl	__clang_ocl_kern_imp_fp32_fma
	.p2align	2
	.type	__clang_ocl_kern_imp_fp32_fma,@function
__clang_ocl_kern_imp_fp32_fma:          ; @__clang_ocl_kern_imp_fp32_fma
.Lfunc_begin1:
	.loc	0 10 0                          ; kernels/rates.cl:10:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp2:
	.loc	0 11 17 prologue_end            ; kernels/rates.cl:11:17
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v38, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v39, vcc_lo, 0, v1, vcc_lo
	.loc	0 15 23                         ; kernels/rates.cl:15:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 11 17                         ; kernels/rates.cl:11:17
	s_clause 0x7
	global_load_dwordx4 v[9:12], v[38:39], off offset:48
	global_load_dwordx4 v[17:20], v[38:39], off offset:32
	global_load_dwordx4 v[25:28], v[38:39], off offset:16
	global_load_dwordx4 v[29:32], v[38:39], off
	global_load_dwordx4 v[5:8], v[38:39], off offset:112
	global_load_dwordx4 v[13:16], v[38:39], off offset:96
	global_load_dwordx4 v[21:24], v[38:39], off offset:80
	global_load_dwordx4 v[33:36], v[38:39], off offset:64
	.loc	0 15 5                          ; kernels/rates.cl:15:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB1_4
; %bb.1:
	.loc	0 13 18                         ; kernels/rates.cl:13:18
	global_load_dwordx4 v[48:51], v[0:1], off
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 15 23                         ; kernels/rates.cl:15:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 15 44 is_stmt 0               ; kernels/rates.cl:15:44
	s_waitcnt vmcnt(0)
	v_fma_f32 v32, v51, v32, v32
	v_fma_f32 v31, v50, v31, v31
	v_fma_f32 v30, v49, v30, v30
	v_fmac_f32_e32 v29, v48, v29
	.loc	0 15 23                         ; kernels/rates.cl:15:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 15 44                         ; kernels/rates.cl:15:44
	v_fma_f32 v28, v51, v28, v28
	v_fma_f32 v27, v50, v27, v27
	v_fma_f32 v26, v49, v26, v26
	v_fmac_f32_e32 v25, v48, v25
	v_fma_f32 v20, v51, v20, v20
	v_fma_f32 v19, v50, v19, v19
	v_fma_f32 v18, v49, v18, v18
	v_fmac_f32_e32 v17, v48, v17
	v_fma_f32 v12, v51, v12, v12
	v_fma_f32 v11, v50, v11, v11
	v_fma_f32 v10, v49, v10, v10
	v_fmac_f32_e32 v9, v48, v9
	v_fma_f32 v36, v51, v36, v36
	v_fma_f32 v35, v50, v35, v35
	v_fma_f32 v34, v49, v34, v34
	v_fmac_f32_e32 v33, v48, v33
	v_fma_f32 v24, v51, v24, v24
	v_fma_f32 v23, v50, v23, v23
	v_fma_f32 v22, v49, v22, v22
	v_fmac_f32_e32 v21, v48, v21
	v_fma_f32 v16, v51, v16, v16
	v_fma_f32 v15, v50, v15, v15
	v_fma_f32 v14, v49, v14, v14
	v_fmac_f32_e32 v13, v48, v13
	v_fma_f32 v8, v51, v8, v8
	v_fma_f32 v7, v50, v7, v7
	v_fma_f32 v6, v49, v6, v6
	v_fmac_f32_e32 v5, v48, v5
	.loc	0 15 5                          ; kernels/rates.cl:15:5
	s_or_b32 s5, vcc_lo, s5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB1_2
; %bb.3:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB1_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 17 18 is_stmt 1               ; kernels/rates.cl:17:18
	s_waitcnt vmcnt(4)
	v_add_f32_e32 v0, v28, v32
	v_add_f32_e32 v1, v27, v31
	v_add_f32_e32 v2, v26, v30
	v_add_f32_e32 v25, v25, v29
	.loc	0 17 23 is_stmt 0               ; kernels/rates.cl:17:23
	v_add_f32_e32 v0, v20, v0
	v_add_f32_e32 v1, v19, v1
	v_add_f32_e32 v2, v18, v2
	v_add_f32_e32 v17, v17, v25
	.loc	0 17 28                         ; kernels/rates.cl:17:28
	v_add_f32_e32 v0, v12, v0
	v_add_f32_e32 v1, v11, v1
	v_add_f32_e32 v2, v10, v2
	v_add_f32_e32 v9, v9, v17
	.loc	0 17 33                         ; kernels/rates.cl:17:33
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, v36, v0
	v_add_f32_e32 v1, v35, v1
	v_add_f32_e32 v2, v34, v2
	v_add_f32_e32 v9, v33, v9
	.loc	0 17 38                         ; kernels/rates.cl:17:38
	v_add_f32_e32 v0, v24, v0
	v_add_f32_e32 v1, v23, v1
	v_add_f32_e32 v2, v22, v2
	v_add_f32_e32 v9, v21, v9
	.loc	0 17 43                         ; kernels/rates.cl:17:43
	v_add_f32_e32 v0, v16, v0
	v_add_f32_e32 v1, v15, v1
	v_add_f32_e32 v2, v14, v2
	v_add_f32_e32 v9, v13, v9
	.loc	0 17 48                         ; kernels/rates.cl:17:48
	v_add_f32_e32 v8, v8, v0
	.loc	0 17 5                          ; kernels/rates.cl:17:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	.loc	0 17 48                         ; kernels/rates.cl:17:48
	v_add_f32_e32 v7, v7, v1
	v_add_f32_e32 v6, v6, v2
	v_add_f32_e32 v5, v5, v9
	.loc	0 17 5                          ; kernels/rates.cl:17:5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 17 13                         ; kernels/rates.cl:17:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 18 1 is_stmt 1                ; kernels/rates.cl:18:1
	s_setpc_b64 s[30:31]
.Ltmp3:
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_fp32_fma, .Lfunc_end1-__clang_ocl_kern_imp_fp32_fma
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_fp32_fma.num_vgpr, 52
	.set __clang_ocl_kern_imp_fp32_fma.num_agpr, 0
	.set __clang_ocl_kern_imp_fp32_fma.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_fp32_fma.num_named_barrier, 0
	.set __clang_ocl_kern_imp_fp32_fma.private_seg_size, 0
	.set __clang_ocl_kern_imp_fp32_fma.uses_vcc, 1
	.set __clang_ocl_kern_imp_fp32_fma.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_fp32_fma.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_fp32_fma.has_recursion, 0
	.set __clang_ocl_kern_imp_fp32_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 532
; TotalNumSgprs: 34
; NumVgprs: 52
; ScratchSize: 0
; MemoryBound: 1
	.text
	.protected	fp16_fma                ; -- Begin function fp16_fma
	.globl	fp16_fma
	.p2align	8
	.type	fp16_fma,@function
fp16_fma:                               ; @fp16_fma
.Lfunc_begin2:
	.cfi_startproc
; %bb.0:
	.loc	0 21 18 prologue_end            ; kernels/rates.cl:21:18 @[ kernels/rates.cl:20:75 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s6, s[4:5], 0x8
	.loc	0 21 16 is_stmt 0               ; kernels/rates.cl:21:16 @[ kernels/rates.cl:20:75 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[24:27], v32, s[0:1]
	global_load_dwordx4 v[28:31], v32, s[0:1] offset:16
	global_load_dwordx4 v[20:23], v32, s[0:1] offset:32
	global_load_dwordx4 v[16:19], v32, s[0:1] offset:48
	global_load_dwordx4 v[12:15], v32, s[0:1] offset:64
	global_load_dwordx4 v[8:11], v32, s[0:1] offset:80
	global_load_dwordx4 v[4:7], v32, s[0:1] offset:96
	global_load_dwordx4 v[0:3], v32, s[0:1] offset:112
	.loc	0 25 23 is_stmt 1               ; kernels/rates.cl:25:23 @[ kernels/rates.cl:20:75 ]
	s_cmp_lt_i32 s6, 1
	.loc	0 25 5 is_stmt 0                ; kernels/rates.cl:25:5 @[ kernels/rates.cl:20:75 ]
	s_cbranch_scc1 .LBB2_3
; %bb.1:
	.loc	0 23 17 is_stmt 1               ; kernels/rates.cl:23:17 @[ kernels/rates.cl:20:75 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx4 s[0:3], s[0:1], 0x0
.LBB2_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 25 44                         ; kernels/rates.cl:25:44 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(7) lgkmcnt(0)
	v_pk_fma_f16 v27, s3, v27, v27
	v_pk_fma_f16 v26, s2, v26, v26
	v_pk_fma_f16 v25, s1, v25, v25
	v_pk_fma_f16 v24, s0, v24, v24
	s_waitcnt vmcnt(6)
	v_pk_fma_f16 v31, s3, v31, v31
	v_pk_fma_f16 v30, s2, v30, v30
	v_pk_fma_f16 v29, s1, v29, v29
	v_pk_fma_f16 v28, s0, v28, v28
	s_waitcnt vmcnt(5)
	v_pk_fma_f16 v23, s3, v23, v23
	v_pk_fma_f16 v22, s2, v22, v22
	v_pk_fma_f16 v21, s1, v21, v21
	v_pk_fma_f16 v20, s0, v20, v20
	s_waitcnt vmcnt(4)
	v_pk_fma_f16 v19, s3, v19, v19
	v_pk_fma_f16 v18, s2, v18, v18
	v_pk_fma_f16 v17, s1, v17, v17
	v_pk_fma_f16 v16, s0, v16, v16
	s_waitcnt vmcnt(3)
	v_pk_fma_f16 v15, s3, v15, v15
	v_pk_fma_f16 v14, s2, v14, v14
	v_pk_fma_f16 v13, s1, v13, v13
	v_pk_fma_f16 v12, s0, v12, v12
	s_waitcnt vmcnt(2)
	v_pk_fma_f16 v11, s3, v11, v11
	v_pk_fma_f16 v10, s2, v10, v10
	v_pk_fma_f16 v9, s1, v9, v9
	v_pk_fma_f16 v8, s0, v8, v8
	s_waitcnt vmcnt(1)
	v_pk_fma_f16 v7, s3, v7, v7
	v_pk_fma_f16 v6, s2, v6, v6
	v_pk_fma_f16 v5, s1, v5, v5
	v_pk_fma_f16 v4, s0, v4, v4
	s_waitcnt vmcnt(0)
	v_pk_fma_f16 v3, s3, v3, v3
	v_pk_fma_f16 v2, s2, v2, v2
	v_pk_fma_f16 v1, s1, v1, v1
	v_pk_fma_f16 v0, s0, v0, v0
	.loc	0 25 23 is_stmt 0               ; kernels/rates.cl:25:23 @[ kernels/rates.cl:20:75 ]
	s_add_i32 s6, s6, -1
	s_cmp_lg_u32 s6, 0
	.loc	0 25 5                          ; kernels/rates.cl:25:5 @[ kernels/rates.cl:20:75 ]
	s_cbranch_scc1 .LBB2_2
.LBB2_3:
	.loc	0 27 18 is_stmt 1               ; kernels/rates.cl:27:18 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(6)
	v_pk_add_f16 v27, v31, v27
	v_pk_add_f16 v26, v30, v26
	v_pk_add_f16 v25, v29, v25
	v_pk_add_f16 v24, v28, v24
	.loc	0 21 18                         ; kernels/rates.cl:21:18 @[ kernels/rates.cl:20:75 ]
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 27 23                         ; kernels/rates.cl:27:23 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(5)
	v_pk_add_f16 v23, v23, v27
	v_pk_add_f16 v22, v22, v26
	v_pk_add_f16 v21, v21, v25
	v_pk_add_f16 v20, v20, v24
	.loc	0 27 28 is_stmt 0               ; kernels/rates.cl:27:28 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(4)
	v_pk_add_f16 v19, v19, v23
	v_pk_add_f16 v18, v18, v22
	v_pk_add_f16 v17, v17, v21
	v_pk_add_f16 v16, v16, v20
	.loc	0 27 33                         ; kernels/rates.cl:27:33 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(3)
	v_pk_add_f16 v15, v15, v19
	v_pk_add_f16 v14, v14, v18
	v_pk_add_f16 v13, v13, v17
	v_pk_add_f16 v12, v12, v16
	.loc	0 27 38                         ; kernels/rates.cl:27:38 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(2)
	v_pk_add_f16 v11, v11, v15
	v_pk_add_f16 v10, v10, v14
	v_pk_add_f16 v9, v9, v13
	v_pk_add_f16 v8, v8, v12
	.loc	0 27 43                         ; kernels/rates.cl:27:43 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(1)
	v_pk_add_f16 v7, v7, v11
	v_pk_add_f16 v6, v6, v10
	v_pk_add_f16 v5, v5, v9
	v_pk_add_f16 v4, v4, v8
	.loc	0 27 48                         ; kernels/rates.cl:27:48 @[ kernels/rates.cl:20:75 ]
	s_waitcnt vmcnt(0)
	v_pk_add_f16 v3, v3, v7
	v_pk_add_f16 v2, v2, v6
	v_pk_add_f16 v1, v1, v5
	v_pk_add_f16 v0, v0, v4
	.loc	0 27 13                         ; kernels/rates.cl:27:13 @[ kernels/rates.cl:20:75 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp4:
	.loc	0 28 1 is_stmt 1                ; kernels/rates.cl:28:1
	s_endpgm
.Ltmp5:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel fp16_fma
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 7
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	fp16_fma, .Lfunc_end2-fp16_fma
	.cfi_endproc
                                        ; -- End function
	.set fp16_fma.num_vgpr, 33
	.set fp16_fma.num_agpr, 0
	.set fp16_fma.numbered_sgpr, 7
	.set fp16_fma.num_named_barrier, 0
	.set fp16_fma.private_seg_size, 0
	.set fp16_fma.uses_vcc, 0
	.set fp16_fma.uses_flat_scratch, 0
	.set fp16_fma.has_dyn_sized_stack, 0
	.set fp16_fma.has_recursion, 0
	.set fp16_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 700
; TotalNumSgprs: 7
; NumVgprs: 33
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 7
; NumVGPRsForWavesPerEU: 33
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_fp16_fma ; -- Begin function __clang_ocl_kern_imp_fp16_fma
	.globl	__clang_ocl_kern_imp_fp16_fma
	.p2align	2
	.type	__clang_ocl_kern_imp_fp16_fma,@function
__clang_ocl_kern_imp_fp16_fma:          ; @__clang_ocl_kern_imp_fp16_fma
.Lfunc_begin3:
	.loc	0 20 0                          ; kernels/rates.cl:20:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp6:
	.loc	0 21 16 prologue_end            ; kernels/rates.cl:21:16
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v38, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v39, vcc_lo, 0, v1, vcc_lo
	.loc	0 25 23                         ; kernels/rates.cl:25:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 21 16                         ; kernels/rates.cl:21:16
	s_clause 0x7
	global_load_dwordx4 v[29:32], v[38:39], off
	global_load_dwordx4 v[33:36], v[38:39], off offset:16
	global_load_dwordx4 v[25:28], v[38:39], off offset:32
	global_load_dwordx4 v[21:24], v[38:39], off offset:48
	global_load_dwordx4 v[17:20], v[38:39], off offset:64
	global_load_dwordx4 v[13:16], v[38:39], off offset:80
	global_load_dwordx4 v[9:12], v[38:39], off offset:96
	global_load_dwordx4 v[5:8], v[38:39], off offset:112
	.loc	0 25 5                          ; kernels/rates.cl:25:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB3_4
; %bb.1:
	.loc	0 23 17                         ; kernels/rates.cl:23:17
	global_load_dwordx4 v[48:51], v[0:1], off
.LBB3_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 25 23                         ; kernels/rates.cl:25:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 25 44 is_stmt 0               ; kernels/rates.cl:25:44
	s_waitcnt vmcnt(0)
	v_pk_fma_f16 v32, v51, v32, v32
	v_pk_fma_f16 v31, v50, v31, v31
	v_pk_fma_f16 v30, v49, v30, v30
	v_pk_fma_f16 v29, v48, v29, v29
	.loc	0 25 23                         ; kernels/rates.cl:25:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 25 44                         ; kernels/rates.cl:25:44
	v_pk_fma_f16 v36, v51, v36, v36
	v_pk_fma_f16 v35, v50, v35, v35
	v_pk_fma_f16 v34, v49, v34, v34
	v_pk_fma_f16 v33, v48, v33, v33
	v_pk_fma_f16 v28, v51, v28, v28
	v_pk_fma_f16 v27, v50, v27, v27
	v_pk_fma_f16 v26, v49, v26, v26
	v_pk_fma_f16 v25, v48, v25, v25
	v_pk_fma_f16 v24, v51, v24, v24
	v_pk_fma_f16 v23, v50, v23, v23
	v_pk_fma_f16 v22, v49, v22, v22
	v_pk_fma_f16 v21, v48, v21, v21
	v_pk_fma_f16 v20, v51, v20, v20
	v_pk_fma_f16 v19, v50, v19, v19
	v_pk_fma_f16 v18, v49, v18, v18
	v_pk_fma_f16 v17, v48, v17, v17
	v_pk_fma_f16 v16, v51, v16, v16
	v_pk_fma_f16 v15, v50, v15, v15
	v_pk_fma_f16 v14, v49, v14, v14
	v_pk_fma_f16 v13, v48, v13, v13
	v_pk_fma_f16 v12, v51, v12, v12
	v_pk_fma_f16 v11, v50, v11, v11
	v_pk_fma_f16 v10, v49, v10, v10
	v_pk_fma_f16 v9, v48, v9, v9
	v_pk_fma_f16 v8, v51, v8, v8
	v_pk_fma_f16 v7, v50, v7, v7
	v_pk_fma_f16 v6, v49, v6, v6
	v_pk_fma_f16 v5, v48, v5, v5
	.loc	0 25 5                          ; kernels/rates.cl:25:5
	s_or_b32 s5, vcc_lo, s5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB3_2
; %bb.3:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB3_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 27 18 is_stmt 1               ; kernels/rates.cl:27:18
	s_waitcnt vmcnt(6)
	v_pk_add_f16 v0, v36, v32
	v_pk_add_f16 v1, v35, v31
	v_pk_add_f16 v2, v34, v30
	v_pk_add_f16 v29, v33, v29
	.loc	0 27 23 is_stmt 0               ; kernels/rates.cl:27:23
	s_waitcnt vmcnt(5)
	v_pk_add_f16 v0, v28, v0
	v_pk_add_f16 v1, v27, v1
	v_pk_add_f16 v2, v26, v2
	v_pk_add_f16 v25, v25, v29
	.loc	0 27 28                         ; kernels/rates.cl:27:28
	s_waitcnt vmcnt(4)
	v_pk_add_f16 v0, v24, v0
	v_pk_add_f16 v1, v23, v1
	v_pk_add_f16 v2, v22, v2
	v_pk_add_f16 v21, v21, v25
	.loc	0 27 33                         ; kernels/rates.cl:27:33
	s_waitcnt vmcnt(3)
	v_pk_add_f16 v0, v20, v0
	v_pk_add_f16 v1, v19, v1
	v_pk_add_f16 v2, v18, v2
	v_pk_add_f16 v17, v17, v21
	.loc	0 27 38                         ; kernels/rates.cl:27:38
	s_waitcnt vmcnt(2)
	v_pk_add_f16 v0, v16, v0
	v_pk_add_f16 v1, v15, v1
	v_pk_add_f16 v2, v14, v2
	v_pk_add_f16 v13, v13, v17
	.loc	0 27 43                         ; kernels/rates.cl:27:43
	s_waitcnt vmcnt(1)
	v_pk_add_f16 v0, v12, v0
	v_pk_add_f16 v1, v11, v1
	v_pk_add_f16 v2, v10, v2
	v_pk_add_f16 v9, v9, v13
	.loc	0 27 48                         ; kernels/rates.cl:27:48
	s_waitcnt vmcnt(0)
	v_pk_add_f16 v8, v8, v0
	.loc	0 27 5                          ; kernels/rates.cl:27:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	.loc	0 27 48                         ; kernels/rates.cl:27:48
	v_pk_add_f16 v7, v7, v1
	v_pk_add_f16 v6, v6, v2
	v_pk_add_f16 v5, v5, v9
	.loc	0 27 5                          ; kernels/rates.cl:27:5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 27 13                         ; kernels/rates.cl:27:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 28 1 is_stmt 1                ; kernels/rates.cl:28:1
	s_setpc_b64 s[30:31]
.Ltmp7:
.Lfunc_end3:
	.size	__clang_ocl_kern_imp_fp16_fma, .Lfunc_end3-__clang_ocl_kern_imp_fp16_fma
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_fp16_fma.num_vgpr, 52
	.set __clang_ocl_kern_imp_fp16_fma.num_agpr, 0
	.set __clang_ocl_kern_imp_fp16_fma.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_fp16_fma.num_named_barrier, 0
	.set __clang_ocl_kern_imp_fp16_fma.private_seg_size, 0
	.set __clang_ocl_kern_imp_fp16_fma.uses_vcc, 1
	.set __clang_ocl_kern_imp_fp16_fma.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_fp16_fma.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_fp16_fma.has_recursion, 0
	.set __clang_ocl_kern_imp_fp16_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 696
; TotalNumSgprs: 34
; NumVgprs: 52
; ScratchSize: 0
; MemoryBound: 0
	.text
	.protected	fp64_fma                ; -- Begin function fp64_fma
	.globl	fp64_fma
	.p2align	8
	.type	fp64_fma,@function
fp64_fma:                               ; @fp64_fma
.Lfunc_begin4:
	.cfi_startproc
; %bb.0:
	.loc	0 31 20 prologue_end            ; kernels/rates.cl:31:20 @[ kernels/rates.cl:30:79 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s6, s[4:5], 0x8
	.loc	0 31 18 is_stmt 0               ; kernels/rates.cl:31:18 @[ kernels/rates.cl:30:79 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[4:7], v32, s[0:1] offset:48
	global_load_dwordx4 v[12:15], v32, s[0:1] offset:32
	global_load_dwordx4 v[20:23], v32, s[0:1] offset:16
	global_load_dwordx4 v[24:27], v32, s[0:1]
	global_load_dwordx4 v[0:3], v32, s[0:1] offset:112
	global_load_dwordx4 v[8:11], v32, s[0:1] offset:96
	global_load_dwordx4 v[16:19], v32, s[0:1] offset:80
	global_load_dwordx4 v[28:31], v32, s[0:1] offset:64
	.loc	0 35 23 is_stmt 1               ; kernels/rates.cl:35:23 @[ kernels/rates.cl:30:79 ]
	s_cmp_lt_i32 s6, 1
	.loc	0 35 5 is_stmt 0                ; kernels/rates.cl:35:5 @[ kernels/rates.cl:30:79 ]
	s_cbranch_scc1 .LBB4_3
; %bb.1:
	.loc	0 33 19 is_stmt 1               ; kernels/rates.cl:33:19 @[ kernels/rates.cl:30:79 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx4 s[0:3], s[0:1], 0x0
.LBB4_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 35 44                         ; kernels/rates.cl:35:44 @[ kernels/rates.cl:30:79 ]
	s_waitcnt vmcnt(4) lgkmcnt(0)
	v_fma_f64 v[26:27], s[2:3], v[26:27], v[26:27]
	v_fma_f64 v[24:25], s[0:1], v[24:25], v[24:25]
	v_fma_f64 v[22:23], s[2:3], v[22:23], v[22:23]
	v_fma_f64 v[20:21], s[0:1], v[20:21], v[20:21]
	v_fma_f64 v[14:15], s[2:3], v[14:15], v[14:15]
	v_fma_f64 v[12:13], s[0:1], v[12:13], v[12:13]
	v_fma_f64 v[6:7], s[2:3], v[6:7], v[6:7]
	v_fma_f64 v[4:5], s[0:1], v[4:5], v[4:5]
	s_waitcnt vmcnt(0)
	v_fma_f64 v[30:31], s[2:3], v[30:31], v[30:31]
	v_fma_f64 v[28:29], s[0:1], v[28:29], v[28:29]
	v_fma_f64 v[18:19], s[2:3], v[18:19], v[18:19]
	v_fma_f64 v[16:17], s[0:1], v[16:17], v[16:17]
	v_fma_f64 v[10:11], s[2:3], v[10:11], v[10:11]
	v_fma_f64 v[8:9], s[0:1], v[8:9], v[8:9]
	v_fma_f64 v[2:3], s[2:3], v[2:3], v[2:3]
	v_fma_f64 v[0:1], s[0:1], v[0:1], v[0:1]
	.loc	0 35 23 is_stmt 0               ; kernels/rates.cl:35:23 @[ kernels/rates.cl:30:79 ]
	s_add_i32 s6, s6, -1
	s_cmp_lg_u32 s6, 0
	.loc	0 35 5                          ; kernels/rates.cl:35:5 @[ kernels/rates.cl:30:79 ]
	s_cbranch_scc1 .LBB4_2
.LBB4_3:
	.loc	0 37 18 is_stmt 1               ; kernels/rates.cl:37:18 @[ kernels/rates.cl:30:79 ]
	s_waitcnt vmcnt(4)
	v_add_f64 v[22:23], v[22:23], v[26:27]
	v_add_f64 v[20:21], v[20:21], v[24:25]
	.loc	0 31 20                         ; kernels/rates.cl:31:20 @[ kernels/rates.cl:30:79 ]
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 37 23                         ; kernels/rates.cl:37:23 @[ kernels/rates.cl:30:79 ]
	v_add_f64 v[14:15], v[14:15], v[22:23]
	v_add_f64 v[12:13], v[12:13], v[20:21]
	.loc	0 37 28 is_stmt 0               ; kernels/rates.cl:37:28 @[ kernels/rates.cl:30:79 ]
	v_add_f64 v[6:7], v[6:7], v[14:15]
	v_add_f64 v[4:5], v[4:5], v[12:13]
	.loc	0 37 33                         ; kernels/rates.cl:37:33 @[ kernels/rates.cl:30:79 ]
	s_waitcnt vmcnt(0)
	v_add_f64 v[6:7], v[30:31], v[6:7]
	v_add_f64 v[4:5], v[28:29], v[4:5]
	.loc	0 37 38                         ; kernels/rates.cl:37:38 @[ kernels/rates.cl:30:79 ]
	v_add_f64 v[6:7], v[18:19], v[6:7]
	v_add_f64 v[4:5], v[16:17], v[4:5]
	.loc	0 37 43                         ; kernels/rates.cl:37:43 @[ kernels/rates.cl:30:79 ]
	v_add_f64 v[6:7], v[10:11], v[6:7]
	v_add_f64 v[4:5], v[8:9], v[4:5]
	.loc	0 37 48                         ; kernels/rates.cl:37:48 @[ kernels/rates.cl:30:79 ]
	v_add_f64 v[2:3], v[2:3], v[6:7]
	v_add_f64 v[0:1], v[0:1], v[4:5]
	.loc	0 37 13                         ; kernels/rates.cl:37:13 @[ kernels/rates.cl:30:79 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp8:
	.loc	0 38 1 is_stmt 1                ; kernels/rates.cl:38:1
	s_endpgm
.Ltmp9:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel fp64_fma
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 7
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end4:
	.size	fp64_fma, .Lfunc_end4-fp64_fma
	.cfi_endproc
                                        ; -- End function
	.set fp64_fma.num_vgpr, 33
	.set fp64_fma.num_agpr, 0
	.set fp64_fma.numbered_sgpr, 7
	.set fp64_fma.num_named_barrier, 0
	.set fp64_fma.private_seg_size, 0
	.set fp64_fma.uses_vcc, 0
	.set fp64_fma.uses_flat_scratch, 0
	.set fp64_fma.has_dyn_sized_stack, 0
	.set fp64_fma.has_recursion, 0
	.set fp64_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 416
; TotalNumSgprs: 7
; NumVgprs: 33
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 7
; NumVGPRsForWavesPerEU: 33
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_fp64_fma ; -- Begin function __clang_ocl_kern_imp_fp64_fma
	.globl	__clang_ocl_kern_imp_fp64_fma
	.p2align	2
	.type	__clang_ocl_kern_imp_fp64_fma,@function
__clang_ocl_kern_imp_fp64_fma:          ; @__clang_ocl_kern_imp_fp64_fma
.Lfunc_begin5:
	.loc	0 30 0                          ; kernels/rates.cl:30:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp10:
	.loc	0 31 18 prologue_end            ; kernels/rates.cl:31:18
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v38, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v39, vcc_lo, 0, v1, vcc_lo
	.loc	0 35 23                         ; kernels/rates.cl:35:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 31 18                         ; kernels/rates.cl:31:18
	s_clause 0x7
	global_load_dwordx4 v[9:12], v[38:39], off offset:48
	global_load_dwordx4 v[17:20], v[38:39], off offset:32
	global_load_dwordx4 v[25:28], v[38:39], off offset:16
	global_load_dwordx4 v[29:32], v[38:39], off
	global_load_dwordx4 v[5:8], v[38:39], off offset:112
	global_load_dwordx4 v[13:16], v[38:39], off offset:96
	global_load_dwordx4 v[21:24], v[38:39], off offset:80
	global_load_dwordx4 v[33:36], v[38:39], off offset:64
	.loc	0 35 5                          ; kernels/rates.cl:35:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB5_4
; %bb.1:
	.loc	0 33 19                         ; kernels/rates.cl:33:19
	global_load_dwordx4 v[48:51], v[0:1], off
.LBB5_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 35 44                         ; kernels/rates.cl:35:44
	s_waitcnt vmcnt(0)
	v_fma_f64 v[31:32], v[50:51], v[31:32], v[31:32]
	v_fma_f64 v[29:30], v[48:49], v[29:30], v[29:30]
	v_fma_f64 v[27:28], v[50:51], v[27:28], v[27:28]
	v_fma_f64 v[25:26], v[48:49], v[25:26], v[25:26]
	v_fma_f64 v[19:20], v[50:51], v[19:20], v[19:20]
	v_fma_f64 v[17:18], v[48:49], v[17:18], v[17:18]
	v_fma_f64 v[11:12], v[50:51], v[11:12], v[11:12]
	v_fma_f64 v[9:10], v[48:49], v[9:10], v[9:10]
	v_fma_f64 v[35:36], v[50:51], v[35:36], v[35:36]
	v_fma_f64 v[33:34], v[48:49], v[33:34], v[33:34]
	v_fma_f64 v[23:24], v[50:51], v[23:24], v[23:24]
	v_fma_f64 v[21:22], v[48:49], v[21:22], v[21:22]
	v_fma_f64 v[15:16], v[50:51], v[15:16], v[15:16]
	v_fma_f64 v[13:14], v[48:49], v[13:14], v[13:14]
	v_fma_f64 v[7:8], v[50:51], v[7:8], v[7:8]
	v_fma_f64 v[5:6], v[48:49], v[5:6], v[5:6]
	.loc	0 35 23 is_stmt 0               ; kernels/rates.cl:35:23
	v_add_nc_u32_e32 v2, -1, v2
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 35 5                          ; kernels/rates.cl:35:5
	s_or_b32 s5, vcc_lo, s5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB5_2
; %bb.3:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB5_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 37 18 is_stmt 1               ; kernels/rates.cl:37:18
	s_waitcnt vmcnt(4)
	v_add_f64 v[0:1], v[27:28], v[31:32]
	v_add_f64 v[25:26], v[25:26], v[29:30]
	.loc	0 37 23 is_stmt 0               ; kernels/rates.cl:37:23
	v_add_f64 v[0:1], v[19:20], v[0:1]
	v_add_f64 v[17:18], v[17:18], v[25:26]
	.loc	0 37 28                         ; kernels/rates.cl:37:28
	v_add_f64 v[0:1], v[11:12], v[0:1]
	v_add_f64 v[9:10], v[9:10], v[17:18]
	.loc	0 37 33                         ; kernels/rates.cl:37:33
	s_waitcnt vmcnt(0)
	v_add_f64 v[0:1], v[35:36], v[0:1]
	v_add_f64 v[9:10], v[33:34], v[9:10]
	.loc	0 37 38                         ; kernels/rates.cl:37:38
	v_add_f64 v[0:1], v[23:24], v[0:1]
	v_add_f64 v[9:10], v[21:22], v[9:10]
	.loc	0 37 43                         ; kernels/rates.cl:37:43
	v_add_f64 v[0:1], v[15:16], v[0:1]
	v_add_f64 v[9:10], v[13:14], v[9:10]
	.loc	0 37 48                         ; kernels/rates.cl:37:48
	v_add_f64 v[7:8], v[7:8], v[0:1]
	v_add_f64 v[5:6], v[5:6], v[9:10]
	.loc	0 37 5                          ; kernels/rates.cl:37:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 37 13                         ; kernels/rates.cl:37:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 38 1 is_stmt 1                ; kernels/rates.cl:38:1
	s_setpc_b64 s[30:31]
.Ltmp11:
.Lfunc_end5:
	.size	__clang_ocl_kern_imp_fp64_fma, .Lfunc_end5-__clang_ocl_kern_imp_fp64_fma
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_fp64_fma.num_vgpr, 52
	.set __clang_ocl_kern_imp_fp64_fma.num_agpr, 0
	.set __clang_ocl_kern_imp_fp64_fma.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_fp64_fma.num_named_barrier, 0
	.set __clang_ocl_kern_imp_fp64_fma.private_seg_size, 0
	.set __clang_ocl_kern_imp_fp64_fma.uses_vcc, 1
	.set __clang_ocl_kern_imp_fp64_fma.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_fp64_fma.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_fp64_fma.has_recursion, 0
	.set __clang_ocl_kern_imp_fp64_fma.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 436
; TotalNumSgprs: 34
; NumVgprs: 52
; ScratchSize: 0
; MemoryBound: 1
	.text
	.protected	int32_mad               ; -- Begin function int32_mad
	.globl	int32_mad
	.p2align	8
	.type	int32_mad,@function
int32_mad:                              ; @int32_mad
.Lfunc_begin6:
	.cfi_startproc
; %bb.0:
	.loc	0 43 18 prologue_end            ; kernels/rates.cl:43:18 @[ kernels/rates.cl:42:76 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s3, s[4:5], 0x8
	.loc	0 43 16 is_stmt 0               ; kernels/rates.cl:43:16 @[ kernels/rates.cl:42:76 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[8:11], v32, s[0:1] offset:48
	global_load_dwordx4 v[12:15], v32, s[0:1] offset:32
	global_load_dwordx4 v[0:3], v32, s[0:1] offset:16
	global_load_dwordx4 v[4:7], v32, s[0:1]
	global_load_dwordx4 v[16:19], v32, s[0:1] offset:112
	global_load_dwordx4 v[20:23], v32, s[0:1] offset:96
	global_load_dwordx4 v[24:27], v32, s[0:1] offset:80
	global_load_dwordx4 v[28:31], v32, s[0:1] offset:64
	.loc	0 47 23 is_stmt 1               ; kernels/rates.cl:47:23 @[ kernels/rates.cl:42:76 ]
	s_cmp_lt_i32 s3, 1
	.loc	0 47 5 is_stmt 0                ; kernels/rates.cl:47:5 @[ kernels/rates.cl:42:76 ]
	s_cbranch_scc1 .LBB6_3
; %bb.1:
	.loc	0 45 17 is_stmt 1               ; kernels/rates.cl:45:17 @[ kernels/rates.cl:42:76 ]
	s_load_dwordx8 s[8:15], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_mov_b32 s0, s15
	s_mov_b32 s2, s13
.LBB6_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 47 44                         ; kernels/rates.cl:47:44 @[ kernels/rates.cl:42:76 ]
	s_waitcnt vmcnt(4)
	v_mad_u64_u32 v[33:34], s1, v7, s11, s[0:1]
	v_mad_u64_u32 v[34:35], s1, v5, s9, s[2:3]
	v_mad_u64_u32 v[35:36], s1, v1, s9, s[2:3]
	v_mad_u64_u32 v[36:37], s1, v3, s11, s[0:1]
	v_mad_u64_u32 v[0:1], s1, v0, s8, s[12:13]
	v_mad_u64_u32 v[6:7], s1, v6, s10, s[14:15]
	v_mad_u64_u32 v[4:5], s1, v4, s8, s[12:13]
	v_mov_b32_e32 v5, v34
	v_mov_b32_e32 v7, v33
	v_mad_u64_u32 v[33:34], s1, v15, s11, s[0:1]
	v_mad_u64_u32 v[2:3], s1, v2, s10, s[14:15]
	v_mov_b32_e32 v1, v35
	v_mad_u64_u32 v[34:35], s1, v13, s9, s[2:3]
	v_mov_b32_e32 v3, v36
	v_mad_u64_u32 v[35:36], s1, v9, s9, s[2:3]
	v_mad_u64_u32 v[36:37], s1, v11, s11, s[0:1]
	v_mad_u64_u32 v[8:9], s1, v8, s8, s[12:13]
	v_mad_u64_u32 v[14:15], s1, v14, s10, s[14:15]
	v_mad_u64_u32 v[12:13], s1, v12, s8, s[12:13]
	v_mov_b32_e32 v13, v34
	v_mov_b32_e32 v15, v33
	s_waitcnt vmcnt(0)
	v_mad_u64_u32 v[33:34], s1, v31, s11, s[0:1]
	v_mad_u64_u32 v[10:11], s1, v10, s10, s[14:15]
	v_mov_b32_e32 v9, v35
	v_mad_u64_u32 v[34:35], s1, v29, s9, s[2:3]
	v_mov_b32_e32 v11, v36
	v_mad_u64_u32 v[35:36], s1, v25, s9, s[2:3]
	v_mad_u64_u32 v[36:37], s1, v27, s11, s[0:1]
	v_mad_u64_u32 v[24:25], s1, v24, s8, s[12:13]
	v_mad_u64_u32 v[30:31], s1, v30, s10, s[14:15]
	v_mad_u64_u32 v[28:29], s1, v28, s8, s[12:13]
	v_mov_b32_e32 v29, v34
	v_mov_b32_e32 v31, v33
	v_mad_u64_u32 v[33:34], s1, v23, s11, s[0:1]
	v_mad_u64_u32 v[26:27], s1, v26, s10, s[14:15]
	v_mov_b32_e32 v25, v35
	v_mad_u64_u32 v[34:35], s1, v21, s9, s[2:3]
	v_mov_b32_e32 v27, v36
	v_mad_u64_u32 v[35:36], s1, v17, s9, s[2:3]
	v_mad_u64_u32 v[36:37], s1, v19, s11, s[0:1]
	v_mad_u64_u32 v[22:23], s1, v22, s10, s[14:15]
	v_mad_u64_u32 v[20:21], s1, v20, s8, s[12:13]
	v_mad_u64_u32 v[18:19], s1, v18, s10, s[14:15]
	v_mad_u64_u32 v[16:17], s1, v16, s8, s[12:13]
	v_mov_b32_e32 v21, v34
	v_mov_b32_e32 v23, v33
	v_mov_b32_e32 v17, v35
	v_mov_b32_e32 v19, v36
	.loc	0 47 23 is_stmt 0               ; kernels/rates.cl:47:23 @[ kernels/rates.cl:42:76 ]
	s_add_i32 s3, s3, -1
	s_cmp_lg_u32 s3, 0
	.loc	0 47 5                          ; kernels/rates.cl:47:5 @[ kernels/rates.cl:42:76 ]
	s_cbranch_scc1 .LBB6_2
.LBB6_3:
	.loc	0 43 18 is_stmt 1               ; kernels/rates.cl:43:18 @[ kernels/rates.cl:42:76 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 49 18                         ; kernels/rates.cl:49:18 @[ kernels/rates.cl:42:76 ]
	s_waitcnt vmcnt(6)
	v_add_nc_u32_e32 v11, v11, v15
	v_add_nc_u32_e32 v10, v10, v14
	v_add_nc_u32_e32 v9, v9, v13
	v_add_nc_u32_e32 v8, v8, v12
	.loc	0 49 28 is_stmt 0               ; kernels/rates.cl:49:28 @[ kernels/rates.cl:42:76 ]
	s_waitcnt vmcnt(0)
	v_add3_u32 v11, v11, v31, v27
	v_add3_u32 v10, v10, v30, v26
	v_add3_u32 v9, v9, v29, v25
	v_add3_u32 v8, v8, v28, v24
	.loc	0 49 38                         ; kernels/rates.cl:49:38 @[ kernels/rates.cl:42:76 ]
	v_add3_u32 v11, v11, v23, v19
	v_add3_u32 v10, v10, v22, v18
	v_add3_u32 v9, v9, v21, v17
	v_add3_u32 v8, v8, v20, v16
	.loc	0 49 48                         ; kernels/rates.cl:49:48 @[ kernels/rates.cl:42:76 ]
	v_add3_u32 v3, v11, v3, v7
	v_add3_u32 v2, v10, v2, v6
	v_add3_u32 v1, v9, v1, v5
	v_add3_u32 v0, v8, v0, v4
	.loc	0 49 13                         ; kernels/rates.cl:49:13 @[ kernels/rates.cl:42:76 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp12:
	.loc	0 50 1 is_stmt 1                ; kernels/rates.cl:50:1
	s_endpgm
.Ltmp13:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel int32_mad
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 38
		.amdhsa_next_free_sgpr 16
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end6:
	.size	int32_mad, .Lfunc_end6-int32_mad
	.cfi_endproc
                                        ; -- End function
	.set int32_mad.num_vgpr, 38
	.set int32_mad.num_agpr, 0
	.set int32_mad.numbered_sgpr, 16
	.set int32_mad.num_named_barrier, 0
	.set int32_mad.private_seg_size, 0
	.set int32_mad.uses_vcc, 0
	.set int32_mad.uses_flat_scratch, 0
	.set int32_mad.has_dyn_sized_stack, 0
	.set int32_mad.has_recursion, 0
	.set int32_mad.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 624
; TotalNumSgprs: 16
; NumVgprs: 38
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 16
; NumVGPRsForWavesPerEU: 38
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_int32_mad ; -- Begin function __clang_ocl_kern_imp_int32_mad
	.globl	__clang_ocl_kern_imp_int32_mad
	.p2align	2
	.type	__clang_ocl_kern_imp_int32_mad,@function
__clang_ocl_kern_imp_int32_mad:         ; @__clang_ocl_kern_imp_int32_mad
.Lfunc_begin7:
	.loc	0 42 0                          ; kernels/rates.cl:42:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp14:
	.loc	0 43 16 prologue_end            ; kernels/rates.cl:43:16
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v5, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v6, vcc_lo, 0, v1, vcc_lo
	.loc	0 47 23                         ; kernels/rates.cl:47:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 43 16                         ; kernels/rates.cl:43:16
	s_clause 0x7
	global_load_dwordx4 v[17:20], v[5:6], off offset:48
	global_load_dwordx4 v[21:24], v[5:6], off offset:32
	global_load_dwordx4 v[9:12], v[5:6], off offset:16
	global_load_dwordx4 v[13:16], v[5:6], off
	global_load_dwordx4 v[25:28], v[5:6], off offset:112
	global_load_dwordx4 v[29:32], v[5:6], off offset:96
	global_load_dwordx4 v[33:36], v[5:6], off offset:80
	global_load_dwordx4 v[48:51], v[5:6], off offset:64
	.loc	0 47 5                          ; kernels/rates.cl:47:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB7_4
; %bb.1:
	.loc	0 45 17                         ; kernels/rates.cl:45:17
	s_clause 0x1
	global_load_dwordx4 v[5:8], v[0:1], off offset:16
	global_load_dwordx4 v[52:55], v[0:1], off
.LBB7_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 47 44                         ; kernels/rates.cl:47:44
	s_waitcnt vmcnt(0)
	v_mad_u64_u32 v[0:1], s6, v14, v53, v[6:7]
	v_mad_u64_u32 v[13:14], s6, v13, v52, v[5:6]
	.loc	0 47 23 is_stmt 0               ; kernels/rates.cl:47:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 47 44                         ; kernels/rates.cl:47:44
	v_mov_b32_e32 v14, v0
	v_mad_u64_u32 v[0:1], s6, v16, v55, v[8:9]
	v_mad_u64_u32 v[15:16], s6, v15, v54, v[7:8]
	.loc	0 47 23                         ; kernels/rates.cl:47:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 47 44                         ; kernels/rates.cl:47:44
	v_mov_b32_e32 v16, v0
	v_mad_u64_u32 v[0:1], s6, v10, v53, v[6:7]
	v_mad_u64_u32 v[9:10], s6, v9, v52, v[5:6]
	.loc	0 47 5                          ; kernels/rates.cl:47:5
	s_or_b32 s5, vcc_lo, s5
	.loc	0 47 44                         ; kernels/rates.cl:47:44
	v_mov_b32_e32 v10, v0
	v_mad_u64_u32 v[0:1], s6, v12, v55, v[8:9]
	v_mad_u64_u32 v[11:12], s6, v11, v54, v[7:8]
	v_mov_b32_e32 v12, v0
	v_mad_u64_u32 v[0:1], s6, v22, v53, v[6:7]
	v_mad_u64_u32 v[21:22], s6, v21, v52, v[5:6]
	v_mov_b32_e32 v22, v0
	v_mad_u64_u32 v[0:1], s6, v24, v55, v[8:9]
	v_mad_u64_u32 v[23:24], s6, v23, v54, v[7:8]
	v_mov_b32_e32 v24, v0
	v_mad_u64_u32 v[0:1], s6, v18, v53, v[6:7]
	v_mad_u64_u32 v[17:18], s6, v17, v52, v[5:6]
	v_mov_b32_e32 v18, v0
	v_mad_u64_u32 v[0:1], s6, v20, v55, v[8:9]
	v_mad_u64_u32 v[19:20], s6, v19, v54, v[7:8]
	v_mov_b32_e32 v20, v0
	v_mad_u64_u32 v[0:1], s6, v49, v53, v[6:7]
	v_mad_u64_u32 v[48:49], s6, v48, v52, v[5:6]
	v_mov_b32_e32 v49, v0
	v_mad_u64_u32 v[0:1], s6, v51, v55, v[8:9]
	v_mad_u64_u32 v[50:51], s6, v50, v54, v[7:8]
	v_mov_b32_e32 v51, v0
	v_mad_u64_u32 v[0:1], s6, v34, v53, v[6:7]
	v_mad_u64_u32 v[33:34], s6, v33, v52, v[5:6]
	v_mov_b32_e32 v34, v0
	v_mad_u64_u32 v[0:1], s6, v36, v55, v[8:9]
	v_mad_u64_u32 v[35:36], s6, v35, v54, v[7:8]
	v_mov_b32_e32 v36, v0
	v_mad_u64_u32 v[0:1], s6, v30, v53, v[6:7]
	v_mad_u64_u32 v[29:30], s6, v29, v52, v[5:6]
	v_mov_b32_e32 v30, v0
	v_mad_u64_u32 v[0:1], s6, v32, v55, v[8:9]
	v_mad_u64_u32 v[31:32], s6, v31, v54, v[7:8]
	v_mov_b32_e32 v32, v0
	v_mad_u64_u32 v[0:1], s6, v26, v53, v[6:7]
	v_mad_u64_u32 v[25:26], s6, v25, v52, v[5:6]
	v_mov_b32_e32 v26, v0
	v_mad_u64_u32 v[0:1], s6, v28, v55, v[8:9]
	v_mad_u64_u32 v[27:28], s6, v27, v54, v[7:8]
	v_mov_b32_e32 v28, v0
	.loc	0 47 5                          ; kernels/rates.cl:47:5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB7_2
; %bb.3:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB7_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 49 18 is_stmt 1               ; kernels/rates.cl:49:18
	s_waitcnt vmcnt(6)
	v_add_nc_u32_e32 v0, v20, v24
	v_add_nc_u32_e32 v1, v19, v23
	v_add_nc_u32_e32 v2, v18, v22
	v_add_nc_u32_e32 v5, v17, v21
	.loc	0 49 28 is_stmt 0               ; kernels/rates.cl:49:28
	s_waitcnt vmcnt(0)
	v_add3_u32 v0, v0, v51, v36
	v_add3_u32 v1, v1, v50, v35
	v_add3_u32 v2, v2, v49, v34
	v_add3_u32 v5, v5, v48, v33
	.loc	0 49 38                         ; kernels/rates.cl:49:38
	v_add3_u32 v0, v0, v32, v28
	v_add3_u32 v1, v1, v31, v27
	v_add3_u32 v2, v2, v30, v26
	v_add3_u32 v5, v5, v29, v25
	.loc	0 49 48                         ; kernels/rates.cl:49:48
	v_add3_u32 v8, v0, v12, v16
	.loc	0 49 5                          ; kernels/rates.cl:49:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	.loc	0 49 48                         ; kernels/rates.cl:49:48
	v_add3_u32 v7, v1, v11, v15
	v_add3_u32 v6, v2, v10, v14
	v_add3_u32 v5, v5, v9, v13
	.loc	0 49 5                          ; kernels/rates.cl:49:5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 49 13                         ; kernels/rates.cl:49:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 50 1 is_stmt 1                ; kernels/rates.cl:50:1
	s_setpc_b64 s[30:31]
.Ltmp15:
.Lfunc_end7:
	.size	__clang_ocl_kern_imp_int32_mad, .Lfunc_end7-__clang_ocl_kern_imp_int32_mad
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_int32_mad.num_vgpr, 56
	.set __clang_ocl_kern_imp_int32_mad.num_agpr, 0
	.set __clang_ocl_kern_imp_int32_mad.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_int32_mad.num_named_barrier, 0
	.set __clang_ocl_kern_imp_int32_mad.private_seg_size, 0
	.set __clang_ocl_kern_imp_int32_mad.uses_vcc, 1
	.set __clang_ocl_kern_imp_int32_mad.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_int32_mad.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_int32_mad.has_recursion, 0
	.set __clang_ocl_kern_imp_int32_mad.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 640
; TotalNumSgprs: 34
; NumVgprs: 56
; ScratchSize: 0
; MemoryBound: 1
	.text
	.protected	int32_add               ; -- Begin function int32_add
	.globl	int32_add
	.p2align	8
	.type	int32_add,@function
int32_add:                              ; @int32_add
.Lfunc_begin8:
	.cfi_startproc
; %bb.0:
	.loc	0 53 18 prologue_end            ; kernels/rates.cl:53:18 @[ kernels/rates.cl:52:76 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s6, s[4:5], 0x8
	.loc	0 53 16 is_stmt 0               ; kernels/rates.cl:53:16 @[ kernels/rates.cl:52:76 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[4:7], v32, s[0:1] offset:48
	global_load_dwordx4 v[8:11], v32, s[0:1] offset:32
	global_load_dwordx4 v[12:15], v32, s[0:1] offset:16
	global_load_dwordx4 v[0:3], v32, s[0:1]
	global_load_dwordx4 v[16:19], v32, s[0:1] offset:112
	global_load_dwordx4 v[20:23], v32, s[0:1] offset:96
	global_load_dwordx4 v[24:27], v32, s[0:1] offset:80
	global_load_dwordx4 v[28:31], v32, s[0:1] offset:64
	.loc	0 57 23 is_stmt 1               ; kernels/rates.cl:57:23 @[ kernels/rates.cl:52:76 ]
	s_cmp_lt_i32 s6, 1
	.loc	0 57 5 is_stmt 0                ; kernels/rates.cl:57:5 @[ kernels/rates.cl:52:76 ]
	s_cbranch_scc1 .LBB8_3
; %bb.1:
	.loc	0 55 17 is_stmt 1               ; kernels/rates.cl:55:17 @[ kernels/rates.cl:52:76 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx4 s[0:3], s[0:1], 0x0
.LBB8_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 57 44                         ; kernels/rates.cl:57:44 @[ kernels/rates.cl:52:76 ]
	s_waitcnt vmcnt(4) lgkmcnt(0)
	v_add_nc_u32_e32 v3, s3, v3
	v_add_nc_u32_e32 v2, s2, v2
	v_add_nc_u32_e32 v1, s1, v1
	v_add_nc_u32_e32 v0, s0, v0
	v_add_nc_u32_e32 v15, s3, v15
	v_add_nc_u32_e32 v14, s2, v14
	v_add_nc_u32_e32 v13, s1, v13
	v_add_nc_u32_e32 v12, s0, v12
	v_add_nc_u32_e32 v11, s3, v11
	v_add_nc_u32_e32 v10, s2, v10
	v_add_nc_u32_e32 v9, s1, v9
	v_add_nc_u32_e32 v8, s0, v8
	v_add_nc_u32_e32 v7, s3, v7
	v_add_nc_u32_e32 v6, s2, v6
	v_add_nc_u32_e32 v5, s1, v5
	v_add_nc_u32_e32 v4, s0, v4
	s_waitcnt vmcnt(0)
	v_add_nc_u32_e32 v31, s3, v31
	v_add_nc_u32_e32 v30, s2, v30
	v_add_nc_u32_e32 v29, s1, v29
	v_add_nc_u32_e32 v28, s0, v28
	v_add_nc_u32_e32 v27, s3, v27
	v_add_nc_u32_e32 v26, s2, v26
	v_add_nc_u32_e32 v25, s1, v25
	v_add_nc_u32_e32 v24, s0, v24
	v_add_nc_u32_e32 v23, s3, v23
	v_add_nc_u32_e32 v22, s2, v22
	v_add_nc_u32_e32 v21, s1, v21
	v_add_nc_u32_e32 v20, s0, v20
	v_add_nc_u32_e32 v19, s3, v19
	v_add_nc_u32_e32 v18, s2, v18
	v_add_nc_u32_e32 v17, s1, v17
	v_add_nc_u32_e32 v16, s0, v16
	.loc	0 57 23 is_stmt 0               ; kernels/rates.cl:57:23 @[ kernels/rates.cl:52:76 ]
	s_add_i32 s6, s6, -1
	s_cmp_lg_u32 s6, 0
	.loc	0 57 5                          ; kernels/rates.cl:57:5 @[ kernels/rates.cl:52:76 ]
	s_cbranch_scc1 .LBB8_2
.LBB8_3:
	.loc	0 53 18 is_stmt 1               ; kernels/rates.cl:53:18 @[ kernels/rates.cl:52:76 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 59 18                         ; kernels/rates.cl:59:18 @[ kernels/rates.cl:52:76 ]
	s_waitcnt vmcnt(5)
	v_add_nc_u32_e32 v11, v11, v15
	v_add_nc_u32_e32 v10, v10, v14
	v_add_nc_u32_e32 v9, v9, v13
	v_add_nc_u32_e32 v8, v8, v12
	.loc	0 59 28 is_stmt 0               ; kernels/rates.cl:59:28 @[ kernels/rates.cl:52:76 ]
	s_waitcnt vmcnt(0)
	v_add3_u32 v7, v11, v7, v31
	v_add3_u32 v6, v10, v6, v30
	v_add3_u32 v5, v9, v5, v29
	v_add3_u32 v4, v8, v4, v28
	.loc	0 59 38                         ; kernels/rates.cl:59:38 @[ kernels/rates.cl:52:76 ]
	v_add3_u32 v7, v7, v27, v23
	v_add3_u32 v6, v6, v26, v22
	v_add3_u32 v5, v5, v25, v21
	v_add3_u32 v4, v4, v24, v20
	.loc	0 59 48                         ; kernels/rates.cl:59:48 @[ kernels/rates.cl:52:76 ]
	v_add3_u32 v3, v7, v19, v3
	v_add3_u32 v2, v6, v18, v2
	v_add3_u32 v1, v5, v17, v1
	v_add3_u32 v0, v4, v16, v0
	.loc	0 59 13                         ; kernels/rates.cl:59:13 @[ kernels/rates.cl:52:76 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp16:
	.loc	0 60 1 is_stmt 1                ; kernels/rates.cl:60:1
	s_endpgm
.Ltmp17:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel int32_add
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 7
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end8:
	.size	int32_add, .Lfunc_end8-int32_add
	.cfi_endproc
                                        ; -- End function
	.set int32_add.num_vgpr, 33
	.set int32_add.num_agpr, 0
	.set int32_add.numbered_sgpr, 7
	.set int32_add.num_named_barrier, 0
	.set int32_add.private_seg_size, 0
	.set int32_add.uses_vcc, 0
	.set int32_add.uses_flat_scratch, 0
	.set int32_add.has_dyn_sized_stack, 0
	.set int32_add.has_recursion, 0
	.set int32_add.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 420
; TotalNumSgprs: 7
; NumVgprs: 33
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 7
; NumVGPRsForWavesPerEU: 33
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_int32_add ; -- Begin function __clang_ocl_kern_imp_int32_add
	.globl	__clang_ocl_kern_imp_int32_add
	.p2align	2
	.type	__clang_ocl_kern_imp_int32_add,@function
__clang_ocl_kern_imp_int32_add:         ; @__clang_ocl_kern_imp_int32_add
.Lfunc_begin9:
	.loc	0 52 0                          ; kernels/rates.cl:52:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp18:
	.loc	0 53 16 prologue_end            ; kernels/rates.cl:53:16
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v38, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v39, vcc_lo, 0, v1, vcc_lo
	.loc	0 57 23                         ; kernels/rates.cl:57:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 53 16                         ; kernels/rates.cl:53:16
	s_clause 0x7
	global_load_dwordx4 v[9:12], v[38:39], off offset:48
	global_load_dwordx4 v[13:16], v[38:39], off offset:32
	global_load_dwordx4 v[17:20], v[38:39], off offset:16
	global_load_dwordx4 v[5:8], v[38:39], off
	global_load_dwordx4 v[21:24], v[38:39], off offset:112
	global_load_dwordx4 v[25:28], v[38:39], off offset:96
	global_load_dwordx4 v[29:32], v[38:39], off offset:80
	global_load_dwordx4 v[33:36], v[38:39], off offset:64
	.loc	0 57 5                          ; kernels/rates.cl:57:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB9_4
; %bb.1:
	.loc	0 55 17                         ; kernels/rates.cl:55:17
	global_load_dwordx4 v[48:51], v[0:1], off
.LBB9_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 57 23                         ; kernels/rates.cl:57:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 57 44 is_stmt 0               ; kernels/rates.cl:57:44
	s_waitcnt vmcnt(0)
	v_add_nc_u32_e32 v8, v8, v51
	v_add_nc_u32_e32 v7, v7, v50
	v_add_nc_u32_e32 v6, v6, v49
	v_add_nc_u32_e32 v5, v5, v48
	.loc	0 57 23                         ; kernels/rates.cl:57:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 57 44                         ; kernels/rates.cl:57:44
	v_add_nc_u32_e32 v20, v20, v51
	v_add_nc_u32_e32 v19, v19, v50
	v_add_nc_u32_e32 v18, v18, v49
	v_add_nc_u32_e32 v17, v17, v48
	v_add_nc_u32_e32 v16, v16, v51
	v_add_nc_u32_e32 v15, v15, v50
	v_add_nc_u32_e32 v14, v14, v49
	v_add_nc_u32_e32 v13, v13, v48
	v_add_nc_u32_e32 v12, v12, v51
	v_add_nc_u32_e32 v11, v11, v50
	v_add_nc_u32_e32 v10, v10, v49
	v_add_nc_u32_e32 v9, v9, v48
	v_add_nc_u32_e32 v36, v36, v51
	v_add_nc_u32_e32 v35, v35, v50
	v_add_nc_u32_e32 v34, v34, v49
	v_add_nc_u32_e32 v33, v33, v48
	v_add_nc_u32_e32 v32, v32, v51
	v_add_nc_u32_e32 v31, v31, v50
	v_add_nc_u32_e32 v30, v30, v49
	v_add_nc_u32_e32 v29, v29, v48
	v_add_nc_u32_e32 v28, v28, v51
	v_add_nc_u32_e32 v27, v27, v50
	v_add_nc_u32_e32 v26, v26, v49
	v_add_nc_u32_e32 v25, v25, v48
	v_add_nc_u32_e32 v24, v24, v51
	v_add_nc_u32_e32 v23, v23, v50
	v_add_nc_u32_e32 v22, v22, v49
	v_add_nc_u32_e32 v21, v21, v48
	.loc	0 57 5                          ; kernels/rates.cl:57:5
	s_or_b32 s5, vcc_lo, s5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB9_2
; %bb.3:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB9_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 59 18 is_stmt 1               ; kernels/rates.cl:59:18
	s_waitcnt vmcnt(5)
	v_add_nc_u32_e32 v0, v16, v20
	v_add_nc_u32_e32 v1, v15, v19
	v_add_nc_u32_e32 v2, v14, v18
	v_add_nc_u32_e32 v13, v13, v17
	.loc	0 59 28 is_stmt 0               ; kernels/rates.cl:59:28
	s_waitcnt vmcnt(0)
	v_add3_u32 v0, v0, v12, v36
	v_add3_u32 v1, v1, v11, v35
	v_add3_u32 v2, v2, v10, v34
	v_add3_u32 v9, v13, v9, v33
	.loc	0 59 38                         ; kernels/rates.cl:59:38
	v_add3_u32 v0, v0, v32, v28
	v_add3_u32 v1, v1, v31, v27
	v_add3_u32 v2, v2, v30, v26
	v_add3_u32 v9, v9, v29, v25
	.loc	0 59 48                         ; kernels/rates.cl:59:48
	v_add3_u32 v8, v0, v24, v8
	.loc	0 59 5                          ; kernels/rates.cl:59:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	.loc	0 59 48                         ; kernels/rates.cl:59:48
	v_add3_u32 v7, v1, v23, v7
	v_add3_u32 v6, v2, v22, v6
	v_add3_u32 v5, v9, v21, v5
	.loc	0 59 5                          ; kernels/rates.cl:59:5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 59 13                         ; kernels/rates.cl:59:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 60 1 is_stmt 1                ; kernels/rates.cl:60:1
	s_setpc_b64 s[30:31]
.Ltmp19:
.Lfunc_end9:
	.size	__clang_ocl_kern_imp_int32_add, .Lfunc_end9-__clang_ocl_kern_imp_int32_add
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_int32_add.num_vgpr, 52
	.set __clang_ocl_kern_imp_int32_add.num_agpr, 0
	.set __clang_ocl_kern_imp_int32_add.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_int32_add.num_named_barrier, 0
	.set __clang_ocl_kern_imp_int32_add.private_seg_size, 0
	.set __clang_ocl_kern_imp_int32_add.uses_vcc, 1
	.set __clang_ocl_kern_imp_int32_add.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_int32_add.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_int32_add.has_recursion, 0
	.set __clang_ocl_kern_imp_int32_add.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 436
; TotalNumSgprs: 34
; NumVgprs: 52
; ScratchSize: 0
; MemoryBound: 1
	.text
	.protected	fp32_rcp                ; -- Begin function fp32_rcp
	.globl	fp32_rcp
	.p2align	8
	.type	fp32_rcp,@function
fp32_rcp:                               ; @fp32_rcp
.Lfunc_begin10:
	.cfi_startproc
; %bb.0:
	.loc	0 63 19 prologue_end            ; kernels/rates.cl:63:19 @[ kernels/rates.cl:62:77 ]
	s_clause 0x1
	s_load_dwordx2 s[2:3], s[4:5], 0x0
	s_load_dword s0, s[4:5], 0x8
	.loc	0 63 17 is_stmt 0               ; kernels/rates.cl:63:17 @[ kernels/rates.cl:62:77 ]
	v_lshlrev_b32_e32 v32, 4, v0
	s_waitcnt lgkmcnt(0)
	s_clause 0x7
	global_load_dwordx4 v[0:3], v32, s[2:3]
	global_load_dwordx4 v[28:31], v32, s[2:3] offset:16
	global_load_dwordx4 v[20:23], v32, s[2:3] offset:32
	global_load_dwordx4 v[24:27], v32, s[2:3] offset:48
	global_load_dwordx4 v[8:11], v32, s[2:3] offset:64
	global_load_dwordx4 v[16:19], v32, s[2:3] offset:80
	global_load_dwordx4 v[4:7], v32, s[2:3] offset:96
	global_load_dwordx4 v[12:15], v32, s[2:3] offset:112
	.loc	0 66 23 is_stmt 1               ; kernels/rates.cl:66:23 @[ kernels/rates.cl:62:77 ]
	s_cmp_lt_i32 s0, 1
	.loc	0 66 5 is_stmt 0                ; kernels/rates.cl:66:5 @[ kernels/rates.cl:62:77 ]
	s_cbranch_scc1 .LBB10_2
.LBB10_1:                               ; =>This Inner Loop Header: Depth=1
	.loc	0 66 44                         ; kernels/rates.cl:66:44 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(7)
	v_rcp_f32_e32 v0, v0
	v_rcp_f32_e32 v1, v1
	v_rcp_f32_e32 v2, v2
	v_rcp_f32_e32 v3, v3
	s_waitcnt vmcnt(6)
	v_rcp_f32_e32 v28, v28
	v_rcp_f32_e32 v29, v29
	v_rcp_f32_e32 v30, v30
	v_rcp_f32_e32 v31, v31
	s_waitcnt vmcnt(5)
	v_rcp_f32_e32 v20, v20
	v_rcp_f32_e32 v21, v21
	v_rcp_f32_e32 v22, v22
	v_rcp_f32_e32 v23, v23
	s_waitcnt vmcnt(4)
	v_rcp_f32_e32 v24, v24
	v_rcp_f32_e32 v25, v25
	v_rcp_f32_e32 v26, v26
	v_rcp_f32_e32 v27, v27
	s_waitcnt vmcnt(3)
	v_rcp_f32_e32 v8, v8
	v_rcp_f32_e32 v9, v9
	v_rcp_f32_e32 v10, v10
	v_rcp_f32_e32 v11, v11
	s_waitcnt vmcnt(2)
	v_rcp_f32_e32 v16, v16
	v_rcp_f32_e32 v17, v17
	v_rcp_f32_e32 v18, v18
	v_rcp_f32_e32 v19, v19
	s_waitcnt vmcnt(1)
	v_rcp_f32_e32 v4, v4
	v_rcp_f32_e32 v5, v5
	v_rcp_f32_e32 v6, v6
	v_rcp_f32_e32 v7, v7
	s_waitcnt vmcnt(0)
	v_rcp_f32_e32 v12, v12
	v_rcp_f32_e32 v13, v13
	v_rcp_f32_e32 v14, v14
	v_rcp_f32_e32 v15, v15
	.loc	0 66 23                         ; kernels/rates.cl:66:23 @[ kernels/rates.cl:62:77 ]
	s_add_i32 s0, s0, -1
	s_cmp_lg_u32 s0, 0
	.loc	0 66 5                          ; kernels/rates.cl:66:5 @[ kernels/rates.cl:62:77 ]
	s_cbranch_scc1 .LBB10_1
.LBB10_2:
	.loc	0 68 18 is_stmt 1               ; kernels/rates.cl:68:18 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(6)
	v_add_f32_e32 v3, v31, v3
	v_add_f32_e32 v2, v30, v2
	v_add_f32_e32 v1, v29, v1
	v_add_f32_e32 v0, v28, v0
	.loc	0 63 19                         ; kernels/rates.cl:63:19 @[ kernels/rates.cl:62:77 ]
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 68 23                         ; kernels/rates.cl:68:23 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(5)
	v_add_f32_e32 v3, v23, v3
	v_add_f32_e32 v2, v22, v2
	v_add_f32_e32 v1, v21, v1
	v_add_f32_e32 v0, v20, v0
	.loc	0 68 28 is_stmt 0               ; kernels/rates.cl:68:28 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(4)
	v_add_f32_e32 v3, v27, v3
	v_add_f32_e32 v2, v26, v2
	v_add_f32_e32 v1, v25, v1
	v_add_f32_e32 v0, v24, v0
	.loc	0 68 33                         ; kernels/rates.cl:68:33 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(3)
	v_add_f32_e32 v3, v11, v3
	v_add_f32_e32 v2, v10, v2
	v_add_f32_e32 v1, v9, v1
	v_add_f32_e32 v0, v8, v0
	.loc	0 68 38                         ; kernels/rates.cl:68:38 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(2)
	v_add_f32_e32 v3, v19, v3
	v_add_f32_e32 v2, v18, v2
	v_add_f32_e32 v1, v17, v1
	v_add_f32_e32 v0, v16, v0
	.loc	0 68 43                         ; kernels/rates.cl:68:43 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(1)
	v_add_f32_e32 v3, v7, v3
	v_add_f32_e32 v2, v6, v2
	v_add_f32_e32 v1, v5, v1
	v_add_f32_e32 v0, v4, v0
	.loc	0 68 48                         ; kernels/rates.cl:68:48 @[ kernels/rates.cl:62:77 ]
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v3, v15, v3
	v_add_f32_e32 v2, v14, v2
	v_add_f32_e32 v1, v13, v1
	v_add_f32_e32 v0, v12, v0
	.loc	0 68 13                         ; kernels/rates.cl:68:13 @[ kernels/rates.cl:62:77 ]
	s_waitcnt lgkmcnt(0)
	global_store_dwordx4 v32, v[0:3], s[0:1]
.Ltmp20:
	.loc	0 69 1 is_stmt 1                ; kernels/rates.cl:69:1
	s_endpgm
.Ltmp21:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel fp32_rcp
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 33
		.amdhsa_next_free_sgpr 6
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end10:
	.size	fp32_rcp, .Lfunc_end10-fp32_rcp
	.cfi_endproc
                                        ; -- End function
	.set fp32_rcp.num_vgpr, 33
	.set fp32_rcp.num_agpr, 0
	.set fp32_rcp.numbered_sgpr, 6
	.set fp32_rcp.num_named_barrier, 0
	.set fp32_rcp.private_seg_size, 0
	.set fp32_rcp.uses_vcc, 0
	.set fp32_rcp.uses_flat_scratch, 0
	.set fp32_rcp.has_dyn_sized_stack, 0
	.set fp32_rcp.has_recursion, 0
	.set fp32_rcp.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 448
; TotalNumSgprs: 6
; NumVgprs: 33
; ScratchSize: 0
; MemoryBound: 1
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 4
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 33
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_fp32_rcp ; -- Begin function __clang_ocl_kern_imp_fp32_rcp
	.globl	__clang_ocl_kern_imp_fp32_rcp
	.p2align	2
	.type	__clang_ocl_kern_imp_fp32_rcp,@function
__clang_ocl_kern_imp_fp32_rcp:          ; @__clang_ocl_kern_imp_fp32_rcp
.Lfunc_begin11:
	.loc	0 62 0                          ; kernels/rates.cl:62:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp22:
	.loc	0 63 17 prologue_end            ; kernels/rates.cl:63:17
	v_lshlrev_b32_e32 v37, 4, v5
	v_add_co_u32 v0, vcc_lo, v0, v37
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v1, vcc_lo
	.loc	0 66 23                         ; kernels/rates.cl:66:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 63 17                         ; kernels/rates.cl:63:17
	s_clause 0x7
	global_load_dwordx4 v[9:12], v[0:1], off offset:48
	global_load_dwordx4 v[17:20], v[0:1], off offset:32
	global_load_dwordx4 v[25:28], v[0:1], off offset:16
	global_load_dwordx4 v[29:32], v[0:1], off
	global_load_dwordx4 v[5:8], v[0:1], off offset:112
	global_load_dwordx4 v[13:16], v[0:1], off offset:96
	global_load_dwordx4 v[21:24], v[0:1], off offset:80
	global_load_dwordx4 v[33:36], v[0:1], off offset:64
	.loc	0 66 5                          ; kernels/rates.cl:66:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB11_3
.LBB11_1:                               ; =>This Inner Loop Header: Depth=1
	.loc	0 66 23 is_stmt 0               ; kernels/rates.cl:66:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 66 44                         ; kernels/rates.cl:66:44
	s_waitcnt vmcnt(4)
	v_rcp_f32_e32 v29, v29
	v_rcp_f32_e32 v30, v30
	v_rcp_f32_e32 v31, v31
	v_rcp_f32_e32 v32, v32
	v_rcp_f32_e32 v25, v25
	v_rcp_f32_e32 v26, v26
	v_rcp_f32_e32 v27, v27
	v_rcp_f32_e32 v28, v28
	v_rcp_f32_e32 v17, v17
	v_rcp_f32_e32 v18, v18
	v_rcp_f32_e32 v19, v19
	v_rcp_f32_e32 v20, v20
	v_rcp_f32_e32 v9, v9
	v_rcp_f32_e32 v10, v10
	v_rcp_f32_e32 v11, v11
	v_rcp_f32_e32 v12, v12
	s_waitcnt vmcnt(0)
	v_rcp_f32_e32 v33, v33
	v_rcp_f32_e32 v34, v34
	v_rcp_f32_e32 v35, v35
	v_rcp_f32_e32 v36, v36
	v_rcp_f32_e32 v21, v21
	v_rcp_f32_e32 v22, v22
	v_rcp_f32_e32 v23, v23
	v_rcp_f32_e32 v24, v24
	v_rcp_f32_e32 v13, v13
	v_rcp_f32_e32 v14, v14
	v_rcp_f32_e32 v15, v15
	v_rcp_f32_e32 v16, v16
	v_rcp_f32_e32 v5, v5
	v_rcp_f32_e32 v6, v6
	v_rcp_f32_e32 v7, v7
	v_rcp_f32_e32 v8, v8
	.loc	0 66 23                         ; kernels/rates.cl:66:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 66 5                          ; kernels/rates.cl:66:5
	s_or_b32 s5, vcc_lo, s5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB11_1
; %bb.2:
	.loc	0 0 5                           ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB11_3:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 68 18 is_stmt 1               ; kernels/rates.cl:68:18
	s_waitcnt vmcnt(4)
	v_add_f32_e32 v0, v28, v32
	v_add_f32_e32 v1, v27, v31
	v_add_f32_e32 v2, v26, v30
	v_add_f32_e32 v25, v25, v29
	.loc	0 68 23 is_stmt 0               ; kernels/rates.cl:68:23
	v_add_f32_e32 v0, v20, v0
	v_add_f32_e32 v1, v19, v1
	v_add_f32_e32 v2, v18, v2
	v_add_f32_e32 v17, v17, v25
	.loc	0 68 28                         ; kernels/rates.cl:68:28
	v_add_f32_e32 v0, v12, v0
	v_add_f32_e32 v1, v11, v1
	v_add_f32_e32 v2, v10, v2
	v_add_f32_e32 v9, v9, v17
	.loc	0 68 33                         ; kernels/rates.cl:68:33
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, v36, v0
	v_add_f32_e32 v1, v35, v1
	v_add_f32_e32 v2, v34, v2
	v_add_f32_e32 v9, v33, v9
	.loc	0 68 38                         ; kernels/rates.cl:68:38
	v_add_f32_e32 v0, v24, v0
	v_add_f32_e32 v1, v23, v1
	v_add_f32_e32 v2, v22, v2
	v_add_f32_e32 v9, v21, v9
	.loc	0 68 43                         ; kernels/rates.cl:68:43
	v_add_f32_e32 v0, v16, v0
	v_add_f32_e32 v1, v15, v1
	v_add_f32_e32 v2, v14, v2
	v_add_f32_e32 v9, v13, v9
	.loc	0 68 48                         ; kernels/rates.cl:68:48
	v_add_f32_e32 v8, v8, v0
	.loc	0 68 5                          ; kernels/rates.cl:68:5
	v_add_co_u32 v0, vcc_lo, v3, v37
	.loc	0 68 48                         ; kernels/rates.cl:68:48
	v_add_f32_e32 v7, v7, v1
	v_add_f32_e32 v6, v6, v2
	v_add_f32_e32 v5, v5, v9
	.loc	0 68 5                          ; kernels/rates.cl:68:5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 68 13                         ; kernels/rates.cl:68:13
	global_store_dwordx4 v[0:1], v[5:8], off
	.loc	0 69 1 is_stmt 1                ; kernels/rates.cl:69:1
	s_setpc_b64 s[30:31]
.Ltmp23:
.Lfunc_end11:
	.size	__clang_ocl_kern_imp_fp32_rcp, .Lfunc_end11-__clang_ocl_kern_imp_fp32_rcp
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_fp32_rcp.num_vgpr, 38
	.set __clang_ocl_kern_imp_fp32_rcp.num_agpr, 0
	.set __clang_ocl_kern_imp_fp32_rcp.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_fp32_rcp.num_named_barrier, 0
	.set __clang_ocl_kern_imp_fp32_rcp.private_seg_size, 0
	.set __clang_ocl_kern_imp_fp32_rcp.uses_vcc, 1
	.set __clang_ocl_kern_imp_fp32_rcp.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_fp32_rcp.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_fp32_rcp.has_recursion, 0
	.set __clang_ocl_kern_imp_fp32_rcp.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 432
; TotalNumSgprs: 34
; NumVgprs: 38
; ScratchSize: 0
; MemoryBound: 1
	.text
	.protected	fp32_fma_latency        ; -- Begin function fp32_fma_latency
	.globl	fp32_fma_latency
	.p2align	8
	.type	fp32_fma_latency,@function
fp32_fma_latency:                       ; @fp32_fma_latency
.Lfunc_begin12:
	.cfi_startproc
; %bb.0:
	.loc	0 74 17 prologue_end            ; kernels/rates.cl:74:17 @[ kernels/rates.cl:73:83 ]
	s_clause 0x1
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_load_dword s2, s[4:5], 0x8
	.loc	0 74 15 is_stmt 0               ; kernels/rates.cl:74:15 @[ kernels/rates.cl:73:83 ]
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v1, v0, s[0:1]
	.loc	0 75 23 is_stmt 1               ; kernels/rates.cl:75:23 @[ kernels/rates.cl:73:83 ]
	s_cmp_lt_i32 s2, 1
	.loc	0 75 5 is_stmt 0                ; kernels/rates.cl:75:5 @[ kernels/rates.cl:73:83 ]
	s_cbranch_scc1 .LBB12_3
; %bb.1:
	.loc	0 74 28 is_stmt 1               ; kernels/rates.cl:74:28 @[ kernels/rates.cl:73:83 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dword s0, s[0:1], 0x0
.LBB12_2:                               ; =>This Inner Loop Header: Depth=1
	.loc	0 76 13                         ; kernels/rates.cl:76:13 @[ kernels/rates.cl:73:83 ]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 75 23                         ; kernels/rates.cl:75:23 @[ kernels/rates.cl:73:83 ]
	s_add_i32 s2, s2, -1
	s_cmp_lg_u32 s2, 0
	.loc	0 76 33                         ; kernels/rates.cl:76:33 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 76 53 is_stmt 0               ; kernels/rates.cl:76:53 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 76 73                         ; kernels/rates.cl:76:73 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 77 13 is_stmt 1               ; kernels/rates.cl:77:13 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 77 33 is_stmt 0               ; kernels/rates.cl:77:33 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 77 53                         ; kernels/rates.cl:77:53 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 77 73                         ; kernels/rates.cl:77:73 @[ kernels/rates.cl:73:83 ]
	v_fmac_f32_e32 v1, s0, v1
	.loc	0 75 5 is_stmt 1                ; kernels/rates.cl:75:5 @[ kernels/rates.cl:73:83 ]
	s_cbranch_scc1 .LBB12_2
.LBB12_3:
	.loc	0 74 17                         ; kernels/rates.cl:74:17 @[ kernels/rates.cl:73:83 ]
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_load_dwordx2 s[0:1], s[4:5], 0x10
	.loc	0 79 13                         ; kernels/rates.cl:79:13 @[ kernels/rates.cl:73:83 ]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
.Ltmp24:
	.loc	0 80 1                          ; kernels/rates.cl:80:1
	s_endpgm
.Ltmp25:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel fp32_fma_latency
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_wavefront_size32 1
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_workgroup_processor_mode 1
		.amdhsa_memory_ordered 1
		.amdhsa_forward_progress 1
		.amdhsa_shared_vgpr_count 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end12:
	.size	fp32_fma_latency, .Lfunc_end12-fp32_fma_latency
	.cfi_endproc
                                        ; -- End function
	.set fp32_fma_latency.num_vgpr, 2
	.set fp32_fma_latency.num_agpr, 0
	.set fp32_fma_latency.numbered_sgpr, 6
	.set fp32_fma_latency.num_named_barrier, 0
	.set fp32_fma_latency.private_seg_size, 0
	.set fp32_fma_latency.uses_vcc, 0
	.set fp32_fma_latency.uses_flat_scratch, 0
	.set fp32_fma_latency.has_dyn_sized_stack, 0
	.set fp32_fma_latency.has_recursion, 0
	.set fp32_fma_latency.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 140
; TotalNumSgprs: 6
; NumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 2
; Occupancy: 20
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.protected	__clang_ocl_kern_imp_fp32_fma_latency ; -- Begin function __clang_ocl_kern_imp_fp32_fma_latency
	.globl	__clang_ocl_kern_imp_fp32_fma_latency
	.p2align	2
	.type	__clang_ocl_kern_imp_fp32_fma_latency,@function
__clang_ocl_kern_imp_fp32_fma_latency:  ; @__clang_ocl_kern_imp_fp32_fma_latency
.Lfunc_begin13:
	.loc	0 73 0                          ; kernels/rates.cl:73:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	v_and_b32_e32 v5, 0x3ff, v31
	s_mov_b32 s5, 0
.Ltmp26:
	.loc	0 74 15 prologue_end            ; kernels/rates.cl:74:15
	v_lshlrev_b32_e32 v5, 2, v5
	v_add_co_u32 v6, vcc_lo, v0, v5
	v_add_co_ci_u32_e32 v7, vcc_lo, 0, v1, vcc_lo
	.loc	0 75 23                         ; kernels/rates.cl:75:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 74 15                         ; kernels/rates.cl:74:15
	global_load_dword v6, v[6:7], off
	.loc	0 75 5                          ; kernels/rates.cl:75:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB13_4
; %bb.1:
	.loc	0 74 28                         ; kernels/rates.cl:74:28
	global_load_dword v0, v[0:1], off
.LBB13_2:                               ; =>This Inner Loop Header: Depth=1
	.loc	0 76 13                         ; kernels/rates.cl:76:13
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 75 23                         ; kernels/rates.cl:75:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 76 33                         ; kernels/rates.cl:76:33
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 75 23                         ; kernels/rates.cl:75:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 76 53                         ; kernels/rates.cl:76:53
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 75 5                          ; kernels/rates.cl:75:5
	s_or_b32 s5, vcc_lo, s5
	.loc	0 76 73                         ; kernels/rates.cl:76:73
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 77 13                         ; kernels/rates.cl:77:13
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 77 33 is_stmt 0               ; kernels/rates.cl:77:33
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 77 53                         ; kernels/rates.cl:77:53
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 77 73                         ; kernels/rates.cl:77:73
	v_fmac_f32_e32 v6, v0, v6
	.loc	0 75 5 is_stmt 1                ; kernels/rates.cl:75:5
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB13_2
; %bb.3:
	.loc	0 0 5 is_stmt 0                 ; kernels/rates.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB13_4:
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 79 5 is_stmt 1                ; kernels/rates.cl:79:5
	v_add_co_u32 v0, vcc_lo, v3, v5
	v_add_co_ci_u32_e32 v1, vcc_lo, 0, v4, vcc_lo
	.loc	0 79 13 is_stmt 0               ; kernels/rates.cl:79:13
	s_waitcnt vmcnt(0)
	global_store_dword v[0:1], v6, off
	.loc	0 80 1 is_stmt 1                ; kernels/rates.cl:80:1
	s_setpc_b64 s[30:31]
.Ltmp27:
.Lfunc_end13:
	.size	__clang_ocl_kern_imp_fp32_fma_latency, .Lfunc_end13-__clang_ocl_kern_imp_fp32_fma_latency
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_fp32_fma_latency.num_vgpr, 32
	.set __clang_ocl_kern_imp_fp32_fma_latency.num_agpr, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_fp32_fma_latency.num_named_barrier, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.private_seg_size, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.uses_vcc, 1
	.set __clang_ocl_kern_imp_fp32_fma_latency.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.has_recursion, 0
	.set __clang_ocl_kern_imp_fp32_fma_latency.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 164
; TotalNumSgprs: 34
; NumVgprs: 32
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3214868480
	.fill 48, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 56
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 32
	.set amdgpu.max_num_named_barrier, 0
	.text
	.section	.debug_abbrev,"",@progbits
	.byte	1                               ; Abbreviation Code
	.byte	17                              ; DW_TAG_compile_unit
	.byte	1                               ; DW_CHILDREN_yes
	.byte	37                              ; DW_AT_producer
	.byte	37                              ; DW_FORM_strx1
	.byte	19                              ; DW_AT_language
	.byte	5                               ; DW_FORM_data2
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	114                             ; DW_AT_str_offsets_base
	.byte	23                              ; DW_FORM_sec_offset
	.byte	16                              ; DW_AT_stmt_list
	.byte	23                              ; DW_FORM_sec_offset
	.byte	27                              ; DW_AT_comp_dir
	.byte	37                              ; DW_FORM_strx1
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	115                             ; DW_AT_addr_base
	.byte	23                              ; DW_FORM_sec_offset
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	2                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	0                               ; DW_CHILDREN_no
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	32                              ; DW_AT_inline
	.byte	33                              ; DW_FORM_implicit_const
	.byte	1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	3                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	122                             ; DW_AT_call_all_calls
	.byte	25                              ; DW_FORM_flag_present
	.byte	3                               ; DW_AT_name
	.byte	37                              ; DW_FORM_strx1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	4                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	0                               ; DW_CHILDREN_no
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	17                              ; DW_AT_low_pc
	.byte	27                              ; DW_FORM_addrx
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	11                              ; DW_FORM_data1
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	0                               ; EOM(3)
	.section	.debug_info,"",@progbits
.Lcu_begin0:
	.long	.Ldebug_info_end0-.Ldebug_info_start0 ; Length of Unit
.Ldebug_info_start0:
	.short	5                               ; DWARF version number
	.byte	1                               ; DWARF Unit Type
	.byte	8                               ; Address Size (in bytes)
	.long	.debug_abbrev                   ; Offset Into Abbrev. Section
	.byte	1                               ; Abbrev [1] 0xc:0xb9 DW_TAG_compile_unit
	.byte	0                               ; DW_AT_producer
	.short	21                              ; DW_AT_language
	.byte	1                               ; DW_AT_name
	.long	.Lstr_offsets_base0             ; DW_AT_str_offsets_base
	.long	.Lline_table_start0             ; DW_AT_stmt_list
	.byte	2                               ; DW_AT_comp_dir
	.byte	0                               ; DW_AT_low_pc
	.long	.Lfunc_end13-.Lfunc_begin0      ; DW_AT_high_pc
	.long	.Laddr_table_base0              ; DW_AT_addr_base
	.byte	2                               ; Abbrev [2] 0x23:0x2 DW_TAG_subprogram
	.byte	3                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x25:0x15 DW_TAG_subprogram
	.byte	0                               ; DW_AT_low_pc
	.long	.Lfunc_end0-.Lfunc_begin0       ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	3                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x2c:0xd DW_TAG_inlined_subroutine
	.long	35                              ; DW_AT_abstract_origin
	.byte	0                               ; DW_AT_low_pc
	.long	.Ltmp0-.Lfunc_begin0            ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	10                              ; DW_AT_call_line
	.byte	77                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x3a:0x2 DW_TAG_subprogram
	.byte	4                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x3c:0x15 DW_TAG_subprogram
	.byte	1                               ; DW_AT_low_pc
	.long	.Lfunc_end2-.Lfunc_begin2       ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	4                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x43:0xd DW_TAG_inlined_subroutine
	.long	58                              ; DW_AT_abstract_origin
	.byte	1                               ; DW_AT_low_pc
	.long	.Ltmp4-.Lfunc_begin2            ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	20                              ; DW_AT_call_line
	.byte	75                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x51:0x2 DW_TAG_subprogram
	.byte	5                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x53:0x15 DW_TAG_subprogram
	.byte	2                               ; DW_AT_low_pc
	.long	.Lfunc_end4-.Lfunc_begin4       ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	5                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x5a:0xd DW_TAG_inlined_subroutine
	.long	81                              ; DW_AT_abstract_origin
	.byte	2                               ; DW_AT_low_pc
	.long	.Ltmp8-.Lfunc_begin4            ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	30                              ; DW_AT_call_line
	.byte	79                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x68:0x2 DW_TAG_subprogram
	.byte	6                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x6a:0x15 DW_TAG_subprogram
	.byte	3                               ; DW_AT_low_pc
	.long	.Lfunc_end6-.Lfunc_begin6       ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	6                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x71:0xd DW_TAG_inlined_subroutine
	.long	104                             ; DW_AT_abstract_origin
	.byte	3                               ; DW_AT_low_pc
	.long	.Ltmp12-.Lfunc_begin6           ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	42                              ; DW_AT_call_line
	.byte	76                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x7f:0x2 DW_TAG_subprogram
	.byte	7                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x81:0x15 DW_TAG_subprogram
	.byte	4                               ; DW_AT_low_pc
	.long	.Lfunc_end8-.Lfunc_begin8       ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	7                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x88:0xd DW_TAG_inlined_subroutine
	.long	127                             ; DW_AT_abstract_origin
	.byte	4                               ; DW_AT_low_pc
	.long	.Ltmp16-.Lfunc_begin8           ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	52                              ; DW_AT_call_line
	.byte	76                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x96:0x2 DW_TAG_subprogram
	.byte	8                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x98:0x15 DW_TAG_subprogram
	.byte	5                               ; DW_AT_low_pc
	.long	.Lfunc_end10-.Lfunc_begin10     ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	8                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x9f:0xd DW_TAG_inlined_subroutine
	.long	150                             ; DW_AT_abstract_origin
	.byte	5                               ; DW_AT_low_pc
	.long	.Ltmp20-.Lfunc_begin10          ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	62                              ; DW_AT_call_line
	.byte	77                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0xad:0x2 DW_TAG_subprogram
	.byte	9                               ; DW_AT_name
                                        ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0xaf:0x15 DW_TAG_subprogram
	.byte	6                               ; DW_AT_low_pc
	.long	.Lfunc_end12-.Lfunc_begin12     ; DW_AT_high_pc
                                        ; DW_AT_call_all_calls
	.byte	9                               ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0xb6:0xd DW_TAG_inlined_subroutine
	.long	173                             ; DW_AT_abstract_origin
	.byte	6                               ; DW_AT_low_pc
	.long	.Ltmp24-.Lfunc_begin12          ; DW_AT_high_pc
	.byte	0                               ; DW_AT_call_file
	.byte	73                              ; DW_AT_call_line
	.byte	83                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_str_offsets,"",@progbits
	.long	44                              ; Length of String Offsets Set
	.short	5
	.short	0
.Lstr_offsets_base0:
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"Debian clang version 22.1.8 (1~deb12u1)" ; string offset=0
.Linfo_string1:
	.asciz	"kernels/rates.cl"              ; string offset=40
.Linfo_string2:
	.asciz	"."                             ; string offset=57
.Linfo_string3:
	.asciz	"fp32_fma"                      ; string offset=59
.Linfo_string4:
	.asciz	"fp16_fma"                      ; string offset=68
.Linfo_string5:
	.asciz	"fp64_fma"                      ; string offset=77
.Linfo_string6:
	.asciz	"int32_mad"                     ; string offset=86
.Linfo_string7:
	.asciz	"int32_add"                     ; string offset=96
.Linfo_string8:
	.asciz	"fp32_rcp"                      ; string offset=106
.Linfo_string9:
	.asciz	"fp32_fma_latency"              ; string offset=115
	.section	.debug_str_offsets,"",@progbits
	.long	.Linfo_string0
	.long	.Linfo_string1
	.long	.Linfo_string2
	.long	.Linfo_string3
	.long	.Linfo_string4
	.long	.Linfo_string5
	.long	.Linfo_string6
	.long	.Linfo_string7
	.long	.Linfo_string8
	.long	.Linfo_string9
	.section	.debug_addr,"",@progbits
	.long	.Ldebug_addr_end0-.Ldebug_addr_start0 ; Length of contribution
.Ldebug_addr_start0:
	.short	5                               ; DWARF version number
	.byte	8                               ; Address size
	.byte	0                               ; Segment selector size
.Laddr_table_base0:
	.quad	.Lfunc_begin0
	.quad	.Lfunc_begin2
	.quad	.Lfunc_begin4
	.quad	.Lfunc_begin6
	.quad	.Lfunc_begin8
	.quad	.Lfunc_begin10
	.quad	.Lfunc_begin12
.Ldebug_addr_end0:
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
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
    .name:           fp32_fma
    .private_segment_fixed_size: 0
    .sgpr_count:     7
    .sgpr_spill_count: 0
    .symbol:         fp32_fma.kd
    .uses_dynamic_stack: false
    .vgpr_count:     33
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'half8*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
        .offset:         16
        .size:           8
        .type_name:      'half8*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           fp16_fma
    .private_segment_fixed_size: 0
    .sgpr_count:     7
    .sgpr_spill_count: 0
    .symbol:         fp16_fma.kd
    .uses_dynamic_stack: false
    .vgpr_count:     33
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'double2*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
        .offset:         16
        .size:           8
        .type_name:      'double2*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           fp64_fma
    .private_segment_fixed_size: 0
    .sgpr_count:     7
    .sgpr_spill_count: 0
    .symbol:         fp64_fma.kd
    .uses_dynamic_stack: false
    .vgpr_count:     33
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'uint4*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
        .offset:         16
        .size:           8
        .type_name:      'uint4*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           int32_mad
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         int32_mad.kd
    .uses_dynamic_stack: false
    .vgpr_count:     38
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'uint4*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
        .offset:         16
        .size:           8
        .type_name:      'uint4*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           int32_add
    .private_segment_fixed_size: 0
    .sgpr_count:     7
    .sgpr_spill_count: 0
    .symbol:         int32_add.kd
    .uses_dynamic_stack: false
    .vgpr_count:     33
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
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
    .name:           fp32_rcp
    .private_segment_fixed_size: 0
    .sgpr_count:     6
    .sgpr_spill_count: 0
    .symbol:         fp32_rcp.kd
    .uses_dynamic_stack: false
    .vgpr_count:     33
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
  - .args:
      - .address_space:  global
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
      - .name:           count
        .offset:         8
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .address_space:  global
        .name:           ret
        .offset:         16
        .size:           8
        .type_name:      'float*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           fp32_fma_latency
    .private_segment_fixed_size: 0
    .sgpr_count:     6
    .sgpr_spill_count: 0
    .symbol:         fp32_fma_latency.kd
    .uses_dynamic_stack: false
    .vgpr_count:     2
    .vgpr_spill_count: 0
    .wavefront_size: 32
    .workgroup_processor_mode: 1
amdhsa.target:   amdgcn-amd-amdhsa--gfx1010
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
	.section	.debug_line,"",@progbits
.Lline_table_start0:
