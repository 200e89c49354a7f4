// A loop over rows that strides by the workgroup count (HIP's `for (i = blockIdx.x; i < n;
// i += gridDim.x)`, the fixed yAx kernel of AMD's rocprof-compute exercise 5), with an inner
// loop over the row's columns that strides by the workgroup size. clang keeps the column
// index in two registers (`j` and a copy made after `j += 64`).
__kernel void row_per_group(__global const double *A, __global double *out, int n, int m)
{
    for (int i = get_group_id(0); i < n; i += get_num_groups(0)) {
        double t = 0.0;
        for (int j = get_local_id(0); j < m; j += get_local_size(0))
            t += A[i * m + j];
        if (get_local_id(0) == 0)
            out[i] = t;
    }
}
