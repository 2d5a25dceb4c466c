// The DVS vectors of ../shared/dvs-vectors (spec section 4.1, generated with Milagro crypto-js):
// every value a client computes (Pa, ID', HASH_ID(ID'), z·CS, the token, the message hash, U,
// y, V, and the server's y for the message it verifies), plus the authorities' CS = s·A and
// SS = s·Q, recomputed by web/mpin.js.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { dvsProblems } from "../test-support/dvs-check.js";
import { sharedFolder } from "../test-support/vector-files.js";

const folder = sharedFolder("dvs-vectors");

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
            for (const [index, vector] of vectors.entries()) problems.push(...(await dvsProblems(vector, `vector ${index}`)).problems);
            assert.deepEqual(problems, []);
        });
    }
}
