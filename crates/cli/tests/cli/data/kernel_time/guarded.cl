// A work-item per row, guarded by the row count: a launch of more workgroups than rows (as
// AMD's yAx exercises launch) leaves the workgroups past the last row with nothing to do.
__kernel void row_sum(__global const float *a, __global float *out, int n, int m) {
    int i = get_global_id(0);
    if (i < n) {
        float acc = 0.0f;
        for (int j = 0; j < m; j++)
            acc += a[i * m + j];
        out[i] = acc;
    }
}
