; Blend shader for `shadersim nami`: 50% of the interpolated colour over the
; colour already in the render cache, packed to RGB565.
;
; Launch registers: a0 a1 a2 = interpolated red, green, blue (0..255)
;                   b0 b1 b2 = previous colour in the cache (0..255)
;                   a3 = x, b3 = y
; Two-input instructions take one operand from bank A and one from bank B.
avg  a0, a0, b0     ; red   = (new + old) / 2
avg  a1, a1, b1     ; green
avg  a2, a2, b2     ; blue
shr  a4, a0, 3      ; pack: red >> 3 into bits 15..11
shl  a4, a4, 11
shr  b4, a1, 2      ; green >> 2 into bits 10..5 (built in bank B)
shl  b4, b4, 5
or   a4, a4, b4
shr  b5, a2, 3      ; blue >> 3 into bits 4..0
or   a4, a4, b5
export a4
