// Cheeky Monkey's drawing: the seats with their stacks, the bag, the tokens in front with the odds of a bust,
// the move buttons with their tokens, the score sheet, and the custom rules editor of the lobby. It reads the
// game's own documents (the view, the score sheet inside it at the end) and draws nothing it is not sent.
"use strict";

(function () {
  const ANIMALS = ["elephant", "seal", "hippo", "giraffe", "panda", "kangaroo", "lion", "monkey"];
  const FORMAT = "cheekymonkey/1";

  function label(animal) {
    return animal.charAt(0).toUpperCase() + animal.slice(1);
  }

  function a(animal) {
    return (/^[aeiou]/.test(animal) ? "an " : "a ") + label(animal);
  }

  // A round token showing an animal: its colour, its initial, and its name for everyone and screen readers.
  function token(animal, extraClass) {
    const chip = el("span", "token t-" + animal + (extraClass ? " " + extraClass : ""));
    chip.appendChild(el("span", "token-initial", animal.charAt(0).toUpperCase())).setAttribute("aria-hidden", "true");
    chip.appendChild(el("span", "token-name", label(animal)));
    return chip;
  }

  function drawSeats(message) {
    const view = message.view;
    const list = el("ul", "seats");
    message.seats.forEach((seat, index) => {
      const li = el("li", "seat");
      if (index === view.to_move && view.phase !== "over") li.classList.add("to-move");
      if (index === message.seat) li.classList.add("mine");
      const head = el("div", "seat-head");
      head.appendChild(el("span", "seat-name", seat.name));
      const badge = index === message.seat ? "you" : seat.kind === "human" ? "" : seat.title + " bot";
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
      const words = height + (height === 1 ? " token" : " tokens") + (top ? ", " + label(top) + " on top" : "");
      li.appendChild(el("p", "height", words));
      list.appendChild(li);
    });
    return list;
  }

  function drawTable(root, message) {
    const view = message.view;
    root.textContent = "";
    const felt = el("div", "table");
    felt.appendChild(drawSeats(message));
    const middle = el("div", "middle");
    const bag = el("div", "bag");
    bag.setAttribute("aria-label", "The bag");
    bag.append(el("span", "bag-label", "Bag"), el("span", "bag-size", view.bag_size), el("span", "bag-unit", "tokens"));
    bag.querySelector(".bag-size").id = "bag-size";
    middle.appendChild(bag);
    // After the game nothing lies in front of anybody: the panel goes.
    if (view.phase !== "over") {
      const area = el("div", "front-area");
      const mover = view.to_move === message.seat ? "you" : message.seats[view.to_move].name;
      const title = el("h2", "", "In front of " + mover);
      title.id = "front-title";
      const front = el("ul", "front");
      front.id = "front";
      front.setAttribute("aria-labelledby", "front-title");
      for (const animal of view.front) front.appendChild(el("li")).appendChild(token(animal));
      area.append(title, front);
      const odds = el("p", "odds");
      odds.id = "odds";
      const chance = message.facts.bust_odds;
      if (chance !== undefined && chance !== null && view.phase === "decide") {
        const percent = Math.round(chance * 100);
        const who = view.to_move === message.seat ? "If you draw" : "If " + mover + " draws";
        odds.textContent = who + ": " + percent + "% chance of a bust.";
        odds.className = "odds " + (percent >= 40 ? "high" : percent >= 20 ? "mid" : "low");
      }
      area.appendChild(odds);
      middle.appendChild(area);
    }
    felt.appendChild(middle);
    root.appendChild(felt);
  }

  function actionLabel(item, message) {
    const action = item.action;
    const view = message.view;
    const owner = (seat) => message.seats[seat].name + "'s " + label(view.stack_tops[seat]);
    switch (action.type) {
      case "draw": return { text: "Draw", key: "d" };
      case "stop": return { text: view.front.length > 1 && new Set(view.front).size > 1 ? "Stop and stack" : "Stop", key: "s" };
      case "herd": return { text: "Secure the herd", key: "h" };
      case "claim": return { text: "Claim " + owner(action.seat), key: "" };
      case "swap": return { text: "Swap your Monkey for " + owner(action.seat), key: "" };
      case "place": return { text: "Put " + a(action.animal) + " down", key: action.animal.charAt(0), icon: token(action.animal, "small") };
      default: return null;
    }
  }

  function status(message) {
    if (message.legal.length && message.view.phase === "placing") return "Your turn: stack your tokens.";
    return null;
  }

  // The game's own hint for this seat (its table message's facts.hint), word for word what the terminal shows:
  // the page writes none of its own, so the two cannot disagree.
  function hint(message) {
    return (message.facts && message.facts.hint) || "";
  }

  // The score sheet, from the view's own sheet document.
  function drawResult(root, message) {
    const sheet = message.view.sheet;
    if (!sheet) return;
    const scroll = el("div", "scroll");
    const grid = el("table");
    grid.id = "sheet";
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
      const th = el("th", "", message.seats[line.seat].name);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "num", line.tokens));
      const tiles = el("td", "tiles");
      const box = tiles.appendChild(el("div", "tile-box"));
      for (const animal of line.tiles) box.appendChild(token(animal, "small"));
      if (!line.tiles.length) box.textContent = "–";
      tr.appendChild(tiles);
      tr.appendChild(el("td", "num", line.bonus));
      tr.appendChild(el("td", "num total", line.total));
      body.appendChild(tr);
    }
    grid.appendChild(body);
    scroll.appendChild(grid);
    root.appendChild(scroll);
    if (sheet.decided_by === "tie-break") root.appendChild(el("p", "", "Decided on the tie-break: the highest single bonus tile."));
  }

  // The lobby's editor of custom rules: the tokens and bonus value of each animal, bonus tiles, the swap.
  const customRules = {
    build(container) {
      const grid = el("div", "custom-grid");
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
      container.appendChild(el("p", "", "The tokens and bonus value of each animal"));
      container.appendChild(grid);
      for (const [id, text] of [["bonus-tiles", "Bonus tiles for majorities"], ["swap", "A drawn monkey may be swapped"]]) {
        const row = el("label", "check");
        const box = el("input");
        box.type = "checkbox";
        box.id = id;
        box.checked = true;
        row.append(box, document.createTextNode(" " + text));
        container.appendChild(row);
      }
    },
    fill(ruleset) {
      for (const animal of ANIMALS) {
        document.getElementById("count-" + animal).value = ruleset.counts[animal];
        document.getElementById("value-" + animal).value = ruleset.bonus_values[animal];
      }
      document.getElementById("bonus-tiles").checked = ruleset.bonus_tiles;
      document.getElementById("swap").checked = ruleset.swap;
    },
    read() {
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
    },
  };

  const tagline = "Push your luck, stack your animals, and steal the tops of other stacks.";

  // The move box's example moves, in the game's notation (the terminal game's).
  const notation = "d, s, c 2";

  registerGame("cheeky-monkey", { tagline, notation, drawTable, actionLabel, status, hint, drawResult, customRules });
})();
