// How the page reaches its table: over a WebSocket to the multiplayer server
// (examples/web_table/server.py), or through a Web Worker running the engine
// in the browser (the web app, examples/web_app). Both carry the same
// messages, those of table_protocol.py: the page sends {type: "bid", value},
// {type: "play", card} and {type: "next"}; it receives {type: "state", ...}
// and {type: "error", message}.
//
// A transport has catalogue() (what a game may be started with), open(settings)
// (start one), connect(handlers) and send(message); the worker's also has
// resume(record, seating), check(record, seating) (the reason a save cannot be
// played on, or null) and setCoach(on), and reports how far its start has got
// to handlers.onProgress.

export class Refusal extends Error {}

const JSON_HEADERS = { "content-type": "application/json" };

export function serverTransport() {
  const path = window.location.pathname.split("/");
  const tableId = path[path.length - 2] === "t" ? path[path.length - 1] : null;
  const token = new URLSearchParams(window.location.search).get("token") || "";
  let socket = null;
  let retry = 500;

  function connect({ onMessage, onStatus }) {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
    socket.addEventListener("open", () => {
      retry = 500;
      onStatus("connected", true);
    });
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (event.code === 1008) {
        // A bad link, a flood of refused messages, or the seat opened in another tab.
        onStatus("refused", false);
        return;
      }
      // Resume the seat after a server restart or a dropped network; when the
      // server had no room (1013), wait longer each time, at random so that
      // the refused pages do not all come back at once.
      const busy = event.code === 1013;
      onStatus(busy ? "the table is busy; trying again…" : "reconnecting…", false);
      const wait = busy ? Math.max(retry, 2000) * (0.5 + Math.random()) : retry;
      setTimeout(() => connect({ onMessage, onStatus }), wait);
      retry = Math.min(Math.max(retry, busy ? 2000 : 0) * 2, busy ? 30000 : 8000);
    });
  }

  return {
    kind: "server",
    tableId,
    friends: true,
    async catalogue() {
      const response = await fetch("/api/variants");
      return response.json();
    },
    async open(settings) {
      const response = await fetch("/api/tables", {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(settings),
      });
      const answer = await response.json();
      if (!response.ok) throw new Refusal(answer.error);
      window.location.assign(answer.url);
    },
    connect,
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
  };
}

export function workerTransport({ botDelay }) {
  const worker = new Worker("worker.js");
  const pending = new Map();
  let lastId = 0;
  let handlers = { onMessage() {}, onStatus() {}, onSaved() {}, onProgress() {}, onStarted() {} };

  worker.addEventListener("message", (event) => {
    const data = event.data;
    if (data.id !== undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.failure !== undefined) waiting.reject(new Error(data.failure));
      else waiting.resolve(data.reply);
    } else if (data.kind === "message") {
      handlers.onMessage(data.message);
    } else if (data.kind === "saved") {
      handlers.onSaved(data.record, data.seating);
    } else if (data.kind === "progress") {
      handlers.onProgress(data);
    } else if (data.kind === "started") {
      handlers.onStarted(data.from);
    }
  });
  worker.addEventListener("error", (event) => {
    const failure = new Error(`the game engine failed to start: ${event.message || "unknown error"}`);
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
  });

  function request(kind, fields = {}) {
    lastId += 1;
    const id = lastId;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, kind, ...fields });
    });
  }

  async function started(reply) {
    const answer = await reply;
    if (answer.refusal) throw new Refusal(answer.refusal);
  }

  const configured = request("configure", { delay: botDelay });

  return {
    kind: "worker",
    tableId: null,
    friends: false,
    ready: configured,
    async catalogue() {
      return (await request("catalogue")).catalogue;
    },
    open(settings) {
      return started(request("start", { settings }));
    },
    resume(record, seating) {
      return started(request("resume", { record, seating }));
    },
    async check(record, seating) {
      return (await request("check", { record, seating })).refusal;
    },
    setCoach(on) {
      return started(request("coach", { on }));
    },
    connect(given) {
      handlers = { ...handlers, ...given };
    },
    send(message) {
      request("send", { message }).catch((error) => handlers.onMessage({ type: "error", message: error.message }));
    },
  };
}
