// One curve's constants and groups, built once per curve name on first use.

import { CURVES } from "./curves.generated.js";
import { primeField } from "./field.js";
import { g1Group } from "./g1.js";
import { g2Group } from "./g2.js";

const contexts = new Map();

/** The names the API accepts: each curve's name, then its aliases (any case). */
export const CURVE_NAMES = Object.freeze(Object.keys(CURVES));

function describedCurve(name) {
    if (typeof name !== "string") throw new TypeError(`curve must be a string such as "${CURVE_NAMES[0]}"`);
    const wanted = name.toLowerCase();
    for (const curve of Object.values(CURVES)) {
        if (curve.name === wanted || curve.aliases.includes(wanted)) return curve;
    }
    throw new Error(`unknown curve "${name}": expected one of ${CURVE_NAMES.map((n) => `"${n}"`).join(", ")}`);
}

/** {curve, g1, scalarField, g2 (built lazily: only DVS key pairs need it)} for a curve name or alias. */
export function curveContext(name) {
    const curve = describedCurve(name);
    let context = contexts.get(curve.name);
    if (!context) {
        const g1 = g1Group(curve);
        let g2 = null;
        context = {
            curve,
            g1,
            /** Arithmetic modulo r (inverting the DVS key z). */
            scalarField: primeField(curve.r),
            get g2() {
                g2 ??= g2Group(curve, g1.fp);
                return g2;
            },
        };
        contexts.set(curve.name, context);
    }
    return context;
}
