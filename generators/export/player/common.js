/* Shared helpers of the mobius-puzzles players (crossword and slider pages).

   Covers: reading the puzzle JSON embedded in the page, building HTML and SVG
   elements whose text is always set as text (never parsed as HTML), the
   status line that screen readers announce, progress in local storage that
   fails quietly (and the `status` every player saves in it, which the pack
   index reads), and time formatting.
   Leaves out: everything specific to one kind of puzzle (crossword.js,
   slider.js, strip.js). */
"use strict";

const Mobius = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";

  function readPuzzle() {
    return JSON.parse(document.getElementById("puzzle-data").textContent);
  }

  /* Attributes go through setAttribute and children through text nodes, so a
     string from the puzzle can never become markup. */
  function build(node, attrs, children) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      const isText = typeof child === "string" || typeof child === "number";
      node.append(isText ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  function el(tag, attrs, ...children) {
    return build(document.createElement(tag), attrs, children);
  }

  function svg(tag, attrs, ...children) {
    return build(document.createElementNS(SVG_NS, tag), attrs, children);
  }

  function button(label, onClick, attrs) {
    const node = el("button", Object.assign({ type: "button" }, attrs), label);
    node.addEventListener("click", onClick);
    return node;
  }

  /* The polite live region under the board: what the last action did. */
  function statusLine() {
    const node = el("p", { class: "status", role: "status", "aria-live": "polite" });
    node.show = (message, tone) => {
      node.textContent = message;
      node.dataset.tone = tone || "info";
    };
    return node;
  }

  /* Local storage can be missing or refuse writes (private windows, some
     browsers on file:// pages); the puzzle stays playable, only unsaved.
     Every player saves an object whose `status` is one of PROGRESS (or
     absent for a puzzle not begun): the pack index marks its rows from it. */
  function storage(key) {
    return {
      load() {
        try {
          return JSON.parse(window.localStorage.getItem(key) || "null");
        } catch (error) {
          return null;
        }
      },
      save(value) {
        try {
          window.localStorage.setItem(key, JSON.stringify(value));
        } catch (error) {
          /* nothing to do: see above */
        }
      },
    };
  }

  /* What a saved puzzle has come to. "revealed" is a puzzle finished with
     the player's help (letters revealed, the solution shown): never "solved". */
  const PROGRESS = { started: "In progress", solved: "Solved", revealed: "Revealed" };

  function formatTime(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : "s"}`;
  }

  return { readPuzzle, el, svg, button, statusLine, storage, PROGRESS, formatTime, plural };
})();
