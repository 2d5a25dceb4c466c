"""The C kernels every curve shares, as macros of the curve's prefix F (zk_<curve>) and limb
count N, instantiated once per curve in field_arithmetic.h: the Fp2, Fp4 and Fp12 operations on
contiguous limbs (Fp2: 2 elements, Fp4: 4, Fp12: 12) built from the curve's own primitives (its
Montgomery product, reduction, sums and differences, written out per curve because their
assembly is unrolled for p), and the constant table of the Swift bindings
(Pairing/KernelField.swift). In C they keep the limbs in place: the same code in Swift moves each
12- or 24-word value through the stack several times. The formulas are those of Fp2.swift,
Fp4.swift, Fp12.swift and Line.swift (their Swift versions are the tests' reference)."""

from curvegen import flat

TOWER = r"""
/* An Fp2 product left double-width for the lazily reduced Fp4 product and the flat sums (a, b: 2
 * elements at x, x + N): w0 = a0 b0 - a1 b1 as a two's-complement value in (-p^2, p^2), w1 = a0 b1 + a1 b0
 * in [0, 2p^2). r may not overlap a or b. */
static __attribute__((noinline)) void F##_fp2_wide_product(uint64_t *w0, uint64_t *w1, const uint64_t *a, const uint64_t *b) {
    uint64_t t[2 * N], sa[N], sb[N];
    zk_wide_product##N(w0, a, b);
    zk_wide_product##N(t, a + N, b + N);
    zk_plain_sum_in_memory##N(sa, a, a + N); /* < 2p: no carry out */
    zk_plain_sum_in_memory##N(sb, b, b + N);
    zk_wide_product##N(w1, sa, sb);
    zk_wide_subtract##N(w1, w0);
    zk_wide_subtract##N(w1, t);
    zk_wide_subtract##N(w0, t);
}

static inline __attribute__((always_inline)) zk_limbs##N F##_load(const uint64_t *x) {
    zk_limbs##N r;
    for (int j = 0; j < N; j++) r.limb[j] = x[j];
    return r;
}

static inline __attribute__((always_inline)) void F##_store(uint64_t *x, zk_limbs##N v) {
    for (int j = 0; j < N; j++) x[j] = v.limb[j];
}

/* Fp2 elements: c0 at x, c1 at x + N. r may be a or b. */
static inline __attribute__((always_inline)) void F##_fp2_sum(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    F##_sum_in_memory(r, a, b); F##_sum_in_memory(r + N, a + N, b + N);
}

static inline __attribute__((always_inline)) void F##_fp2_difference(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    F##_difference_in_memory(r, a, b); F##_difference_in_memory(r + N, a + N, b + N);
}

/* a * xi, xi = 1 + i: (a0 - a1) + (a0 + a1) i (the difference goes through t: r may be a). */
static inline __attribute__((always_inline)) void F##_fp2_times_xi(uint64_t *r, const uint64_t *a) {
    uint64_t t[N];
    F##_difference_in_memory(t, a, a + N);
    F##_sum_in_memory(r + N, a, a + N);
    for (int k = 0; k < N; k++) r[k] = t[k];
}

/* F##_fp2_product_at (ZK_FP2_PRODUCT_*), out of line on purpose, like the Fp4 product and
 * square: inlined into every tower kernel they made each Fp12 product or square 80-120 KB of
 * straight-line code, several times the instruction cache; shared copies cost a call each
 * (about 2% more instructions) and keep the hot loops in cache (and their timings steadier). */
static __attribute__((noinline)) void F##_fp2_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { F##_fp2_product_at(r, a, b); }

/* r = the `count` values of w reduced, one Montgomery reduction each. */
static inline __attribute__((always_inline)) void F##_reduce_wide(uint64_t *r, const uint64_t *w, int count) {
    for (int k = 0; k < count; k++) F##_store(r + k * N, F##_montgomery_reduction(w + 2 * k * N));
}

/* The Fp4 product left double-width (w: 8N limbs, not overlapping a or b). Karatsuba over Fp2
 * with every Fp2 product double-width: with X = a0 b0, Y = a1 b1, Z = (a0 + a1)(b0 + b1) as
 * two's-complement pairs, c0 = X + xi Y = (X0 + Y0 - Y1, X1 + Y0 + Y1) and c1 = Z - X - Y, each
 * lifted into (0, 6p^2) by adding a multiple of p^2 (6p^2 < p R: 6p < R on both curves). */
/* The Karatsuba combination of a wide Fp4 product (see below): X at w, Z at w + 4N, Y in y0, y1. */
static inline __attribute__((always_inline)) void F##_fp4_wide_combine(uint64_t *w, const uint64_t *y0, const uint64_t *y1) {
    uint64_t *x0 = w, *x1 = w + 2 * N, *z0 = w + 4 * N, *z1 = w + 6 * N;
    /* Z0 - X0 - Y0 in (-3p^2, 3p^2); Z1 - X1 - Y1 in (-4p^2, 2p^2) (sa, sb reduced mod p) */
    zk_wide_subtract##N(z0, x0); zk_wide_subtract##N(z0, y0); zk_wide_add##N(z0, F##_p_squared_times[2]);
    zk_wide_subtract##N(z1, x1); zk_wide_subtract##N(z1, y1); zk_wide_add##N(z1, F##_p_squared_times[3]);
    /* X0 + Y0 - Y1 in (-4p^2, 2p^2); X1 + Y0 + Y1 in (-p^2, 5p^2) */
    zk_wide_add##N(x0, y0); zk_wide_subtract##N(x0, y1); zk_wide_add##N(x0, F##_p_squared_times[3]);
    zk_wide_add##N(x1, y0); zk_wide_add##N(x1, y1); zk_wide_add##N(x1, F##_p_squared_times[0]);
}

static __attribute__((noinline)) void F##_fp4_wide_mul(uint64_t *w, const uint64_t *a, const uint64_t *b) {
    uint64_t *x0 = w, *x1 = w + 2 * N, *z0 = w + 4 * N, *z1 = w + 6 * N;
    uint64_t y0[2 * N], y1[2 * N], sa[2 * N], sb[2 * N];
    F##_fp2_wide_product(x0, x1, a, b);
    F##_fp2_wide_product(y0, y1, a + 2 * N, b + 2 * N);
    F##_fp2_sum(sa, a, a + 2 * N);
    F##_fp2_sum(sb, b, b + 2 * N);
    F##_fp2_wide_product(z0, z1, sa, sb);
    F##_fp4_wide_combine(w, y0, y1);
}

/* The Fp4 product: four Montgomery reductions instead of six. r may be a or b. */
static __attribute__((noinline)) void F##_fp4_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t w[8 * N];
    F##_fp4_wide_mul(w, a, b);
    F##_reduce_wide(r, w, 4);
}

/* a^2 for a reduced Fp2 element, double-width: s0 = (a0 + a1)(a0 - a1), s1 = (2 a0) a1, each in
 * [0, 2p^2) (a0 + a1 and 2 a0 are left below 2p: no carry out, 2p < R on both curves). */
static inline __attribute__((always_inline)) void F##_fp2_wide_square(uint64_t *s, const uint64_t *a) {
    uint64_t sum[N], difference[N];
    zk_plain_sum_in_memory##N(sum, a, a + N);
    F##_difference_in_memory(difference, a, a + N);
    zk_wide_product##N(s, sum, difference);
    zk_plain_sum_in_memory##N(sum, a, a);
    zk_wide_product##N(s + 2 * N, sum, a + N);
}

/* r = 3t + 2g (minus = 0) or 3t - 2g (minus = 1) mod p for t, g < p, one coefficient of the
 * Granger-Scott combination: below 5p in registers (3t + 2p - 2g when minus), then below p by
 * three conditional subtractions, of 4p, 2p and p. r may be g. */
static inline __attribute__((always_inline)) void F##_granger_scott_coefficient(uint64_t *r, const uint64_t *t, const uint64_t *g, int minus) {
    uint64_t x[N];
    if (minus) zk_triple_minus_twice##N(x, t, g, F##_twice_modulus); else zk_triple_plus_twice##N(x, t, g);
    zk_below##N(x, F##_four_times_modulus);
    zk_below##N(x, F##_twice_modulus);
    zk_below##N(x, F##_modulus);
    for (int k = 0; k < N; k++) r[k] = x[k];
}

/* r = the flat sum acc (zk_flat_add##N, zk_flat_subtract##N), in [0, 2pR), reduced: below pR
 * by one conditional subtraction, then one Montgomery reduction (which takes [0, pR)). */
static inline __attribute__((always_inline)) void F##_flat_reduce(uint64_t *r, uint64_t *acc) {
    zk_below##N(acc + N, F##_modulus);
    F##_store(r, F##_montgomery_reduction(acc));
}

/* acc in [0, 8pR) into [0, 2pR): 4pR, then 2pR, subtracted unless that borrows (the flat sums
 * wider than 2pR, F##_fp12_mul's). */
static inline __attribute__((always_inline)) void F##_below_2pR(uint64_t *acc) {
    zk_below##N(acc + N, F##_four_times_modulus);
    zk_below##N(acc + N, F##_twice_modulus);
}


"""

TOWER_AFTER_FP6 = r"""
/* The square by complex squaring over Fp6, as mcl squares: x = a + b w with a = (c00, c20, c11)
 * and b = (c10, c01, c21) in the Fp4 tower's coefficients (k^0, k^2, k^4 and k^1, k^3, k^5),
 * x^2 = ((a + b)(a + v b) - ab - v ab) + 2ab w. Two Fp6 products, each coefficient a flat sum
 * reduced once (12 reductions in all, F##_fp6_mul), then the combination in Fp. Chung-Hasan's
 * SQR2 over Fp4 (Fp12.swift's formula, the tests' reference) took about 64 double-width sums;
 * this square took 44 before its Fp6 products' sums were flat. r may be x (written only at the
 * end). */
static void F##_fp12_square(uint64_t *r, const uint64_t *x) {
    const uint64_t *a0 = x, *a1 = x + 8 * N, *a2 = x + 6 * N, *b0 = x + 4 * N, *b1 = x + 2 * N, *b2 = x + 10 * N;
    uint64_t s[6 * N], t[6 * N], sum_product[6 * N], ab[6 * N], u[2 * N];
    F##_fp2_sum(s, a0, b0); F##_fp2_sum(s + 2 * N, a1, b1); F##_fp2_sum(s + 4 * N, a2, b2);
    F##_fp2_times_xi(u, b2);  /* a + v b = (a0 + xi b2, a1 + b0, a2 + b1) */
    F##_fp2_sum(t, a0, u); F##_fp2_sum(t + 2 * N, a1, b0); F##_fp2_sum(t + 4 * N, a2, b1);
    F##_fp6_mul(sum_product, s, s + 2 * N, s + 4 * N, t, t + 2 * N, t + 4 * N);
    F##_fp6_mul(ab, a0, a1, a2, b0, b1, b2);
    /* a^2 + v b^2 = sum_product - ab - v ab, v ab = (xi ab2, ab0, ab1) */
    F##_fp2_times_xi(u, ab + 4 * N);
    F##_fp2_difference(s, sum_product, ab); F##_fp2_difference(r, s, u);
    F##_fp2_difference(s, sum_product + 2 * N, ab + 2 * N); F##_fp2_difference(r + 8 * N, s, ab);
    F##_fp2_difference(s, sum_product + 4 * N, ab + 4 * N); F##_fp2_difference(r + 6 * N, s, ab + 2 * N);
    F##_fp2_sum(r + 4 * N, ab, ab); F##_fp2_sum(r + 2 * N, ab + 2 * N, ab + 2 * N); F##_fp2_sum(r + 10 * N, ab + 4 * N, ab + 4 * N);
}"""

# The Fp2 product in place, (a0 + a1*i)(b0 + b1*i) in Fp[i]/(i^2 + 1), r may be a or b: one of
# two algorithms per curve, chosen by the limb count (`instance`; timed side by side on
# 2026-11-26). Inlined where the Swift bindings call it (their Fp2 product is already out of
# line); the tower calls fp2_mul.
FP2_PRODUCT_SUMS_OF_PRODUCTS = r"""
/* 4 limbs: two sums of products, each one interleaved Montgomery loop: c0 = a0*b0 + (p - a1)*b1,
 * c1 = a1*b0 + a0*b1 (p - a1 <= p). Four products instead of Karatsuba's three, but nothing
 * double-width goes through memory: 7% fewer instructions per G2 multiplication on BN254CX,
 * 4% less time. */
static inline __attribute__((always_inline)) void F##_fp2_product_at(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t x[2 * N], y[2 * N];
    unsigned long long borrow = 0;
    for (int k = 0; k < N; k++) {
        x[k] = a[k];
        x[N + k] = __builtin_subcll(F##_modulus[k], a[N + k], borrow, &borrow);
        y[k] = a[N + k];
        y[N + k] = a[k];
    }
    zk_limbs##N c0 = F##_montgomery_sum_of_products(x, b);
    zk_limbs##N c1 = F##_montgomery_sum_of_products(y, b);
    for (int k = 0; k < N; k++) { r[k] = c0.limb[k]; r[N + k] = c1.limb[k]; }
}"""

FP2_PRODUCT_KARATSUBA = r"""
/* 6 limbs: Karatsuba on unreduced double-width products: c0 = a0*b0 - a1*b1 (plus p*R when
 * negative), c1 = (a0 + a1)(b0 + b1) - a0*b0 - a1*b1, both below p*R (p < R/4), then one
 * Montgomery reduction each. The sums of products took 3% fewer instructions on BLS12-381 but
 * 5% more time (72 more mulx per product). */
static inline __attribute__((always_inline)) void F##_fp2_product_at(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    uint64_t t0[2 * N], t1[2 * N], t2[2 * N], sa[N], sb[N];
    zk_wide_product##N(t0, a, b);
    zk_wide_product##N(t1, a + N, b + N);
    zk_plain_sum_in_memory##N(sa, a, a + N); /* < 2p: no carry out */
    zk_plain_sum_in_memory##N(sb, b, b + N);
    zk_wide_product##N(t2, sa, sb);
    zk_fp2_combine##N(t0, t1, t2, F##_modulus);
    zk_limbs##N c0 = F##_montgomery_reduction(t0), c1 = F##_montgomery_reduction(t2);
    for (int k = 0; k < N; k++) { r[k] = c0.limb[k]; r[N + k] = c1.limb[k]; }
}"""

# Limb counts up to which the Fp2 product is two sums of products.
SUMS_OF_PRODUCTS_LIMBS = 4

# a b + c d and a b - c d in Fp, reduced once (the kernel table's sum_of_products and
# difference_of_products, G1's complete formulas): one interleaved CIOS loop over both products
# (kernels.py's montgomery_sum_of_products), 242 instructions a pair on BN254CX and 473 on
# BLS12-381, where two wide products and one reduction took 287 and 532, and two reduced
# products and a sum 383 and 715. r may be any operand.
TWO_PRODUCTS = r"""
static inline __attribute__((always_inline)) void F##_sum_of_products_at(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *d) {
    uint64_t x[2 * N], y[2 * N];
    for (int k = 0; k < N; k++) { x[k] = a[k]; x[N + k] = c[k]; y[k] = b[k]; y[N + k] = d[k]; }
    F##_store(r, F##_montgomery_sum_of_products(x, y));
}

/* a b + (p - c) d, with p - c in (0, p] as the loop allows (zero for c = 0). */
static inline __attribute__((always_inline)) void F##_difference_of_products_at(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *d) {
    uint64_t x[2 * N], y[2 * N];
    zk_limbs##N zero = {{0}}, minus_c = F##_modular_difference(zero, F##_load(c));
    for (int k = 0; k < N; k++) { x[k] = a[k]; x[N + k] = minus_c.limb[k]; y[k] = b[k]; y[N + k] = d[k]; }
    F##_store(r, F##_montgomery_sum_of_products(x, y));
}"""


# Limb counts from which the live Miller loop's steps run in C (g2_double_line, g2_add_line):
# on BLS12-381 (6 limbs) the C doubling step made the loop 2% faster; on BN254CX (4 limbs) the
# Swift steps measured 2% faster (six alternating rounds each, stop 37).
LIVE_LINE_STEPS_LIMBS = 6

# f times an evaluated line, per twist (D: a + b k; M: a + b k^2), plain and with a's y_P
# coefficient in Fp: generated as flat sums (flat.py). r may be f.
def line_products(twist):
    return flat.line_product(twist, False) + "\n\n" + flat.line_product(twist, True)


# The complete projective sum and doubling on the twist E'(Fp2), y^2 = x^3 + b' (Renes, Costello
# and Batina 2016, algorithms 7 and 9, a = 0), with 3b' = B3_MULTIPLE·(1 - i) when B3_MINUS_I,
# else B3_MULTIPLE·(1 + i): the same operations as Point's Swift formulas, on limbs in memory (a
# point is X, Y, Z, each an Fp2 of 2N limbs), calling the shared Fp2 product. No branch and no
# address depends on the values (the constant's bits are fixed at compile time).
TWIST = r"""
/* 3b' x (r may be x). */
static inline __attribute__((always_inline)) void F##_g2_times_b3(uint64_t *r, const uint64_t *x) {
    uint64_t t[2 * N], acc[2 * N];
    if (B3_MINUS_I) { F##_sum_in_memory(t, x, x + N); F##_difference_in_memory(t + N, x + N, x); }
    else { F##_difference_in_memory(t, x, x + N); F##_sum_in_memory(t + N, x, x + N); }
    for (int k = 0; k < 2 * N; k++) acc[k] = t[k];
    for (int bit = 62 - __builtin_clzll(B3_MULTIPLE); bit >= 0; bit--) {
        F##_fp2_sum(acc, acc, acc);
        if ((B3_MULTIPLE >> bit) & 1) F##_fp2_sum(acc, acc, t);
    }
    for (int k = 0; k < 2 * N; k++) r[k] = acc[k];
}

/* a^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 i: two base-field products. */
static inline __attribute__((always_inline)) void F##_g2_fp2_square(uint64_t *r, const uint64_t *a) {
    zk_limbs##N a0 = F##_load(a), a1 = F##_load(a + N);
    zk_limbs##N c0 = F##_montgomery_product(F##_modular_sum(a0, a1), F##_modular_difference(a0, a1));
    zk_limbs##N m = F##_montgomery_product(a0, a1);
    F##_store(r, c0);
    F##_store(r + N, F##_modular_sum(m, m));
}

/* r = p + q (algorithm 7: 12 Fp2 products and 2 by 3b'); r may be p or q. */
static void F##_g2_add(uint64_t *r, const uint64_t *p, const uint64_t *q) {
    const uint64_t *x1 = p, *y1 = p + 2 * N, *z1 = p + 4 * N, *x2 = q, *y2 = q + 2 * N, *z2 = q + 4 * N;
    uint64_t t0[2 * N], t1[2 * N], t2[2 * N], t3[2 * N], t4[2 * N], x3[2 * N], y3[2 * N], z3[2 * N];
    F##_fp2_mul(t0, x1, x2); F##_fp2_mul(t1, y1, y2); F##_fp2_mul(t2, z1, z2);
    F##_fp2_sum(t3, x1, y1); F##_fp2_sum(t4, x2, y2); F##_fp2_mul(t3, t3, t4);
    F##_fp2_sum(t4, t0, t1); F##_fp2_difference(t3, t3, t4);
    F##_fp2_sum(t4, y1, z1); F##_fp2_sum(x3, y2, z2); F##_fp2_mul(t4, t4, x3);
    F##_fp2_sum(x3, t1, t2); F##_fp2_difference(t4, t4, x3);
    F##_fp2_sum(x3, x1, z1); F##_fp2_sum(y3, x2, z2); F##_fp2_mul(x3, x3, y3);
    F##_fp2_sum(y3, t0, t2); F##_fp2_difference(y3, x3, y3);
    F##_fp2_sum(x3, t0, t0); F##_fp2_sum(t0, x3, t0);
    F##_g2_times_b3(t2, t2);
    F##_fp2_sum(z3, t1, t2); F##_fp2_difference(t1, t1, t2);
    F##_g2_times_b3(y3, y3);
    F##_fp2_mul(x3, t4, y3); F##_fp2_mul(t2, t3, t1); F##_fp2_difference(x3, t2, x3);
    F##_fp2_mul(y3, y3, t0); F##_fp2_mul(t1, t1, z3); F##_fp2_sum(y3, t1, y3);
    F##_fp2_mul(t0, t0, t3); F##_fp2_mul(z3, z3, t4); F##_fp2_sum(z3, z3, t0);
    for (int k = 0; k < 2 * N; k++) { r[k] = x3[k]; r[2 * N + k] = y3[k]; r[4 * N + k] = z3[k]; }
}

/* The Miller loop's doubling step with a live T (homogeneous projective, LiveLines.doubling in
 * Swift, the same operations): the tangent at T scaled by Z^2, line = (ly, lx, lc), and T := 2T in
 * place; 2 Fp2 products and 7 squares. */
static void F##_g2_double_line(uint64_t *t, uint64_t *line) {
    uint64_t *x = t, *y = t + 2 * N, *z = t + 4 * N;
    uint64_t a[2 * N], b[2 * N], c[2 * N], d[2 * N], e[2 * N], f[2 * N], g[2 * N], s[2 * N], dd[2 * N];
    uint64_t zero[2 * N] = {0};
    F##_g2_fp2_square(a, x); F##_g2_fp2_square(b, y); F##_g2_fp2_square(c, z);
    F##_g2_times_b3(d, c);
    F##_fp2_sum(s, x, y); F##_g2_fp2_square(e, s); F##_fp2_difference(e, e, a); F##_fp2_difference(e, e, b);
    F##_fp2_sum(s, y, z); F##_g2_fp2_square(f, s); F##_fp2_difference(f, f, b); F##_fp2_difference(f, f, c);
    F##_fp2_sum(g, d, d); F##_fp2_sum(g, g, d);
    for (int k = 0; k < 2 * N; k++) line[k] = f[k];
    F##_fp2_sum(s, a, a); F##_fp2_sum(s, s, a); F##_fp2_difference(line + 2 * N, zero, s);
    F##_fp2_difference(line + 4 * N, b, d);
    F##_g2_fp2_square(dd, d);
    F##_fp2_difference(s, b, g); F##_fp2_mul(x, e, s);
    F##_fp2_sum(s, b, g); F##_g2_fp2_square(y, s);
    F##_fp2_sum(s, dd, dd); F##_fp2_sum(s, s, dd); F##_fp2_sum(s, s, s); F##_fp2_sum(s, s, s);
    F##_fp2_difference(y, y, s);
    F##_fp2_mul(s, b, f); F##_fp2_sum(s, s, s); F##_fp2_sum(z, s, s);
}

/* The Miller loop's addition step with a live T (LiveLines.add in Swift, the same operations):
 * the line through T and the affine point R (x_R, y_R at r, r + 2N) scaled by lambda, out as
 * (ly, lx, lc), and T := T + R in place; 12 Fp2 products and 2 squares. */
static void F##_g2_add_line(uint64_t *t, const uint64_t *r, uint64_t *line) {
    uint64_t *x = t, *y = t + 2 * N, *z = t + 4 * N;
    const uint64_t *rx = r, *ry = r + 2 * N;
    uint64_t theta[2 * N], lambda[2 * N], s[2 * N], u[2 * N], cc[2 * N], dd[2 * N], ee[2 * N], ff[2 * N], gg[2 * N], hh[2 * N];
    uint64_t zero[2 * N] = {0};
    F##_fp2_mul(s, ry, z); F##_fp2_difference(theta, y, s);
    F##_fp2_mul(s, rx, z); F##_fp2_difference(lambda, x, s);
    for (int k = 0; k < 2 * N; k++) line[k] = lambda[k];
    F##_fp2_difference(line + 2 * N, zero, theta);
    F##_fp2_mul(s, theta, rx); F##_fp2_mul(u, lambda, ry); F##_fp2_difference(line + 4 * N, s, u);
    F##_g2_fp2_square(cc, theta); F##_g2_fp2_square(dd, lambda);
    F##_fp2_mul(ee, lambda, dd); F##_fp2_mul(ff, z, cc); F##_fp2_mul(gg, x, dd);
    F##_fp2_sum(hh, ee, ff); F##_fp2_sum(s, gg, gg); F##_fp2_difference(hh, hh, s);
    F##_fp2_mul(x, lambda, hh);
    F##_fp2_difference(s, gg, hh); F##_fp2_mul(s, theta, s); F##_fp2_mul(u, y, ee); F##_fp2_difference(y, s, u);
    F##_fp2_mul(z, z, ee);
}

/* r = 2p (algorithm 9: 6 Fp2 products, 2 squares and 1 by 3b'); r may be p. */
static void F##_g2_double(uint64_t *r, const uint64_t *p) {
    const uint64_t *x = p, *y = p + 2 * N, *z = p + 4 * N;
    uint64_t t0[2 * N], t1[2 * N], t2[2 * N], x3[2 * N], y3[2 * N], z3[2 * N];
    F##_g2_fp2_square(t0, y);
    F##_fp2_sum(z3, t0, t0); F##_fp2_sum(z3, z3, z3); F##_fp2_sum(z3, z3, z3);
    F##_fp2_mul(t1, y, z); F##_g2_fp2_square(t2, z); F##_g2_times_b3(t2, t2);
    F##_fp2_mul(x3, t2, z3); F##_fp2_sum(y3, t0, t2); F##_fp2_mul(z3, t1, z3);
    F##_fp2_sum(t1, t2, t2); F##_fp2_sum(t2, t1, t2); F##_fp2_difference(t0, t0, t2);
    F##_fp2_mul(y3, t0, y3); F##_fp2_sum(y3, x3, y3);
    F##_fp2_mul(t1, x, y); F##_fp2_mul(x3, t0, t1); F##_fp2_sum(x3, x3, x3);
    for (int k = 0; k < 2 * N; k++) { r[k] = x3[k]; r[2 * N + k] = y3[k]; r[4 * N + k] = z3[k]; }
}"""

KERNEL_TABLE = r"""
/* The table's entries: every element by pointer (N limbs, an Fp2 as c0 then c1), one signature
 * for any limb count. Inlined into the callers, the loads and stores fold away. */
static inline __attribute__((always_inline)) void F##_montgomery_product_at(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    F##_store(r, F##_montgomery_product(F##_load(a), F##_load(b)));
}

static inline __attribute__((always_inline)) void F##_modular_sum_at(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    F##_store(r, F##_modular_sum(F##_load(a), F##_load(b)));
}

static inline __attribute__((always_inline)) void F##_modular_difference_at(uint64_t *r, const uint64_t *a, const uint64_t *b) {
    F##_store(r, F##_modular_difference(F##_load(a), F##_load(b)));
}

static const zk_field_kernels F##_kernels __attribute__((unused)) = { /* unused where Swift does not bind it */
    F##_montgomery_product_at, F##_modular_sum_at, F##_modular_difference_at, F##_fp2_product_at,
    F##_fp4_mul, F##_fp4_square, F##_fp12_mul, F##_fp12_square, F##_fp12_cyclotomic_square,
    F##_compressed_square, F##_fp12_mul_by_line, F##_fp12_mul_by_normalized_line, F##_g2_add, F##_g2_double,
    F##_g2_double_line, F##_g2_add_line, F##_sum_of_products_at, F##_difference_of_products_at,
    LINE_AT_K_SQUARED, LIVE_LINE_STEPS,
};"""

# The table's type: one for every curve (pointers only), so that one Swift file binds them all.
TABLE_TYPE = r"""/* The kernels of one curve's field, for the Swift bindings (Sources/ZKPinMath/Pairing/KernelField.swift):
 * a constant table per curve, zk_<curve>_kernels, so that one generic Swift file binds every curve.
 * Once the Swift code is specialised for a curve the table's loads fold to direct calls, which
 * the compiler inlines as before. line_b_at_k_squared: 1 when fp12_mul_by_line takes the M-type
 * line a + b k^2, 0 for the D-type a + b k. fp12_mul_by_normalized_line: the same for a line whose
 * y_P coefficient (a's c0 on D-type, c1 on M-type) is in Fp, as prepared lines divided by ly give.
 * g2_add and g2_double: the complete projective formulas on the twist (X, Y, Z, each an Fp2);
 * g2_double_line and g2_add_line: the Miller loop's doubling and addition steps on a live T,
 * the line (ly, lx, lc) out; live_line_steps: 1 when the bindings should take them (else the
 * Swift steps, which measured faster on this limb count). sum_of_products and
 * difference_of_products: a b + c d and a b - c d in Fp, reduced once. */
typedef struct {
    void (*_Nonnull montgomery_product)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull modular_sum)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull modular_difference)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull fp2_product)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull fp4_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull fp4_square)(uint64_t *r, const uint64_t *a);
    void (*_Nonnull fp12_mul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*_Nonnull fp12_square)(uint64_t *r, const uint64_t *a);
    void (*_Nonnull fp12_cyclotomic_square)(uint64_t *r, const uint64_t *a);
    void (*_Nonnull compressed_square)(uint64_t *x, int times);
    void (*_Nonnull fp12_mul_by_line)(uint64_t *r, const uint64_t *f, const uint64_t *line);
    void (*_Nonnull fp12_mul_by_normalized_line)(uint64_t *r, const uint64_t *f, const uint64_t *line);
    void (*_Nonnull g2_add)(uint64_t *r, const uint64_t *p, const uint64_t *q);
    void (*_Nonnull g2_double)(uint64_t *r, const uint64_t *p);
    void (*_Nonnull g2_double_line)(uint64_t *t, uint64_t *line);
    void (*_Nonnull g2_add_line)(uint64_t *t, const uint64_t *r, uint64_t *line);
    void (*_Nonnull sum_of_products)(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *d);
    void (*_Nonnull difference_of_products)(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *c, const uint64_t *d);
    int line_b_at_k_squared;
    int live_line_steps;
} zk_field_kernels;"""


def define(name, parameters, body):
    """A multi-line C macro: every line of body continued with a backslash."""
    lines = body.strip("\n").split("\n")
    width = max(len(line) for line in lines) + 1
    out = [f"#define {name}({parameters}) \\"]
    out += [line.ljust(width) + "\\" for line in lines[:-1]]
    out.append(lines[-1])
    return out


def macros():
    """The table type and the macros, written once in the header."""
    out = TABLE_TYPE.split("\n") + [""]
    out += define("ZK_FP2_PRODUCT_SUMS_OF_PRODUCTS", "F, N", FP2_PRODUCT_SUMS_OF_PRODUCTS) + [""]
    out += define("ZK_FP2_PRODUCT_KARATSUBA", "F, N", FP2_PRODUCT_KARATSUBA) + [""]
    out += define("ZK_TOWER", "F, N", TOWER + "\n\n" + flat.fp6_mul() + "\n\n" + flat.fp12_mul() + "\n\n" + TOWER_AFTER_FP6
                  + "\n\n" + flat.compressed_square() + "\n\n" + flat.fp4_square()
                  + "\n\n" + flat.cyclotomic_square()) + [""]
    for twist in ("D", "M"):
        out += define(f"ZK_LINE_PRODUCT_{twist}", "F, N", line_products(twist)) + [""]
    out += define("ZK_TWIST", "F, N, B3_MULTIPLE, B3_MINUS_I", TWIST) + [""]
    out += define("ZK_TWO_PRODUCTS", "F, N", TWO_PRODUCTS) + [""]
    out += define("ZK_KERNEL_TABLE", "F, N, LINE_AT_K_SQUARED, LIVE_LINE_STEPS", KERNEL_TABLE)
    return out


def instance(name, n, divisive, b3):
    """One curve's tower, line product, twist arithmetic and table (after its primitives); b3 is
    (m, minus) with 3b' = m·(1 - i) when minus, else m·(1 + i)."""
    F = f"zk_{name}"
    product = "SUMS_OF_PRODUCTS" if n <= SUMS_OF_PRODUCTS_LIMBS else "KARATSUBA"
    return [f"ZK_FP2_PRODUCT_{product}({F}, {n})",
            f"ZK_TOWER({F}, {n})",
            f"ZK_LINE_PRODUCT_{'D' if divisive else 'M'}({F}, {n})",
            f"ZK_TWIST({F}, {n}, {b3[0]}, {1 if b3[1] else 0})",
            f"ZK_TWO_PRODUCTS({F}, {n})",
            f"ZK_KERNEL_TABLE({F}, {n}, {0 if divisive else 1}, {1 if n >= LIVE_LINE_STEPS_LIMBS else 0})"]
