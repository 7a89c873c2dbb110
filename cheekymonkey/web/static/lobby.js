// The lobby: choose the rules and the seats, make a room, and hand out the seat links.
"use strict";

(function () {
  const form = document.getElementById("new-room");
  const preset = document.getElementById("preset");
  const custom = document.getElementById("custom");
  const seatList = document.getElementById("seats");
  const errorBox = document.getElementById("lobby-error");
  let options = null;

  function seatRow(index, name, kind) {
    const li = el("li", "seat-row");
    const nameId = "seat-name-" + index;
    const kindId = "seat-kind-" + index;
    const nameLabel = el("label", "visually-hidden", "Seat " + index + " name");
    nameLabel.htmlFor = nameId;
    const nameInput = el("input");
    nameInput.id = nameId;
    nameInput.maxLength = options.max_name_length;
    nameInput.value = name;
    nameInput.className = "seat-input";
    const kindLabel = el("label", "visually-hidden", "Seat " + index + " player");
    kindLabel.htmlFor = kindId;
    const select = el("select", "seat-kind");
    select.id = kindId;
    select.appendChild(new Option("Person", "human"));
    for (const bot of options.bots) select.appendChild(new Option(label(bot) + " bot", bot));
    select.value = kind;
    select.addEventListener("change", () => {
      if (select.value !== "human" && /^(Player|.* bot) \d+$/.test(nameInput.value)) {
        nameInput.value = label(select.value) + " bot " + index;
      }
    });
    li.append(nameLabel, nameInput, kindLabel, select);
    return li;
  }

  function addSeat() {
    const index = seatList.children.length;
    if (index >= 6) return;
    seatList.appendChild(seatRow(index, "Heuristic bot " + index, "heuristic"));
  }

  function customRuleset() {
    const counts = {};
    const values = {};
    for (const animal of ANIMALS) {
      counts[animal] = Number(document.getElementById("count-" + animal).value);
      values[animal] = Number(document.getElementById("value-" + animal).value);
      if (counts[animal] === 0) values[animal] = 0;
    }
    return {
      format: FORMAT, kind: "ruleset", name: "custom", counts: counts, bonus_values: values,
      bonus_tiles: document.getElementById("bonus-tiles").checked,
      swap: document.getElementById("swap").checked, min_players: 2, max_players: 6,
    };
  }

  function fillCustom(ruleset) {
    for (const animal of ANIMALS) {
      document.getElementById("count-" + animal).value = ruleset.counts[animal];
      document.getElementById("value-" + animal).value = ruleset.bonus_values[animal];
    }
    document.getElementById("bonus-tiles").checked = ruleset.bonus_tiles;
    document.getElementById("swap").checked = ruleset.swap;
  }

  function buildCustom() {
    const grid = document.getElementById("custom-animals");
    grid.appendChild(el("span", "grid-head", "Animal"));
    grid.appendChild(el("span", "grid-head", "Tokens"));
    grid.appendChild(el("span", "grid-head", "Bonus"));
    for (const animal of ANIMALS) {
      grid.appendChild(token(animal, "small"));
      for (const [what, max] of [["count", 20], ["value", 99]]) {
        const input = el("input");
        input.type = "number";
        input.min = "0";
        input.max = String(max);
        input.id = what + "-" + animal;
        input.setAttribute("aria-label", label(animal) + (what === "count" ? " tokens" : " bonus value"));
        grid.appendChild(input);
      }
    }
  }

  function showLinks(answer) {
    const list = document.getElementById("link-list");
    list.textContent = "";
    let first = true;
    for (const seat of answer.seats) {
      if (!seat.link) continue;
      const url = new URL(seat.link, location.href).href;
      const li = el("li", "link-row");
      li.appendChild(el("span", "link-name", seat.name + " (seat " + seat.seat + ")"));
      const a = el("a", first ? "button primary" : "button", first ? "Take this seat" : "Open");
      a.href = url;
      const field = el("input", "link-text");
      field.readOnly = true;
      field.value = url;
      field.setAttribute("aria-label", "Link for " + seat.name);
      const copy = el("button", "", "Copy");
      copy.type = "button";
      copy.addEventListener("click", () => {
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => undefined);
      });
      li.append(a, field, copy);
      list.appendChild(li);
      first = false;
    }
    const section = document.getElementById("links");
    section.hidden = false;
    section.querySelector("a").focus();
  }

  async function submit(event) {
    event.preventDefault();
    errorBox.textContent = "";
    const seats = Array.from(seatList.children).map((li) => {
      const kind = li.querySelector(".seat-kind").value;
      const seat = { name: li.querySelector(".seat-input").value };
      if (kind !== "human") seat.bot = kind;
      return seat;
    });
    const body = { seats: seats };
    if (preset.value === "custom") body.ruleset = customRuleset();
    else body.preset = preset.value;
    const seedText = document.getElementById("seed").value;
    if (options.seeds && seedText !== "") body.seed = Number(seedText);
    try {
      const response = await fetch("/api/rooms", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) {
        errorBox.textContent = answer.error || "The room could not be made.";
        return;
      }
      showLinks(answer);
    } catch (error) {
      errorBox.textContent = "The server cannot be reached: " + error;
    }
  }

  async function start() {
    options = await (await fetch("/api/options")).json();
    for (const name of Object.keys(options.presets)) preset.appendChild(new Option(name, name));
    preset.appendChild(new Option("custom", "custom"));
    buildCustom();
    fillCustom(options.presets.standard);
    preset.addEventListener("change", () => {
      custom.hidden = preset.value !== "custom";
      if (preset.value !== "custom") fillCustom(options.presets[preset.value]);
    });
    seatList.appendChild(seatRow(0, "You", "human"));
    addSeat();
    addSeat();
    document.getElementById("add-seat").addEventListener("click", addSeat);
    document.getElementById("remove-seat").addEventListener("click", () => {
      if (seatList.children.length > 2) seatList.lastElementChild.remove();
    });
    document.getElementById("seed-row").hidden = !options.seeds;
    form.addEventListener("submit", submit);
  }

  start();
})();
