// Readers for the vector formats of spec section 5 (test-only; node APIs).
//   .txt: `KEY = value,` lines (the comma optional), blank lines between vectors, `#` comment
//         lines (the one just above a block is its header);
//   .json: an array of objects whose values are strings or integers.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (web/test-support/ is two levels down). */
export const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** ../shared next to the repository, or null when it is not there. */
export function sharedFolder(...parts) {
    const folder = path.resolve(REPOSITORY, "..", "shared", ...parts);
    return fs.existsSync(folder) ? folder : null;
}

/** [{name, header, fields: {KEY: "value"}}] of a .txt or .json vector file. */
export function readVectorFile(file) {
    const text = fs.readFileSync(file, "utf8");
    return text.trimStart().startsWith("[") ? parseJSON(text, file) : parseText(text, file);
}

function parseText(text, file) {
    const vectors = [];
    let fields = {}, header = null, count = 0;
    const finish = () => {
        if (count === 0) return;
        const name = fields.TEST !== undefined ? `TEST ${fields.TEST}` : header ?? `vector ${vectors.length}`;
        vectors.push({ name, header, fields });
        fields = {}; header = null; count = 0;
    };
    text.split("\n").forEach((rawLine, index) => {
        const line = rawLine.trim();
        if (line === "") return finish();
        if (line.startsWith("#")) {
            finish();
            header = line.slice(1).trim();
            return;
        }
        const match = /^([A-Za-z0-9_]+)\s*=\s*(.*?)\s*,?\s*$/.exec(line);
        if (!match) throw new Error(`${file}:${index + 1}: not a KEY = value line: ${line.slice(0, 60)}`);
        fields[match[1]] = match[2];
        count++;
    });
    finish();
    return vectors;
}

function parseJSON(text, file) {
    const array = JSON.parse(text);
    if (!Array.isArray(array)) throw new Error(`${file}: expected a JSON array of objects`);
    return array.map((entry, index) => {
        const fields = {};
        for (const [key, value] of Object.entries(entry)) {
            if (typeof value === "string" || typeof value === "number") fields[key] = String(value);
        }
        return { name: fields.TEST !== undefined ? `TEST ${fields.TEST}` : `vector ${index}`, header: null, fields };
    });
}
