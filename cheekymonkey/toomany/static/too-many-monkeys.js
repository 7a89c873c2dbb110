// Too Many Monkeys' drawing: each seat's row of cards with the position numbers (face down and unseen, face down
// and known, or face up), the draw pile, the discard pile (its top, and the whole pile to look through, as the
// raccoon does), the card in hand, the Skips waiting, the rounds won, and the custom rules editor of the lobby.
// It reads the game's own view document and events, and draws nothing it is not sent. A legal move is also a
// card to click on the table: the card forwards the click to the move's button, which play.js made.
"use strict";

(function () {
  const FORMAT = "too-many-monkeys/1";
  const NUMBERS = ["one", "two", "three", "four", "five", "six"];
  const SPECIALS = ["wild", "skip", "elephant", "giraffe", "raccoon", "do_not_disturb"];
  const CARDS = NUMBERS.concat(SPECIALS);
  const WORDS = {
    one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", wild: "Wild", skip: "Skip",
    elephant: "Elephant", giraffe: "Giraffe", raccoon: "Raccoon", do_not_disturb: "Do Not Disturb",
  };
  const MARKS = { wild: "W", skip: "S", elephant: "E", giraffe: "G", raccoon: "R", do_not_disturb: "D" };
  // Keys for the Do Not Disturb's targets, in the order of the legal moves: letters, "n" being "none".
  const TARGET_KEYS = "abcdefghijklmopqrstuvwxyz";

  // What the page has heard: the rounds won (for the line above the rows), and the events not yet animated.
  const roundWins = [];
  let queued = [];
  let lastDrawn = "";

  function numberOf(card) {
    const index = NUMBERS.indexOf(card);
    return index < 0 ? null : index + 1;
  }

  function isYou(message, seat) {
    return seat === message.seat;
  }

  function who(message, seat) {
    return isYou(message, seat) ? "You" : message.seats[seat].name;
  }

  function whose(message, seat) {
    return isYou(message, seat) ? "your" : message.seats[seat].name + "'s";
  }

  function cardWords(card) {
    const number = numberOf(card);
    return number === null ? WORDS[card] : String(number);
  }

  function a(card) {
    const word = cardWords(card);
    return (/^[aeiou]/i.test(word) ? "an " : "a ") + word;
  }

  // One card, face up: its number (or letter) large, its name small, coloured by kind.
  function faceUp(card, extraClass) {
    const number = numberOf(card);
    const node = el("span", "card up c-" + card + (number === null ? "" : " number") + (extraClass ? " " + extraClass : ""));
    node.appendChild(el("span", "card-mark", number === null ? MARKS[card] : number)).setAttribute("aria-hidden", "true");
    node.appendChild(el("span", "card-name", WORDS[card]));
    return node;
  }

  // A card turned down by a Do Not Disturb shows what it is (everyone remembers it) and "down" in letters big
  // enough to read; a screen reader hears both in one phrase.
  function faceDown(known) {
    const node = el("span", "card down" + (known ? " known" : ""));
    if (known) {
      const number = numberOf(known);
      node.appendChild(el("span", "card-mark", number === null ? MARKS[known] : number)).setAttribute("aria-hidden", "true");
      node.appendChild(el("span", "card-down", "down")).setAttribute("aria-hidden", "true");
      node.appendChild(el("span", "card-name", "turned down: " + WORDS[known]));
    } else {
      node.appendChild(el("span", "card-name", "face down"));
    }
    return node;
  }

  // The legal moves of this message by type, each with the JSON play.js puts on its button.
  function movesOf(message, type) {
    return message.legal.filter((item) => item.action.type === type);
  }

  // Make ``node`` choose ``item``: clicking it clicks the move's button (the same move, the same checks).
  function choosable(node, item, words) {
    node.classList.add("choosable");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", words);
    node.title = capital(words);
    const press = () => {
      const wanted = JSON.stringify(item.action);
      for (const button of document.querySelectorAll("#actions button")) {
        if (button.dataset.action === wanted && !button.disabled) button.click();
      }
    };
    node.addEventListener("click", press);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        event.stopPropagation();
        press();
      }
    });
  }

  function drawRow(message, seat) {
    const view = message.view;
    const row = el("ol", "row-cards");
    row.setAttribute("aria-label", capital(whose(message, seat)) + " row");
    const wilds = movesOf(message, "place_wild");
    const downs = movesOf(message, "turn_down").filter((item) => item.action.seat === seat);
    view.rows[seat].forEach((slot, index) => {
      const position = index + 1;
      const li = el("li", "slot");
      li.dataset.seat = String(seat);
      li.dataset.position = String(position);
      let card;
      if (slot === null) {
        card = faceDown(null);
        li.dataset.state = "down";
      } else if (typeof slot === "object") {
        card = faceDown(slot.card);
        li.dataset.state = "known";
        li.dataset.card = slot.card;
      } else {
        card = faceUp(slot);
        li.dataset.state = "up";
        li.dataset.card = slot;
      }
      li.appendChild(card);
      li.appendChild(el("span", "position", position));
      if (isYou(message, seat)) {
        const wild = wilds.find((item) => item.action.position === position);
        if (wild) choosable(card, wild, "put the wild at position " + position);
      }
      const down = downs.find((item) => item.action.position === position);
      if (down) choosable(card, down, down.words);
      row.appendChild(li);
    });
    return row;
  }

  function drawSeats(message) {
    const view = message.view;
    const list = el("ul", "tm-seats");
    const skips = movesOf(message, "give_skip");
    message.seats.forEach((seat, index) => {
      const li = el("li", "tm-seat");
      li.dataset.seat = String(index);
      if (index === view.to_move && view.phase !== "over") li.classList.add("to-move");
      if (isYou(message, index)) li.classList.add("mine");
      const head = el("div", "seat-head");
      head.appendChild(el("span", "seat-name", seat.name));
      const badge = isYou(message, index) ? "you" : seat.kind === "human" ? "" : seat.title + " bot";
      if (badge) head.appendChild(el("span", "badge", badge));
      const size = view.rows[index].length;
      const up = view.rows[index].filter((slot) => typeof slot === "string").length;
      head.appendChild(el("span", "row-count", up + " of " + size + " face up"));
      if (view.skips[index]) {
        const skip = el("span", "skip-waiting", "Skip waiting");
        skip.title = (isYou(message, index) ? "Your" : seat.name + "'s") + " next turn is skipped.";
        head.appendChild(skip);
      }
      const give = skips.find((item) => item.action.seat === index);
      if (give) {
        const target = el("span", "skip-target", "Give the Skip");
        choosable(target, give, give.words);
        head.appendChild(target);
      }
      li.appendChild(head);
      li.appendChild(drawRow(message, index));
      list.appendChild(li);
    });
    return list;
  }

  function drawPiles(message) {
    const view = message.view;
    const middle = el("div", "tm-middle");
    const pile = el("div", "tm-pile");
    pile.id = "draw-pile";
    pile.setAttribute("aria-label", "The draw pile");
    const back = el("span", "card down pile-card");
    back.appendChild(el("span", "card-mark", view.pile_size)).id = "pile-size";
    pile.append(el("span", "pile-label", "Draw pile"), back, el("span", "pile-unit", view.pile_size === 1 ? "card" : "cards"));
    middle.appendChild(pile);

    const discard = el("div", "tm-discard");
    discard.id = "discard";
    discard.appendChild(el("span", "pile-label", "Discard pile"));
    const top = view.discard[view.discard.length - 1];
    const shown = top ? faceUp(top, "discard-top") : el("span", "card empty-pile", "empty");
    shown.id = "discard-top";
    const take = movesOf(message, "take_discard")[0];
    if (take && top) choosable(shown, take, take.words);
    discard.appendChild(shown);
    // The whole pile, top first, to look through (open while the raccoon chooses).
    const raccoon = movesOf(message, "raccoon_take");
    const look = el("details", "discard-all");
    look.id = "discard-all";
    look.open = view.phase === "raccoon" && raccoon.length > 0;
    look.appendChild(el("summary", "", "Look through the discard pile (" + view.discard.length + (view.discard.length === 1 ? " card)" : " cards)")));
    const list = el("ol", "discard-list");
    list.reversed = true;
    for (let i = view.discard.length - 1; i >= 0; i -= 1) {
      const li = el("li");
      const card = faceUp(view.discard[i], "small");
      const pick = raccoon.find((item) => item.action.card === view.discard[i]);
      if (pick) choosable(card, pick, pick.words);
      li.appendChild(card);
      list.appendChild(li);
    }
    look.appendChild(list);
    discard.appendChild(look);
    middle.appendChild(discard);

    // After the game nobody holds a card: the hand goes (the line above the rows says who won).
    if (view.phase !== "over") {
      const hand = el("div", "tm-hand");
      hand.id = "hand";
      const mover = who(message, view.to_move);
      hand.appendChild(el("span", "pile-label", (mover === "You" ? "Your" : mover + "'s") + " hand"));
      if (view.hand) hand.appendChild(faceUp(view.hand, "in-hand")).id = "hand-card";
      else hand.appendChild(el("span", "card empty-pile", "no card"));
      middle.appendChild(hand);
    }
    if (view.pile) {
      const known = CARDS.filter((card) => view.pile[card]).map((card) => view.pile[card] + " × " + WORDS[card]);
      middle.appendChild(el("p", "pile-known", "Reshuffled: the draw pile holds " + listOf(known) + "."));
    }
    return middle;
  }

  function roundLine(message) {
    const view = message.view;
    const sizes = view.rows.map((row) => row.length);
    let text = "Round " + view.round;
    const won = roundWins.filter((win) => win.round < view.round);
    if (view.phase === "over") {
      const winner = who(message, view.to_move);
      text += ", the last · " + winner + " won the game";
    } else if (won.length) {
      const last = won[won.length - 1];
      const winner = who(message, last.seat);
      text += " · " + winner + " won round " + last.round;
      if (last.round === view.round - 1) {
        text += (winner === "You" ? ": your row" : ": " + winner + "'s row") + " is down to " + sizes[last.seat] + (sizes[last.seat] === 1 ? " card" : " cards");
      }
    }
    const line = el("p", "round-line", text + ".");
    line.id = "round-line";
    return line;
  }

  function key(message) {
    return JSON.stringify([message.room, message.version, message.closed, message.legal.length, message.view]);
  }

  function drawTable(root, message) {
    // The same table drawn again (play.js redraws after each move it sends) keeps its running animations.
    const now = key(message);
    if (now === lastDrawn && root.firstChild) return;
    lastDrawn = now;
    root.textContent = "";
    const felt = el("div", "table tm-table");
    felt.appendChild(roundLine(message));
    felt.appendChild(drawSeats(message));
    felt.appendChild(drawPiles(message));
    root.appendChild(felt);
    animate(root, message);
  }

  // -- events and animation -------------------------------------------------------------------------

  function onEvent(event, seq, live) {
    if (event.type === "round_won") roundWins.push({ seat: event.seat, round: event.round });
    if (live) queued.push(event);
  }

  function slot(root, seat, position) {
    return root.querySelector('.slot[data-seat="' + seat + '"][data-position="' + position + '"] .card');
  }

  // The newest events, one after another: a card turned up flips, a card turned down flips back, a card
  // discarded drops on the pile, a Skip lands in front of its seat, a new round deals its rows.
  function animate(root, message) {
    let events = queued;
    queued = [];
    if (!events.length || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const started = events.map((event) => event.type).lastIndexOf("round_started");
    if (started >= 0) events = events.slice(started);
    // One after another, 120 ms apart, but all begun within 360 ms however many events came at once: the
    // buttons wait for the picture, so a long show would hold the player up (at most 0.36 + 0.35 s).
    const gap = Math.min(120, Math.floor(360 / events.length));
    let step = 0;
    const play = (node, name) => {
      if (!node) return;
      node.classList.add("anim", name);
      node.style.animationDelay = step * gap + "ms";
      step += 1;
    };
    for (const event of events) {
      switch (event.type) {
        case "turned_up":
        case "wild_placed":
          play(slot(root, event.seat, event.position), "anim-flip");
          break;
        case "bonus_taken":
          play(slot(root, event.seat, numberOf(event.card)), "anim-flip");
          break;
        case "turned_down":
          play(slot(root, event.target, event.position), "anim-down");
          break;
        case "drew":
        case "took_discard":
        case "uncovered":
          play(root.querySelector("#hand-card"), "anim-in");
          break;
        case "discarded":
        case "raccoon_took":
          play(root.querySelector("#discard-top"), "anim-drop");
          break;
        case "skip_given":
        case "skipped":
          play(root.querySelector('.tm-seat[data-seat="' + (event.target ?? event.seat) + '"] .seat-head'), "anim-pop");
          break;
        case "reshuffled":
          play(root.querySelector("#draw-pile .card"), "anim-pop");
          break;
        case "round_won":
        case "game_won":
          play(root.querySelector("#round-line"), "anim-pop");
          break;
        case "round_started":
          for (const node of root.querySelectorAll(".row-cards .card")) node.classList.add("anim", "anim-deal");
          break;
        default:
          break;
      }
    }
  }

  // -- moves ------------------------------------------------------------------------------------------

  function actionLabel(item, message) {
    const action = item.action;
    const view = message.view;
    switch (action.type) {
      case "draw": return { text: "Draw from the pile", key: "d" };
      case "take_discard": return { text: "Take the " + cardWords(view.discard[view.discard.length - 1]) + " from the discard pile", key: "t", icon: faceUp(view.discard[view.discard.length - 1], "small") };
      case "place_wild": return { text: "Wild at position " + action.position, key: String(action.position) };
      case "take_bonus": return { text: "Take the bonus: the " + cardWords(view.hand) + " for the wild", key: "b" };
      case "raccoon_take": return { text: "Take the " + cardWords(action.card) + " with the raccoon", key: String(numberOf(action.card)), icon: faceUp(action.card, "small") };
      case "turn_down": {
        const index = movesOf(message, "turn_down").findIndex((other) => other === item);
        return { text: capital(item.words), key: index >= 0 && index < TARGET_KEYS.length ? TARGET_KEYS[index] : "" };
      }
      case "give_skip": return { text: "Give the Skip to " + message.seats[action.seat].name, key: String(action.seat) };
      case "decline": return { text: capital(item.words), key: "n" };
      default: return null;
    }
  }

  // The game's own hint for this seat (its table message's facts.hint), word for word what the terminal shows:
  // the page writes none of its own, so the two cannot disagree.
  function hint(message) {
    return (message.facts && message.facts.hint) || "";
  }

  function status(message) {
    const view = message.view;
    if (message.closed || view.phase === "over" || message.waiting === "truncated") return null;
    if (message.legal.length && view.hand) return "Your turn: you hold " + a(view.hand) + ".";
    if (!message.legal.length && view.skips[message.seat] && message.to_move !== null) {
      const mover = message.seats[message.to_move];
      return mover.name + " is to move. A Skip waits in front of you: your next turn is skipped.";
    }
    return null;
  }

  // After the game: every seat's place, as the terminal's result table gives them (the winner first, the
  // others by the cards left in their rows, fewer first), with the rounds each won. The rows themselves are on
  // the board above, drawn once.
  function drawResult(root, message) {
    const view = message.view;
    root.appendChild(el("p", "", "The game ended in round " + view.round + ". The others are placed by the cards left in their rows: the fewer, the better."));
    const ranks = message.outcome ? message.outcome.ranks : message.seats.map(() => null);
    const order = message.seats.map((seat, index) => index).sort((x, y) => (ranks[x] ?? 0) - (ranks[y] ?? 0) || x - y);
    const scroll = el("div", "scroll");
    const grid = el("table", "placings");
    grid.id = "placings";
    const head = el("tr");
    for (const [title, className] of [["Place", "num"], ["Player", ""], ["Cards in the row", "num"], ["Rounds won", "num"]]) {
      const th = el("th", className, title);
      th.scope = "col";
      head.appendChild(th);
    }
    grid.appendChild(el("thead")).appendChild(head);
    const body = el("tbody");
    for (const index of order) {
      // The game's last round, won by the game's winner, is no round_won event: the game_won ends it.
      const won = roundWins.filter((win) => win.seat === index).length + (message.outcome && message.outcome.winners.includes(index) ? 1 : 0);
      const tr = el("tr", message.outcome && message.outcome.winners.includes(index) ? "winner" : "");
      tr.dataset.seat = String(index);
      tr.appendChild(el("td", "num place", ranks[index] ?? "–"));
      const th = el("th", "", message.seats[index].name + (isYou(message, index) ? " (you)" : ""));
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "num row-size", view.rows[index].length));
      tr.appendChild(el("td", "num rounds-won", won));
      body.appendChild(tr);
    }
    grid.appendChild(body);
    scroll.appendChild(grid);
    root.appendChild(scroll);
  }

  // The lobby's editor of custom rules: how many of each card, and the first round's row size.
  const customRules = {
    build(container) {
      const grid = el("div", "custom-grid tm-grid");
      grid.appendChild(el("span", "grid-head", "Card"));
      grid.appendChild(el("span", "grid-head", "How many"));
      for (const card of CARDS) {
        grid.appendChild(faceUp(card, "small"));
        const input = el("input");
        input.type = "number";
        input.min = "0";
        input.max = "20";
        input.id = "count-" + card;
        input.setAttribute("aria-label", WORDS[card] + " cards");
        grid.appendChild(input);
      }
      container.appendChild(el("p", "", "The cards of the deck"));
      container.appendChild(grid);
      const row = el("label", "", "Cards in each row in the first round");
      row.htmlFor = "row-size";
      const size = el("input");
      size.type = "number";
      size.min = "1";
      size.max = "6";
      size.id = "row-size";
      container.append(row, size);
    },
    fill(ruleset) {
      for (const card of CARDS) document.getElementById("count-" + card).value = ruleset.counts[card];
      document.getElementById("row-size").value = ruleset.row_size;
    },
    read() {
      const counts = {};
      for (const card of CARDS) counts[card] = Number(document.getElementById("count-" + card).value);
      return {
        format: FORMAT, kind: "ruleset", name: "custom", counts: counts,
        row_size: Number(document.getElementById("row-size").value), min_players: 2, max_players: 6,
      };
    },
  };

  const tagline = "Turn your row face up, 1 to 6, before the others do: wilds, raccoons, Skips and Do Not Disturb.";

  // The move box's example moves, in the game's notation (the terminal game's).
  const notation = "d, t, w 4, r 3, x 1 2, s 1, n";

  registerGame("too-many-monkeys", { tagline, notation, drawTable, actionLabel, status, hint, drawResult, customRules, onEvent });
})();
