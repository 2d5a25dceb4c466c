// What the service worker shows for a push message (web/app/notification.js, a classic script
// loaded here as the service worker loads it): the site and the binding message as plain text,
// escaped by the app's display rule, one tag per request, and nothing but the request's id to
// act on.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import vm from "node:vm";
import { escapedText } from "../app/display.js";

const worker = {};
vm.runInNewContext(readFileSync(new URL("../app/notification.js", import.meta.url), "utf8"), worker);
const { notificationFor } = worker;
const now = 1_800_000_000;
// Objects made in the other context compare by value after a JSON round trip.
const plain = (value) => JSON.parse(JSON.stringify(value));

test("an approval: 'Bank asks: Pay 100 EUR to Bob', tagged by its request, opening the app on it", () => {
  const shown = plain(notificationFor({ kind: "approval", id: "r-1", site: "Bank", message: "Pay 100 EUR to Bob", expires: now + 300 }, now));
  assert.deepEqual(shown, {
    title: "Bank asks: Pay 100 EUR to Bob",
    options: {
      body: "Open ZKPin to approve or deny it with your PIN.",
      tag: "zkpin-approval-r-1",
      icon: "/app/icon-192.png",
      data: { kind: "approval", id: "r-1", site: "Bank", message: "Pay 100 EUR to Bob", url: "/app/?request=r-1" },
    },
  });
  const again = plain(notificationFor({ kind: "approval", id: "r-1", site: "Bank", message: "Pay 100 EUR to Bob", expires: now + 300 }, now + 5));
  assert.equal(again.options.tag, shown.options.tag, "a repeat replaces the first");
  assert.notEqual(plain(notificationFor({ kind: "approval", id: "r-2", site: "Bank", message: "x", expires: now + 1 }, now)).options.tag, shown.options.tag);
  assert.equal(plain(notificationFor({ kind: "approval", id: "a b&c", site: "S", message: "m", expires: now }, now)).options.data.url, "/app/?request=a%20b%26c");
});

test("a new identity: 'A new device was added: phone'", () => {
  const shown = plain(notificationFor({ kind: "identity", device: "phone", expires: now + 60 }, now));
  assert.equal(shown.title, "A new device was added: phone");
  assert.match(shown.options.body, /revoke it on your account page/);
  assert.equal(shown.options.tag, "zkpin-identity-phone");
  assert.equal(shown.options.data.url, "/app/");
});

test("text the display rule refuses is shown escaped, as the app and the CLI show it", () => {
  for (const [site, message] of [["Ba\u202enk", "Pay 1 EUR\u2028Pay 1000 EUR"], ["Bank", "1 EUR\u001b[2K\r9999 EUR"], ["<b>Bank</b>", "a\u200bb &amp;"]]) {
    const shown = plain(notificationFor({ kind: "approval", id: "r", site, message, expires: now + 9 }, now));
    assert.equal(shown.title, `${escapedText(site)} asks: ${escapedText(message)}`);
    assert.doesNotMatch(shown.title, /[\u202e\u2028\u001b\r\u200b]/);
  }
  assert.equal(plain(notificationFor({ kind: "identity", device: "ph\u202eone" }, now)).title, "A new device was added: ph\\u{202E}one");
});

test("an expired request says so; a long message is cut; missing fields have words", () => {
  assert.equal(plain(notificationFor({ kind: "approval", id: "r", site: "Bank", message: "m", expires: now }, now)).options.body, "This request has expired.");
  const long = plain(notificationFor({ kind: "approval", id: "r", site: "Bank", message: "x".repeat(500), expires: now + 1 }, now));
  assert.equal(long.title, "Bank asks: " + "x".repeat(199) + "…");
  assert.equal(plain(notificationFor({ kind: "approval", id: "r", expires: now + 1 }, now)).title, "A site asks: a request");
});

test("anything else still shows a notification (browsers require one per push), with nothing to act on", () => {
  for (const payload of [null, "text", 42, {}, { kind: "approval" }, { kind: "approval", id: "" }, { kind: "login", id: "x" }]) {
    const shown = plain(notificationFor(payload, now));
    assert.equal(shown.title, "ZKPin", JSON.stringify(payload));
    assert.deepEqual(shown.options.data, { kind: "other", url: "/app/" });
  }
});

test("a notification carries only what it shows and the request's id: never a PIN, token or key", () => {
  const shown = plain(notificationFor({ kind: "approval", id: "r", site: "S", message: "m", expires: now + 1, pin: "1234", token: "04ab", holder: "ff" }, now));
  assert.deepEqual(Object.keys(shown.options.data).sort(), ["id", "kind", "message", "site", "url"]);
  assert.doesNotMatch(JSON.stringify(shown), /1234|04ab|holder/);
});

test("a push sign-in: 'Sign in to Wiki?', tagged by its request, no number in it, opening the app on it", () => {
  const shown = plain(notificationFor({ kind: "signin", id: "s-1", site: "Wiki", expires: now + 120 }, now));
  assert.equal(shown.title, "Sign in to Wiki?");
  assert.match(shown.options.body, /choose the number the sign-in page shows/);
  assert.equal(shown.options.tag, "zkpin-signin-s-1");
  assert.deepEqual(shown.options.data, { kind: "signin", id: "s-1", site: "Wiki", url: "/app/?signin=s-1" });
  assert.doesNotMatch(JSON.stringify(shown), /choices|number":/);
  assert.match(plain(notificationFor({ kind: "signin", id: "s-1", site: "Wiki", expires: now }, now)).options.body, /expired/);
  // Without an id it is not a sign-in the app can open.
  assert.equal(plain(notificationFor({ kind: "signin", site: "Wiki", expires: now + 120 }, now)).options.data.kind, "other");
});
