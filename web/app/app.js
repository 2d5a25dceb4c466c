// The ZKPin web app: identities in this browser, registration by e-mail, sign-in of another
// screen (QR payload <url>#<code> opened here, or the code typed) and of this one ("Sign in
// here with your PIN" on the sign-in page opens /app/#<code>). No inline script (CSP).
import * as store from "/app/identities.js";
import * as client from "/app/client.js";
import { displayProblem, escapedText } from "/app/display.js";
import * as push from "/app/push.js";
import { missingCapability } from "/app/capability.js";
import { accessCodeProblem } from "/app/access-code.js";

const $ = (id) => document.getElementById(id);
const sections = ["home", "register", "activate", "signin", "pin", "approvals", "otp", "pushsignin", "done"];
let waiting = null;  // the activation poll's timer
// Why this page cannot register or sign in (not a secure context, ...), or null: then every
// step that needs WebCrypto is off, before any server is asked (a registration would mail a
// link it could never finish).
const unavailable = missingCapability(window);

/** True (and the reason said) when this page cannot run the step asked for. */
function cannotRun() {
  if (!unavailable) return false;
  say(unavailable, true);
  return true;
}

function show(id) {
  for (const s of sections) $(s).hidden = s !== id;
  const heading = $(id).querySelector("h1");
  if (heading) { heading.tabIndex = -1; heading.focus(); }
}

function say(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

function stopWaiting() { if (waiting) { clearTimeout(waiting); waiting = null; } }

const stateWords = { pending: "waiting for activation", registered: "ready", blocked: "blocked", revoked: "revoked" };

async function renderHome() {
  stopWaiting();
  endApprovals();
  endOneTimeCode();
  const list = await store.all();
  const ul = $("identities");
  ul.replaceChildren();
  $("no-identities").hidden = list.length > 0;
  push.watch(list);
  for (const identity of list) {
    const li = document.createElement("li");
    const who = document.createElement("div"); who.className = "who"; who.textContent = identity.userId;
    const where = document.createElement("div"); where.className = "where";
    where.textContent = `${identity.serviceName || ""} ${identity.server} · ${identity.deviceName || "this device"} · ${stateWords[identity.state] || identity.state}`;
    const remove = document.createElement("button");
    remove.type = "button"; remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${identity.userId} at ${identity.server}`);
    remove.addEventListener("click", async () => {
      if (!confirm(`Remove ${identity.userId} from this device? You would have to register again.`)) return;
      await push.forget(identity);
      await store.remove(identity.key);
      say(`Removed ${identity.userId}.`);
      renderHome();
    });
    li.append(who, where, remove);
    if (identity.state === "registered") {
      const change = document.createElement("button");
      change.type = "button"; change.textContent = "Change PIN";
      change.setAttribute("aria-label", `Change the PIN of ${identity.userId}`);
      change.addEventListener("click", () => changePIN(identity));
      change.disabled = !!unavailable;
      const approve = document.createElement("button");
      approve.type = "button"; approve.textContent = "Requests to approve";
      approve.setAttribute("aria-label", `Requests for ${identity.userId} to approve`);
      approve.addEventListener("click", () => openApprovals(identity));
      approve.disabled = !!unavailable;
      const otp = document.createElement("button");
      otp.type = "button"; otp.textContent = "One-time code";
      otp.setAttribute("aria-label", `A one-time code for ${identity.userId}`);
      otp.addEventListener("click", () => openOneTimeCode(identity));
      otp.disabled = !!unavailable;
      li.append(change, approve, otp, push.controls(identity));
    }
    if (identity.state === "pending") {
      const resume = document.createElement("button");
      resume.type = "button"; resume.textContent = "Finish the registration";
      resume.addEventListener("click", () => waitForActivation(identity));
      resume.disabled = !!unavailable;
      li.append(resume);
    }
    ul.append(li);
  }
  show("home");
}

// ---- registration -------------------------------------------------------------------------

async function startRegistration(event) {
  event.preventDefault();
  if (cannotRun()) return;
  const email = $("email").value.trim(), device = $("device").value.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) { say("Type an e-mail address like kim@example.com.", true); $("email").focus(); return; }
  try {
    say("Registering…");
    const service = await client.discover(location.origin);
    const started = await client.register(service, email, device);
    const identity = {
      key: store.keyOf(service.base, email), server: service.base, userId: email, deviceName: device,
      serviceName: service.name, curve: service.curve, mpinId: started.mpinId, regOTT: started.regOTT,
      confirmationCode: started.code, state: "pending", created: new Date().toISOString(),
      signingKey: started.signingKey || undefined,
    };
    await store.put(identity);
    waitForActivation(identity);
  } catch (error) {
    say(`The registration failed: ${error.message}`, true);
  }
}

async function waitForActivation(identity) {
  if (cannotRun()) return;
  $("activate-email").textContent = identity.userId;
  $("confirmation-code").textContent = identity.confirmationCode;
  say(`Confirmation code: ${identity.confirmationCode}`);
  show("activate");
  let service;
  try { service = await client.discover(identity.server); } catch (error) { say(error.message, true); return; }
  const poll = async () => {
    try {
      const given = {};
      const secret = await client.clientSecret(service, identity.mpinId, identity.regOTT, given);
      if (!secret) { waiting = setTimeout(poll, 2000); return; }
      waiting = null;
      choosePIN({ ...identity, holder: given.holder }, service, secret);
    } catch (error) {
      say(error.status && [400, 403, 404, 410].includes(error.status)
        ? "This registration expired or was replaced: register again." : `Waiting failed: ${error.message}`, true);
    }
  };
  stopWaiting();
  poll();
}

function choosePIN(identity, service, secret) {
  let first = null;
  const choose = "Activated. Choose a 4-digit PIN: it never leaves this device.";
  askPIN("Choose a PIN", choose, async (pin) => {
    if (first === null) {
      const reason = client.trivialPIN(pin);
      if (reason) { say(`That PIN is easy to guess (${reason}): choose another.`, true); return "again"; }
      first = pin;
      say("");
      pinStep("Repeat the PIN", "Type the same PIN again.");
      return "again";
    }
    if (pin !== first) { first = null; say("The two PINs differ: choose a PIN again.", true); pinStep("Choose a PIN", choose); return "again"; }
    const tokenHex = await client.token(service, identity.mpinId, pin, secret);
    secret = null;
    // The holder proof came with share 1, so the first sign-in is not counted with strangers.
    await store.put({ ...identity, token: tokenHex, regOTT: undefined, confirmationCode: undefined, state: "registered" });
    done("Registered", `${identity.userId} can now sign in with this device at ${identity.server}.`);
    push.offer(identity);
    return "done";
  });
}

// The CLI's order (zkpin change-pin): the current PIN is proved to the server by a login that
// signs no page in (code "0"; a wrong one counts towards the block), then the new PIN twice.
async function changePIN(identity) {
  if (cannotRun()) return;
  let service;
  try { service = await client.discover(identity.server); } catch (error) { say(error.message, true); return; }
  let old = null, first = null;
  const newHint = `The current PIN is right. Choose the new PIN of ${identity.userId}: it never leaves this device.`;
  askPIN("Current PIN", `Change the PIN of ${identity.userId}: type the current PIN first.`, async (pin) => {
    if (old === null) {
      say("Checking the current PIN…");
      try { await client.signIn(service, identity, pin, "0"); } catch (error) {
        if (error.status === 401 && error.code === "wrong_pin") {
          const left = attemptsLeft(error);
          say(`The current PIN is wrong; nothing was changed.${left ? " " + left + "." : ""}`, true);
          return "again";
        }
        return refusal(error, identity);
      }
      old = pin;
      say("");
      pinStep("New PIN", newHint);
      return "again";
    }
    if (first === null) {
      const reason = client.trivialPIN(pin);
      if (reason) { say(`That PIN is easy to guess (${reason}): choose another.`, true); return "again"; }
      if (pin === old) { say("The new PIN is the same as the current one: choose another.", true); return "again"; }
      first = pin;
      say("");
      pinStep("Repeat the new PIN", "Type the new PIN again.");
      return "again";
    }
    if (pin !== first) { first = null; pinStep("New PIN", newHint); say("The two PINs differ: choose the new PIN again.", true); return "again"; }
    const tokenHex = await client.changedToken(service, identity, old, pin);
    await store.update(identity.key, { token: tokenHex });
    done("PIN changed", `The PIN of ${identity.userId} on this device is changed.`);
    return "done";
  });
}

// ---- the PIN pad ----------------------------------------------------------------------------

let onPIN = null;

// The pad's title and hint change together: a hint never speaks of the step before.
function pinStep(title, hint) {
  $("pin-title").textContent = title;
  $("pin-hint").textContent = hint;
}

function askPIN(title, hint, handler) {
  pinStep(title, hint);
  onPIN = handler;
  $("pin-input").value = "";
  show("pin");
  $("pin-input").focus();
}

function setupPad() {
  const input = $("pin-input");
  for (const button of document.querySelectorAll(".pad [data-digit]")) {
    button.addEventListener("click", () => {
      if (input.value.length < 4) input.value += button.dataset.digit;
      say(`${input.value.length} of 4 digits`);
    });
  }
  document.querySelector(".pad [data-clear]").addEventListener("click", () => {
    input.value = input.value.slice(0, -1);
    say(`${input.value.length} of 4 digits`);
  });
  $("pin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const pin = input.value;
    if (!/^[0-9]{4}$/.test(pin)) { say("A PIN is exactly 4 digits.", true); input.focus(); return; }
    input.value = "";
    $("pin-ok").disabled = true;
    try {
      const next = onPIN ? await onPIN(pin) : "done";
      if (next === "again") { show("pin"); input.focus(); }
    } catch (error) {
      say(error.message, true);
    } finally { $("pin-ok").disabled = false; }
  });
}

// ---- sign-in with an access code -------------------------------------------------------------

// `preferred`: the key of the identity to sign in with (the one that answered a push sign-in).
async function signInWithCode(code, preferred = null) {
  if (cannotRun()) return;
  // The check digit first, as the CLI does: a mistyped code is not "expired", and no server is asked.
  const problem = accessCodeProblem(code);
  if (problem) {
    say(problem, true);
    if ($("home").hidden) await renderHome();
    $("code").value = code.slice(0, 7);
    $("code").focus();
    return;
  }
  const usable = (await store.all()).filter((i) => i.server === location.origin);
  if (usable.length === 0) {
    say(`No identity of ${location.origin} on this device: register one first, then open the code again.`, true);
    $("code").value = code;
    renderHome();
    return;
  }
  let service, siteName;
  try {
    service = await client.discover(location.origin);
    siteName = await client.checkCode(service, code);
  } catch (error) {
    if (error.status === 412 || error.status === 410) say("The access code expired or was used already: get a new code on the other screen.", true);
    else say(`The code could not be checked: ${error.message}`, true);
    $("code").value = "";
    renderHome();
    return;
  }
  // What the CLI checks before the PIN: the service's name and where it really is.
  $("signin-service").textContent = service.name;
  $("signin-origin").textContent = location.origin;
  $("signin-site").textContent = siteName || "";
  $("signin-site").hidden = $("signin-site-label").hidden = !siteName;
  $("signin-code").textContent = code;
  const select = $("signin-identity");
  select.replaceChildren(...usable.map((i) => new Option(`${i.userId} (${stateWords[i.state] || i.state})`, i.key)));
  const ready = usable.find((i) => i.key === preferred) || usable.find((i) => i.state === "registered");
  if (ready) select.value = ready.key;
  $("signin-identity-label").hidden = select.hidden = usable.length < 2;
  say("");
  // The facts above say where this PIN signs in; the hint only points at them.
  askPIN("Enter your PIN", "Check the service and the address above, then type your PIN.", async (pin) => {
    const identity = await store.get(select.value);
    // A blocked identity asks the server too, as the CLI does: an operator may have unblocked
    // it since (the server answers 410 again when not). A revoked one never comes back.
    if (identity.state === "revoked") { done("Refused", "This identity is revoked. Register again.", true); return "done"; }
    say("Signing in…");
    try {
      const userId = await client.signIn(service, identity, pin, code);
      await store.update(identity.key, { lastLogin: new Date().toISOString(), holder: identity.holder, state: "registered" });
      done("Signed in", `Signed in to ${siteName || service.name} as ${userId}. The other screen is now signed in.`);
      push.offer(identity);
      return "done";
    } catch (error) {
      return refusal(error, identity);
    }
  });
  $("signin").hidden = false;
}

// "N attempts left before the identity is blocked", or "" when the server did not say.
const attemptsLeft = (error) => typeof error.attemptsLeft === "number"
  ? `${error.attemptsLeft === 1 ? "1 attempt" : error.attemptsLeft + " attempts"} left before the identity is blocked` : "";

// The refusals that end what this identity can do here (sign-ins and approvals alike): an
// invalid token, blocked (410), revoked or unknown (403). True when `error` was one of them.
async function identityRefused(error, identity) {
  if (error.status === 401 && error.code !== "wrong_pin") {
    done("Refused", "The token of this identity is not valid. Register again.", true);
  } else if (error.status === 410) {
    await store.update(identity.key, { state: "blocked" });
    done("Blocked", "Blocked: too many wrong PINs. Ask the site to unblock your identity, or register this device again.", true);
  } else if (error.status === 403 && error.code === "identity_not_authorized") {
    await store.update(identity.key, { state: "revoked" });
    done("Refused", `${identity.userId} is not authorized at ${identity.server} (revoked or unknown). Register again.`, true);
  } else return false;
  return true;
}

// The states of docs/login-states.md, worded as the CLI and the page word them.
async function refusal(error, identity) {
  if (error.status === 401 && error.code === "wrong_pin") {
    const left = attemptsLeft(error);
    say(`Wrong PIN:${left ? " " + left + ";" : ""} the same code still works.`, true);
    $("pin-title").textContent = "Wrong PIN: try again";
    return "again";
  }
  if (error.status === 403 && error.code === "no_challenge") {
    done("Too slow", "The login took too long between its steps; get a new code and try again.", true);
    return "done";
  }
  if (await identityRefused(error, identity)) return "done";
  switch (error.status) {
    case 412:
      done("Expired", "The access code expired: get a new code on the other screen.", true);
      return "done";
    case 408:
      done("Not taken up", "The other screen did not take the sign-in up in time: get a new code and try again.", true);
      return "done";
    default:
      say(`The sign-in failed: ${error.message}`, true);
      return "again";
  }
}

// A result is said once, on its own screen (its heading takes the focus and is described by
// the text); the status line is cleared so it does not repeat it.
function done(title, text, error = false) {
  push.offer(null);
  $("done-title").textContent = title;
  $("done-text").textContent = text;
  $("done-text").classList.toggle("error", error);
  say("");
  show("done");
}

// ---- approvals: what sites ask this person to confirm (OpenID CIBA), as `zkpin approve` ----

// The PIN typed to open the list stays in memory only while the list is shown (as the CLI keeps
// it for one command): it signs the listing and the answer, and is dropped on leaving.
let approvalSession = null;

function endApprovals() {
  if (approvalSession) { clearTimeout(approvalSession.timer); approvalSession = null; }
}

// `request` ({id, site, message}): the one a notification or a live event named, shown selected.
async function openApprovals(identity, request = null) {
  if (cannotRun()) return;
  if (!identity.signingKey) {
    done("Cannot approve", `${identity.userId} was registered on this device before approvals existed and cannot sign them. Register this device again to approve requests.`, true);
    return;
  }
  let service;
  try { service = await client.discover(identity.server); } catch (error) { say(error.message, true); return; }
  const hint = request && request.site ? `${request.site} asks: ${request.message}. Type your PIN to see the request and answer it.`
    : request ? "A request is waiting. Type your PIN to see it and answer it." : `See what sites ask ${identity.userId} to approve.`;
  askPIN("Enter your PIN", hint, async (pin) => {
    say("Looking for requests…");
    endApprovals();
    approvalSession = { identity, service, pin, until: Date.now() + 120000, timer: null, selected: request && request.id };
    try {
      await listApprovals();
      return "done";
    } catch (error) {
      endApprovals();
      if (error.status === 401 && error.code === "wrong_pin") {
        const left = attemptsLeft(error);
        say(`Wrong PIN${left ? ": " + left : ""}.`, true);
        $("pin-title").textContent = "Wrong PIN: try again";
        return "again";
      }
      return approvalRefusal(error, identity);
    }
  });
}

// Lists the requests. New ones arrive through the live stream (push.js: the list looks again
// on each); while there is no stream and no request it looks again every 5 s for two minutes.
async function listApprovals() {
  const session = approvalSession;
  if (!session || session.answering) return;
  clearTimeout(session.timer);
  const requests = await client.pendingApprovals(session.service, session.identity, session.pin);
  if (approvalSession !== session) return;
  renderApprovals(requests);
  const again = () => {
    if (approvalSession !== session || Date.now() >= session.until) return;
    if (push.isLive(session.identity)) { session.timer = setTimeout(again, 5000); return; }
    listApprovals().catch((error) => { endApprovals(); approvalRefusal(error, session.identity); });
  };
  if (requests.length === 0) session.timer = setTimeout(again, 5000);
}

function renderApprovals(requests) {
  const session = approvalSession;
  $("approvals-identity").textContent = session.identity.userId;
  const ul = $("approval-list");
  ul.replaceChildren();
  $("no-approvals").hidden = requests.length > 0;
  for (const request of requests) {
    const li = document.createElement("li");
    if (request.authReqId === session.selected) { li.className = "selected"; li.setAttribute("aria-current", "true"); }
    const refused = displayProblem(request);
    const site = document.createElement("div"); site.className = "who"; site.textContent = `${escapedText(request.site)} asks:`;
    const message = document.createElement("p"); message.className = "binding"; message.textContent = escapedText(request.bindingMessage);
    li.append(site, message);
    if (refused) {
      const warning = document.createElement("p"); warning.className = "refused";
      warning.textContent = "This request contains hidden or direction-changing characters, so what you see may not be what you would sign. It cannot be approved here: deny it, or leave it.";
      li.append(warning);
    }
    const details = readableDetails(request.authorizationDetails).map(escapedText);
    if (details.length) {
      const list = document.createElement("ul"); list.className = "details";
      for (const line of details) { const item = document.createElement("li"); item.textContent = line; list.append(item); }
      li.append(list);
    }
    const left = Math.max(0, request.expires - Math.floor(Date.now() / 1000));
    const expiry = document.createElement("div"); expiry.className = "where";
    expiry.textContent = `Expires in ${left >= 120 ? Math.floor(left / 60) + " minutes" : left + " seconds"}`;
    const approve = document.createElement("button");
    approve.type = "button"; approve.className = "primary"; approve.textContent = "Approve";
    approve.setAttribute("aria-label", `Approve: ${request.bindingMessage}`);
    approve.addEventListener("click", () => answer(request, "approve"));
    const deny = document.createElement("button");
    deny.type = "button"; deny.textContent = "Deny";
    deny.setAttribute("aria-label", `Deny: ${request.bindingMessage}`);
    deny.addEventListener("click", () => answer(request, "deny"));
    // "Not me": a denial that also tells the server this was not the person's doing.
    const notMe = document.createElement("button");
    notMe.type = "button"; notMe.textContent = "Not me";
    notMe.setAttribute("aria-label", `Not me: ${request.bindingMessage}`);
    notMe.addEventListener("click", () => answer(request, "not_me"));
    if (refused) li.append(expiry, deny, notMe); else li.append(expiry, approve, deny, notMe);
    ul.append(li);
  }
  // A refresh that changes nothing says nothing again, and only the first showing moves the
  // focus: a screen reader is not interrupted every 5 seconds.
  const gone = session.selected && !requests.some((r) => r.authReqId === session.selected);
  const status = gone ? "That request is no longer waiting: it was answered or it expired."
    : requests.length === 0 ? (push.isLive(session.identity) ? "No request is waiting; new requests show here as they arrive." : "No request is waiting; this list looks again every few seconds.")
      : `${requests.length === 1 ? "1 request is" : requests.length + " requests are"} waiting for your answer.`;
  if (gone) session.selected = null;
  if ($("status").textContent !== status) say(status, gone);
  if ($("approvals").hidden) show("approvals");
  const selected = ul.querySelector("li.selected");
  if (selected && !session.shownSelected) { session.shownSelected = true; selected.tabIndex = -1; selected.focus(); selected.scrollIntoView({ block: "center" }); }
}

// RFC 9396 details as "key: value" lines (nested keys joined by dots), as the CLI shows them.
function readableDetails(text) {
  if (!text) return [];
  let parsed;
  try { parsed = JSON.parse(text); } catch { return [text]; }
  const lines = [];
  const walk = (value, key) => {
    if (Array.isArray(value)) { for (const v of value) walk(v, key); return; }
    if (value !== null && typeof value === "object") {
      for (const k of Object.keys(value).sort()) walk(value[k], key ? `${key}.${k}` : k);
      return;
    }
    lines.push(`${key ? key + ": " : ""}${String(value)}`);
  };
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) walk(item, "");
  return lines;
}

async function answer(request, verb) {
  const session = approvalSession;
  if (!session) return;
  clearTimeout(session.timer);
  session.answering = true;
  for (const b of $("approval-list").querySelectorAll("button")) b.disabled = true;
  say(verb === "approve" ? "Signing the approval…" : "Denying…");
  try {
    const status = await client.answerApproval(session.service, session.identity, session.pin, request, verb);
    endApprovals();
    done(status === "approved" ? "Approved" : "Denied",
      status === "approved" ? `You approved "${request.bindingMessage}" for ${request.site}. The site now has your signed approval.`
        : status === "not_me" ? `You denied "${request.bindingMessage}" for ${request.site} as not yours; a mail to ${session.identity.userId} records it.`
          : `You denied "${request.bindingMessage}" for ${request.site}.`);
  } catch (error) {
    endApprovals();
    if (error.status === 404) { done("No longer waiting", `"${request.bindingMessage}" from ${request.site} expired or was already answered.`, true); return; }
    await approvalRefusal(error, session.identity, false);
  }
}

async function approvalRefusal(error, identity, listing = true) {
  if (error.status === 401 && error.code === "wrong_pin") {
    const left = attemptsLeft(error);
    done("Wrong PIN", `Wrong PIN: nothing was ${listing ? "shown" : "answered"}.${left ? " " + left + "." : ""}`, true);
  } else if (!(await identityRefused(error, identity))) {
    if (error.status === 403) done("Cannot approve", error.message, true);
    else {
      done(listing ? "No list" : "Not answered",
        listing ? `The requests could not be fetched: ${error.message}` : `The request could not be answered: ${error.message}`, true);
    }
  }
  return "done";
}

// ---- one-time codes for password-only systems (a VPN, SSH), as `zkpin otp` ---------------------

let otpTimer = null;

function endOneTimeCode() {
  if (otpTimer) { clearInterval(otpTimer); otpTimer = null; }
}

// A push sign-in ("Send a request to my device" on a sign-in page): the three numbers the
// server offers, one of them the page's. The page's number signs that page in with its code
// and the PIN, as a scanned code does; another number, or Not me, denies it there.
async function openPushSignIn(identity, request) {
  if (cannotRun()) return;
  let waiting;
  try { waiting = await push.signInsWaiting(identity); } catch (error) {
    if (!(await identityRefused(error, identity))) say(`The sign-in request could not be fetched: ${error.message}`, true);
    return;
  }
  const found = waiting.find((r) => r.id === request.id);
  if (!found) { done("Nothing to answer", "This sign-in request was answered already, replaced by a newer one, or has expired."); return; }
  const site = escapedText(found.site);
  $("pushsignin-title").textContent = `Sign in to ${site}?`;
  $("pushsignin-text").textContent = `Someone asks to sign in to ${site} as ${identity.userId}. If it is you, tap the number the sign-in page shows; then type your PIN.`;
  const answer = async (body) => {
    say("Answering…");
    let outcome;
    try { outcome = await push.answerSignIn(identity, found.id, body); } catch (error) {
      if (!(await identityRefused(error, identity))) say(`The answer did not reach the server: ${error.message}`, true);
      return;
    }
    if (outcome.outcome === "matched") { await signInWithCode(outcome.accessCode, identity.key); return; }
    if (outcome.outcome === "denied") {
      done("Denied", `That is not the number the page shows, so the sign-in to ${site} was denied there. If it was you, ask again on the page.`, true);
    } else {
      done("Denied", `Nobody was signed in to ${site}; a mail to ${identity.userId} records it.`
        + (outcome.blocked ? " Your identities are blocked until the operator unblocks them." : ""));
    }
  };
  $("pushsignin-numbers").replaceChildren(...found.choices.map((n) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "number"; b.textContent = String(n);
    b.addEventListener("click", () => answer({ choice: n }));
    return b;
  }));
  $("pushsignin-notme").onclick = () => answer({ notMe: true });
  say("");
  show("pushsignin");
}

async function openOneTimeCode(identity) {
  if (cannotRun()) return;
  let service;
  try { service = await client.discover(identity.server); } catch (error) { say(error.message, true); return; }
  askPIN("Enter your PIN", `A one-time code for ${identity.userId}, to type where a VPN or SSH asks for a password.`, async (pin) => {
    say("Getting a code…");
    try {
      const answer = await client.oneTimeCode(service, identity, pin);
      await store.update(identity.key, { lastLogin: new Date().toISOString(), holder: identity.holder, state: "registered" });
      showOneTimeCode(answer, () => openOneTimeCode(identity));
      return "done";
    } catch (error) {
      if (error.status === 401 && error.code === "wrong_pin") {
        const left = attemptsLeft(error);
        say(`Wrong PIN: no code was made.${left ? " " + left + "." : ""}`, true);
        $("pin-title").textContent = "Wrong PIN: try again";
        return "again";
      }
      if (await identityRefused(error, identity)) return "done";
      // 400: the server has no system that takes codes, or several (its message names them).
      done("No one-time code", `The server made no code: ${error.message}`, true);
      return "done";
    }
  });
}

// The code, what it is for, the seconds it stays valid (counted down here from the server's
// expiresIn, so the phone's clock does not matter) and a copy button.
function showOneTimeCode(answer, again) {
  endOneTimeCode();
  const code = $("otp-code");
  code.textContent = answer.otp;
  code.setAttribute("aria-label", `One-time code: ${[...answer.otp].join(" ")}`);
  code.classList.remove("expired");
  $("otp-for").textContent = `For ${answer.service}, as ${answer.userId}. Type it where the password is asked: it works once.`;
  $("otp-copied").textContent = "";
  $("otp-copy").hidden = !navigator.clipboard;
  $("otp-copy").disabled = false;
  $("otp-again").onclick = again;
  const until = Date.now() + answer.expiresIn * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    if (left > 0) { $("otp-left").textContent = `Valid for ${left} more second${left === 1 ? "" : "s"}.`; return; }
    endOneTimeCode();
    $("otp-left").textContent = "Expired: get another code.";
    $("otp-copy").disabled = true;
    code.classList.add("expired");
  };
  tick();
  otpTimer = setInterval(tick, 1000);
  say("");
  show("otp");
}

// ---- in-app camera scan, where the browser has BarcodeDetector (Android's Chrome; not desktop Linux)

let scanning = null;

async function scan() {
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  } catch (error) { say(`The camera is not available: ${error.message}`, true); return; }
  const video = $("camera-video");
  video.srcObject = stream;
  $("camera").hidden = false;
  await video.play();
  const detector = new BarcodeDetector({ formats: ["qr_code"] });
  const stop = () => { clearTimeout(scanning); scanning = null; stream.getTracks().forEach((t) => t.stop()); $("camera").hidden = true; };
  $("camera-stop").onclick = stop;
  const look = async () => {
    try {
      for (const code of await detector.detect(video)) {
        // Only this server's payloads (<origin>/#<code>): another server's app signs in there.
        const url = new URL(code.rawValue);
        if (url.origin === location.origin && /^#[0-9]{7}$/.test(url.hash)) { stop(); signInWithCode(url.hash.slice(1)); return; }
        say(`That QR code is not a sign-in code of ${location.origin}.`, true);
      }
    } catch { /* not a URL, or no frame yet */ }
    scanning = setTimeout(look, 300);
  };
  look();
}

// ---- start -----------------------------------------------------------------------------------

function codeFromFragment() {
  const code = decodeURIComponent(location.hash.replace(/^#/, "")).replace(/\D/g, "");
  if (location.hash) history.replaceState(null, "", location.pathname);  // the code is single use
  return code;
}

async function start() {
  if (unavailable) {
    // Said once, above every screen; the steps that cannot run are not offered.
    $("unavailable").textContent = unavailable;
    $("unavailable").hidden = false;
    for (const id of ["add", "register-submit", "code", "code-submit"]) {
      $(id).disabled = true;
      $(id).setAttribute("aria-describedby", "unavailable");
    }
  }
  setupPad();
  $("server").value = location.origin;
  $("add").addEventListener("click", () => { say(""); show("register"); });
  $("register-form").addEventListener("submit", startRegistration);
  for (const b of document.querySelectorAll("button.cancel")) b.addEventListener("click", () => { say(""); renderHome(); });
  $("done-home").addEventListener("click", () => renderHome());
  $("otp-copy").addEventListener("click", () => {
    navigator.clipboard.writeText($("otp-code").textContent).then(() => { $("otp-copied").textContent = "Copied."; },
      () => { $("otp-copied").textContent = "The browser did not allow copying: type the code."; });
  });
  $("approvals-again").addEventListener("click", () => { if (approvalSession) { clearTimeout(approvalSession.timer); approvalSession.until = Date.now() + 120000; const { identity } = approvalSession; listApprovals().catch((error) => { endApprovals(); approvalRefusal(error, identity); }); } });
  if ("BarcodeDetector" in window && navigator.mediaDevices && !unavailable) {
    $("scan").hidden = false;
    $("scan").addEventListener("click", scan);
  }
  $("code-form").addEventListener("submit", (event) => { event.preventDefault(); signInWithCode($("code").value.trim()); });
  window.addEventListener("hashchange", () => { const code = codeFromFragment(); if (code) signInWithCode(code); });
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/app/sw.js", { scope: "/app/" }).catch(() => {});
  await store.applyRevocations();
  // The operator's service name in the header (the logo and colour come with the stylesheet).
  client.discover(location.origin).then((service) => { if (service && service.name) $("brand-name").textContent = service.name; }).catch(() => {});
  const code = codeFromFragment();
  if (code) { await renderHome(); await signInWithCode(code); } else await renderHome();
  // A live event or a (re)connected stream: the open list of that identity looks again at once;
  // elsewhere push.js shows the request.
  const listAgain = (identity) => {
    if (!approvalSession || approvalSession.identity.key !== identity.key || $("approvals").hidden) return false;
    listApprovals().catch((error) => { endApprovals(); approvalRefusal(error, identity); });
    return true;
  };
  push.start({
    open: (identity, request) => openApprovals(identity, request),
    signin: (identity, request) => openPushSignIn(identity, request),
    event: (identity, payload) => payload.kind === "approval" && listAgain(identity),
    live: listAgain,
  });
}

start();
