// What a push message shows (a classic script: the service worker loads it with importScripts,
// and node tests it, web/test/notification.test.js). The message is the server's small JSON
// (docs/api.md "Push"): {"kind": "approval", "id", "site", "message", "expires"},
// {"kind": "signin", "id", "site", "expires"} (a push sign-in: the numbers are fetched by the
// app, never carried) or {"kind": "identity", "device", "expires"}. A notification shows the site and the binding
// message as plain text, with the characters the app's display rule refuses (display.js,
// DisplayText in the server and the CLI) written as \u{XXXX}; it never carries a PIN or a
// token, only the request's id, which the app then lists and answers with the PIN. Every push
// shows a notification (browsers require it), one per request: its tag makes a repeat replace
// the first.

/* exported notificationFor */

function notificationFor(payload, nowSeconds) {
  const unshowable = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Cs}]/gu;
  const shown = (value, fallback) => {
    if (typeof value !== "string" || value === "") return fallback;
    const escaped = value.replace(unshowable, (c) => `\\u{${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}}`);
    return escaped.length > 200 ? escaped.slice(0, 199) + "…" : escaped;
  };
  const icon = "/app/icon-192.png";
  const kind = payload && typeof payload === "object" ? payload.kind : null;
  const expired = payload && typeof payload.expires === "number" && payload.expires <= nowSeconds;
  if (kind === "approval" && typeof payload.id === "string" && payload.id !== "") {
    const site = shown(payload.site, "A site"), message = shown(payload.message, "a request");
    return {
      title: `${site} asks: ${message}`,
      options: {
        body: expired ? "This request has expired." : "Open ZKPin to approve or deny it with your PIN.",
        tag: "zkpin-approval-" + payload.id,
        icon,
        data: { kind: "approval", id: payload.id, site, message, url: "/app/?request=" + encodeURIComponent(payload.id) },
      },
    };
  }
  if (kind === "signin" && typeof payload.id === "string" && payload.id !== "") {
    const site = shown(payload.site, "a site");
    return {
      title: `Sign in to ${site}?`,
      options: {
        body: expired ? "This sign-in request has expired." : "Tap, then choose the number the sign-in page shows. Not you? Answer Not me.",
        tag: "zkpin-signin-" + payload.id,
        icon,
        data: { kind: "signin", id: payload.id, site, url: "/app/?signin=" + encodeURIComponent(payload.id) },
      },
    };
  }
  if (kind === "identity") {
    const device = shown(payload.device, "a device");
    return {
      title: `A new device was added: ${device}`,
      options: {
        body: "If it was not you, revoke it on your account page.",
        tag: "zkpin-identity-" + device,
        icon,
        data: { kind: "identity", url: "/app/" },
      },
    };
  }
  return {
    title: "ZKPin",
    options: { body: "Something may be waiting for you: open ZKPin.", tag: "zkpin-other", icon, data: { kind: "other", url: "/app/" } },
  };
}
