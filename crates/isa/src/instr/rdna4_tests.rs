//! Unit tests of the RDNA 4 instructions LLVM 21 added (ray tracing and
//! dynamic VGPR instructions).

use super::*;
use crate::class::InstrClass;
use crate::waitcnt::Counter;

fn parse12(text: &str) -> Instruction {
    Instruction::parse(text, GfxGen::Gfx12, InstrTable::builtin())
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

/// RDNA 4 instructions LLVM 21 added (LLVM 19, which made the fixtures,
/// cannot print them), in the syntax of LLVM's MC tests and RGA dumps.
#[test]
fn rdna4_ray_tracing_and_dynamic_vgpr_instructions() {
    let cases = [
        ("image_bvh8_intersect_ray v[0:9], [v[10:11], v12, v[13:15], v[16:18], v19], s[0:3]", InstrClass::VmemImageBvh),
        ("image_bvh_dual_intersect_ray v[0:9], [v[10:11], v[12:13], v[14:16], v[17:19], v[20:21]], s[0:3]", InstrClass::VmemImageBvh),
        ("ds_bvh_stack_push8_pop1_rtn_b32 v1, v0, v2, v[3:10]", InstrClass::LdsBvhStack),
        ("ds_bvh_stack_push8_pop2_rtn_b64 v[1:2], v0, v3, v[4:11]", InstrClass::LdsBvhStack),
        ("s_alloc_vgpr s35", InstrClass::SaluAllocVgpr),
        ("s_wait_bvhcnt 0x0", InstrClass::WaitBvhcnt),
        ("s_wait_samplecnt 0x1", InstrClass::WaitSamplecnt),
        ("s_wait_kmcnt 0x0", InstrClass::WaitKmcnt),
        ("s_wait_dscnt 0x2", InstrClass::WaitDscnt),
        ("s_wait_expcnt 0x0", InstrClass::WaitExpcnt),
        ("s_wait_storecnt_dscnt 0x0", InstrClass::WaitStorecntDscnt),
        ("export mrt0 v0, v1, v2, v3 done", InstrClass::Export),
        ("s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(TRANS32_DEP_1)", InstrClass::WaitDelayAlu),
        ("s_wait_alu 0xfffd", InstrClass::WaitDepctr),
    ];
    for (text, class) in cases {
        let i = parse12(text);
        assert_eq!(i.class(), class, "{text}");
        assert_eq!(i.recognition, Recognition::Table, "{text}");
        assert!(i.valid_for_gen, "{text}");
    }
    let i = parse12(
        "image_bvh8_intersect_ray v[0:9], [v[10:11], v12, v[13:15], v[16:18], v19], s[0:3]",
    );
    assert_eq!(i.writes().first().map(|r| r.count), Some(10));
    assert!(i
        .reads()
        .iter()
        .any(|r| r.file == RegFile::Vgpr && r.first == 16 && r.count == 3));
    let w = parse12("s_wait_bvhcnt 0x0")
        .wait(GfxGen::Gfx12)
        .unwrap()
        .unwrap();
    assert_eq!(w.waits, vec![(Counter::Bvh, 0)]);
    let d = parse12("s_delay_alu instid0(VALU_DEP_2) | instskip(SKIP_1) | instid1(TRANS32_DEP_1)")
        .delay_alu()
        .unwrap();
    assert_eq!(
        d,
        DelayAlu {
            id0: AluDep::Valu(2),
            skip: 2,
            id1: AluDep::Trans(1)
        }
    );
    let x = parse12("export mrt0 v0, v1, v2, v3 done");
    assert_eq!(x.export_target(), Some(ExportTarget::Mrt(0)));
}
