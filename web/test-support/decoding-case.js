// The project's negative vectors with EXPECT = -14 name the bad value and why in their header
// ("U with x >= p"); this maps the reason to the message web/mpin.js must give.

const REASONS = [
    [/not on the curve/, /is not a valid point: the point is not on the curve/],
    [/x >= p/, /is not a valid point: a coordinate is not below the field modulus/],
    [/point at infinity/, /is not a valid point: the point at infinity is not allowed here/],
    [/compressed-point prefix/, /is not a valid point: wrong prefix byte 0x0[23]/],
    [/byte short/, /is not a valid point: wrong length: expected \d+ bytes, got \d+/],
    [/outside the prime-order subgroup/, /is not a valid point: the point is not in the prime-order subgroup/],
];

/** {field, message} for a header such as "negative 0: U with x >= p"; null for cases the client
 *  does not decode (G2 values: the server's). */
export function decodingCase(header) {
    const match = /^negative \d+: (\w+) (.*)$/.exec(header ?? "");
    if (!match) throw new Error(`a -14 vector without a "negative N: FIELD reason" header: ${header}`);
    const [, field, reason] = match;
    if (field === "SERVER_SECRET") return null;
    const found = REASONS.find(([pattern]) => pattern.test(reason));
    if (!found) throw new Error(`no expected message for the reason "${reason}"`);
    return { field, message: found[1] };
}
