; Compute Shader compiled by Mesa RADV Mesa 22.3.6 for gfx900 (Null hardware (RADV VEGA10))
; workgroup size 16x16x1 (from the source)
BB0:
	s_mov_b32 s0, s3                                            ; be800003
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx8 s[8:15], s[2:3], 0x0                         ; c00e0201 00000000
	v_lshl_add_u32 v2, s0, 4, v0                                ; d1fd0002 04010800
	v_lshl_add_u32 v3, s4, 4, v1                                ; d1fd0003 04050804
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	image_load v[4:7], v2, s[8:15] dmask:0xf unorm              ; f0001f00 00020402
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_mul_f32_e32 v8, 2.0, v4                                   ; 0a1008f4
	v_mul_f32_e32 v9, 2.0, v5                                   ; 0a120af4
	v_mul_f32_e32 v10, 2.0, v6                                  ; 0a140cf4
	v_mul_f32_e32 v11, 2.0, v7                                  ; 0a160ef4
	image_store v[8:11], v2, s[8:15] dmask:0xf unorm            ; f0201f00 00020802
	s_endpgm                                                    ; bf810000
