"""The text of Sources/CFieldArithmetic/include/field_arithmetic.h (tools/gen-curves writes it): Montgomery products, sums and differences
of the two curves' prime fields in x86-64 assembly (BMI2 mulx with the two carry chains of ADX,
adcx and adox; add/adc chains and cmov for the sums, so no branch depends on a value).

Swift has no access to the ADX instructions, and the product written with 128-bit sums in
MontgomeryUnrolled.swift compiles to about twice the instructions: one carry chain, and the
tuple limbs shuttled through memory. The functions are `static inline`, so the Swift compiler
inlines them like its own code. The algorithm is the CIOS product with the "no-carry"
shortcut (top limb of p below 2^63 - 1, true for both fields), exactly as the Swift version,
and is checked against GMP by the same property tests. The tower above these primitives and
the bindings' table are C macros written once (tower.py), instantiated per curve."""
from curvegen import flat, tower

def multiply_row(n, i, limb, a="a", b="b", offset=0):
    """Limbs i..i+n of the running value += a * b[i]; limb(k) names the register of limb i + k
    (limb(n), the new top, is written, not added to). Low halves ride the OF chain (adox),
    high halves the CF chain (adcx); row 0 starts from zero and needs no additions of its own.
    a and b name the operands, each read `offset` limbs on."""
    out = []
    w = out.append
    a = [f"{8 * (offset + j)}(%[{a}])" for j in range(n)]
    w(f"movq {8 * (offset + i)}(%[{b}]), %%rdx")
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


def accumulating_row(n, i, limb, a, b, offset):
    """limb(0..n) += a * b[i], limb(n) (the top) included: the second product of a round of
    the sum of products. The sum stays below 2^(64(n+1)), so nothing carries out of the top."""
    out = []
    w = out.append
    w(f"movq {8 * (offset + i)}(%[{b}]), %%rdx")
    w("xorq %[lo], %[lo]")
    for j in range(n):
        w(f"mulxq {8 * (offset + j)}(%[{a}]), %[lo], %[hi]")
        w(f"adoxq %[lo], {limb(j)}")
        w(f"adcxq %[hi], {limb(j + 1)}")
    w("movq $0, %[lo]")
    w(f"adoxq %[lo], {limb(n)}")
    return out


def sum_of_products_lines(n):
    """The CIOS loop for x0*y0 + x1*y1 (x1 at x + n limbs, y1 at y + n): two rows and one
    reduction per limb of y. With x_i <= p, y_i < p and p < R/4 the value between rounds stays
    below 4p < R, and the result below (2p^2)/R + p < 1.5p; leaves it in t0..t{n-1}."""
    out = []
    registers = [f"%[t{j}]" for j in range(n)] + ["%[top]"]
    for i in range(n):
        out.append(f"/* t += x0 * y0[{i}] + x1 * y1[{i}] */")
        out += multiply_row(n, i, lambda k: registers[k], a="x", b="y")
        out += accumulating_row(n, i, lambda k: registers[k], a="x", b="y", offset=n)
        out += reduction_step(n, "%[top]")
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


def lazy_reduction(name, n, shared=True):
    """What the lazily reduced Fp2 and Fp4 products (tower.py) need: the curve's Montgomery
    reduction of a double-width value, and the limb-count helpers (zk_wide_product4, ...), written
    only when `shared` (their first curve)."""
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
    memory_asm(ws, ["/* r = a + b on limbs in memory, without reduction (callers ensure no carry out); r may be a or b. */"],
               f"zk_plain_sum_in_memory{n}(uint64_t *r, const uint64_t *a, const uint64_t *b)", range(n),
               lambda: (combine(ws, range(n), 0, "add"), store(ws, range(n), 0)))
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
    for op, first, rest in [("add", "addq", "adcq"), ("subtract", "subq", "sbbq")]:
        ws(f"/* acc {'+' if op == 'add' else '-'}= x on {2 * n}-limb two's-complement values (the carry out is dropped), acc in")
        ws(" * registers: the flat sums' step (x read where it lies, no memory clobber). */")
        ws(f"static inline __attribute__((always_inline)) void zk_flat_{op}{n}(uint64_t *acc, const uint64_t *x) {{")
        ws("    __asm__(")
        for j in range(2 * n):
            ws(f'        "{first if j == 0 else rest} {8 * j}(%[x]), %[a{j}]\\n\\t"')
        ws("        : " + ", ".join(f'[a{j}] "+r"(acc[{j}])' for j in range(2 * n)))
        ws(f'        : [x] "r"(x), [xm] "m"(*(const uint64_t (*)[{2 * n}])x)')
        ws('        : "cc");')
        ws("}")
        ws("")
    ws(f"/* x - m unless that borrows, on {n} limbs (x < 2m into [0, m)): the old x kept by cmov then (no")
    ws(" * branch on the value). The flat sums call it on their high half with m = p (acc in [0, 2pR) into")
    ws(" * [0, pR)), the Granger-Scott combination with m = 4p, 2p, p. */")
    ws(f"static inline __attribute__((always_inline)) void zk_below{n}(uint64_t *x, const uint64_t *m) {{")
    ws(f"    uint64_t {', '.join(f'd{j}' for j in range(n))};")
    ws("    __asm__(")
    for j in range(n):
        ws(f'        "movq %[x{j}], %[d{j}]\\n\\t"')
    for j in range(n):
        ws(f'        "{"subq" if j == 0 else "sbbq"} {8 * j}(%[m]), %[d{j}]\\n\\t"')
    for j in range(n):
        ws(f'        "cmovncq %[d{j}], %[x{j}]\\n\\t"')
    ws("        : " + ", ".join(f'[x{j}] "+r"(x[{j}])' for j in range(n)) + ", "
       + ", ".join(f'[d{j}] "=&r"(d{j})' for j in range(n)))
    ws(f'        : [m] "r"(m), [mm] "m"(*(const uint64_t (*)[{n}])m)')
    ws('        : "cc");')
    ws("}")
    ws("")
    for sign, extra in [("plus", ""), ("minus", ", const uint64_t *twice_p")]:
        formula = "3t + 2g" if sign == "plus" else "3t + 2p - 2g"
        ws(f"/* x = {formula} on {n} limbs for t, g < p (below 5p, no carry out: 5p < 2^{64 * n}). */")
        ws(f"static inline __attribute__((always_inline)) void zk_triple_{sign}_twice{n}(uint64_t *x, const uint64_t *t, const uint64_t *g{extra}) {{")
        ws("    __asm__(")
        for j in range(n):
            ws(f'        "movq {8 * j}(%[t]), %[x{j}]\\n\\t"')
        steps = [("add", "t"), ("add", "t")] + ([("add", "g"), ("add", "g")] if sign == "plus"
                                                 else [("add", "twice_p"), ("subtract", "g"), ("subtract", "g")])
        for op, source in steps:
            first, rest = ("addq", "adcq") if op == "add" else ("subq", "sbbq")
            for j in range(n):
                ws(f'        "{first if j == 0 else rest} {8 * j}(%[{source}]), %[x{j}]\\n\\t"')
        ws("        : " + ", ".join(f'[x{j}] "=&r"(x[{j}])' for j in range(n)))
        sources = ["t", "g"] + (["twice_p"] if sign == "minus" else [])
        ws("        : " + ", ".join(f'[{v}] "r"({v}), [{v}m] "m"(*(const uint64_t (*)[{n}]){v})' for v in sources))
        ws('        : "cc");')
        ws("}")
        ws("")
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
    return out


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
    # 2p and 4p, the Granger-Scott combination's conditional subtractions (tower.py)
    for multiple, label in [(2, "twice"), (4, "four_times")]:
        w(f"static const uint64_t zk_{name}_{label}_modulus[{n}] = {{")
        w("    " + ", ".join(f"0x{((multiple * value) >> (64 * j)) & (2**64 - 1):016x}u" for j in range(n)) + ",")
        w("};")
    w(f"/* k*p^2 for k = 1..{flat.LARGEST_OFFSET} ({2 * n} limbs): offsets that lift the lazily reduced coefficients. */")
    w(f"static const uint64_t zk_{name}_p_squared_times[{flat.LARGEST_OFFSET}][{2 * n}] = {{")
    for k in range(1, flat.LARGEST_OFFSET + 1):
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
    final_subtraction(w, n, "t < 2p")
    w("")
    w(f"/* (x0*y0 + x1*y1)*2^(-{64 * n}) mod p, x1 at x + {n} limbs and y1 at y + {n}, for x0, x1 <= p and")
    w(" * y0, y1 < p (Montgomery form): one interleaved CIOS loop, the products never stored (an Fp2")
    w(" * product is two of these up to tower.SUMS_OF_PRODUCTS_LIMBS limbs; G1's formulas reduce their")
    w(" * pairs of products with it on every curve). Constant time. */")
    w(f"static inline __attribute__((always_inline)) {L} zk_{name}_montgomery_sum_of_products(const uint64_t *x, const uint64_t *y) {{")
    w(f"    const uint64_t *pp = zk_{name}_modulus;")
    w(f"    uint64_t {', '.join(f't{j}' for j in range(n))}, lo, hi, top, rdx;")
    w("    __asm__(")
    for line in sum_of_products_lines(n):
        w(f'        "{line}\\n\\t"')
    w(f'        : {outputs}, [x] "+r"(x), [y] "+r"(y), [p] "+r"(pp)')
    w(f'        : [inv] "m"(zk_{name}_negative_inverse)')
    w('        : "cc", "memory");')
    final_subtraction(w, n, "t < 1.5p")
    return out


def final_subtraction(w, n, bound):
    """The end of a product in t0..t{n-1} below 2p: subtract p unless that borrows."""
    w(f"    /* {bound}: subtract p unless that borrows, selecting by mask (no branch on the value). */")
    w(f"    zk_limbs{n} r;")
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


def combine(w, limbs, offset, op):
    """d = a op b on limbs `offset`.. of a and b (op: "add" or "sub")."""
    first, rest = ("addq", "adcq") if op == "add" else ("subq", "sbbq")
    for j in limbs:
        w(f'        "movq {8 * (offset + j)}(%[a]), %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "{first if j == 0 else rest} {8 * (offset + j)}(%[b]), %[d{j}]\\n\\t"')


def store(w, limbs, offset, base="r"):
    for j in limbs:
        w(f'        "movq %[d{j}], {8 * (offset + j)}(%[{base}])\\n\\t"')


def minus_modulus_unless_borrow(w, limbs, offset):
    """The tail of a sum: d - p kept unless that borrows (then the stored d is read back)."""
    for j in limbs:
        w(f'        "{"subq" if j == 0 else "sbbq"} %[p{j}], %[d{j}]\\n\\t"')
    for j in limbs:
        w(f'        "cmovcq {8 * (offset + j)}(%[r]), %[d{j}]\\n\\t"')
    store(w, limbs, offset)


def plus_modulus_unless(w, limbs, offset, base, test, cmov):
    """The tail of a difference or lift on limbs d0.. held in registers, stored at offset limbs
    of `base`: d + p in registers, then `test` sets the flags and `cmov` reads the stored d
    back where p was not to be added; the result is stored."""
    for j in limbs:
        w(f'        "{"addq" if j == 0 else "adcq"} %[p{j}], %[d{j}]\\n\\t"')
    w(f'        "{test}\\n\\t"')
    for j in limbs:
        w(f'        "{cmov} {8 * (offset + j)}(%[{base}]), %[d{j}]\\n\\t"')
    store(w, limbs, offset, base)


def modular_sum_body(w, limbs):
    """r = a + b, then r - p unless that borrows (an element mod p)."""
    combine(w, limbs, 0, "add")
    store(w, limbs, 0)
    minus_modulus_unless_borrow(w, limbs, 0)


def modular_difference_body(w, limbs):
    """r = a - b (its borrow kept as a mask), plus p when it borrowed."""
    combine(w, limbs, 0, "sub")
    w('        "sbbq %[mask], %[mask]\\n\\t"')
    store(w, limbs, 0)
    plus_modulus_unless(w, limbs, 0, "r", "testq %[mask], %[mask]", "cmovzq")


def memory_asm(w, comment, signature, limbs, body, pointers=("r", "a", "b"), extra=None, moduli=""):
    """One function of a single asm block on limbs d0.. in registers and operands in memory:
    `body()` writes its instructions; `extra` names one more scratch register; `moduli` the
    block's inputs (the modulus limbs, or none)."""
    for line in comment:
        w(line)
    w(f"static inline __attribute__((always_inline)) void {signature} {{")
    w(f"    uint64_t {', '.join(f'd{j}' for j in limbs)}{f', {extra}' if extra else ''};")
    w("    __asm__(")
    body()
    operands = [f'[d{j}] "=&r"(d{j})' for j in limbs] + ([f'[{extra}] "=&r"({extra})'] if extra else [])
    operands += [f'[{p}] "+r"({p})' for p in pointers]
    w("        : " + ", ".join(operands))
    w("        :" + (f" {moduli}" if moduli else ""))
    w('        : "cc", "memory");')
    w("}")


def in_memory_sum_and_difference(name, n):
    """The same sums and differences on limbs in memory, r = a op b (r may be a or b: every
    limb of a and b is read before r is written). Six to eight registers instead of the
    twelve of the value versions, which the compiler could only satisfy by spilling b to the
    stack: about 37 instructions per element instead of about 53."""
    out = []
    w = out.append
    limbs = range(n)
    moduli = ", ".join(f'[p{j}] "m"(zk_{name}_modulus[{j}])' for j in limbs)

    memory_asm(w, ["/* r = (a + b) mod p: the sum in registers, stored; sum - p kept unless it borrows (then the",
                   " * stored sum is read back by cmov). */"],
               f"zk_{name}_sum_in_memory(uint64_t *r, const uint64_t *a, const uint64_t *b)", limbs,
               lambda: modular_sum_body(w, limbs), moduli=moduli)
    w("")
    memory_asm(w, ["/* r = (a - b) mod p: the difference in registers and its borrow as a mask, stored; plus p,",
                   " * and the stored difference read back by cmov when there was no borrow. */"],
               f"zk_{name}_difference_in_memory(uint64_t *r, const uint64_t *a, const uint64_t *b)", limbs,
               lambda: modular_difference_body(w, limbs),
               extra="mask", moduli=moduli)
    return out


def header_text(fields):
    """fields: (C name, modulus limbs little-endian, -p^-1 mod 2^64, D-type twist, (m, minus) with
    3b' = m·(1 ∓ i)) per curve."""
    lines = [
        "/* Generated by tools/gen-curves from the descriptions in curves/; edit those, not this file. */",
        "/* Montgomery products for x86-64 CPUs with BMI2 and ADX (Broadwell, 2014, and later). */",
        "#ifndef ZKPIN_FIELD_ARITHMETIC_H",
        "#define ZKPIN_FIELD_ARITHMETIC_H",
        "#include <stdint.h>",
        "",
    ]
    for n in sorted({len(modulus) for _, modulus, _, _, _ in fields}):
        lines.append(f"typedef struct {{ uint64_t limb[{n}]; }} zk_limbs{n};")
    # Every pointer here is non-null (the bindings' table says so with _Nonnull; the pragma keeps
    # clang's nullability-completeness warning quiet about the rest).
    lines += ["", "#if defined(__x86_64__)", "#pragma clang assume_nonnull begin", ""]
    lines += tower.macros() + ["", ""]
    written = set()
    for name, modulus, inv, divisive, b3 in fields:
        lines += function(name, modulus, inv)
        lines.append("")
        lines += sum_and_difference(name, len(modulus))
        lines.append("")
        lines += in_memory_sum_and_difference(name, len(modulus))
        lines.append("")
        lines += lazy_reduction(name, len(modulus), shared=len(modulus) not in written)
        written.add(len(modulus))
        lines += tower.instance(name, len(modulus), divisive, b3)
        lines.append("")
        lines.append("")
    lines += ["#pragma clang assume_nonnull end", "#endif /* __x86_64__ */", "#endif", ""]
    return "\n".join(lines)
