"""The web app's notifications in headless Chromium (tools/webapp-test), which reaches no real
push service: the test push service (push_service.py) stands in for it. Its subscriptions are
handed to the app through the browser's own `PushManager` API, replaced in the page before the
app's scripts run (CDP Page.addScriptToEvaluateOnNewDocument), so the app's code path (the
permission, `pushManager.subscribe` with the server's VAPID key, storing with the server) runs
as it is. The server encrypts each message for that subscription and the push service decrypts
it (an independent implementation); the decrypted message is then delivered to the app's
service worker (CDP ServiceWorker.deliverPushMessage), which shows the notification.
Notifications cannot be clicked headless: `click` dispatches a notificationclick event with the
shown notification in the service worker, which runs its handler as a tap would (the window
focus a real tap allows is refused; the handler goes on without it).
"""
import json
import time

import e2e
from e2e import Failure, log
from devtools import DevTools

# The browser's push API, backed by the test push service's subscriptions (`given`, used in
# turn: a new subscription takes the next). `localStorage["zkpin-test-push"]` holds which one
# the browser has and the VAPID key it was made with; `zkpin-test-push-calls` counts subscribes.
FAKE_PUSH_MANAGER = r"""
(function () {
  if (!("PushManager" in self)) return;
  var given = %(given)s;
  var KEY = "zkpin-test-push";
  function bytes(t) {
    t = t.replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(t + "====".slice(t.length %% 4 || 4)), function (c) { return c.charCodeAt(0); });
  }
  function held() { var v = localStorage.getItem(KEY); return v ? JSON.parse(v) : null; }
  function make(h) {
    var s = given[h.index];
    return {
      endpoint: s.endpoint, expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: bytes(h.key).buffer },
      getKey: function (name) { return bytes(s.keys[name]).buffer; },
      toJSON: function () { return { endpoint: s.endpoint, expirationTime: null, keys: s.keys }; },
      unsubscribe: function () { localStorage.removeItem(KEY); return Promise.resolve(true); }
    };
  }
  PushManager.prototype.getSubscription = function () { var h = held(); return Promise.resolve(h ? make(h) : null); };
  PushManager.prototype.permissionState = function () { return Promise.resolve(Notification.permission === "default" ? "prompt" : Notification.permission); };
  PushManager.prototype.subscribe = function (options) {
    var key = options && options.applicationServerKey;
    var raw = typeof key === "string" ? bytes(key) : key instanceof ArrayBuffer ? new Uint8Array(key)
      : ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : null;
    if (!options || options.userVisibleOnly !== true || !raw) {
      return Promise.reject(new DOMException("userVisibleOnly and applicationServerKey are required", "InvalidAccessError"));
    }
    var text = btoa(String.fromCharCode.apply(null, raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    var calls = Number(localStorage.getItem(KEY + "-calls") || 0);
    if (calls >= given.length) return Promise.reject(new DOMException("the test push service has no more subscriptions", "AbortError"));
    localStorage.setItem(KEY + "-calls", String(calls + 1));
    localStorage.setItem(KEY + "-asked-key", text);
    var h = { index: calls, key: text };
    localStorage.setItem(KEY, JSON.stringify(h));
    return Promise.resolve(make(h));
  };
})();
"""


class AppPush:
    """The push side of the app in browser `d` against `server`, with `push` (a PushService)
    and its subscriptions `given` (made for the server's VAPID key)."""

    def __init__(self, d, server, push, count=2):
        self.d, self.server, self.push = d, server, push
        status, text = e2e.http(server.url + "/rps/push/settings")
        if status != 200:
            raise Failure("GET /rps/push/settings answered %s: %s" % (status, text))
        self.settings = json.loads(text)
        if push.origin not in self.settings["services"]:
            raise Failure("the server does not send to the test push service %s: %r" % (push.origin, self.settings))
        from webpush_receiver import b64url_decode
        key = b64url_decode(self.settings["vapidPublicKey"])
        self.given = [push.subscribe(application_server_key=key) for _ in range(count)]
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_PUSH_MANAGER % {"given": json.dumps(self.given)}})
        d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
        self.devtools = None
        self.sw_errors = []

    def close(self):
        if self.devtools:
            self.devtools.close()

    @staticmethod
    def sub_id(subscription):
        return subscription["endpoint"].rsplit("/", 1)[1]

    # ---- the browser's side ----------------------------------------------------------------

    def held(self):
        """Which of `given` the browser holds now (its index), or None."""
        value = self.d.execute_script("return localStorage.getItem('zkpin-test-push')")
        return None if value is None else json.loads(value)["index"]

    def identity(self, email):
        """The app's stored identity (IndexedDB) of `email`."""
        stored = self.d.execute_script(
            "return new Promise(function (ok) { var r = indexedDB.open('zkpin', 1); r.onsuccess = function () {"
            " var q = r.result.transaction('identities').objectStore('identities').getAll();"
            " q.onsuccess = function () { ok(JSON.stringify(q.result)); }; }; });")
        found = [i for i in json.loads(stored) if i.get("userId") == email]
        if len(found) != 1:
            raise Failure("the app holds %d identities of %s" % (len(found), email))
        return found[0]

    # ---- the server's side -------------------------------------------------------------------

    def server_endpoints(self, identity):
        """The endpoints the server lists for the identity (asked with its holder proof)."""
        status, text = e2e.http(self.server.url + "/rps/push/subscriptions/list",
                                json.dumps({"mpinId": identity["mpinId"], "holder": identity["holder"]}).encode(),
                                headers={"Content-Type": "application/json"})
        if status != 200:
            raise Failure("POST /rps/push/subscriptions/list answered %s: %s" % (status, text))
        return [s["endpoint"] for s in json.loads(text)["subscriptions"]]

    def message(self, index, predicate, seconds=30):
        """The first decrypted message at subscription `index` whose JSON satisfies `predicate`."""
        sub_id = self.sub_id(self.given[index])
        found = e2e.wait_for("a push message at the test push service", lambda: [
            json.loads(m["payload"]) for m in self.push.messages(sub_id) or [] if m["payload"] and predicate(json.loads(m["payload"]))], seconds)
        return found[0]

    # ---- the service worker ------------------------------------------------------------------

    def _sessions(self):
        """(page session, registration id, worker session), attached once."""
        if self.devtools is None:
            self.devtools = DevTools(self.d)
            base = self.server.url
            page = self.devtools.attach(lambda t: t["type"] == "page" and t["url"].startswith(base + "/app/"), "the app's page")
            self.devtools.send("ServiceWorker.enable", session=page)
            registrations = self.devtools.event("ServiceWorker.workerRegistrationUpdated", lambda p: any(
                r["scopeURL"] == base + "/app/" and not r["isDeleted"] for r in p["registrations"]))["registrations"]
            registration = [r for r in registrations if r["scopeURL"] == base + "/app/" and not r["isDeleted"]][0]["registrationId"]
            # Attached, the worker stays running (and its exceptions are reported here).
            worker = self.devtools.attach(lambda t: t["type"] == "service_worker" and t["url"] == base + "/app/sw.js",
                                          "the app's service worker")
            self.devtools.send("Runtime.enable", session=worker)
            self.attached = (page, registration, worker)
        return self.attached

    def worker_errors(self):
        return [e["params"]["exceptionDetails"].get("exception", {}).get("description", e["params"]["exceptionDetails"].get("text"))
                for e in (self.devtools.events if self.devtools else []) if e.get("method") == "Runtime.exceptionThrown"]

    def deliver(self, payload):
        """Delivers a message's JSON to the app's service worker as its push service would."""
        e2e.wait_until(self.d, "the service worker in control", lambda: self.d.execute_script("return !!navigator.serviceWorker.controller"), 30)
        page, registration, _ = self._sessions()
        self.devtools.send("ServiceWorker.deliverPushMessage", {"origin": self.server.url, "registrationId": registration,
                                                                "data": json.dumps(payload)}, session=page)

    def notifications(self):
        """The notifications shown now: [{title, body, tag, data}]."""
        return self.d.execute_async_script(
            "var done = arguments[0]; navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); })"
            ".then(function (n) { done(n.map(function (x) { return {title: x.title, body: x.body, tag: x.tag, data: x.data}; })); },"
            " function (e) { done([{error: String(e)}]); });")

    def shown(self, tag, seconds=15):
        """The notification with `tag`, once shown."""
        try:
            return e2e.wait_until(self.d, "the notification %s" % tag, lambda: [n for n in self.notifications() if n.get("tag") == tag], seconds)[0]
        except Failure as failure:
            raise Failure("%s\nthe service worker's exceptions: %r" % (failure, self.worker_errors()))

    def deliver_shown(self, payload, tag):
        """Delivers `payload` and returns its notification `tag` once shown. Headless Chromium
        now and then drops a message DevTools delivers right after the page navigated (no
        push event reaches the worker, no error is reported): a message not shown within 5 s
        is delivered once more, as a push service delivers at least once (the tag makes a
        second one replace the first), and the redelivery is logged."""
        self.deliver(payload)
        try:
            return self.shown(tag, seconds=5)
        except Failure:
            log("the notification %s was not shown within 5 s: delivered again" % tag)
        self.deliver(payload)
        return self.shown(tag)

    def click(self, tag):
        """What a tap on the notification `tag` does: its notificationclick handler runs."""
        _, _, worker = self._sessions()
        count = self.devtools.evaluate(worker, (
            "self.registration.getNotifications({tag: %s}).then(function (n) {"
            " if (n.length) self.dispatchEvent(new NotificationEvent('notificationclick', {notification: n[0]})); return n.length; })") % json.dumps(tag))
        if count != 1:
            raise Failure("no notification %s to click" % tag)
        log("the notification %s was tapped (its notificationclick handler ran in the service worker)" % tag)
