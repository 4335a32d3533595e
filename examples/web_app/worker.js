// The engine's side of the web app, in a Web Worker: Pyodide (CPython compiled
// to WebAssembly) with the project's wheel, its two dependencies and any
// bundled variant plugins, running local_table.py, which speaks the web
// table's protocol (table_protocol.py). Everything is loaded from the app's
// own files; build-info.json, written by build.py, lists them.
//
// The page sends {id, kind, ...} requests and gets {id, reply} or
// {id, failure}; the table's messages ({type: "state"} and {type: "error"},
// as the server would send them), the saved game and how far the start has
// got ({kind: "progress", step, steps, text}) come unasked.
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

const STEPS = 3;
function progress(step, text) {
  self.postMessage({ kind: "progress", step, steps: STEPS, text });
}

async function boot() {
  progress(0, "Starting Python (Pyodide)…");
  const info = text("build-info.json");
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", HERE).href, packages: [] });
  progress(1, "Installing the game engine…");
  const build = JSON.parse(await info);
  // Installed as wheels, so their metadata (and the plugins' entry points) is in site-packages.
  const quiet = () => {};
  await pyodide.loadPackage(
    build.wheels.map((name) => new URL(`wheels/${name}`, HERE).href),
    { messageCallback: quiet, errorCallback: quiet, checkIntegrity: false },
  );
  pyodide.FS.mkdirTree("/app");
  for (const name of build.python) pyodide.FS.writeFile(`/app/${name}`, await text(`python/${name}`));
  pyodide.runPython("import sys\nsys.path.insert(0, '/app')");
  progress(2, "Opening the game engine…");
  tables = pyodide.pyimport("local_table");
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
