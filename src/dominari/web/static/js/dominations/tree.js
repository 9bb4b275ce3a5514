// A player's civilization tree as SVG (the browser twin of dominations/tree_render.py).
//
// Positions are "col,row" with row growing upward (the card at 0,1 is above the campfire at
// 0,0). Every card is a <g class="card …" data-pos data-card> with its domain colour AND
// letter, a short label and its four half-nodi (half-discs with their letters). Where two
// facing halves join, a <g class="nodus"> bridges the gap. Highlighted positions are
// keyboard-focusable buttons (class "legal", data-pos) that call onPick(pos).

import { el, svg } from "../dom.js";
import {
  DOMAIN_FILL, DOMAIN_INK, DOMAIN_NAMES, catalogIndex, layoutOf, skillOfCopy,
} from "./cardtext.js";

export const CARD_W = 150;
export const CARD_H = 120;
export const GAP = 18;
const HALF_R = 16;
const MARGIN = 24;
const SIDES = ["top", "right", "bottom", "left"];
// Offset (col, row) of the neighbour across each side.
const DIRS = [[0, 1], [1, 0], [0, -1], [-1, 0]];
const CAMPFIRE_FILL = "#d7b06d";
const LEVEL_FILL = "#b9b9b3";
const DARK = "#2b2b2b";

export function parsePos(text) {
  const [c, r] = String(text).split(",").map((n) => parseInt(n, 10));
  return [c, r];
}

export function posKey(col, row) {
  return `${col},${row}`;
}

// SVG centre of a position.
export function centre([col, row]) {
  return [col * (CARD_W + GAP), -row * (CARD_H + GAP)];
}

// The colour of the nodus two facing halves form, or null (tree.py `join`): same colour, or
// a vestigium with a colour; two vestigia and any corruptio never join.
export function joinHalves(a, b) {
  if (a === "X" || b === "X") return null;
  if (a === "V") return b === "V" ? null : b;
  if (b === "V" || a === b) return a;
  return null;
}

// What a card shows: kind, domain letter, fill, ink, label lines and hover title.
export function cardInfo(entry, catalog) {
  const idx = catalogIndex(catalog);
  const id = entry.card;
  if (entry.pos === "0,0" || idx.campfires.has(id)) {
    const f = idx.campfires.get(id);
    return { kind: "campfire", domain: null, fill: CAMPFIRE_FILL, ink: DARK,
      lines: [f ? f.name : "Campfire", id, "root"], title: `${id} — campfire (root of the tree)` };
  }
  if (entry.level_card || idx.levels.has(id)) {
    const found = idx.levels.get(id);
    const mon = found ? found.monument : null;
    const lv = found ? found.level : null;
    const name = mon ? mon.name : id;
    return { kind: "level", domain: mon ? mon.domain : null, fill: LEVEL_FILL, ink: DARK,
      lines: [name, lv ? `${id} · L${lv.level}` : id, lv ? `${lv.vp} VP` : ""],
      title: `${id} — level ${lv ? lv.level : "?"} of ${name}` };
  }
  const skill = idx.skills.get(skillOfCopy(id));
  const d = skill ? skill.domain : null;
  const side = entry.advanced ? "advanced" : "basic";
  return {
    kind: "mastery", domain: d, value: skill ? skill.cost : 0,
    fill: d ? DOMAIN_FILL[d] : "#bbbbbb", ink: d ? DOMAIN_INK[d] : DARK,
    lines: [skill ? skill.name : id, `${id}${skill ? ` · ${skill.cost}` : ""}`,
      entry.advanced ? "★ advanced" : "basic"],
    title: `${id}${skill ? ` — ${skill.name} (${DOMAIN_NAMES[d]}, value ${skill.cost})` : ""}, `
      + `${side} side`,
  };
}

// A font size (down to `smallest`) at which `text` fits `width`, shortening the text with an
// ellipsis when even the smallest size is too large (a rough glyph width, as tree_render.py).
function fit(text, width, size, smallest) {
  const perChar = 0.64;
  if (text.length * perChar * size <= width) return [text, size];
  const s = Math.max(smallest, width / (text.length * perChar));
  const most = Math.floor(width / (perChar * s));
  return [text.length > most ? `${text.slice(0, Math.max(most - 1, 1))}…` : text, s];
}

// A label line of a card, fitted to the room between its left and right halves.
function line(x, y, text, size, smallest, fill, extra) {
  const [shown, s] = fit(text, CARD_W - 2 * HALF_R - 12, size, smallest);
  return label(x, y, shown, Math.round(s * 10) / 10, fill, extra);
}

function label(x, y, text, size, fill, extra = {}) {
  return svg("text", { x, y, "font-size": size, fill, "text-anchor": "middle",
    "dominant-baseline": "central", ...extra }, text);
}

// A half-disc in the middle of one side, bulging into the card, with its letter.
function half(cx, cy, side, code, joined) {
  const [dx, dy] = [DIRS[side][0], -DIRS[side][1]]; // outward, SVG coordinates
  const mx = cx + (dx * CARD_W) / 2;
  const my = cy + (dy * CARD_H) / 2;
  const [tx, ty] = [-dy, dx]; // along the side
  const a = [mx - tx * HALF_R, my - ty * HALF_R];
  const b = [mx + tx * HALF_R, my + ty * HALF_R];
  const sweep = tx * dy - ty * dx > 0 ? 1 : 0;
  const d = `M${a[0]},${a[1]} A${HALF_R},${HALF_R} 0 0 ${sweep} ${b[0]},${b[1]} Z`;
  const fill = DOMAIN_FILL[code] || "#bbbbbb";
  const ink = DOMAIN_INK[code] || DARK;
  return svg("g", { class: `half ${joined ? "joined" : "open"}`, "data-side": SIDES[side],
    "data-colour": code },
  svg("path", { d, fill, stroke: DARK, "stroke-width": 1.2 }),
  label(mx - dx * HALF_R * 0.5, my - dy * HALF_R * 0.5, code, 11.5, ink,
    { "font-weight": "bold" }));
}

// One card of the tree.
function cardNode(entry, info, sides, joined) {
  const [cx, cy] = centre(parsePos(entry.pos));
  const x = cx - CARD_W / 2;
  const y = cy - CARD_H / 2;
  const g = svg("g", { class: `card ${info.kind}`, "data-pos": entry.pos, "data-card": entry.card,
    "data-domain": info.domain, "data-side": info.kind === "mastery"
      ? (entry.advanced ? "advanced" : "basic") : null },
  svg("title", {}, `${info.title}; at ${entry.pos}; halves ${sides.join(" ")}`),
  svg("rect", { class: "face", x, y, width: CARD_W, height: CARD_H, rx: 9, fill: info.fill,
    stroke: DARK, "stroke-width": entry.advanced ? 3.5 : 1.5 }));
  if (entry.advanced) { // a double frame: the advanced side is never marked by colour alone
    g.append(svg("rect", { class: "advanced-frame", x: x + 5, y: y + 5, width: CARD_W - 10,
      height: CARD_H - 10, rx: 6, fill: "none", stroke: info.ink, "stroke-width": 1.2 }));
  }
  if (info.domain) { // the domain letter badge, top left
    g.append(svg("circle", { cx: x + 14, cy: y + 14, r: 10, fill: DOMAIN_FILL[info.domain],
      stroke: DARK, "stroke-width": 1.2 }),
    label(x + 14, y + 14, info.domain, 12, DOMAIN_INK[info.domain],
      { "font-weight": "bold", class: "domain-letter" }));
  }
  const [first, second, third] = info.lines;
  g.append(line(cx, cy - 17, first, 13, 10, info.ink, { "font-weight": "bold", class: "name" }));
  g.append(line(cx, cy + 1, second, 11, 9, info.ink, { class: "id" }));
  if (third) {
    g.append(line(cx, cy + 18, third, 11, 9, info.ink,
      { class: "marker", "font-weight": entry.advanced ? "bold" : "normal" }));
  }
  for (let s = 0; s < 4; s++) g.append(half(cx, cy, s, sides[s], joined[s]));
  return g;
}

// The complete nodus between `a` and the card above it (vertical) or right of it.
function nodusNode(a, b, vertical, colour) {
  const [ax, ay] = centre(parsePos(a));
  const mx = vertical ? ax : ax + CARD_W / 2 + GAP / 2;
  const my = vertical ? ay - CARD_H / 2 - GAP / 2 : ay;
  const bw = vertical ? 2 * HALF_R * 0.8 : GAP + 2;
  const bh = vertical ? GAP + 2 : 2 * HALF_R * 0.8;
  const ring = GAP / 2 + HALF_R + 4;
  const fill = DOMAIN_FILL[colour];
  return svg("g", { class: "nodus", "data-colour": colour, "data-between": `${a} ${b}` },
    svg("title", {}, `complete ${DOMAIN_NAMES[colour]} nodus between ${a} and ${b}`),
    svg("circle", { cx: mx, cy: my, r: ring, fill: "none", stroke: DARK, "stroke-width": 6 }),
    svg("circle", { cx: mx, cy: my, r: ring, fill: "none", stroke: fill, "stroke-width": 3.5 }),
    svg("rect", { class: "bridge", x: mx - bw / 2, y: my - bh / 2, width: bw, height: bh, rx: 3,
      fill, stroke: DARK, "stroke-width": 1.2 }),
    label(mx, my, colour, 11, DOMAIN_INK[colour], { "font-weight": "bold" }));
}

// Make a node act as a button that calls onPick(pos) on click, Enter or Space.
function pickable(node, pos, onPick, what) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", `${what} ${pos}`);
  node.classList.add("legal");
  node.addEventListener("click", () => onPick && onPick(pos));
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (onPick) onPick(pos);
    }
  });
  return node;
}

// Where an empty position lies, by the cards beside it ("below Fishing, right of the
// campfire"): a screen reader hears the tree's shape, not only "-1,0".
const SIDE_WORDS = ["below", "left of", "above", "right of"]; // by DIRS: the card across
function besideWords(pos, byPos) {
  const [c, r] = parsePos(pos);
  const words = DIRS.map(([dc, dr], k) => {
    const name = byPos.get(posKey(c + dc, r + dr));
    return name ? `${SIDE_WORDS[k]} ${name}` : null;
  }).filter(Boolean);
  return words.length ? `: ${words.join(", ")}` : "";
}

// An empty legal position: a dashed slot labelled with its position.
function slotNode(pos, onPick, beside = "") {
  const [cx, cy] = centre(parsePos(pos));
  const g = svg("g", { class: "slot", "data-pos": pos },
    svg("title", {}, `${pos} — place the selected card here`),
    svg("rect", { x: cx - CARD_W / 2, y: cy - CARD_H / 2, width: CARD_W, height: CARD_H, rx: 10,
      class: "slot-frame" }),
    label(cx, cy, pos, 14, "#3d3d36", { class: "legal-label" }));
  pickable(g, pos, onPick, "place at");
  g.setAttribute("aria-label", `place at ${pos}${beside}`);
  return g;
}

// The joined halves and the nodi of the tree: { joined: {pos: [bool×4]}, nodi: [...] }.
export function treeNodi(entries, sidesOf) {
  const at = new Map(entries.map((e) => [e.pos, e]));
  const joined = {};
  for (const e of entries) joined[e.pos] = [false, false, false, false];
  const nodi = [];
  for (const e of entries) {
    const [c, r] = parsePos(e.pos);
    for (const s of [0, 1]) { // each pair once: up and right
      const other = posKey(c + DIRS[s][0], r + DIRS[s][1]);
      if (!at.has(other)) continue;
      const colour = joinHalves(sidesOf(e)[s], sidesOf(at.get(other))[s + 2]);
      if (colour === null) continue;
      joined[e.pos][s] = true;
      joined[other][s + 2] = true;
      nodi.push({ a: e.pos, b: other, vertical: s === 0, colour });
    }
  }
  return { joined, nodi };
}

// A one-line summary with the complete nodi per domain (letters and colours).
function summary(player, entries) {
  const mastery = entries.filter((e) => !e.level_card && e.pos !== "0,0");
  const adv = mastery.filter((e) => e.advanced).length;
  const levels = entries.filter((e) => e.level_card).length;
  const chips = Object.entries(player.nodi || {}).map(([d, n]) =>
    el("span", { class: "dom-chip", "data-domain": d, title: `${n} complete ${DOMAIN_NAMES[d]} nodi`,
      style: { background: DOMAIN_FILL[d], color: DOMAIN_INK[d] } }, `${d} ${n}`));
  return el("div", { class: "tree-summary" },
    el("span", {}, `${mastery.length} mastery (${adv} adv.) · ${levels} level cards · nodi `),
    chips);
}

// The tree panel of `player` (a view.players entry). Options: highlight (legal positions),
// onPick(pos), large (fill the width instead of the natural size).
export function treeView(player, catalog, { highlight = [], onPick = null, large = false } = {}) {
  const entries = player.tree || [];
  const sidesOf = (e) => layoutOf(catalog, e.card);
  const { joined, nodi } = treeNodi(entries, sidesOf);
  const legal = new Set(highlight || []);
  const cards = svg("g", { class: "cards" });
  for (const e of entries) {
    const node = cardNode(e, cardInfo(e, catalog), sidesOf(e), joined[e.pos]);
    if (legal.has(e.pos)) pickable(node, e.pos, onPick, "pick card at");
    cards.append(node);
  }
  const occupied = new Set(entries.map((e) => e.pos));
  const slots = svg("g", { class: "legal-positions" });
  const named = new Map(entries.map((e) => [e.pos, e.pos === "0,0" ? "the campfire"
    : cardInfo(e, catalog).lines[0]]));
  for (const pos of legal) if (!occupied.has(pos)) slots.append(slotNode(pos, onPick, besideWords(pos, named)));
  const joins = svg("g", { class: "nodi" }, nodi.map((n) => nodusNode(n.a, n.b, n.vertical, n.colour)));

  // The view box holds every card and slot with a margin.
  const spots = [...entries.map((e) => e.pos), ...legal].map((p) => centre(parsePos(p)));
  if (spots.length === 0) spots.push([0, 0]);
  const xs = spots.map((p) => p[0]);
  const ys = spots.map((p) => p[1]);
  const x0 = Math.min(...xs) - CARD_W / 2 - MARGIN;
  const y0 = Math.min(...ys) - CARD_H / 2 - MARGIN;
  const w = Math.max(...xs) - Math.min(...xs) + CARD_W + 2 * MARGIN;
  const h = Math.max(...ys) - Math.min(...ys) + CARD_H + 2 * MARGIN;
  const scale = large ? 1 : 0.8;
  const pic = svg("svg", { class: "tree-svg", viewBox: `${x0} ${y0} ${w} ${h}`,
    width: Math.round(w * scale), height: Math.round(h * scale), role: "img",
    "aria-label": `${player.name}'s civilization tree`,
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif" },
  svg("rect", { class: "background", x: x0, y: y0, width: w, height: h, fill: "#e7edf0" }),
  slots, cards, joins);
  return el("section", { class: `dom-panel dom-tree${large ? " large" : ""}`, "data-testid": "tree" },
    el("h3", {}, `${player.name} — civilization tree`),
    summary(player, entries),
    el("div", { class: "tree-scroll" }, pic));
}
