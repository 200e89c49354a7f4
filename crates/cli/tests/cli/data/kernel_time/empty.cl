// Next to no work: one workgroup writes one value.
__kernel void empty(__global int *out) {
    if (get_global_id(0) == 0)
        out[0] = 1;
}
