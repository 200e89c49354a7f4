	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 6
	.text
	.protected	chase_pointer           ; -- Begin function chase_pointer
	.globl	chase_pointer
	.p2align	8
	.type	chase_pointer,@function
chase_pointer:                          ; @chase_pointer
.Lfunc_begin0:
	.file	0 "." "kernels/chase_pointer.cl" md5 0xd9b3682c03e1fbb2f66f2c5a52554ba1
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.0:
	.loc	0 12 17 prologue_end            ; kernels/chase_pointer.cl:12:17 @[ kernels/chase_pointer.cl:11:83 ]
	s_load_dwordx2 s[8:9], s[0:1], 0x10
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	.loc	0 14 24                         ; kernels/chase_pointer.cl:14:24 @[ kernels/chase_pointer.cl:11:83 ]
	s_waitcnt lgkmcnt(0)
	v_cmp_lt_i64_e64 s[10:11], s[8:9], 1
	.loc	0 14 5 is_stmt 0                ; kernels/chase_pointer.cl:14:5 @[ kernels/chase_pointer.cl:11:83 ]
	s_and_b64 vcc, exec, s[10:11]
	v_mov_b64_e32 v[2:3], s[4:5]
	s_cbranch_vccnz .LBB0_3
; %bb.1:
	.loc	0 0 5                           ; kernels/chase_pointer.cl:0:5
	v_mov_b64_e32 v[2:3], s[4:5]
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 15 22 is_stmt 1               ; kernels/chase_pointer.cl:15:22 @[ kernels/chase_pointer.cl:11:83 ]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_load_dwordx2 v[2:3], v[2:3]
	.loc	0 14 24                         ; kernels/chase_pointer.cl:14:24 @[ kernels/chase_pointer.cl:11:83 ]
	s_add_u32 s8, s8, -1
	s_addc_u32 s9, s9, -1
	s_cmp_eq_u64 s[8:9], 0
	.loc	0 14 5 is_stmt 0                ; kernels/chase_pointer.cl:14:5 @[ kernels/chase_pointer.cl:11:83 ]
	s_cbranch_scc0 .LBB0_2
.LBB0_3:
	.loc	0 17 9 is_stmt 1                ; kernels/chase_pointer.cl:17:9 @[ kernels/chase_pointer.cl:11:83 ]
	s_load_dword s3, s[0:1], 0x24
	s_load_dwordx2 s[4:5], s[0:1], 0x40
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v6, s2
	s_waitcnt lgkmcnt(0)
	s_and_b32 s0, s3, 0xffff
	v_lshl_add_u64 v[4:5], s[4:5], 0, v[0:1]
	v_mad_u64_u32 v[4:5], s[0:1], s0, v6, v[4:5]
	s_mov_b64 s[0:1], 0x3019
	.loc	0 17 26 is_stmt 0               ; kernels/chase_pointer.cl:17:26 @[ kernels/chase_pointer.cl:11:83 ]
	s_nop 0
	v_cmp_lt_u64_e32 vcc, s[0:1], v[4:5]
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_5
; %bb.4:
	.loc	0 18 22 is_stmt 1               ; kernels/chase_pointer.cl:18:22 @[ kernels/chase_pointer.cl:11:83 ]
	s_waitcnt vmcnt(0)
	global_store_dwordx2 v1, v[2:3], s[6:7]
.Ltmp0:
.LBB0_5:
	.loc	0 20 1                          ; kernels/chase_pointer.cl:20:1
	s_endpgm
.Ltmp1:
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel chase_pointer
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 280
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
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
	.size	chase_pointer, .Lfunc_end0-chase_pointer
	.cfi_endproc
                                        ; -- End function
	.set chase_pointer.num_vgpr, 7
	.set chase_pointer.num_agpr, 0
	.set chase_pointer.numbered_sgpr, 12
	.set chase_pointer.num_named_barrier, 0
	.set chase_pointer.private_seg_size, 0
	.set chase_pointer.uses_vcc, 1
	.set chase_pointer.uses_flat_scratch, 0
	.set chase_pointer.has_dyn_sized_stack, 0
	.set chase_pointer.has_recursion, 0
	.set chase_pointer.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 164
; TotalNumSgprs: 18
; NumVgprs: 7
; NumAgprs: 0
; TotalNumVgprs: 7
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 7
; AccumOffset: 8
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 1
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	__clang_ocl_kern_imp_chase_pointer ; -- Begin function __clang_ocl_kern_imp_chase_pointer
	.globl	__clang_ocl_kern_imp_chase_pointer
	.p2align	2
	.type	__clang_ocl_kern_imp_chase_pointer,@function
__clang_ocl_kern_imp_chase_pointer:     ; @__clang_ocl_kern_imp_chase_pointer
.Lfunc_begin1:
	.loc	0 11 0                          ; kernels/chase_pointer.cl:11:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_mov_b64 s[2:3], 0
.Ltmp2:
	.loc	0 14 24 prologue_end            ; kernels/chase_pointer.cl:14:24
	v_cmp_lt_i64_e32 vcc, 0, v[4:5]
	.loc	0 14 5 is_stmt 0                ; kernels/chase_pointer.cl:14:5
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_3
.LBB1_1:                                ; =>This Inner Loop Header: Depth=1
	.loc	0 15 22 is_stmt 1               ; kernels/chase_pointer.cl:15:22
	s_waitcnt vmcnt(0) lgkmcnt(0)
	flat_load_dwordx2 v[0:1], v[0:1]
	.loc	0 14 24                         ; kernels/chase_pointer.cl:14:24
	v_lshl_add_u64 v[4:5], v[4:5], 0, -1
	v_cmp_eq_u64_e32 vcc, 0, v[4:5]
	.loc	0 14 5 is_stmt 0                ; kernels/chase_pointer.cl:14:5
	s_or_b64 s[2:3], vcc, s[2:3]
	s_andn2_b64 exec, exec, s[2:3]
	s_cbranch_execnz .LBB1_1
; %bb.2:
	.loc	0 0 5                           ; kernels/chase_pointer.cl:0:5
	s_or_b64 exec, exec, s[2:3]
.LBB1_3:
	s_or_b64 exec, exec, s[0:1]
	.loc	0 17 9 is_stmt 1                ; kernels/chase_pointer.cl:17:9
	s_load_dword s2, s[8:9], 0xc
	s_load_dwordx2 s[0:1], s[8:9], 0x28
	v_mov_b32_e32 v5, 0
	v_and_b32_e32 v4, 0x3ff, v31
	v_mov_b32_e32 v6, s12
	s_waitcnt lgkmcnt(0)
	s_and_b32 s2, s2, 0xffff
	v_lshl_add_u64 v[4:5], s[0:1], 0, v[4:5]
	v_mad_u64_u32 v[4:5], s[0:1], s2, v6, v[4:5]
	s_mov_b64 s[0:1], 0x3019
	.loc	0 17 26 is_stmt 0               ; kernels/chase_pointer.cl:17:26
	s_nop 0
	v_cmp_lt_u64_e32 vcc, s[0:1], v[4:5]
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB1_5
; %bb.4:
	.loc	0 18 22 is_stmt 1               ; kernels/chase_pointer.cl:18:22
	s_waitcnt vmcnt(0)
	global_store_dwordx2 v[2:3], v[0:1], off
.LBB1_5:
	.loc	0 0 22 is_stmt 0                ; kernels/chase_pointer.cl:0:22
	s_or_b64 exec, exec, s[0:1]
	.loc	0 20 1 is_stmt 1                ; kernels/chase_pointer.cl:20:1
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Ltmp3:
.Lfunc_end1:
	.size	__clang_ocl_kern_imp_chase_pointer, .Lfunc_end1-__clang_ocl_kern_imp_chase_pointer
	.cfi_endproc
                                        ; -- End function
	.set __clang_ocl_kern_imp_chase_pointer.num_vgpr, 32
	.set __clang_ocl_kern_imp_chase_pointer.num_agpr, 0
	.set __clang_ocl_kern_imp_chase_pointer.numbered_sgpr, 32
	.set __clang_ocl_kern_imp_chase_pointer.num_named_barrier, 0
	.set __clang_ocl_kern_imp_chase_pointer.private_seg_size, 0
	.set __clang_ocl_kern_imp_chase_pointer.uses_vcc, 1
	.set __clang_ocl_kern_imp_chase_pointer.uses_flat_scratch, 0
	.set __clang_ocl_kern_imp_chase_pointer.has_dyn_sized_stack, 0
	.set __clang_ocl_kern_imp_chase_pointer.has_recursion, 0
	.set __clang_ocl_kern_imp_chase_pointer.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Function info:
; codeLenInByte = 172
; TotalNumSgprs: 38
; NumVgprs: 32
; NumAgprs: 0
; TotalNumVgprs: 32
; ScratchSize: 0
; MemoryBound: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 32
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
	.byte	11                              ; DW_AT_call_line
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
	.asciz	"kernels/chase_pointer.cl"      ; string offset=40
.Linfo_string2:
	.asciz	"."                             ; string offset=65
.Linfo_string3:
	.asciz	"chase_pointer"                 ; string offset=67
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
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .name:           buf
        .offset:         0
        .size:           8
        .type_name:      'long*'
        .value_kind:     global_buffer
      - .address_space:  global
        .name:           dummy_buf
        .offset:         8
        .size:           8
        .type_name:      'long*'
        .value_kind:     global_buffer
      - .name:           n
        .offset:         16
        .size:           8
        .type_name:      long
        .value_kind:     by_value
      - .offset:         24
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         28
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         32
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         36
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         38
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         40
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         42
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         44
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         46
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         64
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         80
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         88
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 280
    .language:       OpenCL C
    .language_version:
      - 2
      - 0
    .max_flat_workgroup_size: 256
    .name:           chase_pointer
    .private_segment_fixed_size: 0
    .sgpr_count:     18
    .sgpr_spill_count: 0
    .symbol:         chase_pointer.kd
    .uses_dynamic_stack: false
    .vgpr_count:     7
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
	.section	.debug_line,"",@progbits
.Lline_table_start0:
