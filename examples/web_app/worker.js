// The engine's side of the web app, in a Web Worker: Pyodide (CPython compiled
// to WebAssembly) with the project's wheel, its two dependencies and any
// bundled variant plugins, running local_table.py, which speaks the web
// table's protocol (table_protocol.py). Everything is loaded from the app's
// own files; build-info.json, written by build.py, lists them. Later starts
// restore a snapshot of the first (below).
//
// The page sends {id, kind, ...} requests and gets {id, reply} or
// {id, failure}; the table's messages ({type: "state"} and {type: "error"},
// as the server would send them), the saved game and how far the start has
// got ({kind: "progress", step, steps, text}) and how it started ({kind:
// "started", from: "snapshot" or "scratch"}) come unasked.
"use strict";

importScripts("pyodide/pyodide.js");

const HERE = new URL("./", self.location.href);
let tables = null; // the Python module local_table
let table = null; // the LocalTable being played, a Python object
let game = 0; // counts the games started, so a bot loop of an older one stops
let driving = false;
let botDelay = 600; // ms a bot waits before it acts, so its move can be followed
let lastState = null;

async function text(path) {
  const response = await fetch(new URL(path, HERE));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}

async function bytes(path) {
  const response = await fetch(new URL(path, HERE));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

const STEPS = 3;
function progress(step, text) {
  self.postMessage({ kind: "progress", step, steps: STEPS, text });
}

// -- a snapshot of the started engine --------------------------------------------
//
// Most of a start is Python's own (its bootstrap and the imports), and it is the
// same every time. So the first start, once local_table is imported and before
// any game (its catalogue made, so every variant and bot is imported), takes a
// memory snapshot of the interpreter (Pyodide's loadPyodide
// options _makeSnapshot and _loadSnapshot, with makeMemorySnapshot: experimental
// options of the Pyodide version package-lock.json pins), and keeps it in the
// browser's Cache Storage under a key made from build-info.json, so a new build
// never loads an old one. Later starts restore it and only put the files back
// (a snapshot holds memory, not the file system). Whatever goes wrong with a
// snapshot, the engine starts the plain way.
const SNAPSHOTS = "spades-engine-snapshot"; // not "spades-app-…", which the service worker clears

async function snapshotKey(info) {
  if (!self.caches || !self.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(info));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return new URL(`snapshot/${hex.slice(0, 32)}`, HERE).href;
}

async function storedSnapshot(key) {
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(key, snapshot) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
    await cache.put(key, new Response(snapshot));
  } catch {
    // no room: the next start is a plain one
  }
}

async function dropSnapshots() {
  try {
    await caches.delete(SNAPSHOTS);
  } catch {
    // nothing kept
  }
}

// The wheels unpacked into site-packages with their metadata (so the
// variants, the plugins' too, load through their entry points), and the
// app's modules into /app.
async function installFiles(pyodide, build) {
  const sitePackages = pyodide.runPython("import sysconfig\nsysconfig.get_path('purelib')");
  const wheels = await Promise.all(build.wheels.map((name) => bytes(`wheels/${name}`)));
  for (const wheel of wheels) pyodide.unpackArchive(wheel, "wheel", { extractDir: sitePackages });
  pyodide.FS.mkdirTree("/app");
  const modules = await Promise.all(build.python.map((name) => text(`python/${name}`)));
  build.python.forEach((name, i) => pyodide.FS.writeFile(`/app/${name}`, modules[i]));
}

async function boot() {
  const info = await text("build-info.json");
  const build = JSON.parse(info);
  const options = { indexURL: new URL("pyodide/", HERE).href, packages: [] };
  const key = await snapshotKey(info);
  const snapshot = key ? await storedSnapshot(key) : null;
  progress(0, snapshot ? "Restoring the game engine…" : "Starting Python (Pyodide)…");
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
    } catch (error) {
      console.warn(`The engine's snapshot could not be restored (${error}): starting afresh.`);
      await dropSnapshots();
    }
  }
  const restored = pyodide !== null;
  if (!restored) pyodide = await loadPyodide({ ...options, _makeSnapshot: key !== null });
  progress(1, "Installing the game engine…");
  await installFiles(pyodide, build);
  progress(2, "Opening the game engine…");
  if (restored) {
    // The snapshot's random generator would start alike at every visit.
    pyodide.runPython("import random\nrandom.seed()");
  } else {
    // The catalogue loads every variant and bot: imported before the snapshot too.
    pyodide.runPython("import sys\nsys.path.insert(0, '/app')\nimport local_table\nlocal_table.catalogue()");
    // Made now, before any game, and written while the game starts.
    if (key) keepSnapshot(key, pyodide.makeMemorySnapshot());
  }
  tables = pyodide.pyimport("local_table");
  self.postMessage({ kind: "started", from: restored ? "snapshot" : "scratch" });
  progress(3, "Ready.");
}

const booted = boot();

function post(message) {
  self.postMessage(message);
}

// Give the page the game to save, then the new state to show (in that order,
// so whatever the page shows is saved already).
function publish() {
  lastState = JSON.parse(table.state());
  post({ kind: "saved", record: table.record(), seating: table.seating() });
  post({ kind: "message", message: lastState });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Let the bots act, one at a time and a moment apart, until it is your turn.
async function drive() {
  if (driving) return;
  driving = true;
  const mine = game;
  try {
    while (mine === game && table.bot_due()) {
      // A finished trick stays in view a little longer before the next lead.
      const trickDone = lastState && lastState.current_trick.length === 0 && lastState.tricks.length > 0;
      await sleep(trickDone ? botDelay * 2 : botDelay);
      if (mine !== game) break;
      table.bot_step();
      publish();
    }
  } finally {
    driving = false;
  }
  if (mine !== game) drive(); // a new game began while the old loop slept
}

// Make `made` (a LocalTable, or the refusal text) the game being played.
function begin(made) {
  if (typeof made === "string") return { refusal: made };
  if (table) table.destroy();
  table = made;
  game += 1;
  publish();
  drive();
  return {};
}

const requests = {
  configure({ delay }) {
    if (Number.isFinite(delay) && delay >= 0) botDelay = delay;
    return {};
  },
  catalogue() {
    return { catalogue: JSON.parse(tables.catalogue()) };
  },
  start({ settings }) {
    return begin(tables.start_game(JSON.stringify(settings)));
  },
  resume({ record, seating }) {
    return begin(tables.resume_game(record, seating));
  },
  check({ record, seating }) {
    // A save kept aside: could it be played on now? Nothing is started.
    return { refusal: tables.resume_refusal(record, seating) ?? null };
  },
  coach({ on }) {
    if (!table) return { refusal: "no game is being played" };
    table.set_coach(on === true);
    publish();
    return {};
  },
  send({ message }) {
    if (!table) return { refusal: "no game is being played" };
    const refusal = table.receive(JSON.stringify(message));
    if (refusal) {
      post({ kind: "message", message: { type: "error", message: refusal } });
    } else {
      publish();
      drive();
    }
    return {};
  },
};

self.addEventListener("message", async (event) => {
  const { id, kind } = event.data;
  try {
    await booted;
    if (!Object.hasOwn(requests, kind)) throw new Error(`unknown request ${kind}`);
    post({ id, reply: requests[kind](event.data) });
  } catch (error) {
    post({ id, failure: String(error && error.message ? error.message : error) });
  }
});
