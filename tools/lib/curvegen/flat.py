"""Flat sums: tower kernels whose every output coefficient is one signed sum of double-width
products, lifted by one multiple of p^2, corrected below pR and reduced once.

A kernel is written here as Fp2, Fp4 and Fp12 formulas over symbolic double-width products;
each output coefficient comes out as a list of (sign, product component) terms. The generator
bounds each sum from its terms' intervals (in units of p^2), picks the offset k p^2 that makes
it positive and checks that it stays below R^2 (2N limbs) and 8pR. It writes the C: the products
first (so r may overlap the inputs), then per coefficient an accumulator of 2N limbs in
registers (zk_flat_add##N, zk_flat_subtract##N); a sum that may reach 2pR (the Fp12 product's)
loses 4pR and 2pR unless that borrows; then one conditional subtraction of pR and one Montgomery
reduction. The sums the tower wrote before went through memory as double-width modular sums,
each with its own correction."""
import math

# R/p for the fields the header instantiates (2^256/p for BN254CX, 2^384/p for BLS12-381), the
# smaller first: the macros are shared, so every bound is checked against the smallest.
SMALLEST_R_OVER_P = 7.11

# The largest offset k p^2 in the curves' tables (kernels.py: p_squared_times[k - 1]).
LARGEST_OFFSET = 24


class Sum:
    """A signed sum of product components: {component: coefficient}."""

    def __init__(self, terms=None):
        self.terms = dict(terms or {})

    def __add__(self, other):
        terms = dict(self.terms)
        for name, c in other.terms.items():
            terms[name] = terms.get(name, 0) + c
        return Sum({n: c for n, c in terms.items() if c})

    def __neg__(self):
        return Sum({n: -c for n, c in self.terms.items()})

    def __sub__(self, other):
        return self + (-other)


class Fp2:
    def __init__(self, re, im):
        self.re, self.im = re, im

    def __add__(self, o):
        return Fp2(self.re + o.re, self.im + o.im)

    def __sub__(self, o):
        return Fp2(self.re - o.re, self.im - o.im)

    def times_xi(self):
        """(re + im i)(1 + i) = (re - im) + (re + im) i."""
        return Fp2(self.re - self.im, self.re + self.im)


class Fp4:
    """c0 + c1 j, j^2 = xi."""

    def __init__(self, c0, c1):
        self.c0, self.c1 = c0, c1

    def __add__(self, o):
        return Fp4(self.c0 + o.c0, self.c1 + o.c1)

    def __sub__(self, o):
        return Fp4(self.c0 - o.c0, self.c1 - o.c1)

    def times_j(self):
        return Fp4(self.c1.times_xi(), self.c0)

    def coefficients(self):
        return [self.c0.re, self.c0.im, self.c1.re, self.c1.im]


class Kernel:
    """The products of one kernel and their bounds. Inputs are C expressions of reduced
    elements (below p); sums of inputs are reduced first (F##_fp2_sum) into temporaries."""

    def __init__(self):
        self.lines = []       # C statements computing the products
        self.buffers = []     # (name, limbs) declared at the top
        self.bounds = {}      # component -> (low, high) in units of p^2, open or half-open
        self.count = 0
        self.sums = {}        # (x, y) -> the temporary holding x + y

    def buffer(self, prefix, limbs):
        name = f"{prefix}{self.count}"
        self.count += 1
        self.buffers.append((name, limbs))
        return name

    def fp2_sum(self, x, y):
        """A reduced Fp2 sum of two inputs, as a C expression (taken once per pair of inputs)."""
        if (x, y) in self.sums:
            return self.sums[(x, y)]
        s = self.buffer("s", "2 * N")
        self.sums[(x, y)] = s
        self.lines.append(f"F##_fp2_sum({s}, {x}, {y});")
        return s

    def fp4_sum(self, x, y):
        """x + y for Fp4 x, y (pairs of Fp2 expressions), reduced coefficient-wise."""
        return (self.fp2_sum(x[0], y[0]), self.fp2_sum(x[1], y[1]))

    def product(self, x, y):
        """x·y for Fp2 x, y below p, double-width (F##_fp2_wide_product, Karatsuba): re in
        (-p^2, p^2) as two's complement, im in [0, 2p^2)."""
        w = self.buffer("w", "4 * N")
        self.lines.append(f"F##_fp2_wide_product({w}, {w} + 2 * N, {x}, {y});")
        self.bounds[w] = (-1, 1)
        self.bounds[f"{w} + 2 * N"] = (0, 2)
        return Fp2(Sum({w: 1}), Sum({f"{w} + 2 * N": 1}))

    def product_by_fp(self, x, y):
        """x·y for Fp2 x and y in Fp (both below p), double-width: each part in [0, p^2)."""
        w = self.buffer("w", "4 * N")
        self.lines.append(f"zk_wide_product##N({w}, {x}, {y}); zk_wide_product##N({w} + 2 * N, {x} + N, {y});")
        self.bounds[w] = (0, 1)
        self.bounds[f"{w} + 2 * N"] = (0, 1)
        return Fp2(Sum({w: 1}), Sum({f"{w} + 2 * N": 1}))

    def fp4_product(self, x, y, y0_in_fp=False, y1_in_fp=False):
        """Karatsuba over Fp2 (x, y: Fp4 as pairs of Fp2 expressions): X = x0 y0, Y = x1 y1,
        Z = (x0 + x1)(y0 + y1), x·y = (X + xi Y) + (Z - X - Y) j. y0_in_fp, y1_in_fp: that
        coefficient of y is in Fp (its c1 zero; two base-field products instead of three)."""
        big_x = self.product_by_fp(x[0], y[0]) if y0_in_fp else self.product(x[0], y[0])
        big_y = self.product_by_fp(x[1], y[1]) if y1_in_fp else self.product(x[1], y[1])
        big_z = self.product(self.fp2_sum(x[0], x[1]), self.fp2_sum(y[0], y[1]))
        return Fp4(big_x + big_y.times_xi(), big_z - big_x - big_y)

    def fp4_times_fp2(self, x, b):
        return Fp4(self.product(x[0], b), self.product(x[1], b))

    def square(self, x):
        """x^2 for Fp2 x below p, double-width (F##_fp2_wide_square): (x0 + x1)(x0 - x1) and
        (2 x0) x1, each in [0, 2p^2)."""
        w = self.buffer("w", "4 * N")
        self.lines.append(f"F##_fp2_wide_square({w}, {x});")
        self.bounds[w] = (0, 2)
        self.bounds[f"{w} + 2 * N"] = (0, 2)
        return Fp2(Sum({w: 1}), Sum({f"{w} + 2 * N": 1}))

    def fp4_square(self, x):
        """(x0 + x1 j)^2 = (U + xi V) + (W - U - V) j with U = x0^2, V = x1^2, W = (x0 + x1)^2."""
        u, v, w = self.square(x[0]), self.square(x[1]), self.square(self.fp2_sum(x[0], x[1]))
        return Fp4(u + v.times_xi(), w - u - v)

    def coefficient_sums(self, outputs, finish):
        """Per output coefficient: its flat sum into acc, then finish(i) (C statements)."""
        body = []
        for i, total in enumerate(outputs):
            low = sum(c * self.bounds[n][0 if c > 0 else 1] for n, c in total.terms.items())
            high = sum(c * self.bounds[n][1 if c > 0 else 0] for n, c in total.terms.items())
            offset = math.ceil(-low) if low < 0 else 0
            # The lifted sum must fit in 2N limbs (below R^2), and F##_flat_reduce brings a sum
            # below 2pR under pR; sums up to 8pR first lose 4pR and 2pR (F##_below_2pR).
            assert high + offset < SMALLEST_R_OVER_P ** 2, (i, low, high)
            assert high + offset < 8 * SMALLEST_R_OVER_P, (i, low, high)
            assert offset <= LARGEST_OFFSET, (i, low, high)
            signed = " ".join(("+ " if c > 0 else "- ") + n.replace(" + 2 * N", ".im") for n, c in total.terms.items())
            body.append(f"/* {signed}: in ({low:g}p^2, {high:g}p^2), plus {offset}p^2 */")
            assert all(abs(c) == 1 for c in total.terms.values()), (i, total.terms)
            if offset:
                body.append(f"for (int k = 0; k < 2 * N; k++) acc[k] = F##_p_squared_times[{offset - 1}][k];")
            else:
                body.append("for (int k = 0; k < 2 * N; k++) acc[k] = 0;")
            steps = [f"zk_flat_{'add' if c > 0 else 'subtract'}##N(acc, {n});" for n, c in sorted(
                total.terms.items(), key=lambda item: -item[1])]
            body.append(" ".join(steps))
            if high + offset >= 2 * SMALLEST_R_OVER_P:
                body.append("F##_below_2pR(acc);")
            body += finish(i)
        return body

    def declarations(self, extra=""):
        return "uint64_t " + ", ".join(f"{n}[{limbs}]" for n, limbs in self.buffers) + ", acc[2 * N]" + extra + ";"

    def text(self, name, parameters, outputs, comment):
        """The C function: outputs are the coefficient sums in r's order (N limbs each)."""
        body = self.coefficient_sums(outputs, lambda i: [f"F##_flat_reduce(r + {i} * N, acc);"])
        out = comment + [f"static __attribute__((noinline)) void F##_{name}({parameters}) {{",
                         f"    {self.declarations()}"]
        out += ["    " + line for line in self.lines + body]
        out.append("}")
        return "\n".join(out)


def granger_scott_sums(k, outputs, minus, r, g):
    """The C for outputs combined with g as the Granger-Scott and Karabina squares combine
    them: each output's sum reduced into t, then r_i = 3t - 2g_i (minus[i]) or 3t + 2g_i in
    registers (F##_granger_scott_coefficient). r may be g: each r_i reads only g_i."""
    # 3t + 2p - 2g < 5p must fit in the limbs (F##_granger_scott_coefficient)
    assert 5 < SMALLEST_R_OVER_P
    return k.coefficient_sums(outputs, lambda i: [
        "F##_flat_reduce(t, acc);",
        f"F##_granger_scott_coefficient({r} + {i} * N, t, {g} + {i} * N, {minus[i]});"])


def parts(values):
    """The Fp coefficients of Fp2 values, in memory order."""
    return [part for value in values for part in (value.re, value.im)]


def fp4_square():
    """The Fp4 square of the kernel table: (a0 + a1 j)^2 from three Fp2 squares."""
    k = Kernel()
    square = k.fp4_square(("a", "a + 2 * N"))
    return k.text("fp4_square", "uint64_t *r, const uint64_t *a", square.coefficients(), [
        "/* The Fp4 square of the kernel table (Fp4 elements, Fp2[j]/(j^2 - xi): c0 at x, c1 at x + 2 * N):",
        " * three Fp2 squares left double-width, each coefficient one flat sum (flat.py). r may be a. */"])


def cyclotomic_square():
    """Granger-Scott squaring in the cyclotomic subgroup, x = a + b k + c k^2 over Fp4:
    x^2 = (3a^2 - 2 conj(a)) + (3 j c^2 + 2 conj(b)) k + (3 b^2 - 2 conj(c)) k^2."""
    k = Kernel()
    a2 = k.fp4_square(("x", "x + 2 * N"))
    b2 = k.fp4_square(("x + 4 * N", "x + 6 * N"))
    c2 = k.fp4_square(("x + 8 * N", "x + 10 * N"))
    outputs = parts([a2.c0, a2.c1, c2.c1.times_xi(), c2.c0, b2.c0, b2.c1])
    minus = [1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0]  # conj(u + v j) = u - v j
    out = ["/* Granger-Scott squaring in the cyclotomic subgroup of Fp12 = Fp4[k]/(k^3 - j), x = a + b k + c k^2:",
           " * x^2 = (3a^2 - 2 conj(a)) + (3 j c^2 + 2 conj(b)) k + (3 b^2 - 2 conj(c)) k^2, conj(u + v j) = u - v j.",
           " * Three Fp4 squares (nine Fp2 squares left double-width), each coefficient a flat sum reduced once,",
           " * then 3c +- 2g in registers. r may be x (the squares are taken first, and each coefficient",
           " * of r reads only x's coefficient at its own place). */",
           "static __attribute__((noinline)) void F##_fp12_cyclotomic_square(uint64_t *r, const uint64_t *x) {",
           f"    {k.declarations(', t[N]')}"]
    out += ["    " + line for line in k.lines + granger_scott_sums(k, outputs, minus, "r", "x")]
    out.append("}")
    return "\n".join(out)


def compressed_square():
    """Karabina's compressed square, `times` times in place (CompressedCyclotomic.swift): with
    (c0 + c1 j) = (gi + gj j)^2, h2 = 3 xi c1(4,5) + 2 g2, h3 = 3 c0(4,5) - 2 g3,
    h4 = 3 c0(2,3) - 2 g4, h5 = 3 c1(2,3) + 2 g5. Each c coefficient is a flat sum of Fp2 squares'
    parts, reduced once, then combined with g in registers (F##_granger_scott_coefficient)."""
    k = Kernel()
    g2, g3, g4, g5 = "x", "x + 2 * N", "x + 4 * N", "x + 6 * N"
    c45 = k.fp4_square((g4, g5))
    c23 = k.fp4_square((g2, g3))
    outputs = parts([c45.c1.times_xi(), c45.c0, c23.c0, c23.c1])
    minus = [0, 0, 1, 1, 1, 1, 0, 0]
    body = granger_scott_sums(k, outputs, minus, "x", "x")
    out = ["/* Karabina's compressed squaring (CompressedCyclotomic.swift), `times` times in place on",
           " * (g2, g3, g4, g5) at x, x + 2 * N, x + 4 * N, x + 6 * N. With (c0 + c1 j) = (gi + gj j)^2, the",
           " * Fp4 square (c0 = gi^2 + xi gj^2, c1 = 2 gi gj): h2 = 3 xi c1(4,5) + 2 g2, h3 = 3 c0(4,5) - 2 g3,",
           " * h4 = 3 c0(2,3) - 2 g4, h5 = 3 c1(2,3) + 2 g5 (the Swift formulas' A(i,j) - (xi + 1) B(i,j) is",
           " * c0, and 2 B(i,j) is c1). Six Fp2 squares left double-width (two wide Fp products each), each",
           " * c coefficient a flat sum of their parts reduced once (flat.py), then 3c +- 2g in registers. */",
           "static void F##_compressed_square(uint64_t *x, int times) {",
           f"    {k.declarations(', t[N]')}",
           "    for (int round = 0; round < times; round++) {"]
    out += ["        " + line for line in k.lines + body]
    out += ["    }", "}"]
    return "\n".join(out)


def fp6_mul():
    """The Fp6 product of the Fp12 square (tower.py): Fp6 = Fp2[v]/(v^3 - xi), Karatsuba over
    Fp2, c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2), c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2,
    c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1."""
    k = Kernel()
    v0, v1, v2 = k.product("a0", "b0"), k.product("a1", "b1"), k.product("a2", "b2")
    t = k.product(k.fp2_sum("a1", "a2"), k.fp2_sum("b1", "b2"))
    u1 = k.product(k.fp2_sum("a0", "a1"), k.fp2_sum("b0", "b1"))
    u2 = k.product(k.fp2_sum("a0", "a2"), k.fp2_sum("b0", "b2"))
    c0 = v0 + (t - v1 - v2).times_xi()
    c1 = u1 - v0 - v1 + v2.times_xi()
    c2 = u2 - v0 - v2 + v1
    outputs = [c0.re, c0.im, c1.re, c1.im, c2.re, c2.im]
    return k.text("fp6_mul", "uint64_t *r, const uint64_t *a0, const uint64_t *a1, const uint64_t *a2, "
                  "const uint64_t *b0, const uint64_t *b1, const uint64_t *b2", outputs, [
                      "/* The Fp6 product, reduced (r: c0, c1, c2, 6N limbs; it may overlap the inputs), on Fp12 seen",
                      " * as Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), w = k, v = k^2 (the square below), coefficients",
                      " * given one by one (they lie scattered in the Fp4 tower's layout). Karatsuba over Fp2: six Fp2",
                      " * products left double-width, each Fp coefficient one flat sum of them (flat.py). */"])


def fp12_mul():
    """The Fp12 product over the Fp4 tower, Fp12 = Fp4[k]/(k^3 - j): Karatsuba over Fp4, with
    v_i = a_i b_i, c0 = v0 + ((a1 + a2)(b1 + b2) - v1 - v2) j, c1 = (a0 + a1)(b0 + b1) - v0 - v1 + v2 j,
    c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1; each Fp4 product Karatsuba over Fp2 (18 Fp2 products).
    The widest sums span 42p^2: they lose 4pR and 2pR before the usual correction."""
    k = Kernel()
    a = [("a", "a + 2 * N"), ("a + 4 * N", "a + 6 * N"), ("a + 8 * N", "a + 10 * N")]
    b = [("b", "b + 2 * N"), ("b + 4 * N", "b + 6 * N"), ("b + 8 * N", "b + 10 * N")]

    v0, v1, v2 = (k.fp4_product(a[i], b[i]) for i in range(3))
    t0 = k.fp4_product(k.fp4_sum(a[1], a[2]), k.fp4_sum(b[1], b[2]))
    t1 = k.fp4_product(k.fp4_sum(a[0], a[1]), k.fp4_sum(b[0], b[1]))
    t2 = k.fp4_product(k.fp4_sum(a[0], a[2]), k.fp4_sum(b[0], b[2]))
    c0 = v0 + (t0 - v1 - v2).times_j()
    c1 = t1 - v0 - v1 + v2.times_j()
    c2 = t2 - v0 - v2 + v1
    outputs = c0.coefficients() + c1.coefficients() + c2.coefficients()
    return k.text("fp12_mul", "uint64_t *r, const uint64_t *a, const uint64_t *b", outputs, [
        "/* Fp12 = Fp4[k]/(k^3 - j): c0 at x, c1 at x + 4 * N, c2 at x + 8 * N. Karatsuba over Fp4 and Fp2:",
        " * 18 Fp2 products left double-width, each of the 12 coefficients one flat sum of them (flat.py),",
        " * reduced once. r may overlap a or b (the products are all taken before r is written). */"])


def line_product(twist, normalized):
    """f times an evaluated line: D-type a + b k or M-type a + b k^2 (a in Fp4 at line, b in Fp2
    at line + 4N), f = f0 + f1 k + f2 k^2 over Fp4, k^3 = j. normalized: a's y_P coefficient
    (c0 on D, c1 on M) is in Fp. 13 Fp2 products (11 normalized-equivalent), 12 flat sums."""
    k = Kernel()
    f = [("f", "f + 2 * N"), ("f + 4 * N", "f + 6 * N"), ("f + 8 * N", "f + 10 * N")]
    a = ("line", "line + 2 * N")
    b = "line + 4 * N"
    y0, y1 = (normalized and twist == "D"), (normalized and twist == "M")

    if twist == "D":
        # c0 = f0 a + j f2 b, c1 = (f0 + f1)(a + b) - f0 a - f1 b, c2 = f1 b + f2 a
        f0a = k.fp4_product(f[0], a, y0, y1)
        f1b = k.fp4_times_fp2(f[1], b)
        f2b = k.fp4_times_fp2(f[2], b)
        g = k.fp4_product(k.fp4_sum(f[0], f[1]), (k.fp2_sum(a[0], b), a[1]))
        f2a = k.fp4_product(f[2], a, y0, y1)
        c0, c1, c2 = f0a + f2b.times_j(), g - f0a - f1b, f1b + f2a
    else:
        # c0 = f0 a + j f1 b, c1 = f1 a + j f2 b, c2 = (f0 + f2)(a + b) - f0 a - f2 b
        f0a = k.fp4_product(f[0], a, y0, y1)
        f1b = k.fp4_times_fp2(f[1], b)
        f2b = k.fp4_times_fp2(f[2], b)
        f1a = k.fp4_product(f[1], a, y0, y1)
        g = k.fp4_product(k.fp4_sum(f[0], f[2]), (k.fp2_sum(a[0], b), a[1]))
        c0, c1, c2 = f0a + f1b.times_j(), f1a + f2b.times_j(), g - f0a - f2b
    outputs = c0.coefficients() + c1.coefficients() + c2.coefficients()
    name = f"fp12_mul_by_{'normalized_' if normalized else ''}line"
    shape = "a + b k (D-type twist)" if twist == "D" else "a + b k^2 (M-type twist)"
    comment = [f"/* f times an evaluated line, {shape}, a in Fp4, b in Fp2 at line + 4 * N: 13 Fp2",
               " * products instead of 18, left double-width, each of the 12 coefficients one flat sum of",
               " * them reduced once (flat.py; w.im is w + 2 * N). r may be f (the products are all taken",
               " * before r is written). */"]
    if normalized:
        comment = ["/* The same for a line whose y_P coefficient is y_P itself, in Fp (prepared lines divided",
                   " * by ly): that coefficient's products are two base-field products instead of three. */"]
    return k.text(name, "uint64_t *r, const uint64_t *f, const uint64_t *line", outputs, comment)

