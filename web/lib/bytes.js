// Hex strings, byte arrays and big-endian integers: the only encodings the API speaks.

const HEX_DIGITS = /^(?:[0-9a-fA-F]{2})*$/;

/** The bytes of a hex string (either case, even length); `what` names the value in errors. */
export function hexToBytes(hex, what) {
    if (typeof hex !== "string") throw new TypeError(`${what} must be a hex string, got ${typeof hex}`);
    if (!HEX_DIGITS.test(hex)) {
        throw new Error(hex.length % 2 === 1
            ? `${what} is not hex: odd number of digits (${hex.length})`
            : `${what} is not hex: it contains a character other than 0-9, a-f`);
    }
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return bytes;
}

/** Lower-case hex of a byte array. */
export function bytesToHex(bytes) {
    let hex = "";
    for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
    return hex;
}

/** The non-negative integer whose big-endian bytes these are. */
export function bytesToBigInt(bytes) {
    return bytes.length === 0 ? 0n : BigInt("0x" + bytesToHex(bytes));
}

/** `value` (0 <= value < 2^(8·length)) as `length` big-endian bytes, in lower-case hex. */
export function bigIntToHex(value, length) {
    const hex = value.toString(16);
    if (value < 0n || hex.length > 2 * length) throw new RangeError(`${value} does not fit in ${length} bytes`);
    return hex.padStart(2 * length, "0");
}

/** `value` as `length` big-endian bytes. */
export function bigIntToBytes(value, length) {
    return hexToBytes(bigIntToHex(value, length), "value");
}

/** The concatenation of byte arrays. */
export function concatBytes(...parts) {
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
        joined.set(part, offset);
        offset += part.length;
    }
    return joined;
}
