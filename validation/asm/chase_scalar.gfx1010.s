	.amdgcn_target "amdgcn-amd-amdhsa--gfx1010"
	.amdhsa_code_object_version 6
	.text
	.protected	chase_scalar            ; -- Begin function chase_scalar
	.globl	chase_scalar
	.p2align	8
	.type	chase_scalar,@function
chase_scalar:                           ; @chase_scalar
.Lfunc_begin0:
	.file	0 "." "kernels/chase_scalar.cl" md5 0x62eae45f54ebb7fa9cfc9860121b1a1f
	.loc	0 4 0                           ; kernels/chase_scalar.cl:4:0
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.0:
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0 @[ kernels/chase_scalar.cl:4:83 ]
	s_clause 0x1
	s_load_dwordx2 s[2:3], s[4:5], 0x0
	s_load_dword s7, s[4:5], 0x8
	.loc	0 7 23 prologue_end is_stmt 1   ; kernels/chase_scalar.cl:7:23 @[ kernels/chase_scalar.cl:4:83 ]
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s7, 1
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0 @[ kernels/chase_scalar.cl:4:83 ]
	s_load_dword s0, s[2:3], 0x0
	.loc	0 7 5                           ; kernels/chase_scalar.cl:7:5 @[ kernels/chase_scalar.cl:4:83 ]
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	.loc	0 0 5                           ; kernels/chase_scalar.cl:0:5
	s_mov_b32 s1, 0
	s_mov_b32 s6, s1
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 9 19 is_stmt 1                ; kernels/chase_scalar.cl:9:19 @[ kernels/chase_scalar.cl:4:83 ]
	s_waitcnt lgkmcnt(0)
	s_lshl_b64 s[8:9], s[0:1], 2
	.loc	0 8 16                          ; kernels/chase_scalar.cl:8:16 @[ kernels/chase_scalar.cl:4:83 ]
	s_add_i32 s6, s0, s6
	.loc	0 9 19                          ; kernels/chase_scalar.cl:9:19 @[ kernels/chase_scalar.cl:4:83 ]
	s_add_u32 s8, s2, s8
	s_addc_u32 s9, s3, s9
	.loc	0 7 23                          ; kernels/chase_scalar.cl:7:23 @[ kernels/chase_scalar.cl:4:83 ]
	s_add_i32 s7, s7, -1
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0 @[ kernels/chase_scalar.cl:4:83 ]
	s_load_dword s0, s[8:9], 0x0
	.loc	0 7 23                          ; kernels/chase_scalar.cl:7:23 @[ kernels/chase_scalar.cl:4:83 ]
	s_cmp_lg_u32 s7, 0
	.loc	0 7 5                           ; kernels/chase_scalar.cl:7:5 @[ kernels/chase_scalar.cl:4:83 ]
	s_cbranch_scc1 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	.loc	0 0 5                           ; kernels/chase_scalar.cl:0:5
	s_mov_b32 s6, 0
.LBB0_4:
	s_load_dwordx2 s[2:3], s[4:5], 0x10
	.loc	0 11 21 is_stmt 1               ; kernels/chase_scalar.cl:11:21 @[ kernels/chase_scalar.cl:4:83 ]
	s_waitcnt lgkmcnt(0)
	s_add_i32 s0, s0, s6
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0 @[ kernels/chase_scalar.cl:4:83 ]
	v_mov_b32_e32 v0, 0
	.loc	0 11 12                         ; kernels/chase_scalar.cl:11:12 @[ kernels/chase_scalar.cl:4:83 ]
	v_mov_b32_e32 v1, s0
	global_store_dword v0, v1, s[2:3]
.Ltmp0:
	.loc	0 12 1 is_stmt 1                ; kernels/chase_scalar.cl:12:1
	s_endpgm
.Ltmp1:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel chase_scalar
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
		.amdhsa_next_free_sgpr 10
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
	.size	chase_scalar, .Lfunc_end0-chase_scalar
	.cfi_endproc
                                        ; -- End function
	.set chase_scalar.num_vgpr, 2
	.set chase_scalar.num_agpr, 0
	.set chase_scalar.numbered_sgpr, 10
	.set chase_scalar.num_named_barrier, 0
	.set chase_scalar.private_seg_size, 0
	.set chase_scalar.uses_vcc, 0
	.set chase_scalar.uses_flat_scratch, 0
	.set chase_scalar.has_dyn_sized_stack, 0
	.set chase_scalar.has_recursion, 0
	.set chase_scalar.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 144
; TotalNumSgprs: 10
; NumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 10
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
	.protected	__clang_ocl_kern_imp_chase_scalar ; -- Begin function __clang_ocl_kern_imp_chase_scalar
	.globl	__clang_ocl_kern_imp_chase_scalar
	.p2align	2
	.type	__clang_ocl_kern_imp_chase_scalar,@function
__clang_ocl_kern_imp_chase_scalar:      ; @__clang_ocl_kern_imp_chase_scalar
.Lfunc_begin1:
	.loc	0 4 0                           ; kernels/chase_scalar.cl:4:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
.Ltmp2:
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0
	global_load_dword v5, v[0:1], off
	v_mov_b32_e32 v7, 0
	.loc	0 7 23 prologue_end is_stmt 1   ; kernels/chase_scalar.cl:7:23
	v_cmp_lt_i32_e32 vcc_lo, 0, v2
	.loc	0 7 5 is_stmt 0                 ; kernels/chase_scalar.cl:7:5
	s_and_saveexec_b32 s4, vcc_lo
	s_cbranch_execz .LBB1_4
; %bb.1:
	.loc	0 0 5                           ; kernels/chase_scalar.cl:0:5
	v_mov_b32_e32 v6, 0
	s_mov_b32 s5, 0
	v_mov_b32_e32 v7, v6
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 9 19 is_stmt 1                ; kernels/chase_scalar.cl:9:19
	s_waitcnt vmcnt(0)
	v_lshlrev_b64 v[8:9], 2, v[5:6]
	.loc	0 8 16                          ; kernels/chase_scalar.cl:8:16
	v_add_nc_u32_e32 v7, v5, v7
	.loc	0 7 23                          ; kernels/chase_scalar.cl:7:23
	v_add_nc_u32_e32 v2, -1, v2
	.loc	0 9 19                          ; kernels/chase_scalar.cl:9:19
	v_add_co_u32 v8, vcc_lo, v0, v8
	v_add_co_ci_u32_e32 v9, vcc_lo, v1, v9, vcc_lo
	.loc	0 7 23                          ; kernels/chase_scalar.cl:7:23
	v_cmp_eq_u32_e32 vcc_lo, 0, v2
	.loc	0 0 0 is_stmt 0                 ; kernels/chase_scalar.cl:0
	global_load_dword v5, v[8:9], off
	.loc	0 7 5                           ; kernels/chase_scalar.cl:7:5
	s_or_b32 s5, vcc_lo, s5
	s_waitcnt_depctr depctr_vm_vsrc(0)
	s_andn2_b32 exec_lo, exec_lo, s5
	s_cbranch_execnz .LBB1_2
; %bb.3:
	.loc	0 0 5                           ; kernels/chase_scalar.cl:0:5
	s_or_b32 exec_lo, exec_lo, s5
.LBB1_4:
	s_or_b32 exec_lo, exec_lo, s4
	.loc	0 11 21 is_stmt 1               ; kernels/chase_scalar.cl:11:21
	s_waitcnt vmcnt(0)
	v_add_nc_u32_e32 v0, v5, v7
	.loc	0 11 12 is_stmt 0               ; kernels/chase_scalar.cl:11:12
	global_store_dword v[3:4], v0, off
	.loc	0 12 1 is_stmt 1                ; kernels/chase_scalar.cl:12:1
	s_setpc_b64 s[30:31]
.Ltmp3:
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_chase_scalar, .Lfunc_end1-__clang_ocl_kern_imp_chase_scalar
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_chase_scalar.num_vgpr, 10
	.set __clang_ocl_kern_imp_chase_scalar.num_agpr, 0
	.set __clang_ocl_kern_imp_chase_scalar.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_chase_scalar.num_named_barrier, 0
	.set __clang_ocl_kern_imp_chase_scalar.private_seg_size, 0
	.set __clang_ocl_kern_imp_chase_scalar.uses_vcc, 1
	.set __clang_ocl_kern_imp_chase_scalar.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_chase_scalar.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_chase_scalar.has_recursion, 0
	.set __clang_ocl_kern_imp_chase_scalar.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 136
; TotalNumSgprs: 34
; NumVgprs: 10
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3214868480
	.fill 48, 4, 3214868480
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 10
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
	.byte	1                               ; Abbrev [1] 0xc:0x2f DW_TAG_compile_unit
	.byte	0                               ; DW_AT_producer
	.short	21                              ; DW_AT_language
	.byte	1                               ; DW_AT_name
	.long	.Lstr_offsets_base0             ; DW_AT_str_offsets_base
	.long	.Lline_table_start0             ; DW_AT_stmt_list
	.byte	2                               ; DW_AT_comp_dir
	.byte	0                               ; DW_AT_low_pc
	.long	.Lfunc_end1-.Lfunc_begin0       ; DW_AT_high_pc
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
	.byte	4                               ; DW_AT_call_line
	.byte	83                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_str_offsets,"",@progbits
	.long	20                              ; Length of String Offsets Set
	.short	5
	.short	0
.Lstr_offsets_base0:
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"Debian clang version 22.1.8 (1~deb12u1)" ; string offset=0
.Linfo_string1:
	.asciz	"kernels/chase_scalar.cl"       ; string offset=40
.Linfo_string2:
	.asciz	"."                             ; string offset=64
.Linfo_string3:
	.asciz	"chase_scalar"                  ; string offset=66
	.section	.debug_str_offsets,"",@progbits
	.long	.Linfo_string0
	.long	.Linfo_string1
	.long	.Linfo_string2
	.long	.Linfo_string3
	.section	.debug_addr,"",@progbits
	.long	.Ldebug_addr_end0-.Ldebug_addr_start0 ; Length of contribution
.Ldebug_addr_start0:
	.short	5                               ; DWARF version number
	.byte	8                               ; Address size
	.byte	0                               ; Segment selector size
.Laddr_table_base0:
	.quad	.Lfunc_begin0
.Ldebug_addr_end0:
	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .is_const:       true
        .name:           A
        .offset:         0
        .size:           8
        .type_name:      'uint*'
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
        .type_name:      'uint*'
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           chase_scalar
    .private_segment_fixed_size: 0
    .sgpr_count:     10
    .sgpr_spill_count: 0
    .symbol:         chase_scalar.kd
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
