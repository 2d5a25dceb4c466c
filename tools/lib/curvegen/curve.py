"""One curve description (curves/<name>.json), parsed, checked, and the values derived from it."""
import json
import os
from fractions import Fraction

from curvegen import flat


class DescriptionError(Exception):
    pass


def integer(text, where):
    """A JSON value as an integer: "0x..." or "-0x..." hexadecimal, otherwise decimal."""
    if isinstance(text, int):
        return text
    try:
        negative = text.startswith("-")
        digits = text[1:] if negative else text
        value = int(digits, 16) if digits.lower().startswith("0x") else int(digits, 10)
        return -value if negative else value
    except (AttributeError, ValueError):
        raise DescriptionError(f"{where}: not an integer: {text!r}")


class Fp2:
    """c0 + c1·i with i^2 = -1, for the checks only."""

    def __init__(self, p, c0, c1=0):
        self.p, self.c0, self.c1 = p, c0 % p, c1 % p

    def __add__(self, o): return Fp2(self.p, self.c0 + o.c0, self.c1 + o.c1)
    def __sub__(self, o): return Fp2(self.p, self.c0 - o.c0, self.c1 - o.c1)
    def __mul__(self, o): return Fp2(self.p, self.c0 * o.c0 - self.c1 * o.c1, self.c0 * o.c1 + self.c1 * o.c0)
    def __eq__(self, o): return (self.c0, self.c1) == (o.c0, o.c1)
    def __hash__(self): return hash((self.c0, self.c1))

    def inverse(self):
        norm = pow(self.c0 * self.c0 + self.c1 * self.c1, -1, self.p)
        return Fp2(self.p, self.c0 * norm, -self.c1 * norm)

    def power(self, e):
        result, base = Fp2(self.p, 1), self
        while e:
            if e & 1:
                result = result * base
            base, e = base * base, e >> 1
        return result

    @property
    def conjugate(self): return Fp2(self.p, self.c0, -self.c1)


class Fp(Fp2):
    """An Fp2 with c1 = 0, so one set of point formulas serves G1 and G2."""

    def __init__(self, p, c0):
        super().__init__(p, c0, 0)


def multiple(k, point, zero):
    """k·(x, y) in affine coordinates (None is the point at infinity); checks only, variable time."""
    def add(a, b):
        if a is None: return b
        if b is None: return a
        (x1, y1), (x2, y2) = a, b
        if x1 == x2:
            if y1 != y2 or y1 == zero: return None
            slope = (x1 * x1 + x1 * x1 + x1 * x1) * (y1 + y1).inverse()
        else:
            slope = (y2 - y1) * (x2 - x1).inverse()
        x3 = slope * slope - x1 - x2
        return (x3, slope * (x1 - x3) - y1)
    result = None
    for bit in bin(k)[2:]:
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


class Curve:
    def __init__(self, path):
        where = os.path.basename(path)
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError) as error:
            raise DescriptionError(f"{where}: {error}")
        try:
            self.name = d["name"]
            self.title = d["title"]
            self.family = d["family"]
            self.twist = d["twist"]
            self.u = integer(d["u"], f"{where}: u")
            self.p = integer(d["p"], f"{where}: p")
            self.r = integer(d["r"], f"{where}: r")
            self.fp2_non_residue = integer(d["fp2_non_residue"], f"{where}: fp2_non_residue")
            self.xi = tuple(integer(v, f"{where}: fp4_non_residue") for v in d["fp4_non_residue"])
            self.scalar_bytes = d["scalar_bytes"]
            self.aliases = [a.lower() for a in d.get("aliases", [])]
            # Vector files without a CURVE key (Milagro's) are this curve's when their sizes match.
            self.unlabelled_vectors = d.get("unlabelled_vectors", False) is True
            self.b = integer(d["g1"]["b"], f"{where}: g1.b")
            self.cofactor = integer(d["g1"]["cofactor"], f"{where}: g1.cofactor")
            self.g1 = tuple(integer(d["g1"]["generator"][k], f"{where}: g1.generator.{k}") % self.p for k in "xy")
            self.g2 = tuple(tuple(integer(v, f"{where}: g2.generator.{k}") % self.p for v in d["g2"]["generator"][k])
                            for k in "xy")
        except (KeyError, TypeError) as error:
            raise DescriptionError(f"{where}: missing or malformed field {error}")
        self.c_name = self.name.replace("-", "_")
        self.swift_name = self.c_name.upper()
        self.limb_count = (self.p.bit_length() + 63) // 64
        self.byte_count = (self.p.bit_length() + 7) // 8
        self.check(where)

    def check(self, where):
        def require(condition, message):
            if not condition:
                raise DescriptionError(f"{where}: {message}")
        p, r, u = self.p, self.r, self.u
        # First, as the reason a curve like BLS12-377 (non-residue -5) is out of reach: the tower
        # kernels are written for Fp2 = Fp[i]/(i^2 + 1) and Fp4 = Fp2[j]/(j^2 - (1 + i)).
        require(self.fp2_non_residue == -1, f"fp2_non_residue {self.fp2_non_residue}: the kernels and the tower are "
                "written for i^2 = -1 (Fp2 = Fp[i]/(i^2 + 1)); this curve needs kernels of its own")
        require(self.family in ("bn", "bls12"), f"family {self.family!r} is not bn or bls12")
        require(self.twist in ("D", "M"), f"twist {self.twist!r} is not D or M")
        if self.family == "bn":
            require(p == 36 * u**4 + 36 * u**3 + 24 * u**2 + 6 * u + 1, "p is not 36u^4 + 36u^3 + 24u^2 + 6u + 1")
            require(r == 36 * u**4 + 36 * u**3 + 18 * u**2 + 6 * u + 1, "r is not 36u^4 + 36u^3 + 18u^2 + 6u + 1")
        else:
            require(r == u**4 - u**2 + 1, "r is not u^4 - u^2 + 1")
            require(p == (u - 1)**2 * r // 3 + u and (u - 1)**2 % 3 == 0, "p is not (u - 1)^2 r / 3 + u")
        require(u < 0 and -u < 2**64, "the kernels and the Miller schedule expect a negative u of one word")
        require(p % 4 == 3, "the kernels need i^2 = -1 (p = 3 mod 4)")
        require(self.xi == (1, 1), "the kernels need the Fp4 non-residue 1 + i")
        n = self.limb_count
        require(self.modulus_limbs[-1] < 2**63 - 1, "the no-carry Montgomery product needs a top limb below 2^63 - 1")
        require(6 * p < 2**(64 * n), "the lazily reduced Fp4 product needs 6p < 2^(64n)")
        require(2**(64 * n) >= flat.SMALLEST_R_OVER_P * p,
                f"the flat sums of the Fp12 kernels (tools/lib/curvegen/flat.py) need 2^(64n)/p >= {flat.SMALLEST_R_OVER_P}")
        require(r.bit_length() % 64 != 0, "SecretScalar's sums need r below 2^(64k - 1) for its k limbs")
        # On the curves: y^2 = x^3 + b on G1, y^2 = x^3 + b' on the twist, each of order r.
        x, y = (Fp(p, v) for v in self.g1)
        require(y * y == x * x * x + Fp(p, self.b), "the G1 generator is not on y^2 = x^3 + b")
        require(multiple(r, (x, y), Fp(p, 0)) is None, "the G1 generator's order is not r")
        x2, y2 = (Fp2(p, *v) for v in self.g2)
        require(y2 * y2 == x2 * x2 * x2 + self.g2_b, "the G2 generator is not on the twist")
        require(multiple(r, (x2, y2), Fp2(p, 0)) is None, "the G2 generator's order is not r")
        require((self.glv_lambda**2 + self.glv_lambda + 1) % r == 0, "the GLV λ is not a cube root of unity mod r")
        require(0 < 3 * self.b < 2**16, "3b of G1 is not a small positive integer (G1.timesB3)")
        require(self.g2_b3_shape is not None, "3b' of the twist is not m·(1 ± i) for a small m (G2.timesB3)")
        require(len(self.psi_coefficients) == 1, "no single ψ(x, y) = (c·x^p, d·y^p) acts as p on the G2 generator")
        basis = self.frobenius_basis
        require(all(sum(b * self.frobenius_lambda**i for i, b in enumerate(row)) % r == 0 for row in basis),
                "a row of the Frobenius basis is not in the lattice")
        require(abs(determinant(basis)) == r, "the Frobenius basis does not span the lattice")

    @property
    def modulus_limbs(self):
        return [(self.p >> (64 * j)) & (2**64 - 1) for j in range(self.limb_count)]

    @property
    def negative_inverse(self):
        return -pow(self.p, -1, 2**64) % 2**64

    @property
    def order_limbs(self):
        return [(self.r >> (64 * j)) & (2**64 - 1) for j in range((self.r.bit_length() + 63) // 64)]

    def limbs(self, value):
        return [(value >> (64 * j)) & (2**64 - 1) for j in range(self.limb_count)]

    @property
    def montgomery_one(self):
        return 2**(64 * self.limb_count) % self.p

    @property
    def r_squared(self):
        return 2**(128 * self.limb_count) % self.p

    @property
    def g2_b(self):
        """b' of the twist y^2 = x^3 + b': b/ξ (D-type) or b·ξ (M-type)."""
        xi = Fp2(self.p, *self.xi)
        b = Fp2(self.p, self.b)
        return b * xi.inverse() if self.twist == "D" else b * xi

    @property
    def ate_loop_count(self):
        """|6u + 2| (BN) or |u| (BLS12)."""
        return abs(6 * self.u + 2) if self.family == "bn" else abs(self.u)

    @property
    def glv_lambda(self):
        """The cube root of unity mod r that φ(x, y) = (β·x, y) multiplies G1 by."""
        u = self.u
        if self.family == "bn":
            return (36 * u**3 + 18 * u**2 + 6 * u + 1) % self.r
        return -(u * u) % self.r


    @property
    def g2_b3_shape(self):
        """(m, minus) with 3b' = m·(1 - i) when minus, m·(1 + i) otherwise, m below 2^16; None if not."""
        b = self.g2_b
        m, c1 = 3 * b.c0 % self.p, 3 * b.c1 % self.p
        if m == 0 or m >= 2**16:
            return None
        if c1 == m:
            return (m, False)
        if c1 == (-m) % self.p:
            return (m, True)
        return None

    @property
    def frobenius_lambda(self):
        """p mod r: x -> x^p on GT and ψ on G2 multiply by it."""
        return self.p % self.r

    @property
    def psi_coefficients(self):
        """The (c, d) with ψ(x, y) = (c·x̄, d·ȳ) equal to (p mod r)·(x, y) on the G2 generator (one pair
        expected, among ξ^(±(p-1)/3) and ξ^(±(p-1)/2))."""
        if not hasattr(self, "_psi"):
            p = self.p
            xi = Fp2(p, *self.xi)
            cs = [xi.power((p - 1) // 3), xi.power((p - 1) // 3).inverse()]
            ds = [xi.power((p - 1) // 2), xi.power((p - 1) // 2).inverse()]
            (x0, x1), (y0, y1) = self.g2
            x, y = Fp2(p, x0, x1), Fp2(p, y0, y1)
            target = multiple(self.frobenius_lambda, (x, y), Fp2(p, 0))
            self._psi = [(c, d) for c in cs for d in ds if (c * x.conjugate, d * y.conjugate) == target]
        return self._psi

    @property
    def frobenius_basis(self):
        """A short basis (LLL) of the lattice {(a0, ..., a3): a0 + a1·λ + a2·λ^2 + a3·λ^3 = 0 mod r},
        λ = p mod r: the 4-dimensional decomposition of G2 and GT exponents."""
        r, lam = self.r, self.frobenius_lambda
        return lll([[r, 0, 0, 0], [-lam % r, 1, 0, 0], [-lam**2 % r, 0, 1, 0], [-lam**3 % r, 0, 0, 1]])


def determinant(m):
    if len(m) == 1:
        return m[0][0]
    return sum((-1)**j * m[0][j] * determinant([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(len(m)))


def lll(basis, delta=Fraction(3, 4)):
    """Lenstra–Lenstra–Lovász on integer rows (exact rationals; small dimensions only), rows then
    sorted by length and made to start with a non-negative entry, so the output is deterministic."""
    b = [list(row) for row in basis]
    n = len(b)

    def dot(x, y): return sum(Fraction(p) * q for p, q in zip(x, y))

    def gram_schmidt():
        star, mu = [], [[Fraction(0)] * n for _ in range(n)]
        for i in range(n):
            v = [Fraction(x) for x in b[i]]
            for j in range(i):
                mu[i][j] = dot(b[i], star[j]) / dot(star[j], star[j])
                v = [a - mu[i][j] * c for a, c in zip(v, star[j])]
            star.append(v)
        return star, mu
    star, mu = gram_schmidt()
    k = 1
    while k < n:
        for j in range(k - 1, -1, -1):
            q = round(mu[k][j])
            if q:
                b[k] = [a - q * c for a, c in zip(b[k], b[j])]
                star, mu = gram_schmidt()
        if dot(star[k], star[k]) >= (delta - mu[k][k - 1]**2) * dot(star[k - 1], star[k - 1]):
            k += 1
        else:
            b[k], b[k - 1] = b[k - 1], b[k]
            star, mu = gram_schmidt()
            k = max(k - 1, 1)
    b = [[-x for x in row] if next(x for x in row if x) < 0 else row for row in b]
    return sorted(b, key=lambda row: (sum(x * x for x in row), row))


def load(path):
    return Curve(path)
