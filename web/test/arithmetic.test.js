// The fixed-schedule multiplications against the plain (variable-time) ones on seeded random
// and edge-case scalars, the GLV decomposition's bounds, and the scheme's identities that hold
// for any input (SEC = CS + TP with the right PIN, U = x·A for a random x).

import assert from "node:assert/strict";
import test from "node:test";
import * as mpin from "../mpin.js";
import { bigIntToHex } from "../lib/bytes.js";
import { curveContext } from "../lib/curve-context.js";
import { seededRandom } from "../test-support/seeded-random.js";

const random = seededRandom();
const ID = "626f62406578616d706c652e6f7267"; // bob@example.org

for (const name of ["bn254cx", "bls12-381"]) {
    const { g1, g2, curve } = curveContext(name);
    const { r } = curve;
    const a = g1.decode(await mpin.mapToG1(name, ID), "A");
    const same = (first, second) => {
        const x = g1.toAffine(first), y = g1.toAffine(second);
        return x === null || y === null ? x === y : x.x === y.x && x.y === y.y;
    };
    const { lambda } = curve.glv;
    const edgeScalars = [0n, 1n, 2n, 3n, 15n, 16n, 17n, r - 1n, r - 2n, r - 3n, (r - 1n) / 2n, lambda, lambda + 1n, r - lambda];

    test(`${name}: the GLV decomposition is k1 + k2·λ = k mod r with |k1|, |k2| < 2^(halfBits - 1)`, () => {
        const bound = 1n << BigInt(curve.glv.halfBits - 1);
        const scalars = [...edgeScalars, ...Array.from({ length: 200 }, () => random.below(r))];
        for (const k of scalars) {
            const [k1, k2] = g1.decompose(k);
            assert.equal((((k1 + k2 * curve.glv.lambda) % r) + r) % r, k, `k = ${k}${random.note}`);
            assert.ok(k1 < bound && -k1 < bound && k2 < bound && -k2 < bound, `k = ${k}: (${k1}, ${k2})${random.note}`);
        }
    });

    test(`${name}: multiplySecret equals multiplyPublic (edge and random scalars)`, () => {
        const scalars = [...edgeScalars, ...Array.from({ length: 40 }, () => random.below(r))];
        for (const k of scalars) {
            assert.ok(same(g1.multiplySecret(a, k), g1.multiplyPublic(a, k)), `k = ${k}${random.note}`);
        }
        assert.ok(g1.isInfinity(g1.multiplySecret(a, 0n)), "0·A is infinity");
    });

    test(`${name}: S + k·P on the 14-bit PIN schedule equals the plain sum`, () => {
        const s = g1.multiplyPublic(a, random.below(r));
        for (const pin of [0, 1, 2, 15, 16, 8191, 8192, 9998, 9999, random.pin(), random.pin()]) {
            const expected = g1.addPublic(s, g1.multiplyPublic(a, BigInt(pin)));
            assert.ok(same(g1.addSmallSecretMultiple(s, a, pin, 14), expected), `PIN ${pin}${random.note}`);
        }
        // A degenerate sum: S = P and PIN 0 (the sum meets P itself inside the schedule).
        assert.ok(same(g1.addSmallSecretMultiple(g1.fromAffine(a), a, 0, 14), g1.fromAffine(a)), "A + 0·A");
    });

    test(`${name}: with the right PIN, SEC is CS (+ TP) and U is x·A for the x returned`, async () => {
        const cs = g1.encode(g1.multiplySecret(a, random.below(r)), "CS");
        const tp = g1.encode(g1.multiplySecret(a, random.below(r)), "TP");
        const pin = random.pin();
        const token = await mpin.extractPIN(name, ID, pin, cs);
        const withPermit = await mpin.clientPass1(name, { idHex: ID, tokenHex: token, pin, date: 20000, timePermitHex: tp });
        assert.equal(withPermit.SEC, await mpin.addG1(name, cs, tp), `PIN ${pin}${random.note}`);
        const plain = await mpin.clientPass1(name, { idHex: ID, tokenHex: token, pin: String(pin).padStart(4, "0") });
        assert.equal(plain.SEC, cs);
        assert.equal(plain.UT, null);
        assert.match(plain.xHex, new RegExp(`^[0-9a-f]{${2 * curve.scalarBytes}}$`));
        assert.equal(plain.U, g1.encode(g1.multiplyPublic(a, BigInt("0x" + plain.xHex)), "U"));
        assert.notEqual(plain.xHex, withPermit.xHex, "fresh x each time");
        const wrong = await mpin.clientPass1(name, { idHex: ID, tokenHex: token, pin: (pin + 1) % 10000 });
        assert.notEqual(wrong.SEC, cs, "a wrong PIN gives another SEC");
    });

    test(`${name}: V = -((x + y) mod r)·SEC`, async () => {
        const sec = g1.multiplyPublic(a, random.below(r));
        const x = random.below(r), y = random.below(r);
        const v = await mpin.clientPass2(name, {
            xHex: bigIntToHex(x, curve.scalarBytes), yHex: bigIntToHex(y, curve.scalarBytes), secHex: g1.encode(sec, "SEC"),
        });
        assert.equal(v, g1.encode(g1.negate(g1.multiplyPublic(g1.toAffine(sec), (x + y) % r)), "V"), random.note);
    });

    test(`${name}: the G2 schedule gives Q for 1, -Q for r - 1, and a fresh z without zHex`, async () => {
        const q = g2.generator;
        assert.deepEqual(g2.multiplyGenerator(1n), q);
        assert.deepEqual(g2.multiplyGenerator(r - 1n), { x: q.x, y: [(curve.p - q.y[0]) % curve.p, (curve.p - q.y[1]) % curve.p] });
        const first = await mpin.dvsKeyPair(name), second = await mpin.dvsKeyPair(name);
        assert.notEqual(first.zHex, second.zHex);
        assert.equal((await mpin.dvsKeyPair(name, first.zHex)).paHex, first.paHex);
        assert.equal(first.paHex.length, 8 * curve.fieldBytes);
    });
}
