// Checks of the API's non-point inputs, each failing with a message that names the value.

import { bigIntToHex, bytesToBigInt, hexToBytes } from "./bytes.js";
import { randomNonZeroBelow } from "./random.js";

/** A scalar in [1, r) from exactly PGS bytes of hex; `what` names it in errors. */
export function scalarInput(curve, hex, what) {
    const bytes = hexToBytes(hex, what);
    if (bytes.length !== curve.scalarBytes) {
        throw new Error(`${what} is not a valid scalar: expected ${curve.scalarBytes} bytes, got ${bytes.length}`);
    }
    const value = bytesToBigInt(bytes);
    if (value === 0n || value >= curve.r) throw new Error(`${what} is not a valid scalar: it must be in [1, r)`);
    return value;
}

/** The given scalar, or a fresh random one when `hex` is undefined or null. */
export function scalarOrRandom(curve, hex, what) {
    return hex === undefined || hex === null ? randomNonZeroBelow(curve.r) : scalarInput(curve, hex, what);
}

export function scalarToHex(curve, value) {
    return bigIntToHex(value, curve.scalarBytes);
}

/** A PIN: a string of exactly 4 digits, or an integer 0-9999 (888 is the PIN 0888). */
export function pinInput(pin) {
    if (typeof pin === "string" && /^[0-9]{4}$/.test(pin)) return Number(pin);
    if (typeof pin === "number" && Number.isInteger(pin) && pin >= 0 && pin <= 9999) return pin;
    throw new Error("a PIN is exactly 4 digits (0000-9999)");
}

/** A positive integer below 2^32: a day number (`date`) or Unix seconds (`time`). */
export function unsigned32Input(value, what, meaning) {
    if (!Number.isInteger(value) || value <= 0 || value > 0xffffffff) {
        throw new Error(`${what} must be ${meaning}: an integer from 1 to 4294967295, got ${String(value)}`);
    }
    return value;
}

/** Optional hex bytes (a message): empty when absent. */
export function optionalBytes(hex, what) {
    return hex === undefined || hex === null ? new Uint8Array(0) : hexToBytes(hex, what);
}
