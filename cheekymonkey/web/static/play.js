// The table page. It reads its seat's token from the part of the link after "#" (never sent to the
// server in a URL), follows the room through server-sent events, and sends moves as action documents.
// It shows only what the view says; the buttons are exactly the view's legal actions.
"use strict";

(function () {
  const seatToken = decodeURIComponent(location.hash.slice(1));

  const $ = (id) => document.getElementById(id);
  let table = null; // the newest table message shown
  let nextSeq = 0; // the next event to narrate
  const pendingEvents = new Map(); // events that arrived ahead of an earlier one
  let busy = false; // a move is on its way

  function auth() {
    return { Authorization: "Bearer " + seatToken };
  }

  function nameOf(seat) {
    if (!table) return "seat " + seat;
    return seat === table.seat ? "you" : table.seats[seat].name;
  }

  function capital(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function a(animal) {
    return (/^[aeiou]/.test(animal) ? "an " : "a ") + label(animal);
  }

  function verb(seat, you, other) {
    return seat === table.seat ? you : other;
  }

  // One sentence per event document.
  function narrate(event) {
    const who = event.seat === undefined ? "" : capital(nameOf(event.seat));
    switch (event.type) {
      case "drew":
        return who + " drew " + a(event.animal) + ".";
      case "busted":
        return who + " drew " + a(event.animal) + " and bust: " + listOf(event.returned.map(label)) + " went back into the bag.";
      case "claimed":
        return who + " claimed the " + label(event.animal) + " from the top of " + nameOf(event.from_seat) + "'s stack.";
      case "swapped":
        return who + " gave a Monkey to " + nameOf(event.with_seat) + " and took their " + label(event.took) + ".";
      case "stopped":
        return who + " stopped with " + listOf(event.tokens.map(label)) + ".";
      case "stacked":
        return who + " put " + listOf(event.animals.map(label)) + " on " + verb(event.seat, "your", "their") + " stack.";
      case "herd_secured":
        return who + " secured a herd of " + event.animals.length + " " + label(event.animals[0]) + " under " + verb(event.seat, "your", "their") + " stack.";
      case "game_over":
        return "The game is over. " + winnersLine(event.sheet);
      default:
        return "Something happened (" + event.type + ").";
    }
  }

  function winnersLine(sheet) {
    const names = sheet.winners.map((seat) => capital(nameOf(seat)));
    const how = { score: "", "tie-break": " on the tie-break (the highest bonus tile)", shared: ", sharing the win" }[sheet.decided_by] || "";
    if (names.length === 1) return names[0] + (names[0] === "You" ? " win" : " wins") + how + ".";
    return listOf(names) + " win" + how + ".";
  }

  function addEvents(events) {
    for (const item of events) if (item.seq >= nextSeq) pendingEvents.set(item.seq, item.event);
    const log = $("log");
    while (pendingEvents.has(nextSeq)) {
      const event = pendingEvents.get(nextSeq);
      pendingEvents.delete(nextSeq);
      const li = el("li", "log-" + event.type);
      li.appendChild(el("span", "log-number", nextSeq + 1));
      li.appendChild(document.createTextNode(narrate(event)));
      log.insertBefore(li, log.firstChild);
      nextSeq += 1;
    }
    while (log.children.length > 200) log.lastChild.remove();
  }

  function receive(message) {
    if (table === null) table = message; // the names, before the first events are narrated
    addEvents(message.events);
    if (message.version >= table.version) {
      table = message;
      render();
    }
  }

  // -- drawing the table --------------------------------------------------------------------------

  function renderSeats(view) {
    const list = $("seats");
    list.textContent = "";
    table.seats.forEach((seat, index) => {
      const li = el("li", "seat");
      if (index === view.to_move && view.phase !== "over") li.classList.add("to-move");
      if (index === table.seat) li.classList.add("mine");
      const head = el("div", "seat-head");
      head.appendChild(el("span", "seat-name", seat.name));
      const badge = index === table.seat ? "you" : seat.kind === "human" ? "" : seat.kind + " bot";
      if (badge) head.appendChild(el("span", "badge", badge));
      li.appendChild(head);
      const stack = el("div", "stack");
      const height = view.stack_heights[index];
      const pile = el("div", "pile");
      pile.setAttribute("aria-hidden", "true");
      for (let i = 0; i < Math.min(height, 14); i += 1) pile.appendChild(el("span", "disc"));
      stack.appendChild(pile);
      const top = view.stack_tops[index];
      if (top) stack.appendChild(token(top, "stack-top"));
      else stack.appendChild(el("span", "empty", "empty"));
      li.appendChild(stack);
      li.appendChild(el("p", "height", height + (height === 1 ? " token" : " tokens") + (top ? ", " + label(top) + " on top" : "")));
      list.appendChild(li);
    });
  }

  function actionLabel(action, view) {
    switch (action.type) {
      case "draw": return ["Draw", "d"];
      case "stop": return [view.front.length > 1 && new Set(view.front).size > 1 ? "Stop and stack" : "Stop", "s"];
      case "herd": return ["Secure the herd", "h"];
      case "claim": return ["Claim " + table.seats[action.seat].name + "'s " + label(view.stack_tops[action.seat]), ""];
      case "swap": return ["Swap your Monkey for " + table.seats[action.seat].name + "'s " + label(view.stack_tops[action.seat]), ""];
      case "place": return ["Put " + a(action.animal) + " down", action.animal.charAt(0)];
      default: return [action.type, ""];
    }
  }

  function renderActions(view) {
    const box = $("actions");
    const hadFocus = box.contains(document.activeElement);
    box.textContent = "";
    for (const action of view.legal) {
      const [text, key] = actionLabel(action, view);
      const button = el("button", "action action-" + action.type);
      if (action.type === "place") button.appendChild(token(action.animal, "small"));
      button.appendChild(el("span", "", text));
      if (key) {
        button.dataset.key = key;
        button.setAttribute("aria-keyshortcuts", key.toUpperCase());
        button.appendChild(el("kbd", "", key.toUpperCase()));
      }
      button.dataset.action = JSON.stringify(action);
      button.disabled = busy;
      button.addEventListener("click", () => send(action));
      box.appendChild(button);
    }
    if (hadFocus && box.firstChild) box.firstChild.focus();
  }

  function render() {
    const view = table.view;
    const mine = view.legal.length > 0;
    document.body.dataset.room = table.room;
    document.body.dataset.version = String(table.version);
    const mover = table.seats[view.to_move].name;
    document.title = (mine ? "Your turn · " : "") + "Cheeky Monkey";
    $("who").textContent = "You are " + table.seats[table.seat].name + " (seat " + table.seat + ") · " + view.ruleset.name + " rules";
    let status;
    if (table.closed) status = "This room was closed.";
    else if (view.phase === "over") status = "Game over.";
    else if (mine && view.phase === "placing") status = "Your turn: stack your tokens.";
    else if (mine) status = "Your turn.";
    else status = mover + (table.seats[view.to_move].kind === "human" ? " is to move." : " (bot) is thinking…");
    $("status").textContent = status;
    $("status").classList.toggle("yours", mine);
    renderSeats(view);
    $("bag-size").textContent = view.bag_size;
    const front = $("front");
    front.textContent = "";
    for (const animal of view.front) {
      const li = el("li");
      li.appendChild(token(animal));
      front.appendChild(li);
    }
    $("front-title").textContent = view.phase === "over" ? "In front" : "In front of " + (view.to_move === table.seat ? "you" : mover);
    let odds = "";
    if (table.bust_odds !== null && view.phase === "decide") {
      const percent = Math.round(table.bust_odds * 100);
      odds = (view.to_move === table.seat ? "If you draw" : "If " + mover + " draws") + ": " + percent + "% chance of a bust.";
      $("odds").className = "odds " + (percent >= 40 ? "high" : percent >= 20 ? "mid" : "low");
    }
    $("odds").textContent = odds;
    let hint = "";
    if (mine && view.phase === "placing") {
      hint = "Choose the order, bottom first: the last token you put down ends on top, where others may claim it.";
    } else if (mine) {
      const claim = view.legal.some((action) => action.type === "claim");
      const swap = view.legal.some((action) => action.type === "swap");
      const drawn = view.front[view.front.length - 1];
      if (claim && swap) hint = "You drew a Monkey: claim another Monkey from a stack top, or swap yours for a stack's top token.";
      else if (claim) hint = "You drew " + a(drawn) + ": you may claim the same animal from the top of another stack.";
      else if (swap) hint = "You drew a Monkey: you may swap it for the top token of another stack.";
    }
    $("hint").textContent = hint;
    renderActions(view);
    // Typing stays open out of turn too: the server is the judge, and its reason is shown.
    $("command-text").disabled = busy || table.closed;
    $("command").hidden = view.phase === "over" || table.closed;
    renderScore();
  }

  function renderScore() {
    const sheet = table.score;
    $("score").hidden = !sheet;
    if (!sheet) return;
    $("winners").textContent = winnersLine(sheet);
    const grid = $("sheet");
    grid.textContent = "";
    const head = el("tr");
    for (const title of ["Seat", "Tokens", "Bonus tiles", "Bonus", "Total"]) {
      const th = el("th", "", title);
      th.scope = "col";
      head.appendChild(th);
    }
    grid.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    for (const line of sheet.seats) {
      const tr = el("tr", sheet.winners.includes(line.seat) ? "winner" : "");
      const th = el("th", "", table.seats[line.seat].name);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "num", line.tokens));
      const tiles = el("td", "tiles");
      for (const animal of line.tiles) tiles.appendChild(token(animal, "small"));
      if (!line.tiles.length) tiles.textContent = "–";
      tr.appendChild(tiles);
      tr.appendChild(el("td", "num", line.bonus));
      tr.appendChild(el("td", "num total", line.total));
      body.appendChild(tr);
    }
    grid.appendChild(body);
  }

  // -- moves ---------------------------------------------------------------------------------------

  function setBusy(value) {
    busy = value;
    for (const button of $("actions").querySelectorAll("button")) button.disabled = value;
  }

  async function send(action) {
    if (busy) return;
    $("error").textContent = "";
    setBusy(true);
    try {
      const document_ = Object.assign({ format: FORMAT, kind: "action" }, action);
      const response = await fetch("/api/move", {
        method: "POST",
        headers: Object.assign({ "Content-Type": "application/json" }, auth()),
        body: JSON.stringify(document_),
      });
      const answer = await response.json();
      if (!response.ok) {
        $("error").textContent = answer.error || "The move was refused (" + response.status + ").";
      } else {
        busy = false;
        receive(answer);
      }
    } catch (error) {
      $("error").textContent = "The server cannot be reached: " + error;
    } finally {
      setBusy(false);
      if (table) render();
    }
  }

  // Typed moves, like the terminal game's: d, s, h, c 2, w 1, and animals (or their initials) while stacking.
  function parse(text) {
    const words = text.trim().toLowerCase().split(/\s+/);
    const word = words[0] || "";
    const placing = table && table.view.phase === "placing";
    const animal = ANIMALS.find((name) => name === word || (placing && word.length === 1 && name.charAt(0) === word));
    if (animal && (placing || word.length > 1)) return { type: "place", animal: animal };
    if (word === "d" || word === "draw") return { type: "draw" };
    if (word === "s" || word === "stop") return { type: "stop" };
    if (word === "h" || word === "herd") return { type: "herd" };
    const seatMove = /^(c|claim|w|swap)(\d*)$/.exec(word);
    if (seatMove) {
      const seat = seatMove[2] || words[1] || "";
      if (!/^\d+$/.test(seat)) return "Say which seat: for example \"" + seatMove[1] + " 1\".";
      return { type: seatMove[1].charAt(0) === "c" ? "claim" : "swap", seat: Number(seat) };
    }
    return "\"" + text.trim() + "\" is not a move: type d, s, h, c 2, w 1, or an animal while stacking.";
  }

  $("command").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("command-text");
    const action = parse(input.value);
    if (typeof action === "string") {
      $("error").textContent = action;
      return;
    }
    input.value = "";
    send(action);
  });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.key === "/") {
      event.preventDefault();
      $("command-text").focus();
      return;
    }
    const button = $("actions").querySelector("button[data-key=\"" + CSS.escape(event.key.toLowerCase()) + "\"]");
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // -- news from the server: server-sent events, read with fetch so the token travels in a header ----

  async function follow() {
    let delay = 500;
    for (;;) {
      try {
        const response = await fetch("/api/events?since=" + nextSeq, { headers: auth(), cache: "no-store" });
        if (!response.ok) {
          const answer = await response.json().catch(() => ({}));
          $("status").textContent = answer.error || "This seat cannot be opened (" + response.status + ").";
          $("actions").textContent = "";
          return;
        }
        delay = 500;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
            if (data) receive(JSON.parse(data));
          }
        }
        if (table && table.closed) return;
      } catch (error) {
        console.error(error);
        $("status").textContent = "Reconnecting…";
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10000);
    }
  }

  if (!seatToken) {
    $("status").textContent = "This page needs your seat's link (it ends with # and a long code).";
  } else {
    follow();
  }
})();
