// The web app's service worker: it keeps every file of the app in the
// browser's cache, so that after the first visit the app loads and plays with
// no network at all. build.py fills in the list of files (each with its size
// and SHA-256) and a version that changes whenever any of them does; a new
// version takes over once its copy is complete, and the old copy is deleted.
//
// On the first visit the page does not wait for the copy: the engine starts
// at once, and the copy is made alongside from the same downloads. The files
// the engine loads are copied once the page says it has loaded them
// ({kind: "engine-loaded"}, or after ENGINE_WAIT ms), so the browser's HTTP
// cache serves them and nothing is downloaded twice. Every file is checked
// against its SHA-256, and fetched afresh past the HTTP cache when it
// differs, so the copy is all of one version. How far the copy has got is
// posted to the pages ({kind: "copying", done, total} in bytes).
"use strict";

const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `spades-app-${VERSION}`;
const PAGE = new URL("./", self.location.href).href;
const AT_ONCE = 4; // files fetched at the same time
const ENGINE_FILES = ["pyodide/", "wheels/", "python/", "build-info.json"]; // what the worker fetches
const ENGINE_WAIT = 60000;

let engineLoaded;
const engineReady = new Promise((resolve) => {
  engineLoaded = resolve;
});
setTimeout(() => engineLoaded(), ENGINE_WAIT);
self.addEventListener("message", (event) => {
  if (event.data && event.data.kind === "engine-loaded") engineLoaded();
});

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// The file's response, checked against its digest: from the HTTP cache when
// it holds this version, else from the server.
async function fetchChecked({ path, sha256 }) {
  const url = new URL(path, PAGE);
  for (const mode of ["force-cache", "reload"]) {
    const response = await fetch(new Request(url, { cache: mode }));
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const body = await response.clone().arrayBuffer();
    if (sha256 === null || hex(await crypto.subtle.digest("SHA-256", body)) === sha256) return response;
  }
  throw new Error(`${path} does not match this version of the app`);
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const total = FILES.reduce((sum, file) => sum + file.size, 0);
      let done = 0;
      const forEngine = (file) => ENGINE_FILES.some((start) => file.path.startsWith(start));
      async function copy(files) {
        const waiting = [...files];
        async function copyNext() {
          for (let file = waiting.shift(); file; file = waiting.shift()) {
            await cache.put(new URL(file.path, PAGE), await fetchChecked(file));
            done += file.size;
            await tell({ kind: "copying", done, total });
          }
        }
        await Promise.all(Array.from({ length: AT_ONCE }, copyNext));
      }
      await copy(FILES.filter((file) => !forEngine(file)));
      await engineReady;
      await copy(FILES.filter(forEngine));
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
