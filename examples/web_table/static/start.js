// The start page: every installed variant, its options with their defaults,
// who plays the other seats, and the coach. The server (and the engine behind
// it) checks everything; this page only collects the choices.
"use strict";

const SEAT_NAMES = { N: "North (partner)", E: "East", W: "West" };
let catalogue = null;

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function chosenVariant() {
  const picked = document.querySelector("input[name=variant]:checked");
  return catalogue.variants.find((v) => v.id === picked.value);
}

function showOptions() {
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const option of chosenVariant().options) {
    const row = element("label", { class: "option", title: option.accepts });
    row.append(element("span", { class: "name" }, option.name));
    let input;
    if (option.kind === "bool") {
      input = element("input", { type: "checkbox" });
      input.checked = option.default;
    } else if (option.kind === "choice") {
      input = element("select");
      for (const choice of option.choices) input.append(element("option", { value: choice }, choice));
      input.value = option.default;
    } else if (option.kind === "int") {
      input = element("input", { type: "text", inputmode: "numeric", size: "6" });
      input.value = option.default === null ? "" : String(option.default);
      if (option.nullable) input.placeholder = "none";
    } else {
      input = element("input", { type: "text", size: "10" });
      input.value = JSON.stringify(option.default);
    }
    input.dataset.option = option.name;
    input.dataset.kind = option.kind;
    input.dataset.default = JSON.stringify(option.default);
    row.append(input, element("span", { class: "summary" }, option.summary));
    box.append(row);
  }
}

// Only options changed from their defaults are sent; the engine validates them.
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
      try { value = JSON.parse(input.value); } catch { value = input.value; }
    }
    if (JSON.stringify(value) !== input.dataset.default) values[input.dataset.option] = value;
  }
  return values;
}

async function load() {
  catalogue = await (await fetch("/api/variants")).json();
  const variants = document.getElementById("variants");
  catalogue.variants.forEach((variant, index) => {
    const label = element("label", { class: "variant" });
    const radio = element("input", { type: "radio", name: "variant", value: variant.id, "data-variant": variant.id });
    radio.checked = index === 0;
    radio.addEventListener("change", showOptions);
    label.append(radio, element("strong", {}, variant.title), element("span", {}, variant.summary));
    variants.append(label);
  });
  const players = document.getElementById("players");
  for (const [seat, name] of Object.entries(SEAT_NAMES)) {
    const row = element("label", { class: "option" });
    const select = element("select", { "data-seat": seat });
    for (const level of catalogue.levels) select.append(element("option", { value: level }, `bot: ${level}`));
    select.append(element("option", { value: "person" }, "a friend (invite link)"));
    select.value = catalogue.levels.includes("normal") ? "normal" : catalogue.levels[0];
    row.append(element("span", { class: "name" }, name), select);
    players.append(row);
  }
  showOptions();
}

document.getElementById("new-table").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("form-error");
  error.textContent = "";
  const players = {};
  for (const select of document.querySelectorAll("[data-seat]")) players[select.dataset.seat] = select.value;
  const body = {
    variant: chosenVariant().id,
    options: optionValues(),
    players,
    coach: document.getElementById("coach").checked,
  };
  const response = await fetch("/api/tables", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) {
    error.textContent = answer.error;
    return;
  }
  window.location.assign(answer.url);
});

load();
