// The lobby: choose the game, the rules and the seats, make a room, and hand out the seat links. Everything
// about a game comes from /api/options; a game's custom rules editor comes from its drawing (common.js).
"use strict";

(function () {
  const form = document.getElementById("new-room");
  const gameSelect = document.getElementById("game");
  const preset = document.getElementById("preset");
  const custom = document.getElementById("custom");
  const seatList = document.getElementById("seats");
  const errorBox = document.getElementById("lobby-error");
  let options = null;
  let game = null; // the chosen game's options
  let drawing = null; // its drawing (for the custom rules editor), if it has one

  function botTitle(kind) {
    const bot = game.bots.find((b) => b.name === kind);
    return bot ? bot.title : kind;
  }

  // A default name says what sits there: "Player 2", "MCTS bot 3". Neutral for everyone who reads it.
  function defaultName(index, kind) {
    return kind === "human" ? "Player " + index : botTitle(kind) + " bot " + index;
  }

  function seatRow(index, kind) {
    const li = el("li", "seat-row");
    const nameId = "seat-name-" + index;
    const kindId = "seat-kind-" + index;
    // The seat's number, shown (the legend says seat 0 starts); the name box is read as "Seat 0 name".
    const nameLabel = el("label", "seat-number", "Seat " + index);
    nameLabel.appendChild(el("span", "visually-hidden", " name"));
    nameLabel.htmlFor = nameId;
    const nameInput = el("input");
    nameInput.id = nameId;
    nameInput.maxLength = options.max_name_length;
    nameInput.value = defaultName(index, kind);
    nameInput.className = "seat-input";
    const kindLabel = el("label", "visually-hidden", "Seat " + index + " player");
    kindLabel.htmlFor = kindId;
    const select = el("select", "seat-kind");
    select.id = kindId;
    select.appendChild(new Option("Person", "human"));
    for (const bot of game.bots) {
      // A bot that cannot play on this server (its extra is missing) is shown, greyed out, with what to install.
      const option = new Option(bot.title + " bot" + (bot.unavailable ? " (unavailable: " + bot.unavailable + ")" : ""), bot.name);
      option.disabled = Boolean(bot.unavailable);
      option.title = bot.unavailable || "";
      select.appendChild(option);
    }
    select.value = kind;
    select.addEventListener("change", () => {
      // A name still at its default follows the kind chosen; a name someone typed stays.
      const defaults = ["human"].concat(game.bots.map((b) => b.name)).map((k) => defaultName(index, k));
      if (defaults.includes(nameInput.value)) nameInput.value = defaultName(index, select.value);
    });
    li.append(nameLabel, nameInput, kindLabel, select);
    return li;
  }

  function addSeat() {
    const index = seatList.children.length;
    if (index >= game.seats[1]) return;
    const playable = game.bots.filter((b) => !b.unavailable);
    const kind = playable.some((b) => b.name === "heuristic") ? "heuristic" : playable.length ? playable[0].name : "human";
    seatList.appendChild(seatRow(index, kind));
  }

  // The game's usual seat count under the rules chosen (a preset's, or the game's own for custom rules).
  function usualSeats() {
    const count = game.preset_seats[preset.value];
    return count === undefined ? game.default_seats : count;
  }

  // Seats added or taken off the end until there are ``count`` (the rows kept keep what was typed in them).
  function fitSeats(count) {
    const wanted = Math.max(game.seats[0], Math.min(count, game.seats[1]));
    while (seatList.children.length < wanted) addSeat();
    while (seatList.children.length > wanted) seatList.lastElementChild.remove();
  }

  async function chooseGame(name) {
    // Everything a room is made from is set before the first wait, so the form sent at any moment names one
    // game and its own seats, bots and presets; the drawing only adds the custom rules editor and the tagline.
    const chosen = options.games.find((g) => g.name === name);
    game = chosen;
    drawing = null;
    document.getElementById("title").textContent = game.title;
    document.title = game.title + ": make a room";
    preset.textContent = "";
    for (const presetName of Object.keys(game.presets)) preset.appendChild(new Option(presetName, presetName));
    custom.hidden = true;
    custom.querySelectorAll(":scope > :not(legend)").forEach((node) => node.remove());
    seatList.textContent = "";
    seatList.appendChild(seatRow(0, "human"));
    fitSeats(usualSeats());
    const loaded = await loadGame(chosen.name);
    if (game !== chosen) return; // another game was chosen while this one's drawing loaded
    drawing = loaded;
    if (drawing && drawing.tagline) document.getElementById("tagline").textContent = drawing.tagline;
    if (drawing && drawing.customRules) {
      drawing.customRules.build(custom);
      drawing.customRules.fill(Object.values(game.presets)[0]);
      preset.appendChild(new Option("custom", "custom"));
    }
  }

  // One link to hand out: who it is for, a button that opens it, the link itself to copy.
  function linkRow(name, opens, primary, link, label) {
    const url = new URL(link, location.href).href;
    const li = el("li", "link-row");
    li.appendChild(el("span", "link-name", name));
    const a = el("a", primary ? "button primary" : "button", opens);
    a.href = url;
    const field = el("input", "link-text");
    field.readOnly = true;
    field.value = url;
    field.setAttribute("aria-label", label);
    const copy = el("button", "", "Copy");
    copy.type = "button";
    copy.addEventListener("click", () => {
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => undefined);
    });
    li.append(a, field, copy);
    return li;
  }

  function showLinks(answer) {
    const list = document.getElementById("link-list");
    list.textContent = "";
    let first = true;
    for (const seat of answer.seats) {
      if (!seat.link) continue;
      const name = seat.name + " (seat " + seat.seat + ")";
      list.appendChild(linkRow(name, first ? "Take this seat" : "Open", first, seat.link, "Link for " + seat.name));
      first = false;
    }
    // The room's watch link, for anyone to follow the game: it shows what every seat sees, never a hand.
    if (answer.watch) {
      const row = linkRow("To watch (plays no seat; shows what every seat sees)", "Watch", false, answer.watch, "Link to watch the room");
      row.classList.add("watch-row");
      list.appendChild(row);
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
    const body = { game: game.name, seats: seats };
    if (preset.value === "custom") body.ruleset = drawing.customRules.read();
    else body.preset = preset.value;
    const seedText = document.getElementById("seed").value;
    if (options.seeds && seedText !== "") body.seed = Number(seedText);
    try {
      const response = await fetch("/api/rooms", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        const wait = response.headers.get("Retry-After");
        errorBox.textContent = capital(answer.error || "the room could not be made") + (wait ? " (try again in " + wait + " s)" : "");
        return;
      }
      showLinks(answer);
    } catch (error) {
      errorBox.textContent = "The server cannot be reached: " + error;
    }
  }

  async function start() {
    options = await (await fetch("/api/options")).json();
    for (const g of options.games) gameSelect.appendChild(new Option(g.title, g.name));
    document.getElementById("game-row").hidden = options.games.length < 2;
    gameSelect.addEventListener("change", () => chooseGame(gameSelect.value));
    preset.addEventListener("change", () => {
      custom.hidden = preset.value !== "custom";
      if (preset.value !== "custom" && drawing && drawing.customRules) drawing.customRules.fill(game.presets[preset.value]);
      if (preset.value !== "custom") fitSeats(usualSeats());
    });
    document.getElementById("add-seat").addEventListener("click", addSeat);
    document.getElementById("remove-seat").addEventListener("click", () => {
      if (seatList.children.length > game.seats[0]) seatList.lastElementChild.remove();
    });
    document.getElementById("seed-row").hidden = !options.seeds;
    form.addEventListener("submit", submit);
    await chooseGame(options.games[0].name);
    document.body.dataset.ready = "true";
  }

  start();
})();
