"""The text of Sources/CFieldArithmetic/include/field_arithmetic.h (tools/gen-curves writes it): Montgomery products, sums and differences
of the two curves' prime fields in x86-64 assembly (BMI2 mulx with the two carry chains of ADX,
adcx and adox; add/adc chains and cmov for the sums, so no branch depends on a value).

Swift has no access to the ADX instructions, and the product written with UInt128 in
MontgomeryUnrolled.swift compiles to about twice the instructions: one carry chain, and the
tuple limbs shuttled through memory. The functions are `static inline`, so the Swift compiler
inlines them like its own code. The algorithm is the CIOS product with the "no-carry"
shortcut (top limb of p below 2^63 - 1, true for both fields), exactly as the Swift version,
and is checked against GMP by the same property tests."""

def multiply_row(n, i, limb):
    """Limbs i..i+n of the running value += a * b[i]; limb(k) names the register of limb i + k
    (limb(n), the new top, is written, not added to). Low halves ride the OF chain (adox),
    high halves the CF chain (adcx); row 0 starts from zero and needs no additions of its own."""
    out = []
    w = out.append
    a = [f"{8 * j}(%[a])" for j in range(n)]
    w(f"movq {8 * i}(%[b]), %%rdx")
    w("xorq %[lo], %[lo]")
    if i == 0:
        w(f"mulxq {a[0]}, {limb(0)}, {limb(1)}")
        for j in range(1, n - 1):
            w(f"mulxq {a[j]}, %[lo], {limb(j + 1)}")
            w(f"adoxq %[lo], {limb(j)}")
    else:
        for j in range(n - 1):
            w(f"mulxq {a[j]}, %[lo], %[hi]")
            w(f"adoxq %[lo], {limb(j)}")
            w(f"adcxq %[hi], {limb(j + 1)}")
    w(f"mulxq {a[n - 1]}, %[lo], {limb(n)}")
    w(f"adoxq %[lo], {limb(n - 1)}")
    w("movq $0, %[lo]")
    if i != 0:
        w(f"adcxq %[lo], {limb(n)}")
    w(f"adoxq %[lo], {limb(n)}")
    return out


def asm_lines(n):
    """The CIOS loop; leaves t (< 2p) in the registers t0..t{n-1}."""
    out = []
    registers = [f"%[t{j}]" for j in range(n)] + ["%[top]"]
    for i in range(n):
        out.append(f"/* t += a * b[{i}]: low halves on the OF chain, high halves on the CF chain */")
        out += multiply_row(n, i, lambda k: registers[k])
        out += reduction_step(n, "%[top]")
    return out


def reduction_step(n, top):
    """t = (t + m * p) / 2^64 + top * 2^(64(n-1)) with m = t0 * (-p^-1) mod 2^64; `top` is a
    register holding the word above t, or None when there is none."""
    out = []
    w = out.append
    t = [f"%[t{j}]" for j in range(n)]
    p = [f"{8 * j}(%[p])" for j in range(n)]
    w("/* t = (t + m * p) / 2^64 with m = t0 * (-p^-1) mod 2^64 */")
    w(f"movq {t[0]}, %%rdx")
    w("imulq %[inv], %%rdx")
    w("xorq %[lo], %[lo]")
    w(f"mulxq {p[0]}, %[lo], %[hi]")
    w(f"adcxq {t[0]}, %[lo]")
    w(f"movq %[hi], {t[0]}")
    for j in range(1, n):
        w(f"adcxq {t[j]}, {t[j - 1]}")
        w(f"mulxq {p[j]}, %[lo], {t[j]}")
        w(f"adoxq %[lo], {t[j - 1]}")
    w("movq $0, %[lo]")
    w(f"adcxq %[lo], {t[n - 1]}")
    w(f"adoxq {top or '%[lo]'}, {t[n - 1]}")
    return out


def wide_product(n):
    """r (2n limbs) = a * b (n limbs each), row by row; the n + 1 accumulators form a ring, so
    the register that held the limb just stored takes the new top limb."""
    out = []
    w = out.append
    acc = [f"%[r{k}]" for k in range(n + 1)]
    for i in range(n):
        w(f"/* row {i}: limbs {i}..{i + n} += a * b[{i}] */")
        out += multiply_row(n, i, lambda k, i=i: acc[(i + k) % (n + 1)])
        w(f"movq {acc[i % (n + 1)]}, {8 * i}(%[r])")
    for k in range(1, n + 1):
        w(f"movq {acc[(n + k - 1) % (n + 1)]}, {8 * (n + k - 1)}(%[r])")
    return out


def lazy_fp2_product(name, n, shared=True):
    """Fp2 product with one Montgomery reduction per coefficient instead of three products. The
    limb-count helpers (zk_wide_product4, ...) are written only when `shared` (their first curve)."""
    L = f"zk_limbs{n}"
    out = []
    w = out.append
    ws = w if shared else (lambda line: None)
    ring = ", ".join(f"r{k}" for k in range(n + 1))
    ws(f"/* r (2*{n} limbs) = a * b, not reduced. */")
    ws(f"static inline __attribute__((always_inline)) void zk_wide_product{n}(uint64_t *r, const uint64_t *a, const uint64_t *b) {{")
    ws(f"    uint64_t {ring}, lo, hi, rdx;")
    ws("    __asm__(")
    for line in wide_product(n):
        ws(f'        "{line}\\n\\t"')
    outputs = ", ".join([f'[r{k}] "=&r"(r{k})' for k in range(n + 1)] + ['[lo] "=&r"(lo)', '[hi] "=&r"(hi)', '"=&d"(rdx)'])
    # A "memory" clobber rather than an "=m" output: with the "=m" output, clang (Swift 6.3's)
    # gave a pointer operand and an early-clobber output the same register inside large callers.
    ws(f"        : {outputs}, [r] \"+r\"(r), [a] \"+r\"(a), [b] \"+r\"(b)")
    ws('        :')
    ws('        : "cc", "memory");')
    ws("}")
    ws("")
    w(f"/* x*2^(-{64 * n}) mod p for x < p*2^{64 * n} ({2 * n} limbs): reduces the low half to u <= p (its m")
    w(" * values do not depend on the high half), then adds the high half (< p): u + high < 2p. */")
    w(f"static inline __attribute__((always_inline)) {L} zk_{name}_montgomery_reduction(const uint64_t *x) {{")
    w(f"    const uint64_t *pp = zk_{name}_modulus;")
    w(f"    uint64_t {', '.join(f't{j} = x[{j}]' for j in range(n))}, lo, hi, rdx;")
    w("    __asm__(")
    for _ in range(n):
        for line in reduction_step(n, None):
            w(f'        "{line}\\n\\t"')
    outputs = ", ".join([f'[t{j}] "+&r"(t{j})' for j in range(n)] + ['[lo] "=&r"(lo)', '[hi] "=&r"(hi)', '"=&d"(rdx)'])
    w(f'        : {outputs}, [p] "+r"(pp)')
    w(f'        : [inv] "m"(zk_{name}_negative_inverse)')
    w('        : "cc", "memory");')
    w(f"    {L} low = {{{{{', '.join(f't{j}' for j in range(n))}}}}}, high = {{{{{', '.join(f'x[{n + j}]' for j in range(n))}}}}};")
    w("    (void)rdx;")
    w(f"    return zk_{name}_modular_sum(low, high);")
    w("}")
    w("")
    ws(f"/* a + b without reduction (callers ensure no carry out of the top limb). */")
    ws(f"static inline __attribute__((always_inline)) {L} zk_plain_sum{n}({L} a, {L} b) {{")
    ws(f"    uint64_t {', '.join(f's{j} = a.limb[{j}]' for j in range(n))};")
    ws("    __asm__(")
    ws('        "addq %[b0], %[s0]\\n\\t"')
    for j in range(1, n):
        ws(f'        "adcq %[b{j}], %[s{j}]\\n\\t"')
    sums = ", ".join(f'[s{j}] "+r"(s{j})' for j in range(n))
    ws(f"        : {sums}")
    addends = ", ".join(f'[b{j}] "rm"(b.limb[{j}])' for j in range(n))
    ws(f"        : {addends}")
    ws('        : "cc");')
    ws(f"    {L} r = {{{{{', '.join(f's{j}' for j in range(n))}}}}};")
    ws("    return r;")
    ws("}")
    ws("")
    ws(f"/* The Karatsuba combination on {2 * n}-limb values: t2 -= t0 + t1 (never negative), t0 -= t1, plus")
    ws(" * p*2^(64n) when that borrows (p masked by the borrow, no branch on the value). */")
    ws(f"static inline __attribute__((always_inline)) void zk_fp2_combine{n}(uint64_t *t0, const uint64_t *t1, uint64_t *t2, const uint64_t *p) {{")
    ws(f"    uint64_t tmp, mask, {', '.join(f'q{j}' for j in range(n))};")
    ws("    __asm__(")
    for (src, dst) in [("t0", "t2"), ("t1", "t2"), ("t1", "t0")]:
        ws(f'        "/* {dst} -= {src} */\\n\\t"')
        for j in range(2 * n):
            ws(f'        "movq {8 * j}(%[{src}]), %[tmp]\\n\\t"')
            ws(f'        "{"subq" if j == 0 else "sbbq"} %[tmp], {8 * j}(%[{dst}])\\n\\t"')
    ws('        "sbbq %[mask], %[mask]\\n\\t"')
    for j in range(n):
        ws(f'        "movq {8 * j}(%[p]), %[q{j}]\\n\\t"')
        ws(f'        "andq %[mask], %[q{j}]\\n\\t"')
    for j in range(n):
        ws(f'        "{"addq" if j == 0 else "adcq"} %[q{j}], {8 * (n + j)}(%[t0])\\n\\t"')
    masked = ", ".join(f'[q{j}] "=&r"(q{j})' for j in range(n))
    ws(f'        : [tmp] "=&r"(tmp), [mask] "=&r"(mask), {masked},')
    ws(f'          [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [p] "+r"(p)')
    ws('        :')
    ws('        : "cc", "memory");')
    ws("}")
    ws("")
    w("/* (a0 + a1*i)(b0 + b1*i) in Fp[i]/(i^2 + 1), Karatsuba on unreduced double-width products:")
    w(" * c0 = a0*b0 - a1*b1 (plus p*R when negative), c1 = (a0 + a1)(b0 + b1) - a0*b0 - a1*b1, both")
    w(" * below p*R (p < R/4), then one Montgomery reduction each. */")
    w(f"static inline __attribute__((always_inline)) void zk_{name}_fp2_product({L} a0, {L} a1, {L} b0, {L} b1, {L} *c0, {L} *c1) {{")
    w(f"    uint64_t t0[{2 * n}], t1[{2 * n}], t2[{2 * n}];")
    w("    zk_wide_product%d(t0, a0.limb, b0.limb);" % n)
    w("    zk_wide_product%d(t1, a1.limb, b1.limb);" % n)
    w(f"    {L} sa = zk_plain_sum{n}(a0, a1), sb = zk_plain_sum{n}(b0, b1); /* < 2p: no carry out */")
    w("    zk_wide_product%d(t2, sa.limb, sb.limb);" % n)
    w(f"    zk_fp2_combine{n}(t0, t1, t2, zk_{name}_modulus);")
    w(f"    *c0 = zk_{name}_montgomery_reduction(t0);")
    w(f"    *c1 = zk_{name}_montgomery_reduction(t2);")
    w("}")
    w("")
    for op, first, rest in [("add", "addq", "adcq"), ("subtract", "subq", "sbbq")]:
        ws(f"/* r {'+' if op == 'add' else '-'}= x on {2 * n}-limb two's-complement values (the carry out is dropped). */")
        ws(f"static inline __attribute__((always_inline)) void zk_wide_{op}{n}(uint64_t *r, const uint64_t *x) {{")
        ws("    uint64_t tmp;")
        ws("    __asm__(")
        for j in range(2 * n):
            ws(f'        "movq {8 * j}(%[x]), %[tmp]\\n\\t"')
            ws(f'        "{first if j == 0 else rest} %[tmp], {8 * j}(%[r])\\n\\t"')
        ws(f'        : [tmp] "=&r"(tmp), [r] "+r"(r), [x] "+r"(x)')
        ws('        :')
        ws('        : "cc", "memory");')
        ws("}")
        ws("")
    w(f"/* An Fp2 product left double-width for the lazily reduced Fp4 product (a, b: 2 elements at")
    w(f" * x, x + {n}): w0 = a0 b0 - a1 b1 as a two's-complement value in (-p^2, p^2), w1 = a0 b1 + a1 b0")
    w(" * in [0, 2p^2). r may not overlap a or b. */")
    w(f"static __attribute__((noinline)) void zk_{name}_fp2_wide_product(uint64_t *w0, uint64_t *w1, const uint64_t *a, const uint64_t *b) {{")
    w(f"    uint64_t t[{2 * n}];")
    w(f"    {L} a0, a1, b0, b1;")
    w(f"    for (int j = 0; j < {n}; j++) {{ a0.limb[j] = a[j]; a1.limb[j] = a[{n} + j]; b0.limb[j] = b[j]; b1.limb[j] = b[{n} + j]; }}")
    w(f"    zk_wide_product{n}(w0, a, b);")
    w(f"    zk_wide_product{n}(t, a + {n}, b + {n});")
    w(f"    {L} sa = zk_plain_sum{n}(a0, a1), sb = zk_plain_sum{n}(b0, b1); /* < 2p: no carry out */")
    w(f"    zk_wide_product{n}(w1, sa.limb, sb.limb);")
    w(f"    zk_wide_subtract{n}(w1, w0);")
    w(f"    zk_wide_subtract{n}(w1, t);")
    w(f"    zk_wide_subtract{n}(w0, t);")
    w("}")
    return out


def tower(name, n):
    """Fp2, Fp4 and cyclotomic Fp12 operations on contiguous limbs (Fp2: 2 elements, Fp4: 4,
    Fp12: 12), built from the primitives above. In C they keep the limbs in place: the same
    code in Swift moves each 12- or 24-word value through the stack several times."""
    L = f"zk_limbs{n}"
    F = f"zk_{name}"
    N = n
    code = f"""
static inline __attribute__((always_inline)) {L} {F}_load(const uint64_t *x) {{
    {L} r;
    for (int j = 0; j < {N}; j++) r.limb[j] = x[j];
    return r;
}}

static inline __attribute__((always_inline)) void {F}_store(uint64_t *x, {L} v) {{
    for (int j = 0; j < {N}; j++) x[j] = v.limb[j];
}}

/* Fp2 elements: c0 at x, c1 at x + {N}. r may be a or b. */
static inline __attribute__((always_inline)) void {F}_fp2_sum(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {F}_sum_in_memory(r, a, b); {F}_sum_in_memory(r + {N}, a + {N}, b + {N});
}}

static inline __attribute__((always_inline)) void {F}_fp2_difference(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {F}_difference_in_memory(r, a, b); {F}_difference_in_memory(r + {N}, a + {N}, b + {N});
}}

/* a * xi, xi = 1 + i: (a0 - a1) + (a0 + a1) i (the difference goes through t: r may be a). */
static inline __attribute__((always_inline)) void {F}_fp2_times_xi(uint64_t *r, const uint64_t *a) {{
    uint64_t t[{N}];
    {F}_difference_in_memory(t, a, a + {N});
    {F}_sum_in_memory(r + {N}, a, a + {N});
    for (int k = 0; k < {N}; k++) r[k] = t[k];
}}

/* Out of line on purpose, like the Fp4 product and square: inlined into every tower kernel they
 * made each Fp12 product or square 80-120 KB of straight-line code, several times the
 * instruction cache; shared copies cost a call each (about 2% more instructions) and keep the
 * hot loops in cache (and their timings steadier). */
static __attribute__((noinline)) void {F}_fp2_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {L} c0, c1;
    {F}_fp2_product({F}_load(a), {F}_load(a + {N}), {F}_load(b), {F}_load(b + {N}), &c0, &c1);
    {F}_store(r, c0); {F}_store(r + {N}, c1);
}}

/* Fp4 elements (Fp2[j]/(j^2 - xi)): c0 at x, c1 at x + {2 * N}. r may be a or b. */
static __attribute__((noinline)) void {F}_fp4_square(uint64_t *r, const uint64_t *a) {{
    /* (a0 + a1 j)^2 = (a0 + a1)(a0 + xi a1) - a0 a1 - xi a0 a1 + 2 a0 a1 j */
    uint64_t product[{2 * N}], s1[{2 * N}], s2[{2 * N}], t[{2 * N}];
    {F}_fp2_mul(product, a, a + {2 * N});
    {F}_fp2_sum(s1, a, a + {2 * N});
    {F}_fp2_times_xi(t, a + {2 * N});
    {F}_fp2_sum(s2, a, t);
    {F}_fp2_mul(s1, s1, s2);
    {F}_fp2_difference(s1, s1, product);
    {F}_fp2_times_xi(t, product);
    {F}_fp2_difference(r, s1, t);
    {F}_fp2_sum(r + {2 * N}, product, product);
}}

/* Karatsuba over Fp2 with every Fp2 product left double-width and one Montgomery reduction per
 * output coefficient (four instead of six): with X = a0 b0, Y = a1 b1, Z = (a0 + a1)(b0 + b1) as
 * two's-complement double-width pairs, c0 = X + xi Y = (X0 + Y0 - Y1, X1 + Y0 + Y1) and
 * c1 = Z - X - Y, each lifted into (0, 6p^2) by adding a multiple of p^2 (6p^2 < p R: 6p < R on
 * both curves), which the reduction accepts. */
static __attribute__((noinline)) void {F}_fp4_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    uint64_t x0[{2 * N}], x1[{2 * N}], y0[{2 * N}], y1[{2 * N}], z0[{2 * N}], z1[{2 * N}], sa[{2 * N}], sb[{2 * N}];
    {F}_fp2_wide_product(x0, x1, a, b);
    {F}_fp2_wide_product(y0, y1, a + {2 * N}, b + {2 * N});
    {F}_fp2_sum(sa, a, a + {2 * N});
    {F}_fp2_sum(sb, b, b + {2 * N});
    {F}_fp2_wide_product(z0, z1, sa, sb);
    /* Z0 - X0 - Y0 in (-3p^2, 3p^2); Z1 - X1 - Y1 in (-4p^2, 2p^2) (sa, sb reduced mod p) */
    zk_wide_subtract{N}(z0, x0); zk_wide_subtract{N}(z0, y0); zk_wide_add{N}(z0, {F}_p_squared_times[2]);
    zk_wide_subtract{N}(z1, x1); zk_wide_subtract{N}(z1, y1); zk_wide_add{N}(z1, {F}_p_squared_times[3]);
    /* X0 + Y0 - Y1 in (-4p^2, 2p^2); X1 + Y0 + Y1 in (-p^2, 5p^2) */
    zk_wide_add{N}(x0, y0); zk_wide_subtract{N}(x0, y1); zk_wide_add{N}(x0, {F}_p_squared_times[3]);
    zk_wide_add{N}(x1, y0); zk_wide_add{N}(x1, y1); zk_wide_add{N}(x1, {F}_p_squared_times[0]);
    {F}_store(r, {F}_montgomery_reduction(x0));
    {F}_store(r + {N}, {F}_montgomery_reduction(x1));
    {F}_store(r + {2 * N}, {F}_montgomery_reduction(z0));
    {F}_store(r + {3 * N}, {F}_montgomery_reduction(z1));
}}

/* 3x - 2y as x + 2(x - y) (minus = 1) or x + 2(x + y) (minus = 0), on one Fp2 coefficient. */
static inline __attribute__((always_inline)) void {F}_fp2_granger_scott(uint64_t *r, const uint64_t *x, const uint64_t *y, int minus) {{
    uint64_t t[{2 * N}];
    if (minus) {F}_fp2_difference(t, x, y); else {F}_fp2_sum(t, x, y);
    {F}_fp2_sum(t, t, t);
    {F}_fp2_sum(r, t, x);
}}

/* Granger-Scott squaring in the cyclotomic subgroup of Fp12 = Fp4[k]/(k^3 - j), x = a + b k + c k^2:
 * x^2 = (3a^2 - 2 conj(a)) + (3 j c^2 + 2 conj(b)) k + (3 b^2 - 2 conj(c)) k^2, conj(u + v j) = u - v j.
 * r must not overlap a. */
static inline __attribute__((always_inline)) void {F}_fp12_cyclotomic_square(uint64_t *r, const uint64_t *x) {{
    uint64_t a2[{4 * N}], b2[{4 * N}], c2[{4 * N}], c2j[{4 * N}];
    const uint64_t *a = x, *b = x + {4 * N}, *c = x + {8 * N};
    {F}_fp4_square(a2, a);
    {F}_fp4_square(b2, b);
    {F}_fp4_square(c2, c);
    {F}_fp2_times_xi(c2j, c2 + {2 * N});             /* j * (u + v j) = xi v + u j */
    for (int k = 0; k < {2 * N}; k++) c2j[{2 * N} + k] = c2[k];
    {F}_fp2_granger_scott(r, a2, a, 1);
    {F}_fp2_granger_scott(r + {2 * N}, a2 + {2 * N}, a + {2 * N}, 0);
    {F}_fp2_granger_scott(r + {4 * N}, c2j, b, 0);
    {F}_fp2_granger_scott(r + {6 * N}, c2j + {2 * N}, b + {2 * N}, 1);
    {F}_fp2_granger_scott(r + {8 * N}, b2, c, 1);
    {F}_fp2_granger_scott(r + {10 * N}, b2 + {2 * N}, c + {2 * N}, 0);
}}"""
    return code.split("\n")


def tower12(name, n, divisive):
    """Fp12 products, squares and products by Miller-loop lines, on the Fp4 kernels; the same
    formulas as Fp12.swift and Line.swift (their Swift versions are the tests' reference)."""
    F = f"zk_{name}"
    N = n
    if divisive:
        line = f"""    /* D-type: (f0 + f1 k + f2 k^2)(a + b k), k^3 = j */
    {F}_fp4_mul(t0, f, a);
    {F}_fp4_times_fp2(t1, f + {4 * N}, b);
    {F}_fp4_times_fp2(s, f + {8 * N}, b);
    {F}_fp4_times_j(s, s);
    {F}_fp4_sum(out, t0, s);
    {F}_fp4_sum(s, f, f + {4 * N});
    {F}_fp4_mul(s, s, a_plus_b);
    {F}_fp4_difference(s, s, t0);
    {F}_fp4_difference(out + {4 * N}, s, t1);
    {F}_fp4_mul(s, f + {8 * N}, a);
    {F}_fp4_sum(out + {8 * N}, t1, s);"""
    else:
        line = f"""    /* M-type: (f0 + f1 k + f2 k^2)(a + b k^2), k^3 = j */
    {F}_fp4_mul(t0, f, a);
    {F}_fp4_times_fp2(t1, f + {8 * N}, b);
    {F}_fp4_times_fp2(s, f + {4 * N}, b);
    {F}_fp4_times_j(s, s);
    {F}_fp4_sum(out, t0, s);
    {F}_fp4_mul(s, f + {4 * N}, a);
    {F}_fp4_times_j(out + {8 * N}, t1);
    {F}_fp4_sum(out + {4 * N}, s, out + {8 * N});
    {F}_fp4_sum(s, f, f + {8 * N});
    {F}_fp4_mul(s, s, a_plus_b);
    {F}_fp4_difference(s, s, t0);
    {F}_fp4_difference(out + {8 * N}, s, t1);"""
    code = f"""
/* Fp4 sums and differences, coefficient-wise; r may be a or b. */
static inline __attribute__((always_inline)) void {F}_fp4_sum(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {F}_fp2_sum(r, a, b); {F}_fp2_sum(r + {2 * N}, a + {2 * N}, b + {2 * N});
}}

static inline __attribute__((always_inline)) void {F}_fp4_difference(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {F}_fp2_difference(r, a, b); {F}_fp2_difference(r + {2 * N}, a + {2 * N}, b + {2 * N});
}}

/* (a0 + a1 j) j = xi a1 + a0 j; r may be a. */
static inline __attribute__((always_inline)) void {F}_fp4_times_j(uint64_t *r, const uint64_t *a) {{
    uint64_t t[{2 * N}];
    {F}_fp2_times_xi(t, a + {2 * N});
    for (int k = 0; k < {2 * N}; k++) r[{2 * N} + k] = a[k];
    for (int k = 0; k < {2 * N}; k++) r[k] = t[k];
}}

/* (a0 + a1 j) b for b in Fp2; r may be a. */
static inline __attribute__((always_inline)) void {F}_fp4_times_fp2(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    {F}_fp2_mul(r, a, b); {F}_fp2_mul(r + {2 * N}, a + {2 * N}, b);
}}

/* Fp12 = Fp4[k]/(k^3 - j): c0 at x, c1 at x + {4 * N}, c2 at x + {8 * N}. Karatsuba: six Fp4 products.
 * r may overlap a or b (the result is assembled apart). */
static void {F}_fp12_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {{
    uint64_t v0[{4 * N}], v1[{4 * N}], v2[{4 * N}], s[{4 * N}], t[{4 * N}], out[{12 * N}];
    {F}_fp4_mul(v0, a, b);
    {F}_fp4_mul(v1, a + {4 * N}, b + {4 * N});
    {F}_fp4_mul(v2, a + {8 * N}, b + {8 * N});
    /* c0 = v0 + ((a1 + a2)(b1 + b2) - v1 - v2) j */
    {F}_fp4_sum(s, a + {4 * N}, a + {8 * N});
    {F}_fp4_sum(t, b + {4 * N}, b + {8 * N});
    {F}_fp4_mul(s, s, t);
    {F}_fp4_difference(s, s, v1);
    {F}_fp4_difference(s, s, v2);
    {F}_fp4_times_j(s, s);
    {F}_fp4_sum(out, v0, s);
    /* c1 = (a0 + a1)(b0 + b1) - v0 - v1 + v2 j */
    {F}_fp4_sum(s, a, a + {4 * N});
    {F}_fp4_sum(t, b, b + {4 * N});
    {F}_fp4_mul(s, s, t);
    {F}_fp4_difference(s, s, v0);
    {F}_fp4_difference(s, s, v1);
    {F}_fp4_times_j(t, v2);
    {F}_fp4_sum(out + {4 * N}, s, t);
    /* c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1 */
    {F}_fp4_sum(s, a, a + {8 * N});
    {F}_fp4_sum(t, b, b + {8 * N});
    {F}_fp4_mul(s, s, t);
    {F}_fp4_difference(s, s, v0);
    {F}_fp4_difference(s, s, v2);
    {F}_fp4_sum(out + {8 * N}, s, v1);
    for (int k = 0; k < {12 * N}; k++) r[k] = out[k];
}}

/* Chung-Hasan SQR2: s0 = c0^2, s1 = 2 c0 c1, s2 = (c0 - c1 + c2)^2, s3 = 2 c1 c2, s4 = c2^2;
 * x^2 = (s0 + s3 j) + (s1 + s4 j) k + (s1 + s2 + s3 - s0 - s4) k^2. r may be x. */
static void {F}_fp12_square(uint64_t *r, const uint64_t *x) {{
    uint64_t s0[{4 * N}], s1[{4 * N}], s2[{4 * N}], s3[{4 * N}], s4[{4 * N}], t[{4 * N}], out[{12 * N}];
    const uint64_t *c0 = x, *c1 = x + {4 * N}, *c2 = x + {8 * N};
    {F}_fp4_square(s0, c0);
    {F}_fp4_mul(s1, c0, c1);
    {F}_fp4_sum(s1, s1, s1);
    {F}_fp4_difference(s2, c0, c1);
    {F}_fp4_sum(s2, s2, c2);
    {F}_fp4_square(s2, s2);
    {F}_fp4_mul(s3, c1, c2);
    {F}_fp4_sum(s3, s3, s3);
    {F}_fp4_square(s4, c2);
    {F}_fp4_times_j(t, s3);
    {F}_fp4_sum(out, s0, t);
    {F}_fp4_times_j(t, s4);
    {F}_fp4_sum(out + {4 * N}, s1, t);
    {F}_fp4_sum(t, s1, s2);
    {F}_fp4_sum(t, t, s3);
    {F}_fp4_difference(t, t, s0);
    {F}_fp4_difference(out + {8 * N}, t, s4);
    for (int k = 0; k < {12 * N}; k++) r[k] = out[k];
}}

/* Karabina's compressed squaring (CompressedCyclotomic.swift), `times` times in place on
 * (g2, g3, g4, g5) at x, x + {2 * N}, x + {4 * N}, x + {6 * N}: with A(i,j) = (gi + gj)(gi + xi gj),
 * B(i,j) = gi gj: h2 = 2(g2 + 3 xi B45), h3 = 3(A45 - (xi + 1) B45) - 2 g3,
 * h4 = 3(A23 - (xi + 1) B23) - 2 g4, h5 = 2(g5 + 3 B23). */
static inline __attribute__((always_inline)) void {F}_karabina_a(uint64_t *r, const uint64_t *gi, const uint64_t *gj) {{
    uint64_t s[{2 * N}], t[{2 * N}];  /* r = (gi + gj)(gi + xi gj) */
    {F}_fp2_sum(s, gi, gj);
    {F}_fp2_times_xi(t, gj);
    {F}_fp2_sum(t, gi, t);
    {F}_fp2_mul(r, s, t);
}}

static inline __attribute__((always_inline)) void {F}_karabina_odd(uint64_t *g, const uint64_t *a, const uint64_t *xi_b, const uint64_t *b) {{
    uint64_t s[{2 * N}], t[{2 * N}];  /* g = 3(a - xi b - b) - 2g */
    {F}_fp2_difference(s, a, xi_b);
    {F}_fp2_difference(s, s, b);
    {F}_fp2_sum(t, s, s);
    {F}_fp2_sum(t, t, s);
    {F}_fp2_sum(s, g, g);
    {F}_fp2_difference(g, t, s);
}}

static inline __attribute__((always_inline)) void {F}_karabina_even(uint64_t *g, const uint64_t *c) {{
    uint64_t s[{2 * N}];  /* g = 2(g + 3c) */
    {F}_fp2_sum(s, c, c);
    {F}_fp2_sum(s, s, c);
    {F}_fp2_sum(s, s, g);
    {F}_fp2_sum(g, s, s);
}}

static void {F}_compressed_square(uint64_t *x, int times) {{
    uint64_t b45[{2 * N}], b23[{2 * N}], a45[{2 * N}], a23[{2 * N}], u[{2 * N}];
    uint64_t *g2 = x, *g3 = x + {2 * N}, *g4 = x + {4 * N}, *g5 = x + {6 * N};
    for (int round = 0; round < times; round++) {{
        {F}_fp2_mul(b45, g4, g5);
        {F}_fp2_mul(b23, g2, g3);
        {F}_karabina_a(a45, g4, g5);
        {F}_karabina_a(a23, g2, g3);
        {F}_fp2_times_xi(u, b45);
        {F}_karabina_odd(g3, a45, u, b45);
        {F}_karabina_even(g2, u);
        {F}_fp2_times_xi(u, b23);
        {F}_karabina_odd(g4, a23, u, b23);
        {F}_karabina_even(g5, b23);
    }}
}}

/* f times an evaluated line a + b k (D-type) or a + b k^2 (M-type), a in Fp4, b in Fp2 at
 * line + {4 * N}: 13 Fp2 products instead of 18. r may be f. */
static void {F}_fp12_mul_by_line(uint64_t *r, const uint64_t *f, const uint64_t *line) {{
    uint64_t t0[{4 * N}], t1[{4 * N}], s[{4 * N}], a_plus_b[{4 * N}], out[{12 * N}];
    const uint64_t *a = line, *b = line + {4 * N};
    {F}_fp2_sum(a_plus_b, a, b);
    for (int k = 0; k < {2 * N}; k++) a_plus_b[{2 * N} + k] = a[{2 * N} + k];
{line}
    for (int k = 0; k < {12 * N}; k++) r[k] = out[k];
}}"""
    return code.split("\n")


def function(name, modulus, inv):
    n = len(modulus)
    L = f"zk_limbs{n}"
    out = []
    w = out.append
    w(f"static const uint64_t zk_{name}_modulus[{n}] = {{")
    w("    " + ", ".join(f"0x{x:016x}u" for x in modulus) + ",")
    w("};")
    w(f"static const uint64_t zk_{name}_negative_inverse = 0x{inv:016x}u;")
    value = sum(limb << (64 * j) for j, limb in enumerate(modulus))
    w(f"/* k*p^2 for k = 1..4 ({2 * n} limbs): offsets that lift the lazily reduced Fp4 coefficients. */")
    w(f"static const uint64_t zk_{name}_p_squared_times[4][{2 * n}] = {{")
    for k in range(1, 5):
        multiple = k * value * value
        w("    {" + ", ".join(f"0x{(multiple >> (64 * j)) & (2**64 - 1):016x}u" for j in range(2 * n)) + "},")
    w("};")
    w("")
    w(f"/* a*b*2^(-{64 * n}) mod p for a, b < p (Montgomery form), constant time. */")
    w(f"static inline __attribute__((always_inline)) {L} zk_{name}_montgomery_product({L} a, {L} b) {{")
    w(f"    const uint64_t *pa = a.limb, *pb = b.limb, *pp = zk_{name}_modulus;")
    w(f"    uint64_t {', '.join(f't{j}' for j in range(n))}, lo, hi, top, rdx;")
    w("    __asm__(")
    for line in asm_lines(n):
        w(f'        "{line}\\n\\t"')
    outputs = ", ".join([f'[t{j}] "=&r"(t{j})' for j in range(n)]
                        + ['[lo] "=&r"(lo)', '[hi] "=&r"(hi)', '[top] "=&r"(top)', '"=&d"(rdx)'])
    w(f'        : {outputs}, [a] "+r"(pa), [b] "+r"(pb), [p] "+r"(pp)')
    w(f'        : [inv] "m"(zk_{name}_negative_inverse)')
    w('        : "cc", "memory");')
    w("    /* t < 2p: subtract p unless that borrows, selecting by mask (no branch on the value). */")
    w(f"    {L} r;")
    w("    unsigned long long borrow = 0;")
    w(f"    uint64_t {', '.join(f'd{j}' for j in range(n))};")
    for j in range(n):
        w(f"    d{j} = __builtin_subcll(t{j}, pp[{j}], borrow, &borrow);")
    w("    uint64_t keep = 0 - (uint64_t)borrow; /* all ones: t < p, keep t */")
    for j in range(n):
        w(f"    r.limb[{j}] = (t{j} & keep) | (d{j} & ~keep);")
    w("    (void)rdx;")
    w("    return r;")
    w("}")
    return out


def sum_and_difference(name, n):
    """(a + b) mod p and (a - b) mod p for a, b < p: carry chains without a branch on the value."""
    L = f"zk_limbs{n}"
    out = []
    w = out.append
    limbs = range(n)
    w(f"/* (a + b) mod p for a, b < p: a + b (no overflow: p < 2^{64 * n - 2}), then a + b - p unless that borrows. */")
    w(f"static inline __attribute__((always_inline)) {L} zk_{name}_modular_sum({L} a, {L} b) {{")
    w(f"    uint64_t {', '.join(f's{j} = a.limb[{j}]' for j in limbs)};")
    w(f"    uint64_t {', '.join(f'd{j}' for j in limbs)};")
    w("    __asm__(")
    w(f'        "addq %[b0], %[s0]\\n\\t"')
    for j in range(1, n):
        w(f'        "adcq %[b{j}], %[s{j}]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[s{j}], %[d{j}]\\n\\t"')
    w(f'        "subq %[p0], %[d0]\\n\\t"')
    for j in range(1, n):
        w(f'        "sbbq %[p{j}], %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "cmovcq %[s{j}], %[d{j}]\\n\\t"')
    outs = ", ".join([f'[s{j}] "+&r"(s{j})' for j in limbs] + [f'[d{j}] "=&r"(d{j})' for j in limbs])
    ins = ", ".join([f'[b{j}] "rm"(b.limb[{j}])' for j in limbs] + [f'[p{j}] "m"(zk_{name}_modulus[{j}])' for j in limbs])
    w(f"        : {outs}")
    w(f"        : {ins}")
    w('        : "cc");')
    w(f"    {L} r = {{{{{', '.join(f'd{j}' for j in limbs)}}}}};")
    w("    return r;")
    w("}")
    w("")
    w("/* (a - b) mod p for a, b < p: a - b, plus p when that borrowed (p masked by the borrow). */")
    w(f"static inline __attribute__((always_inline)) {L} zk_{name}_modular_difference({L} a, {L} b) {{")
    w(f"    uint64_t {', '.join(f'd{j} = a.limb[{j}]' for j in limbs)};")
    w(f"    uint64_t {', '.join(f'q{j}' for j in limbs)}, mask;")
    w("    __asm__(")
    w(f'        "subq %[b0], %[d0]\\n\\t"')
    for j in range(1, n):
        w(f'        "sbbq %[b{j}], %[d{j}]\\n\\t"')
    w('        "sbbq %[mask], %[mask]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[p{j}], %[q{j}]\\n\\t"')
        w(f'        "andq %[mask], %[q{j}]\\n\\t"')
    w(f'        "addq %[q0], %[d0]\\n\\t"')
    for j in range(1, n):
        w(f'        "adcq %[q{j}], %[d{j}]\\n\\t"')
    outs = ", ".join([f'[d{j}] "+&r"(d{j})' for j in limbs] + [f'[q{j}] "=&r"(q{j})' for j in limbs] + ['[mask] "=&r"(mask)'])
    w(f"        : {outs}")
    w(f"        : {ins}")
    w('        : "cc");')
    w(f"    {L} r = {{{{{', '.join(f'd{j}' for j in limbs)}}}}};")
    w("    return r;")
    w("}")
    return out


def in_memory_sum_and_difference(name, n):
    """The same sums and differences on limbs in memory, r = a op b (r may be a or b: every
    limb of a and b is read before r is written). Six to eight registers instead of the
    twelve of the value versions, which the compiler could only satisfy by spilling b to the
    stack: about 37 instructions per element instead of about 53."""
    out = []
    w = out.append
    limbs = range(n)
    regs = ", ".join(f'[d{j}] "=&r"(d{j})' for j in limbs)
    w(f"/* r = (a + b) mod p: the sum in registers, stored; sum - p kept unless it borrows (then the")
    w(f" * stored sum is read back by cmov). */")
    w(f"static inline __attribute__((always_inline)) void zk_{name}_sum_in_memory(uint64_t *r, const uint64_t *a, const uint64_t *b) {{")
    w(f"    uint64_t {', '.join(f'd{j}' for j in limbs)};")
    w("    __asm__(")
    for j in limbs:
        w(f'        "movq {8 * j}(%[a]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "{"addq" if j == 0 else "adcq"} {8 * j}(%[b]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[d{j}], {8 * j}(%[r])\\n\\t"')
    for j in limbs:
        w(f'        "{"subq" if j == 0 else "sbbq"} %[p{j}], %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "cmovcq {8 * j}(%[r]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[d{j}], {8 * j}(%[r])\\n\\t"')
    w(f'        : {regs}, [r] "+r"(r), [a] "+r"(a), [b] "+r"(b)')
    w(f'        : ' + ", ".join(f'[p{j}] "m"(zk_{name}_modulus[{j}])' for j in limbs))
    w('        : "cc", "memory");')
    w("}")
    w("")
    w(f"/* r = (a - b) mod p: the difference in registers and its borrow as a mask, stored; plus p,")
    w(f" * and the stored difference read back by cmov when there was no borrow. */")
    w(f"static inline __attribute__((always_inline)) void zk_{name}_difference_in_memory(uint64_t *r, const uint64_t *a, const uint64_t *b) {{")
    w(f"    uint64_t {', '.join(f'd{j}' for j in limbs)}, mask;")
    w("    __asm__(")
    for j in limbs:
        w(f'        "movq {8 * j}(%[a]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "{"subq" if j == 0 else "sbbq"} {8 * j}(%[b]), %[d{j}]\\n\\t"')
    w('        "sbbq %[mask], %[mask]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[d{j}], {8 * j}(%[r])\\n\\t"')
    for j in limbs:
        w(f'        "{"addq" if j == 0 else "adcq"} %[p{j}], %[d{j}]\\n\\t"')
    w('        "testq %[mask], %[mask]\\n\\t"')
    for j in limbs:
        w(f'        "cmovzq {8 * j}(%[r]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "movq %[d{j}], {8 * j}(%[r])\\n\\t"')
    w(f'        : {regs}, [mask] "=&r"(mask), [r] "+r"(r), [a] "+r"(a), [b] "+r"(b)')
    w(f'        : ' + ", ".join(f'[p{j}] "m"(zk_{name}_modulus[{j}])' for j in limbs))
    w('        : "cc", "memory");')
    w("}")
    return out


def header_text(fields):
    """fields: (C name, modulus limbs little-endian, -p^-1 mod 2^64, D-type twist) per curve."""
    lines = [
        "/* Generated by tools/gen-curves from curves/*.json; edit those, not this file. */",
        "/* Montgomery products for x86-64 CPUs with BMI2 and ADX (Broadwell, 2014, and later). */",
        "#ifndef ZKPIN_FIELD_ARITHMETIC_H",
        "#define ZKPIN_FIELD_ARITHMETIC_H",
        "#include <stdint.h>",
        "",
    ]
    for n in sorted({len(modulus) for _, modulus, _, _ in fields}):
        lines.append(f"typedef struct {{ uint64_t limb[{n}]; }} zk_limbs{n};")
    lines += ["", "#if defined(__x86_64__)", ""]
    written = set()
    for name, modulus, inv, divisive in fields:
        lines += function(name, modulus, inv)
        lines.append("")
        lines += sum_and_difference(name, len(modulus))
        lines.append("")
        lines += in_memory_sum_and_difference(name, len(modulus))
        lines.append("")
        lines += lazy_fp2_product(name, len(modulus), shared=len(modulus) not in written)
        written.add(len(modulus))
        lines += tower(name, len(modulus))
        lines += tower12(name, len(modulus), divisive)
        lines.append("")
        lines.append("")
    lines += ["#endif /* __x86_64__ */", "#endif", ""]
    return "\n".join(lines)
