// The Dominations board as SVG: land tiles (corner resources and settlement, each with its
// letter), the cradle, monuments, cities (owner colour and level), and the marks the table
// asks for (legal cells, a ghost of the selected tile, choices of link or locus).
// Pan by dragging, zoom with the wheel or the +/−/fit buttons.

import { el, svg, clear } from "../dom.js";
import {
  SCALE, boundingBox, cellPoints, centroid, formatCell, parseCell, parseVertex, pointsAttr,
  towards, vertexPoint,
} from "./geometry.js";
import { DOMAIN_FILL, DOMAIN_INK, domainName, playerFill, playerInk } from "./colours.js";

const FILL = { cradle: "#d7b06d", land: "#f4e8c8", monument: "#a9a9a4" };
const EDGE = "#8a7a5c";
const DARK = "#2b2b2b";
const MIN_ZOOM = 0.15;
const MAX_ZOOM = 3;

// A coloured dot with its letter: colour is never the only cue.
function dot(x, y, r, code, cls) {
  const known = code && DOMAIN_FILL[code];
  return svg("g", { class: cls, "data-domain": code || "" },
    svg("circle", { cx: x, cy: y, r, fill: known ? DOMAIN_FILL[code] : "#bbbbbb",
      stroke: DARK, "stroke-width": r * 0.16 }),
    svg("text", { x, y: y + r * 0.44, "font-size": r * 1.25, "font-weight": "bold",
      "text-anchor": "middle", fill: known ? DOMAIN_INK[code] : DARK }, code || "?"));
}

// A house in the owner's colour with the level written in it; the settlement letter moves
// to a small badge.
function cityMarker(cx, cy, city, domain, names) {
  const w = SCALE * 0.12;
  const top = cy - SCALE * 0.16;
  const eave = cy - SCALE * 0.05;
  const base = cy + SCALE * 0.12;
  const d = `M${cx},${top} L${cx + w},${eave} L${cx + w},${base} L${cx - w},${base} L${cx - w},${eave} Z`;
  const owner = names[city.owner] || `P${city.owner + 1}`;
  return svg("g", { class: "city", "data-owner": city.owner, "data-level": city.level },
    svg("title", {}, `city of ${owner}, level ${city.level}`),
    svg("path", { d, fill: playerFill(city.owner), stroke: DARK, "stroke-width": SCALE * 0.045,
      "stroke-linejoin": "round" }),
    svg("path", { d, fill: "none", stroke: playerInk(city.owner), "stroke-width": SCALE * 0.018,
      "stroke-linejoin": "round" }),
    svg("text", { x: cx, y: cy + SCALE * 0.09, "font-size": SCALE * 0.17, "font-weight": "bold",
      "text-anchor": "middle", fill: playerInk(city.owner) }, String(city.level)),
    // the owner's seat number beside the house, as the players' list shows it: colours
    // alone do not tell every pair of players apart
    svg("g", { class: "owner-badge" },
      svg("circle", { cx: cx - SCALE * 0.17, cy: cy - SCALE * 0.13, r: SCALE * 0.075,
        fill: "#ffffff", stroke: DARK, "stroke-width": SCALE * 0.02 }),
      svg("text", { x: cx - SCALE * 0.17, y: cy - SCALE * 0.085, "font-size": SCALE * 0.12,
        "font-weight": "bold", "text-anchor": "middle", fill: DARK }, String(city.owner + 1))),
    dot(cx + SCALE * 0.17, cy + SCALE * 0.14, SCALE * 0.07, domain, "settlement-badge"));
}

// Hover text of a filled cell.
function cellTitle(c, names, monumentAt) {
  const corners = (c.colours || []).map((k) => (k ? domainName(k) : "none")).join(", ");
  let head = c.kind;
  if (c.kind === "land" && c.tile) head = `${c.tile} (r${c.rotation || 0})`;
  if (c.kind === "monument") head = `monument ${monumentAt.get(c.cell) || ""}`.trim();
  const parts = [];
  if (c.settlement) parts.push(`settlement ${domainName(c.settlement)}`);
  parts.push(`corners ${corners}`);
  if (c.city) parts.push(`city of ${names[c.city.owner] || `P${c.city.owner + 1}`}, level ${c.city.level}`);
  return `${c.cell} — ${head}: ${parts.join("; ")}`;
}

// The drawing of one cell: triangle, corner resources, settlement, city, monument label.
function cellDrawing(cell, { kind, colours, settlement, city, label }, names, cls = "") {
  const pts = cellPoints(cell);
  const centre = centroid(cell);
  const out = [svg("polygon", { class: "tri", points: pointsAttr(pts), fill: FILL[kind] || FILL.land,
    stroke: EDGE, "stroke-width": SCALE * 0.02, "stroke-linejoin": "round" })];
  (colours || []).forEach((code, k) => {
    if (!code) return;
    const [x, y] = towards(pts[k], centre, 0.33);
    out.push(dot(x, y, SCALE * 0.075, code, "resource"));
  });
  if (settlement) out.push(dot(centre[0], centre[1], SCALE * 0.2, settlement, "settlement"));
  if (label) {
    out.push(svg("text", { class: "monument-label", x: centre[0], y: centre[1] + SCALE * 0.06,
      "font-size": SCALE * 0.16, "font-weight": "bold", "text-anchor": "middle", fill: DARK }, label));
  }
  if (city && settlement) out.push(cityMarker(centre[0], centre[1], city, settlement, names));
  return svg("g", { class: `drawing ${cls}`.trim() }, out);
}

// An inset outline of a cell (legal targets and choices).
function outline(cell, cls) {
  const pts = cellPoints(cell);
  const centre = centroid(cell);
  return svg("polygon", { class: cls, points: pointsAttr(pts.map((p) => towards(p, centre, 0.08))) });
}

// A board widget. `handlers`: onCell(cell), onVertex(vertex), onHover(cell | null).
export function createBoard(handlers) {
  const viewport = svg("g", { class: "viewport" });
  // (a group, not an image: its cells are read one by one, the legal ones as buttons)
  const pic = svg("svg", { class: "dom-board-svg", role: "group", "aria-label": "Board",
    focusable: "false",
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif" }, viewport);
  const zoomIn = el("button", { type: "button", class: "btn small", title: "Zoom in (+)",
    "aria-label": "Zoom in", onclick: () => zoomBy(1.25) }, "+");
  const zoomOut = el("button", { type: "button", class: "btn small", title: "Zoom out (−)",
    "aria-label": "Zoom out", onclick: () => zoomBy(0.8) }, "−");
  const fitBtn = el("button", { type: "button", class: "btn small", title: "Fit the board (f)",
    onclick: () => fit() }, "Fit");
  const node = el("div", { class: "dom-board", "data-testid": "board" }, pic,
    el("div", { class: "dom-zoom", role: "group", "aria-label": "Zoom" }, zoomIn, zoomOut, fitBtn));

  let t = { x: 0, y: 0, k: 0.6 };
  let moved = false; // the user panned or zoomed: stop fitting automatically
  let box = null;
  let drag = null;

  const apply = () => viewport.setAttribute("transform", `translate(${t.x} ${t.y}) scale(${t.k})`);

  // Fit the content box into the visible area.
  function fit(userAsked = true) {
    if (userAsked) moved = false;
    if (!box) return;
    const w = pic.clientWidth || 600;
    const h = pic.clientHeight || 400;
    const pad = SCALE * 0.6;
    const bw = box.x1 - box.x0 + 2 * pad;
    const bh = box.y1 - box.y0 + 2 * pad;
    t.k = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, Math.min(w / bw, h / bh)));
    t.x = w / 2 - ((box.x0 + box.x1) / 2) * t.k;
    t.y = h / 2 - ((box.y0 + box.y1) / 2) * t.k;
    apply();
  }

  // Zoom by `factor` around the point (px, py) of the picture (its centre by default).
  function zoomBy(factor, px = null, py = null) {
    const cx = px === null ? (pic.clientWidth || 600) / 2 : px;
    const cy = py === null ? (pic.clientHeight || 400) / 2 : py;
    const k = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, t.k * factor));
    t.x = cx - ((cx - t.x) * k) / t.k;
    t.y = cy - ((cy - t.y) * k) / t.k;
    t.k = k;
    moved = true;
    apply();
  }

  pic.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = pic.getBoundingClientRect();
    zoomBy(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
  }, { passive: false });
  pic.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    drag = { x: ev.clientX, y: ev.clientY, tx: t.x, ty: t.y, dragging: false, id: ev.pointerId };
  });
  pic.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.dragging && Math.hypot(dx, dy) > 5) {
      drag.dragging = true;
      pic.setPointerCapture(drag.id);
      pic.classList.add("panning");
    }
    if (drag.dragging) {
      t.x = drag.tx + dx;
      t.y = drag.ty + dy;
      moved = true;
      apply();
    }
  });
  const endDrag = () => {
    if (drag && drag.dragging) {
      // Swallow the click that ends a drag.
      const stop = (e) => { e.stopPropagation(); e.preventDefault(); };
      pic.addEventListener("click", stop, { capture: true, once: true });
      setTimeout(() => pic.removeEventListener("click", stop, { capture: true }), 0);
    }
    drag = null;
    pic.classList.remove("panning");
  };
  pic.addEventListener("pointerup", endDrag);
  pic.addEventListener("pointercancel", endDrag);

  // Clicks and hovers reach the table through data-cell / data-vertex targets.
  pic.addEventListener("click", (ev) => {
    const v = ev.target.closest("[data-vertex].target");
    if (v) return handlers.onVertex && handlers.onVertex(v.dataset.vertex);
    const c = ev.target.closest("[data-cell]");
    if (c && handlers.onCell) handlers.onCell(c.dataset.cell);
  });
  pic.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const v = ev.target.closest("[data-vertex].target");
    const c = ev.target.closest("[data-cell]");
    if (!v && !c) return;
    ev.preventDefault();
    if (v && handlers.onVertex) handlers.onVertex(v.dataset.vertex);
    else if (c && handlers.onCell) handlers.onCell(c.dataset.cell);
  });
  let hovered = null;
  const hover = (cell) => {
    if (cell === hovered) return;
    hovered = cell;
    if (handlers.onHover) handlers.onHover(cell);
  };
  const HOVERABLE = "[data-cell].legal, [data-cell].link";
  pic.addEventListener("pointerover", (ev) => {
    const v = ev.target.closest("[data-vertex].target");
    if (v) {
      if (handlers.onHoverVertex) handlers.onHoverVertex(v.dataset.vertex);
      return;
    }
    const c = ev.target.closest(HOVERABLE);
    hover(c ? c.dataset.cell : null);
  });
  pic.addEventListener("pointerleave", () => hover(null));
  pic.addEventListener("focusin", (ev) => {
    const c = ev.target.closest(HOVERABLE);
    hover(c ? c.dataset.cell : null);
  });

  // Draw `view` with `marks`: { legal: Map cell -> {action, title}, ghost: {cell, colours,
  // settlement}, chosen: cell, links: Map cell -> action (neighbours to connect with),
  // vertices: Map "@x,y" -> {action, title} }.
  function update(view, marks = {}, names = []) {
    const legal = marks.legal || new Map();
    const links = marks.links || new Map();
    const vertices = marks.vertices || new Map();
    const fresh = marks.fresh || new Set();
    // The focused cell or vertex, focused again once drawn anew: the ghost tile follows
    // the focus, redrawing the board, and Tab went back to the first cell each time.
    const active = document.activeElement;
    const focused = active && viewport.contains(active) && active.dataset
      ? (active.dataset.cell ? `[data-cell="${CSS.escape(active.dataset.cell)}"]`
        : active.dataset.vertex ? `[data-vertex="${CSS.escape(active.dataset.vertex)}"]` : null)
      : null;
    const monumentAt = new Map();
    for (const m of view.monuments || []) {
      if (Array.isArray(m.tile)) for (const c of m.tile) monumentAt.set(c, m.id);
    }
    const cells = svg("g", { class: "cells" });
    for (const c of view.board || []) {
      const action = legal.get(c.cell) || null;
      const link = links.get(c.cell) || null;
      const target = action || (link ? { action: link, title: `connect with ${c.cell}` } : null);
      const g = svg("g", {
        class: `cell ${c.kind}${action ? " legal" : ""}${link ? " link" : ""}${fresh.has(c.cell) ? " fresh" : ""}`,
        "data-cell": c.cell, "data-action": target && target.action ? target.action : null,
        tabindex: target ? "0" : null, role: target ? "button" : "img",
        "aria-label": target ? `${target.title || target.action} — ${cellTitle(c, names, monumentAt)}`
          : cellTitle(c, names, monumentAt),
      },
      svg("title", {}, target ? `${target.title || target.action} — ${cellTitle(c, names, monumentAt)}`
        : cellTitle(c, names, monumentAt)),
      cellDrawing(c.cell, { ...c, label: monumentAt.get(c.cell) }, names));
      if (fresh.has(c.cell)) g.append(outline(c.cell, "fresh-mark"));
      if (target) g.append(outline(c.cell, link ? "link-mark" : "legal-mark"));
      cells.append(g);
    }
    // Empty legal cells (tile or monument targets), with a ghost of the selected tile.
    const empties = svg("g", { class: "targets" });
    const filled = new Set((view.board || []).map((c) => c.cell));
    for (const [cell, info] of legal) {
      if (filled.has(cell)) continue;
      const ghost = marks.ghost && marks.ghost.cell === cell ? marks.ghost : null;
      const chosen = marks.chosen === cell;
      empties.append(svg("g", {
        class: `cell empty legal${chosen ? " chosen" : ""}`, "data-cell": cell,
        "data-action": info.action || null, tabindex: "0", role: "button",
        "aria-label": `${info.title || info.action || "choose"} — empty cell ${cell}`,
      },
      svg("title", {}, `${cell} — ${info.title || info.action || "choose"}`),
      ghost ? cellDrawing(cell, { kind: "land", colours: ghost.colours, settlement: ghost.settlement },
        names, "ghost") : null,
      outline(cell, "legal-mark")));
    }
    const circles = svg("g", { class: "circle-monuments" });
    for (const m of view.monuments || []) {
      if (typeof m.tile !== "string" || !parseVertex(m.tile)) continue;
      const [x, y] = vertexPoint(m.tile);
      circles.append(svg("g", { class: "circle-monument", "data-vertex": m.tile },
        svg("title", {}, `${m.tile} — circle monument ${m.id} ${m.name}`),
        svg("circle", { cx: x, cy: y, r: SCALE * 0.3, fill: FILL.monument, stroke: DARK,
          "stroke-width": SCALE * 0.05 }),
        svg("text", { x, y: y + SCALE * 0.055, "font-size": SCALE * 0.16, "font-weight": "bold",
          "text-anchor": "middle", fill: DARK }, m.id)));
    }
    const targets = svg("g", { class: "vertex-targets" });
    for (const [v, info] of vertices) {
      const [x, y] = vertexPoint(v);
      targets.append(svg("g", { class: "vertex target", "data-vertex": v,
        "data-action": info.action || null, tabindex: "0", role: "button",
        "aria-label": info.title || info.action },
      svg("title", {}, `${v} — ${info.title || info.action}`),
      svg("circle", { cx: x, cy: y, r: SCALE * 0.26, class: "vertex-mark" })));
    }
    const [cx, cy] = vertexPoint({ x: 0, y: 0 });
    const cradle = svg("g", { class: "cradle-label", "pointer-events": "none" },
      svg("circle", { cx, cy, r: SCALE * 0.06, fill: DARK }),
      svg("text", { x: cx, y: cy + SCALE * 0.22, "font-size": SCALE * 0.15, "font-weight": "bold",
        "text-anchor": "middle", fill: DARK }, "Cradle"));
    clear(viewport);
    viewport.append(cells, cradle, circles, empties, targets);
    const again = focused ? viewport.querySelector(`${focused}[tabindex]`) : null;
    if (again) again.focus({ preventScroll: true });

    // Fit to everything drawn until the user moves the board themselves.
    const all = [...filled, ...legal.keys()].map(parseCell).filter(Boolean);
    const before = box;
    box = boundingBox(all);
    const grew = !before || box.x0 < before.x0 || box.y0 < before.y0 || box.x1 > before.x1
      || box.y1 > before.y1;
    if (!moved || (grew && !isVisible(box))) fit(false);
    else apply();
  }

  // Whether the box lies inside the visible area as things stand.
  function isVisible(b) {
    const w = pic.clientWidth || 600;
    const h = pic.clientHeight || 400;
    return b.x0 * t.k + t.x >= 0 && b.y0 * t.k + t.y >= 0 && b.x1 * t.k + t.x <= w
      && b.y1 * t.k + t.y <= h;
  }

  // Keep the board fitted when its box changes size (until the user moves it).
  const resize = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => { if (!moved) fit(false); }) : null;
  if (resize) resize.observe(pic);
  const destroy = () => { if (resize) resize.disconnect(); };

  return { node, update, fit, zoomBy, destroy, formatCell };
}
