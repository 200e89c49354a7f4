#version 450
// Tiled matrix multiply: a 16x16 workgroup stages 32 KB of tiles in shared
// memory (so LDS limits occupancy) and keeps a 4x4 block of results per
// thread live across the loop (so registers matter too).

layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, std430) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Push { uint n; } pc;

shared vec4 tile_a[16][64];
shared vec4 tile_b[16][64];

void main()
{
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    vec4 acc[4] = vec4[4](vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (uint k = 0u; k < pc.n; k += 64u) {
        for (uint j = 0u; j < 4u; j++) {
            tile_a[l.y][l.x * 4u + j] = a[(g.y * pc.n + k) / 4u + l.x * 4u + j];
            tile_b[l.y][l.x * 4u + j] = b[((k + l.y) * pc.n) / 4u + g.x * 4u + j];
        }
        barrier();
        for (uint kk = 0u; kk < 16u; kk++) {
            vec4 av = tile_a[l.y][kk];
            for (uint j = 0u; j < 4u; j++)
                acc[j] += av * tile_b[kk][l.x * 4u + j];
        }
        barrier();
    }
    for (uint j = 0u; j < 4u; j++)
        c[(g.y * pc.n) / 4u + g.x * 4u + j] = acc[j];
}
