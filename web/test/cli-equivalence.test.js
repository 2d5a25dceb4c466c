// test-support/cli-equivalence.js answers each JSON line with what web/mpin.js returns, in order,
// and reports errors per line without stopping.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import * as mpin from "../mpin.js";

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test-support", "cli-equivalence.js");
const ID = "6361726f6c406578616d706c652e6e6574";

test("the equivalence CLI answers line by line as the module does", async () => {
    const curve = "bls12-381";
    const token = await mpin.mapToG1(curve, "00");
    const pass1 = await mpin.clientPass1(curve, { idHex: ID, tokenHex: token, pin: "0042" });
    const requests = [
        { id: 1, op: "hashID", curve, args: { idHex: ID } },
        { id: 2, op: "clientPass1", curve, args: { idHex: ID, tokenHex: token, pin: "0042", xHex: pass1.xHex } },
        { id: 3, op: "clientPass2", curve, args: { xHex: pass1.xHex, yHex: pass1.xHex, secHex: pass1.SEC } },
        { id: 4, op: "extractPIN", curve, args: { idHex: ID, pin: "12x4", clientSecretHex: token } },
        { id: 5, op: "dvsKeyPair", curve: "bn254cx", args: { zHex: "00".repeat(31) + "05" } },
    ];
    const input = requests.map((r) => JSON.stringify(r)).join("\n") + "\nnot json\n";
    const run = spawnSync(process.execPath, [SCRIPT], { input, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const answers = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(answers, [
        { id: 1, ok: true, result: await mpin.hashID(curve, ID) },
        { id: 2, ok: true, result: pass1 },
        { id: 3, ok: true, result: await mpin.clientPass2(curve, { xHex: pass1.xHex, yHex: pass1.xHex, secHex: pass1.SEC }) },
        { id: 4, ok: false, error: "a PIN is exactly 4 digits (0000-9999)" },
        { id: 5, ok: true, result: await mpin.dvsKeyPair("bn254cx", "00".repeat(31) + "05") },
        { id: null, ok: false, error: answers[5].error },
    ]);
    assert.match(answers[5].error, /^not a JSON line/);
});
