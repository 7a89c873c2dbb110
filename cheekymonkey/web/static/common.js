// Shared by the pages: animals, and small helpers that build elements. Every piece of text goes in
// through textContent, never as HTML, so a name or a reason can never become markup.
"use strict";

const ANIMALS = ["elephant", "seal", "hippo", "giraffe", "panda", "kangaroo", "lion", "monkey"];
const FORMAT = "cheekymonkey/1";

function label(animal) {
  return animal.charAt(0).toUpperCase() + animal.slice(1);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// A round token showing an animal: its colour, its initial, and its name for everyone and screen readers.
function token(animal, extraClass) {
  const chip = el("span", "token t-" + animal + (extraClass ? " " + extraClass : ""));
  chip.appendChild(el("span", "token-initial", animal.charAt(0).toUpperCase())).setAttribute("aria-hidden", "true");
  chip.appendChild(el("span", "token-name", label(animal)));
  return chip;
}

function listOf(words) {
  if (words.length <= 1) return words.join("");
  return words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
}
