#!/usr/bin/env node
// Runs web/mpin.js on requests read from stdin, one JSON object per line, and writes one JSON
// answer per line to stdout, in order: for a test in another language (the Swift client) that
// gives both implementations the same inputs (same x, y, z) and compares the bytes.
//
//   request:  {"id": 7, "op": "clientPass1", "curve": "bn254cx",
//              "args": {"idHex": "...", "tokenHex": "...", "pin": 1234, "xHex": "...",
//                       "date": 20000, "timePermitHex": "..."}}
//   answer:   {"id": 7, "ok": true, "result": {"xHex": "...", "U": "...", "UT": "...", "SEC": "..."}}
//             {"id": 7, "ok": false, "error": "tokenHex is not a valid point: ..."}
//
// "op" is an export of web/mpin.js; "args" holds its arguments by name: hashID and mapToG1
// {idHex}, addG1 {aHex, bHex}, extractPIN {idHex, pin, clientSecretHex}, dvsKeyPair {zHex};
// the others take "args" as their one object. "id" is echoed (any JSON value, optional).
// It lives outside web/test/ because `node --test web/test/` runs every file there.

import readline from "node:readline";
import * as mpin from "../mpin.js";

const POSITIONAL = {
    hashID: (curve, a) => mpin.hashID(curve, a.idHex),
    mapToG1: (curve, a) => mpin.mapToG1(curve, a.idHex),
    addG1: (curve, a) => mpin.addG1(curve, a.aHex, a.bHex),
    extractPIN: (curve, a) => mpin.extractPIN(curve, a.idHex, a.pin, a.clientSecretHex),
    dvsKeyPair: (curve, a) => mpin.dvsKeyPair(curve, a.zHex),
};
const BY_OBJECT = ["clientPass1", "clientPass2", "onePassY", "dvsClientSecret", "dvsSign"];

async function answer(line) {
    let request;
    try {
        request = JSON.parse(line);
    } catch (error) {
        return { id: null, ok: false, error: `not a JSON line: ${error.message}` };
    }
    const id = request?.id ?? null;
    try {
        const { op, curve, args = {} } = request;
        let result;
        if (Object.hasOwn(POSITIONAL, op)) result = await POSITIONAL[op](curve, args);
        else if (BY_OBJECT.includes(op)) result = await mpin[op](curve, args);
        else throw new Error(`unknown op ${JSON.stringify(op)}: expected one of ${[...Object.keys(POSITIONAL), ...BY_OBJECT].join(", ")}`);
        return { id, ok: true, result };
    } catch (error) {
        return { id, ok: false, error: error.message };
    }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
    if (line.trim() === "") continue;
    process.stdout.write(JSON.stringify(await answer(line)) + "\n");
}
