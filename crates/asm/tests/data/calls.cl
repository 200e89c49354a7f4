// A kernel that calls a non-inlined device function twice, and get_global_id,
// which is undefined without the device library: shadersim-asm follows the
// first and warns about the second (tests/declared.rs). Compiled by
// scripts/fixtures/regen-asm-test-data.sh.
__attribute__((noinline)) float helper(global float *p, int i) {
    float s = 0.0f;
    for (int k = 0; k < i; k++) s += p[k] * p[k + 1];
    return s;
}
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void caller(global float *out, global float *in, int n) {
    int g = get_global_id(0);
    out[g] = helper(in + g, n) + helper(in, n + 1);
}
