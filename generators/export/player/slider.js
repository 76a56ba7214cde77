/* The slider player: numbered tiles on the vertices of a graph, slid into a
   blank along its edges until they reach the goal.

   Covers: the board drawn as SVG from its layout (edges, vertices, tiles)
   beside a small picture of the goal; clicking a tile (or Enter on it) next
   to a blank slides it there, animated — with several blanks next to it the
   tile is picked first and then the blank; an arrow key slides a tile into
   a blank in the arrow's direction; the move counter, undo, reset,
   "solved" when the goal is reached, and "show solution", which plays the
   stored optimal solution from the start, one move at a time. Progress is
   kept in local storage as the moves made, replayed from the start on the
   next visit; a goal reached after "show solution" (until a reset) is
   announced and saved as revealed, not solved.
   Leaves out: solving (the solution is the generator's) and any rule beyond
   the board's edge list. */
"use strict";

(() => {
  const { el, svg, button, plural } = Mobius;
  const puzzle = Mobius.readPuzzle();
  const root = document.getElementById("player");
  const board = puzzle.board;
  const BLANK = 0;
  const UNIT = 100; // drawing units between the two closest vertices
  const TILE_RADIUS = 0.32 * UNIT; // under half a unit, so neighbouring tiles never touch
  const MARGIN = 0.5 * UNIT;
  const STEP_MS = 700; // between the moves of "show solution": slow enough to follow
  // The direction a tile moves for each arrow key, on screen (y grows downwards).
  const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  // A slide answers an arrow when it runs within 60° of the arrow's direction (cosine 0.5): on a
  // grid exactly one does; on other boards the nearest one, if it is near enough.
  const MIN_ALIGNMENT = 0.5;

  const neighbours = Array.from({ length: board.vertices }, () => []);
  for (const [a, b] of board.edges) {
    neighbours[a].push(b);
    neighbours[b].push(a);
  }

  /* Boards read from a bare edge list may have no layout: a circle then. */
  function circle(n) {
    return Array.from({ length: n }, (_, i) => [Math.sin((2 * Math.PI * i) / n), Math.cos((2 * Math.PI * i) / n)]);
  }

  /* Layout points scaled so the closest two vertices are one unit apart and
     flipped so y grows downwards, as on screen (the layout's y grows upwards). */
  function positions() {
    const layout = board.layout && board.layout.length === board.vertices ? board.layout : circle(board.vertices);
    const points = layout.map(([x, y]) => [x, -y]);
    let closest = Infinity;
    points.forEach(([ax, ay], i) => points.slice(i + 1).forEach(([bx, by]) => {
      const distance = Math.hypot(ax - bx, ay - by);
      if (distance > 0) closest = Math.min(closest, distance);
    }));
    if (!Number.isFinite(closest)) closest = 1;
    const minX = Math.min(...points.map(([x]) => x));
    const minY = Math.min(...points.map(([, y]) => y));
    return points.map(([x, y]) => [MARGIN + ((x - minX) / closest) * UNIT, MARGIN + ((y - minY) / closest) * UNIT]);
  }

  const at = positions();
  const solution = puzzle.solution;
  const store = Mobius.storage(root.dataset.storageKey);
  let state = puzzle.start.slice();
  const history = []; // [from, to] of each move made, for undo
  let revealed = false; // the solution was shown since the last reset: reaching the goal is not solving it
  let picked = null; // the vertex of a tile waiting for its blank (several blanks next to it)
  let playing = null; // the interval of "show solution"

  const isGoal = () => state.every((tile, vertex) => tile === puzzle.goal[vertex]);
  const blanksNextTo = (vertex) => neighbours[vertex].filter((w) => state[w] === BLANK);
  const isVertex = (v) => Number.isInteger(v) && v >= 0 && v < board.vertices;

  // --- progress ---------------------------------------------------------------------------

  function progressStatus() {
    if (revealed) return "revealed";
    if (isGoal()) return "solved";
    return history.length ? "started" : null;
  }

  const save = () => store.save({ moves: history, revealed, status: progressStatus() });

  /* A saved move is replayed only if it is a legal slide from the state
     reached so far: a save edited by hand or made for another board stops
     the replay there, leaving a playable board. */
  function restore(saved) {
    const data = saved && typeof saved === "object" ? saved : {};
    for (const move of Array.isArray(data.moves) ? data.moves : []) {
      const legal = Array.isArray(move) && move.length === 2 && move.every(isVertex)
        && state[move[0]] !== BLANK && state[move[1]] === BLANK && neighbours[move[0]].includes(move[1]);
      if (!legal) break;
      apply(...move);
    }
    revealed = data.revealed === true;
  }

  function apply(from, to) {
    state[to] = state[from];
    state[from] = BLANK;
    history.push([from, to]);
  }

  // --- drawing --------------------------------------------------------------------------

  function boardSvg(label, cls) {
    const width = Math.max(...at.map(([x]) => x)) + MARGIN;
    const height = Math.max(...at.map(([, y]) => y)) + MARGIN;
    const picture = svg("svg", { class: cls, viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": label });
    const edges = svg("g", { class: "edges" });
    for (const [a, b] of board.edges) {
      edges.append(svg("line", { x1: at[a][0], y1: at[a][1], x2: at[b][0], y2: at[b][1] }));
    }
    const slots = svg("g", { class: "slots" });
    at.forEach(([x, y], vertex) => slots.append(svg("circle", { class: "slot", cx: x, cy: y, r: TILE_RADIUS,
                                                                "data-vertex": vertex })));
    picture.append(edges, slots);
    return picture;
  }

  function tileNode(tile) {
    return svg("g", { class: "tile", "data-tile": tile }, svg("circle", { r: TILE_RADIUS }),
               svg("text", { "text-anchor": "middle", "dominant-baseline": "central" }, tile));
  }

  function moveTo(node, vertex) {
    // A CSS transform, unlike the SVG attribute, can be animated by a transition.
    node.style.transform = `translate(${at[vertex][0]}px, ${at[vertex][1]}px)`;
  }

  function goalPicture() {
    const picture = boardSvg("Goal", "sl-goal-board");
    puzzle.goal.forEach((tile, vertex) => {
      if (tile === BLANK) return;
      const node = tileNode(tile);
      moveTo(node, vertex);
      picture.append(node);
    });
    return el("figure", { class: "sl-goal" }, picture, el("figcaption", null, "Goal"));
  }

  // --- moves ----------------------------------------------------------------------------------

  function slide(from, to) {
    const tile = state[from];
    apply(from, to);
    picked = null;
    save();
    render();
    if (isGoal()) {
      announceGoal();
    } else {
      status.show(`Tile ${tile} moved: ${plural(history.length, "move")} so far.`, "info");
    }
  }

  function announceGoal() {
    if (revealed) {
      status.show(`The solution reaches the goal in ${plural(history.length, "move")}.`, "info");
    } else {
      status.show(`Solved in ${plural(history.length, "move")}! The best possible is ${puzzle.length}.`, "success");
    }
  }

  /* A tile next to one blank slides there; next to several it is picked and
     the blank is chosen next; a tile next to no blank stays where it is. */
  function activate(vertex) {
    if (playing !== null) return;
    if (state[vertex] === BLANK) {
      if (picked !== null && neighbours[picked].includes(vertex)) slide(picked, vertex);
      return;
    }
    const blanks = blanksNextTo(vertex);
    if (blanks.length === 1) {
      slide(vertex, blanks[0]);
    } else if (blanks.length > 1) {
      picked = vertex;
      render();
      status.show(`Tile ${state[vertex]}: now pick the empty spot to slide it to.`, "info");
    } else {
      picked = null;
      render();
      status.show(`Tile ${state[vertex]} is not next to an empty spot, so it cannot move.`, "error");
    }
  }

  /* The slide an arrow key asks for: of the tiles next to a blank, the one
     whose slide into it runs closest to the arrow's direction. */
  function slideFor(arrow) {
    const [ax, ay] = ARROWS[arrow];
    let best = null;
    let bestAlignment = MIN_ALIGNMENT;
    state.forEach((tile, blank) => {
      if (tile !== BLANK) return;
      for (const from of neighbours[blank]) {
        if (state[from] === BLANK) continue;
        const dx = at[blank][0] - at[from][0];
        const dy = at[blank][1] - at[from][1];
        const alignment = (dx * ax + dy * ay) / Math.hypot(dx, dy);
        if (alignment > bestAlignment) {
          best = [from, blank];
          bestAlignment = alignment;
        }
      }
    });
    return best;
  }

  function onArrow(event) {
    if (!(event.key in ARROWS) || event.ctrlKey || event.metaKey || event.altKey || playing !== null) return;
    const move = slideFor(event.key);
    event.preventDefault();
    if (move) slide(...move);
    else status.show("No tile can slide that way.", "error");
  }

  function undo() {
    stopPlaying();
    const last = history.pop();
    if (!last) return;
    const [from, to] = last;
    state[from] = state[to];
    state[to] = BLANK;
    save();
    render();
    status.show(`Undid a move: ${plural(history.length, "move")} now.`, "info");
  }

  function reset() {
    stopPlaying();
    state = puzzle.start.slice();
    history.length = 0;
    picked = null;
    revealed = false;
    save();
    render();
    status.show("Back to the start.", "info");
  }

  /* A stored move as [from, to]: with one blank the solution lists the
     vertices the blank moves to (the tile there slides into the blank); with
     several blanks it lists [from, to] pairs. */
  function asSlide(move) {
    return Array.isArray(move) ? move : [move, state.indexOf(BLANK)];
  }

  function showSolution() {
    if (playing !== null) {
      stopPlaying();
      status.show("Stopped the solution.", "info");
      return;
    }
    reset();
    revealed = true;
    save();
    status.show(`Playing the optimal solution: ${plural(solution.length, "move")}.`, "info");
    let next = 0;
    playing = window.setInterval(() => {
      if (next >= solution.length) {
        stopPlaying();
        return;
      }
      slide(...asSlide(solution[next]));
      next += 1;
    }, STEP_MS);
    render();
  }

  function stopPlaying() {
    if (playing === null) return;
    window.clearInterval(playing);
    playing = null;
    render();
  }

  // --- the page ----------------------------------------------------------------------------------

  const status = Mobius.statusLine();
  const movesNode = el("span", { class: "moves" });
  const main = boardSvg("Board", "sl-board");
  const tiles = new Map();
  const slots = [...main.querySelectorAll(".slot")];
  const undoButton = button("Undo", undo, { "data-action": "undo" });
  const solutionButton = button("Show solution", showSolution, { "data-action": "solution" });

  function buildPage() {
    const layer = svg("g", { class: "tiles" });
    for (const tile of puzzle.start) {
      if (tile === BLANK) continue;
      const node = tileNode(tile);
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.addEventListener("click", () => activate(Number(node.dataset.vertex)));
      node.addEventListener("keydown", onKey);
      tiles.set(tile, node);
      layer.append(node);
    }
    main.append(layer);
    slots.forEach((slot) => {
      slot.addEventListener("click", () => activate(Number(slot.dataset.vertex)));
      slot.addEventListener("keydown", onKey);
    });
    const counts = el("p", { class: "sl-counts" }, movesNode, " · ",
                      el("span", null, `best possible: ${plural(puzzle.length, "move")}`));
    const tools = el("div", { class: "tools" }, undoButton, button("Reset", reset, { "data-action": "reset" }),
                     solutionButton);
    const help = el("p", { class: "help" }, "Click a tile next to the empty spot to slide it along the line " +
                    "between them (Tab to a tile and press Enter works too), or press an arrow key to slide " +
                    "the tile that lies that way into the empty spot. Reach the goal on the right; " +
                    "a green ring marks a tile already on its goal spot.");
    root.append(counts, el("div", { class: "sl-boards" }, el("figure", { class: "sl-main" }, main), goalPicture()),
                tools, status, help);
  }

  function onKey(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    activate(Number(event.currentTarget.dataset.vertex));
  }

  function render() {
    state.forEach((tile, vertex) => {
      if (tile === BLANK) return;
      const node = tiles.get(tile);
      moveTo(node, vertex);
      node.dataset.vertex = String(vertex);
      const movable = blanksNextTo(vertex).length > 0;
      node.classList.toggle("movable", movable);
      node.classList.toggle("home", tile === puzzle.goal[vertex]);
      node.classList.toggle("picked", vertex === picked);
      node.setAttribute("aria-label", `Tile ${tile} on vertex ${vertex}${movable ? ", can slide" : ""}`);
    });
    slots.forEach((slot, vertex) => {
      const target = picked !== null && state[vertex] === BLANK && neighbours[picked].includes(vertex);
      slot.classList.toggle("target", target);
      if (target) {
        slot.setAttribute("tabindex", "0");
        slot.setAttribute("role", "button");
        slot.setAttribute("aria-label", `Empty vertex ${vertex}`);
      } else {
        ["tabindex", "role", "aria-label"].forEach((name) => slot.removeAttribute(name));
      }
    });
    movesNode.textContent = `Moves: ${history.length}`;
    undoButton.disabled = history.length === 0;
    solutionButton.textContent = playing !== null ? "Stop" : "Show solution";
    root.dataset.state = state.join(",");
    root.dataset.moves = String(history.length);
    root.dataset.solved = String(progressStatus() === "solved");
    root.dataset.revealed = String(revealed);
    main.classList.toggle("solved", isGoal());
  }

  restore(store.load());
  buildPage();
  document.addEventListener("keydown", onArrow);
  render();
  if (isGoal()) announceGoal();
  else if (history.length) status.show(`Your ${plural(history.length, "move")} so far, as you left them.`, "info");
})();
