// The table page: one WebSocket to the server, which sends this seat's view
// after every change. Everything shown comes from that view; the page only
// sends {"type": "bid", "value": N} and {"type": "play", "card": "QH"}.
"use strict";

const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const ORDER = ["N", "E", "S", "W"]; // play goes clockwise: N, E, S, W
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // colours alternate in the hand
const RANKS = "23456789TJQKA";
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const tableId = window.location.pathname.split("/").pop();
const token = new URLSearchParams(window.location.search).get("token") || "";
let socket = null;
let retry = 500;
let latest = null;

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== "") node.textContent = text;
  return node;
}

function cardFace(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  const face = element("span", { class: `face suit-${card[1]}` });
  face.append(element("span", { class: "rank" }, rank), element("span", { class: "pip" }, SYMBOLS[card[1]]));
  return face;
}

function bidText(bid) {
  return bid === null || bid === undefined ? "–" : bid === 0 ? "Nil" : String(bid);
}

function sortHand(cards) {
  return [...cards].sort(
    (a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]),
  );
}

// Seats placed around the felt from the viewer's chair: left of you plays next.
function positions(me) {
  const at = ORDER.indexOf(me);
  return {
    bottom: me,
    left: ORDER[(at + 1) % 4],
    top: ORDER[(at + 2) % 4],
    right: ORDER[(at + 3) % 4],
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function renderSeat(box, seat, state) {
  const player = state.players[seat];
  box.replaceChildren();
  box.classList.toggle("to-act", state.to_act === seat);
  box.dataset.seat = seat;
  const who = player.kind === "you" ? "you" : player.kind === "person" ? (player.online ? "friend" : "friend — not here yet") : `bot (${player.kind})`;
  box.append(element("div", { class: "name" }, `${SEAT_NAMES[seat]}${state.dealer === seat ? " · dealer" : ""}`));
  box.append(element("div", { class: "who" }, who));
  const stats = element("div", { class: "stats", "data-testid": `seat-${seat}` });
  stats.append(
    element("span", {}, `bid ${bidText(state.bids[seat])}`),
    element("span", {}, `won ${state.tricks_won[seat]}`),
    element("span", {}, `${state.cards_left[seat]} cards`),
  );
  box.append(stats);
}

function renderTrick(state, where) {
  const trick = $("trick");
  for (const slot of trick.children) slot.replaceChildren();
  // Between tricks the one just won stays on the felt until the next lead.
  const plays = state.current_trick.length
    ? state.current_trick
    : state.last_trick && state.phase === "PLAY"
      ? state.last_trick.cards.map((card, i) => [ORDER[(ORDER.indexOf(state.last_trick.leader) + i) % 4], card])
      : [];
  for (const [seat, card] of plays) {
    const place = Object.keys(where).find((key) => where[key] === seat);
    const slot = trick.querySelector(`.slot.${place}`);
    const shown = element("div", { class: "card played", "data-played": card });
    shown.append(cardFace(card));
    slot.append(shown);
  }
  trick.classList.toggle("done", !state.current_trick.length && plays.length > 0);
}

function renderBids(state) {
  const bids = $("bids");
  const legal = new Set(state.phase === "BID" ? state.legal_actions : []);
  bids.hidden = state.phase !== "BID";
  bids.replaceChildren();
  for (let bid = 0; bid <= 13; bid += 1) {
    const button = element("button", { "data-bid": String(bid), type: "button" }, bidText(bid));
    button.disabled = !legal.has(bid);
    button.addEventListener("click", () => send({ type: "bid", value: bid }));
    bids.append(button);
  }
  $("bid-note").textContent = state.bid_note || "";
}

function renderHand(state) {
  const hand = $("hand");
  const legal = new Set(state.phase === "PLAY" ? state.legal_actions : []);
  hand.replaceChildren();
  for (const card of sortHand(state.hand)) {
    const button = element("button", { class: "card", "data-card": card, type: "button" });
    button.append(cardFace(card));
    button.disabled = !legal.has(card);
    button.addEventListener("click", () => send({ type: "play", card }));
    hand.append(button);
  }
}

function renderScores(state) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const team of ["NS", "EW"]) {
    const mine = state.seat && team.includes(state.seat);
    const box = element("span", { class: `team${mine ? " mine" : ""}`, "data-team": team });
    box.append(element("b", {}, `${team} ${state.scores[team]}`), element("small", {}, ` bags ${state.bags[team]}`));
    scores.append(box);
  }
  const rows = $("history");
  rows.replaceChildren();
  for (const result of state.hand_results) {
    const row = element("tr");
    const b = result.bids;
    const t = result.tricks;
    row.append(
      element("td", {}, String(result.number + 1)),
      element("td", {}, `${bidText(b.N)}+${bidText(b.S)} / ${bidText(b.E)}+${bidText(b.W)}`),
      element("td", {}, `${t.N + t.S} / ${t.E + t.W}`),
      element("td", {}, `${result.points.NS >= 0 ? "+" : ""}${result.points.NS} → ${result.scores.NS}`),
      element("td", {}, `${result.points.EW >= 0 ? "+" : ""}${result.points.EW} → ${result.scores.EW}`),
    );
    rows.append(row);
  }
}

function renderSide(state) {
  const coach = $("coach");
  coach.replaceChildren();
  if (state.coach) {
    const move = typeof state.coach.action === "number" ? `bid ${bidText(state.coach.action)}` : `play ${state.coach.action.replace("T", "10")}`;
    coach.append(element("h3", {}, `Coach: ${move}`), element("p", {}, state.coach.reason));
    coach.hidden = false;
  } else {
    coach.hidden = true;
  }
  const last = $("last-trick");
  last.replaceChildren();
  if (state.last_trick) {
    state.last_trick.cards.forEach((card, i) => {
      const seat = ORDER[(ORDER.indexOf(state.last_trick.leader) + i) % 4];
      const item = element("span", { class: `mini${seat === state.last_trick.winner ? " winner" : ""}` }, seat);
      item.append(cardFace(card));
      last.append(item);
    });
  } else {
    last.textContent = "none yet";
  }
  const invites = $("invites");
  invites.replaceChildren();
  const open = Object.entries(state.invites || {});
  $("invites-box").hidden = open.length === 0;
  for (const [seat, secret] of open) {
    const url = `${window.location.origin}/t/${tableId}?token=${encodeURIComponent(secret)}`;
    const line = element("div", { class: "invite" });
    line.append(element("span", {}, `${SEAT_NAMES[seat]}: `), element("a", { href: url, "data-invite": seat, target: "_blank" }, "seat link"));
    invites.append(line);
  }
}

function statusText(state) {
  if (state.phase === "GAME_OVER") return "Game over.";
  if (state.phase === "DEAL") return "Dealing the next hand…";
  if (state.to_act === state.seat) return state.phase === "BID" ? "Your bid." : "Your turn: click a card.";
  const player = state.players[state.to_act];
  const waiting = player && player.kind === "person" && !player.online ? " (waiting for them to join)" : "";
  return `${SEAT_NAMES[state.to_act]} to ${state.phase === "BID" ? "bid" : "play"}${waiting}…`;
}

function render(state) {
  latest = state;
  const where = positions(state.seat);
  $("title").textContent = state.title;
  $("hand-number").textContent = String(state.hand_number + 1);
  $("phase").textContent = state.phase;
  for (const [place, seat] of Object.entries(where)) renderSeat($(`seat-${place}`), seat, state);
  renderTrick(state, where);
  renderBids(state);
  renderHand(state);
  renderScores(state);
  renderSide(state);
  $("status").textContent = statusText(state);
  const over = $("game-over");
  over.hidden = state.phase !== "GAME_OVER";
  if (state.phase === "GAME_OVER") {
    const won = state.winner && state.seat && state.winner.includes(state.seat);
    $("winner").textContent = `${state.winner} wins — ${won ? "well played!" : "better luck next time."}`;
    $("final-scores").textContent = `Final score: NS ${state.scores.NS}, EW ${state.scores.EW} after ${state.hand_results.length} hands.`;
  }
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    $("connection").textContent = "connected";
    $("connection").className = "connection online";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      $("error").textContent = "";
      render(message);
    } else if (message.type === "error") {
      $("error").textContent = message.message;
    }
  });
  socket.addEventListener("close", (event) => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "connection";
    if (event.code === 1008) {
      $("connection").textContent = "refused";
      return;
    }
    // Resume the seat after a server restart or a dropped network.
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

connect();
