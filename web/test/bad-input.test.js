// Bad input fails with an Error whose message names the value and says what is wrong: malformed
// hex, wrong lengths, points off the curve or outside G1, scalars out of range, PINs that are
// not 4 digits, dates and times out of range, unknown curves.

import assert from "node:assert/strict";
import test from "node:test";
import * as mpin from "../mpin.js";
import { bigIntToHex } from "../lib/bytes.js";
import { curveContext } from "../lib/curve-context.js";
import { seededRandom } from "../test-support/seeded-random.js";

const ID = "616c696365406578616d706c652e636f6d"; // alice@example.com
const random = seededRandom();

for (const curve of ["bn254cx", "bls12-381"]) {
    const { g1, curve: described } = curveContext(curve);
    const fieldHex = 2 * described.fieldBytes;
    const scalarHex = 2 * described.scalarBytes;

    /** A valid token-like point and a valid scalar to vary one input at a time. */
    async function goodInputs() {
        const a = g1.decode(await mpin.mapToG1(curve, ID), "A");
        const token = g1.encode(g1.multiplySecret(a, random.below(described.r)), "token");
        const xHex = bigIntToHex(random.below(described.r), described.scalarBytes);
        return { token, xHex };
    }

    test(`${curve}: malformed hex is refused, naming the value`, async () => {
        const { token } = await goodInputs();
        await assert.rejects(mpin.hashID(curve, "zz"), /idHex is not hex: it contains a character other than 0-9, a-f/);
        await assert.rejects(mpin.hashID(curve, "abc"), /idHex is not hex: odd number of digits \(3\)/);
        await assert.rejects(mpin.hashID(curve, 42), /idHex must be a hex string, got number/);
        await assert.rejects(mpin.clientPass1(curve, { idHex: ID, tokenHex: token.slice(0, -2) + "g0", pin: "1234" }),
            /tokenHex is not hex/);
    });

    test(`${curve}: points of the wrong length, prefix, range, curve or subgroup are refused`, async () => {
        const { token } = await goodInputs();
        const pass1 = (tokenHex) => mpin.clientPass1(curve, { idHex: ID, tokenHex, pin: "1234" });
        const encoded = 1 + 2 * described.fieldBytes;
        await assert.rejects(pass1(token.slice(0, -2)),
            new RegExp(`tokenHex is not a valid point: wrong length: expected ${encoded} bytes, got ${encoded - 1}`));
        await assert.rejects(pass1("05" + token.slice(2)), /tokenHex is not a valid point: wrong prefix byte 0x05 \(expected 0x04\)/);
        await assert.rejects(pass1("02" + token.slice(2, 2 + fieldHex)),
            /wrong prefix byte 0x02 \(expected 0x04\): compressed points are not accepted/);
        await assert.rejects(pass1("04" + "0".repeat(2 * fieldHex)), /tokenHex is not a valid point: the point at infinity is not allowed here/);
        const y = BigInt("0x" + token.slice(2 + fieldHex));
        const offCurve = token.slice(0, 2 + fieldHex) + bigIntToHex((y + 1n) % described.p, described.fieldBytes);
        await assert.rejects(pass1(offCurve), /tokenHex is not a valid point: the point is not on the curve/);
        const xPlusP = BigInt("0x" + token.slice(2, 2 + fieldHex)) + described.p;
        if (xPlusP < 1n << BigInt(8 * described.fieldBytes)) {
            await assert.rejects(pass1("04" + bigIntToHex(xPlusP, described.fieldBytes) + token.slice(2 + fieldHex)),
                /tokenHex is not a valid point: a coordinate is not below the field modulus/);
        }
        await assert.rejects(mpin.addG1(curve, token, offCurve), /bHex is not a valid point: the point is not on the curve/);
        if (described.g1.cofactor !== 1n) {
            // The try-and-increment point before the cofactor: on the curve, not in G1.
            const outside = g1.encode(g1.mapToCurve(random.bytes(32)), "point");
            await assert.rejects(pass1(outside), /tokenHex is not a valid point: the point is not in the prime-order subgroup/);
            const [five, seven] = [5n, 7n].map((k) => bigIntToHex(k, described.scalarBytes));
            await assert.rejects(mpin.clientPass2(curve, { xHex: five, yHex: seven, secHex: outside }),
                /secHex is not a valid point: the point is not in the prime-order subgroup/);
        }
    });

    test(`${curve}: scalars of the wrong length, zero or not below r are refused`, async () => {
        const { token, xHex } = await goodInputs();
        const pass1 = (x) => mpin.clientPass1(curve, { idHex: ID, tokenHex: token, pin: "1234", xHex: x });
        await assert.rejects(pass1(xHex.slice(2)),
            new RegExp(`xHex is not a valid scalar: expected ${described.scalarBytes} bytes, got ${described.scalarBytes - 1}`));
        await assert.rejects(pass1("0".repeat(scalarHex)), /xHex is not a valid scalar: it must be in \[1, r\)/);
        await assert.rejects(pass1(bigIntToHex(described.r, described.scalarBytes)), /xHex is not a valid scalar: it must be in \[1, r\)/);
        await assert.rejects(mpin.clientPass2(curve, { xHex, secHex: token }), /yHex must be a hex string, got undefined/);
        await assert.rejects(mpin.dvsKeyPair(curve, "00"), /zHex is not a valid scalar/);
    });

    test(`${curve}: a PIN is exactly 4 digits`, async () => {
        const { token } = await goodInputs();
        for (const pin of ["12a4", "123", "12345", " 123", "", 10000, -1, 1.5, null, undefined, "１２３４"]) {
            await assert.rejects(mpin.clientPass1(curve, { idHex: ID, tokenHex: token, pin }), /a PIN is exactly 4 digits \(0000-9999\)/,
                `PIN ${JSON.stringify(pin)}`);
            await assert.rejects(mpin.extractPIN(curve, ID, pin, token), /a PIN is exactly 4 digits/);
        }
        for (const pin of ["0000", "0888", 888, 9999]) {
            await assert.doesNotReject(mpin.clientPass1(curve, { idHex: ID, tokenHex: token, pin }), `PIN ${JSON.stringify(pin)}`);
        }
    });

    test(`${curve}: dates and times are positive 32-bit integers; a date needs its permit`, async () => {
        const { token } = await goodInputs();
        const base = { idHex: ID, tokenHex: token, pin: "1234" };
        await assert.rejects(mpin.clientPass1(curve, { ...base, date: 20000 }), /date and timePermitHex go together/);
        await assert.rejects(mpin.clientPass1(curve, { ...base, timePermitHex: token }), /date and timePermitHex go together/);
        await assert.rejects(mpin.clientPass1(curve, { ...base, date: -3, timePermitHex: token }), /date must be a day number/);
        await assert.rejects(mpin.clientPass1(curve, { ...base, date: "20000", timePermitHex: token }), /date must be a day number/);
        const u = (await mpin.clientPass1(curve, base)).U;
        await assert.rejects(mpin.onePassY(curve, { time: 0, uHex: u }), /time must be Unix seconds: an integer from 1 to 4294967295, got 0/);
        await assert.rejects(mpin.onePassY(curve, { time: 2 ** 32, uHex: u }), /time must be Unix seconds/);
        await assert.doesNotReject(mpin.onePassY(curve, { time: 2 ** 32 - 1, uHex: u }));
        await assert.rejects(mpin.dvsSign(curve, { idPaHex: ID, tokenHex: token, pin: "1234", time: 1795000000 }), /messageHex must be a hex string/);
    });
}

test("unknown curves are refused with the list of known ones", async () => {
    await assert.rejects(mpin.hashID("bls12-377", ID), /unknown curve "bls12-377": expected one of "bn254cx", "bls12-381"/);
    await assert.rejects(mpin.hashID(undefined, ID), /curve must be a string/);
    assert.equal(await mpin.hashID("BLS381", ID), await mpin.hashID("bls12-381", ID), "aliases, any case");
});
