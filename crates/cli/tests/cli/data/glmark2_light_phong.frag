// In the style of glmark2's data/shaders/light-phong.frag (GLSL ES 1.00):
// no #version line (glmark2 prepends its own at run time), loose uniforms,
// varyings, gl_FragColor and texture2D.
uniform sampler2D MaterialTexture0;
uniform vec4 LightSourcePosition;
uniform vec3 LightSourceHalfVector;
uniform vec4 MaterialDiffuse;

varying vec3 Normal;
varying vec2 TextureCoord;

void main(void)
{
    vec3 N = normalize(Normal);
    vec3 L = normalize(LightSourcePosition.xyz);
    vec3 H = normalize(LightSourceHalfVector);
    float diffuse = max(dot(N, L), 0.0);
    float specular = pow(max(dot(N, H), 0.0), 16.0);
    vec4 texel = texture2D(MaterialTexture0, TextureCoord);
    gl_FragColor = vec4(texel.rgb * MaterialDiffuse.rgb * diffuse + vec3(specular), texel.a);
}
