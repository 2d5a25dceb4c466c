// Recomputes the client-side values of one DVS vector (spec section 4.1) with web/mpin.js: the
// shared Milagro files (../shared/dvs-vectors/*.json) and the project's Vectors/dvs_*.txt, whose
// values are strings and which add time permits (DATE, TIME_PERMIT, Z_TIME_PERMIT) and
// VERIFY_TIME. The verdict (SERVER_RESULT, PIN_ERROR) needs a pairing: the Swift checker's.
// web/mpin.js signs without time permits: with DATE > 0 the permit, z·TP and U are checked here,
// UT, Y, V and SERVER_Y by the Swift checker only.

import * as mpin from "../mpin.js";
import { bytesToBigInt, bytesToHex, hexToBytes } from "../lib/bytes.js";
import { curveContext } from "../lib/curve-context.js";
import { hashit } from "../lib/hash.js";
import { sha256 } from "../lib/sha256.js";

/** Whether a vector (its fields) is a DVS one: only DVS vectors carry PA or VERIFY_PA. */
export function isDVS(fields) {
    return fields.PA !== undefined || fields.VERIFY_PA !== undefined;
}

/** {checked, problems}: the keys recomputed, and the values that differ, as text lines. */
export async function dvsProblems(vector, label) {
    const context = curveContext(vector.CURVE), curve = context.curve.name, { g1, g2 } = context;
    const problems = [], checked = [];
    const compare = (key, computed) => {
        checked.push(key);
        if (vector[key] === undefined) problems.push(`${label}: no ${key}`);
        else if (String(vector[key]).toLowerCase() !== computed) {
            problems.push(`${label} (${vector.KIND}): ${key} differs: expected ${vector[key]}, computed ${computed}`);
        }
    };
    const number = (key) => (vector[key] === undefined || vector[key] === null ? undefined : Number(vector[key]));
    const master = bytesToBigInt(hexToBytes(vector.MASTER_SECRET, "MASTER_SECRET"));
    compare("SERVER_SECRET", g2.encode(g2.multiplyGenerator(master)));

    const { paHex } = await mpin.dvsKeyPair(curve, vector.Z);
    compare("PA", paHex);
    const idPa = vector.MPIN_ID_HEX + paHex;
    compare("ID_PA_HEX", idPa);
    const hashedID = await mpin.hashID(curve, idPa);
    compare("HASH_ID_PA", hashedID);
    const a = g1.decode(await mpin.mapToG1(curve, idPa), "A");
    compare("CLIENT_SECRET", g1.encode(g1.multiplySecret(a, master), "CS"));
    const zClientSecret = await mpin.dvsClientSecret(curve, { zHex: vector.Z, clientSecretHex: vector.CLIENT_SECRET });
    compare("Z_CLIENT_SECRET", zClientSecret);
    const pin = number("PIN"), signPIN = number("SIGN_PIN"), time = number("TIME");
    const token = await mpin.extractPIN(curve, idPa, pin, zClientSecret);
    compare("TOKEN", token);
    compare("MESSAGE_HEX", bytesToHex(await sha256(new TextEncoder().encode(vector.DOCUMENT))));

    const date = number("DATE") ?? 0;
    if (date > 0) {
        const at = g1.mapToG1(await hashit(date, hexToBytes(hashedID, "HASH_ID_PA"), context.curve.fieldBytes));
        const permit = g1.encode(g1.multiplySecret(at, master), "TP");
        compare("TIME_PERMIT", permit);
        compare("Z_TIME_PERMIT", await mpin.dvsClientSecret(curve, { zHex: vector.Z, clientSecretHex: permit }));
        const x = bytesToBigInt(hexToBytes(vector.X, "X"));
        compare("U", g1.encode(g1.multiplySecret(a, x), "U"));
        return { checked, problems };
    }
    const signature = await mpin.dvsSign(curve, {
        idPaHex: idPa, tokenHex: token, pin: signPIN, xHex: vector.X, time, messageHex: vector.MESSAGE_HEX,
    });
    compare("U", signature.U);
    compare("Y", signature.Y);
    compare("V", signature.V);
    const verifyTime = number("VERIFY_TIME") ?? time;
    const verifyMessage = vector.VERIFY_MESSAGE_HEX ?? vector.MESSAGE_HEX;
    compare("SERVER_Y", await mpin.onePassY(curve, { time: verifyTime, uHex: signature.U, messageHex: verifyMessage }));
    return { checked, problems };
}
