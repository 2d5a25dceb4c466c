// Arithmetic modulo a prime p on BigInt values, and the quadratic extension Fp2 = Fp[i]/(i^2 + 1).
//
// Values are kept "loose": any BigInt congruent to the element, negative allowed; every product
// is reduced with `%` (so it lies in (-p, p)), sums and differences are not. Only `canonical`
// brings a value into [0, p), for comparison and encoding. This saves the comparisons and
// branches a fully reduced representation would need after every addition.

import { randomNonZeroBelow } from "./random.js";

/** The field of integers modulo an odd prime p (Fp, or the scalars mod r). */
export function primeField(p) {
    const sqrtExponent = (p + 1n) / 4n;

    /** The representative in [0, p). */
    function canonical(a) {
        const reduced = a % p;
        return reduced < 0n ? reduced + p : reduced;
    }

    /** a^e for a public exponent e >= 0 (fixed window of 4 bits). */
    function pow(a, e) {
        const table = [1n, canonical(a)];
        for (let j = 2; j < 16; j++) table.push((table[j - 1] * table[1]) % p);
        let result = 1n;
        const digits = e.toString(16);
        for (const digit of digits) {
            result = (result * result) % p;
            result = (result * result) % p;
            result = (result * result) % p;
            result = (result * result) % p;
            const index = parseInt(digit, 16);
            if (index !== 0) result = (result * table[index]) % p;
        }
        return canonical(result);
    }

    /** 1/a by the extended Euclidean algorithm (variable time in its input). */
    function invertPublic(a) {
        let [r0, r1] = [p, canonical(a)];
        if (r1 === 0n) throw new RangeError("cannot invert zero");
        let [t0, t1] = [0n, 1n];
        while (r1 !== 0n) {
            const q = r0 / r1;
            [r0, r1] = [r1, r0 - q * r1];
            [t0, t1] = [t1, t0 - q * t1];
        }
        return canonical(t0);
    }

    /** 1/a for a value that may depend on a secret: Euclid runs on a·ρ for a fresh random ρ,
     *  so its running time says nothing about a; then 1/a = ρ/(a·ρ). */
    function invert(a) {
        const blind = randomNonZeroBelow(p);
        return canonical(invertPublic((a * blind) % p) * blind);
    }

    /** A square root of a (the one a^((p+1)/4) gives), or null when a is not a square. */
    function sqrt(a) {
        if (p % 4n !== 3n) throw new Error("internal error: this square root needs p = 3 mod 4");
        const root = pow(a, sqrtExponent);
        return (root * root - a) % p === 0n ? root : null;
    }

    return { p, canonical, pow, invert, invertPublic, sqrt };
}

/** Fp2 = Fp[i]/(i^2 + 1) over `fp`; elements are [c0, c1] = c0 + c1·i, loose like Fp's. */
export function quadraticField(fp) {
    const p = fp.p;
    return {
        add: (a, b) => [a[0] + b[0], a[1] + b[1]],
        sub: (a, b) => [a[0] - b[0], a[1] - b[1]],
        neg: (a) => [-a[0], -a[1]],
        /** a·k for a small integer k (a BigInt). */
        scale: (a, k) => [a[0] * k, a[1] * k],
        mul(a, b) {
            // Karatsuba: three products instead of four.
            const v0 = (a[0] * b[0]) % p, v1 = (a[1] * b[1]) % p;
            return [v0 - v1, ((a[0] + a[1]) * (b[0] + b[1]) - v0 - v1) % p];
        },
        sqr(a) {
            // (a0 + a1 i)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 i
            return [((a[0] + a[1]) * (a[0] - a[1])) % p, (2n * a[0] * a[1]) % p];
        },
        invert(a) {
            const norm = fp.invert(a[0] * a[0] + a[1] * a[1]);
            return [(a[0] * norm) % p, (-a[1] * norm) % p];
        },
        canonical: (a) => [fp.canonical(a[0]), fp.canonical(a[1])],
        isZero: (a) => fp.canonical(a[0]) === 0n && fp.canonical(a[1]) === 0n,
    };
}
