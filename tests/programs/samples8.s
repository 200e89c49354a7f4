; samples8.s: 8 texture samples, then a blend and an export
    image_sample v[4:7], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[8:11], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[12:15], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[16:19], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[20:23], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[24:27], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[28:31], v[0:1], s[0:7], s[8:11] dmask:0xf
    image_sample v[32:35], v[0:1], s[0:7], s[8:11] dmask:0xf
    s_waitcnt vmcnt(0)
    v_add_f32 v4, v4, v8
    v_add_f32 v4, v4, v12
    v_add_f32 v4, v4, v16
    v_add_f32 v4, v4, v20
    v_add_f32 v4, v4, v24
    v_add_f32 v4, v4, v28
    v_add_f32 v4, v4, v32
    exp mrt0 v4, v5, v6, v7 done vm
    s_endpgm
