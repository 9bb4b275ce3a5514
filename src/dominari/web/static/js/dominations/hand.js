// A player's land tiles: small triangles showing the settlement and the three corner
// resources, turned to the selected rotation. Hands are public (rules §13.10).

import { el, svg } from "../dom.js";
import { DOMAIN_FILL, DOMAIN_INK, domainName } from "./colours.js";
import { cellPoints, centroid, pointsAttr, rotateColours, towards } from "./geometry.js";

const TILE_CELL = { x: 1, y: 0 }; // an upward cell: the picture of a tile at rotation r0
const S = 60; // side of the drawn triangle

function letterDot(x, y, r, code) {
  return [
    svg("circle", { cx: x, cy: y, r, fill: DOMAIN_FILL[code] || "#bbb", stroke: "#2b2b2b",
      "stroke-width": r * 0.16 }),
    svg("text", { x, y: y + r * 0.44, "font-size": r * 1.25, "font-weight": "bold",
      "text-anchor": "middle", fill: DOMAIN_INK[code] || "#2b2b2b" }, code || "?"),
  ];
}

// The SVG picture of a tile ({settlement, corners}) at `rotation`.
export function tilePicture(tile, rotation = 0) {
  const pts = cellPoints(TILE_CELL, S);
  const centre = centroid(TILE_CELL, S);
  const colours = rotateColours(tile.corners || [], rotation);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const pad = 3;
  const box = `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ${S + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`;
  return svg("svg", { class: "tile-pic", viewBox: box, width: 66, height: 58, "aria-hidden": "true",
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif" },
  svg("polygon", { points: pointsAttr(pts), fill: "#f4e8c8", stroke: "#8a7a5c", "stroke-width": 1.5 }),
  colours.flatMap((code, k) => {
    const [x, y] = towards(pts[k], centre, 0.36);
    return letterDot(x, y, S * 0.09, code);
  }),
  letterDot(centre[0], centre[1], S * 0.17, tile.settlement));
}

// A tile's picture over its label, as the hand and the known bottom of the supply show it.
function tileFace(tile, label, rotation = 0) {
  return [tile ? tilePicture(tile, rotation) : null, el("span", { class: "tile-id" }, label)];
}

// Words for a tile, for screen readers and titles.
export function tileWords(id, tile) {
  if (!tile) return id;
  const corners = (tile.corners || []).map((k) => (k ? domainName(k) : "none")).join(", ");
  return `${id}: settlement ${domainName(tile.settlement)}, corners ${corners}`;
}

// The hand: `tiles` ids, `byId` tile data, options { selected, rotation, selectable (ids
// that may be picked), actions (id -> action text completing on click, e.g. "return L07"),
// onPick(id), title }.
export function handView(tiles, byId, opts = {}) {
  const { selected = null, rotation = 0, selectable = new Set(), actions = new Map(),
    onPick = null, onRotate = null, onCancel = null, title = "Your tiles" } = opts;
  const items = tiles.map((id, i) => {
    const tile = byId.get(id);
    const action = actions.get(id) || null;
    const canPick = selectable.has(id) || Boolean(action);
    const isSel = id === selected;
    return el("button", {
      type: "button", class: `hand-tile${isSel ? " selected" : ""}${canPick ? " pickable" : ""}`,
      "data-tile": id, "data-action": action, disabled: canPick ? null : true,
      "aria-pressed": selectable.has(id) ? String(isSel) : null,
      title: `${tileWords(id, tile)}${i < 9 ? ` (key ${i + 1})` : ""}${isSel ? " — click to turn it" : ""}`,
      onclick: () => onPick && onPick(id),
    },
    tileFace(tile, i < 9 ? `${i + 1} · ${id}` : id, isSel ? rotation : 0));
  });
  const rotate = onRotate ? el("button", { type: "button", class: "btn small",
    "data-testid": "rotate", title: "Rotate the selected tile (r)", disabled: selected ? null : true,
    onclick: onRotate }, `↻ Rotate (r${rotation})`) : null;
  const cancel = onCancel && selected ? el("button", { type: "button", class: "btn small",
    title: "Drop the selection (Escape)", onclick: onCancel }, "Cancel") : null;
  return el("section", { class: "dom-panel dom-hand", "data-testid": "hand" },
    el("h3", {}, title, " ", el("span", { class: "muted" }, `(${tiles.length})`)),
    el("div", { class: "hand-tiles" }, items.length ? items : el("span", { class: "muted" }, "no tiles")),
    el("div", { class: "hand-buttons" }, rotate, cancel));
}

// The tiles put back under the supply from a hand, still there: every player saw them go,
// so the view names them (`supply_bottom`), the next to be drawn first (D-SET-5, D-AGE-9).
export function supplyBottomView(ids, byId) {
  const items = ids.map((id, i) => {
    const tile = byId.get(id);
    return el("span", {
      class: "hand-tile known", "data-tile": id,
      title: `${tileWords(id, tile)} (${i + 1} of ${ids.length} in the order they are drawn)`,
    }, tileFace(tile, id));
  });
  return el("section", { class: "dom-panel dom-hand dom-supply-bottom", "data-testid": "supply-bottom" },
    el("h3", {}, "Known under the supply ", el("span", { class: "muted" }, `(${ids.length})`)),
    el("p", { class: "hint" }, "Put back from a hand, so everyone knows them. They are drawn "
      + "in this order once the tiles above them run out."),
    el("div", { class: "hand-tiles" }, items));
}
