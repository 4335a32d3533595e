// The one page of both front ends: the multiplayer table (its server says so
// in a meta tag) and the web app, whose engine runs in a Web Worker. It shows
// the start page and the table; everything on the table comes from the state
// messages (table_protocol.py), and the page only sends {type: "bid", value},
// {type: "play", card} and {type: "next"}. What a game may be started with
// (variants, house rules with their defaults and ranges, levels in each
// variant's words) comes from the catalogue the protocol builds from the engine.
import { Refusal, serverTransport, workerTransport } from "./transports.js";

const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const ORDER = ["N", "E", "S", "W"]; // play goes clockwise: N, E, S, W
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // colours alternate in the hand
const RANKS = "23456789TJQKA";
const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
const PHASE_WORDS = { BID: "Bidding", PLAY: "Playing", DEAL: "Hand over", GAME_OVER: "Game over" };
const MINUS = "\u2212"; // one minus sign for every number shown, as table_protocol writes them
const HAND_ROW = 7; // the most cards in one row of the hand on a phone
const wide = window.matchMedia("(min-width: 700px)"); // the stylesheet's width for one row of cards

// What the web app keeps in localStorage. The record and seating are what the
// worker hands over after every action; the view is the last state shown, so
// that a later visit shows the game at once while the engine starts; a save
// that could not be played on is kept aside, as the very text it was, under
// KEPT + a stamp, and offered back.
const STORE = {
  record: "spades-app.record",
  seating: "spades-app.seating",
  view: "spades-app.view",
  catalogue: "spades-app.catalogue",
  settings: "spades-app.settings",
};
const KEPT = "spades-app.kept.";

const MODE = document.querySelector('meta[name="spades-transport"]').content;
const params = new URLSearchParams(window.location.search);
const botDelaySeconds = Number(params.get("bot-delay") ?? "0.6");
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
let transport = null;
let catalogue = null;
let latest = null; // the last state message shown
let live = false; // whether `latest` came from the engine (not from the saved view)
let screen = "loading";
let wantTable = false; // a game was asked for: its first state shows the table
let engineReady = null; // resolves when the worker's engine has started
let shownPlays = []; // "seat:card" of the trick on the felt, to move only new cards
let gathered = new Set(); // completed tricks already sent to their winner

const $ = (id) => document.getElementById(id);

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== "") node.textContent = text;
  return node;
}

function show(next) {
  screen = next;
  $("loading").hidden = next !== "loading";
  $("start-screen").hidden = next !== "start";
  $("table-screen").hidden = next !== "table";
  for (const id of ["hand-box", "phase"]) $(id).hidden = next !== "table";
  if (next !== "table") {
    $("scores").replaceChildren();
    $("game-over").hidden = true;
    $("table-screen").inert = false;
    $("title").textContent = "Spades";
  } else if (latest) {
    renderHeader(latest);
    showGameOver(latest);
  }
  window.scrollTo(0, 0);
}

// -- storage: never a thrown error, never a silent loss -----------------------------

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function unstore(key) {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing to do: storage is off
  }
}

function parsed(text) {
  if (typeof text !== "string") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// -- numbers, cards and words -------------------------------------------------------

function num(value) {
  const text = Math.abs(value).toLocaleString("en-US");
  return value < 0 ? `${MINUS}${text}` : text;
}

function signed(points) {
  return `${points >= 0 ? "+" : MINUS}${Math.abs(points).toLocaleString("en-US")}`;
}

function rankText(card) {
  return card[0] === "T" ? "10" : card[0];
}

function cardText(card) {
  return `${rankText(card)}${SYMBOLS[card[1]]}`;
}

function cardName(card) {
  return `${RANK_NAMES[card[0]] ?? card[0]} of ${SUIT_NAMES[card[1]]}`;
}

function cardFace(card) {
  const face = element("span", { class: `face suit-${card[1]}`, "aria-hidden": "true" });
  const corner = element("span", { class: "corner" });
  corner.append(element("span", { class: "rank" }, rankText(card)), element("span", { class: "suit" }, SYMBOLS[card[1]]));
  face.append(corner, element("span", { class: "pip" }, SYMBOLS[card[1]]));
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

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function teamOf(seat) {
  return seat === "N" || seat === "S" ? "NS" : "EW";
}

// Seats placed around the felt from the viewer's chair: left of you plays next.
function positions(me) {
  const at = ORDER.indexOf(me);
  return { bottom: me, left: ORDER[(at + 1) % 4], top: ORDER[(at + 2) % 4], right: ORDER[(at + 3) % 4] };
}

function trickPlays(trick) {
  return trick.cards.map((card, i) => [ORDER[(ORDER.indexOf(trick.leader) + i) % 4], card]);
}

// "Classic Spades" on a chip is "Classic"; the full title is said beside it.
function shortTitle(variant) {
  return variant.title.replace(/\s+Spades$/, "") || variant.title;
}

// -- the start page -------------------------------------------------------------------

function chosenVariant() {
  const picked = document.querySelector("input[name=variant]:checked");
  return catalogue.variants.find((v) => v.id === (picked && picked.value)) || catalogue.variants[0];
}

function chip(group, value, text, attributes = {}) {
  const label = element("label", { class: "chip" });
  const input = element("input", { type: "radio", name: group, value, ...attributes });
  label.append(input, element("span", {}, text));
  return [label, input];
}

function seatSelects() {
  return [...$("players").querySelectorAll("select[data-seat]")];
}

function levelLabel(variant, kind) {
  if (kind === "person") return "A friend";
  return `${variant.level_words[kind] || kind} bot`;
}

// The level chips, in the variant's words; they set the three bots at once.
function showLevels() {
  const variant = chosenVariant();
  const box = $("levels");
  box.replaceChildren();
  for (const level of variant.levels) {
    const [label, input] = chip("level", level.kind, level.word, { "data-level": level.kind });
    input.addEventListener("change", () => {
      for (const select of seatSelects()) select.value = level.kind;
      syncLevels();
    });
    box.append(label);
  }
  for (const select of seatSelects()) {
    for (const option of select.options) option.textContent = levelLabel(variant, option.value);
  }
  syncLevels();
}

// The chips show the bots' level when all three play one of them; otherwise
// a line says who plays what.
function syncLevels() {
  const variant = chosenVariant();
  const kinds = seatSelects().map((select) => select.value);
  const same = kinds.every((kind) => kind === kinds[0]);
  for (const input of $("levels").querySelectorAll("input")) input.checked = same && input.value === kinds[0];
  const onChips = same && variant.levels.some((level) => level.kind === kinds[0]);
  const note = $("levels-note");
  note.hidden = onChips;
  if (!onChips) {
    note.textContent = same
      ? `All three: ${levelLabel(variant, kinds[0])}.`
      : seatSelects().map((select) => `${SEAT_NAMES[select.dataset.seat]} ${levelLabel(variant, select.value)}`).join(", ") + ".";
  }
}

function showTargets(keep) {
  const variant = chosenVariant();
  const box = $("targets");
  box.replaceChildren();
  $("targets-box").hidden = variant.targets.length === 0;
  const target = variant.options.find((option) => option.name === "target_score");
  const wanted = variant.targets.includes(keep) ? keep : target && target.default;
  for (const value of variant.targets) {
    const [label, input] = chip("target", String(value), num(value), { "data-target": String(value) });
    input.checked = value === wanted;
    input.addEventListener("change", countChanges);
    box.append(label);
  }
}

function optionControl(option) {
  const id = `option-${option.name}`;
  const described = `${id}-effect ${id}-default`;
  const wrap = element("div", { class: "control" });
  if (option.kind === "bool") {
    const label = element("label", { class: "switch", for: id });
    const input = element("input", { type: "checkbox", role: "switch", id, "aria-describedby": described });
    input.checked = option.default;
    label.append(input, element("span", { class: "track", "aria-hidden": "true" }), element("span", { class: "words" }, "yes"));
    input.addEventListener("change", () => {
      label.querySelector(".words").textContent = input.checked ? "yes" : "no";
    });
    label.querySelector(".words").textContent = option.default ? "yes" : "no";
    wrap.append(label);
    return [wrap, input];
  }
  if (option.kind === "choice") {
    const select = element("select", { id, "aria-describedby": described });
    for (const choice of option.choices) {
      select.append(element("option", { value: choice }, option.choice_labels[choice] || choice));
    }
    select.value = option.default;
    wrap.append(select);
    return [wrap, select];
  }
  if (option.kind === "int") {
    // A range of negative numbers (a loss floor) is typed without its minus
    // sign, which a phone's number pad lacks; a range either side of zero
    // gets the full keyboard.
    const negative = option.maximum < 0;
    const input = element("input", {
      type: "text",
      id,
      inputmode: option.minimum >= 0 || negative ? "numeric" : "text",
      autocomplete: "off",
      "aria-describedby": described,
    });
    input.dataset.negative = negative ? "yes" : "no";
    if (negative) wrap.append(element("span", { class: "sign", "aria-hidden": "true" }, MINUS));
    wrap.append(input);
    let none = null;
    if (option.nullable) {
      const label = element("label", { class: "check" });
      none = element("input", { type: "checkbox", "data-none-for": option.name });
      label.append(none, element("span", { class: "box", "aria-hidden": "true" }), element("span", {}, option.none_label));
      none.addEventListener("change", () => {
        input.disabled = none.checked;
        countChanges();
      });
      wrap.append(label);
    }
    setIntValue(input, none, option.default);
    return [wrap, input];
  }
  const input = element("input", { type: "text", id, "aria-describedby": described });
  input.value = JSON.stringify(option.default);
  wrap.append(input);
  return [wrap, input];
}

function setIntValue(input, none, value) {
  if (none) none.checked = value === null;
  input.disabled = value === null;
  if (value === null) input.value = "";
  else input.value = String(input.dataset.negative === "yes" ? -value : value);
}

function showOptions() {
  const variant = chosenVariant();
  $("variant-brief").textContent = `${variant.title}: ${variant.brief}`;
  $("variant-rules-title").textContent = `The rules of ${variant.title} in full`;
  $("variant-rules").textContent = variant.summary;
  $("rules-sheet-title").textContent = `House rules: ${variant.title}`;
  const box = $("options");
  box.replaceChildren();
  for (const option of variant.options) {
    if (option.name === "target_score" && variant.targets.length) continue; // chosen on the start page
    const id = `option-${option.name}`;
    const row = element("div", { class: `option kind-${option.kind}`, "data-name": option.name });
    const [control, input] = optionControl(option);
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    input.addEventListener("change", countChanges);
    input.addEventListener("input", countChanges);
    row.append(
      element("label", { class: "name", for: id }, option.label),
      element("p", { class: "effect", id: `${id}-effect` }, option.effect),
      control,
      element("p", { class: "default", id: `${id}-default` }, `Standard: ${option.default_text}`),
    );
    box.append(row);
  }
}

// The house rules of the last game, back in the sheet (those this build still has).
function setOptionValues(values) {
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (!Object.hasOwn(values, name)) continue;
    const value = values[name];
    if (input.dataset.kind === "bool") input.checked = value === true;
    else if (input.dataset.kind === "choice") input.value = String(value);
    else if (input.dataset.kind === "int") {
      const none = document.querySelector(`[data-none-for="${name}"]`);
      if (value === null || Number.isInteger(value)) setIntValue(input, none, value);
    } else input.value = JSON.stringify(value);
  }
}

function optionOf(name) {
  return chosenVariant().options.find((option) => option.name === name);
}

// What the player typed, as the protocol takes it; text that is no number
// is sent as it is, and the engine's option spec says why it is refused.
function inputValue(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  if (kind === "choice") return input.value;
  if (kind === "int") {
    const none = document.querySelector(`[data-none-for="${input.dataset.option}"]`);
    if (none && none.checked) return null;
    const text = input.value.trim().replace(/[\s,]/g, "").replace(MINUS, "-");
    if (text === "") return optionOf(input.dataset.option).nullable ? null : text;
    if (!/^-?\d+$/.test(text)) return input.value.trim();
    const number = Number(text);
    return input.dataset.negative === "yes" && number > 0 ? -number : number;
  }
  const value = parsed(input.value);
  return value === null && input.value.trim() !== "null" ? input.value : value;
}

// Only options changed from their defaults are sent; the engine checks them.
function optionValues() {
  const values = {};
  const variant = chosenVariant();
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const option = optionOf(input.dataset.option);
    const value = inputValue(input);
    if (JSON.stringify(value) !== JSON.stringify(option.default)) values[option.name] = value;
  }
  const target = document.querySelector("input[name=target]:checked");
  const standard = optionOf("target_score");
  if (target && variant.targets.length && Number(target.value) !== standard.default) {
    values.target_score = Number(target.value);
  }
  return values;
}

function countChanges() {
  const changed = Object.keys(optionValues()).filter((name) => name !== "target_score").length;
  $("house-rules").textContent = changed ? `House rules · ${plural(changed, "change")}` : "House rules";
}

function buildPlayers() {
  const players = $("players");
  players.replaceChildren();
  for (const [seat, name] of Object.entries(catalogue.seats)) {
    const row = element("div", { class: "option player" });
    const select = element("select", { "data-seat": seat, id: `seat-choice-${seat}` });
    for (const player of catalogue.players) select.append(element("option", { value: player.kind }, player.label));
    select.value = catalogue.default_player;
    select.addEventListener("change", () => {
      playerSummary(select);
      syncLevels();
    });
    const title = seat === "N" ? `${name} (your partner)` : name;
    row.append(
      element("label", { class: "name", for: select.id }, title),
      select,
      element("p", { class: "summary", id: `${select.id}-about` }),
    );
    select.setAttribute("aria-describedby", `${select.id}-about`);
    players.append(row);
    playerSummary(select);
  }
}

function playerSummary(select) {
  const player = catalogue.players.find((p) => p.kind === select.value);
  $(`${select.id}-about`).textContent = player ? player.summary : "";
}

// The choices on the page now, to keep when the page is built again.
function currentChoices() {
  if (!catalogue || !document.querySelector("input[name=variant]")) return null;
  const target = document.querySelector("input[name=target]:checked");
  return {
    variant: chosenVariant().id,
    players: Object.fromEntries(seatSelects().map((select) => [select.dataset.seat, select.value])),
    target: target ? Number(target.value) : null,
    coach: $("coach-on").checked,
  };
}

function buildStartPage(keep = currentChoices()) {
  const variants = $("variants");
  variants.replaceChildren();
  const wanted = keep && catalogue.variants.some((v) => v.id === keep.variant) ? keep.variant : catalogue.variants[0].id;
  for (const variant of catalogue.variants) {
    const [label, radio] = chip("variant", variant.id, shortTitle(variant), { "data-variant": variant.id });
    radio.checked = variant.id === wanted;
    radio.addEventListener("change", () => {
      const target = currentChoices().target;
      showOptions();
      showLevels();
      showTargets(target);
      countChanges();
    });
    variants.append(label);
  }
  buildPlayers();
  const kinds = new Set(catalogue.players.map((p) => p.kind));
  if (keep && keep.players) {
    for (const select of seatSelects()) {
      const kind = keep.players[select.dataset.seat];
      if (kinds.has(kind)) select.value = kind;
      playerSummary(select);
    }
  }
  if (keep && typeof keep.coach === "boolean") $("coach-on").checked = keep.coach;
  showOptions();
  if (keep && keep.variant === chosenVariant().id && keep.options) setOptionValues(keep.options);
  showLevels();
  showTargets(keep && keep.target);
  countChanges();
  $("friends-hint").hidden = !transport.friends;
  $("more-levels").textContent = transport.friends ? "More levels, and friends" : "More levels";
  $("import-label").hidden = transport.kind !== "worker";
  $("import-limit").hidden = transport.kind !== "worker";
  $("import-limit").textContent = `A record to import may be up to ${sizeText(catalogue.record_limit)}.`;
  showResume();
}

function showResume() {
  const playing = Boolean(latest && latest.phase !== "GAME_OVER" && transport && transport.kind === "worker");
  $("resume-box").hidden = !playing;
  $("replace-note").hidden = !playing;
}

function formSettings() {
  const players = {};
  for (const select of seatSelects()) players[select.dataset.seat] = select.value;
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
  if (blockedByStuck()) return;
  const settings = formSettings();
  if (transport.kind === "worker") {
    store(STORE.settings, JSON.stringify({ ...currentChoices(), options: settings.options }));
    $("start").disabled = true;
    $("start").textContent = "Starting…";
  }
  wantTable = true;
  try {
    await engineReady;
    await transport.open(settings);
  } catch (error) {
    wantTable = false;
    refused(error);
    return;
  } finally {
    $("start").disabled = false;
    $("start").textContent = "Play";
  }
  if (transport.kind === "worker" && latest) show("table");
}

// -- sheets -------------------------------------------------------------------------

let sheetOpener = null;

// A sheet is modal: what lies behind it cannot be reached until it closes.
function openSheet(id) {
  sheetOpener = document.activeElement;
  $(id).hidden = false;
  for (const behind of ["start-screen", "table-screen"]) $(behind).inert = true;
  const first = $(id).querySelector("select, input:not([disabled]), button");
  if (first) first.focus();
}

function closeSheet(id) {
  $(id).hidden = true;
  for (const behind of ["start-screen", "table-screen"]) $(behind).inert = false;
  countChanges();
  if (sheetOpener && sheetOpener.focus) sheetOpener.focus();
}

// -- the table ----------------------------------------------------------------------

function send(message) {
  $("error").textContent = "";
  transport.send(message);
}

function whoText(player) {
  if (player.kind === "you") return "you";
  if (player.kind === "person") return player.online ? "friend" : "friend, not here yet";
  if (player.online) return "friend (in the bot's seat)";
  return `${player.level || player.kind} bot`;
}

function renderSeat(box, seat, state, mine) {
  const player = state.players[seat];
  box.replaceChildren();
  box.classList.toggle("to-act", state.to_act === seat);
  box.dataset.at = seat;
  const name = element("div", { class: "name" }, SEAT_NAMES[seat]);
  if (state.dealer === seat) name.append(element("span", { class: "dealer", title: "dealer", "aria-label": "dealer" }, "D"));
  box.append(name, element("div", { class: "who" }, whoText(player)));
  // Between hands a seat shows its bid and tricks in the hand just scored.
  const hand = state.hand_summary || { bids: state.bids, tricks: state.tricks_won };
  const stats = element("div", { class: "stats", "data-testid": `seat-${seat}` });
  stats.append(
    element("span", {}, `bid ${bidText(hand.bids[seat])}`),
    element("span", {}, `won ${hand.tricks[seat]}`),
  );
  box.append(stats);
  const left = state.cards_left ? state.cards_left[seat] : 0;
  if (!mine && left > 0) {
    const backs = element("div", { class: "backs", role: "img", "aria-label": `${plural(left, "card")} in hand`, "data-cards": String(left) });
    const fan = element("span", { class: "fan", "aria-hidden": "true" });
    for (let i = 0; i < left; i += 1) fan.append(element("span", { class: "back" }));
    backs.append(fan, element("span", { class: "count", "aria-hidden": "true" }, String(left)));
    box.append(backs);
  }
}

function placeOf(where, seat) {
  return Object.keys(where).find((key) => where[key] === seat);
}

function centre(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

function moving() {
  return !reducedMotion.matches;
}

function renderTrick(state, where, origins) {
  const trick = $("trick");
  for (const slot of trick.children) slot.replaceChildren();
  // Between tricks, and after the last one, the trick just won stays on the felt.
  const completed = !state.current_trick.length && state.last_trick && state.phase !== "BID";
  const plays = state.current_trick.length ? state.current_trick : completed ? trickPlays(state.last_trick) : [];
  const keys = plays.map(([seat, card]) => `${seat}:${card}`);
  const fresh = keys.filter((key) => !shownPlays.includes(key));
  const trickKey = completed ? `${state.hand_number}:${state.tricks.length}:${keys.join(",")}` : null;
  const shown = [];
  for (const [seat, card] of plays) {
    const place = placeOf(where, seat);
    const label = `${SEAT_NAMES[seat]}: ${cardName(card)}${completed && seat === state.last_trick.winner ? ", wins the trick" : ""}`;
    const node = element("div", { class: "card played", "data-played": card, role: "img", "aria-label": label });
    if (completed && seat === state.last_trick.winner) node.classList.add("winner");
    node.append(cardFace(card));
    trick.querySelector(`.slot.${place}`).append(node);
    shown.push([seat, card, node]);
  }
  trick.classList.toggle("done", Boolean(completed) && plays.length > 0);
  shownPlays = keys;
  if (!moving()) return;
  // A card just played comes from the hand or the seat that played it.
  for (const [seat, card, node] of shown) {
    if (!fresh.includes(`${seat}:${card}`)) continue;
    const from = origins.cards.get(card) || origins.seats.get(seat);
    if (!from) continue;
    const [x0, y0] = centre(from);
    const [x1, y1] = centre(node.getBoundingClientRect());
    node.animate(
      [{ transform: `translate(${x0 - x1}px, ${y0 - y1}px) scale(0.85)` }, { transform: "none" }],
      { duration: 260, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }
  // A trick won during play goes to its winner; the last one of a hand stays.
  if (completed && state.phase === "PLAY") {
    const winnerBox = $(`seat-${placeOf(where, state.last_trick.winner)}`);
    if (gathered.has(trickKey) && !fresh.length) {
      for (const [, , node] of shown) node.classList.add("gone");
    } else if (fresh.length) {
      gathered.add(trickKey);
      const [x1, y1] = centre(winnerBox.getBoundingClientRect());
      for (const [, , node] of shown) {
        const [x0, y0] = centre(node.getBoundingClientRect());
        node.animate(
          [{ transform: "none", opacity: 1 }, { transform: `translate(${x1 - x0}px, ${y1 - y0}px) scale(0.5)`, opacity: 0 }],
          { duration: 380, delay: 750, easing: "ease-in", fill: "forwards" },
        );
      }
    }
  }
}

function renderBids(state) {
  const bids = $("bids");
  const legal = new Set(state.phase === "BID" && live ? state.legal_actions : []);
  bids.hidden = state.phase !== "BID" || !state.seat || state.hand.length === 0;
  bids.replaceChildren();
  for (let bid = 0; bid <= 13; bid += 1) {
    const button = element("button", { "data-bid": String(bid), type: "button", "aria-label": bid === 0 ? "Bid Nil" : `Bid ${bid}` }, bidText(bid));
    button.disabled = !legal.has(bid);
    button.addEventListener("click", () => send({ type: "bid", value: bid }));
    bids.append(button);
  }
  // The coach says the variant's reason too, so the note stands alone only without a tip.
  const note = state.bid_note || "";
  const box = $("bid-note");
  box.textContent = note;
  box.hidden = !note || state.phase !== "BID" || !state.seat;
}

function renderHand(state) {
  const hand = $("hand");
  const legal = new Set(state.phase === "PLAY" && live ? state.legal_actions : []);
  const cards = sortHand(state.hand);
  hand.classList.toggle("choosing", legal.size > 0);
  hand.hidden = cards.length === 0 || Boolean(state.hand_summary);
  hand.setAttribute("aria-label", `Your hand, ${plural(cards.length, "card")}`);
  hand.replaceChildren();
  // Held the way a hand is: overlapping, in two rows on a phone when long.
  const two = cards.length > HAND_ROW && !wide.matches;
  const split = two ? Math.ceil(cards.length / 2) : cards.length;
  const rows = two ? [cards.slice(0, split), cards.slice(split)] : [cards];
  hand.dataset.rows = String(rows.length);
  for (const row of rows) {
    const line = element("div", { class: "hand-row" });
    line.style.setProperty("--k", String(Math.max(row.length, 2)));
    row.forEach((card, i) => {
      const playable = legal.has(card);
      // Its name is said in words ("queen of hearts"); the face is for the eye.
      const button = element("button", { class: `card${playable ? " legal" : ""}`, "data-card": card, type: "button" });
      button.append(element("span", { class: "visually-hidden" }, cardName(card)));
      const tilt = i - (row.length - 1) / 2;
      button.style.setProperty("--tilt", String(tilt));
      button.style.setProperty("--arc", String(Math.round(Math.abs(tilt) * 1.5)));
      button.append(cardFace(card));
      button.disabled = !playable;
      button.addEventListener("click", () => send({ type: "play", card }));
      line.append(button);
    });
    hand.append(line);
  }
}

function renderScores(state) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const team of ["NS", "EW"]) {
    const mine = state.seat && teamOf(state.seat) === team;
    const box = element("span", { class: `team${mine ? " mine" : ""}`, "data-team": team });
    box.append(element("b", {}, `${team} ${num(state.scores[team])}`), element("small", {}, ` bags ${state.bags[team]}`));
    if (mine) box.append(element("span", { class: "visually-hidden" }, " (your team)"));
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
  const cell = element("td", {}, `${num(result.scores[team])} `);
  cell.append(element("small", {}, `(${signed(result.points[team])})`));
  return cell;
}

function miniTrick(trick) {
  const box = element("div", { class: "last-trick" });
  for (const [seat, card] of trickPlays(trick)) {
    const item = element("span", {
      class: `mini${seat === trick.winner ? " winner" : ""}`,
      role: "img",
      "aria-label": `${SEAT_NAMES[seat]}: ${cardName(card)}${seat === trick.winner ? ", won" : ""}`,
    });
    item.append(element("span", { class: "who", "aria-hidden": "true" }, seat), cardFace(card));
    box.append(item);
  }
  return box;
}

function renderCoach(state) {
  const toggle = $("coach-switch");
  // The web app switches the engine's coach; at the multiplayer table the
  // coach is the table's setting, and the switch only hides its tips here.
  const local = transport.kind !== "worker";
  $("coach").hidden = !state.seat || (local && !state.coach_on); // a spectator gets no tips
  toggle.checked = local ? state.coach_on !== false && stored("spades-table.coach-hidden") !== "yes" : state.coach_on !== false;
  toggle.disabled = !live && !local;
  const tip = $("coach-tip");
  tip.replaceChildren();
  if (!state.coach || !toggle.checked) {
    tip.append(element("p", { class: "hint" }, toggle.checked ? "Tips on your turn." : "Tips are off."));
    return;
  }
  const action = state.coach.action;
  const move = typeof action === "number" ? `bid ${bidText(action)}` : `play the ${cardName(action)} (${cardText(action)})`;
  // Where the variant's note on the bid already says the coach's first
  // sentence, the tip says only what it adds.
  let reason = state.coach.reason;
  if (state.bid_note && reason.startsWith(state.bid_note)) reason = reason.slice(state.bid_note.length).trim();
  tip.append(element("h3", {}, `Coach: ${move}`));
  if (reason) tip.append(element("p", {}, reason));
}

function renderSide(state) {
  const last = $("last-trick");
  last.replaceChildren();
  // At the end of a hand its last trick is on the felt: it is not said again here.
  const between = state.phase === "DEAL" || state.phase === "GAME_OVER";
  $("last-trick-box").hidden = between;
  if (state.last_trick && !between) last.append(...miniTrick(state.last_trick).childNodes);
  else last.textContent = "none yet";
  $("rules").textContent = state.house_rules.length
    ? `${state.title}, with house rules: ${state.house_rules.join("; ")}.`
    : `${state.title}, standard rules.`;
  const invites = $("invites");
  invites.replaceChildren();
  const open = Object.entries(state.invites || {});
  $("invites-box").hidden = open.length === 0;
  for (const [seat, secret] of open) {
    const url = `${window.location.origin}/t/${state.table}?token=${encodeURIComponent(secret)}`;
    const line = element("div", { class: "invite" });
    const player = state.players[seat];
    const kind = player ? player.kind : "watch";
    const label = seat === "watch" ? "Spectators" : `${SEAT_NAMES[seat]}${kind === "person" ? "" : ` (now ${whoText({ ...player, online: false })})`}`;
    const text = seat === "watch" ? "watch link" : "seat link";
    line.append(element("span", {}, `${label}: `), element("a", { href: url, "data-invite": seat, target: "_blank" }, text));
    invites.append(line);
  }
  $("game-menu").hidden = transport.kind !== "worker";
}

const GOOD = new Set(["contract_made", "nil_made", "double_nil_made"]);
const BAD = new Set(["contract_set", "nil_failed", "double_nil_failed", "bag_penalty"]);

// One team's score for the hand, item by item, as the library itemised it
// (each item's words already say its bags).
function teamScore(state, summary, team) {
  const scored = summary.teams[team];
  const mine = state.seat && teamOf(state.seat) === team;
  const box = element("div", { class: `team-score${mine ? " mine" : ""}`, "data-team": team });
  box.append(element("h4", {}, `${team}${mine ? " (you)" : ""}: ${signed(scored.points)}`));
  const items = element("ul", { class: "items" });
  for (const item of scored.items) {
    const kind = GOOD.has(item.kind) ? "made" : BAD.has(item.kind) ? "set" : "";
    const line = element("li", { class: kind, "data-kind": item.kind });
    line.append(element("span", { class: "label" }, item.label), element("b", {}, signed(item.points)));
    items.append(line);
  }
  if (!scored.items.length) items.append(element("li", { class: "none" }, "nothing scored"));
  box.append(items);
  box.append(element("p", { class: "hint" }, `bags ${scored.bags_before} → ${scored.bags} · score ${num(summary.scores[team])}`));
  return box;
}

function renderSummary(state) {
  const box = $("hand-summary");
  const summary = state.hand_summary;
  box.hidden = !summary;
  box.replaceChildren();
  if (!summary) return;
  box.append(element("h3", { id: "summary-title" }, `Hand ${summary.number + 1} scored`));
  const teams = element("div", { class: "teams" });
  teams.append(teamScore(state, summary, "NS"), teamScore(state, summary, "EW"));
  box.append(teams);
  if (state.phase === "DEAL") {
    const mine = state.seat && state.waiting_for_next.includes(state.seat);
    const next = element("button", { type: "button", class: "play", "data-testid": "next-hand" }, "Next hand");
    next.disabled = !mine || !live;
    next.addEventListener("click", () => send({ type: "next" }));
    box.append(next);
  }
}

function turnText(state) {
  if (!live) return ["Starting the game engine… your game is as you left it.", false];
  if (state.phase === "GAME_OVER") return [state.winner ? `Game over: ${state.winner} wins.` : "Game over: a draw.", false];
  if (state.phase === "DEAL") {
    if (!state.hand_results.length) return ["Dealing…", false];
    if (state.seat && state.waiting_for_next.includes(state.seat)) return ["Hand over: the score is below. Next hand when you are ready.", true];
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

function renderHeader(state) {
  $("title").textContent = state.title;
  // Between hands, and when the game is over, the hand to name is the one just scored.
  const scored = state.phase === "GAME_OVER" || (state.phase === "DEAL" && state.hand_results.length);
  $("hand-number").textContent = String(scored ? state.hand_results.length : state.hand_number + 1);
  $("phase").textContent = PHASE_WORDS[state.phase] || state.phase;
  $("phase").dataset.phase = state.phase;
  renderScores(state);
}

function showGameOver(state) {
  const over = $("game-over");
  if (state.phase !== "GAME_OVER") delete over.dataset.dismissed;
  const was = over.hidden;
  over.hidden = screen !== "table" || state.phase !== "GAME_OVER" || over.dataset.dismissed === "yes";
  $("table-screen").inert = !over.hidden; // a modal: the table behind waits
  if (was && !over.hidden) $("play-again").focus();
  if (state.phase !== "GAME_OVER") return;
  const won = state.winner && state.seat && teamOf(state.seat) === state.winner;
  const remark = !state.seat ? "" : won ? " — well played!" : " — better luck next time.";
  // A hand limit can end a game level: a draw, with no winner.
  $("winner").textContent = state.winner ? `${state.winner} wins${remark}` : "A draw";
  const hands = state.hand_results.length;
  $("final-scores").textContent = `Final score: NS ${num(state.scores.NS)}, EW ${num(state.scores.EW)} after ${plural(hands, "hand")}.`;
}

// Where each card of the hand and each seat is now, before the screen
// changes: a card just played moves from there to the trick.
function origins() {
  const cards = new Map();
  const seats = new Map();
  if (!$("table-screen").hidden) {
    for (const card of $("hand").querySelectorAll("[data-card]")) cards.set(card.dataset.card, card.getBoundingClientRect());
    for (const box of $("felt").querySelectorAll(".seat")) {
      const backs = box.querySelector(".backs");
      seats.set(box.dataset.at, (backs || box).getBoundingClientRect());
    }
  }
  return { cards, seats };
}

function render(state) {
  const from = origins();
  latest = state;
  const me = state.seat || "S"; // a spectator looks from South's chair
  const where = positions(me);
  if (screen === "table") renderHeader(state);
  const [turn, mine] = turnText(state);
  $("turn").textContent = turn;
  $("turn").classList.toggle("mine", mine);
  for (const [place, seat] of Object.entries(where)) renderSeat($(`seat-${place}`), seat, state, seat === state.seat);
  renderTrick(state, where, from);
  renderBids(state);
  renderHand(state);
  renderCoach(state);
  renderSide(state);
  renderSummary(state);
  showGameOver(state);
}

function onMessage(message) {
  if (message.type === "state") {
    $("error").textContent = "";
    live = true;
    if (transport.kind === "worker") store(STORE.view, JSON.stringify(message));
    render(message);
    // A state shows the table when a game was asked for or is on screen; one
    // that arrives while the start page is open (the bots play on) waits there.
    if (wantTable || screen === "table" || screen === "loading") {
      wantTable = false;
      if (screen !== "table") show("table");
    }
    showResume();
  } else if (message.type === "error") {
    $("error").textContent = message.message;
  }
}

// -- the web app: saved games, kept saves, offline ------------------------------------

function sizeText(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return plural(bytes, "byte");
}

function savedGame() {
  const record = stored(STORE.record);
  const seating = stored(STORE.seating);
  return record !== null || seating !== null ? { record, seating } : null;
}

function save(record, seating) {
  const kept = store(STORE.record, record) && store(STORE.seating, seating);
  if (!kept) {
    $("error").textContent = "This browser did not save the game (its storage is full or switched off): "
      + "export the record to keep it.";
  }
}

// A save that cannot be played on is moved aside as it is, never overwritten.
// When the browser has no room for the copy, it stays where it is (`stuck`),
// is offered like the others, and no game may start over it until it is
// exported or discarded.
let stuck = null;

function keepAside(saved, reason) {
  const stamp = `${Date.now()}`;
  const parts = { record: saved.record ?? "", seating: saved.seating ?? "", reason };
  const ok = Object.entries(parts).every(([part, value]) => store(`${KEPT}${stamp}.${part}`, value));
  if (!ok) {
    for (const part of Object.keys(parts)) unstore(`${KEPT}${stamp}.${part}`);
    stuck = { stamp: null, ...parts };
    return false;
  }
  unstore(STORE.record);
  unstore(STORE.seating);
  unstore(STORE.view);
  return true;
}

const STUCK_WORDS = "This browser has no room to keep the saved game aside, so a new game would "
  + "overwrite it: export it or discard it first.";

function blockedByStuck() {
  if (!stuck) return false;
  $("form-error").textContent = STUCK_WORDS;
  return true;
}

function keptSaves() {
  const stamps = new Set();
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      const found = key && key.startsWith(KEPT) ? /^(\d+)\.record$/.exec(key.slice(KEPT.length)) : null;
      if (found) stamps.add(found[1]);
    }
  } catch {
    return [];
  }
  const kept = [...stamps].sort().map((stamp) => ({
    stamp,
    record: stored(`${KEPT}${stamp}.record`),
    seating: stored(`${KEPT}${stamp}.seating`),
    reason: stored(`${KEPT}${stamp}.reason`) || "it could not be read",
  }));
  return stuck ? [stuck, ...kept] : kept;
}

function download(text, variantHint) {
  const variant = parsed(text) && typeof parsed(text).variant === "string" ? parsed(text).variant : variantHint;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-");
  const name = variant && /^[a-z][a-z0-9_-]{0,39}$/.test(variant) ? `spades-${variant}-${stamp}.json` : `spades-saved-game-${stamp}.json`;
  const link = element("a", {
    href: URL.createObjectURL(new Blob([`${text}\n`], { type: "application/json" })),
    download: name,
  });
  document.body.append(link);
  link.click();
  link.remove();
}

function exportRecord() {
  const saved = savedGame();
  if (!saved || saved.record === null) {
    $("error").textContent = "There is no saved record to export.";
    return;
  }
  download(saved.record);
}

// The saves kept aside, each with its reason, to export, play on when the
// engine can read it again, or discard once asked twice.
async function showKept() {
  const box = $("kept");
  const saves = keptSaves();
  box.replaceChildren();
  box.hidden = saves.length === 0;
  if (!saves.length) return;
  box.append(element("h2", {}, saves.length === 1 ? "A saved game is kept aside" : `${saves.length} saved games are kept aside`));
  for (const saved of saves) {
    const item = element("div", { class: "kept-save", "data-kept": saved.stamp ?? "here" });
    const when = saved.stamp === null
      ? "last"
      : `on ${new Date(Number(saved.stamp)).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}`;
    const words = element("p", {});
    words.append(
      element("strong", {}, `The game saved ${when} could not be opened. `),
      `${saved.reason[0].toUpperCase()}${saved.reason.slice(1)} `,
      saved.stamp === null
        ? STUCK_WORDS
        : "It is kept here as it was: export it to keep a copy, or play it on once the app can read it.",
    );
    item.append(words);
    const menu = element("div", { class: "menu" });
    const exporting = element("button", { type: "button", class: "secondary", "data-testid": "kept-export" }, "Export it");
    exporting.addEventListener("click", () => download(saved.record ?? ""));
    const resume = element("button", { type: "button", "data-testid": "kept-resume", hidden: "" }, "Play it on");
    resume.addEventListener("click", () => resumeKept(saved));
    const discard = element("button", { type: "button", class: "secondary", "data-testid": "kept-discard" }, "Discard");
    discard.addEventListener("click", () => {
      if (discard.dataset.sure !== "yes") {
        discard.dataset.sure = "yes";
        discard.textContent = "Discard for good";
        return;
      }
      if (saved.stamp === null) {
        unstore(STORE.record);
        unstore(STORE.seating);
        unstore(STORE.view);
        stuck = null;
        $("form-error").textContent = "";
      }
      for (const part of ["record", "seating", "reason"]) unstore(`${KEPT}${saved.stamp}.${part}`);
      showKept();
    });
    menu.append(exporting, resume, discard);
    item.append(menu);
    box.append(item);
    // Readable again (the app now has the variant it needs)? Then offer it.
    engineReady.then(async () => {
      if (saved.stamp === null || saved.record === null || saved.seating === null) return;
      const refusal = await transport.check(saved.record, saved.seating);
      if (refusal === null) {
        resume.hidden = false;
        item.querySelector("p").textContent = `The game saved on ${when} could not be opened before; the app can play it on now.`;
      }
    }).catch(() => {});
  }
}

async function resumeKept(saved) {
  $("form-error").textContent = "";
  if (blockedByStuck()) return;
  wantTable = true;
  try {
    await transport.resume(saved.record, saved.seating);
  } catch (error) {
    wantTable = false;
    refused(error);
    return;
  }
  for (const part of ["record", "seating", "reason"]) unstore(`${KEPT}${saved.stamp}.${part}`);
  showKept();
}

async function importRecord(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  $("form-error").textContent = "";
  if (blockedByStuck()) return;
  // Refused by its size before a byte of it is read.
  if (file.size > catalogue.record_limit) {
    $("form-error").textContent = `This file is ${sizeText(file.size)}; a game record is at most ${sizeText(catalogue.record_limit)}, so it was not read.`;
    return;
  }
  const settings = formSettings();
  wantTable = true;
  try {
    await engineReady;
    await transport.resume((await file.text()).trim(), JSON.stringify({ players: settings.players, coach: settings.coach }));
  } catch (error) {
    wantTable = false;
    refused(error);
  }
}

// The service worker keeps every file of the app, so it loads and plays
// offline; on the first visit it says how far its copy has got.
async function installOffline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.kind !== "copying") return;
    $("download").hidden = false;
    $("download-bar").max = data.total;
    $("download-bar").value = data.done;
    $("download-text").textContent = data.done >= data.total
      ? `Downloaded ${sizeText(data.total)}: from now on the game loads from this device, with or without a network.`
      : `Downloading the game for this device (once): ${sizeText(data.done)} of ${sizeText(data.total)}`;
  });
  navigator.serviceWorker.startMessages();
  document.head.append(element("link", { rel: "manifest", href: "manifest.webmanifest" }));
  let registration = null;
  try {
    registration = await navigator.serviceWorker.register("sw.js");
  } catch {
    // no offline copy (a browser setting, an insecure origin): play online
  }
  if (!registration) return;
  // A copy being made takes the engine's files from the browser's HTTP cache
  // once the engine has loaded them: they are downloaded once.
  engineFilesLoaded.then(() => {
    const copying = registration.installing || registration.waiting;
    if (copying) copying.postMessage({ kind: "engine-loaded" });
  });
}

let engineFilesFetched;
const engineFilesLoaded = new Promise((resolve) => {
  engineFilesFetched = resolve;
});

function loadingStep(text) {
  $("loading-text").textContent = text;
}

function showSavedView(saved) {
  const view = parsed(stored(STORE.view));
  if (!saved || saved.record === null || !view || view.type !== "state" || !Array.isArray(view.hand)) return false;
  try {
    live = false;
    render(view);
    show("table");
    return true;
  } catch {
    return false; // a damaged view: the engine's state will come
  }
}

function buildFromCatalogue(fresh) {
  const keep = currentChoices() || parsed(stored(STORE.settings));
  catalogue = fresh;
  buildStartPage(keep);
}

async function startApp() {
  const saved = savedGame();
  transport = workerTransport({ botDelay: botDelaySeconds * 1000 });
  let engineSteps = 0;
  transport.connect({
    onMessage,
    onSaved: save,
    onStarted(from) {
      document.documentElement.dataset.engineStart = from; // for the curious, and the tests
    },
    onProgress({ step, steps, text }) {
      engineSteps = step;
      if (step >= 2) engineFilesFetched(); // Pyodide, its library and the wheels are in
      $("engine-step").textContent = `The game engine: ${text} (${step} of ${steps})`;
      if (!catalogue) loadingStep(step < steps ? "Starting the game…" : "Ready.");
    },
  });
  installOffline();
  wireApp();
  // Something on screen at once: the game as it was left, or the start page
  // from the last visit's catalogue, while the engine starts.
  const shownSaved = showSavedView(saved);
  const cached = parsed(stored(STORE.catalogue));
  if (cached && Array.isArray(cached.variants) && cached.variants.length) {
    try {
      buildFromCatalogue(cached);
      if (!shownSaved && !saved) show("start");
    } catch {
      catalogue = null;
    }
  }
  if (screen === "loading") {
    loadingStep(engineSteps ? "Starting the game…" : "Loading the game…");
    show("loading");
  }
  let fresh;
  engineReady = transport.catalogue();
  try {
    fresh = await engineReady;
  } catch (error) {
    loadingStep(`The game engine could not start: ${error.message}`);
    show("loading");
    return;
  }
  const text = JSON.stringify(fresh);
  if (text !== stored(STORE.catalogue) || !catalogue) {
    store(STORE.catalogue, text);
    buildFromCatalogue(fresh);
  }
  if (saved && saved.record === null) unstore(STORE.seating); // no game to keep: only who sat where
  else if (saved) {
    if (saved.seating !== null) {
      wantTable = true;
      try {
        await transport.resume(saved.record, saved.seating);
        showKept();
        return; // its state message shows the table
      } catch (error) {
        wantTable = false;
        keepAside(saved, /[.!?]$/.test(error.message) ? error.message : `${error.message}.`);
      }
    } else {
      keepAside(saved, "part of it is missing (its record or who plays each seat).");
    }
    latest = null;
    live = false;
  }
  showKept();
  showResume();
  show("start");
}

function wireApp() {
  $("export").addEventListener("click", exportRecord);
  $("import").addEventListener("change", importRecord);
  $("new-game").addEventListener("click", () => {
    showResume();
    showKept();
    show("start");
  });
  $("resume").addEventListener("click", () => latest && show("table"));
  $("play-again").addEventListener("click", () => {
    unstore(STORE.record);
    unstore(STORE.seating);
    unstore(STORE.view);
    latest = null;
    live = false;
    showResume();
    showKept();
    show("start");
  });
}

async function startServerPage() {
  transport = serverTransport();
  $("play-again").addEventListener("click", () => window.location.assign("/"));
  if (transport.tableId) {
    loadingStep("Connecting…");
    show("loading");
    transport.connect({
      onMessage,
      onStatus(text, online) {
        $("connection").textContent = text;
        $("connection").classList.toggle("online", online);
      },
    });
    return;
  }
  engineReady = Promise.resolve();
  catalogue = await transport.catalogue();
  buildStartPage(null);
  show("start");
}

function wirePage() {
  $("new-table").addEventListener("submit", startGame);
  $("show-table").addEventListener("click", () => {
    $("game-over").dataset.dismissed = "yes";
    $("game-over").hidden = true;
    $("table-screen").inert = false;
  });
  $("more-levels").addEventListener("click", () => openSheet("players-sheet"));
  $("house-rules").addEventListener("click", () => openSheet("rules-sheet"));
  for (const button of document.querySelectorAll("[data-close]")) {
    button.addEventListener("click", () => closeSheet(button.dataset.close));
  }
  for (const sheet of document.querySelectorAll(".sheet")) {
    sheet.addEventListener("keydown", (event) => {
      if (event.key === "Escape") closeSheet(sheet.id);
    });
    sheet.addEventListener("click", (event) => {
      if (event.target === sheet) closeSheet(sheet.id);
    });
  }
  $("rules-reset").addEventListener("click", () => {
    showOptions();
    countChanges();
  });
  $("coach-switch").addEventListener("change", async () => {
    const on = $("coach-switch").checked;
    if (transport.kind === "worker") {
      try {
        await transport.setCoach(on);
      } catch (error) {
        $("error").textContent = error.message;
      }
    } else {
      store("spades-table.coach-hidden", on ? "no" : "yes");
      if (latest) renderCoach(latest);
    }
  });
  wide.addEventListener("change", () => latest && renderHand(latest));
}

wirePage();
if (MODE === "server") startServerPage();
else startApp();
