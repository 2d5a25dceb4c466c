// The CLI's flows (Sources/ZKPinClient/Flows) over the HTTP API of spec/rps-api.md, with the
// crypto of /js/mpin.js: discovery, registration, activation wait, both shares, PIN extraction,
// the code check, time permits, pass 1 and pass 2 (finishing the login: "complete": true).
import { addG1, extractPIN, clientPass1, clientPass2, dvsKeyPair, dvsClientSecret, dvsSign } from "/js/mpin.js";
import { ensureCapable } from "/app/capability.js";

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

// The server keeps an e-mail address in one form (NFC, lower case: docs/api.md).
const fold = (email) => email.normalize("NFC").toLowerCase();

/** PUT /rps/user: the server mails the activation link. Every new identity is signing-capable
 *  (docs/api.md "Signing-capable identities"): a DVS key pair whose Pa ends the mpinId; z is
 *  kept with the token (signingKey), null when the server minted a plain identity. */
export async function register(service, email, deviceName) {
  // The server mails the link on this request: only where every later step can run.
  await ensureCapable(globalThis);
  const key = await dvsKeyPair(service.curve);
  const answer = await call("PUT", service.url(service.settings.registerURL), { userId: email, deviceName: deviceName || undefined, mobile: 1, pa: key.paHex });
  const r = must(answer, "the registration");
  // The server must have minted an identity for this address: ID is JSON naming the e-mail,
  // followed by our Pa or by nothing (a server that ignores pa).
  const mpinId = typeof r.mpinId === "string" ? r.mpinId.toLowerCase() : "";
  const signing = mpinId.endsWith(key.paHex);
  const idHex = signing ? mpinId.slice(0, -key.paHex.length) : mpinId;
  let userId = null;
  try { userId = JSON.parse(new TextDecoder().decode(new Uint8Array(idHex.match(/../g).map((h) => parseInt(h, 16))))).userID; } catch { userId = null; }
  if (!/^[0-9a-f]+$/.test(mpinId) || mpinId.length % 2 || typeof userId !== "string" || fold(userId) !== fold(email)) {
    throw new Error(`the server's new identity is not one for ${email}`);
  }
  return { mpinId, regOTT: r.regOTT, expireTime: r.expireTime, code: await confirmationCode(r.regOTT), signingKey: signing ? key.zHex : null };
}

/** One poll of share 1: null while not activated (401); else the client secret, share 1 + share 2.
 *  The holder proof the server gives with share 1 (docs/limits.md "A shared address") is set
 *  on `holderOut.holder`, for the identity's first pass 1. */
export async function clientSecret(service, mpinId, regOTT, holderOut = {}) {
  const first = await call("GET", service.url(service.settings.signatureURL) + "/" + mpinId, undefined, { "X-ZKPin-RegOTT": regOTT });
  if (first.status === 401) return null;
  const share1 = must(first, "share 1");
  if (typeof share1.holder === "string" && /^[0-9a-f]{64}$/.test(share1.holder)) holderOut.holder = share1.holder;
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

/** Pass 1 (with a time permit when the server uses them), then pass 2 with `fields` added
 *  (finishing a login, or asking for a one-time code); pass 2's answer. */
async function proveAndPass2(service, identity, pin, code, fields, what) {
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
    return must(await call("POST", auth + "/pass2", { mpin_id: identity.mpinId, V, WID: code, challenge: challenge.challenge, pass: 2, ...fields }), what);
  } finally {
    pass1 = null;  // x and SEC must not outlive pass 2
  }
}

/** Pass 1 and pass 2 finishing the login of the page that shows `code`. */
export async function signIn(service, identity, pin, code) {
  const result = await proveAndPass2(service, identity, pin, code, { complete: true }, "the login");
  // The caller stores it with the identity (identity.holder) for the next pass 1.
  if (typeof result.holder === "string" && /^[0-9a-f]{64}$/.test(result.holder)) identity.holder = result.holder;
  return result.userId;
}

/** A one-time code for a password-only system (`zkpin otp`; docs/api.md "One-time codes"):
 *  the same proof with no access code, pass 2 with OTP; {otp, expiresIn, service, userId}. */
export async function oneTimeCode(service, identity, pin, serviceName) {
  const answer = await proveAndPass2(service, identity, pin, "0", { OTP: true, service: serviceName || undefined }, "the one-time code");
  if (!answer || typeof answer.otp !== "string" || !/^[0-9]+$/.test(answer.otp)) throw new Error("the server's one-time code is not digits");
  return answer;
}

// ---- approvals (docs/api.md "Approvals: the person's side"), as the CLI's Approvals flow ----

const sha256Hex = async (text) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The DVS signature (U, V) of the identity on SHA-256 of `text`: CS = TOKEN + PIN·A with the PIN
 *  typed, blinded by z, the PIN taken out again, then signed; nothing of it is kept. */
async function approvalSignature(service, identity, pin, text, time) {
  let { SEC } = await clientPass1(service.curve, { idHex: identity.mpinId, tokenHex: identity.token, pin });
  let signingToken = await extractPIN(service.curve, identity.mpinId, pin,
    await dvsClientSecret(service.curve, { zHex: identity.signingKey, clientSecretHex: SEC }));
  try {
    const { U, V } = await dvsSign(service.curve, { idPaHex: identity.mpinId, tokenHex: signingToken, pin, time, messageHex: await sha256Hex(text) });
    return { U, V };
  } finally { SEC = null; signingToken = null; }
}

const approvalsURL = (service) => `${service.base}/${service.prefix}/approvals`;
const seconds = () => Math.floor(Date.now() / 1000);

/** POST /rps/approvals: the identity's pending requests, oldest first (listing needs the PIN). */
export async function pendingApprovals(service, identity, pin) {
  const time = seconds();
  const { U, V } = await approvalSignature(service, identity, pin, `zkpin-approvals-v1\n${identity.mpinId}\n${time}`, time);
  const answer = must(await call("POST", approvalsURL(service), { mpinId: identity.mpinId, time, U, V }), "the list of requests");
  return Array.isArray(answer && answer.requests) ? answer.requests : [];
}

/** POST /rps/approvals/answer: "approve", "deny" or "not_me" one request; answers "approved", "denied" or "not_me". */
export async function answerApproval(service, identity, pin, request, verb) {
  const time = seconds();
  const text = ["zkpin-approval-v1", verb, request.authReqId, request.clientId, request.bindingMessage, time, request.authorizationDetails || ""].join("\n");
  const { U, V } = await approvalSignature(service, identity, pin, text, time);
  const answer = must(await call("POST", approvalsURL(service) + "/answer", { mpinId: identity.mpinId, authReqId: request.authReqId, answer: verb, time, U, V }), "the answer");
  return answer.status;
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
