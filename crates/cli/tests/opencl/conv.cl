// 2D convolution with a (2r+1)^2 filter from constant memory, edges clamped.
kernel void conv(global const float *img, constant float *filt, global float *out, int w, int h, int r)
{
    int x = get_global_id(0), y = get_global_id(1);
    float sum = 0.0f;
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
            int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
            sum = fma(img[sy * w + sx], filt[(dy + r) * (2 * r + 1) + dx + r], sum);
        }
    out[y * w + x] = sum;
}
