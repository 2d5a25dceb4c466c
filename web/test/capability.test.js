// Where the app cannot run (not a secure context: no crypto.subtle), it says why and what to do,
// and a registration asks the server nothing, so no activation link is mailed that the app could
// never finish (web/app/capability.js, the guard at the start of client.register).

import assert from "node:assert/strict";
import { register } from "node:module";
import test from "node:test";
import { missingCapability } from "../app/capability.js";

register("../test-support/served-paths.js", import.meta.url);

const capable = { isSecureContext: true, crypto: globalThis.crypto, BigInt, indexedDB: {}, location: { origin: "https://login.example.com" } };

test("a secure page with WebCrypto, BigInt and IndexedDB can run", () => {
  assert.equal(missingCapability(capable), null);
});

test("plain http at a LAN address: the reason names the address and says https or localhost", () => {
  const lan = { ...capable, isSecureContext: false, crypto: { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) },
    location: { origin: "http://192.168.1.20:8080" } };
  const reason = missingCapability(lan);
  assert.match(reason, /Registering and signing in are off here/);
  assert.match(reason, /http:\/\/192\.168\.1\.20:8080/);
  assert.match(reason, /https/);
  assert.match(reason, /localhost/);
  // crypto.subtle missing alone is enough (a browser that does not report isSecureContext).
  assert.match(missingCapability({ ...lan, isSecureContext: undefined }), /https/);
});

test("no IndexedDB or no random source: said plainly", () => {
  assert.match(missingCapability({ ...capable, indexedDB: undefined }), /IndexedDB/);
  assert.match(missingCapability({ ...capable, crypto: { subtle: globalThis.crypto.subtle } }), /current browser/);
});

test("register without crypto.subtle fails before any request (nothing is mailed)", async (t) => {
  const client = await import("../app/client.js");
  const requests = [];
  const realCrypto = globalThis.crypto;
  t.mock.method(globalThis, "fetch", async (url, init) => {
    requests.push(`${init.method} ${url}`);
    return new Response(JSON.stringify({ mpinId: "00", regOTT: "00" }), { status: 200 });
  });
  Object.defineProperty(globalThis, "crypto", { value: { getRandomValues: (a) => realCrypto.getRandomValues(a) }, configurable: true, writable: true });
  try {
    const service = { base: "http://192.168.1.20:8080", curve: "bls12-381", settings: { registerURL: "/rps/user" }, url: (u) => "http://192.168.1.20:8080" + u };
    await assert.rejects(client.register(service, "kim@example.com", "phone"), /Registering and signing in are off here/);
  } finally {
    Object.defineProperty(globalThis, "crypto", { value: realCrypto, configurable: true, writable: true });
  }
  assert.deepEqual(requests, []);
});
