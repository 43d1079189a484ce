// The service worker of the offline build: caches every file of the build on the first visit
// and answers from that cache, so the game starts with the network cut. The build writes the
// file list and a version that changes with any file (a new build replaces the old cache).
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `tuolaji-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tuolaji-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    // the page itself, whatever its fragment or query: the build's index.html
    const scope = new URL(self.registration.scope);
    const key = url.pathname === scope.pathname ? "./" : event.request;
    const hit = await cache.match(key, { ignoreSearch: url.pathname === scope.pathname });
    return hit || fetch(event.request);
  }));
});
