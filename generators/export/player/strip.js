/* The crossword's band as a real strip in 3D, drawn on a canvas: the Möbius
   strip (or, without the twist, the cylinder) with the letters typed so far
   and the current light highlighted, so the player sees a light run round
   the twist. Drag it, or use the arrow keys on it, to turn it.

   Covers: `MobiusStrip.fits(puzzle)` — whether the puzzle's surface is a
   band (right edge glued to the left, plainly or with a half twist, top and
   bottom free), as the generator says in `glue.band` — and
   `MobiusStrip.create(puzzle, paint)`, a view whose `draw()` asks
   `paint(x, y)` for each cell's state.
   Leaves out: playing (crossword.js) and surfaces whose top and bottom edges
   are glued too (torus, Klein bottle, projective plane): no band shows them. */
"use strict";

const MobiusStrip = (() => {
  const RADIUS = 1;
  const MAX_HALF_WIDTH = 0.42; // of the radius: a wider band would cut through itself at the twist
  const SLICES = 5; // points per cell edge along the band, so long cells follow the curve
  const CAMERA = 6; // distance of the eye, in radii: a little perspective
  const TURN_PER_PIXEL = 0.01;
  const TURN_PER_KEY = 0.15;
  const MAX_PITCH = 1.45;
  const MIN_LETTER_PX = 7; // smaller letters (cells seen edge-on) are noise
  const LETTER_SCALE = 0.75; // of the cell's shorter side on screen
  const ASPECT = 0.62; // canvas height to width
  const PADDING = 12; // pixels round the picture
  const SEAM_LIFT = 1e-3; // the seam line is drawn over the cells that meet at it
  const COLOURS = { block: "#1f2430", current: "#ffd54a", light: "#bfe3ff", plain: "#ffffff" };
  const SEAM_COLOUR = "#d2372c";

  function fits(puzzle) {
    return puzzle.glue.band === true;
  }

  /* A point of the band: `u` goes round it (0 to 2π, column by column), `v`
     across it (1 at the top row, −1 at the bottom row). With `twist` (the
     glue's right_flip) the band's cross-section turns half a turn over one
     round, so the right edge meets the left edge upside down, as the glue
     says; without, it meets it as it is. */
  function point(u, v, twist, halfWidth) {
    const phi = Math.PI / 2 + (twist ? u / 2 : 0);
    const r = RADIUS + halfWidth * v * Math.cos(phi);
    return [r * Math.cos(u), r * Math.sin(u), halfWidth * v * Math.sin(phi)];
  }

  function create(puzzle, paint) {
    const W = puzzle.width;
    const H = puzzle.height;
    const twist = puzzle.glue.right_flip;
    // Square cells if the band allows it: W cells round the circle, H across.
    const halfWidth = Math.min((Math.PI * RADIUS * H) / W, MAX_HALF_WIDTH);
    const view = { yaw: -Math.PI / 2, pitch: 0.55 }; // the seam in front, seen a little from above
    const name = twist ? "Möbius strip" : "cylinder";
    const canvas = Mobius.el("canvas", {
      class: "strip-canvas", tabindex: "0", role: "img",
      "aria-label": `The grid glued into a ${name}, with your letters; drag or use the arrow keys to turn it`,
    });
    const node = Mobius.el("details", { class: "strip-view", open: "" },
                           Mobius.el("summary", null, `See it as a real ${name}`), canvas,
                           Mobius.el("p", { class: "hint" }, "Drag the strip (or use the arrow keys on it) " +
                                     "to turn it. The red line is the seam."));

    const u = (x) => (2 * Math.PI * x) / W;
    const v = (y) => 1 - (2 * y) / H;

    /* Model to view: turned by yaw and pitch, with a little perspective; y grows downwards. */
    function project(model) {
      const [x, y, z] = model;
      const x1 = x * Math.cos(view.yaw) - y * Math.sin(view.yaw);
      const y1 = x * Math.sin(view.yaw) + y * Math.cos(view.yaw);
      const depth = y1 * Math.cos(view.pitch) - z * Math.sin(view.pitch);
      const up = y1 * Math.sin(view.pitch) + z * Math.cos(view.pitch);
      const perspective = CAMERA / (CAMERA + depth);
      return [x1 * perspective, -up * perspective, depth];
    }

    const at = (x, y) => project(point(u(x), v(y), twist, halfWidth));
    const distance = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);

    /* One cell as a polygon (its top edge left to right, its bottom edge back)
       and the shorter of its two sides on screen, which the letter must fit. */
    function cellShape(x, y) {
      const points = [];
      for (let i = 0; i <= SLICES; i++) points.push(at(x + i / SLICES, y));
      for (let i = SLICES; i >= 0; i--) points.push(at(x + i / SLICES, y + 1));
      const centre = at(x + 0.5, y + 0.5);
      const side = Math.min(distance(at(x + 0.5, y), at(x + 0.5, y + 1)), distance(at(x, y + 0.5), at(x + 1, y + 0.5)));
      return { x, y, points, centre, side, depth: centre[2] };
    }

    function seamShape() {
      const points = [];
      for (let i = 0; i <= H; i++) points.push(at(0, i));
      return { points, centre: points[0], side: 0, depth: points.reduce((sum, p) => sum + p[2], 0) / points.length };
    }

    /* Scale and centre the picture to fill the canvas, whichever way it is turned. */
    function fit(shapes, width, height) {
      const all = shapes.flatMap((shape) => shape.points);
      const [minX, maxX] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
      const [minY, maxY] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
      const scale = Math.min((width - 2 * PADDING) / (maxX - minX), (height - 2 * PADDING) / (maxY - minY));
      const place = ([px, py, depth]) => [(width - scale * (maxX + minX)) / 2 + px * scale,
                                          (height - scale * (maxY + minY)) / 2 + py * scale, depth];
      for (const shape of shapes) {
        shape.points = shape.points.map(place);
        shape.centre = place(shape.centre);
        shape.side *= scale;
      }
    }

    function polygon(ctx, points) {
      ctx.beginPath();
      points.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.closePath();
    }

    /* Twice the signed area: its sign says which side of the paper faces the eye. */
    function facing(points) {
      let area = 0;
      points.forEach(([ax, ay], i) => {
        const [bx, by] = points[(i + 1) % points.length];
        area += ax * by - bx * ay;
      });
      return area;
    }

    function drawCell(ctx, shape) {
      const { kind, letter } = paint(shape.x, shape.y);
      polygon(ctx, shape.points);
      ctx.fillStyle = COLOURS[kind];
      ctx.fill();
      if (facing(shape.points) < 0) {
        ctx.fillStyle = "rgba(0, 0, 0, 0.12)"; // the far side of the paper, a little in shadow
        ctx.fill();
      }
      ctx.strokeStyle = "#7a8394";
      ctx.lineWidth = 0.8;
      ctx.stroke();
      const px = shape.side * LETTER_SCALE;
      if (letter && px >= MIN_LETTER_PX) {
        ctx.fillStyle = "#111";
        ctx.font = `600 ${Math.round(px)}px system-ui, sans-serif`;
        ctx.fillText(letter, shape.centre[0], shape.centre[1]);
      }
    }

    function drawSeam(ctx, shape) {
      ctx.beginPath();
      shape.points.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.strokeStyle = SEAM_COLOUR;
      ctx.lineWidth = 2.5;
      ctx.setLineDash([6, 4]);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    function draw() {
      const width = canvas.clientWidth;
      if (!node.open || !width) return; // closed or not laid out: nothing to see
      const height = Math.round(width * ASPECT);
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, width, height);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      const seam = seamShape();
      const cells = [];
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) cells.push(cellShape(x, y));
      fit([seam, ...cells], width, height);
      const items = [{ depth: seam.depth - SEAM_LIFT, paint: () => drawSeam(ctx, seam) },
                     ...cells.map((cell) => ({ depth: cell.depth, paint: () => drawCell(ctx, cell) }))];
      items.sort((a, b) => b.depth - a.depth); // far to near: the painter's algorithm
      items.forEach((item) => item.paint());
    }

    function turn(dYaw, dPitch) {
      view.yaw += dYaw;
      view.pitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, view.pitch + dPitch));
      draw();
    }

    let dragging = null;
    canvas.addEventListener("pointerdown", (event) => {
      dragging = { x: event.clientX, y: event.clientY };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!dragging) return;
      turn((event.clientX - dragging.x) * TURN_PER_PIXEL, (event.clientY - dragging.y) * TURN_PER_PIXEL);
      dragging = { x: event.clientX, y: event.clientY };
    });
    canvas.addEventListener("pointerup", () => { dragging = null; });
    canvas.addEventListener("pointercancel", () => { dragging = null; });
    const KEYS = { ArrowLeft: [-TURN_PER_KEY, 0], ArrowRight: [TURN_PER_KEY, 0],
                   ArrowUp: [0, -TURN_PER_KEY], ArrowDown: [0, TURN_PER_KEY] };
    canvas.addEventListener("keydown", (event) => {
      if (!(event.key in KEYS)) return;
      event.preventDefault();
      turn(...KEYS[event.key]);
    });
    node.addEventListener("toggle", draw);
    window.addEventListener("resize", draw);

    return { node, draw };
  }

  return { fits, create };
})();
