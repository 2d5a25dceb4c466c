// Notifications of requests (Web Push) and live requests while the app is open
// (docs/web-app.md "Notifications"). The browser's push subscription is stored with the server
// for one identity, proved by its holder proof (docs/api.md "Push"); the service worker
// (sw.js, notification.js) shows each message and, when it is tapped, brings the app to that
// request, which the person then sees and answers with the PIN as any request. While the app
// is open it also reads /rps/push/events (server-sent events, through fetch: EventSource
// cannot send the holder proof) for each ready identity, so new requests show at once.
import * as store from "/app/identities.js";
import { ServerAnswer } from "/app/client.js";
import { escapedText } from "/app/display.js";
import { base64urlBytes, DENIED, EventStreamParser, pushUnavailable, sameApplicationServerKey } from "/app/push-support.js";

const $ = (id) => document.getElementById(id);

// What app.js does with a request: `open(identity, request)` lists that identity's requests
// with `request` ({id, site, message}) selected (the PIN first); `event(identity, payload)`
// is true when the screen on show took a live event (the open list looks again); `live(identity)`
// when its stream (re)connects: an open list looks again, for what came before the stream.
let hooks = { open: () => {}, signin: () => {}, event: () => false, live: () => {} };

function say(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

const withTimeout = (promise, ms, what) => Promise.race([
  promise, new Promise((_, reject) => setTimeout(() => reject(new Error(what)), ms))]);

// ---- the server's push API -------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: {}, cache: "no-store", credentials: "omit" };
  if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  const response = await fetch(`${location.origin}/rps/push/${path}`, init);
  let json = null;
  try { json = await response.json(); } catch { json = null; }
  if (!response.ok) throw new ServerAnswer(response.status, json, `${method} /rps/push/${path}`);
  return json;
}

const proof = (identity) => ({ mpinId: identity.mpinId, holder: identity.holder });

/** The push sign-ins waiting for the identity's person: [{id, site, choices, expires}]. */
export async function signInsWaiting(identity) {
  return (await api("POST", "signin/pending", proof(identity))).requests || [];
}

/** Answers a push sign-in: `{choice: N}` or `{notMe: true}`; the server's {outcome, accessCode?, blocked?}. */
export async function answerSignIn(identity, id, answer) {
  return api("POST", "signin/answer", { ...proof(identity), id, ...answer });
}

// ---- whether this browser can, and whether an identity gets notifications -----------------

function environment() {
  return {
    secure: window.isSecureContext, serviceWorker: "serviceWorker" in navigator, pushManager: "PushManager" in window,
    notification: "Notification" in window, permission: "Notification" in window ? Notification.permission : "default",
    userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints || 0,
    standalone: navigator.standalone === true || matchMedia("(display-mode: standalone)").matches,
  };
}

/** Why this browser gets no notifications (a sentence to show), or null. */
export const unavailable = () => pushUnavailable(environment());

const ours = (identity) => identity.server === location.origin && identity.state === "registered";

async function registration() {
  return withTimeout(navigator.serviceWorker.ready, 10000, "the app's service worker is not running: reload the app and try again");
}

async function currentSubscription() {
  if (unavailable()) return null;
  const found = await navigator.serviceWorker.getRegistration("/app/");
  return found ? found.pushManager.getSubscription() : null;
}

/** The browser's subscription for the server's VAPID key: the one it has, or (with `create`)
 *  a new one; one made with another key (the operator rotated it) is dropped first. */
async function subscriptionFor(vapidPublicKey, create) {
  const { pushManager } = await registration();
  let subscription = await pushManager.getSubscription();
  // A browser that does not tell the key (no `options`) keeps its subscription.
  const made = subscription && subscription.options && subscription.options.applicationServerKey;
  if (made && !sameApplicationServerKey(made, vapidPublicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription && create) {
    subscription = await withTimeout(
      pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(vapidPublicKey) }),
      30000, "the browser's push service did not answer: try again later");
  }
  return subscription;
}

/** Stores the subscription with the server for `identity`. The server keeps an endpoint for
 *  one identity, so another identity of this browser that had it has it no longer. */
async function save(identity, subscription) {
  const { endpoint, keys } = subscription.toJSON();
  await api("POST", "subscriptions", { ...proof(identity), endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } });
  for (const other of await store.all()) {
    if (other.key !== identity.key && other.pushEndpoint === endpoint) await store.update(other.key, { pushEndpoint: undefined });
  }
  await store.update(identity.key, { pushEndpoint: endpoint });
}

/** Turns notifications on for `identity`: only from a tap (the browser asks the person). */
export async function turnOn(identity) {
  const reason = unavailable();
  if (reason) throw new Error(reason);
  if (!identity.holder) throw new Error("Sign in once with this identity on this device, then turn notifications on.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(permission === "denied" ? DENIED : "Notifications were not allowed.");
  const { vapidPublicKey } = await api("GET", "settings");
  await save(identity, await subscriptionFor(vapidPublicKey, true));
}

/** Turns them off on both sides: the server forgets the subscription, and the browser drops it
 *  when no identity here uses it any more. */
export async function turnOff(identity) {
  const fresh = (await store.get(identity.key)) || identity;
  if (fresh.pushEndpoint && fresh.holder) {
    try { await api("DELETE", "subscriptions", { ...proof(fresh), subscription: fresh.pushEndpoint }); } catch (error) {
      // 404: gone already (a push service said so); 403: the identity is revoked or blocked.
      if (error.status !== 404 && error.status !== 403) throw error;
    }
  }
  if (await store.get(identity.key)) await store.update(identity.key, { pushEndpoint: undefined });
  const subscription = await currentSubscription();
  if (subscription && !(await store.all()).some((i) => i.pushEndpoint === subscription.endpoint)) await subscription.unsubscribe();
}

/** Before an identity is removed from this browser: its subscription goes too (quietly). */
export async function forget(identity) {
  stopStream(identity.key);
  try { await turnOff(identity); } catch { /* offline: the server drops it when the push service says it is gone */ }
}

/** Whether notifications reach `identity` here: it holds this browser's subscription. */
async function isOn(identity) {
  if (!identity.pushEndpoint || unavailable() || Notification.permission !== "granted") return false;
  const subscription = await currentSubscription();
  return !!subscription && subscription.endpoint === identity.pushEndpoint;
}

/** On start: the identity that has notifications keeps them. A subscription made with another
 *  VAPID key (the operator rotated it) or dropped by the browser is made again and stored; one
 *  the server no longer lists (a push service said it was gone) is stored again. */
export async function sync() {
  if (unavailable() || Notification.permission !== "granted") return;
  const on = (await store.all()).filter((i) => ours(i) && i.pushEndpoint && i.holder);
  if (on.length === 0) return;
  const { vapidPublicKey } = await api("GET", "settings");
  const subscription = await subscriptionFor(vapidPublicKey, true);
  for (const identity of on) {
    if (identity.pushEndpoint !== subscription.endpoint) {
      try { await api("DELETE", "subscriptions", { ...proof(identity), subscription: identity.pushEndpoint }); } catch { /* gone already */ }
      await save(identity, subscription);
    } else {
      const { subscriptions } = await api("POST", "subscriptions/list", proof(identity));
      if (!subscriptions.some((s) => s.endpoint === subscription.endpoint)) await save(identity, subscription);
    }
  }
}

// ---- what the screens show -------------------------------------------------------------------

function button(text, label, action) {
  const b = document.createElement("button");
  b.type = "button"; b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", action);
  return b;
}

async function tapOn(identity, after) {
  say("Turning notifications on…");
  try {
    await turnOn(identity);
    say(`Notifications are on: ${identity.userId} gets one when a site asks for an approval.`);
  } catch (error) {
    say(`Notifications are not on: ${error.message}`, true);
  }
  after();
}

/** The line of an identity on the home screen: whether notifications are on, with the button
 *  that turns them on or off, or why this browser cannot have them. */
export function controls(identity) {
  const box = document.createElement("div");
  box.className = "push";
  const render = async () => {
    const fresh = (await store.get(identity.key)) || identity;
    const text = document.createElement("span");
    const reason = unavailable();
    if (reason) {
      text.textContent = `Notifications: not available here. ${reason}`;
      box.replaceChildren(text);
    } else if (await isOn(fresh)) {
      text.textContent = "Notifications: on";
      box.replaceChildren(text, button("Turn off notifications", `Turn off notifications for ${fresh.userId}`, async () => {
        say("Turning notifications off…");
        try { await turnOff(fresh); say(`Notifications for ${fresh.userId} are off.`); } catch (error) {
          say(`Notifications could not be turned off: ${error.message}`, true);
        }
        render();
      }));
    } else {
      text.textContent = "Notifications: off";
      box.replaceChildren(text, button("Get notified of requests", `Get notified of requests for ${fresh.userId}`, () => tapOn(fresh, render)));
    }
  };
  render();
  return box;
}

/** After a registration or sign-in (the done screen): "Get notified of requests", or why not;
 *  nothing when they are on already. `identity` null hides it. */
export async function offer(identity) {
  const box = $("push-offer");
  box.replaceChildren();
  box.hidden = true;
  if (!identity) return;
  const fresh = await store.get(identity.key);  // as stored now: registered, with its holder proof
  if (!fresh || !ours(fresh) || await isOn(fresh)) return;
  const text = document.createElement("p");
  const reason = unavailable();
  if (reason) {
    text.textContent = `Notifications of requests are not available here. ${reason}`;
    box.replaceChildren(text);
  } else {
    text.textContent = "Get a notification when a site asks you to approve something: you answer it here, with your PIN.";
    box.replaceChildren(text, button("Get notified of requests", `Get notified of requests for ${fresh.userId}`, () => tapOn(fresh, () => offer(fresh))));
  }
  box.hidden = false;
}

// ---- requests shown while the app is open: a list above the screens --------------------------

const shownLive = new Map();  // tag -> {li, timer}

function showLive(identity, payload) {
  const tag = payload.kind === "identity" ? "identity-" + identity.key + "-" + payload.device : payload.kind + "-" + payload.id;
  const li = document.createElement("li");
  const text = document.createElement("span");
  if (payload.kind === "signin") {
    const site = escapedText(String(payload.site || "a site"));
    text.textContent = `Sign in to ${site}?`;
    li.append(text, button("Answer", `Answer the sign-in to ${site}`, () => { dropLive(tag); hooks.signin(identity, { id: payload.id, site }); }));
  } else if (payload.kind === "approval") {
    const request = { id: payload.id, site: escapedText(String(payload.site || "A site")), message: escapedText(String(payload.message || "")) };
    text.textContent = `${request.site} asks: ${request.message}`;
    li.append(text, button("Answer", `Answer: ${request.message}`, () => { dropLive(tag); hooks.open(identity, request); }));
  } else {
    text.textContent = `A new device was added to ${identity.userId}: ${escapedText(String(payload.device || "?"))}. If it was not you, revoke it on your account page.`;
    li.append(text, button("OK", "Dismiss the new device notice", () => dropLive(tag)));
  }
  dropLive(tag);
  const left = Math.max(1, payload.expires - Math.floor(Date.now() / 1000));
  shownLive.set(tag, { li, timer: setTimeout(() => dropLive(tag), Math.min(left, 86400) * 1000) });
  $("live-list").append(li);
  $("live").hidden = false;
}

function dropLive(tag) {
  const shown = shownLive.get(tag);
  if (!shown) return;
  clearTimeout(shown.timer);
  shown.li.remove();
  shownLive.delete(tag);
  $("live").hidden = shownLive.size === 0;
}

// ---- the live stream of one identity's events (GET /rps/push/events) -------------------------

const streams = new Map();   // identity key -> LiveStream
const resumeAt = new Map();  // identity key -> the last event id a stopped stream saw
const seen = new Map();      // request id -> identity key, from the streams

class LiveStream {
  constructor(identity, lastEventId) {
    this.identity = identity;
    this.parser = new EventStreamParser(lastEventId || "");
    this.live = false;
    this.stopped = false;
    this.controller = null;
    this.failures = 0;
  }

  stop() {
    this.stopped = true;
    this.live = false;
    if (this.controller) this.controller.abort();
  }

  async run() {
    while (!this.stopped) {
      let wait;
      try {
        wait = await this.connect();
      } catch {
        // Offline, the server restarting, a proxy cutting the stream: again, less and less often.
        this.failures++;
        wait = Math.min(60000, (this.parser.retry || 2000) * 2 ** Math.min(this.failures, 5));
      }
      this.live = false;
      this.parser.reset();
      if (!this.stopped && wait !== null) await new Promise((resolve) => setTimeout(resolve, wait));
      else break;
    }
  }

  /** One connection, read to its end: the wait before the next (null: never again). */
  async connect() {
    this.controller = new AbortController();
    const headers = { Accept: "text/event-stream", "X-ZKPin-Identity": this.identity.mpinId, "X-ZKPin-Holder": this.identity.holder };
    if (this.parser.lastEventId) headers["Last-Event-ID"] = this.parser.lastEventId;
    const response = await fetch(`${location.origin}/rps/push/events`, { headers, cache: "no-store", credentials: "omit", signal: this.controller.signal });
    // 403: no longer this identity's (revoked, blocked): the open list polls instead.
    if (response.status === 400 || response.status === 403) { this.stopped = true; return null; }
    if (response.status === 429) return 10000;  // three streams open already (other tabs)
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    this.live = true;
    this.failures = 0;
    hooks.live(this.identity);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const event of this.parser.feed(decoder.decode(value, { stream: true }))) this.deliver(event);
    }
    return this.parser.retry || 2000;  // the server ends a stream after a while: the client reconnects
  }

  deliver(event) {
    let payload;
    try { payload = JSON.parse(event.data); } catch { return; }
    if (!payload || typeof payload !== "object" || typeof payload.expires !== "number") return;
    if (payload.expires <= Math.floor(Date.now() / 1000)) return;
    if ((payload.kind === "approval" || payload.kind === "signin") && typeof payload.id === "string") seen.set(payload.id, this.identity.key);
    else if (payload.kind !== "identity") return;
    if (!hooks.event(this.identity, payload)) showLive(this.identity, payload);
  }
}

function stopStream(key) {
  const stream = streams.get(key);
  if (!stream) return;
  stream.stop();
  streams.delete(key);
  if (stream.parser.lastEventId) resumeAt.set(key, stream.parser.lastEventId);
}

/** Reads the live events of every ready identity in `list` (those holding a holder proof) and
 *  stops reading for the others; the app calls it whenever it lists its identities. */
export function watch(list) {
  if (document.hidden) return;
  const wanted = new Map(list.filter((i) => ours(i) && i.holder).map((i) => [i.key, i]));
  for (const key of [...streams.keys()]) {
    const stream = streams.get(key);
    // A stream the server refused (revoked, blocked) is not tried again with the same proof:
    // each refusal counts against this address.
    if (!wanted.has(key) || stream.identity.holder !== wanted.get(key).holder) stopStream(key);
  }
  for (const [key, identity] of wanted) {
    if (streams.has(key)) continue;
    const stream = new LiveStream(identity, resumeAt.get(key));
    streams.set(key, stream);
    stream.run();
  }
}

/** Whether new requests of `identity` arrive by themselves now (else the open list polls). */
export const isLive = (identity) => !!(streams.get(identity.key) && streams.get(identity.key).live);

// ---- a tapped notification: the app on that request ------------------------------------------

/** The identity a request is for: the one a live stream saw it for, else the one that holds
 *  this browser's push subscription, else the only identity here that can approve. */
async function identityFor(requestId) {
  const ready = (await store.all()).filter((i) => ours(i) && i.signingKey);
  const fromStream = ready.find((i) => i.key === seen.get(requestId));
  if (fromStream) return fromStream;
  const subscription = await currentSubscription().catch(() => null);
  const holding = subscription && ready.find((i) => i.pushEndpoint === subscription.endpoint);
  if (holding) return holding;
  return ready.length === 1 ? ready[0] : null;
}

/** A tapped sign-in notification: the identity whose stream saw it, else the one holding this
 *  browser's subscription, else the only one here with a holder proof. */
export async function openSignIn(request) {
  const ready = (await store.all()).filter((i) => ours(i) && i.holder);
  const subscription = await currentSubscription().catch(() => null);
  const identity = ready.find((i) => i.key === seen.get(request.id))
    || (subscription && ready.find((i) => i.pushEndpoint === subscription.endpoint)) || (ready.length === 1 ? ready[0] : null);
  if (!identity) {
    say("A sign-in request is waiting: open it from the identity it is for.", true);
    return;
  }
  dropLive("signin-" + request.id);
  hooks.signin(identity, request);
}

export async function openRequest(request) {
  const identity = await identityFor(request.id);
  if (!identity) {
    say("A request is waiting: open \"Requests to approve\" of the identity it is for.", true);
    return;
  }
  dropLive("approval-" + request.id);
  hooks.open(identity, request);
}

/** Connects the app's screens (`open`, `event`: see `hooks` above), opens the request a tapped
 *  notification names (`?request=<id>` when the app was not open, a message from the service
 *  worker when it was), and keeps the live streams to the times the app is on screen. */
export function start(appHooks) {
  hooks = { ...hooks, ...appHooks };
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const data = event.data || {};
      if (data.type === "zkpin-signin" && typeof data.id === "string") openSignIn({ id: data.id, site: typeof data.site === "string" ? data.site : "" });
      if (data.type === "zkpin-request" && typeof data.id === "string") {
        openRequest({ id: data.id, site: typeof data.site === "string" ? data.site : "", message: typeof data.message === "string" ? data.message : "" });
      }
    });
    navigator.serviceWorker.startMessages();
  }
  document.addEventListener("visibilitychange", async () => {
    // Hidden: the streams close (the server holds 3 per identity); shown again, they resume
    // from the last event seen (Last-Event-ID), so nothing that came meanwhile is missed.
    if (document.hidden) { for (const key of [...streams.keys()]) stopStream(key); } else watch(await store.all());
  });
  sync().catch(() => { /* offline, or the browser refused: the identity's line says notifications are off */ });
  const signIn = new URLSearchParams(location.search).get("signin");
  if (signIn) {
    history.replaceState(null, "", location.pathname + location.hash);
    openSignIn({ id: signIn, site: "" });
  }
  const asked = new URLSearchParams(location.search).get("request");
  if (asked) {
    history.replaceState(null, "", location.pathname + location.hash);
    openRequest({ id: asked, site: "", message: "" });
  }
}
