// ZKPin's M-Pin client in the browser and in node: the client side of
// ../shared/spec/mpin-crypto.md (hashing to G1, PIN extraction, passes 1 and 2, the one-pass
// challenge, DVS key pairs, client secrets and signatures) on BN254CX and BLS12-381, in plain
// JavaScript (BigInt, crypto.getRandomValues, crypto.subtle.digest). No pairing: the client
// needs none. API and caveats: docs/web-crypto.md.
//
// Every value is a lower-case hex string (input hex may be either case); curve is "bn254cx" or
// "bls12-381" (or an alias from curves/*.json); every function returns a Promise, since the
// browser's SHA-256 is asynchronous. xHex / zHex may be omitted: a fresh random scalar is used
// and returned. Bad input (malformed hex, wrong length, a point off the curve or outside G1, a
// PIN that is not 4 digits) throws an Error whose message names the value.
//
// Timing: secret scalars (x, z, x + y, the PIN) are multiplied on a fixed schedule (regular
// windows, every table entry read); JavaScript's BigInt is not constant-time, so this removes
// the coarse leaks, not all of them. See lib/window.js and docs/web-crypto.md.

import { bytesToBigInt, bytesToHex, concatBytes, hexToBytes } from "./lib/bytes.js";
import { curveContext, CURVE_NAMES } from "./lib/curve-context.js";
import { hashit } from "./lib/hash.js";
import { optionalBytes, pinInput, scalarInput, scalarOrRandom, scalarToHex, unsigned32Input } from "./lib/inputs.js";

export { CURVE_NAMES };

/** PINs are below 10000 < 2^14: their multiplications run over 14 bits. */
const PIN_BITS = 14;

/** HASH_ID(ID) and A = mapit(HASH_ID(ID)) for the identity's bytes. */
async function identityPoint(context, idBytes) {
    const hashedID = await hashit(0, idBytes, context.curve.fieldBytes);
    return { hashedID, a: context.g1.mapToG1(hashedID) };
}

/** HASH_ID(ID): SHA-256 of the identity's bytes, left-padded to the field's size. */
export async function hashID(curve, idHex) {
    const context = curveContext(curve);
    return bytesToHex(await hashit(0, hexToBytes(idHex, "idHex"), context.curve.fieldBytes));
}

/** A = mapit(HASH_ID(ID)), the identity's point in G1. */
export async function mapToG1(curve, idHex) {
    const context = curveContext(curve);
    const { a } = await identityPoint(context, hexToBytes(idHex, "idHex"));
    return context.g1.encode(a, "mapToG1");
}

/** The sum of two G1 points (shares of a client secret or time permit). */
export async function addG1(curve, aHex, bHex) {
    const { g1 } = curveContext(curve);
    const a = g1.decode(aHex, "aHex"), b = g1.decode(bHex, "bHex");
    return g1.encode(g1.addPublic(g1.fromAffine(a), g1.fromAffine(b)), "the sum");
}

/** TOKEN = CS - PIN·A: what the client stores instead of its secret. */
export async function extractPIN(curve, idHex, pin, clientSecretHex) {
    const context = curveContext(curve), { g1 } = context;
    const pinValue = pinInput(pin);
    const clientSecret = g1.decode(clientSecretHex, "clientSecretHex");
    const { a } = await identityPoint(context, hexToBytes(idHex, "idHex"));
    const minusA = { x: a.x, y: g1.fp.canonical(-a.y) };
    return g1.encode(g1.addSmallSecretMultiple(g1.fromAffine(clientSecret), minusA, pinValue, PIN_BITS), "the token");
}

/** Pass 1: U = x·A, with a date UT = x·(A + AT), and SEC = TOKEN + PIN·A (+ TP), which pass 2
 *  needs. `date` (days since the epoch) and `timePermitHex` go together; without them UT is
 *  null. Keep xHex and SEC only until pass 2: with y and V they give the client secret. */
export async function clientPass1(curve, { idHex, tokenHex, pin, xHex, date, timePermitHex } = {}) {
    const context = curveContext(curve), { g1 } = context;
    const pinValue = pinInput(pin);
    const token = g1.decode(tokenHex, "tokenHex");
    const hasDate = date !== undefined && date !== null && date !== 0;
    const hasPermit = timePermitHex !== undefined && timePermitHex !== null;
    if (hasDate !== hasPermit) throw new Error("date and timePermitHex go together: give both or neither");
    const day = hasDate ? unsigned32Input(date, "date", "a day number (days since 1970-01-01)") : 0;
    const permit = hasPermit ? g1.decode(timePermitHex, "timePermitHex") : null;
    const x = scalarOrRandom(context.curve, xHex, "xHex");
    const { hashedID, a } = await identityPoint(context, hexToBytes(idHex, "idHex"));

    let sum = g1.fromAffine(token);
    let ut = null;
    if (hasDate) {
        sum = g1.addPublic(sum, g1.fromAffine(permit));
        const at = g1.mapToG1(await hashit(day, hashedID, context.curve.fieldBytes));
        const aPlusAT = g1.toAffine(g1.addPublic(g1.fromAffine(a), g1.fromAffine(at)));
        if (aPlusAT === null) throw new Error("A + AT is the point at infinity");
        ut = g1.encode(g1.multiplySecret(aPlusAT, x), "UT");
    }
    const sec = g1.addSmallSecretMultiple(sum, a, pinValue, PIN_BITS);
    return {
        xHex: scalarToHex(context.curve, x),
        U: g1.encode(g1.multiplySecret(a, x), "U"),
        UT: ut,
        SEC: g1.encode(sec, "SEC"),
    };
}

/** Pass 2: V = -((x + y) mod r)·SEC for the server's challenge y. */
export async function clientPass2(curve, { xHex, yHex, secHex } = {}) {
    const context = curveContext(curve), { g1 } = context;
    const x = scalarInput(context.curve, xHex, "xHex");
    const y = scalarInput(context.curve, yHex, "yHex");
    const sec = g1.decode(secHex, "secHex");
    return g1.encode(g1.negate(g1.multiplySecret(sec, (x + y) % context.curve.r)), "V");
}

/** The one-pass challenge y = int(hashit(time, U ‖ message)) mod r (pass UT as uHex when a
 *  time permit is used); time in Unix seconds, message optional. */
export async function onePassY(curve, { time, uHex, messageHex } = {}) {
    const context = curveContext(curve);
    const seconds = unsigned32Input(time, "time", "Unix seconds");
    context.g1.decode(uHex, "uHex");
    const message = optionalBytes(messageHex, "messageHex");
    const digest = await hashit(seconds, concatBytes(hexToBytes(uHex, "uHex"), message), context.curve.fieldBytes);
    return scalarToHex(context.curve, bytesToBigInt(digest) % context.curve.r);
}

/** A DVS key pair: the device key z and Pa = (1/z mod r)·Q (G2, Xa ‖ Xb ‖ Ya ‖ Yb). The
 *  identity becomes ID ‖ Pa, and the client secret z·CS (spec section 4.1). */
export async function dvsKeyPair(curve, zHex) {
    const context = curveContext(curve);
    const z = scalarOrRandom(context.curve, zHex, "zHex");
    const zInverse = context.scalarField.invert(z);
    const g2 = context.g2;
    return { zHex: scalarToHex(context.curve, z), paHex: g2.encode(g2.multiplyGenerator(zInverse)) };
}

/** The DVS client secret z·CS from the recombined client secret of ID' = ID ‖ Pa and the
 *  device key z; the token is then extractPIN(curve, idPaHex, pin, this). */
export async function dvsClientSecret(curve, { zHex, clientSecretHex } = {}) {
    const context = curveContext(curve), { g1 } = context;
    const z = scalarInput(context.curve, zHex, "zHex");
    const clientSecret = g1.decode(clientSecretHex, "clientSecretHex");
    return g1.encode(g1.multiplySecret(clientSecret, z), "z·CS");
}

/** A DVS signature on a message (spec section 4.1): U = x·A, y = one-pass hash of (time, U ‖
 *  message), V = -((x + y) mod r)·(TOKEN + PIN·A), with A the point of ID' = ID ‖ Pa. */
export async function dvsSign(curve, { idPaHex, tokenHex, pin, xHex, time, messageHex } = {}) {
    const context = curveContext(curve), { g1 } = context;
    const pinValue = pinInput(pin);
    const token = g1.decode(tokenHex, "tokenHex");
    const seconds = unsigned32Input(time, "time", "Unix seconds");
    if (typeof messageHex !== "string") throw new TypeError("messageHex must be a hex string (the bytes signed)");
    const message = hexToBytes(messageHex, "messageHex");
    const x = scalarOrRandom(context.curve, xHex, "xHex");
    const { a } = await identityPoint(context, hexToBytes(idPaHex, "idPaHex"));

    const u = g1.encode(g1.multiplySecret(a, x), "U");
    const digest = await hashit(seconds, concatBytes(hexToBytes(u, "U"), message), context.curve.fieldBytes);
    const y = bytesToBigInt(digest) % context.curve.r;
    const sec = g1.addSmallSecretMultiple(g1.fromAffine(token), a, pinValue, PIN_BITS);
    const secAffine = g1.toAffine(sec);
    if (secAffine === null) throw new Error("TOKEN + PIN·A is the point at infinity: not a token for this identity");
    const v = g1.encode(g1.negate(g1.multiplySecret(secAffine, (x + y) % context.curve.r)), "V");
    return { U: u, Y: scalarToHex(context.curve, y), V: v };
}
