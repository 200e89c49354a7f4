// A loop bounded by a kernel argument, reading a column of a row-major matrix of `cols`
// floats per row: the trip count and the iteration stride come from the launch's arguments.
__kernel void column_sum(__global const float *in, __global float *out, int K, int cols) {
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += in[i + k * cols];
    out[i] = acc;
}
