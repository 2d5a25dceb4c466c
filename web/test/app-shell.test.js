// The service worker's shell (web/app/sw.js) lists every file the app and /js/mpin.js load, so
// the app opens offline whole: a module added to web/app or web/lib and not to SHELL fails here.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import test from "node:test";

const WEB = new URL("../", import.meta.url);
const worker = readFileSync(new URL("app/sw.js", WEB), "utf8");
const shell = JSON.parse(worker.match(/const SHELL = (\[[^\]]*\])/)[1].replace(/,\s*\]$/, "]"));

test("every app file and every /js module is in the shell", () => {
  const app = readdirSync(new URL("app/", WEB)).filter((n) => n !== "sw.js" && n !== "index.html").map((n) => "/app/" + n);
  const lib = readdirSync(new URL("lib/", WEB)).filter((n) => n.endsWith(".js")).map((n) => "/js/lib/" + n);
  for (const path of ["/app/", "/js/mpin.js", ...app, ...lib]) assert.ok(shell.includes(path), `sw.js does not cache ${path}`);
});
