// The DVS vectors of ../shared/dvs-vectors (spec section 4.1, generated with Milagro crypto-js):
// every value a client computes (Pa, ID', HASH_ID(ID'), z·CS, the token, the message hash, U,
// y, V, and the server's y for the message it verifies), plus the authorities' CS = s·A and
// SS = s·Q, recomputed by web/mpin.js.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import * as mpin from "../mpin.js";
import { bytesToBigInt, bytesToHex, hexToBytes } from "../lib/bytes.js";
import { curveContext } from "../lib/curve-context.js";
import { sha256 } from "../lib/sha256.js";
import { sharedFolder } from "../test-support/vector-files.js";

const folder = sharedFolder("dvs-vectors");

/** The values of one DVS vector that differ from what web/mpin.js computes, as text lines. */
async function dvsProblems(vector, index) {
    const context = curveContext(vector.CURVE), curve = context.curve.name, { g1, g2 } = context;
    const problems = [];
    const compare = (key, computed) => {
        if (vector[key] === undefined) problems.push(`vector ${index}: no ${key}`);
        else if (vector[key].toLowerCase() !== computed) {
            problems.push(`vector ${index} (${vector.KIND}): ${key} differs: expected ${vector[key]}, computed ${computed}`);
        }
    };
    const master = bytesToBigInt(hexToBytes(vector.MASTER_SECRET, "MASTER_SECRET"));
    compare("SERVER_SECRET", g2.encode(g2.multiplyGenerator(master)));

    const { paHex } = await mpin.dvsKeyPair(curve, vector.Z);
    compare("PA", paHex);
    const idPa = vector.MPIN_ID_HEX + paHex;
    compare("ID_PA_HEX", idPa);
    compare("HASH_ID_PA", await mpin.hashID(curve, idPa));
    const a = g1.decode(await mpin.mapToG1(curve, idPa), "A");
    compare("CLIENT_SECRET", g1.encode(g1.multiplySecret(a, master), "CS"));
    const zClientSecret = await mpin.dvsClientSecret(curve, { zHex: vector.Z, clientSecretHex: vector.CLIENT_SECRET });
    compare("Z_CLIENT_SECRET", zClientSecret);
    const token = await mpin.extractPIN(curve, idPa, vector.PIN, zClientSecret);
    compare("TOKEN", token);
    compare("MESSAGE_HEX", bytesToHex(await sha256(new TextEncoder().encode(vector.DOCUMENT))));

    const signature = await mpin.dvsSign(curve, {
        idPaHex: idPa, tokenHex: token, pin: vector.SIGN_PIN, xHex: vector.X, time: vector.TIME, messageHex: vector.MESSAGE_HEX,
    });
    compare("U", signature.U);
    compare("Y", signature.Y);
    compare("V", signature.V);
    compare("SERVER_Y", await mpin.onePassY(curve, { time: vector.TIME, uHex: signature.U, messageHex: vector.VERIFY_MESSAGE_HEX }));
    return problems;
}

if (folder === null) {
    console.log("NOTE: ../shared/dvs-vectors is not there: the DVS vectors were NOT checked");
    test("DVS vectors (../shared/dvs-vectors)", { skip: "NOTE: ../shared/dvs-vectors is not there" }, () => {});
} else {
    const files = fs.readdirSync(folder).filter((name) => name.endsWith(".json")).sort();
    test("the DVS vector files are there", () => assert.ok(files.length >= 2, `found ${files.join(", ")}`));
    for (const name of files) {
        test(`../shared/dvs-vectors/${name}`, async () => {
            const vectors = JSON.parse(fs.readFileSync(path.join(folder, name), "utf8"));
            assert.ok(vectors.length > 0, "no vectors");
            const kinds = new Set(vectors.map((v) => v.KIND));
            for (const kind of ["good", "wrong_pin", "wrong_message", "wrong_pa"]) assert.ok(kinds.has(kind), `no ${kind} vector`);
            const problems = [];
            for (const [index, vector] of vectors.entries()) problems.push(...await dvsProblems(vector, index));
            assert.deepEqual(problems, []);
        });
    }
}
