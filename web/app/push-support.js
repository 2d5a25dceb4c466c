// What the web app's notifications need that touches no browser API, so node tests it
// (web/test/push-support.test.js): the VAPID key as bytes and compared with a subscription's,
// why push is unavailable here (iOS first: there it needs the app on the home screen), and the
// parsing of server-sent events read with fetch (EventSource cannot send the holder proof).

/** The bytes of base64url `text` (padding optional); throws on anything else. */
export function base64urlBytes(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) {
    throw new Error("not base64url");
  }
  const plain = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Whether a subscription's `options.applicationServerKey` (an ArrayBuffer, or null) is the
 *  server's VAPID key (base64url). A subscription made with another key (the operator rotated
 *  it) gets no message the server signs now: the push service refuses them. */
export function sameApplicationServerKey(subscriptionKey, vapidPublicKey) {
  if (!subscriptionKey) return false;
  let wanted;
  try { wanted = base64urlBytes(vapidPublicKey); } catch { return false; }
  const have = new Uint8Array(ArrayBuffer.isView(subscriptionKey) ? subscriptionKey.buffer.slice(subscriptionKey.byteOffset, subscriptionKey.byteOffset + subscriptionKey.byteLength) : subscriptionKey);
  return have.length === wanted.length && have.every((b, i) => b === wanted[i]);
}

/** iOS or iPadOS (iPadOS says "Macintosh" but has a touch screen), with its version when the
 *  user agent tells it ("OS 16_4 like Mac OS X", or Safari's "Version/16.4"); else null. */
export function appleMobile(userAgent, maxTouchPoints = 0) {
  const ua = String(userAgent || "");
  const ios = /\b(iPhone|iPad|iPod)\b/.test(ua) || (/\bMacintosh\b/.test(ua) && maxTouchPoints > 1);
  if (!ios) return null;
  const m = ua.match(/\bOS (\d+)[_.](\d+)/) || ua.match(/\bVersion\/(\d+)\.(\d+)/);
  return { major: m ? Number(m[1]) : null, minor: m ? Number(m[2]) : null };
}

export const HOME_SCREEN = "On iPhone and iPad, notifications need ZKPin on the home screen: tap Share, then Add to Home Screen, and open ZKPin from there (iOS 16.4 or later).";
export const DENIED = "Notifications are blocked for this site: allow them in the browser's site settings, then try again.";

/** Why this browser cannot get notifications, or null when it can. `env`: {secure,
 *  serviceWorker, pushManager, notification (booleans), permission, userAgent, maxTouchPoints,
 *  standalone (opened from the home screen)}. */
export function pushUnavailable(env) {
  const apple = appleMobile(env.userAgent, env.maxTouchPoints);
  if (apple) {
    if (apple.major !== null && (apple.major < 16 || (apple.major === 16 && apple.minor < 4))) {
      return `This iPhone or iPad runs iOS ${apple.major}.${apple.minor}: notifications need iOS 16.4 or later, with ZKPin on the home screen.`;
    }
    if (!env.standalone) return HOME_SCREEN;
  }
  if (!env.secure) return "Notifications need a secure context: open the app over https.";
  if (!env.serviceWorker || !env.pushManager || !env.notification) {
    return "This browser cannot receive notifications (it has no service worker or Push API). The app still shows requests while it is open.";
  }
  if (env.permission === "denied") return DENIED;
  return null;
}

/** Server-sent events (the WHATWG event stream format) from text chunks as they arrive: a
 *  line may end with CR, LF or CRLF and be split anywhere, even between its CR and LF. `feed`
 *  returns the events each chunk completes: {type, data, id}. `lastEventId` and `retry` (ms)
 *  outlive a reconnection; `reset()` drops a half-read event when a connection ends. */
export class EventStreamParser {
  constructor(lastEventId = "") {
    this.lastEventId = lastEventId;
    this.retry = null;
    this.reset();
  }

  reset() {
    this.buffer = "";
    this.data = [];
    this.type = "";
    this.started = false;
    this.afterCR = false;
  }

  feed(chunk) {
    let text = String(chunk);
    if (!this.started && text.length) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR that ended the last chunk already ended its line: a LF starting this one belongs to it.
    if (this.afterCR && text.startsWith("\n")) text = text.slice(1);
    this.afterCR = false;
    this.buffer += text;
    const events = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      this.line(this.buffer.slice(start, i), events);
      if (c === "\r") {
        if (i + 1 < this.buffer.length) { if (this.buffer[i + 1] === "\n") i++; } else this.afterCR = true;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  line(line, events) {
    if (line === "") {
      if (this.data.length) events.push({ type: this.type || "message", data: this.data.join("\n"), id: this.lastEventId });
      this.data = [];
      this.type = "";
      return;
    }
    if (line.startsWith(":")) return;  // a comment (the server's keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.type = value;
    else if (field === "id") { if (!value.includes("\0")) this.lastEventId = value; }
    else if (field === "retry") { if (/^[0-9]+$/.test(value)) this.retry = Number(value); }
  }
}
