// The web app's push logic that touches no browser API (web/app/push-support.js): the VAPID key
// comparison that makes the app subscribe again after a rotation, why push is unavailable
// (iOS first), and server-sent events parsed from chunks split anywhere.

import assert from "node:assert/strict";
import test from "node:test";
import { appleMobile, base64urlBytes, EventStreamParser, HOME_SCREEN, DENIED, pushUnavailable, sameApplicationServerKey } from "../app/push-support.js";
import { seededRandom } from "../test-support/seeded-random.js";

const toBase64url = (bytes) => Buffer.from(bytes).toString("base64url");

test("base64url decodes with or without padding and refuses other text", () => {
  assert.deepEqual([...base64urlBytes("AQID_-8")], [1, 2, 3, 255, 239]);
  assert.deepEqual([...base64urlBytes("AQID_-8=")], [1, 2, 3, 255, 239]);
  assert.deepEqual([...base64urlBytes("")], []);
  for (const bad of ["AQ+D", "AQ/D", "A", "AQ ID", 42, null]) assert.throws(() => base64urlBytes(bad), /base64url/, String(bad));
});

test("a subscription's key is compared byte for byte with the server's VAPID key", () => {
  const random = seededRandom();
  const key = random.bytes(65);
  key[0] = 4;
  const vapid = toBase64url(key);
  assert.equal(sameApplicationServerKey(key.buffer, vapid), true, random.note);
  assert.equal(sameApplicationServerKey(new Uint8Array([9, ...key, 9]).subarray(1, 66), vapid), true);
  const rotated = Uint8Array.from(key);
  rotated[64] ^= 1;
  assert.equal(sameApplicationServerKey(rotated.buffer, vapid), false, "one bit changed");
  assert.equal(sameApplicationServerKey(key.slice(0, 64).buffer, vapid), false, "shorter");
  assert.equal(sameApplicationServerKey(null, vapid), false, "a subscription without a key");
  assert.equal(sameApplicationServerKey(key.buffer, "not base64url!"), false);
});

const agents = {
  iphone15: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  iphone163: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Mobile/15E148 Safari/604.1",
  chromeIOS: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  ipadOS: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  android: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36",
  firefox: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
};

test("iOS and iPadOS are told from the user agent (iPadOS by its touch screen), with the version", () => {
  assert.deepEqual(appleMobile(agents.iphone15), { major: 17, minor: 5 });
  assert.deepEqual(appleMobile(agents.chromeIOS), { major: 17, minor: 4 });
  assert.deepEqual(appleMobile(agents.ipadOS, 5), { major: 17, minor: 4 });
  assert.equal(appleMobile(agents.ipadOS, 0), null, "a Mac without a touch screen");
  assert.equal(appleMobile(agents.android, 5), null);
  assert.equal(appleMobile(agents.firefox), null);
});

test("why push is unavailable: iOS in a browser tab needs the home screen, whatever else is missing", () => {
  const able = { secure: true, serviceWorker: true, pushManager: true, notification: true, permission: "default", maxTouchPoints: 5, standalone: false };
  // Safari in a tab has no PushManager: the reason to give is the home screen, not "no Push API".
  assert.equal(pushUnavailable({ ...able, pushManager: false, notification: false, userAgent: agents.iphone15 }), HOME_SCREEN);
  assert.equal(pushUnavailable({ ...able, userAgent: agents.chromeIOS }), HOME_SCREEN);
  assert.equal(pushUnavailable({ ...able, userAgent: agents.ipadOS }), HOME_SCREEN);
  assert.equal(pushUnavailable({ ...able, standalone: true, userAgent: agents.iphone15 }), null, "on the home screen");
  assert.match(pushUnavailable({ ...able, standalone: true, userAgent: agents.iphone163 }), /iOS 16\.3: notifications need iOS 16\.4 or later/);
  assert.equal(pushUnavailable({ ...able, userAgent: agents.android }), null);
  assert.match(pushUnavailable({ ...able, pushManager: false, userAgent: agents.firefox }), /no service worker or Push API/);
  assert.match(pushUnavailable({ ...able, serviceWorker: false, userAgent: agents.firefox }), /no service worker or Push API/);
  assert.match(pushUnavailable({ ...able, secure: false, userAgent: agents.android }), /secure context/);
  assert.equal(pushUnavailable({ ...able, permission: "denied", userAgent: agents.android }), DENIED);
});

const stream = "retry: 2000\n\n: alive\n\nid: 7\nevent: approval\ndata: {\"kind\":\"approval\",\"id\":\"r1\",\"site\":\"Bänk\"}\n\n"
  + "id: 8\r\nevent: identity\r\ndata: {\"kind\":\"identity\",\r\ndata: \"device\":\"phone\"}\r\n\r\n"
  + "data:no space\rid\r\r"
  + "event: approval\nid: 9\0\ndata\n\n";
const expected = [
  { type: "approval", data: "{\"kind\":\"approval\",\"id\":\"r1\",\"site\":\"Bänk\"}", id: "7" },
  { type: "identity", data: "{\"kind\":\"identity\",\n\"device\":\"phone\"}", id: "8" },
  { type: "message", data: "no space", id: "" },
  { type: "approval", data: "", id: "" },
];

test("server-sent events: fields, comments, CR, LF and CRLF, multi-line data, id and retry", () => {
  const parser = new EventStreamParser();
  assert.deepEqual(parser.feed(stream), expected);
  assert.equal(parser.retry, 2000);
  assert.equal(parser.lastEventId, "", "an empty id field resets it; one with NUL is ignored");
});

test("server-sent events split at every place, and in random chunks, parse the same", () => {
  for (let cut = 0; cut <= stream.length; cut++) {
    const parser = new EventStreamParser();
    const events = [...parser.feed(stream.slice(0, cut)), ...parser.feed(stream.slice(cut))];
    assert.deepEqual(events, expected, `cut at ${cut}: ${JSON.stringify(stream.slice(cut - 2, cut + 2))}`);
  }
  const random = seededRandom();
  for (let round = 0; round < 200; round++) {
    const parser = new EventStreamParser();
    const events = [];
    for (let at = 0; at < stream.length;) {
      const size = 1 + (random.bytes(1)[0] % 12);
      events.push(...parser.feed(stream.slice(at, at + size)));
      at += size;
    }
    assert.deepEqual(events, expected, `round ${round}${random.note}`);
  }
});

test("a reconnection keeps the last event id and drops the half-read event", () => {
  const parser = new EventStreamParser("41");
  assert.deepEqual(parser.feed("id: 42\ndata: {\"kind\":\"approval\"}\n\nid: 43\ndata: half"), [
    { type: "message", data: "{\"kind\":\"approval\"}", id: "42" }]);
  parser.reset();  // the connection ended mid-event
  assert.equal(parser.lastEventId, "43", "the id line was read: Last-Event-ID says 43 (the server resumes after it)");
  assert.deepEqual(parser.feed("\ufeffdata: next\n\n"), [{ type: "message", data: "next", id: "43" }], "a byte order mark opens a connection's stream");
});
