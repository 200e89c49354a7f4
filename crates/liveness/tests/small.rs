//! Liveness on hand-written programs whose answers are counted by hand.

use shadersim_asm::{read_program_text, ReadOptions};
use shadersim_liveness::Liveness;

fn live(text: &str) -> Vec<(u32, u32)> {
    let file = read_program_text(
        "t.s",
        text,
        &ReadOptions {
            target: Some("gfx900".parse().unwrap()),
            ..Default::default()
        },
    )
    .unwrap();
    let l = Liveness::analyse(&file.programs[0], 64).unwrap();
    l.per_instruction
        .iter()
        .map(|a| (a.vgprs, a.sgprs))
        .collect()
}

#[test]
fn straight_line_with_a_range() {
    // v[4:5] is read and never written: live from the entry (2 VGPRs).
    // 0: {v4,v5} + v0 written = 3; 1: {v0,v4,v5} + v1 = 4;
    // 2: {v0,v1,v4,v5} + v2 = 5 (v0, v1 die here but are still read);
    // 3: {v2,v4,v5} + v3 = 4; 4: {v3,v4,v5} = 3; 5: nothing = 0.
    let v: Vec<u32> = live(
        "v_mov_b32_e32 v0, 1.0\n\
         v_mov_b32_e32 v1, 2.0\n\
         v_add_f32_e32 v2, v0, v1\n\
         v_mul_f32_e32 v3, v2, v2\n\
         global_store_dword v[4:5], v3, off\n\
         s_endpgm\n",
    )
    .into_iter()
    .map(|(v, _)| v)
    .collect();
    assert_eq!(v, vec![3, 4, 5, 4, 3, 0]);
}

#[test]
fn mac_reads_its_destination() {
    // v_mac_f32 v2 accumulates into v2, so v2 is live from the entry:
    // 0: {v0,v1,v2} = 3 (v0, v1 also form the store's address);
    // 1: the store reads v[0:1] and v2 = 3; 2: nothing = 0.
    let v: Vec<u32> = live(
        "v_mac_f32_e32 v2, v0, v1\n\
         global_store_dword v[0:1], v2, off\n\
         s_endpgm\n",
    )
    .into_iter()
    .map(|(v, _)| v)
    .collect();
    assert_eq!(v, vec![3, 3, 0]);
}

#[test]
fn a_loop_keeps_its_carried_values_live() {
    // s2 counts down around the loop; v1 accumulates and is stored after.
    // Inside the loop v0, v1 and the address v[2:3] are live throughout.
    let l = live(
        "s_mov_b32 s2, 4\n\
         BB0:\n\
         v_add_f32_e32 v1, v0, v1\n\
         s_sub_u32 s2, s2, 1\n\
         s_cmp_lg_u32 s2, 0\n\
         s_cbranch_scc1 BB0\n\
         global_store_dword v[2:3], v1, off\n\
         s_endpgm\n",
    );
    // v_add: v0, v1, v2, v3 = 4 VGPRs; s2 live across the loop.
    assert_eq!(l[1], (4, 1));
    assert_eq!(l[3].1, 1);
    assert_eq!(l[5].0, 3);
}
