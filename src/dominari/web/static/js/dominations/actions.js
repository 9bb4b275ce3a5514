// Reading the legal actions of a Dominations view (strings in the notation of
// dominari/dominations/notation.py) into groups the table can show. Pure functions.

const PLACE_RE = /^(L\d+) (-?\d+,-?\d+) r([012])(?: (via|locus) (@?-?\d+,-?\d+))?$/;
const REACT_RE = /^reactivate (-?\d+,-?\d+)(?: (via|locus) (@?-?\d+,-?\d+))?$/;
const CELL_RE = /^-?\d+,-?\d+$/;

// One placement: "L07 2,0 r1 via 1,0" -> {text, tile, cell, rot, link, target}.
export function parsePlacement(text) {
  const m = PLACE_RE.exec(text);
  if (!m) return null;
  return { text, tile: m[1], cell: m[2], rot: Number(m[3]), link: m[4] || null, target: m[5] || null };
}

// The legal actions grouped by kind; `rest` holds anything not recognised.
export function groupActions(legal) {
  const g = {
    place: [], reactivate: [], city: [], upgradeCity: [], upgradeCard: [], acquire: [], copy: [],
    copyUpgrade: [], monument: [], pay: [], vestigium: [], exchange: [], resolve: [], choose: [],
    ret: [], order: [], pass: null, done: null, rest: [],
  };
  for (const text of legal || []) {
    const w = text.split(/\s+/);
    const place = parsePlacement(text);
    if (place) g.place.push(place);
    else if (w[0] === "reactivate" && REACT_RE.test(text)) {
      const m = REACT_RE.exec(text);
      g.reactivate.push({ text, cell: m[1], link: m[2] || null, target: m[3] || null });
    } else if (w[0] === "city" && w.length === 2) g.city.push({ text, cell: w[1] });
    else if (w[0] === "upgrade" && w.length === 2 && CELL_RE.test(w[1])) {
      g.upgradeCity.push({ text, cell: w[1] });
    } else if (w[0] === "upgrade" && w.length === 2) g.upgradeCard.push({ text, skill: w[1] });
    else if (w[0] === "acquire" && w.length === 3) g.acquire.push({ text, card: w[1], pos: w[2] });
    else if (w[0] === "copy" && w[1] === "upgrade") g.copyUpgrade.push({ text, skill: w[2] });
    else if (w[0] === "copy" && w.length === 3) g.copy.push({ text, card: w[1], pos: w[2] });
    else if (w[0] === "monument" && w.length >= 3) {
      const on = w.indexOf("on");
      g.monument.push({ text, id: w[1], pos: w[2], tile: on > 0 ? w.slice(on + 1) : null });
    } else if (w[0] === "pay" && w.length === 3) g.pay.push({ text, amount: Number(w[1]), domain: w[2] });
    else if (w[0] === "vestigium") g.vestigium.push({ text, domain: w[1] });
    else if (w[0] === "exchange" && w.length === 3) g.exchange.push({ text, pay: w[1], get: w[2] });
    else if (w[0] === "resolve") g.resolve.push({ text, card: w.slice(1).join(" ") });
    else if (w[0] === "choose") g.choose.push({ text, id: w[1] });
    else if (w[0] === "return") g.ret.push({ text, tile: w[1] });
    else if (w[0] === "order") g.order.push({ text, seats: w.slice(1).map(Number) });
    else if (text === "pass") g.pass = text;
    else if (text === "done") g.done = text;
    else g.rest.push(text);
  }
  return g;
}

// The placements of `tile` with rotation `rot`, by cell: Map cell -> [placement…].
export function placementsByCell(place, tile, rot) {
  const out = new Map();
  for (const p of place) {
    if (p.tile !== tile || p.rot !== rot) continue;
    if (!out.has(p.cell)) out.set(p.cell, []);
    out.get(p.cell).push(p);
  }
  return out;
}

// The tree positions a selected card (copy id for acquire/copy, monument id) may go to,
// each with the actions it completes: Map pos -> [text…].
export function positionsFor(groups, kind, card) {
  const out = new Map();
  const list = kind === "monument" ? groups.monument.filter((m) => m.id === card)
    : (kind === "copy" ? groups.copy : groups.acquire).filter((a) => a.card === card);
  for (const a of list) {
    if (!out.has(a.pos)) out.set(a.pos, []);
    out.get(a.pos).push(a.text);
  }
  return out;
}
