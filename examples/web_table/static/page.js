// The one page of both front ends: the multiplayer table (its server says so
// in a meta tag) and the web app, whose engine runs in a Web Worker. It shows
// the start page and the table; everything on the table comes from the state
// messages (table_protocol.py), and the page only sends {type: "bid", value},
// {type: "play", card} and {type: "next"}.
import { Refusal, serverTransport, workerTransport } from "./transports.js";

const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const ORDER = ["N", "E", "S", "W"]; // play goes clockwise: N, E, S, W
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // colours alternate in the hand
const RANKS = "23456789TJQKA";
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SAVED_RECORD = "spades-app.record";
const SAVED_SEATING = "spades-app.seating";

const MODE = document.querySelector('meta[name="spades-transport"]').content;
const params = new URLSearchParams(window.location.search);
const botDelaySeconds = Number(params.get("bot-delay") ?? "0.6");
let transport = null;
let catalogue = null;
let latest = null; // the last state message

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== "") node.textContent = text;
  return node;
}

function show(screen) {
  $("loading").hidden = screen !== "loading";
  $("start-screen").hidden = screen !== "start";
  $("table-screen").hidden = screen !== "table";
  for (const id of ["hand-box", "phase"]) $(id).hidden = screen !== "table";
  if (screen !== "table") {
    $("scores").replaceChildren();
    $("game-over").hidden = true;
    $("title").textContent = "Spades";
  }
}

function loading(text) {
  $("loading").textContent = text;
  show("loading");
}

// -- cards and words ------------------------------------------------------------------

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

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// Seats placed around the felt from the viewer's chair: left of you plays next.
function positions(me) {
  const at = ORDER.indexOf(me);
  return { bottom: me, left: ORDER[(at + 1) % 4], top: ORDER[(at + 2) % 4], right: ORDER[(at + 3) % 4] };
}

function trickPlays(trick) {
  return trick.cards.map((card, i) => [ORDER[(ORDER.indexOf(trick.leader) + i) % 4], card]);
}

// -- the start page -------------------------------------------------------------------

function chosenVariant() {
  const picked = document.querySelector("input[name=variant]:checked");
  return catalogue.variants.find((v) => v.id === picked.value);
}

function optionInput(option) {
  let input;
  if (option.kind === "bool") {
    input = element("input", { type: "checkbox" });
    input.checked = option.default;
  } else if (option.kind === "choice") {
    input = element("select");
    for (const choice of option.choices) {
      input.append(element("option", { value: choice }, option.choice_labels[choice] || choice));
    }
    input.value = option.default;
  } else if (option.kind === "int") {
    input = element("input", { type: "text", inputmode: "numeric", size: "7" });
    input.value = option.default === null ? "" : String(option.default);
    if (option.nullable) input.placeholder = "none";
  } else {
    input = element("input", { type: "text", size: "10" });
    input.value = JSON.stringify(option.default);
  }
  input.id = `option-${option.name}`;
  input.dataset.option = option.name;
  input.dataset.kind = option.kind;
  input.dataset.default = JSON.stringify(option.default);
  input.title = `${option.name}: ${option.accepts}`;
  return input;
}

function showOptions() {
  const variant = chosenVariant();
  $("variant-rules-title").textContent = `The rules of ${variant.title} in full`;
  $("variant-rules").textContent = variant.summary;
  const box = $("options");
  box.replaceChildren();
  for (const option of variant.options) {
    const row = element("div", { class: `option kind-${option.kind}` });
    row.append(
      element("label", { class: "name", for: `option-${option.name}` }, option.label),
      optionInput(option),
      element("span", { class: "summary" }, option.summary),
    );
    box.append(row);
  }
}

// Only options changed from their defaults are sent; the engine checks them.
function optionValues() {
  const values = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "choice") value = input.value;
    else if (input.dataset.kind === "int") {
      const text = input.value.trim();
      value = text === "" || text.toLowerCase() === "none" ? null : /^-?\d+$/.test(text) ? Number(text) : text;
    } else {
      try {
        value = JSON.parse(input.value);
      } catch {
        value = input.value;
      }
    }
    if (JSON.stringify(value) !== input.dataset.default) values[input.dataset.option] = value;
  }
  return values;
}

function playerSummary(select) {
  const player = catalogue.players.find((p) => p.kind === select.value);
  select.parentElement.querySelector(".summary").textContent = player ? player.summary : "";
}

function buildStartPage() {
  const variants = $("variants");
  variants.replaceChildren();
  catalogue.variants.forEach((variant, index) => {
    const label = element("label", { class: "variant" });
    const radio = element("input", { type: "radio", name: "variant", value: variant.id, "data-variant": variant.id });
    radio.checked = index === 0;
    radio.addEventListener("change", showOptions);
    const words = element("span", { class: "words" });
    words.append(element("strong", {}, variant.title), element("span", { class: "summary" }, variant.brief));
    label.append(radio, words);
    variants.append(label);
  });
  const players = $("players");
  players.replaceChildren();
  for (const [seat, name] of Object.entries(catalogue.seats)) {
    const row = element("div", { class: "option player" });
    const select = element("select", { "data-seat": seat, id: `seat-choice-${seat}` });
    for (const player of catalogue.players) select.append(element("option", { value: player.kind }, player.label));
    select.value = catalogue.default_player;
    select.addEventListener("change", () => playerSummary(select));
    const title = seat === "N" ? `${name} (your partner)` : name;
    row.append(element("label", { class: "name", for: select.id }, title), select, element("span", { class: "summary" }));
    players.append(row);
    playerSummary(select);
  }
  $("friends-hint").hidden = !transport.friends;
  $("import-label").hidden = transport.kind !== "worker";
  $("resume-box").hidden = !(transport.kind === "worker" && savedGame());
  showOptions();
}

function formSettings() {
  const players = {};
  for (const select of document.querySelectorAll("[data-seat]")) players[select.dataset.seat] = select.value;
  return {
    variant: chosenVariant().id,
    options: optionValues(),
    players,
    coach: $("coach-on").checked,
  };
}

function refused(error) {
  $("form-error").textContent = error instanceof Refusal ? error.message : `Something went wrong: ${error.message}`;
}

async function startGame(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  try {
    await transport.open(formSettings());
  } catch (error) {
    refused(error);
    return;
  }
  if (transport.kind === "worker") show("table");
}

// -- the table ----------------------------------------------------------------------

function send(message) {
  $("error").textContent = "";
  transport.send(message);
}

function renderSeat(box, seat, state) {
  const player = state.players[seat];
  box.replaceChildren();
  box.classList.toggle("to-act", state.to_act === seat);
  box.dataset.seat = seat;
  let who = "you";
  if (player.kind === "person") who = player.online ? "friend" : "friend — not here yet";
  else if (player.kind !== "you") who = player.online ? "friend (in the bot's seat)" : `${player.kind} bot`;
  const name = element("div", { class: "name" }, SEAT_NAMES[seat]);
  if (state.dealer === seat) name.append(element("span", { class: "dealer", title: "dealer" }, " · D"));
  box.append(name, element("div", { class: "who" }, who));
  // Between hands a seat shows its bid and tricks in the hand just scored.
  const hand = state.hand_summary || { bids: state.bids, tricks: state.tricks_won };
  const stats = element("div", { class: "stats", "data-testid": `seat-${seat}` });
  stats.append(
    element("span", {}, `bid ${bidText(hand.bids[seat])}`),
    element("span", {}, `won ${hand.tricks[seat]}`),
  );
  box.append(stats);
}

function renderTrick(state, where) {
  const trick = $("trick");
  for (const slot of trick.children) slot.replaceChildren();
  // Between tricks, and after the last one, the trick just won stays on the felt.
  const plays = state.current_trick.length
    ? state.current_trick
    : state.last_trick && state.phase !== "BID"
      ? trickPlays(state.last_trick)
      : [];
  for (const [seat, card] of plays) {
    const place = Object.keys(where).find((key) => where[key] === seat);
    const shown = element("div", { class: "card played", "data-played": card });
    if (!state.current_trick.length && state.last_trick && seat === state.last_trick.winner) shown.classList.add("winner");
    shown.append(cardFace(card));
    trick.querySelector(`.slot.${place}`).append(shown);
  }
  trick.classList.toggle("done", !state.current_trick.length && plays.length > 0);
}

function renderBids(state) {
  const bids = $("bids");
  const legal = new Set(state.phase === "BID" ? state.legal_actions : []);
  bids.hidden = state.phase !== "BID" || !state.seat;
  bids.replaceChildren();
  for (let bid = 0; bid <= 13; bid += 1) {
    const button = element("button", { "data-bid": String(bid), type: "button" }, bidText(bid));
    button.disabled = !legal.has(bid);
    button.addEventListener("click", () => send({ type: "bid", value: bid }));
    bids.append(button);
  }
  $("bid-note").textContent = state.bid_note || "";
  $("bid-note").hidden = !state.bid_note;
}

function renderHand(state) {
  const hand = $("hand");
  const legal = new Set(state.phase === "PLAY" ? state.legal_actions : []);
  // Cards are greyed only when choosing one: then the grey ones are the illegal ones.
  hand.classList.toggle("choosing", legal.size > 0);
  hand.hidden = state.hand.length === 0;
  hand.replaceChildren();
  for (const card of sortHand(state.hand)) {
    const button = element("button", { class: "card", "data-card": card, type: "button", "aria-label": cardText(card) });
    button.append(cardFace(card));
    button.disabled = !legal.has(card);
    button.addEventListener("click", () => send({ type: "play", card }));
    hand.append(button);
  }
}

function teamOf(seat) {
  return seat === "N" || seat === "S" ? "NS" : "EW";
}

function renderScores(state) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const team of ["NS", "EW"]) {
    const mine = state.seat && teamOf(state.seat) === team;
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

// A hand's line in the history: the running total, and what the hand added.
function scoreCell(result, team) {
  const points = result.points[team];
  const cell = element("td", {}, `${result.scores[team]} `);
  cell.append(element("small", {}, `(${signed(points)})`));
  return cell;
}

function signed(points) {
  return `${points >= 0 ? "+" : "−"}${Math.abs(points)}`;
}

function miniTrick(trick) {
  const box = element("div", { class: "last-trick" });
  for (const [seat, card] of trickPlays(trick)) {
    const item = element("span", { class: `mini${seat === trick.winner ? " winner" : ""}` }, seat);
    item.append(cardFace(card));
    box.append(item);
  }
  return box;
}

function renderCoach(state) {
  const coach = $("coach");
  coach.replaceChildren();
  coach.hidden = !state.coach;
  if (!state.coach) return;
  const action = state.coach.action;
  const move = typeof action === "number" ? `bid ${bidText(action)}` : `play ${cardText(action)}`;
  coach.append(element("h3", {}, `Coach: ${move}`), element("p", {}, state.coach.reason));
}

function renderSide(state) {
  const last = $("last-trick");
  last.replaceChildren();
  if (state.last_trick) last.append(...miniTrick(state.last_trick).childNodes);
  else last.textContent = "none yet";
  $("rules").textContent = state.house_rules.length
    ? `${state.title}, house rules: ${state.house_rules.join("; ")}.`
    : `${state.title}, the variant's own rules.`;
  const invites = $("invites");
  invites.replaceChildren();
  const open = Object.entries(state.invites || {});
  $("invites-box").hidden = open.length === 0;
  for (const [seat, secret] of open) {
    const url = `${window.location.origin}/t/${state.table}?token=${encodeURIComponent(secret)}`;
    const line = element("div", { class: "invite" });
    const kind = state.players[seat] ? state.players[seat].kind : "watch";
    const label = seat === "watch" ? "Spectators" : `${SEAT_NAMES[seat]}${kind === "person" ? "" : ` (now ${kind} bot)`}`;
    const text = seat === "watch" ? "watch link" : "seat link";
    line.append(element("span", {}, `${label}: `), element("a", { href: url, "data-invite": seat, target: "_blank" }, text));
    invites.append(line);
  }
  $("game-menu").hidden = transport.kind !== "worker";
}

const GOOD = new Set(["contract_made", "nil_made", "double_nil_made"]);
const BAD = new Set(["contract_set", "nil_failed", "double_nil_failed", "bag_penalty"]);

// One team's score for the hand, item by item, as the library itemised it.
function teamScore(state, summary, team) {
  const scored = summary.teams[team];
  const mine = state.seat && teamOf(state.seat) === team;
  const box = element("div", { class: `team-score${mine ? " mine" : ""}`, "data-team": team });
  const seats = team === "NS" ? ["N", "S"] : ["E", "W"];
  box.append(element("h4", {}, `${team}${mine ? " (you)" : ""}: ${signed(scored.points)}`));
  box.append(
    element("p", { class: "hint" }, seats.map((s) => `${s} bid ${bidText(summary.bids[s])}, won ${summary.tricks[s]}`).join("; ")),
  );
  const items = element("ul", { class: "items" });
  for (const item of scored.items) {
    const kind = GOOD.has(item.kind) ? "made" : BAD.has(item.kind) ? "set" : "";
    const line = element("li", { class: kind, "data-kind": item.kind });
    line.append(element("span", { class: "label" }, item.label), element("b", {}, signed(item.points)));
    if (item.bags) line.append(element("small", {}, ` ${signed(item.bags)} bag${Math.abs(item.bags) === 1 ? "" : "s"}`));
    items.append(line);
  }
  box.append(items);
  box.append(element("p", { class: "hint" }, `bags ${scored.bags_before} → ${scored.bags}; score ${summary.scores[team]}`));
  return box;
}

function renderSummary(state) {
  const box = $("hand-summary");
  const summary = state.hand_summary;
  box.hidden = !summary;
  box.replaceChildren();
  if (!summary) return;
  box.append(element("h3", {}, `Hand ${summary.number + 1} scored`));
  const teams = element("div", { class: "teams" });
  teams.append(teamScore(state, summary, "NS"), teamScore(state, summary, "EW"));
  box.append(teams);
  const last = element("div", { class: "summary-trick" });
  last.append(element("span", { class: "hint" }, "Last trick:"), miniTrick(summary.last_trick));
  box.append(last);
  if (state.phase === "DEAL") {
    const mine = state.seat && state.waiting_for_next.includes(state.seat);
    const next = element("button", { type: "button", "data-testid": "next-hand" }, "Next hand");
    next.disabled = !mine;
    next.addEventListener("click", () => send({ type: "next" }));
    box.append(next);
  }
}

function turnText(state) {
  if (state.phase === "GAME_OVER") return [state.winner ? `Game over: ${state.winner} wins.` : "Game over: a draw.", false];
  if (state.phase === "DEAL") {
    if (!state.hand_results.length) return ["Dealing…", false];
    if (state.seat && state.waiting_for_next.includes(state.seat)) return ["Hand over: see the summary, then Next hand.", true];
    const others = state.waiting_for_next.filter((s) => s !== state.seat).map((s) => SEAT_NAMES[s]);
    return [others.length ? `Waiting for ${others.join(" and ")} to be ready…` : "Dealing the next hand…", false];
  }
  if (state.seat && state.to_act === state.seat) {
    return [state.phase === "BID" ? "Your turn: bid." : "Your turn: play a card.", true];
  }
  const player = state.players[state.to_act];
  const waiting = player && player.kind === "person" && !player.online ? " (waiting for them to join)" : "";
  return [`${SEAT_NAMES[state.to_act]} to ${state.phase === "BID" ? "bid" : "play"}${waiting}…`, false];
}

function render(state) {
  latest = state;
  const where = positions(state.seat || "S"); // a spectator looks from South's chair
  $("title").textContent = state.title;
  // Between hands, and when the game is over, the hand to name is the one just scored.
  const scored = state.phase === "GAME_OVER" || (state.phase === "DEAL" && state.hand_results.length);
  const hand = scored ? state.hand_results.length : state.hand_number + 1;
  $("hand-number").textContent = String(hand);
  $("phase").textContent = state.phase;
  const [turn, mine] = turnText(state);
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", mine);
  for (const [place, seat] of Object.entries(where)) renderSeat($(`seat-${place}`), seat, state);
  renderTrick(state, where);
  renderBids(state);
  renderHand(state);
  renderCoach(state);
  renderScores(state);
  renderSide(state);
  renderSummary(state);
  const over = $("game-over");
  if (state.phase !== "GAME_OVER") delete over.dataset.dismissed;
  over.hidden = state.phase !== "GAME_OVER" || over.dataset.dismissed === "yes";
  if (state.phase === "GAME_OVER") {
    const won = state.winner && state.seat && teamOf(state.seat) === state.winner;
    const remark = !state.seat ? "" : won ? " — well played!" : " — better luck next time.";
    // A hand limit can end a game level: a draw, with no winner.
    $("winner").textContent = state.winner ? `${state.winner} wins${remark}` : "A draw";
    const hands = state.hand_results.length;
    $("final-scores").textContent = `Final score: NS ${state.scores.NS}, EW ${state.scores.EW} after ${plural(hands, "hand")}.`;
  }
}

function onMessage(message) {
  if (message.type === "state") {
    $("error").textContent = "";
    render(message);
    show("table");
  } else if (message.type === "error") {
    $("error").textContent = message.message;
  }
}

// -- the web app: saved games, offline, install ------------------------------------------

function savedGame() {
  const record = localStorage.getItem(SAVED_RECORD);
  const seating = localStorage.getItem(SAVED_SEATING);
  return record && seating ? { record, seating } : null;
}

function save(record, seating) {
  localStorage.setItem(SAVED_RECORD, record);
  localStorage.setItem(SAVED_SEATING, seating);
}

function exportRecord() {
  const saved = savedGame();
  if (!saved) return;
  const variant = JSON.parse(saved.record).variant;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
  const link = element("a", {
    href: URL.createObjectURL(new Blob([`${saved.record}\n`], { type: "application/json" })),
    download: `spades-${variant}-${stamp}.json`,
  });
  document.body.append(link);
  link.click();
  link.remove();
}

async function importRecord(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  $("form-error").textContent = "";
  const settings = formSettings();
  try {
    await transport.resume((await file.text()).trim(), JSON.stringify({ players: settings.players, coach: settings.coach }));
  } catch (error) {
    refused(error);
    return;
  }
  show("table");
}

// The service worker keeps every file of the app, so it loads and plays offline.
async function installOffline() {
  if (!("serviceWorker" in navigator)) return;
  const manifest = element("link", { rel: "manifest", href: "manifest.webmanifest" });
  document.head.append(manifest);
  let registration;
  try {
    registration = await navigator.serviceWorker.register("sw.js");
  } catch {
    return; // no offline copy (a browser setting, an insecure origin): play online
  }
  if (navigator.serviceWorker.controller) return;
  // First visit: wait until the files are kept, so the engine loads from there.
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    const installing = registration.installing || registration.waiting;
    if (!installing) return resolve();
    installing.addEventListener("statechange", () => {
      if (installing.state === "redundant") resolve();
    });
  });
}

async function startApp() {
  loading("Loading the game engine…");
  await installOffline();
  transport = workerTransport({ botDelay: botDelaySeconds * 1000 });
  transport.connect({ onMessage, onSaved: save });
  $("export").addEventListener("click", exportRecord);
  $("import").addEventListener("change", importRecord);
  $("new-game").addEventListener("click", () => {
    $("resume-box").hidden = !latest;
    show("start");
  });
  $("resume").addEventListener("click", () => latest && show("table"));
  $("play-again").addEventListener("click", (event) => {
    event.preventDefault();
    localStorage.removeItem(SAVED_RECORD);
    localStorage.removeItem(SAVED_SEATING);
    latest = null;
    buildStartPage();
    show("start");
  });
  try {
    catalogue = await transport.catalogue();
  } catch (error) {
    loading(`The game engine could not start: ${error.message}`);
    return;
  }
  buildStartPage();
  const saved = savedGame();
  if (saved) {
    try {
      await transport.resume(saved.record, saved.seating);
      return; // its state message shows the table
    } catch (error) {
      refused(error); // a saved game this version cannot read: start a new one
    }
  }
  show("start");
}

async function startServerPage() {
  transport = serverTransport();
  if (transport.tableId) {
    loading("Connecting…");
    transport.connect({
      onMessage,
      onStatus(text, online) {
        $("connection").textContent = text;
        $("connection").classList.toggle("online", online);
      },
    });
    return;
  }
  catalogue = await transport.catalogue();
  buildStartPage();
  show("start");
}

$("new-table").addEventListener("submit", startGame);
$("show-table").addEventListener("click", () => {
  $("game-over").dataset.dismissed = "yes";
  $("game-over").hidden = true;
});
if (MODE === "server") startServerPage();
else startApp();
