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

function cardText(card) {
  return `${card[0] === "T" ? "10" : card[0]}${SYMBOLS[card[1]]}`;
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
  let who = "you";
  if (player.kind === "person") who = player.online ? "friend" : "friend — not here yet";
  else if (player.kind !== "you") who = player.online ? "friend (took the bot's seat)" : `bot (${player.kind})`;
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
    : state.last_trick && state.phase !== "BID"
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
  // Cards are greyed only when choosing one: then the grey ones are the illegal ones.
  hand.classList.toggle("choosing", legal.size > 0);
  hand.replaceChildren();
  for (const card of sortHand(state.hand)) {
    const button = element("button", { class: "card", "data-card": card, type: "button" });
    button.append(cardFace(card));
    button.disabled = !legal.has(card);
    button.addEventListener("click", () => send({ type: "play", card }));
    hand.append(button);
  }
}

// A hand's line in the history: the running total, and what the hand added.
function scoreCell(result, team) {
  const points = result.points[team];
  const cell = element("td", {}, `${result.scores[team]} `);
  cell.append(element("small", {}, `(${points >= 0 ? "+" : "−"}${Math.abs(points)})`));
  return cell;
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
      scoreCell(result, "NS"),
      scoreCell(result, "EW"),
    );
    rows.append(row);
  }
}

function renderSide(state) {
  const coach = $("coach");
  coach.replaceChildren();
  if (state.coach) {
    const move = typeof state.coach.action === "number" ? `bid ${bidText(state.coach.action)}` : `play ${cardText(state.coach.action)}`;
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
    const kind = state.players[seat] ? state.players[seat].kind : "watch";
    const label = seat === "watch" ? "Spectators" : `${SEAT_NAMES[seat]}${kind === "person" ? "" : ` (now bot ${kind})`}`;
    const text = seat === "watch" ? "watch link" : "seat link";
    line.append(element("span", {}, `${label}: `), element("a", { href: url, "data-invite": seat, target: "_blank" }, text));
    invites.append(line);
  }
}

function statusText(state) {
  if (state.phase === "GAME_OVER") return "Game over.";
  if (state.phase === "DEAL") return "Dealing the next hand…";
  if (state.seat && state.to_act === state.seat) return state.phase === "BID" ? "Your bid." : "Your turn: click a card.";
  const player = state.players[state.to_act];
  const waiting = player && player.kind === "person" && !player.online ? " (waiting for them to join)" : "";
  return `${SEAT_NAMES[state.to_act]} to ${state.phase === "BID" ? "bid" : "play"}${waiting}…`;
}

function render(state) {
  const where = positions(state.seat || "S"); // a spectator looks from South's chair
  $("title").textContent = state.title;
  const changed = Object.entries(state.options).map(([name, value]) => `${name} ${value}`);
  $("rules").textContent = changed.length ? `house rules: ${changed.join(", ")}` : "";
  // When the game is over, hand_number counts a hand that will never be dealt.
  const hand = state.phase === "GAME_OVER" ? state.hand_results.length : state.hand_number + 1;
  $("hand-number").textContent = String(hand);
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
    const remark = !state.seat ? "" : won ? " — well played!" : " — better luck next time.";
    $("winner").textContent = `${state.winner} wins${remark}`;
    $("final-scores").textContent = `Final score: NS ${state.scores.NS}, EW ${state.scores.EW} after ${state.hand_results.length} hand${state.hand_results.length === 1 ? "" : "s"}.`;
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
