// The monuments in play: each with its level stack (taken / next / later, cost, VP, effects),
// its controller and where its tile lies. A monument is a button (data-monument) that
// selects it when a "monument <M> …" action is legal; legal "pay N D" actions (paying a
// level's cost) are buttons (data-action) that call act(text).

import { el } from "../dom.js";
import { DOMAIN_NAMES, catalogIndex, domainName, effectsText, layoutOf } from "./cardtext.js";
import { domainChip, layoutIcon } from "./market.js";

// Monument ids with a legal "monument <M> …" action, and the legal pay actions.
export function monumentActions(legal) {
  const monuments = new Set();
  const pays = [];
  for (const text of legal || []) {
    const w = text.trim().split(/\s+/);
    if (w[0] === "monument" && w.length >= 2) monuments.add(w[1]);
    else if (w[0] === "pay" && w.length === 3) pays.push(text);
  }
  return { monuments, pays };
}

// "10 VP per city of Religion", "10 VP per city across a reward side".
export function rewardText(def) {
  const r = def.reward || {};
  if (r.per_city_of) return `${r.vp} VP per city of ${domainName(r.per_city_of)} at its locus`;
  if (r.per === "city_across_R_side") return `${r.vp} VP per city across a reward side`;
  return "";
}

function playerName(view, p) {
  if (p === null || p === undefined || p < 0) return "nobody";
  const pl = view.players[p];
  return pl ? pl.name : `P${p + 1}`;
}

// One level of the stack.
function levelRow(lv, index, entry, catalog) {
  const state = index < entry.taken ? "taken" : lv.id === entry.next ? "next" : "later";
  const cost = lv.cost_domain ? domainChip(lv.cost_domain, `${lv.cost} ${lv.cost_domain}`)
    : el("span", { class: "any-cost" }, `${lv.cost} any mix`);
  const mark = { taken: "✔ taken", next: "▶ next", later: "later" }[state];
  return el("li", { class: `level ${state}`, "data-level": lv.id },
    layoutIcon(layoutOf(catalog, lv.id), 28),
    el("span", { class: "level-no" }, `L${lv.level}`),
    el("span", { class: "level-state" }, mark),
    el("span", { class: "level-cost" }, "cost ", cost),
    el("span", { class: "level-vp" }, `${lv.vp} VP`),
    el("span", { class: "level-effects" }, effectsText(lv.effects).join(" · ")));
}

// One monument of view.monuments.
function monumentCard(entry, view, catalog, { monuments, selected, onSelect }) {
  const def = catalogIndex(catalog).monuments.get(entry.id) || { levels: [], name: entry.name };
  const legal = monuments.has(entry.id);
  const isSel = selected === entry.id;
  const title = el("span", { class: "monument-title" },
    def.domain ? domainChip(def.domain) : null, " ", el("strong", {}, entry.name),
    ` (${entry.id}, ${entry.shape})`);
  const head = legal
    ? el("button", { type: "button", class: `monument-pick legal${isSel ? " selected" : ""}`,
      "data-monument": entry.id, "aria-pressed": isSel ? "true" : "false",
      onclick: () => onSelect && onSelect(isSel ? null : entry.id) }, title,
    el("span", { class: "pick-hint" }, isSel ? " — selected" : " — build the next level"))
    : el("div", { class: "monument-head" }, title);
  return el("article", { class: "monument", "data-id": entry.id, "data-taken": entry.taken,
    "data-levels": entry.levels },
  head,
  el("div", { class: "monument-facts" },
    el("span", {}, `${entry.taken} of ${entry.levels} levels taken`),
    el("span", {}, `controller: ${playerName(view, entry.controller)}`),
    el("span", {}, entry.tile ? `tile: ${Array.isArray(entry.tile) ? entry.tile.join(" ") : entry.tile}`
      : "tile not placed"),
    el("span", {}, rewardText(def))),
  el("ol", { class: "levels" }, def.levels.map((lv, i) => levelRow(lv, i, entry, catalog))));
}

export function monumentsView(view, catalog, { legal = [], selected = null, onSelect = null,
  act = null } = {}) {
  const { monuments, pays } = monumentActions(legal);
  const pending = view.pending && view.pending.kind === "pay" ? view.pending : null;
  const payRow = pays.length ? el("div", { class: "pay-actions" },
    el("span", {}, pending && pending.left !== undefined ? `Left to pay: ${pending.left}. Pay ` : "Pay "),
    pays.map((text) => {
      const [, n, d] = text.split(/\s+/);
      return el("button", { type: "button", class: "action", "data-action": text,
        "aria-label": `pay ${n} ${DOMAIN_NAMES[d] || d}`, onclick: () => act && act(text) },
      domainChip(d, `${n} ${d}`));
    })) : null;
  const list = (view.monuments || []).map((m) => monumentCard(m, view, catalog,
    { monuments, selected, onSelect }));
  return el("section", { class: "dom-panel dom-monuments", "data-testid": "monuments" },
    el("h3", {}, "Monuments"),
    payRow,
    list.length ? list : el("p", { class: "hint" }, "No monument in play yet."));
}
