/* global self, caches, fetch, URL */
/**
 * Service worker of the phone app (/m). It keeps the app's page and its build assets (scripts, styles,
 * the access-window core) so the app opens without a network; keys come from the phone's own storage.
 * Pages: network first, the kept copy when offline. Hashed assets: the kept copy first (they never change).
 * The API is never kept: credentials live in the app's storage, not in a cache.
 */
const CACHE = "phone-app-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The page lists what it loaded before this worker controlled it (its first visit): keep those too.
self.addEventListener("message", (event) => {
  const urls = Array.isArray(event.data?.keep) ? event.data.keep.filter((u) => typeof u === "string" && new URL(u, self.location.origin).origin === self.location.origin) : [];
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        Promise.all(
          urls.map((u) => {
            const path = new URL(u, self.location.origin).pathname;
            return path === "/m" ? fetch("/m").then((res) => res.ok && cache.put("/m", res)) : cache.add(u);
          }),
        ),
      )
      .catch(() => undefined),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  const page = req.mode === "navigate" && (url.pathname === "/m" || url.pathname.startsWith("/m/"));
  const asset = url.pathname.startsWith("/assets/") || url.pathname === "/m.webmanifest" || url.pathname === "/favicon.svg";
  if (page) event.respondWith(networkFirst(req, "/m"));
  else if (asset) event.respondWith(cacheFirst(req));
});

async function networkFirst(req, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    if (res.ok) await cache.put(key, res.clone());
    return res;
  } catch (e) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw e;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(req);
  if (kept) return kept;
  const res = await fetch(req);
  if (res.ok) await cache.put(req, res.clone());
  return res;
}
