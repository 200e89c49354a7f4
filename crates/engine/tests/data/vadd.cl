// Vector add: three global buffers, each read or written once per work-item at its global id
// (issue 27 item 2: every buffer its own address range).
#include "ocl_shim.h"

kernel void vadd(global const float *a, global const float *b, global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
