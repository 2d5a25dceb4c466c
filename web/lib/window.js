// The fixed schedule shared by every multiplication by a secret scalar: regular signed windows
// (every digit odd and non-zero, so each window adds exactly one table point: no skipped
// addition, no addition of infinity) and a table read that touches every entry.
//
// What JavaScript cannot promise: BigInt operations take time that depends on the size of their
// operands (and engines may take shortcuts for 0n or small values), garbage collection and the
// JIT add noise, and nothing here can be wiped from memory for certain. The schedule below is
// fixed (same operations, same count, same memory accesses for every scalar of the same bound),
// which removes the large, easily measured leaks (branches and table indices on secret bits);
// it does not make the code constant-time at the level of machine instructions.

/** Bits per window; the table holds the odd multiples 1·P, 3·P, ..., (2^w - 1)·P. */
export const WINDOW_BITS = 4;
export const TABLE_SIZE = 1 << (WINDOW_BITS - 1);
const DIGIT_MASK = BigInt((1 << (WINDOW_BITS + 1)) - 1);
const HALF_RANGE = 1 << WINDOW_BITS;
const SHIFT = BigInt(WINDOW_BITS);

/** How many digits `regularDigits` writes for odd scalars below 2^bits. */
export function digitCount(bits) {
    return Math.ceil((bits + 1) / WINDOW_BITS);
}

/** The digits d_0 .. d_{count-1} of an odd k >= 1 with k = Σ d_i·2^(w·i), each odd in
 *  [-(2^w - 1), 2^w - 1] and the top one positive (Joye–Tunstall regular recoding). */
export function regularDigits(k, count) {
    const digits = new Int32Array(count);
    for (let i = 0; i < count - 1; i++) {
        const digit = Number(k & DIGIT_MASK) - HALF_RANGE;
        digits[i] = digit;
        k = (k - BigInt(digit)) >> SHIFT;
    }
    digits[count - 1] = Number(k);
    // Holds for every k below the bound digitCount was given; a failure is a bug, not an input.
    if (!(k > 0n && k < BigInt(HALF_RANGE))) throw new Error("internal error: scalar wider than its window count");
    return digits;
}

/** The table index ((|d| - 1) / 2) and sign (1 when negative) of a digit, without branches. */
export function digitIndex(digit) {
    const sign = digit >> 31;
    return (((digit ^ sign) - sign) - 1) >> 1;
}
export function digitIsNegative(digit) {
    return digit >>> 31;
}

/** 0n or -1n (all ones): -1n exactly when a === b, for small non-negative integers. */
export function equalityMask(a, b) {
    return -BigInt(((a ^ b) - 1) >>> 31);
}

/** xs[index] and ys[index], reading every entry and combining with masks. The entries must be
 *  canonical (non-negative) BigInts. */
export function scanTable(xs, ys, index) {
    let x = 0n, y = 0n;
    for (let j = 0; j < xs.length; j++) {
        const mask = equalityMask(j, index);
        x |= xs[j] & mask;
        y |= ys[j] & mask;
    }
    return [x, y];
}

/** 1 - 2·bit as a BigInt: the factor that negates a y-coordinate when bit is 1. */
export function signFactor(bit) {
    return 1n - 2n * BigInt(bit);
}
