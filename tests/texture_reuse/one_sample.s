; Fragment Shader compiled by Mesa RADV Mesa 22.3.6 for gfx900 (Null hardware (RADV VEGA10))
BB0:
	s_wqm_b64 exec, exec                                        ; befe077e
	s_mov_b32 s0, s3                                            ; be800003
	s_movk_i32 s3, 0x8000                                       ; b0038000
	s_load_dwordx8 s[8:15], s[2:3], 0x0                         ; c00e0201 00000000
	s_load_dwordx4 s[4:7], s[2:3], 0x50                         ; c00a0101 00000050
	s_mov_b32 m0, s0                                            ; befc0000
	s_nop 0                                                     ; bf800000
	v_interp_p1_f32_e32 v2, v0, attr0.y                         ; d4080100
	v_interp_p2_f32_e32 v2, v1, attr0.y                         ; d4090101
	v_interp_p1_f32_e32 v0, v0, attr0.x                         ; d4000000
	v_interp_p2_f32_e32 v0, v1, attr0.x                         ; d4010001
	v_mov_b32_e32 v1, v2                                        ; 7e020302
	s_waitcnt lgkmcnt(0)                                        ; bf8cc07f
	image_sample v[0:3], v0, s[8:15], s[4:7] dmask:0xf          ; f0800f00 00220000
	s_waitcnt vmcnt(0)                                          ; bf8c3f70
	v_cvt_pkrtz_f16_f32 v0, v0, v1                              ; d2960000 00020300
	v_cvt_pkrtz_f16_f32 v1, v2, v3                              ; d2960001 00020702
	exp mrt0 v0, v0, v1, v1 done compr vm                       ; c4001c0f 80800100
	s_endpgm                                                    ; bf810000
