// Recomputes the client-side values of one M-Pin vector with web/mpin.js (and, for the trusted
// authorities' G1 shares, the module's own G1 multiplication) and compares them, the way
// Sources/ZKPinVectors/VectorChecker.swift does for every value. Server-side values (G2 shares,
// pairings, PIN error, key agreement) are the Swift checker's: they need a pairing.

import * as mpin from "../mpin.js";
import { bigIntToHex, bytesToBigInt, hexToBytes } from "../lib/bytes.js";
import { curveContext } from "../lib/curve-context.js";
import { CURVES } from "../lib/curves.generated.js";
import { hashit } from "../lib/hash.js";

/** The BLS381 files' names for the same fields (spec section 5). */
const ALIASES = { SS: "SERVER_SECRET", CS: "CLIENT_SECRET", MPINId: "MPIN_ID_HEX", AuthResult: "SERVER_OUTPUT", SERVER_2: "SERVER_OUTPUT" };

/** The values a client computes: every one present in a vector must be recomputed and equal. */
export const CLIENT_KEYS = [
    "HASH_MPIN_ID_HEX", "HID", "HTID", "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT",
    "TOKEN", "U", "UT", "SEC", "Y", "V", "Z",
];

/** The vector's fields under their canonical names. */
export function canonicalFields(fields) {
    const result = {};
    for (const [key, value] of Object.entries(fields)) result[ALIASES[key] ?? key] = value;
    return result;
}

/** The curve's name: CURVE when present, else the one whose encoded G1 size U or a share has. */
export function vectorCurve(fields) {
    if (fields.CURVE) return curveContext(fields.CURVE).curve.name;
    for (const key of ["U", "CLIENT_SECRET", "CS1", "TOKEN"]) {
        if (fields[key]) {
            const curve = Object.values(CURVES).find((c) => fields[key].length === 2 * (1 + 2 * c.fieldBytes));
            if (curve) return curve.name;
        }
    }
    throw new Error("cannot tell the curve (no CURVE key and no G1 field of a known size)");
}

/** k·P (hex) for a scalar given in hex: the trusted authorities' shares, Milagro's R·A. */
function multiplyG1(context, pointHex, scalarHex) {
    const { g1 } = context;
    const scalar = bytesToBigInt(hexToBytes(scalarHex, "scalar")) % context.curve.r;
    return g1.encode(g1.multiplySecret(g1.decode(pointHex, "point"), scalar), "product");
}

/** The time-permit point AT for a day (hex). */
async function timePermitPoint(context, hashedIDHex, day) {
    const hashed = await hashit(day, hexToBytes(hashedIDHex, "hash"), context.curve.fieldBytes);
    return context.g1.encode(context.g1.mapToG1(hashed), "AT");
}

/** {checked: [keys], mismatches: [{key, expected, computed}], unchecked: [client keys present
 *  but not recomputed]} for one vector (fields already canonical). */
export async function checkClientValues(fields) {
    const curve = vectorCurve(fields);
    const context = curveContext(curve);
    const checked = [], mismatches = [];
    const compare = (key, computed) => {
        if (fields[key] === undefined || computed === undefined || computed === null) return;
        checked.push(key);
        if (fields[key].toLowerCase() !== computed) mismatches.push({ key, expected: fields[key], computed });
    };
    const integer = (key) => (fields[key] === undefined ? undefined : Number(fields[key]));

    const id = fields.MPIN_ID_HEX;
    if (id === undefined) throw new Error("no MPIN_ID_HEX or MPINId");
    const serverDate = integer("DATE") ?? 0;
    const permitDate = integer("PERMIT_DATE") ?? serverDate;
    const onePass = fields.TimeValue !== undefined;

    const hashed = await mpin.hashID(curve, id);
    compare("HASH_MPIN_ID_HEX", hashed);
    const a = await mpin.mapToG1(curve, id);
    compare("HID", a);

    // Shares from the master secrets (the trusted authorities' G1 side), else as given.
    const cs1 = fields.MS1 ? multiplyG1(context, a, fields.MS1) : fields.CS1;
    const cs2 = fields.MS2 ? multiplyG1(context, a, fields.MS2) : fields.CS2;
    if (fields.MS1) compare("CS1", cs1);
    if (fields.MS2) compare("CS2", cs2);
    let clientSecret = fields.CLIENT_SECRET;
    if (cs1 && cs2) {
        clientSecret = await mpin.addG1(curve, cs1, cs2);
        compare("CLIENT_SECRET", clientSecret);
    }

    let timePermit;
    if (permitDate > 0) {
        const at = await timePermitPoint(context, hashed, permitDate);
        const tp1 = fields.MS1 ? multiplyG1(context, at, fields.MS1) : fields.TP1;
        const tp2 = fields.MS2 ? multiplyG1(context, at, fields.MS2) : fields.TP2;
        if (fields.MS1) compare("TP1", tp1);
        if (fields.MS2) compare("TP2", tp2);
        timePermit = tp1 && tp2 ? await mpin.addG1(curve, tp1, tp2) : fields.TIME_PERMIT;
        compare("TIME_PERMIT", timePermit);
    }
    if (serverDate > 0) compare("HTID", await mpin.addG1(curve, a, await timePermitPoint(context, hashed, serverDate)));

    let token = fields.TOKEN;
    if (clientSecret && fields.PIN1 !== undefined) {
        token = await mpin.extractPIN(curve, id, integer("PIN1"), clientSecret);
        compare("TOKEN", token);
    }

    let pass1 = null;
    if (fields.X && token && fields.PIN2 !== undefined) {
        pass1 = await mpin.clientPass1(curve, {
            idHex: id, tokenHex: token, pin: integer("PIN2"), xHex: fields.X,
            date: permitDate > 0 ? permitDate : undefined, timePermitHex: permitDate > 0 ? timePermit : undefined,
        });
        compare("U", pass1.U);
        compare("UT", pass1.UT);
        if (!onePass) compare("SEC", pass1.SEC);
    }
    let y = fields.Y;
    if (onePass) {
        const u = serverDate > 0 ? pass1?.UT ?? fields.UT : pass1?.U ?? fields.U;
        y = await mpin.onePassY(curve, { time: integer("TimeValue"), uHex: u });
        compare("Y", y);
    }
    if (pass1 && y) compare(onePass ? "SEC" : "V", await mpin.clientPass2(curve, { xHex: fields.X, yHex: y, secHex: pass1.SEC }));
    if (fields.R && fields.Z) compare("Z", multiplyG1(context, a, fields.R));

    // Y is the server's challenge except in one-pass; shares are inputs without master secrets.
    const inputs = new Set(onePass ? [] : ["Y"]);
    if (!fields.MS1) ["CS1", "TP1"].forEach((key) => inputs.add(key));
    if (!fields.MS2) ["CS2", "TP2"].forEach((key) => inputs.add(key));
    const clientKeys = CLIENT_KEYS.filter((key) => !inputs.has(key));
    const unchecked = clientKeys.filter((key) => fields[key] !== undefined && !checked.includes(key));
    return { checked, mismatches, unchecked };
}

/** One line per problem of a vector, empty when it passed. */
export function problems(name, result) {
    return [
        ...result.mismatches.map((m) => `${name}: ${m.key} differs: expected ${m.expected}, computed ${m.computed}`),
        ...result.unchecked.map((key) => `${name}: ${key} was not recomputed`),
    ];
}

export { bigIntToHex };
