/* The crossword player: a crossword on a surface, drawn as its unfolded
   rectangle and played with mouse, touch or keyboard.

   Covers: the grid with clue numbers and bars and, at each glued edge, a
   label saying where each row (column) continues; selecting a light and
   highlighting all of it, its seam crossings marked; typing along a light in
   the order of its cell list; arrow keys; Tab between lights; the clue
   lists; check, reveal and clear; the timer; progress in local storage.
   A grid finished with any letter revealed is announced and saved as
   revealed, never as solved.

   Leaves out: geometry of its own. Where a light goes is its cell list,
   which of its steps cross a seam is its `seam_steps`, and where a step off
   an edge lands is `glue.neighbours`, all written by the generator from
   cpmodel/surface.py; this file only reads them. The 3D view of the strip
   is strip.js. */
"use strict";

(() => {
  const { el, button, plural, formatTime } = Mobius;
  const puzzle = Mobius.readPuzzle();
  const root = document.getElementById("player");
  const W = puzzle.width;
  const H = puzzle.height;
  const glue = puzzle.glue;
  const BLOCK = "#";
  const DIRECTIONS = ["across", "down"];
  const STEP = { across: [1, 0], down: [0, 1] };
  const ARROWS = { ArrowRight: [1, 0, "across"], ArrowLeft: [-1, 0, "across"],
                   ArrowDown: [0, 1, "down"], ArrowUp: [0, -1, "down"] };
  const TICK_MS = 1000;
  const beyond = glue.neighbours; // the cell one step off each edge cell: right/left per row, down/up per column
  const rowsGlued = glue.right.some((row) => row !== null);
  const columnsGlued = glue.bottom.some((column) => column !== null);
  const glued = rowsGlued || columnsGlued; // a plane grid has no seam to speak of

  // --- the model: cells, lights, progress -------------------------------------------

  const keyOf = (x, y) => `${x},${y}`;
  const xyOf = (key) => key.split(",").map(Number);
  const isWhite = (x, y) => puzzle.rows[y][x] !== BLOCK;
  const solutionOf = (key) => {
    const [x, y] = xyOf(key);
    return puzzle.rows[y][x];
  };

  const whiteKeys = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) if (isWhite(x, y)) whiteKeys.push(keyOf(x, y));
  }

  /* The steps of a light that go through a seam, as the generator lists
     them: step j leaves cell j for cell j + 1 (the last step of a cyclic
     light goes back to its first cell). */
  function seamCrossings(entry) {
    const cells = entry.cells;
    return (entry.seam_steps || []).map((j) => ({
      from: keyOf(...cells[j]),
      to: keyOf(...cells[(j + 1) % cells.length]),
    }));
  }

  const lights = puzzle.entries.map((entry, index) => ({
    index,
    entry,
    keys: entry.cells.map(([x, y]) => keyOf(x, y)),
    crossings: seamCrossings(entry),
  }));
  // The clue lists' order, which Tab follows: across lights, then down lights, each by number.
  const clueOrder = DIRECTIONS.flatMap((d) => lights.filter((light) => light.entry.direction === d));
  const lightsAt = new Map();
  for (const light of lights) {
    for (const key of light.keys) {
      if (!lightsAt.has(key)) lightsAt.set(key, []);
      lightsAt.get(key).push(light);
    }
  }
  const numberAt = new Map(lights.map((light) => [light.keys[0], light.entry.number]));
  const barsRight = new Set((puzzle.bars_right || []).map(([x, y]) => keyOf(x, y)));
  const barsBelow = new Set((puzzle.bars_below || []).map(([x, y]) => keyOf(x, y)));

  const store = Mobius.storage(root.dataset.storageKey);
  const progress = loadProgress(store.load());
  const save = () => store.save({ ...progress, status: progressStatus() });
  const marked = new Set(); // letters the last check found wrong, until they are retyped
  let current = firstSelection();

  /* Saved progress is read defensively: it may come from an older player or
     have been edited by hand; anything that does not fit this grid is dropped. */
  function loadProgress(saved) {
    const data = saved && typeof saved === "object" ? saved : {};
    const letters = {};
    const revealed = {};
    for (const key of whiteKeys) {
      const letter = data.letters && data.letters[key];
      if (typeof letter === "string" && /^[A-Z]$/.test(letter)) letters[key] = letter;
      if (data.revealed && data.revealed[key] === true) revealed[key] = true;
    }
    const elapsed = Number.isInteger(data.elapsed) && data.elapsed >= 0 ? data.elapsed : 0;
    // `solved` is how players before the "revealed" status saved a finished grid.
    const finished = data.finished === true || data.solved === true;
    return { letters, revealed, elapsed, finished };
  }

  const revealedCount = () => Object.keys(progress.revealed).length;

  function progressStatus() {
    if (progress.finished) return revealedCount() ? "revealed" : "solved";
    return Object.keys(progress.letters).length ? "started" : null;
  }

  function firstSelection() {
    if (clueOrder.length) return { key: clueOrder[0].keys[0], light: clueOrder[0] };
    return { key: whiteKeys[0] || null, light: null };
  }

  const isSolved = () => whiteKeys.every((key) => progress.letters[key] === solutionOf(key));
  const direction = () => (current.light ? current.light.entry.direction : "across");

  // --- selection and movement ------------------------------------------------------

  function lightThrough(key, dir) {
    const through = lightsAt.get(key) || [];
    return through.find((light) => light.entry.direction === dir) || through[0] || null;
  }

  function select(key, dir) {
    current = { key, light: lightThrough(key, dir) };
    render();
  }

  function selectLight(light, key) {
    current = { key: key || light.keys[0], light };
    render();
  }

  function switchDirection() {
    const through = lightsAt.get(current.key) || [];
    if (through.length < 2) return;
    selectLight(through[(through.indexOf(current.light) + 1) % through.length], current.key);
  }

  /* The cell `step` places along the current light from the current cell, in
     the light's own order (so straight across the seam); null past its ends. */
  function along(step) {
    const light = current.light;
    if (!light) return null;
    let i = light.keys.indexOf(current.key) + step;
    if (light.entry.cyclic) i = (i + light.keys.length) % light.keys.length;
    return i >= 0 && i < light.keys.length ? light.keys[i] : null;
  }

  /* One step in the unfolded picture. Off an edge, the generator's
     neighbour table says where the step lands (through the glue); null at
     a border. */
  function neighbour(x, y, dx, dy) {
    const nx = x + dx;
    const ny = y + dy;
    if (nx >= W) return beyond.right[y];
    if (nx < 0) return beyond.left[y];
    if (ny >= H) return beyond.down[x];
    if (ny < 0) return beyond.up[x];
    return [nx, ny];
  }

  function nextWhite(key, dx, dy) {
    let [x, y] = xyOf(key);
    for (let tries = 0; tries < W * H; tries++) {
      const next = neighbour(x, y, dx, dy);
      if (!next) return null;
      [x, y] = next;
      if (isWhite(x, y)) return keyOf(x, y);
    }
    return null;
  }

  /* An arrow across the current direction first turns to that direction,
     as in most crossword programs; then arrows move. */
  function arrow(name) {
    const [dx, dy, dir] = ARROWS[name];
    const through = lightsAt.get(current.key) || [];
    if (direction() !== dir && through.some((light) => light.entry.direction === dir)) {
      select(current.key, dir);
      return;
    }
    const next = nextWhite(current.key, dx, dy);
    if (next) select(next, dir);
  }

  function nextLight(step) {
    if (!clueOrder.length) return;
    const at = clueOrder.indexOf(current.light);
    const light = clueOrder[((at < 0 ? 0 : at + step) + clueOrder.length) % clueOrder.length];
    selectLight(light, light.keys.find((key) => !progress.letters[key]) || light.keys[0]);
  }

  // --- editing -------------------------------------------------------------------------

  const editable = (key) => !progress.revealed[key];

  function type(letter) {
    if (editable(current.key)) {
      progress.letters[current.key] = letter;
      marked.delete(current.key);
    }
    current.key = along(1) || current.key;
    edited();
  }

  /* Backspace empties the current cell; on an empty cell it goes back one
     along the light and empties that one. */
  function erase() {
    if (progress.letters[current.key] && editable(current.key)) {
      delete progress.letters[current.key];
    } else {
      const back = along(-1);
      if (!back) return;
      current.key = back;
      if (editable(back)) delete progress.letters[back];
    }
    marked.delete(current.key);
    edited();
  }

  function edited() {
    save();
    render();
    if (!progress.finished && isSolved()) finish();
  }

  const SCOPES = {
    cell: () => (current.key ? [current.key] : []),
    light: () => (current.light ? current.light.keys : SCOPES.cell()),
    puzzle: () => whiteKeys,
  };

  function check(scope) {
    const keys = SCOPES[scope]();
    const wrong = keys.filter((key) => progress.letters[key] && progress.letters[key] !== solutionOf(key));
    const empty = keys.filter((key) => !progress.letters[key]);
    wrong.forEach((key) => marked.add(key));
    render();
    if (scope === "puzzle" && !wrong.length && !empty.length) {
      finish();
    } else if (wrong.length) {
      const left = empty.length ? `; ${plural(empty.length, "empty cell")} left` : "";
      status.show(`${plural(wrong.length, "wrong letter")} marked${left}.`, "error");
    } else if (empty.length) {
      status.show(`No mistakes so far; ${plural(empty.length, "empty cell")} left.`, "info");
    } else {
      status.show(scope === "cell" ? "That letter is right." : "This light is right.", "success");
    }
  }

  function reveal(scope) {
    for (const key of SCOPES[scope]()) {
      if (progress.letters[key] !== solutionOf(key)) {
        progress.letters[key] = solutionOf(key);
        progress.revealed[key] = true;
      }
      marked.delete(key);
    }
    status.show(`Revealed the ${scope}.`, "info");
    edited();
  }

  /* Clearing the puzzle starts it over: letters, revealed cells and the timer. */
  function clear(scope) {
    const keys = SCOPES[scope]();
    for (const key of keys) {
      if (scope === "puzzle" || editable(key)) delete progress.letters[key];
      if (scope === "puzzle") delete progress.revealed[key];
      marked.delete(key);
    }
    if (scope === "puzzle") {
      Object.assign(progress, { elapsed: 0, finished: false });
      showFinished();
      timerNode.textContent = formatTime(0);
      startTimer();
    }
    status.show(`Cleared the ${scope}.`, "info");
    edited();
  }

  /* Every letter is right: solved if the player found them all, else finished with help. */
  function finish() {
    progress.finished = true;
    stopTimer();
    save();
    showFinished();
    const shown = revealedCount();
    if (shown) {
      status.show(`Every letter is in place, ${plural(shown, "letter")} of them revealed ` +
                  `(${formatTime(progress.elapsed)}).`, "info");
    } else {
      status.show(`Solved! Every letter is right (${formatTime(progress.elapsed)}).`, "success");
    }
  }

  /* The page's data-solved or data-revealed, for styles and tests. */
  function showFinished() {
    const now = progressStatus();
    root.dataset.solved = String(now === "solved");
    root.dataset.revealed = String(now === "revealed");
  }

  // --- timer ----------------------------------------------------------------------------

  let ticking = null;

  function startTimer() {
    if (ticking !== null || progress.finished) return;
    ticking = window.setInterval(() => {
      if (document.hidden) return; // a puzzle in a background tab is not being played
      progress.elapsed += 1;
      timerNode.textContent = formatTime(progress.elapsed);
      save();
    }, TICK_MS);
  }

  function stopTimer() {
    window.clearInterval(ticking);
    ticking = null;
  }

  // --- the page ---------------------------------------------------------------------------

  const status = Mobius.statusLine();
  const timerNode = el("span", { class: "timer", role: "timer", title: "Time on this puzzle" },
                       formatTime(progress.elapsed));
  const clueLabel = el("span", { class: "clue-bar-label" });
  const clueText = el("span", { class: "clue-bar-text" });
  const input = el("input", {
    class: "type-here", type: "text", autocomplete: "off", autocapitalize: "characters", autocorrect: "off",
    spellcheck: "false", enterkeyhint: "next", "aria-describedby": "xw-help",
  });
  const cellNodes = new Map(); // key -> { node, letter }
  const labels = { right: new Map(), left: new Map(), bottom: new Map(), top: new Map() };
  const clueButtons = new Map(); // light index -> button
  const strip = MobiusStrip.fits(puzzle) ? MobiusStrip.create(puzzle, paintForStrip) : null;

  /* Grid tracks: column 1 and row 1 hold the labels of the left and top
     edges, the cells follow, the last track holds the right (bottom) labels. */
  function place(node, x, y) {
    node.style.gridColumn = String(x + 2);
    node.style.gridRow = String(y + 2);
    return node;
  }

  /* Each cell is a grid cell for assistive technology, in a row of the
     grid; the rows and the grid take no box of their own (display: contents),
     so the cells stay items of the board's CSS grid. */
  function buildCell(x, y) {
    const key = keyOf(x, y);
    const position = { "data-x": x, "data-y": y, role: "gridcell" };
    if (!isWhite(x, y)) {
      return place(el("div", { class: "cell block", ...position,
                               "aria-label": `Row ${y + 1}, column ${x + 1}: block` }), x, y);
    }
    const letter = el("span", { class: "letter", "aria-hidden": "true" });
    const number = numberAt.has(key) ? el("span", { class: "num", "aria-hidden": "true" }, numberAt.get(key)) : null;
    const node = place(el("div", { class: "cell", ...position }, number, letter), x, y);
    node.addEventListener("click", () => {
      if (key === current.key) switchDirection();
      else select(key, direction());
      input.focus();
    });
    cellNodes.set(key, { node, letter, name: cellName(key, x, y) });
    return node;
  }

  /* What a screen reader says of a cell, before its letter: where it is and which lights pass through it. */
  function cellName(key, x, y) {
    const through = (lightsAt.get(key) || []).map((light) => `${light.entry.number} ${light.entry.direction}`);
    return `Row ${y + 1}, column ${x + 1}${through.length ? `, ${through.join(" and ")}` : ""}`;
  }

  /* A seam label: the word "row" is dropped on narrow screens (CSS), the arrow and number stay. */
  function seamLabel(side, index, parts, title, x, y) {
    const content = parts.map((part) => (part === "row " ? el("span", { class: "seam-word" }, part) : part));
    const node = place(el("div", { class: `seam-label ${side}`, title, "aria-label": title }, ...content), x, y);
    labels[side].set(index, node);
    return node;
  }

  /* "→ row 5" beside each glued row on the right, "row 5" beside each row a
     light comes back on at the left; "↓3" under glued columns, "3" over the
     columns a light comes back on at the top. */
  function buildSeamLabels() {
    const nodes = [];
    glue.right.forEach((row, y) => {
      if (row === null) return;
      nodes.push(seamLabel("right", y, ["→ ", "row ", `${row + 1}`],
                           `Row ${y + 1} continues on row ${row + 1}, from the left edge`, W, y));
    });
    beyond.left.forEach((cell, y) => {
      if (cell !== null) nodes.push(seamLabel("left", y, ["row ", `${y + 1}`], `Row ${y + 1}`, -1, y));
    });
    glue.bottom.forEach((column, x) => {
      if (column === null) return;
      nodes.push(seamLabel("bottom", x, [`↓${column + 1}`],
                           `Column ${x + 1} continues on column ${column + 1}, from the top edge`, x, H));
    });
    beyond.up.forEach((cell, x) => {
      if (cell !== null) nodes.push(seamLabel("top", x, [`${x + 1}`], `Column ${x + 1}`, x, -1));
    });
    return nodes;
  }

  /* Cells on the rim: glued edges are drawn as seams, the others as borders. */
  function edgeClasses(x, y) {
    const classes = [];
    if (x === W - 1) classes.push(beyond.right[y] !== null ? "seam-r" : "border-r");
    if (x === 0) classes.push(beyond.left[y] !== null ? "seam-l" : "border-l");
    if (y === H - 1) classes.push(beyond.down[x] !== null ? "seam-b" : "border-b");
    if (y === 0) classes.push(beyond.up[x] !== null ? "seam-t" : "border-t");
    return classes;
  }

  function buildBoard() {
    const board = el("div", { class: "board" });
    board.style.setProperty("--w", String(W));
    board.style.setProperty("--h", String(H));
    board.classList.toggle("rows-glued", rowsGlued);
    board.classList.toggle("columns-glued", columnsGlued);
    const grid = el("div", { class: "cells", role: "grid", "aria-readonly": "true",
                             "aria-label": `Crossword grid, ${W} columns by ${H} rows` });
    for (let y = 0; y < H; y++) {
      const row = el("div", { class: "cell-row", role: "row" });
      for (let x = 0; x < W; x++) {
        const node = buildCell(x, y);
        node.classList.add(...edgeClasses(x, y));
        if (barsRight.has(keyOf(x, y))) node.classList.add("bar-right");
        if (barsBelow.has(keyOf(x, y))) node.classList.add("bar-below");
        row.append(node);
      }
      grid.append(row);
    }
    board.append(grid, ...buildSeamLabels(), input);
    return board;
  }

  function seamLegend() {
    const parts = [];
    if (rowsGlued) {
      parts.push(`The right edge is glued to the left edge${glue.right_flip ? " with a half twist" : ""}: ` +
                 "a light running off a row on the right comes back from the left on the row its label names.");
    }
    if (columnsGlued) {
      parts.push(`The bottom edge is glued to the top edge${glue.bottom_flip ? " with a flip" : ""}: ` +
                 "a light running off a column at the bottom comes back from the top on the column its label names.");
    }
    return parts.length ? el("p", { class: "seam-legend" }, parts.join(" ")) : null;
  }

  function clueList(dir) {
    const list = el("ol", { class: "clues" });
    for (const light of clueOrder.filter((l) => l.entry.direction === dir)) {
      const entry = light.entry;
      const seam = light.crossings.length
        ? el("span", { class: "seam-badge", title: "This light crosses the seam" }, "⟲ seam") : null;
      const item = button(null, () => {
        selectLight(light);
        input.focus();
      }, { class: "clue", "data-light": light.index });
      const text = entry.clue ? el("span", { class: "clue-text" }, entry.clue)
                              : el("span", { class: "clue-text missing" }, "(no clue given)");
      item.append(el("span", { class: "clue-num" }, entry.number), " ", text, " ",
                  el("span", { class: "clue-enum" }, entry.enumeration || `(${light.keys.length})`));
      if (seam) item.append(" ", seam);
      clueButtons.set(light.index, item);
      list.append(el("li", null, item));
    }
    const title = dir === "across" ? "Across" : "Down";
    return el("section", { class: "clue-list", "aria-label": `${title} clues` }, el("h2", null, title), list);
  }

  function toolGroup(name, scopes, action) {
    const buttons = scopes.map((scope) => button(scope[0].toUpperCase() + scope.slice(1), () => action(scope),
      { "data-action": `${name.toLowerCase()}-${scope}`, "aria-label": `${name} ${scope}` }));
    return el("div", { class: "tool-group", role: "group", "aria-label": name },
              el("span", { class: "tool-name" }, name), ...buttons);
  }

  function buildPage() {
    const tools = el("div", { class: "tools" }, toolGroup("Check", ["cell", "light", "puzzle"], check),
                     toolGroup("Reveal", ["cell", "light", "puzzle"], reveal),
                     toolGroup("Clear", ["light", "puzzle"], clear));
    const help = el("p", { class: "help", id: "xw-help" },
                    "Click a cell to pick a light, again to switch direction. Type to fill; Backspace goes back; " +
                    `arrows move${glued ? ", across the seam too" : ""}; Tab and Shift+Tab go to the next and ` +
                    "previous light; Space switches direction; Esc leaves the grid.");
    const play = el("div", { class: "xw-play" }, el("div", { class: "board-wrap" }, buildBoard()), seamLegend(),
                    tools, status, help);
    const clues = el("div", { class: "xw-clues" }, ...DIRECTIONS.map(clueList));
    root.append(el("div", { class: "clue-bar" }, el("div", null, clueLabel, clueText), timerNode),
                el("div", { class: "xw-main" }, play, clues));
    // Node.append writes null as the text "null": a page without the strip appends nothing.
    if (strip) root.append(strip.node);
  }

  // --- drawing the state -------------------------------------------------------------------

  function describeCurrent() {
    if (!current.light) return "Cell outside any light";
    const entry = current.light.entry;
    const seam = current.light.crossings.length ? ", crosses the seam" : "";
    const position = current.light.keys.indexOf(current.key) + 1;
    return `${entry.number} ${entry.direction}, ${plural(current.light.keys.length, "letter")}${seam}: ` +
           `${entry.clue || "no clue given"}. Letter ${position}: ${progress.letters[current.key] || "empty"}.`;
  }

  /* The seam crossings of the current light: the edge of the cell it leaves
     by and of the cell it comes back in by, and the two edge labels. */
  function markCrossings() {
    for (const side of Object.values(labels)) side.forEach((node) => node.classList.remove("active"));
    if (!current.light) return;
    const across = current.light.entry.direction === "across";
    for (const { from, to } of current.light.crossings) {
      cellNodes.get(from).node.classList.add(across ? "cross-out-r" : "cross-out-b");
      cellNodes.get(to).node.classList.add(across ? "cross-in-l" : "cross-in-t");
      const [fx, fy] = xyOf(from);
      const [tx, ty] = xyOf(to);
      const [out, back] = across ? [labels.right.get(fy), labels.left.get(ty)]
                                 : [labels.bottom.get(fx), labels.top.get(tx)];
      if (out) out.classList.add("active");
      if (back) back.classList.add("active");
    }
  }

  function renderCells() {
    const inLight = new Set(current.light ? current.light.keys : []);
    for (const [key, { node, letter, name }] of cellNodes) {
      node.classList.toggle("in-light", inLight.has(key));
      node.classList.toggle("current", key === current.key);
      node.classList.toggle("wrong", marked.has(key));
      node.classList.toggle("revealed", Boolean(progress.revealed[key]));
      node.classList.remove("cross-out-r", "cross-out-b", "cross-in-l", "cross-in-t");
      letter.textContent = progress.letters[key] || "";
      const wrong = marked.has(key) ? ", marked wrong" : "";
      node.setAttribute("aria-label", `${name}: ${progress.letters[key] || "empty"}${wrong}`);
      node.setAttribute("aria-selected", String(key === current.key));
    }
  }

  /* A grid wider than its box (a phone) scrolls sideways: arrows and typing bring the cell into view,
     across the seam too. Only sideways: the page itself scrolls as the reader likes. */
  function keepCellInView(node) {
    const wrap = node.closest(".board-wrap");
    if (!wrap || wrap.scrollWidth <= wrap.clientWidth) return;
    const cell = node.getBoundingClientRect();
    const box = wrap.getBoundingClientRect();
    const margin = cell.width / 2; // a little of the next cell shows, so the reader sees where the light goes
    if (cell.left - margin < box.left) wrap.scrollLeft -= box.left - cell.left + margin;
    else if (cell.right + margin > box.right) wrap.scrollLeft += cell.right - box.right + margin;
  }

  function keepInView(item) {
    const list = item.closest(".clue-list");
    if (!list || list.scrollHeight <= list.clientHeight) return;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + item.offsetHeight - list.clientHeight;
    }
  }

  function renderClues() {
    for (const light of lights) {
      const item = clueButtons.get(light.index);
      const active = light === current.light;
      item.classList.toggle("active", active);
      item.classList.toggle("done", light.keys.every((key) => progress.letters[key]));
      if (active) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    }
    const entry = current.light ? current.light.entry : null;
    clueLabel.textContent = entry ? `${entry.number} ${entry.direction} ${entry.enumeration || ""}`.trim() : "";
    clueText.textContent = entry ? entry.clue || "(no clue given)" : "";
    if (current.light) keepInView(clueButtons.get(current.light.index));
  }

  function render() {
    renderCells();
    markCrossings();
    renderClues();
    if (current.key) {
      place(input, ...xyOf(current.key));
      keepCellInView(cellNodes.get(current.key).node);
    }
    input.setAttribute("aria-label", describeCurrent());
    if (strip) strip.draw();
  }

  function paintForStrip(x, y) {
    const key = keyOf(x, y);
    if (!isWhite(x, y)) return { kind: "block", letter: "" };
    const inLight = current.light && current.light.keys.includes(key);
    const kind = key === current.key ? "current" : inLight ? "light" : "plain";
    return { kind, letter: progress.letters[key] || "" };
  }

  // --- keyboard ------------------------------------------------------------------------------

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (/^[a-z]$/i.test(key)) type(key.toUpperCase());
    else if (key === "Backspace") erase();
    else if (key === "Delete") clearCell();
    else if (key in ARROWS) arrow(key);
    else if (key === "Tab") nextLight(event.shiftKey ? -1 : 1);
    else if (key === " " || key === "Enter") switchDirection();
    else if (key === "Escape") input.blur();
    else return;
    event.preventDefault();
  }

  function clearCell() {
    if (editable(current.key)) delete progress.letters[current.key];
    marked.delete(current.key);
    edited();
  }

  /* Phone keyboards often send no usable key event, only the text typed. */
  function onInput() {
    const letters = input.value.replace(/[^a-z]/gi, "");
    input.value = "";
    if (letters) type(letters[letters.length - 1].toUpperCase());
  }

  buildPage();
  input.addEventListener("keydown", onKey);
  input.addEventListener("input", onInput);
  showFinished();
  if (progressStatus() === "solved") {
    status.show(`You have solved this puzzle (${formatTime(progress.elapsed)}).`, "success");
  } else if (progressStatus() === "revealed") {
    status.show(`You finished this puzzle with ${plural(revealedCount(), "letter")} revealed.`, "info");
  }
  render();
  startTimer();
})();
