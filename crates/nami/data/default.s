; Default pixel shader of `shadersim nami`: the interpolated colour, packed
; into RGB565 and exported. On entry a0, a1, a2 hold red, green and blue
; (0..255). Two-input instructions take one operand from each bank, so the
; green field is built in bank B.
shr  a4, a0, 3      ; red   >> 3: 5 bits
shl  a4, a4, 11     ;         into bits 15..11
shr  b4, a1, 2      ; green >> 2: 6 bits
shl  b4, b4, 5      ;         into bits 10..5
or   a4, a4, b4     ; red | green (one operand from each bank)
shr  b5, a2, 3      ; blue  >> 3: 5 bits, bits 4..0
or   a4, a4, b5
export a4
