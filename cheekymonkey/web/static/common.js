// Shared by the pages: small helpers that build elements, and the registry of game drawings. Every piece of
// text goes in through textContent, never as HTML, so a name or a reason can never become markup.
"use strict";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function listOf(words) {
  if (words.length <= 1) return words.join("");
  return words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
}

// Each game's drawing lives in /static/games/<name>.js and registers itself here. A page loads the file of
// the game it shows by name; a game without one is shown by the generic fallback of play.js.
const GAMES = {};

function registerGame(name, drawing) {
  GAMES[name] = drawing;
}

function loadGame(name) {
  if (GAMES[name]) return Promise.resolve(GAMES[name]);
  if (!/^[a-z0-9-]{1,40}$/.test(name)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = "/static/games/" + name + ".js";
    script.onload = () => resolve(GAMES[name] || null);
    script.onerror = () => resolve(null);
    document.head.appendChild(script);
  });
}
