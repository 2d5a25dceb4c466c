// The hashes of spec section 3 on bytes.

import { concatBytes } from "./bytes.js";
import { sha256 } from "./sha256.js";

/** hashit(n, x) = SHA-256([n as 4 bytes big-endian, only when n > 0] ‖ x), left-padded with
 *  zero bytes to `fieldBytes` (PFS). */
export async function hashit(n, bytes, fieldBytes) {
    const prefix = n > 0 ? new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]) : new Uint8Array(0);
    const digest = await sha256(concatBytes(prefix, bytes));
    return concatBytes(new Uint8Array(Math.max(0, fieldBytes - digest.length)), digest);
}
