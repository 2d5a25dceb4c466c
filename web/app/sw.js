// The app shell for offline use: these files only, never an API answer (those go to the
// network as they are). A new version of this file replaces the cache.
const CACHE = "zkpin-shell-v7";
const SHELL = [
  "/app/", "/app/app.css", "/app/access-code.js", "/app/app.js", "/app/capability.js", "/app/client.js", "/app/display.js", "/app/identities.js", "/app/manifest.webmanifest",
  "/app/icon.svg", "/app/icon-192.png", "/app/icon-512.png", "/pages/pages.css",
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
