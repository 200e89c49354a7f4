; Compute Shader compiled by Mesa RADV Mesa 22.3.6 for gfx900 (Null hardware (RADV VEGA10))
; workgroup size 16x16x1 (from the source)
BB0:
	s_mov_b32 s0, s3                                            ; be800003
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx8 s[8:15], s[2:3], 0x0                         ; c00e0201 00000000
	s_load_dwordx4 s[16:19], s[2:3], 0x20                       ; c00a0401 00000020
	v_lshl_add_u32 v0, s4, 4, v0                                ; d1fd0000 04010804
	v_lshl_add_u32 v1, s5, 4, v1                                ; d1fd0001 04050805
	v_mul_lo_u32 v2, v1, s0                                     ; d2850002 00000101
	v_mov_b32_e32 v3, v0                                        ; 7e060300
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	image_load v[4:7], v0, s[8:15] dmask:0xf unorm              ; f0001f00 00020400
	v_add_lshl_u32 v0, v2, v3, 4                                ; d1fe0000 02120702
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_mul_f32_e32 v8, 2.0, v4                                   ; 0a1008f4
	v_mul_f32_e32 v9, 2.0, v5                                   ; 0a120af4
	v_mul_f32_e32 v10, 2.0, v6                                  ; 0a140cf4
	v_mul_f32_e32 v11, 2.0, v7                                  ; 0a160ef4
	buffer_store_dwordx4 v[8:11], v0, s[16:19], 0 offen glc     ; e07c5000 80040800
	s_endpgm                                                    ; bf810000
