// Calls a function nobody defines: an error, not a call that returns at once.
float external_helper(float x);
kernel void uses_external(global float *p)
{
    size_t i = get_global_id(0);
    p[i] = external_helper(p[i]) + atan2(p[i], 2.0f);
}
