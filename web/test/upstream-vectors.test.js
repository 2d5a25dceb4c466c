// Every client-side value of the upstream vector files in ../shared/vectors (Milagro's BN254_CX,
// BLS381 and one-pass files, and the BN254CX cross-check file), recomputed by web/mpin.js. The
// files are read where they are, never copied into the repository.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { canonicalFields, checkClientValues, problems } from "../test-support/vector-check.js";
import { readVectorFile, sharedFolder } from "../test-support/vector-files.js";

const shared = sharedFolder("vectors");
const CROSS_CHECK = "BN254CX_full_and_pinerror_crosscheck.txt";

/** Every .txt and .json file under a folder, relative paths, sorted. */
function vectorFiles(folder) {
    return fs.readdirSync(folder, { recursive: true })
        .filter((name) => /\.(txt|json)$/.test(name))
        .sort();
}

async function checkAll(vectors) {
    const failures = [];
    let computed = 0;
    for (const vector of vectors) {
        const result = await checkClientValues(canonicalFields(vector.fields));
        computed += result.checked.length;
        failures.push(...problems(vector.name, result));
    }
    return { failures, computed };
}

/** The cross-check file's blocks completed from the BN254_CX.txt vector each names (spec
 *  section 5: ID, MS1, MS2, PIN1, PIN2, X, Y and TOKEN from there, DATE from the header). */
function crossCheckVectors(folder) {
    const source = readVectorFile(path.join(folder, "milagro", "BN254_CX.txt"));
    return readVectorFile(path.join(folder, CROSS_CHECK)).map((block) => {
        const match = /source vector index (\d+) of BN254_CX\.txt.*DATE used = (\d+)/.exec(block.header ?? "");
        if (!match) throw new Error(`${CROSS_CHECK}: a block without its source and DATE: ${block.header}`);
        const from = source[Number(match[1])].fields;
        const fields = { DATE: match[2] };
        for (const key of ["MPIN_ID_HEX", "MS1", "MS2", "PIN1", "PIN2", "X", "Y", "TOKEN"]) fields[key] = from[key];
        return { name: block.header, fields: { ...fields, ...block.fields } };
    });
}

if (shared === null) {
    console.log("NOTE: ../shared/vectors is not there: the upstream vectors were NOT checked");
    test("upstream vectors (../shared/vectors)", { skip: "NOTE: ../shared/vectors is not there" }, () => {});
} else {
    for (const name of vectorFiles(shared)) {
        test(`../shared/vectors/${name}`, async () => {
            const vectors = name === CROSS_CHECK ? crossCheckVectors(shared) : readVectorFile(path.join(shared, name));
            const { failures, computed } = await checkAll(vectors);
            assert.deepEqual(failures, []);
            assert.ok(computed >= vectors.length, `only ${computed} values recomputed in ${vectors.length} vectors`);
        });
    }
}
