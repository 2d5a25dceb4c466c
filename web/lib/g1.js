// The group G1 of one curve: y^2 = x^3 + b over Fp (a = 0), points in Jacobian coordinates
// (X, Y, Z) for (X/Z^2, Y/Z^3) with loose coordinates (field.js), affine points as {x, y} with
// canonical coordinates. Decoding validates fully (spec section 6); the map to G1 is Milagro's
// try-and-increment (spec section 3); secret scalars are multiplied with the GLV endomorphism on
// the fixed schedule of window.js.

import { bigIntToHex, bytesToBigInt, hexToBytes } from "./bytes.js";
import { primeField } from "./field.js";
import {
    TABLE_SIZE, digitCount, digitIndex, digitIsNegative, regularDigits, scanTable, signFactor,
} from "./window.js";

export const INFINITY = Object.freeze({ x: 1n, y: 1n, z: 0n });

export function g1Group(curve) {
    const fp = primeField(curve.p);
    const { p, r } = curve;
    const b = curve.g1.b;
    const { beta, a1, b1, a2, b2, halfBits } = curve.glv;
    const fieldBytes = curve.fieldBytes;
    const encodedBytes = 1 + 2 * fieldBytes;
    const glvDigits = digitCount(halfBits);
    const glvSignShift = BigInt(halfBits + 8);

    // --- Jacobian arithmetic -------------------------------------------------------------

    const isInfinity = (point) => fp.canonical(point.z) === 0n;
    const fromAffine = (point) => ({ x: point.x, y: point.y, z: 1n });
    const negate = (point) => ({ x: point.x, y: -point.y, z: point.z });

    /** 2·P (dbl-2009-l, a = 0: 2M + 5S). Infinity stays infinity. */
    function double(point) {
        const { x, y, z } = point;
        const xx = (x * x) % p, yy = (y * y) % p, yyyy = (yy * yy) % p;
        const t = x + yy;
        const d = 2n * ((t * t) % p - xx - yyyy);
        const e = 3n * xx;
        const x3 = ((e * e) - 2n * d) % p;
        return { x: x3, y: (e * (d - x3)) % p - 8n * yyyy, z: (2n * y * z) % p };
    }

    /** P + (x2, y2) for an affine point (madd-2007-bl: 7M + 4S). P must not be infinity, nor
     *  ±(x2, y2): the fixed schedules never meet those cases except with negligible probability. */
    function addAffine(point, x2, y2) {
        const { x, y, z } = point;
        const zz = (z * z) % p;
        const u2 = (x2 * zz) % p, s2 = (((y2 * z) % p) * zz) % p;
        const h = u2 - x, hh = (h * h) % p;
        const i = 4n * hh, j = (h * i) % p;
        const rr = 2n * (s2 - y), v = (x * i) % p;
        const x3 = (rr * rr - j - 2n * v) % p;
        const zh = z + h;
        return { x: x3, y: (rr * (v - x3) - 2n * ((y * j) % p)) % p, z: (zh * zh - zz - hh) % p };
    }

    /** P + Q, both Jacobian (add-2007-bl: 11M + 5S), with the same exclusions as addAffine. */
    function add(first, second) {
        const z1z1 = (first.z * first.z) % p, z2z2 = (second.z * second.z) % p;
        const u1 = (first.x * z2z2) % p, u2 = (second.x * z1z1) % p;
        const s1 = (((first.y * second.z) % p) * z2z2) % p, s2 = (((second.y * first.z) % p) * z1z1) % p;
        const h = u2 - u1, twoH = 2n * h, i = (twoH * twoH) % p, j = (h * i) % p;
        const rr = 2n * (s2 - s1), v = (u1 * i) % p;
        const x3 = (rr * rr - j - 2n * v) % p;
        const zSum = first.z + second.z;
        return {
            x: x3,
            y: (rr * (v - x3) - 2n * ((s1 * j) % p)) % p,
            z: (((zSum * zSum - z1z1 - z2z2) % p) * h) % p,
        };
    }

    /** P + Q for public points, every case handled (infinity, P = Q, P = -Q); variable time. */
    function addPublic(first, second) {
        if (isInfinity(first)) return second;
        if (isInfinity(second)) return first;
        const z1z1 = (first.z * first.z) % p, z2z2 = (second.z * second.z) % p;
        const h = (second.x * z1z1 - first.x * z2z2) % p;
        const rr = (second.y * first.z * z1z1 - first.y * second.z * z2z2) % p;
        if (h === 0n) return rr === 0n ? double(first) : INFINITY;
        return add(first, second);
    }

    /** P + (x2, y2) for public points, every case handled; variable time. */
    function addAffinePublic(point, x2, y2) {
        if (isInfinity(point)) return { x: x2, y: y2, z: 1n };
        const zz = (point.z * point.z) % p;
        const h = (x2 * zz - point.x) % p;
        const rr = (y2 * point.z * zz - point.y) % p;
        if (h === 0n) return rr === 0n ? double(point) : INFINITY;
        return addAffine(point, x2, y2);
    }

    /** (a if bit is 0n, b if bit is 1n), by arithmetic rather than a branch. */
    function choose(a, b, bit) {
        return { x: a.x + (b.x - a.x) * bit, y: a.y + (b.y - a.y) * bit, z: a.z + (b.z - a.z) * bit };
    }

    // --- Affine conversion ---------------------------------------------------------------

    /** {x, y} canonical, or null for infinity. The inversion is blinded (field.js). */
    function toAffine(point) {
        if (isInfinity(point)) return null;
        const zInverse = fp.invert(point.z), zz = (zInverse * zInverse) % p;
        return { x: fp.canonical(point.x * zz), y: fp.canonical(((point.y * zz) % p) * zInverse) };
    }

    /** Many points to affine with one inversion (Montgomery's trick); none may be infinity. */
    function batchToAffine(points) {
        const prefix = [];
        let product = 1n;
        for (const point of points) {
            prefix.push(product);
            product = (product * point.z) % p;
        }
        if (fp.canonical(product) === 0n) throw new Error("internal error: infinity in a table");
        let inverse = fp.invert(product);
        const result = new Array(points.length);
        for (let k = points.length - 1; k >= 0; k--) {
            const zInverse = (inverse * prefix[k]) % p;
            inverse = (inverse * points[k].z) % p;
            const zz = (zInverse * zInverse) % p;
            result[k] = { x: fp.canonical(points[k].x * zz), y: fp.canonical(((points[k].y * zz) % p) * zInverse) };
        }
        return result;
    }

    // --- Encoding and validation (spec sections 2 and 6) ---------------------------------

    function isOnCurve(x, y) {
        return (y * y - x * x * x - b) % p === 0n;
    }

    /** Membership of the prime-order subgroup for a point already on the curve. */
    function isInG1(point) {
        if (curve.g1.cofactor === 1n) return true; // #E(Fp) = r: every point of the curve is in G1
        if (curve.family === "bls12") {
            // Bowe, "Faster subgroup checks for BLS12-381" (2019): P is in G1 exactly when
            // φ(P) = -u^2·P, with φ(x, y) = (β·x, y) the endomorphism that is λ = -u^2 on G1.
            const magnitude = curve.u < 0n ? -curve.u : curve.u;
            const uuP = multiplyPublic(multiplyPublic(point, magnitude), magnitude);
            if (isInfinity(uuP)) return false;
            const zz = (uuP.z * uuP.z) % p;
            return (beta * point.x * zz - uuP.x) % p === 0n && (point.y * zz * uuP.z + uuP.y) % p === 0n;
        }
        return isInfinity(multiplyPublic(point, r));
    }

    /** The affine point of `0x04 ‖ x ‖ y`, fully validated; errors name the value (`what`). */
    function decode(hex, what) {
        const bytes = hexToBytes(hex, what);
        // The prefix first: a compressed point (0x02, 0x03) also has the wrong length, but its
        // prefix says better what is wrong.
        if (bytes.length > 0 && bytes[0] !== 0x04) {
            const compressed = bytes[0] === 0x02 || bytes[0] === 0x03 ? ": compressed points are not accepted" : "";
            const prefix = bytes[0].toString(16).padStart(2, "0");
            throw new Error(`${what} is not a valid point: wrong prefix byte 0x${prefix} (expected 0x04)${compressed}`);
        }
        if (bytes.length !== encodedBytes) {
            throw new Error(`${what} is not a valid point: wrong length: expected ${encodedBytes} bytes, got ${bytes.length}`);
        }
        const x = bytesToBigInt(bytes.subarray(1, 1 + fieldBytes));
        const y = bytesToBigInt(bytes.subarray(1 + fieldBytes));
        if (x >= p || y >= p) throw new Error(`${what} is not a valid point: a coordinate is not below the field modulus`);
        if (x === 0n && y === 0n) throw new Error(`${what} is not a valid point: the point at infinity is not allowed here`);
        if (!isOnCurve(x, y)) throw new Error(`${what} is not a valid point: the point is not on the curve`);
        const point = { x, y };
        if (!isInG1(point)) throw new Error(`${what} is not a valid point: the point is not in the prime-order subgroup`);
        return point;
    }

    /** `04 ‖ x ‖ y` in hex for a Jacobian or affine point; infinity is an error naming `what`. */
    function encode(point, what) {
        const affine = point.z === undefined ? point : toAffine(point);
        if (affine === null) throw new Error(`${what} is the point at infinity: it cannot be encoded`);
        return "04" + bigIntToHex(affine.x, fieldBytes) + bigIntToHex(affine.y, fieldBytes);
    }

    // --- Map to G1 (public input: variable time) -----------------------------------------

    /** Try-and-increment from a hash: the first x >= int(h) mod p with x^3 + b a non-zero
     *  square, the even square root; on the curve, before the cofactor. */
    function mapToCurve(hashBytes) {
        let x = bytesToBigInt(hashBytes) % p;
        for (;;) {
            const rhs = fp.canonical(x * x * x + b);
            if (rhs !== 0n) {
                const y = fp.sqrt(rhs);
                if (y !== null) return { x, y: (y & 1n) === 1n ? p - y : y };
            }
            x = (x + 1n) % p;
        }
    }

    /** mapit(h): mapToCurve, then multiplied by exactly the described cofactor. */
    function mapToG1(hashBytes) {
        const point = mapToCurve(hashBytes);
        if (curve.g1.cofactor === 1n) return point;
        const cleared = toAffine(multiplyPublic(point, curve.g1.cofactor));
        if (cleared === null) throw new Error("the hash maps to a point of small order: no point in G1");
        return cleared;
    }

    // --- Multiplication ------------------------------------------------------------------

    /** k·P for a public k >= 0 and an affine or Jacobian P (signed binary, NAF); variable time. */
    function multiplyPublic(point, k) {
        const affine = point.z === undefined;
        const base = affine ? fromAffine(point) : point;
        const minusBase = negate(base);
        // An affine base takes the cheaper mixed addition.
        const addBase = affine
            ? (sum, negative) => addAffinePublic(sum, point.x, negative ? -point.y : point.y)
            : (sum, negative) => addPublic(sum, negative ? minusBase : base);
        let result = INFINITY;
        const digits = [];
        for (let rest = k; rest > 0n; rest >>= 1n) {
            if ((rest & 1n) === 1n) {
                const digit = 2n - (rest & 3n); // +1 or -1: the NAF digit
                digits.push(Number(digit));
                rest -= digit;
            } else {
                digits.push(0);
            }
        }
        for (let i = digits.length - 1; i >= 0; i--) {
            result = isInfinity(result) ? result : double(result);
            if (digits[i] !== 0) result = addBase(result, digits[i] === -1);
        }
        return result;
    }

    /** The odd multiples 1·P, 3·P, ..., (2·TABLE_SIZE - 1)·P of an affine point, affine. */
    function oddMultiples(point) {
        const twice = toAffine(double(fromAffine(point)));
        const jacobian = [fromAffine(point)];
        for (let j = 1; j < TABLE_SIZE; j++) jacobian.push(addAffine(jacobian[j - 1], twice.x, twice.y));
        const affine = batchToAffine(jacobian);
        return { xs: affine.map((q) => q.x), ys: affine.map((q) => q.y) };
    }

    /** floor(n / d) for d > 0 (BigInt division truncates towards zero). */
    function floorDivide(n, d) {
        const q = n / d;
        return n < 0n && q * d !== n ? q - 1n : q;
    }

    /** (k1, k2) with k1 + k2·λ = k mod r and |k1|, |k2| < 2^(halfBits - 1) (Babai rounding on
     *  the short basis of the generated constants). */
    function decompose(k) {
        const c1 = floorDivide(2n * b2 * k + r, 2n * r);
        const c2 = floorDivide(-2n * b1 * k + r, 2n * r);
        return [k - c1 * a1 - c2 * a2, -c1 * b1 - c2 * b2];
    }

    /** A table entry for a signed digit, negated when the digit's sign differs from the
     *  sub-scalar's (`flip`): the table holds multiples of P, not of ±P. */
    function tableEntry(xs, ys, digit, flip) {
        const [x, y] = scanTable(xs, ys, digitIndex(digit));
        return [x, y * signFactor(digitIsNegative(digit) ^ flip)];
    }

    /** k·P (Jacobian) for a secret 0 <= k < r and P in G1 (affine): k = k1 + k2·λ, each
     *  sub-scalar made odd (|k_i| | 1, the added P subtracted at the end by a masked choice) and
     *  recoded in regular windows; one pass of doublings serves both (GLV). Fixed schedule. */
    function multiplySecret(point, k) {
        const [k1, k2] = decompose(k);
        const m1 = k1 >> glvSignShift, m2 = k2 >> glvSignShift; // 0n, or -1n when negative
        const magnitude1 = (k1 ^ m1) - m1, magnitude2 = (k2 ^ m2) - m2;
        const flip1 = Number(-m1), flip2 = Number(-m2);
        const even1 = 1n - (magnitude1 & 1n), even2 = 1n - (magnitude2 & 1n);
        const digits1 = regularDigits(magnitude1 | 1n, glvDigits);
        const digits2 = regularDigits(magnitude2 | 1n, glvDigits);
        const { xs, ys } = oddMultiples(point);
        const phiXs = xs.map((x) => fp.canonical(x * beta));

        const top = glvDigits - 1;
        let [x, y] = tableEntry(xs, ys, digits1[top], flip1);
        let acc = { x, y, z: 1n };
        [x, y] = tableEntry(phiXs, ys, digits2[top], flip2);
        acc = addAffine(acc, x, y);
        for (let i = top - 1; i >= 0; i--) {
            acc = double(double(double(double(acc))));
            [x, y] = tableEntry(xs, ys, digits1[i], flip1);
            acc = addAffine(acc, x, y);
            [x, y] = tableEntry(phiXs, ys, digits2[i], flip2);
            acc = addAffine(acc, x, y);
        }
        // Subtract (-1)^flip1·P when |k1| was even, (-1)^flip2·φ(P) when |k2| was.
        acc = choose(acc, addAffine(acc, point.x, -point.y * signFactor(flip1)), even1);
        acc = choose(acc, addAffine(acc, phiXs[0], -point.y * signFactor(flip2)), even2);
        return acc;
    }

    /** S + k·P for a secret 0 <= k < 2^bits (a PIN: bits = 14), S Jacobian, P affine: the same
     *  odd-digit schedule over `bits` only (the bound is public, the value is not). */
    function addSmallSecretMultiple(sum, point, k, bits) {
        const scalar = BigInt(k);
        const even = 1n - (scalar & 1n);
        const digits = regularDigits(scalar | 1n, digitCount(bits));
        const { xs, ys } = oddMultiples(point);
        const top = digits.length - 1;
        let [x, y] = tableEntry(xs, ys, digits[top], 0);
        let acc = { x, y, z: 1n };
        for (let i = top - 1; i >= 0; i--) {
            acc = double(double(double(double(acc))));
            [x, y] = tableEntry(xs, ys, digits[i], 0);
            acc = addAffine(acc, x, y);
        }
        // (k | 1)·P + S, then minus P when k was even. S = ±(k | 1)·P happens only for a
        // degenerate S (a token that is a tiny multiple of A), but costs little to handle.
        const total = addPublic(sum, acc);
        return choose(total, addAffine(total, point.x, -point.y), even);
    }

    return {
        curve, fp, encodedBytes,
        isInfinity, fromAffine, negate, double, add, addPublic, toAffine,
        isOnCurve, isInG1, decode, encode,
        mapToCurve, mapToG1, multiplyPublic, multiplySecret, addSmallSecretMultiple, decompose,
    };
}
