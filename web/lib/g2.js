// G2 on the sextic twist over Fp2, only as far as the client needs it: the DVS public key
// Pa = (1/z)·Q (spec section 4.1) for a secret z, on the fixed schedule of window.js (no GLS:
// one multiplication per registration), and the encoding Xa ‖ Xb ‖ Ya ‖ Yb (section 2).

import { bigIntToHex } from "./bytes.js";
import { quadraticField } from "./field.js";
import { TABLE_SIZE, digitCount, digitIndex, digitIsNegative, equalityMask, regularDigits, signFactor } from "./window.js";

export function g2Group(curve, fp) {
    const f2 = quadraticField(fp);
    const { r } = curve;
    const generator = { x: [...curve.g2.generator.x], y: [...curve.g2.generator.y] };
    const scalarDigits = digitCount(r.toString(2).length);

    /** 2·P in Jacobian coordinates (dbl-2009-l, a = 0). */
    function double({ x, y, z }) {
        const xx = f2.sqr(x), yy = f2.sqr(y), yyyy = f2.sqr(yy);
        const d = f2.scale(f2.sub(f2.sub(f2.sqr(f2.add(x, yy)), xx), yyyy), 2n);
        const e = f2.scale(xx, 3n);
        const x3 = f2.sub(f2.sqr(e), f2.scale(d, 2n));
        return { x: x3, y: f2.sub(f2.mul(e, f2.sub(d, x3)), f2.scale(yyyy, 8n)), z: f2.scale(f2.mul(y, z), 2n) };
    }

    /** P + (x2, y2) affine (madd-2007-bl); P neither infinity nor ±(x2, y2). */
    function addAffine({ x, y, z }, x2, y2) {
        const zz = f2.sqr(z);
        const u2 = f2.mul(x2, zz), s2 = f2.mul(f2.mul(y2, z), zz);
        const h = f2.sub(u2, x), hh = f2.sqr(h);
        const i = f2.scale(hh, 4n), j = f2.mul(h, i);
        const rr = f2.scale(f2.sub(s2, y), 2n), v = f2.mul(x, i);
        const x3 = f2.sub(f2.sub(f2.sqr(rr), j), f2.scale(v, 2n));
        return {
            x: x3,
            y: f2.sub(f2.mul(rr, f2.sub(v, x3)), f2.scale(f2.mul(y, j), 2n)),
            z: f2.sub(f2.sub(f2.sqr(f2.add(z, h)), zz), hh),
        };
    }

    function toAffine({ x, y, z }) {
        if (f2.isZero(z)) return null;
        const zInverse = f2.invert(z), zz = f2.sqr(zInverse);
        return { x: f2.canonical(f2.mul(x, zz)), y: f2.canonical(f2.mul(f2.mul(y, zz), zInverse)) };
    }

    /** The odd multiples of the generator, affine (public values). */
    const table = (() => {
        const twice = toAffine(double({ x: generator.x, y: generator.y, z: [1n, 0n] }));
        const points = [generator];
        let acc = { x: generator.x, y: generator.y, z: [1n, 0n] };
        for (let j = 1; j < TABLE_SIZE; j++) {
            acc = addAffine(acc, twice.x, twice.y);
            points.push(toAffine(acc));
        }
        return points;
    })();

    /** The table entry for a digit, read by scanning every entry, negated for a negative digit. */
    function tableEntry(digit) {
        const index = digitIndex(digit);
        let x0 = 0n, x1 = 0n, y0 = 0n, y1 = 0n;
        for (let j = 0; j < table.length; j++) {
            const mask = equalityMask(j, index);
            x0 |= table[j].x[0] & mask; x1 |= table[j].x[1] & mask;
            y0 |= table[j].y[0] & mask; y1 |= table[j].y[1] & mask;
        }
        const sign = signFactor(digitIsNegative(digit));
        return [[x0, x1], [y0 * sign, y1 * sign]];
    }

    /** k·Q for a secret 1 <= k < r: an even k is replaced by r - k (odd) and the result negated,
     *  by arithmetic; then regular windows over the bit length of r. Affine result. */
    function multiplyGenerator(k) {
        const even = 1n - (k & 1n);
        const odd = k + (r - 2n * k) * even;
        const digits = regularDigits(odd, scalarDigits);
        const top = digits.length - 1;
        let [x, y] = tableEntry(digits[top]);
        let acc = { x, y, z: [1n, 0n] };
        for (let i = top - 1; i >= 0; i--) {
            acc = double(double(double(double(acc))));
            [x, y] = tableEntry(digits[i]);
            acc = addAffine(acc, x, y);
        }
        acc.y = f2.scale(acc.y, signFactor(Number(even)));
        return toAffine(acc);
    }

    /** Xa ‖ Xb ‖ Ya ‖ Yb in hex, no prefix byte. */
    function encode({ x, y }) {
        return [x[0], x[1], y[0], y[1]].map((c) => bigIntToHex(c, curve.fieldBytes)).join("");
    }

    return { multiplyGenerator, encode, generator };
}
