// Rodinia nw's shape: eight loads of one column, a row apart (`cols` floats), unrolled.
__kernel void rows(__global const int *in, __global int *out, int cols) {
    int tx = get_local_id(0);
    int index = get_group_id(0) * 64 + tx;
    int s = 0;
    s += in[index + cols * 0];
    s += in[index + cols * 1];
    s += in[index + cols * 2];
    s += in[index + cols * 3];
    s += in[index + cols * 4];
    s += in[index + cols * 5];
    s += in[index + cols * 6];
    s += in[index + cols * 7];
    out[index] = s;
}
