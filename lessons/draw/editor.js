// The Draw page's editor: a plane to click, tap or type points onto (vanilla JS, no build).
// Mounted by st.components.v2 (lessons/draw/editor.py). Streamlit calls the default export
// on every rerun with the page's `data`; the editor is built once per mount and only
// reloads its points when Python's revision changes (a preset, Clear), so an edit in
// flight is never undone by an older rerun. Each edit sends every point (at most `max`)
// as the trigger `edit`: {rev, points: [[x, y, class], ...]}; Python checks it all. With
// `locked` (a link that locks the dataset) the plane shows the points and takes no edit.
//
// A finger's swipe over the plane scrolls the page (CSS `touch-action`: the browser pans,
// and cancels the press); a tap adds a point (or erases one). Moving a point by touch is
// deliberate: the Move tool hands the plane's drags to the editor. A mouse, which does not
// scroll by dragging, moves a point with any tool.
//
// Every word it shows comes from Python in `data.words` (lessons/draw/editor.py), in the
// session's language, as templates with {named} placeholders that `say` fills in.
const SVG = "http://www.w3.org/2000/svg";
const SIZE = 400; // viewBox units per side
const SHAPES = ["circle", "square", "diamond"];
const EDITORS = new WeakMap();
const MOVED_PX = 4; // a press that travels less than this is a click, not a drag
const TAP_PX = 10; // the same for a finger, which wobbles more than a mouse

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let editor = EDITORS.get(parentElement);
  if (!editor) {
    editor = build(parentElement);
    EDITORS.set(parentElement, editor);
  }
  editor.send = setTriggerValue;
  editor.update(data || {});
}

function say(template, values = {}) {
  return String(template || "").replace(/\{(\w+)\}/g, (whole, name) =>
    (name in values ? String(values[name]) : whole));
}

function el(tag, attrs = {}, parent = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

function marker(shape, colour, size, parent) {
  const half = size / 2;
  const attrs = { fill: colour, class: "point" };
  if (shape === "circle") return el("circle", { ...attrs, r: half * 1.1 }, parent, SVG);
  if (shape === "square") {
    return el("rect", { ...attrs, x: -half, y: -half, width: size, height: size }, parent, SVG);
  }
  const d = half * 1.35;
  return el("polygon", { ...attrs, points: `0,${-d} ${d},0 0,${d} ${-d},0` }, parent, SVG);
}

function build(root) {
  const state = { rev: null, points: [], tool: 0, limit: 1.5, max: 300, names: [], colours: [],
                  cursor: [0, 0], drag: null, locked: false, words: {} };
  const words = () => state.words;
  // A class inside a sentence, in the page's language (its data name before any words).
  const named = (c) => (words().names || [])[c] || state.names[c];
  const editor = { send: null, update: null };
  const wrap = el("div", { class: "kpca-draw" }, root);
  const toolbar = el("div", { class: "tools", role: "toolbar" }, wrap);
  const svg = el("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`, tabindex: "0", role: "application", class: "plane",
    "aria-describedby": "kpca-draw-help",
  }, wrap, SVG);
  el("rect", { x: 0, y: 0, width: SIZE, height: SIZE, class: "paper" }, svg, SVG);
  const grid = el("g", { class: "grid" }, svg, SVG);
  const layer = el("g", {}, svg, SVG);
  const cursor = el("g", { class: "cursor" }, svg, SVG);
  el("circle", { r: 9 }, cursor, SVG);
  el("path", { d: "M -14 0 H -5 M 5 0 H 14 M 0 -14 V -5 M 0 5 V 14" }, cursor, SVG);
  const help = el("p", { id: "kpca-draw-help", class: "help" }, wrap);
  const status = el("p", { class: "status", role: "status", "aria-live": "polite" }, wrap);
  const buttons = [];

  const toPlane = (vx, vy) => [(2 * vx / SIZE - 1) * state.limit, (1 - 2 * vy / SIZE) * state.limit];
  const toView = (x, y) => [(x / state.limit + 1) * SIZE / 2, (1 - y / state.limit) * SIZE / 2];
  const clip = (v) => Math.max(-state.limit, Math.min(state.limit, v));
  const unitsPerPx = () => SIZE / Math.max(1, svg.getBoundingClientRect().width);

  function eventPoint(event) {
    const box = svg.getBoundingClientRect();
    const vx = (event.clientX - box.left) / box.width * SIZE;
    const vy = (event.clientY - box.top) / box.height * SIZE;
    const [x, y] = toPlane(vx, vy);
    return [clip(x), clip(y)];
  }

  function nearest(x, y, radiusUnits) {
    let best = -1;
    let bestDistance = Infinity;
    state.points.forEach(([px, py], i) => {
      const [ax, ay] = toView(px, py);
      const [bx, by] = toView(x, y);
      const distance = Math.hypot(ax - bx, ay - by);
      if (distance < bestDistance) { best = i; bestDistance = distance; }
    });
    return bestDistance <= radiusUnits ? best : -1;
  }

  function drawGrid() {
    grid.replaceChildren();
    for (let v = Math.ceil(-2 * state.limit) / 2; v <= state.limit; v += 0.5) {
      const [gx] = toView(v, 0);
      const cls = v === 0 ? "axis" : Number.isInteger(v) ? "major" : "minor";
      el("line", { x1: gx, x2: gx, y1: 0, y2: SIZE, class: cls }, grid, SVG);
      el("line", { y1: gx, y2: gx, x1: 0, x2: SIZE, class: cls }, grid, SVG);
    }
  }

  function render() {
    layer.replaceChildren();
    state.points.forEach(([x, y, c]) => {
      const node = marker(SHAPES[c] || "circle", state.colours[c] || "#366CA2", 11, layer);
      const [vx, vy] = toView(x, y);
      node.setAttribute("transform", `translate(${vx} ${vy})`);
    });
    const [cx, cy] = toView(...state.cursor);
    cursor.setAttribute("transform", `translate(${cx} ${cy})`);
    const counts = state.names.map((_, c) => state.points.filter((p) => p[2] === c).length);
    const parts = state.names
      .map((_, c) => say(words().part, { count: counts[c], name: named(c) }))
      .join(words().separator);
    const values = { n: state.points.length, max: state.max, parts };
    status.textContent = say(state.locked ? words().locked : words().status, values);
    svg.setAttribute("aria-label", say(words().plane_points, values));
  }

  function setTool(tool) {
    state.tool = tool;
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.tool === String(tool))));
    svg.classList.toggle("erasing", tool === "erase");
    svg.classList.toggle("moving", tool === "move"); // touch-action: none (editor.css)
  }

  function commit() {
    render();
    if (editor.send) {
      const points = state.points.map(([x, y, c]) => [+x.toFixed(4), +y.toFixed(4), c]);
      editor.send("edit", { rev: state.rev, points });
    }
  }

  function add(x, y) {
    if (state.points.length >= state.max) {
      status.textContent = say(words().full, { max: state.max });
      return false;
    }
    state.points.push([x, y, state.tool]);
    return true;
  }

  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || state.locked) return;
    event.preventDefault();
    svg.focus({ preventScroll: true });
    const [x, y] = eventPoint(event);
    const touch = event.pointerType !== "mouse";
    const radius = (touch ? 16 : 9) * unitsPerPx();
    const hit = nearest(x, y, radius);
    // A finger drags a point only with Move; a mouse with any tool.
    const drags = hit >= 0 && (state.tool === "move" || !touch);
    state.drag = { hit, drags, x0: event.clientX, y0: event.clientY, moved: false,
                   slop: touch ? TAP_PX : MOVED_PX, id: event.pointerId };
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener("pointermove", (event) => {
    const drag = state.drag;
    if (!drag || drag.id !== event.pointerId) return;
    if (!drag.moved
        && Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < drag.slop) {
      return;
    }
    drag.moved = true; // no longer a tap: it adds nothing when it ends
    if (!drag.drags) return;
    const [x, y] = eventPoint(event);
    state.points[drag.hit][0] = x;
    state.points[drag.hit][1] = y;
    const [vx, vy] = toView(x, y);
    layer.children[drag.hit].setAttribute("transform", `translate(${vx} ${vy})`);
  });
  const finish = (event) => {
    const drag = state.drag;
    if (!drag || drag.id !== event.pointerId) return;
    state.drag = null;
    // The browser cancels a press it takes for scrolling the page: nothing changes.
    if (event.type === "pointercancel") { render(); return; }
    if (drag.moved) {
      if (drag.drags) commit();
      return;
    }
    const [x, y] = eventPoint(event);
    if (state.tool === "erase") {
      if (drag.hit >= 0) { state.points.splice(drag.hit, 1); commit(); }
    } else if (state.tool !== "move" && drag.hit < 0 && add(x, y)) {
      commit();
    }
  };
  svg.addEventListener("pointerup", finish);
  svg.addEventListener("pointercancel", finish);

  svg.addEventListener("keydown", (event) => {
    if (state.locked) return;
    const step = (event.shiftKey ? 0.25 : 0.05) * state.limit;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step],
                    ArrowDown: [0, -step] };
    const key = event.key;
    if (moves[key]) {
      state.cursor = [clip(state.cursor[0] + moves[key][0]), clip(state.cursor[1] + moves[key][1])];
      render();
    } else if (key === "Enter" || key === " ") {
      const hit = nearest(...state.cursor, 12);
      if (state.tool === "erase") {
        if (hit >= 0) { state.points.splice(hit, 1); commit(); }
      } else if (state.tool === "move") {
        status.textContent = say(words().move_keys);
      } else if (add(...state.cursor)) {
        commit();
      }
    } else if (key === "Delete" || key === "Backspace") {
      const hit = nearest(...state.cursor, 0.3 * SIZE);
      if (hit >= 0) { state.points.splice(hit, 1); commit(); }
    } else if (["1", "2", "3"].includes(key) && Number(key) <= state.names.length) {
      setTool(Number(key) - 1);
    } else if (key === "e" || key === "E") {
      setTool("erase");
    } else {
      return;
    }
    event.preventDefault();
  });

  // The words of the toolbar, the plane and the help, set again when the language changes.
  function label() {
    toolbar.setAttribute("aria-label", say(words().tools));
    help.textContent = say(words().help);
    buttons.forEach((button) => {
      const tool = button.dataset.tool;
      const c = Number(tool);
      const text = tool === "move" ? say(words().move) : tool === "erase"
        ? say(words().erase) : say(words().buttons[c]);
      button.querySelector(".label").textContent = text;
      button.setAttribute("aria-label", tool === "move" ? say(words().move_help)
        : tool === "erase" ? text : say(words().add, { name: named(c) }));
    });
  }

  function button(tool, shape) {
    const node = el("button", { type: "button", "data-tool": String(tool) }, toolbar);
    if (shape !== undefined) {
      const icon = el("svg", { viewBox: "-8 -8 16 16", "aria-hidden": "true", class: "icon" },
                      node, SVG);
      marker(SHAPES[shape], state.colours[shape], 10, icon);
    }
    el("span", { class: "label" }, node);
    node.addEventListener("click", () => setTool(tool));
    buttons.push(node);
  }

  editor.update = (data) => {
    const relabel = data.words && JSON.stringify(data.words) !== JSON.stringify(state.words);
    if (data.words) state.words = data.words;
    if (Array.isArray(data.names) && state.names.length === 0) {
      state.names = data.names.map(String);
      state.colours = (data.colours || []).map(String);
      state.names.forEach((name, c) => button(c, c));
      button("move");
      button("erase");
      setTool(0);
    }
    if (relabel) {
      label();
      render();
    }
    if (Boolean(data.locked) !== state.locked) {
      state.locked = Boolean(data.locked);
      wrap.classList.toggle("locked", state.locked);
      buttons.forEach((b) => { b.disabled = state.locked; });
      render();
    }
    if (typeof data.limit === "number") state.limit = data.limit;
    if (typeof data.max === "number") state.max = data.max;
    if (data.rev !== state.rev && Array.isArray(data.points)) {
      state.rev = data.rev;
      state.points = data.points.map((p) => [Number(p[0]), Number(p[1]), Number(p[2])]);
      drawGrid();
      render();
    }
  };
  return editor;
}
