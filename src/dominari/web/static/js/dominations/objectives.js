// A player's objective card with live progress per goal, computed here from the view (the
// browser twin of dominations/objectives.py `goal_progress`), and the scoring table
// (players × VP sources from vp_breakdown, totals, winner) with the scoring lines of the log.

import { el } from "../dom.js";
import { andList } from "../format.js";
import { DOMAIN_NAMES, catalogIndex, domainName, skillOfCopy } from "./cardtext.js";
import { domainChip } from "./market.js";

export const PROGRESSIVE_VP = [0, 10, 20, 40, 70, 100];

// The largest number of slots filled, each by a different item that fits it (a maximum
// bipartite matching by augmenting paths, as objectives.py `_matched`).
export function matched(items, slots, fits) {
  const owner = slots.map(() => -1);
  const edges = items.map((item) => slots.map((s, j) => (fits(item, s) ? j : -1))
    .filter((j) => j >= 0));
  const augment = (i, seen) => {
    for (const j of edges[i]) {
      if (seen.has(j)) continue;
      seen.add(j);
      if (owner[j] < 0 || augment(owner[j], seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  let n = 0;
  for (let i = 0; i < items.length && n < slots.length; i++) if (augment(i, new Set())) n++;
  return n;
}

// The player's cities: [{ x, y, level }].
export function citiesOf(view, p) {
  return (view.board || []).filter((c) => c.city && c.city.owner === p).map((c) => {
    const [x, y] = c.cell.split(",").map((n) => parseInt(n, 10));
    return { x, y, level: c.city.level };
  });
}

// The three cells across the sides of triangle x,y (grid.py: △ when x + y is odd).
export function cellNeighbours(x, y) {
  const up = Math.abs((x + y) % 2) === 1;
  return up ? [[x + 1, y], [x, y - 1], [x - 1, y]] : [[x - 1, y], [x, y + 1], [x + 1, y]];
}

// The sizes of the player's maximal groups of side-adjacent cities (effects.py city_groups).
export function cityGroupSizes(view, p) {
  const mine = new Set(citiesOf(view, p).map((c) => `${c.x},${c.y}`));
  const seen = new Set();
  const sizes = [];
  for (const start of mine) {
    if (seen.has(start)) continue;
    seen.add(start);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const [x, y] = queue[i].split(",").map((n) => parseInt(n, 10));
      for (const [nx, ny] of cellNeighbours(x, y)) {
        const k = `${nx},${ny}`;
        if (mine.has(k) && !seen.has(k)) {
          seen.add(k);
          queue.push(k);
        }
      }
    }
    sizes.push(queue.length);
  }
  return sizes;
}

// [have, need] of one goal (data form, as objectives.json writes it) for player p.
export function goalProgress(goal, p, view, catalog) {
  const pl = view.players[p];
  switch (goal.kind) {
    case "cities_of_levels": {
      const slots = goal.require.flatMap((q) => Array(q.count).fill(q.level));
      const levels = citiesOf(view, p).map((c) => c.level).sort((a, b) => a - b);
      return [matched(levels, slots, (city, lv) => city >= lv), slots.length];
    }
    case "adjacent_cities":
      return [Math.max(0, ...cityGroupSizes(view, p)), goal.count];
    case "city_groups":
      return [cityGroupSizes(view, p).length, goal.count];
    case "monuments":
      return [(view.monuments || []).filter((m) => m.controller === p).length, goal.count];
    case "influence":
      return [pl.influence, goal.count];
    case "nodi": {
      const req = Object.entries(goal.require);
      return [req.reduce((s, [c, n]) => s + Math.min((pl.nodi || {})[c] || 0, n), 0),
        req.reduce((s, [, n]) => s + n, 0)];
    }
    case "mastery_cards": {
      const idx = catalogIndex(catalog);
      const reqs = goal.require.flatMap((q) => Array(q.count).fill(q));
      const cards = (pl.tree || []).map((e) => idx.skills.get(skillOfCopy(e.card)))
        .filter((s) => s).map((s) => ({ value: s.cost, domain: s.domain }));
      const fits = (card, q) => card.value === q.value
        && (q.domains.includes(card.domain) || q.domains.includes("*"));
      return [matched(cards, reqs, fits), reqs.length];
    }
    default:
      return [0, 1];
  }
}

function joinWords(parts, word = "and") {
  return parts.length === 1 ? parts[0]
    : `${parts.slice(0, -1).join(", ")} ${word} ${parts[parts.length - 1]}`;
}

// A short English text of a goal (objectives.py describe_goal).
export function describeGoal(goal) {
  const n = goal.count;
  switch (goal.kind) {
    case "cities_of_levels":
      return joinWords(goal.require.map((q, i) =>
        `${i === 0 ? `${q.count} ${q.count === 1 ? "city" : "cities"}` : q.count} of level ${q.level}+`));
    case "adjacent_cities":
      return `a group of ${n} ${n === 1 ? "city" : "adjacent cities"}`;
    case "city_groups":
      return `${n} ${n === 1 ? "group of cities" : "separate groups of cities"}`;
    case "monuments":
      return `control ${n} ${n === 1 ? "monument" : "monuments"}`;
    case "influence":
      return `influence ${n}`;
    case "nodi": {
      const req = Object.entries(goal.require);
      const one = req.length === 1 && req[0][1] === 1;
      return `${joinWords(req.map(([c, k]) => `${k} ${domainName(c)}`))} ${one ? "nodus" : "nodi"}`;
    }
    case "mastery_cards":
      return joinWords(goal.require.map((q, i) =>
        `${i === 0 ? `${q.count} mastery ${q.count === 1 ? "card" : "cards"}` : q.count} of value `
        + `${q.value} in ${joinWords(q.domains.map(domainName), "or")}`));
    default:
      return goal.kind;
  }
}

// Domain chips that go with a goal (so the colour-coded goals also show their letters).
function goalChips(goal) {
  if (goal.kind === "nodi") return Object.keys(goal.require).map((d) => domainChip(d));
  if (goal.kind === "mastery_cards") {
    return [...new Set(goal.require.flatMap((q) => q.domains))].filter((d) => DOMAIN_NAMES[d])
      .map((d) => domainChip(d));
  }
  return [];
}

// The objective of player `playerIndex` with a progress bar per goal.
export function objectiveView(view, playerIndex, catalog) {
  const pl = view.players[playerIndex];
  const shown = pl && pl.objective;
  const def = shown ? catalogIndex(catalog).objectives.get(shown.id) : null;
  const box = el("section", { class: "dom-panel dom-objective", "data-testid": "objective",
    "data-player": playerIndex });
  if (!def) {
    box.append(el("h3", {}, `${pl ? pl.name : "?"} — objective`),
      el("p", { class: "hint" }, shown ? shown.name : "Not chosen yet (or still hidden)."));
    return box;
  }
  let met = 0;
  const rows = def.goals.map((goal, i) => {
    const [have, need] = goalProgress(goal, playerIndex, view, catalog);
    const done = have >= need;
    if (done) met += 1;
    return el("li", { class: `goal${done ? " met" : ""}`, "data-goal": i, "data-have": have,
      "data-need": need, "data-met": done ? "true" : "false" },
    el("span", { class: "goal-mark", "aria-hidden": "true" }, done ? "✔" : "○"),
    el("span", { class: "goal-text" }, el("span", { class: "goal-desc" }, describeGoal(goal)), " ",
      goalChips(goal)),
    el("progress", { max: need, value: Math.min(have, need), "aria-label": describeGoal(goal) }),
    el("span", { class: "goal-count" }, `${have} / ${need}${done ? " met" : ""}`));
  });
  box.append(el("h3", {}, `${pl.name} — objective: ${def.name}`),
    el("ol", { class: "goals" }, rows),
    el("p", { class: "objective-vp", "data-met": met },
      // The engine's value under this game's scoring rule; the progressive table only
      // when a view does not carry it.
      `${met} of ${def.goals.length} goals met: `
      + `${typeof shown.vp_now === "number" ? shown.vp_now : PROGRESSIVE_VP[met]} VP now`));
  return box;
}

export const VP_LABELS = {
  mastery: "Mastery cards", monuments: "Monuments", roles: "Domination cards",
  overflow: "Overflow", influence: "Influence", objectives: "Objectives", tree: "Tree",
};

// Players in ranking order: most VP first, ties to the earlier in the initiative order.
export function ranking(view) {
  const order = view.initiative || view.players.map((_, i) => i);
  return view.players.map((_, i) => i).sort((a, b) =>
    view.players[b].vp - view.players[a].vp || order.indexOf(a) - order.indexOf(b));
}

// Log lines about scoring: from the last end of an age on (all of them before any), the
// lines about VP, objectives, domination cards, influence and effects.
export function scoringLines(log) {
  const lines = log || [];
  let start = 0;
  lines.forEach((line, i) => { if (line.includes("=== End of age")) start = i; });
  const re = /===|VP|objective|takes the|influence|effect of/;
  return lines.slice(start).filter((line) => re.test(line));
}

// How the winner of a finished game won a tie (D-END-4): "" where nobody had as many VP.
export function tieBreak(view, ranks) {
  const best = ranks[0];
  const vp = view.players[best].vp;
  const tied = ranks.filter((p) => view.players[p].vp === vp);
  if (tied.length < 2) return "";
  const them = andList(tied.slice(1).map((p) => view.players[p].name));
  return ` the tie with ${them} at ${vp} VP, being earlier in the initiative order`;
}

export function scoringView(view, catalog, log = []) {
  const sources = Object.keys(view.players[0].vp_breakdown || {});
  const over = view.phase === "over";
  const ranks = ranking(view);
  const best = ranks[0];
  const head = el("tr", {}, el("th", { scope: "col" }, "Player"),
    sources.map((s) => el("th", { scope: "col", "data-source": s }, VP_LABELS[s] || s)),
    el("th", { scope: "col" }, "Total"));
  const rows = ranks.map((p) => {
    const pl = view.players[p];
    const parts = sources.map((s) => pl.vp_breakdown[s] || 0);
    const sum = parts.reduce((a, b) => a + b, 0);
    return el("tr", { "data-player": p, class: p === best ? "leader" : null },
      el("th", { scope: "row" }, pl.name, p === best ? (over ? " ★ winner" : " (leading)") : ""),
      parts.map((v, k) => el("td", { "data-source": sources[k] }, String(v))),
      el("td", { class: "total", "data-total": pl.vp, "data-sum": sum },
        String(pl.vp), sum !== pl.vp ? ` (sources ${sum})` : ""));
  });
  const lines = scoringLines(log);
  return el("section", { class: "dom-panel dom-scoring", "data-testid": "scoring" },
    el("h3", over ? { "data-result": "" } : {}, over ? `Final scoring — ${view.players[best].name} wins${tieBreak(view, ranks)}`
      : scoresHeading(view)),
    el("div", { class: "table-scroll" }, el("table", { class: "scoring-table" },
      el("thead", {}, head), el("tbody", {}, rows))),
    lines.length ? el("details", { class: "scoring-log", open: over },
      el("summary", {}, `Scoring log (${lines.length} lines)`),
      el("ul", {}, lines.slice(-60).map((t) => el("li", {}, t)))) : null);
}

// What the scores shown count up to: an age's end, or the game so far (VP come during an
// age too: overflow, monuments, cards). The heading said "after age 2" as age 2 began.
function scoresHeading(view) {
  if (view.phase === "end of age") return `Scores after age ${view.age} (end of age)`;
  return `Scores so far (age ${view.age} in progress)`;
}
