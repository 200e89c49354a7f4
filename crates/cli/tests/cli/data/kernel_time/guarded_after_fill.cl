// AMD's yAx exercise-2 shape: every workgroup fills LDS and waits at a barrier, then a
// grid-stride loop over rows (a nest of two loops) that only the first workgroups enter.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void after_fill(__global const float *x, __global const float *a, __global float *out,
                int n, int m)
{
    __local float tmp[1024];
    for (int i = get_local_id(0); i < 1024; i += 64)
        tmp[i] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    float res = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        float t = 0.0f;
        for (int j = 0; j < m; j++)
            t += a[i * m + j] * tmp[j & 1023];
        res += t;
    }
    out[get_global_id(0)] = res;
}

// A guard around a prologue's loop only: the main loop after it runs in every workgroup, so
// the guard does not decide which workgroups work.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void guarded_prologue(__global const float *x, __global float *out, int n, int m)
{
    __local float tmp[64];
    float s = 0.0f;
    if (get_global_id(0) < n)
        for (int j = 0; j < m; j++)
            s += x[get_global_id(0) * m + j];
    tmp[get_local_id(0)] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < m; j++)
        s += tmp[(get_local_id(0) + j) & 63];
    out[get_global_id(0)] = s;
}

// AMD's yAx exercise-3 shape with its assert: a check of a value the host wrote, which traps
// when it fails, before the grid-stride guard. The trap's path never joins the exit, so the
// entry's post-dominators skip the guard; the guard still decides which workgroups work.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void after_assert(__global const float *a, __global float *out, __global const float *check,
                  int n, int m)
{
    if (check[0] != 0.0f)
        __builtin_trap();
    float res = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        float t = 0.0f;
        for (int j = 0; j < m; j++)
            t += a[i * m + j];
        res += t;
    }
    out[get_global_id(0)] = res;
}
