// A kernel calling a non-inlined device function twice, with nothing left
// undefined, so that it links: llvm-objdump of the linked code object shows
// the calls as PC-relative address arithmetic, no symbols (tests/objdump.rs).
// Compiled by scripts/fixtures/regen-asm-test-data.sh.
__attribute__((noinline)) float helper(global float *p, int i) {
    float s = 0.0f;
    for (int k = 0; k < i; k++) s += p[k] * p[k + 1];
    return s;
}
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void caller(global float *out, global float *in, int n) {
    int g = __builtin_amdgcn_workitem_id_x() + 64 * __builtin_amdgcn_workgroup_id_x();
    out[g] = helper(in + g, n) + helper(in, n + 1);
}
