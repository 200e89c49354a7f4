#version 450
layout(location = 0) flat in vec4 color;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 frag;
void main() { frag = color * uv.x; }
