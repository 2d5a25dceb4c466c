// The CLI's flows (Sources/ZKPinClient/Flows) over the HTTP API of spec/rps-api.md, with the
// crypto of /js/mpin.js: discovery, registration, activation wait, both shares, PIN extraction,
// the code check, time permits, pass 1 and pass 2 (finishing the login: "complete": true).
import { addG1, extractPIN, clientPass1, clientPass2 } from "/js/mpin.js";

/** A refusal with the server's status and error body. */
export class ServerAnswer extends Error {
  constructor(status, body, what) {
    super(body && body.message ? body.message : `${what} answered HTTP ${status}`);
    this.status = status; this.code = body && body.error; this.attemptsLeft = body && body.attemptsLeft;
  }
}

async function call(method, url, body, headers = {}) {
  const init = { method, headers: { ...headers }, cache: "no-store", credentials: "omit" };
  if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  const response = await fetch(url, init);
  let json = null;
  try { json = await response.json(); } catch { json = null; }
  return { status: response.status, ok: response.ok, json };
}

function must(answer, what) {
  if (!answer.ok) throw new ServerAnswer(answer.status, answer.json, what);
  return answer.json;
}

const resolve = (url, base) => new URL(url, base + "/").href.replace(/\/$/, "");

/** GET /service and /rps/clientSettings. */
export async function discover(server) {
  const info = must(await call("GET", server + "/service"), "GET /service");
  const prefix = String(info.rps_prefix || "rps").replace(/^\/+|\/+$/g, "");
  const settings = must(await call("GET", `${server}/${prefix}/clientSettings`), "GET /clientSettings");
  return {
    base: server, name: info.name, reportedURL: info.url, prefix, settings, curve: settings.curve,
    url: (u) => resolve(u, server),
  };
}

// The confirmation code: base32 of SHA-256("zkpin-activation" ‖ regOTT bytes), 8 characters.
export async function confirmationCode(regOTT) {
  const bytes = new Uint8Array([...new TextEncoder().encode("zkpin-activation"), ...regOTT.match(/../g).map((h) => parseInt(h, 16))]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "", buffer = 0, bits = 0;
  for (const byte of digest) {
    buffer = (buffer << 8) | byte; bits += 8;
    while (bits >= 5 && out.length < 8) { out += alphabet[(buffer >> (bits - 5)) & 31]; bits -= 5; }
    buffer &= 0xff;
  }
  return out.slice(0, 4) + "-" + out.slice(4, 8);
}

/** PUT /rps/user: the server mails the activation link. */
export async function register(service, email, deviceName) {
  const answer = await call("PUT", service.url(service.settings.registerURL), { userId: email, deviceName: deviceName || undefined, mobile: 1 });
  const r = must(answer, "the registration");
  return { mpinId: r.mpinId, regOTT: r.regOTT, expireTime: r.expireTime, code: await confirmationCode(r.regOTT) };
}

/** One poll of share 1: null while not activated (401); else the client secret, share 1 + share 2. */
export async function clientSecret(service, mpinId, regOTT) {
  const first = await call("GET", service.url(service.settings.signatureURL) + "/" + mpinId, undefined, { "X-ZKPin-RegOTT": regOTT });
  if (first.status === 401) return null;
  const share1 = must(first, "share 1");
  const dta2 = service.url(service.settings.dta2URL).replace(/\/+$/, "");
  const share2 = must(await call("GET", `${dta2}/clientSecret?${share1.params}`), "D-TA 2");
  return addG1(service.curve, share1.clientSecretShare, share2.clientSecret);
}

export const token = (service, mpinId, pin, secret) => extractPIN(service.curve, mpinId, pin, secret);

/** TOKEN' = TOKEN + old·A - new·A (the CLI's PINChange; prove the old PIN first with signIn and code "0"). */
export async function changedToken(service, identity, oldPIN, newPIN) {
  let { SEC } = await clientPass1(service.curve, { idHex: identity.mpinId, tokenHex: identity.token, pin: oldPIN });
  try { return await extractPIN(service.curve, identity.mpinId, newPIN, SEC); } finally { SEC = null; }
}

/** POST /rps/codeStatus: checks the code and tells the page it was scanned; the site's name if any. */
export async function checkCode(service, code) {
  const answer = await call("POST", `${service.base}/${service.prefix}/codeStatus`, { status: "wid", wid: code });
  if (answer.status === 404 || answer.status === 405) return null;
  must(answer, "the code check");
  return (answer.json && answer.json.clientName) || null;
}

/** Pass 1 (with a time permit when the server uses them) and pass 2 finishing the login. */
export async function signIn(service, identity, pin, code) {
  const auth = service.url(service.settings.mpinAuthServerURL);
  let permit = {};
  if (service.settings.usePermits) {
    // The holder proof counts the request in this identity's own budget (docs/limits.md "A shared address").
    const holder = identity.holder ? { "X-ZKPin-Holder": identity.holder } : {};
    const share1 = must(await call("GET", service.url(service.settings.timePermitsURL) + "/" + identity.mpinId, undefined, holder), "the time permit");
    const dta2 = service.url(service.settings.dta2URL).replace(/\/+$/, "");
    const share2 = must(await call("GET", `${dta2}/timePermit?${share1.params}`), "D-TA 2");
    if (share1.date !== share2.date) throw new Error("the two time-permit shares do not match");
    permit = { date: share1.date, timePermitHex: await addG1(service.curve, share1.timePermit, share2.timePermit) };
  }
  let pass1 = await clientPass1(service.curve, { idHex: identity.mpinId, tokenHex: identity.token, pin, ...permit });
  try {
    // holder: the proof the last verified login gave (docs/limits.md "A shared address").
    const challenge = must(await call("POST", auth + "/pass1", { mpin_id: identity.mpinId, U: pass1.U, UT: pass1.UT || undefined, WID: code, pass: 1, holder: identity.holder || undefined }), "pass 1");
    const V = await clientPass2(service.curve, { xHex: pass1.xHex, yHex: challenge.y, secHex: pass1.SEC });
    const result = must(await call("POST", auth + "/pass2", { mpin_id: identity.mpinId, V, WID: code, challenge: challenge.challenge, pass: 2, complete: true }), "the login");
    // The caller stores it with the identity (identity.holder) for the next pass 1.
    if (typeof result.holder === "string" && /^[0-9a-f]{64}$/.test(result.holder)) identity.holder = result.holder;
    return result.userId;
  } finally {
    pass1 = null;  // x and SEC must not outlive pass 2
  }
}

/** The CLI's trivial-PIN rule (Sources/ZKPinClient/Input/TrivialPIN.swift): why a PIN is easy to guess, or null. */
export function trivialPIN(pin) {
  const d = [...pin].map(Number);
  if (new Set(d).size === 1) return "all its digits are the same";
  const steps = d.slice(1).map((v, i) => v - d[i]);
  if (steps.every((s) => s === 1)) return "its digits count up one by one";
  if (steps.every((s) => s === -1)) return "its digits count down one by one";
  if (d[0] === d[2] && d[1] === d[3]) return "it repeats a pair of digits";
  if (["2580", "0852", "1122", "1004", "2000", "6969"].includes(pin)) return "it is one of the PINs people choose most";
  return null;
}
