// The table page, the same for every game. It reads its seat's token from the part of the link after "#"
// (never sent to the server in a URL), follows the room through server-sent events, and sends moves with the
// version of the table they were chosen from. Everything the game decides comes from the server: the legal
// moves (with their words and notation), the narration of each event (written for this seat), the outcome.
// Only the drawing of the table is the game's own: /static/games/<game>.js (see common.js).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let table = null; // the newest table message shown
  let drawing = null; // the game's drawing, once loaded
  let nextSeq = 0; // the next event to add to the log
  const pendingEvents = new Map(); // events that arrived ahead of an earlier one
  let logLines = 0; // the lines written in the log so far
  // The version of the table the newest move on its way was chosen from, or null. The buttons wait only while
  // the page still shows that table: the room's next table often arrives on the event stream before the move's
  // own answer does, and from then on the buttons (and their keys) are that table's, ready to be used.
  let sentFrom = null;
  let shownActions = ""; // the table version and moves the buttons were made for
  // The board's animations of the newest change, while they run: the picture is on its way to the table the
  // buttons are made for (a new round's cards still being dealt, a card still dropping on the pile), so the
  // buttons wait until it is there. A key for a button finishes them at once, and then plays.
  let animations = [];

  // The token is the whole part after "#"; a link mangled on its way (bad percent-encoding, a cut) is refused
  // here, with a way back, rather than left waiting.
  function seatToken() {
    let text;
    try {
      text = decodeURIComponent(location.hash.slice(1));
    } catch (error) {
      return { error: "This link is damaged: the part after # is not a seat's code. Copy the whole link again." };
    }
    if (!text) return { error: "This page needs your seat's link (it ends with # and a long code)." };
    // A link of a game with secrets carries a one-time claim code: the first browser to open it exchanges
    // the code for the seat's token and keeps the token here; the code then opens the seat nowhere else.
    if (text.startsWith("claim:") && /^[A-Za-z0-9_-]{16,128}$/.test(text.slice(6))) {
      const code = text.slice(6);
      let kept = null;
      try {
        kept = localStorage.getItem("cheekymonkey-claim:" + code);
      } catch (error) {
        kept = null;
      }
      return kept ? { token: kept } : { claim: code };
    }
    // A room's watch link: it shows the table as no seat sees it (no one's hidden cards), and plays nothing.
    if (text.startsWith("watch:") && /^[A-Za-z0-9_-]{16,128}$/.test(text.slice(6))) {
      return { token: text.slice(6) };
    }
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(text)) {
      return { error: "This link is damaged: the part after # is not a seat's code. Copy the whole link again." };
    }
    return { token: text };
  }

  const seat = seatToken();

  function auth() {
    return { Authorization: "Bearer " + seat.token };
  }

  // A seat that cannot be played: say why, offer the lobby, and leave no move box or buttons behind.
  function fatal(reason) {
    $("status").textContent = "This seat cannot be opened.";
    $("fatal-reason").textContent = capital(reason);
    $("fatal").hidden = false;
    for (const id of ["controls", "board", "command", "result", "narration"]) $(id).hidden = true;
    document.body.dataset.fatal = "true";
  }

  // A room the server has closed for good (410: its record in the store is damaged): one message, and from
  // then on the page asks the server nothing more (no stream, no retry, no move).
  let gone = false;
  function closedForGood(reason) {
    gone = true;
    fatal(reason || "the server has closed this room");
    $("fatal-title").textContent = "This room is closed";
    $("status").textContent = "This room is closed.";
    document.body.dataset.gone = "true";
  }

  function nameOf(index) {
    return table.seats[index].name;
  }

  // Each event goes into the log, and to the drawing's onEvent (if it has one), in order, once: ``live`` is
  // false for the events that happened before the page opened, which a drawing records but does not animate.
  function addEvents(events, live) {
    for (const item of events) if (item.seq >= nextSeq) pendingEvents.set(item.seq, item);
    const log = $("log");
    while (pendingEvents.has(nextSeq)) {
      const item = pendingEvents.get(nextSeq);
      pendingEvents.delete(nextSeq);
      if (drawing.onEvent) drawing.onEvent(item.event, item.seq, live);
      // The log shows the lines the server wrote for it, as the terminal prints them: a move of several
      // actions (tokens stacked one at a time) is one line on its last event, and none on the others.
      for (const line of Array.isArray(item.log) ? item.log : [item.text]) {
        logLines += 1;
        const li = el("li", "log-" + String(item.event.type || "event").replace(/[^a-z_]/g, ""));
        li.appendChild(el("span", "log-number", logLines));
        li.appendChild(document.createTextNode(line));
        log.insertBefore(li, log.firstChild);
      }
      nextSeq += 1;
    }
    while (log.children.length > 200) log.lastChild.remove();
  }

  async function receive(message) {
    if (drawing === null) {
      drawing = (await loadGame(message.game)) || FALLBACK;
    }
    const live = table !== null;
    if (table === null) table = message;
    addEvents(message.events, live);
    if (message.version >= table.version) {
      table = message;
      render();
    }
  }

  // A game with no drawing of its own: the game's own board text, as the terminal shows it to this seat.
  const FALLBACK = {
    drawTable(root, message) {
      root.textContent = "";
      root.appendChild(el("pre", "board-text", message.board));
    },
  };

  // The move box's example moves: the drawing's, or else the texts of the moves offered now (the game's own
  // notation, as its terminal reads it); a page between moves keeps the last example it had.
  function notationHint(message) {
    if (drawing.notation) return drawing.notation;
    const texts = message.legal.map((item) => item.text);
    return texts.length ? texts.slice(0, 6).join(", ") : $("command-text").placeholder;
  }

  // -- drawing ------------------------------------------------------------------------------------

  // Said to the player: "You win.", or who won and where that leaves you.
  function winnersLine(message) {
    const winners = message.outcome.winners;
    const names = winners.map((index) => (index === message.seat ? "You" : nameOf(index)));
    const line = names.length === 1 ? names[0] + (names[0] === "You" ? " win." : " wins.") : listOf(names) + " share the win.";
    if (message.seat === null || winners.includes(message.seat)) return line; // a spectator has no place
    const rank = message.outcome.ranks[message.seat];
    return line + " You come " + ordinal(rank) + " of " + message.seats.length + ".";
  }

  function ordinal(n) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n + suffix;
  }

  // Whom the table waits for, said to the player, where the buttons go when it is not their turn.
  function waitingLine(message) {
    if (message.to_move === null || message.to_move === undefined) return "";
    const mover = message.seats[message.to_move];
    if (message.to_move === message.seat) return "Your turn comes once the cards are dealt.";
    if (message.seat === null) return mover.kind === "human" ? mover.name + " is to move." : mover.name + " is thinking…";
    return "Not your turn: " + (mover.kind === "human" ? mover.name + " is to move." : mover.name + " is thinking…");
  }

  function statusLine(message) {
    const own = drawing.status ? drawing.status(message) : null;
    if (message.closed) return "This room has ended.";
    if (own) return own;
    if (message.waiting === "over") return "Game over.";
    if (message.waiting === "truncated") return "The game stopped at this server's move limit, with no winner.";
    if (message.legal.length) return "Your turn.";
    if (message.to_move === null) return "";
    const mover = message.seats[message.to_move];
    return mover.kind === "human" ? mover.name + " is to move." : mover.name + " (" + mover.title + " bot) is thinking…";
  }

  function actionLabel(item) {
    const own = drawing.actionLabel ? drawing.actionLabel(item, table) : null;
    if (own) return own;
    const key = item.text.length === 1 ? item.text : "";
    return { text: capital(item.words), key: key };
  }

  function moveOnItsWay() {
    return sentFrom !== null && table !== null && table.version <= sentFrom;
  }

  // Called after each drawing of the board: collect the animations it started (none under reduced motion, and
  // none for a drawing that does not animate), and let the buttons go when the last of them ends.
  function watchAnimations() {
    const board = $("board");
    const running = board.getAnimations
      ? board.getAnimations({ subtree: true }).filter((item) => item.playState !== "finished" && Number.isFinite(item.effect.getComputedTiming().endTime))
      : [];
    animations = running;
    if (!running.length) return;
    Promise.allSettled(running.map((item) => item.finished)).then(() => {
      if (animations !== running) return; // a later drawing took over
      animations = [];
      updateControls();
    });
  }

  // The picture jumps to the table the buttons are made for: every animation of the board at its end.
  function finishAnimations() {
    const running = animations;
    animations = [];
    for (const item of running) {
      try {
        item.finish();
      } catch (error) {
        // An animation cancelled meanwhile (its card drawn again) has nothing left to show.
      }
    }
    updateControls();
  }

  // The buttons are made again only when the moves change: the same table drawn again (the move's own answer
  // after the event stream's copy) keeps the very buttons a person is pressing or has focused.
  function renderActions() {
    const box = $("actions");
    const wanted = table.version + " " + JSON.stringify(table.legal);
    if (wanted === shownActions) {
      updateControls();
      return;
    }
    shownActions = wanted;
    const hadFocus = box.contains(document.activeElement);
    box.textContent = "";
    if (!table.legal.length) {
      const waiting = waitingLine(table);
      if (waiting) box.appendChild(el("p", "waiting-line", waiting));
    }
    for (const item of table.legal) {
      const label = actionLabel(item);
      const button = el("button", "action action-" + String(item.action.type || "move").replace(/[^a-z_]/g, ""));
      if (label.icon) button.appendChild(label.icon);
      button.appendChild(el("span", "", label.text));
      if (label.key) {
        button.dataset.key = label.key;
        button.setAttribute("aria-keyshortcuts", label.key.toUpperCase());
        button.appendChild(el("kbd", "", label.key.toUpperCase()));
      }
      button.dataset.action = JSON.stringify(item.action);
      button.addEventListener("click", () => send({ action: item.action }));
      box.appendChild(button);
    }
    updateControls();
    if (hadFocus && box.firstChild) box.firstChild.focus();
  }

  // The buttons are enabled exactly when a press would be sent and the picture is the table they were made
  // for: no move chosen from that table is on its way, and the board has finished showing the last change.
  function updateControls() {
    const moving = moveOnItsWay();
    const waiting = moving || animations.length > 0;
    for (const button of $("actions").querySelectorAll("button")) button.disabled = waiting;
    $("actions").setAttribute("aria-busy", String(waiting));
    // A drawing's cards that stand for buttons wait with them.
    for (const node of $("board").querySelectorAll('[role="button"]')) node.setAttribute("aria-disabled", String(waiting));
    if (waiting) $("controls").dataset.waiting = moving ? "move" : "picture";
    else delete $("controls").dataset.waiting;
  }

  function render() {
    const message = table;
    const mine = message.legal.length > 0;
    const finished = message.waiting === "over" || message.waiting === "truncated";
    document.body.dataset.room = message.room;
    document.body.dataset.version = String(message.version);
    document.body.dataset.game = message.game;
    document.title = (mine ? "Your turn · " : "") + message.title;
    $("title").textContent = message.title;
    const who = message.seat === null
      ? "You are watching: you see only what every seat sees"
      : "You are " + nameOf(message.seat) + " (seat " + message.seat + ")";
    document.body.dataset.watching = String(message.seat === null);
    $("who").textContent = who + " · " + message.rules + " rules" +
      (message.seeded ? " · this room was made with a chosen seed: whoever chose it can foresee every draw" : "");
    $("status").textContent = statusLine(message);
    $("status").classList.toggle("yours", mine);
    $("command-text").placeholder = notationHint(message);
    drawing.drawTable($("board"), message);
    watchAnimations();
    $("hint").textContent = mine && drawing.hint ? drawing.hint(message) : "";
    const watching = message.seat === null; // a spectator has no moves to make
    $("controls").hidden = finished || message.closed || watching;
    renderActions();
    $("command").hidden = finished || message.closed || watching;
    $("command-text").disabled = message.closed; // never while a move is on its way: what is typed stays
    $("result").hidden = !finished;
    if (finished) {
      $("winners").textContent = message.outcome ? winnersLine(message) : statusLine(message);
      const detail = $("result-detail");
      detail.textContent = "";
      if (drawing.drawResult) drawing.drawResult(detail, message);
      $("download").hidden = message.closed || message.seat === null; // a record is a seat's
    }
  }

  // -- moves ---------------------------------------------------------------------------------------

  // A move names the version of the table it was chosen from: if the room has moved on (a retry of a move
  // already played, a move from an old table), the server refuses it and sends the table as it is now.
  // Returns whether the server took the move (false also when it was not sent: one is on its way already).
  async function send(move) {
    if (!table || gone || moveOnItsWay()) return false;
    const version = table.version;
    $("error").textContent = "";
    sentFrom = version;
    updateControls();
    let taken = false;
    try {
      const response = await fetch("/api/move", {
        method: "POST",
        headers: Object.assign({ "Content-Type": "application/json" }, auth()),
        body: JSON.stringify(Object.assign({ version: version }, move)),
      });
      const answer = await response.json().catch(() => ({}));
      if (sentFrom === version) sentFrom = null;
      if (response.status === 410) {
        closedForGood(answer.error);
        return false;
      }
      if (!response.ok) {
        $("error").textContent = answer.error || "The move was refused (" + response.status + ").";
        if (answer.table) await receive(answer.table);
      } else {
        taken = true;
        await receive(answer);
      }
    } catch (error) {
      $("error").textContent = "The server cannot be reached: " + error;
    } finally {
      if (sentFrom === version) sentFrom = null;
      if (table && !gone) render();
    }
    return taken;
  }

  // A typed move leaves the box only once the server has taken it: a refused one stays there to be mended.
  $("command").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("command-text");
    const text = input.value.trim();
    if (!text) return;
    if (table && !table.legal.length && table.to_move !== null && table.to_move !== table.seat && !gone) {
      // Said to you, before the server is asked: your move waits in the box for your turn.
      $("error").textContent = "It is not your turn: " + nameOf(table.to_move) + " is to move. Send your move when it is yours.";
      return;
    }
    if (moveOnItsWay()) {
      $("error").textContent = "Your last move is on its way: send this one when the table shows it.";
      return;
    }
    finishAnimations(); // the picture catches up with the table the move is read against
    if ((await send({ text: text })) && input.value.trim() === text) input.value = "";
  });

  // Escape leaves the move box, so that the keys are the buttons' shortcuts again.
  $("command-text").addEventListener("keydown", (event) => {
    if (event.key === "Escape") event.target.blur();
  });

  // A button's key presses it whenever the button is enabled. A key held down does not repeat a move.
  document.addEventListener("keydown", (event) => {
    if (gone || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.key === "/") {
      event.preventDefault();
      $("command-text").focus();
      return;
    }
    const button = $("actions").querySelector("button[data-key=\"" + CSS.escape(event.key.toLowerCase()) + "\"]");
    if (!button) return;
    event.preventDefault();
    if (event.repeat || moveOnItsWay()) return;
    finishAnimations(); // the picture catches up with the table the key's button was made for
    if (!button.disabled) button.click();
  });

  // The record of a finished game, fetched with the seat's token and saved as a file.
  $("download").addEventListener("click", async () => {
    $("error").textContent = "";
    try {
      const response = await fetch("/api/record", { headers: auth(), cache: "no-store" });
      const answer = await response.json();
      if (response.status === 410) {
        closedForGood(answer.error);
        return;
      }
      if (!response.ok) {
        $("winners").textContent = answer.error || "The record cannot be had (" + response.status + ").";
        return;
      }
      const blob = new Blob([JSON.stringify(answer, null, 2) + "\n"], { type: "application/json" });
      const link = el("a");
      link.href = URL.createObjectURL(blob);
      link.download = (table.game + "-" + table.room).replace(/-{2,}/g, "-") + ".json"; // a room id may begin with "-"
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (error) {
      $("winners").textContent = "The server cannot be reached: " + error;
    }
  });

  // -- news from the server: server-sent events, read with fetch so the token travels in a header ----

  async function follow() {
    let delay = 500;
    for (;;) {
      try {
        const response = await fetch("/api/events?since=" + nextSeq, { headers: auth(), cache: "no-store" });
        if (response.status === 410) {
          closedForGood((await response.json().catch(() => ({}))).error);
          return;
        }
        if (response.status === 401 || response.status === 404) {
          const answer = await response.json().catch(() => ({}));
          if (table) {
            table.closed = true;
            render();
          } else {
            fatal(answer.error || "no open room has a seat for this link");
          }
          return;
        }
        if (!response.ok) throw new Error("the server answered " + response.status);
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
            if (data && !gone) await receive(JSON.parse(data));
          }
        }
        if (gone || (table && table.closed)) return;
      } catch (error) {
        if (gone) return;
        console.warn(error);
        $("status").textContent = "Reconnecting…";
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10000);
    }
  }

  // Another seat's link pasted into this tab changes only the part after "#": the page follows it, opening
  // that seat afresh.
  window.addEventListener("hashchange", () => location.reload());

  // Exchange a link's claim code for the seat's token, once, and keep the token in this browser.
  async function claimSeat() {
    try {
      const response = await fetch("/api/claim", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ claim: seat.claim }),
        cache: "no-store",
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok || !answer.token) {
        fatal(answer.error || "this seat's link cannot be opened");
        return;
      }
      try {
        localStorage.setItem("cheekymonkey-claim:" + seat.claim, answer.token);
      } catch (error) {
        console.warn(error); // the seat plays on in this tab; a reload cannot open it again
      }
      seat.token = answer.token;
      follow();
    } catch (error) {
      fatal("the server cannot be reached; reload the page to try again");
    }
  }

  if (seat.error) fatal(seat.error);
  else if (seat.claim) claimSeat();
  else follow();
})();
