// Randomness from the platform's CSPRNG (crypto.getRandomValues: browsers and node >= 19).

import { bytesToBigInt } from "./bytes.js";

function platformCrypto() {
    const crypto = globalThis.crypto;
    if (!crypto || typeof crypto.getRandomValues !== "function") {
        throw new Error("no crypto.getRandomValues here: mpin.js needs a browser or node 20 or later");
    }
    return crypto;
}

/** `count` random bytes. */
export function randomBytes(count) {
    const bytes = new Uint8Array(count);
    // getRandomValues fills at most 65536 bytes per call; our requests are far smaller.
    platformCrypto().getRandomValues(bytes);
    return bytes;
}

/** A uniform integer in [1, n): 128 more random bits than n has, reduced (bias below 2^-128). */
export function randomNonZeroBelow(n) {
    const byteCount = Math.ceil(n.toString(16).length / 2) + 16;
    const wide = bytesToBigInt(randomBytes(byteCount));
    return 1n + (wide % (n - 1n));
}
