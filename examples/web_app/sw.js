// The web app's service worker: it keeps every file of the app in the
// browser's cache, so that after the first visit the app loads and plays with
// no network at all. build.py fills in the list of files and a version that
// changes whenever any of them does; a new version takes over once its copy
// is complete, and the old copy is deleted.
"use strict";

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `spades-app-${VERSION}`;
const PAGE = new URL("./", self.location.href).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Past the HTTP cache, so the copy is all of one version.
      await cache.addAll(FILES.map((file) => new Request(new URL(file, PAGE), { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("spades-app-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(PAGE)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // The app is one page: any address of it (with ?bot-delay=... or not) is that page.
      const key = request.mode === "navigate" ? PAGE : request;
      return (await cache.match(key, { ignoreSearch: true })) || fetch(request);
    })(),
  );
});
