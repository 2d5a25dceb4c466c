// Reproducible randomness for tests: a seed from ZKPIN_TEST_SEED or a fresh one, printed in every
// failure message so that a failing run can be repeated exactly.

import { bytesToBigInt } from "../lib/bytes.js";

/** A generator of bytes and scalars from a 32-bit seed (mulberry32; not for secrets). */
export function seededRandom() {
    const seed = process.env.ZKPIN_TEST_SEED !== undefined
        ? Number(process.env.ZKPIN_TEST_SEED) >>> 0
        : Math.floor(Math.random() * 2 ** 32);
    let state = seed;
    function next32() {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return (t ^ (t >>> 14)) >>> 0;
    }
    function bytes(count) {
        const result = new Uint8Array(count);
        for (let i = 0; i < count; i++) result[i] = next32() & 0xff;
        return result;
    }
    return {
        seed,
        /** " (seed S: rerun with ZKPIN_TEST_SEED=S)", for assertion messages. */
        note: ` (seed ${seed}: rerun with ZKPIN_TEST_SEED=${seed})`,
        bytes,
        /** An integer in [0, 10000). */
        pin: () => next32() % 10000,
        /** A scalar in [1, n). */
        below: (n) => 1n + bytesToBigInt(bytes(Math.ceil(n.toString(16).length / 2) + 16)) % (n - 1n),
    };
}
