// The app shell for offline use: these files only, never an API answer (those go to the
// network as they are). A new version of this file replaces the cache. And the notifications:
// each push message shows one (notification.js says what), and tapping it brings the app to
// that request.
importScripts("/app/notification.js");

const CACHE = "zkpin-shell-v10";
const SHELL = [
  "/app/", "/app/app.css", "/app/access-code.js", "/app/app.js", "/app/capability.js", "/app/client.js", "/app/display.js",
  "/app/identities.js", "/app/manifest.webmanifest", "/app/notification.js", "/app/push.js", "/app/push-support.js",
  "/app/icon.svg", "/app/icon-192.png", "/app/icon-512.png", "/pages/pages.css", "/pages/brand.css", "/pages/logo",
  "/js/mpin.js", "/js/lib/bytes.js", "/js/lib/curve-context.js", "/js/lib/curves.generated.js", "/js/lib/field.js",
  "/js/lib/g1.js", "/js/lib/g2.js", "/js/lib/hash.js", "/js/lib/inputs.js", "/js/lib/random.js",
  "/js/lib/sha256.js", "/js/lib/window.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  const path = url.pathname === "/app" || url.pathname === "/app/index.html" ? "/app/" : url.pathname;
  if (!SHELL.includes(path)) return;  // API answers and everything else: network only
  // Network first (an upgrade shows at once), the cached shell when offline.
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) { const copy = response.clone(); caches.open(CACHE).then((cache) => cache.put(path, copy)); }
    return response;
  }).catch(() => caches.match(path)));
});

self.addEventListener("push", (event) => {
  let payload = null;
  try { payload = event.data ? event.data.json() : null; } catch { payload = null; }
  const shown = notificationFor(payload, Math.floor(Date.now() / 1000));
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openApp(event.notification.data || {}));
});

// An open app window is told which request to show (it asks for the PIN there); else the app
// opens on it (/app/?request=<id>).
async function openApp(data) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const app = windows.find((client) => new URL(client.url).pathname.startsWith("/app"));
  if (!app) return self.clients.openWindow(data.url || "/app/");
  if (data.kind === "approval") app.postMessage({ type: "zkpin-request", id: data.id, site: data.site, message: data.message });
  if (data.kind === "signin") app.postMessage({ type: "zkpin-signin", id: data.id, site: data.site });
  try { await app.focus(); } catch { /* focusing needs the tap itself; the message is delivered anyway */ }
}
