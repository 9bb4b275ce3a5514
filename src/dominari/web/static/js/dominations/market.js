// The mastery market: every skill by domain and value, with its cost, prerequisite, copies
// left (view.mastery_supply) drawn as small nodus layouts, and both sides' effects in words.
// Copies named by a legal "acquire <copy> <pos>" (or "copy <copy> <pos>" at the end of an
// age) are buttons (data-copy) that select them; legal "upgrade <skill>" and
// "copy upgrade <skill>" actions are buttons (data-action) that call act(text).

import { el, svg } from "../dom.js";
import {
  DOMAINS, DOMAIN_FILL, DOMAIN_INK, DOMAIN_NAMES, domainName, effectsText, layoutOf, skillOfCopy,
} from "./cardtext.js";

const SKILL_ID = /^[TCASGR]\d[a-z]$/;

// A domain letter on its colour (colour never alone).
export function domainChip(d, text = d) {
  return el("span", { class: "dom-chip", "data-domain": d, title: domainName(d),
    style: { background: DOMAIN_FILL[d] || "#ccc", color: DOMAIN_INK[d] || "#000" } }, text);
}

// Which copies the legal actions let the player take, and the skill-upgrade actions.
export function marketActions(legal) {
  const copies = new Set();
  const upgrades = [];
  for (const text of legal || []) {
    const w = text.trim().split(/\s+/);
    if ((w[0] === "acquire" || w[0] === "copy") && w.length === 3 && w[1] !== "upgrade") {
      copies.add(w[1]);
    } else if (w[0] === "upgrade" && w.length === 2 && SKILL_ID.test(w[1])) {
      upgrades.push(text);
    } else if (w[0] === "copy" && w[1] === "upgrade" && w.length === 3) {
      upgrades.push(text);
    }
  }
  return { copies, upgrades };
}

// A card's four halves drawn small: a square with a lettered half-disc on each side.
export function layoutIcon(sides, size = 40) {
  const s = size;
  const r = s * 0.24;
  const spots = [[s / 2, 0], [s, s / 2], [s / 2, s], [0, s / 2]];
  const inward = [[0, 1], [-1, 0], [0, -1], [1, 0]];
  const parts = [svg("rect", { x: 0.5, y: 0.5, width: s - 1, height: s - 1, rx: 3,
    fill: "#f6f4ee", stroke: "#555", "stroke-width": 1 })];
  sides.forEach((code, i) => {
    const [x, y] = spots[i];
    parts.push(svg("circle", { cx: x, cy: y, r, fill: DOMAIN_FILL[code] || "#bbb",
      stroke: "#333", "stroke-width": 0.8 }));
    const [ix, iy] = inward[i];
    parts.push(svg("text", { x: x + ix * r * 0.45, y: y + iy * r * 0.45, "font-size": r * 1.05,
      "text-anchor": "middle", "dominant-baseline": "central", "font-weight": "bold",
      fill: DOMAIN_INK[code] || "#000" }, code));
  });
  return svg("svg", { class: "layout-icon", viewBox: `${-r} ${-r} ${s + 2 * r} ${s + 2 * r}`,
    width: s + 2 * r, height: s + 2 * r, "aria-hidden": "true" }, parts);
}

// The copies of `skill` still in the supply: buttons when legal, pictures otherwise.
function copiesRow(skill, supply, catalog, { copies, selected, onSelect }) {
  const left = supply.filter((c) => skillOfCopy(c) === skill.id);
  const items = left.map((copy) => {
    const sides = layoutOf(catalog, copy);
    const tip = `${copy}: halves ${sides.join(" ")} (top, right, bottom, left)`;
    if (!copies.has(copy)) {
      return el("span", { class: "copy", "data-copy-left": copy, title: tip }, layoutIcon(sides, 32),
        el("span", { class: "copy-id" }, copy.split("-")[1]));
    }
    const isSel = copy === selected;
    return el("button", { type: "button", class: `copy legal${isSel ? " selected" : ""}`,
      "data-copy": copy, "aria-pressed": isSel ? "true" : "false", title: tip,
      "aria-label": `${isSel ? "Deselect" : "Select"} ${skill.name} copy ${copy}`,
      onclick: () => onSelect && onSelect(isSel ? null : copy) },
    layoutIcon(sides, 32), el("span", { class: "copy-id" }, copy.split("-")[1]));
  });
  return el("div", { class: "copies", "data-left": left.length },
    el("span", { class: "copies-count" }, `${left.length} of 4 left`), items);
}

// One skill card of the market.
function skillCard(skill, view, catalog, ctx) {
  const pre = skill.prerequisite;
  const facts = [
    el("span", { class: "cost" }, "cost ", domainChip(skill.domain, `${skill.cost} ${skill.domain}`)),
    pre ? el("span", { class: "prereq" }, "needs ", domainChip(pre.domain, `${pre.domain} ${pre.value}+`))
      : null,
    el("span", { class: "upgrade-cost" }, "upgrade ",
      domainChip(skill.upgrade_domain, `${skill.upgrade_cost} ${skill.upgrade_domain}`)),
    el("span", { class: "vp" }, `${skill.vp_acquire} VP, +${skill.vp_upgrade} upgraded`),
    skill.influence ? el("span", { class: "influence" }, `influence ${skill.influence}`) : null,
  ];
  const owned = ctx.owned.get(skill.id);
  return el("article", { class: `skill${owned ? " owned" : ""}`, "data-skill": skill.id,
    "data-domain": skill.domain },
  el("header", {}, domainChip(skill.domain),
    el("strong", { class: "skill-name" }, skill.name),
    el("span", { class: "skill-id" }, skill.id),
    owned ? el("span", { class: "owned-mark" }, owned === "advanced" ? "yours ★" : "yours") : null),
  el("div", { class: "facts" }, facts),
  el("div", { class: "side basic" }, el("b", {}, "Basic: "), effectsText(skill.basic).join(" · ")),
  el("div", { class: "side advanced" }, el("b", {}, "★ Advanced: "),
    effectsText(skill.advanced).join(" · ")),
  copiesRow(skill, view.mastery_supply || [], catalog, ctx));
}

// Skills the viewer holds: skill id → "basic" | "advanced".
function ownedSkills(view) {
  const out = new Map();
  const me = view.viewer !== null && view.viewer !== undefined ? view.players[view.viewer] : null;
  for (const e of (me && me.tree) || []) {
    const s = skillOfCopy(e.card);
    if (s) out.set(s, e.advanced ? "advanced" : "basic");
  }
  return out;
}

export function marketView(view, catalog, { legal = [], selected = null, onSelect = null,
  act = null } = {}) {
  const skills = (catalog.files && catalog.files.skills) || [];
  const { copies, upgrades } = marketActions(legal);
  const ctx = { copies, selected, onSelect, owned: ownedSkills(view) };
  const actions = upgrades.map((text) => {
    const sid = text.split(/\s+/).pop();
    const skill = skills.find((s) => s.id === sid);
    const what = skill ? `${skill.name} (${skill.upgrade_cost} ${DOMAIN_NAMES[skill.upgrade_domain]})`
      : sid;
    const verb = text.startsWith("copy") ? "Turn advanced (influence)" : "Upgrade";
    return el("button", { type: "button", class: "action", "data-action": text,
      onclick: () => act && act(text) }, `${verb}: ${what}`);
  });
  const groups = [...DOMAINS].map((d) => {
    const mine = skills.filter((s) => s.domain === d);
    const columns = [3, 6, 9].map((cost) => el("div", { class: "value-column", "data-value": cost },
      el("h5", {}, `Value ${cost}`),
      mine.filter((s) => s.cost === cost).map((s) => skillCard(s, view, catalog, ctx))));
    // A domain folds away (open by default) so a small screen can keep what matters.
    return el("details", { class: "domain-group", "data-domain": d, open: true },
      el("summary", {}, domainChip(d), ` ${DOMAIN_NAMES[d]}`),
      el("div", { class: "value-columns" }, columns));
  });
  const left = (view.mastery_supply || []).length;
  return el("section", { class: "dom-panel dom-market", "data-testid": "market" },
    el("h3", {}, `Mastery market (${left} copies left)`),
    copies.size ? el("p", { class: "hint" }, selected
      ? `Selected ${selected}: pick a highlighted position in your tree.`
      : "Choose a highlighted copy, then a position in your tree.") : null,
    actions.length ? el("div", { class: "market-actions" }, actions) : null,
    groups);
}
