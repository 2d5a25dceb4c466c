// Every client-side value of the project's own vector files (Vectors/*.txt), and every decoding
// rejection they describe, recomputed by web/mpin.js. DVS files (Vectors/dvs_*.txt, their
// vectors carry PA) are checked as ../shared/dvs-vectors is (test-support/dvs-check.js).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { decodingCase } from "../test-support/decoding-case.js";
import { dvsProblems, isDVS } from "../test-support/dvs-check.js";
import { canonicalFields, checkClientValues, problems, vectorCurve } from "../test-support/vector-check.js";
import { REPOSITORY, readVectorFile } from "../test-support/vector-files.js";
import { curveContext } from "../lib/curve-context.js";

const folder = path.join(REPOSITORY, "Vectors");
const files = fs.readdirSync(folder).filter((name) => name.endsWith(".txt")).sort();

test("the project's vector files are there", () => {
    assert.ok(files.length >= 8, `expected the project's vector files in ${folder}, found ${files.length}`);
});

for (const name of files) {
    test(`Vectors/${name}`, async () => {
        const failures = [];
        let computed = 0, rejections = 0;
        for (const vector of readVectorFile(path.join(folder, name))) {
            const fields = canonicalFields(vector.fields);
            if (isDVS(fields)) {
                // A -14 here is the server's refusal of VERIFY_PA; the signer's values are valid.
                const result = await dvsProblems(fields, vector.name);
                computed += result.checked.length;
                failures.push(...result.problems);
                continue;
            }
            if (fields.EXPECT === "-14") {
                const expected = decodingCase(vector.header);
                if (expected === null) continue; // a G2 value: decoded by the server, not the client
                const { g1 } = curveContext(vectorCurve(fields));
                assert.throws(() => g1.decode(fields[expected.field], expected.field), expected.message, `${vector.name}`);
                rejections++;
                continue;
            }
            const result = await checkClientValues(fields);
            computed += result.checked.length;
            failures.push(...problems(vector.name, result));
        }
        assert.deepEqual(failures, []);
        assert.ok(computed > 0, "no value of the file was recomputed");
        if (name.includes("negative")) assert.ok(rejections > 0, "no decoding rejection was checked");
    });
}
