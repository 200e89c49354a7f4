//! Unit tests of instruction parsing and of the facts derived from it
//! (defs/uses, memory ops, waits per generation, branches, exports, VOPD).

use super::*;
use crate::operand::SpecialReg;
use crate::waitcnt::Counter;

fn parse(text: &str, gen: GfxGen) -> Instruction {
    Instruction::parse(text, gen, InstrTable::builtin()).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn v(i: u16) -> RegRange {
    RegRange::single(RegFile::Vgpr, i)
}

#[test]
fn valu_defs_and_uses() {
    let i = parse("v_add_f32_e32 v1, v2, v3", GfxGen::Gfx9);
    assert_eq!(i.info.class, InstrClass::Valu);
    assert_eq!(i.writes(), vec![v(1)]);
    assert!(i.reads().contains(&v(2)) && i.reads().contains(&v(3)));
    assert!(i.reads().iter().any(|r| r.touches(SpecialReg::ExecLo)));
    let i = parse("v_add_co_u32_e32 v0, vcc, s0, v1", GfxGen::Gfx9);
    assert_eq!(i.defs, 2);
    assert!(i.writes().iter().any(|r| r.touches(SpecialReg::VccLo)));
    // gfx9's carry-less add has no carry SGPR: `s8` is its first source, so
    // the op writes v1 alone and reads s8 (gfx8's `v_add_u32 v1, vcc, s8, v0`
    // names its carry-out).
    let i = parse("v_add_u32_e32 v1, s8, v0", GfxGen::Gfx9);
    assert_eq!(i.defs, 1);
    assert_eq!(i.writes(), vec![v(1)]);
    assert!(i.reads().contains(&RegRange::single(RegFile::Sgpr, 8)));
    let i = parse("v_add_u32_e32 v1, vcc, s8, v0", GfxGen::Gfx8);
    assert_eq!(i.defs, 2);
    let i = parse("v_cmp_gt_f32_e32 vcc, 0, v0", GfxGen::Gfx9);
    assert_eq!(i.defs, 1);
    let i = parse("v_cmpx_gt_f32_e32 0, v0", GfxGen::Gfx10);
    assert!(i.writes().iter().any(|r| r.touches(SpecialReg::ExecLo)));
}

#[test]
fn memory_ops() {
    let i = parse(
        "buffer_load_dwordx4 v[0:3], v4, s[8:11], 0 offen offset:16",
        GfxGen::Gfx9,
    );
    assert_eq!(
        i.writes(),
        vec![RegRange {
            file: RegFile::Vgpr,
            first: 0,
            count: 4
        }]
    );
    assert_eq!(i.data_dwords(), Some(4));
    assert_eq!(i.modifier("offset").unwrap().int_value(), Some(16));
    assert!(i.has_modifier("offen"));
    let i = parse("buffer_store_dword v1, v0, s[0:3], 0 offen", GfxGen::Gfx9);
    assert_eq!(i.defs, 0);
    assert_eq!(i.data_dwords(), Some(1));
    let i = parse(
        "image_sample v[0:2], v[4:5], s[8:15], s[0:3] dmask:0x7 dim:SQ_RSRC_IMG_2D",
        GfxGen::Gfx10,
    );
    assert_eq!(i.data_dwords(), Some(3));
    assert_eq!(i.defs, 1);
    let i = parse(
        "image_sample v[0:1], v[4:5], s[8:15], s[0:3] dmask:0xf d16",
        GfxGen::Gfx9,
    );
    assert_eq!(i.data_dwords(), Some(2));
    let i = parse("global_atomic_add v0, v[1:2], v3, off glc", GfxGen::Gfx9);
    assert!(i.returns_data());
    assert_eq!(i.defs, 1);
    let i = parse("global_atomic_add v[1:2], v3, off", GfxGen::Gfx9);
    assert_eq!(i.defs, 0);
    let i = parse("ds_read_b32 v0, v1 offset:64", GfxGen::Gfx9);
    assert_eq!((i.defs, i.class()), (1, InstrClass::Lds));
    let i = parse("ds_write_b32 v1, v2 gds", GfxGen::Gfx9);
    assert_eq!((i.defs, i.class()), (0, InstrClass::Gds));
}

#[test]
fn waits_per_generation() {
    let w = parse("s_waitcnt vmcnt(0) lgkmcnt(0)", GfxGen::Gfx9)
        .wait(GfxGen::Gfx9)
        .unwrap()
        .unwrap();
    assert_eq!(w.get(Counter::Vm), Some(0));
    assert_eq!(w.get(Counter::Lgkm), Some(0));
    assert_eq!(w.get(Counter::Exp), None);
    let w = parse("s_waitcnt vmcnt(1) & expcnt(2)", GfxGen::Gfx8)
        .wait(GfxGen::Gfx8)
        .unwrap()
        .unwrap();
    assert_eq!(
        (w.get(Counter::Vm), w.get(Counter::Exp)),
        (Some(1), Some(2))
    );
    let w = parse("s_waitcnt 0x3f70", GfxGen::Gfx9)
        .wait(GfxGen::Gfx9)
        .unwrap()
        .unwrap();
    assert_eq!(w.waits, vec![(Counter::Vm, 0)]);
    let w = parse("s_waitcnt_vscnt null, 0x0", GfxGen::Gfx10)
        .wait(GfxGen::Gfx10)
        .unwrap()
        .unwrap();
    assert_eq!(w.waits, vec![(Counter::Vs, 0)]);
    let w = parse("s_wait_loadcnt 0x2", GfxGen::Gfx12)
        .wait(GfxGen::Gfx12)
        .unwrap()
        .unwrap();
    assert_eq!(w.waits, vec![(Counter::Load, 2)]);
    let w = parse("s_wait_loadcnt_dscnt 0x0", GfxGen::Gfx12)
        .wait(GfxGen::Gfx12)
        .unwrap()
        .unwrap();
    assert_eq!(w.get(Counter::Ds), Some(0));
    let w = parse("s_endpgm", GfxGen::Gfx9)
        .wait(GfxGen::Gfx9)
        .unwrap()
        .unwrap();
    assert_eq!(w.waits.len(), 3);
    assert!(parse("s_waitcnt frob(1)", GfxGen::Gfx9)
        .wait(GfxGen::Gfx9)
        .is_err());
    assert!(parse("s_wait_loadcnt", GfxGen::Gfx12)
        .wait(GfxGen::Gfx12)
        .is_err());
    assert_eq!(
        parse("v_add_f32 v0, v1, v2", GfxGen::Gfx9).wait(GfxGen::Gfx9),
        Ok(None)
    );
}

#[test]
fn branches_exports_and_hints() {
    let i = parse("s_cbranch_scc1 .LBB0_2", GfxGen::Gfx9);
    assert_eq!(i.branch_target(), Some(&Operand::Symbol(".LBB0_2".into())));
    let i = parse("s_branch 5", GfxGen::Gfx9);
    assert_eq!(i.branch_target(), Some(&Operand::Imm(5)));
    let i = parse("exp mrt0 v0, v1, v2, v3 done vm", GfxGen::Gfx9);
    assert_eq!(i.export_target(), Some(ExportTarget::Mrt(0)));
    assert_eq!(i.export_bits(), Some(128));
    assert!(i.has_modifier("done"));
    let i = parse("exp mrt0 v0, v0, v1, v1 done compr vm", GfxGen::Gfx9);
    assert_eq!(i.export_bits(), Some(64));
    let i = parse("exp pos0 v1, v2, off, off done", GfxGen::Gfx9);
    assert_eq!(
        (i.export_target(), i.export_bits()),
        (Some(ExportTarget::Pos(0)), Some(64))
    );
    let d = parse(
        "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)",
        GfxGen::Gfx11,
    )
    .delay_alu()
    .unwrap();
    assert_eq!(
        d,
        DelayAlu {
            id0: AluDep::Valu(1),
            skip: 1,
            id1: AluDep::SaluCycle(1)
        }
    );
}

#[test]
fn vopd_parses_both_halves() {
    let i = parse(
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
        GfxGen::Gfx11,
    );
    assert_eq!(i.info.class, InstrClass::ValuDual);
    let w = i.writes();
    assert!(w.contains(&v(0)) && w.contains(&v(3)));
    assert_eq!(i.max_reg(RegFile::Vgpr), Some(6));
}

#[test]
fn errors_point_at_columns() {
    let t = InstrTable::builtin();
    let e = Instruction::parse("  frobnicate v0", GfxGen::Gfx9, t).unwrap_err();
    assert_eq!(e.column, 2);
    let e = Instruction::parse("v_add_f32 v0, v[4:1], v2", GfxGen::Gfx9, t).unwrap_err();
    assert!(e.message.contains("v[4:1]"), "{}", e.message);
    assert!(Instruction::parse("v_add_f32 v0,, v2", GfxGen::Gfx9, t).is_err());
    assert!(Instruction::parse("v_mov_b32 v0 v1, v2", GfxGen::Gfx9, t).is_err());
    assert!(Instruction::parse("", GfxGen::Gfx9, t).is_err());
    let i = Instruction::parse("v_frob_f32 v0, v1", GfxGen::Gfx9, t).unwrap();
    assert_eq!(i.recognition, Recognition::FamilyRule("v_"));
}
