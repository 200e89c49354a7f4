// A grid-stride loop whose first index is the workgroup's (AMD's yAx exercise-5 shape of
// 2023): the test `i < n` is uniform, a scalar compare and an SCC branch past the loop.
__kernel void rows_by_group(__global const float *a, __global float *out, int n, int m)
{
    for (int i = get_group_id(0) * get_local_size(0); i < n;
         i += get_num_groups(0) * get_local_size(0)) {
        float s = 0.0f;
        for (int j = get_local_id(0); j < m; j += get_local_size(0))
            s += a[i * m + j];
        out[i + get_local_id(0)] = s;
    }
}
