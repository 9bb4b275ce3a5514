// The Dominations table: the board (pan, zoom, legal cells, previews), the hand, every
// player's knowledge and scores, the decision waiting (with a button for every legal action
// no other control offers, so the game is always playable), the mastery market, monuments,
// civilization trees, objectives, scores and the log.
//
// mount(root, ctx) -> { update(msg), destroy(), onKey(event) -> bool, shortcuts }

import { el, render } from "../dom.js";
import { groupActions, placementsByCell, positionsFor } from "./actions.js";
import { createBoard } from "./board.js";
import { DOMAINS, DOMAIN_FILL, DOMAIN_INK, domainName, playerFill, playerInk } from "./colours.js";
import { rotateColours } from "./geometry.js";
import { handView, supplyBottomView } from "./hand.js";

const SHORTCUTS = [
  ["1–7", "select a tile of your hand"],
  ["r", "rotate the selected tile"],
  ["Escape", "cancel the selection"],
  ["p", "pass (when you may)"],
  ["+ / −", "zoom the board in / out"],
  ["f", "fit the board"],
];

// The retail rules with the §13 rulings (dominari.dominations.rules.Rules' defaults).
const RULE_DEFAULTS = {
  connection: "choose-one", monument_cost: "any", objective_scoring: "auto", variant: "retail",
};

const PHASE_WORDS = {
  draft: "Setup draft", tiles: "Tiles", growth: "Growth", build: "Build", develop: "Develop",
  vestigium: "Vestigium", pay: "Paying a monument level", copy: "End of age: influence",
  initiative: "Governor: initiative", "order effects": "Effects to order", "end of age": "End of age",
  "start of turn": "Start of turn", "start of age": "Start of age", setup: "Setup", step: "Step",
  over: "Game over",
};

const TABS = [
  ["market", "Mastery market"], ["monuments", "Monuments"], ["trees", "Trees"],
  ["objectives", "Objectives"], ["scores", "Scores"],
];

// The other helper's panels, loaded when they exist (each may be missing: a placeholder
// shows instead and the generic action list keeps the game playable).
const PANEL_FILES = { tree: "./tree.js", market: "./market.js", monuments: "./monuments.js",
  objectives: "./objectives.js" };

async function loadPanels() {
  const out = {};
  await Promise.all(Object.entries(PANEL_FILES).map(async ([name, file]) => {
    try {
      out[name] = await import(file);
    } catch (err) {
      out[name] = null;
    }
  }));
  return out;
}

// A domain letter on its colour.
function chip(d, text = d, extra = {}) {
  return el("span", { class: "dom-chip", "data-domain": d, title: domainName(d),
    style: { background: DOMAIN_FILL[d] || "#ccc", color: DOMAIN_INK[d] || "#000" }, ...extra }, text);
}

// A <details> whose open state survives redraws (remembered under `key` in `opened`).
function details(opened, key, summary, ...body) {
  const node = el("details", { class: key, open: opened.has(key) }, el("summary", {}, summary), ...body);
  node.addEventListener("toggle", () => {
    if (node.open) opened.add(key);
    else opened.delete(key);
  });
  return node;
}

function button(text, label, onclick, extra = {}) {
  return el("button", { type: "button", class: "btn action", "data-action": text, onclick, ...extra },
    label);
}

export function mount(root, ctx) {
  const catalog = ctx.catalog || { files: {} };
  const files = catalog.files || {};
  const tiles = new Map((files.tiles || []).map((t) => [t.id, t]));
  const skills = new Map((files.skills || []).map((s) => [s.id, s]));
  const monumentDefs = new Map((files.monuments || []).map((m) => [m.id, m]));
  const objectiveDefs = new Map((files.objectives || []).map((o) => [o.id, o]));
  const playing = ctx.mode === "play";

  let msg = null;
  let panels = null;
  let busy = false;
  let tab = "market";
  let tabChosen = false; // the user picked a tab: keep it until the phase changes
  let lastPhase = null;
  let lastAge = null;
  let agesEnded = []; // ages whose end this table has seen: their summary is pointed at
  const opened = new Set(); // <details> the user opened, kept open across redraws
  let boardCells = new Set(); // the filled cells of the last message
  // The cells outlined as new: a player's, those filled since their own last decision (the
  // moves of every other player in turn); a spectator's, the last change of the board.
  let fresh = new Set();
  let hoverCell = null;
  let marks = {};
  const previews = new Map(); // action text -> Promise of the preview
  let previewShown = null; // { text, data | error }
  // The selection: a hand tile and rotation (and a cell waiting for its link), or a card
  // (mastery copy to acquire or copy, monument) and, for a monument, its tree position and
  // the first cell of its diamond tile.
  const sel = { tile: null, rot: 0, cell: null, kind: null, card: null, pos: null, first: null };

  const board = createBoard({ onCell: clickCell, onVertex: clickVertex, onHover: hoverOn,
    onHoverVertex: (v) => {
      const info = marks.vertices && marks.vertices.get(v);
      if (info && info.action && sel.tile) showPreview(info.action);
    } });
  const status = el("div", { class: "dom-status", "data-testid": "status", role: "status" });
  // (not a live region: it is drawn anew at every pick of a tile; the table's announcer
  // says when the decision is yours, and the focus comes here)
  const pending = el("section", { class: "dom-panel dom-pending", "data-testid": "pending",
    "aria-label": "Your decision" });
  const handBox = el("div", { class: "dom-hand-box" });
  const players = el("section", { class: "dom-panel dom-players", "data-testid": "knowledge" });
  // (read out as it fills: what the cell with the focus would produce)
  const preview = el("div", { class: "dom-preview", "data-testid": "preview", hidden: true,
    role: "status", "aria-live": "polite" });
  const logBox = el("section", { class: "dom-panel dom-log", "data-testid": "log" });
  const tabBar = el("div", { class: "dom-tabs", role: "tablist" });
  const tabBody = el("div", { class: "dom-tab-body", role: "tabpanel" });
  const layout = el("div", { class: "dom-table", "data-testid": "dominations" },
    status,
    el("div", { class: "dom-main" },
      el("div", { class: "dom-board-col" }, board.node, preview),
      el("div", { class: "dom-side" }, pending, handBox, players, logBox)),
    el("div", { class: "dom-lower" }, tabBar, tabBody));
  render(root, layout);

  loadPanels().then((p) => {
    panels = p;
    if (msg) draw();
  });

  // -- helpers over the current message ---------------------------------------------------

  const view = () => msg.view;
  const me = () => (msg && msg.seat !== null && msg.seat !== undefined ? msg.seat : null);
  const names = () => view().players.map((p, i) => (msg.seats && msg.seats[i] && msg.seats[i].name) || p.name);
  const legal = () => (playing ? view().legal_actions || [] : []);
  const groups = () => groupActions(legal());

  function act(text) {
    if (busy || !playing) return Promise.resolve();
    busy = true;
    layout.classList.add("busy");
    return ctx.act(text).then(() => {
      if (!text.startsWith("exchange")) clearSelection(); // an exchange keeps the selection
    }).catch(() => {})
      .finally(() => {
        busy = false;
        layout.classList.remove("busy");
      });
  }

  function clearSelection(redraw = true) {
    Object.assign(sel, { tile: null, cell: null, kind: null, card: null, pos: null, first: null });
    hoverCell = null;
    previewShown = null;
    if (redraw && msg) draw();
  }

  // Drop the parts of the selection the new legal actions no longer allow.
  function checkSelection(g) {
    if (sel.tile && !g.place.some((p) => p.tile === sel.tile)) {
      Object.assign(sel, { tile: null, cell: null });
    }
    if (sel.card) {
      const still = positionsFor(g, sel.kind, sel.card);
      if (!still.size || (sel.pos && !still.has(sel.pos))) {
        Object.assign(sel, { kind: null, card: null, pos: null, first: null });
      }
    }
  }

  // -- drawing -------------------------------------------------------------------------------

  function update(next) {
    const versionChanged = !msg || next.version !== msg.version;
    const decided = playing && msg && (msg.view.legal_actions || []).length > 0 && versionChanged;
    msg = next;
    if (versionChanged) {
      previews.clear();
      previewShown = null;
      sel.cell = null;
    }
    const cells = new Set((next.view.board || []).map((c) => c.cell));
    const added = [...cells].filter((c) => !boardCells.has(c));
    if (decided) fresh = new Set(); // their own move is no news to them
    else if (added.length && boardCells.size) {
      fresh = playing ? new Set([...fresh, ...added]) : new Set(added);
    }
    boardCells = cells;
    const phase = next.view.phase;
    if (phase !== lastPhase) {
      lastPhase = phase;
      tabChosen = false;
    }
    if (!tabChosen) tab = autoTab(next.view);
    // An age just ended: show its scoring summary until the phase changes.
    if (lastAge !== null && next.view.age > lastAge) {
      agesEnded = [...agesEnded, lastAge];
      tab = "scores";
      tabChosen = true;
      if (ctx.toast) ctx.toast(`Age ${lastAge} is over: the scores are below`);
    }
    lastAge = next.view.age;
    layout.dataset.version = next.version;
    draw();
  }

  // The tab that fits the decision waiting.
  function autoTab(v) {
    if (v.phase === "over" || v.phase === "end of age") return "scores";
    if (v.phase === "draft") return "objectives";
    const g = groupActions(playing ? v.legal_actions || [] : []);
    if (g.pay.length || (v.phase === "build" && g.monument.length)) return "monuments";
    if (g.acquire.length || g.copy.length || g.upgradeCard.length) return "market";
    return tab;
  }

  let drawnVersion = null;

  function draw() {
    if (!msg) return;
    const focused = focusKey(document.activeElement);
    const moved = msg.version !== drawnVersion; // (not a pick, a turn of a tile, a hover)
    drawnVersion = msg.version;
    const g = groups();
    checkSelection(g);
    drawStatus();
    drawPending(g);
    drawHand(g);
    drawPlayers();
    drawBoard(g);
    drawPreview();
    drawLog();
    drawTabs(g);
    if (focused !== null) refocus(focused, moved);
  }

  // Every panel is drawn anew: the control that had the focus gets it back, or, where it
  // is gone (the action it made was played), the decision waiting does, so that a keyboard
  // (or a screen reader) is never left at the top of the page.
  const FOCUS_DATA = ["tab", "action", "cell", "vertex", "tile", "monument", "copy", "domain",
    "pos", "side", "card", "player"];

  function focusKey(node) {
    if (!node || node === document.body || !layout.contains(node)) return null;
    const d = node.dataset || {};
    const panel = node.closest("[data-testid]");
    // (a card's, a monument's or a tile's words change as it is picked: its data names it)
    const named = d.copy || d.monument || d.tile;
    return [panel ? panel.dataset.testid : "", node.tagName, node.getAttribute("role") || "",
      ...FOCUS_DATA.map((k) => d[k] ?? ""),
      named ? "" : node.getAttribute("aria-label") || (node.textContent || "").trim().slice(0, 80)].join("|");
  }

  function refocus(key, moved) {
    // a control that kept the focus through a redraw of the same position (a board cell
    // as a tile is turned) keeps it; after a move, the focus is placed anew
    const kept = document.activeElement;
    if (!moved && kept && kept !== document.body && layout.contains(kept)) return;
    const controls = layout.querySelectorAll("button, a[href], input, select, [tabindex]");
    const same = [...controls].find((x) => focusKey(x) === key);
    // else the decision's heading, read out, never one of its buttons (a second Enter
    // would make a move nobody chose) nor a field (keys typed there are not shortcuts)
    const target = same || pending.querySelector("h3") || pending;
    if (!same) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  function drawStatus() {
    const v = view();
    const n = names();
    const parts = [];
    if (v.phase === "over") parts.push(el("strong", {}, "Game over"));
    else {
      parts.push(el("strong", {}, `Age ${v.age}`),
        el("span", {}, `Turn ${Math.min(v.turn, 5)} of 5`),
        el("span", { class: "phase" }, PHASE_WORDS[v.phase] || v.phase));
      if (v.current_player !== null && v.current_player >= 0) {
        const who = v.current_player === me() ? "you" : n[v.current_player];
        parts.push(el("span", {}, `to play: ${who}`));
      }
    }
    parts.push(el("span", { class: "initiative", title: "Initiative order: ties go to the earlier" },
      "initiative: ", (v.initiative || []).map((p, i) => [i ? " → " : "", el("span", { class: "who" },
        el("span", { class: "pdot", style: { background: playerFill(p) } }), n[p])])));
    const bottom = v.supply_bottom || [];
    parts.push(el("span", {
      class: "muted", "data-testid": "supply",
      title: bottom.length ? "Put back under the supply from a hand, so every player knows them; "
        + `they will be drawn in this order: ${bottom.join(", ")}` : null,
    }, `tiles in supply: ${v.supply}`
      + (bottom.length ? ` (${bottom.length} known at the bottom)` : "")));
    // The rules in force where they are not the retail defaults, and a data set of the
    // server's own: every seat and spectator can see what the game is played by.
    const rules = Object.entries(msg.rules || {})
      .filter(([name, value]) => RULE_DEFAULTS[name] !== value)
      .map(([name, value]) => `${name.replace(/_/g, " ")} ${value}`);
    if (msg.data_set) rules.push(`data set ${msg.data_set}`);
    if (rules.length) parts.push(el("span", { class: "muted", "data-testid": "rules" },
      `rules: ${rules.join(", ")}`));
    // (a live region: written only when it says something new, not at every redraw)
    const fresh = el("div", {}, parts);
    if (fresh.innerHTML !== status.innerHTML) render(status, [...fresh.childNodes]);
    status.dataset.supplyKnown = bottom.length;
    status.dataset.age = v.age;
    status.dataset.turn = v.turn;
    status.dataset.phase = v.phase;
  }

  // -- the decision waiting ------------------------------------------------------------------

  // The decision waiting: one prompt per group of legal actions. Each prompt returns its
  // elements and the actions its controls cover; the generic list offers the rest.
  function drawPending(g) {
    const v = view();
    if (!legal().length) {
      render(pending, waitingNote(v));
      pending.dataset.kind = "waiting";
      return;
    }
    pending.dataset.kind = v.pending ? v.pending.kind : v.phase;
    const handled = new Set();
    const out = [ageEndedNote(v)];
    const prompts = [draftPrompt, tilesPrompt, growthPrompt, reactivatePrompt, buildPrompt,
      developPrompt, upgradePrompt, copyPrompt, monumentPrompt, selectedCardNote, payPrompt,
      vestigiumPrompt, orderPrompt, resolvePrompt, exchangePrompt, passPrompt];
    for (const prompt of prompts) {
      const made = prompt(g, v);
      if (!made) continue;
      out.push(made.nodes);
      for (const text of made.covers || []) handled.add(text);
    }
    out.push(fallback(handled));
    render(pending, out);
    // what is asked, for the announcer's "Your decision: …"
    const asked = pending.querySelector("h3");
    if (asked) asked.setAttribute("data-prompt", "");
  }

  function waitingNote(v) {
    if (v.phase === "over") return [el("h3", {}, "The game is over"), el("p", {}, "See the scores below.")];
    const who = v.current_player >= 0 ? names()[v.current_player] : "?";
    return [el("h3", {}, `Waiting for ${who}`),
      el("p", { class: "muted" }, `${PHASE_WORDS[v.phase] || v.phase}${msg.bot_thinking
        ? (msg.bot_waiting ? " — waiting for a bot worker…" : " — thinking…") : ""}`)];
  }

  function ageEndedNote(v) {
    if (!agesEnded.length || v.turn !== 1 || v.age !== agesEnded[agesEnded.length - 1] + 1) return null;
    return el("p", { class: "age-ended" }, `Age ${v.age - 1} is over. `,
      el("button", { type: "button", class: "btn small",
        onclick: () => { tab = "scores"; tabChosen = true; draw(); } }, "See the scores"));
  }

  // Setup: keep one of two objectives or monuments.
  function draftPrompt(g, v) {
    if (!g.choose.length) return null;
    const what = v.pending && v.pending.what === "monument" ? "monument" : "objective";
    // Both pairs are drawn at once (D-SET-3): the monuments to choose from next are known.
    const later = what === "objective" && v.drawn && v.drawn.monuments;
    return { nodes: [el("h3", {}, `Keep one ${what}`),
      el("p", { class: "hint" }, what === "objective"
        ? "Its five goals score 10/20/40/70/100 VP at the end of the game."
        : "Its level cards will be open to every player."),
      el("div", { class: "choices" }, g.choose.map((c) => chooseCard(c))),
      later ? el("p", { class: "hint", "data-testid": "drawn-later" },
        "Your monuments, to keep one of next: " + later.map((id) => {
          const m = monumentDefs.get(id);
          return m ? `${m.name} (${id})` : id;
        }).join(", ")) : null],
    covers: g.choose.map((c) => c.text) };
  }

  // Mulligan, or tiles kept between ages: the hand's tiles carry "return …".
  function tilesPrompt(g, v) {
    if (!g.ret.length && !g.done) return null;
    const mode = v.pending && v.pending.mode;
    return { nodes: [el("h3", {}, mode === "keep" ? "Keep your tiles?" : "Mulligan"),
      el("p", { class: "hint" }, "Click tiles of your hand to put them back under the supply, "
        + "then Done: you draw back up to 7."),
      g.done ? button(g.done, "Done", () => act(g.done), { class: "btn primary action" }) : null],
    covers: [...g.ret.map((r) => r.text), ...(g.done ? [g.done] : [])] };
  }

  // Growth: hand tile, rotation, cell on the board; then the link when several apply.
  function growthPrompt(g) {
    if (!g.place.length) return null;
    const nodes = [el("h3", {}, "Growth: place a tile")];
    if (!sel.tile) {
      nodes.push(el("p", { class: "hint" }, "Choose a tile of your hand (keys 1–7), turn it (r), "
        + "then click a highlighted cell. Hover a cell to see what it produces."));
    } else if (sel.cell) {
      const options = placementsByCell(g.place, sel.tile, sel.rot).get(sel.cell) || [];
      nodes.push(el("p", { class: "hint" }, `${sel.tile} on ${sel.cell}: it touches several tiles. `
        + "Choose the connection (or the locus) to score:"),
      el("div", { class: "choices links" }, options.map((p) => button(p.text,
        p.link === "locus" ? `Locus ${p.target}` : `Connect with ${p.target}`,
        () => act(p.text), { onmouseenter: () => pointAt(p.text), onfocus: () => pointAt(p.text) }))),
      el("button", { type: "button", class: "btn small", onclick: () => { sel.cell = null; draw(); } },
        "Back"));
    } else {
      const count = placementsByCell(g.place, sel.tile, sel.rot).size;
      nodes.push(el("p", { class: "hint" }, `${sel.tile} turned r${sel.rot}: ${count} highlighted `
        + `cell${count === 1 ? "" : "s"}. Click the tile again or press r to turn it, Escape to cancel.`));
    }
    return { nodes, covers: g.place.map((p) => p.text) };
  }

  // The Inventor: score a placed tile again instead of placing one.
  function reactivatePrompt(g) {
    if (!g.reactivate.length) return null;
    return { nodes: details(opened, "reactivate",
      `Inventor: reactivate a placed tile instead (${g.reactivate.length})`,
      el("div", { class: "choices" }, g.reactivate.map((r) => button(r.text,
        `${r.cell} ${r.link ? `${r.link} ${r.target}` : ""}`, () => act(r.text),
        { onmouseenter: () => showPreview(r.text) })))),
    covers: g.reactivate.map((r) => r.text) };
  }

  // Build: cities on the board (also listed as buttons).
  function buildPrompt(g, v) {
    const list = [...g.city, ...g.upgradeCity];
    if (!list.length && !(v.phase === "build" && !g.pay.length)) return null;
    const cities = list.map((c) => button(c.text,
      `${c.text.startsWith("city") ? "City on" : "Upgrade"} ${c.cell}${cityCost(c)}`, () => act(c.text)));
    return { nodes: [el("h3", {}, "Build"),
      el("p", { class: "hint" }, "Build a city on a free settlement or upgrade one of yours "
        + "(click a highlighted cell), contribute a monument level (Monuments), or pass."),
      cities.length ? el("div", { class: "choices cities" }, cities) : null],
    covers: list.map((c) => c.text) };
  }

  // Develop: acquiring goes through the market and the tree (covered by the selection).
  function developPrompt(g, v) {
    const marketShown = Boolean(panels && panels.market);
    const nodes = [];
    if (v.phase === "develop" && !g.pay.length) {
      nodes.push(el("h3", {}, "Develop"),
        el("p", { class: "hint" }, "Acquire a mastery card (choose a copy in the market, then a "
          + "place in your tree), upgrade one of your cards, or pass."));
    }
    if (g.acquire.length && !marketShown) nodes.push(cardChoices("acquire", g.acquire));
    if (!nodes.length && !g.acquire.length) return null;
    return { nodes, covers: g.acquire.map((a) => a.text) };
  }

  // Mastery cards to turn advanced (paid, or free after an influence copy).
  function upgradePrompt(g) {
    const list = [...g.upgradeCard, ...g.copyUpgrade];
    if (!list.length) return null;
    return { nodes: el("div", { class: "choices" }, list.map((u) => {
      const s = skills.get(u.skill);
      const free = u.text.startsWith("copy");
      const what = s ? `${s.name} (${free ? "free" : `${s.upgrade_cost} ${s.upgrade_domain}`})` : u.skill;
      return button(u.text, `${free ? "Turn advanced" : "Upgrade"}: ${what}`, () => act(u.text));
    })),
    covers: list.map((u) => u.text) };
  }

  // End of an age: the influence leader may copy a card another player holds.
  function copyPrompt(g, v) {
    if (!g.copy.length && !(v.pending && v.pending.kind === "copy")) return null;
    return { nodes: [el("h3", {}, "Influence: copy a card"),
      el("p", { class: "hint" }, `With ${v.pending ? v.pending.influence : "?"} influence you may take `
        + "a free copy of a skill another player holds: choose it, then a place in your tree."),
      cardChoices("copy", g.copy)],
    covers: g.copy.map((a) => a.text) };
  }

  function selectedCardNote(g) {
    if (!sel.card || sel.kind === "monument") return null;
    const pos = positionsFor(g, sel.kind, sel.card);
    return { nodes: el("p", { class: "selected-card" }, `Selected ${cardName(sel.card)}: pick one of the `
      + `${pos.size} highlighted places in your tree. `,
    el("button", { type: "button", class: "btn small", onclick: () => clearSelection() }, "Cancel")) };
  }

  // A monument level's cost, any mix of domains.
  function payPrompt(g, v) {
    if (!g.pay.length) return null;
    return { nodes: [el("h3", {}, `Pay the monument level: ${v.pending ? v.pending.left : "?"} left`),
      el("div", { class: "choices pay" }, g.pay.map((p) => button(p.text, chip(p.domain, `${p.amount} ${p.domain}`),
        () => act(p.text), { "aria-label": `pay ${p.amount} ${domainName(p.domain)}` })))],
    covers: g.pay.map((p) => p.text) };
  }

  function vestigiumPrompt(g, v) {
    if (!g.vestigium.length) return null;
    return { nodes: [el("h3", {}, "Vestigium"),
      el("p", { class: "hint" }, "Choose the domain of one vestigium knowledge"
        + `${v.pending && v.pending.left ? ` (${v.pending.left} left)` : ""}.`),
      el("div", { class: "choices" }, g.vestigium.map((a) => button(a.text,
        chip(a.domain, `${a.domain} ${domainName(a.domain)}`), () => act(a.text))))],
    covers: g.vestigium.map((a) => a.text) };
  }

  // The Governor's initiative order (player numbers from 1).
  function orderPrompt(g) {
    if (!g.order.length) return null;
    const n = names();
    return { nodes: [el("h3", {}, "Governor: initiative order of the next age"),
      el("div", { class: "choices" }, g.order.map((o) => button(o.text,
        o.seats.map((s) => n[s - 1] || `P${s}`).join(" → "), () => act(o.text))))],
    covers: g.order.map((o) => o.text) };
  }

  // Several effects due at once: which resolves next.
  function resolvePrompt(g, v) {
    if (!g.resolve.length) return null;
    const effects = (v.pending && v.pending.effects) || [];
    return { nodes: [el("h3", {}, "Several effects are due: which resolves next?"),
      el("div", { class: "choices" }, g.resolve.map((r) => {
        const e = effects.find((x) => r.card.split("/")[0] === x.card);
        return button(r.text, e ? `${e.name} (${r.card})` : r.card, () => act(r.text));
      }))],
    covers: g.resolve.map((r) => r.text) };
  }

  function exchangePrompt(g) {
    if (!g.exchange.length) return null;
    return { nodes: exchangeWidget(g.exchange), covers: g.exchange.map((x) => x.text) };
  }

  function passPrompt(g) {
    if (!g.pass) return null;
    const label = g.copy.length ? "Copy nothing" : g.place.length ? "No second tile" : "Pass";
    return { nodes: el("div", { class: "pass-row" }, button(g.pass, `${label} (p)`, () => act(g.pass),
      { class: "btn action pass" })),
    covers: [g.pass] };
  }

  function cityCost(c) {
    const cell = view().board.find((b) => b.cell === c.cell);
    if (!cell || !cell.settlement) return "";
    const level = cell.city ? cell.city.level : 0;
    return ` (${[3, 6, 9][level] || "?"} ${cell.settlement})`;
  }

  function cardName(id) {
    const skill = skills.get(String(id).split("-")[0]);
    if (skill) return `${skill.name} ${id}`;
    const m = monumentDefs.get(id);
    return m ? `${m.name} (${id})` : id;
  }

  // A draft option: the objective's goals or the monument's name and shape.
  function chooseCard(c) {
    const o = objectiveDefs.get(c.id);
    const m = monumentDefs.get(c.id);
    let detail = null;
    if (o) {
      const describe = panels && panels.objectives && panels.objectives.describeGoal;
      detail = el("ol", { class: "goals" }, (o.goals || []).map((goal) =>
        el("li", {}, describe ? describe(goal) : goal.kind)));
    } else if (m) {
      detail = el("p", {}, `${m.shape} · ${domainName(m.domain)} · ${(m.levels || []).length} levels`);
    }
    return el("div", { class: "choice-card" },
      button(c.text, `Keep ${o ? o.name : m ? m.name : c.id} (${c.id})`, () => act(c.text)),
      detail);
  }

  // Cards to select (copy at the end of an age; acquire when the market panel is missing).
  function cardChoices(kind, list) {
    const ids = [...new Set(list.map((a) => a.card))];
    return el("div", { class: "choices cards" }, ids.map((id) => el("button", {
      type: "button", class: `btn card-choice${sel.card === id ? " selected" : ""}`, "data-copy": id,
      "aria-pressed": String(sel.card === id),
      onclick: () => selectCard(kind, sel.card === id ? null : id),
    }, cardName(id))));
  }

  function selectCard(kind, id) {
    Object.assign(sel, { kind: id ? kind : null, card: id, pos: null, first: null, tile: null, cell: null });
    if (id) {
      tab = kind === "monument" ? "monuments" : "market";
      tabChosen = true;
    }
    draw();
  }

  // The monument flow: choose a monument (Monuments panel), a place in the tree, and for
  // level 1 its tile on the board.
  function monumentPrompt(g) {
    if (!g.monument.length) return null;
    return { nodes: monumentControls(g), covers: g.monument.map((m) => m.text) };
  }

  function monumentControls(g) {
    const ids = [...new Set(g.monument.map((m) => m.id))];
    const box = el("div", { class: "monument-prompt" });
    if (!sel.card || sel.kind !== "monument") {
      box.append(el("p", { class: "hint" }, "Monument levels you can contribute: "),
        el("div", { class: "choices" }, ids.map((id) => el("button", { type: "button",
          class: "btn card-choice", "data-monument": id, onclick: () => selectCard("monument", id) },
        cardName(id)))));
      return box;
    }
    const options = g.monument.filter((m) => m.id === sel.card && (!sel.pos || m.pos === sel.pos));
    if (!sel.pos) {
      box.append(el("p", { class: "selected-card" }, `Selected ${cardName(sel.card)}: pick a highlighted `
        + "place in your tree for its level card. ",
      el("button", { type: "button", class: "btn small", onclick: () => clearSelection() }, "Cancel")));
      return box;
    }
    const circle = options.some((m) => m.tile && m.tile[0].startsWith("@"));
    box.append(el("p", { class: "selected-card" }, `${cardName(sel.card)} at ${sel.pos}: place its tile — `
      + (circle ? "click a highlighted locus." : sel.first ? `${sel.first} chosen, click its second cell.`
        : "click the highlighted first cell, then the second."),
    " ", el("button", { type: "button", class: "btn small", onclick: () => clearSelection() }, "Cancel")),
    details(opened, "monument-tiles", `All ${options.length} placements`,
      el("div", { class: "choices" }, options.map((m) => button(m.text, m.tile ? m.tile.join(" + ") : m.pos,
        () => act(m.text))))));
    return box;
  }

  // Campfire exchange: pay 2 of one domain, gain 1 of another.
  function exchangeWidget(list) {
    const pays = [...new Set(list.map((x) => x.pay))];
    const state = { pay: pays[0], get: null };
    const gets = () => list.filter((x) => x.pay === state.pay).map((x) => x.get);
    const paySel = el("select", { "aria-label": "domain to pay 2 of", "data-testid": "exchange-pay" },
      pays.map((d) => el("option", { value: d }, `2 ${domainName(d)}`)));
    const getSel = el("select", { "aria-label": "domain to gain 1 of", "data-testid": "exchange-get" });
    const go = el("button", { type: "button", class: "btn action", "data-testid": "exchange" }, "Exchange");
    const refresh = () => {
      const options = gets();
      if (!options.includes(state.get)) state.get = options[0];
      render(getSel, options.map((d) => el("option", { value: d, selected: d === state.get },
        `1 ${domainName(d)}`)));
      go.dataset.action = `exchange ${state.pay} ${state.get}`;
    };
    paySel.addEventListener("change", () => { state.pay = paySel.value; refresh(); });
    getSel.addEventListener("change", () => { state.get = getSel.value; refresh(); });
    go.addEventListener("click", () => act(go.dataset.action));
    refresh();
    return el("div", { class: "exchange" },
      el("span", { class: "label", title: "Campfire: a free action during your own turn" }, "Campfire exchange: "),
      paySel, " → ", getSel, go);
  }

  // Every legal action no control above offers, as a labelled button; and the whole list
  // (drawn when opened) so that nothing is ever out of reach.
  function fallback(handled) {
    const all = legal();
    const others = all.filter((t) => !handled.has(t));
    const list = el("div", { class: "choices all" });
    const whole = details(opened, "all-actions", `All legal actions (${all.length})`, list);
    const fill = () => {
      if (whole.open && !list.firstChild) {
        render(list, all.slice(0, 400).map((t) => button(t, t, () => act(t), { class: "btn small action" })));
      }
    };
    whole.addEventListener("toggle", fill);
    fill();
    return el("div", { class: "fallback" },
      others.length ? el("div", { class: "other-actions" }, el("h4", {}, "Other actions"),
        el("div", { class: "choices" }, others.map((t) => button(t, t, () => act(t))))) : null,
      whole);
  }

  // -- the hand --------------------------------------------------------------------------

  function drawHand(g) {
    const v = view();
    const seat = me();
    const shown = seat !== null ? seat : (v.current_player >= 0 ? v.current_player : 0);
    const hand = v.players[shown].hand || [];
    const selectable = new Set(g.place.map((p) => p.tile));
    const actions = new Map(g.ret.map((r) => [r.tile, r.text]));
    render(handBox, handView(hand, tiles, {
      selected: sel.tile, rotation: sel.rot, selectable, actions,
      title: seat !== null ? "Your tiles" : `${names()[shown]}'s tiles`,
      onPick: (id) => {
        if (actions.has(id)) act(actions.get(id));
        else if (selectable.has(id)) {
          if (sel.tile === id) rotate(); // clicking the selected tile turns it
          else selectTile(id);
        }
      },
      onRotate: selectable.size ? rotate : null,
      onCancel: selectable.size ? () => clearSelection() : null,
    }), (v.supply_bottom || []).length ? supplyBottomView(v.supply_bottom, tiles) : null);
  }

  function selectTile(id) {
    Object.assign(sel, { tile: id, cell: null, kind: null, card: null, pos: null, first: null });
    previewShown = null;
    draw();
  }

  function rotate() {
    if (!sel.tile) return false;
    sel.rot = (sel.rot + 1) % 3;
    sel.cell = null;
    previewShown = null;
    draw();
    if (hoverCell) hoverOn(hoverCell, true);
    return true;
  }

  // -- players ----------------------------------------------------------------------------

  function drawPlayers() {
    const v = view();
    const n = names();
    const cards = v.players.map((p, i) => {
      const roles = (p.roles || []).map((d) => {
        const r = (v.roles || []).find((x) => x.domain === d);
        const state = r && r.used ? "used" : r && r.active ? "active" : "held";
        return chip(d, r ? r.role : d, { class: `dom-chip role ${state}`,
          title: r ? `${r.role} (${domainName(d)}), ${state}` : d });
      });
      const row = DOMAINS.map((d) => el("div", {
        class: "k", "data-player": i, "data-domain": d, "data-value": p.knowledge[d],
        "data-limit": p.limits[d], title: `${domainName(d)}: ${p.knowledge[d]} of at most ${p.limits[d]}`,
        // read as one thing, in words ("T 0 /5" was all a screen reader had)
        role: "img", "aria-label": `${domainName(d)}: ${p.knowledge[d]} of at most ${p.limits[d]}`,
      }, chip(d), el("span", { class: "num" }, String(p.knowledge[d])),
      el("span", { class: "lim" }, `/${p.limits[d]}`),
      el("meter", { min: 0, max: 20, value: p.knowledge[d], "aria-hidden": "true" })));
      const current = v.current_player === i;
      return el("div", { class: `player${current ? " current" : ""}${i === me() ? " me" : ""}`,
        "data-player": i },
      el("div", { class: "player-head", style: { background: playerFill(i), color: playerInk(i) } },
        el("span", { class: "name" }, current ? "▶ " : "", n[i], i === me() ? " (you)" : ""),
        el("span", { class: "vp", "data-vp": p.vp }, `${p.vp} VP`)),
      el("div", { class: "stats" },
        el("span", { "data-influence": p.influence, title: "influence" }, `influence ${p.influence}`),
        el("span", { title: "city tokens left" }, `cities left ${p.tokens}`),
        el("span", { title: "place in the initiative order" }, `initiative ${(v.initiative || []).indexOf(i) + 1}`),
        roles.length ? el("span", { class: "roles" }, "roles: ", roles) : null),
      el("div", { class: "knowledge-row" }, row));
    });
    render(players, el("h3", {}, "Players"), cards);
  }

  // -- the board ---------------------------------------------------------------------------

  // What the board marks now: legal cells, links of a chosen cell, vertices.
  function computeMarks(g) {
    const legalCells = new Map();
    const links = new Map();
    const vertices = new Map();
    let ghost = null;
    if (sel.kind === "monument" && sel.pos) {
      const options = g.monument.filter((m) => m.id === sel.card && m.pos === sel.pos && m.tile);
      for (const m of options) {
        if (m.tile[0].startsWith("@")) {
          vertices.set(m.tile[0], { action: m.text, title: `${m.id} on the locus ${m.tile[0]}` });
        } else if (!sel.first) {
          // Two clicks always: the first cell, then the second (so one sees both).
          legalCells.set(m.tile[0], { action: null, title: `first cell of ${m.id}` });
        } else if (m.tile[0] === sel.first) {
          legalCells.set(m.tile[1], { action: m.text, title: `${m.id} on ${m.tile.join(" + ")}` });
        }
      }
      if (sel.first) legalCells.set(sel.first, { action: null, title: "first cell chosen (click to change)" });
      return { legal: legalCells, links, vertices, chosen: sel.first };
    }
    if (sel.tile) {
      const byCell = placementsByCell(g.place, sel.tile, sel.rot);
      for (const [cell, options] of byCell) {
        legalCells.set(cell, { action: options.length === 1 ? options[0].text : null,
          title: options.length === 1 ? `place ${sel.tile} here` : `place ${sel.tile} here (then choose the link)` });
      }
      if (sel.cell) {
        for (const p of byCell.get(sel.cell) || []) {
          if (p.link === "via") links.set(p.target, p.text);
          else if (p.link === "locus") vertices.set(p.target, { action: p.text, title: `score the locus ${p.target}` });
        }
      }
      const cell = sel.cell || hoverCell;
      const tile = tiles.get(sel.tile);
      if (cell && tile && byCell.has(cell)) {
        ghost = { cell, colours: rotateColours(tile.corners, sel.rot), settlement: tile.settlement };
      }
      return { legal: legalCells, links, vertices, ghost, chosen: sel.cell };
    }
    for (const c of g.city) legalCells.set(c.cell, { action: c.text, title: `build a city${cityCost(c)}` });
    for (const c of g.upgradeCity) legalCells.set(c.cell, { action: c.text, title: `upgrade your city${cityCost(c)}` });
    return { legal: legalCells, links, vertices };
  }

  function drawBoard(g) {
    marks = { ...computeMarks(g), fresh };
    board.update(view(), marks, names());
  }

  function clickCell(cell) {
    if (!playing || busy) return;
    const info = marks.legal && marks.legal.get(cell);
    const link = marks.links && marks.links.get(cell);
    if (link) return act(link);
    if (!info) return;
    if (info.action) return act(info.action);
    if (sel.kind === "monument") {
      sel.first = sel.first === cell ? null : cell;
      return draw();
    }
    if (sel.tile) {
      sel.cell = cell;
      hoverOn(cell, true);
      return draw();
    }
  }

  function clickVertex(vertex) {
    const info = marks.vertices && marks.vertices.get(vertex);
    if (info && info.action) act(info.action);
  }

  // -- previews ------------------------------------------------------------------------------

  // The action a hovered cell would take (for a placement with several links: the first).
  function previewAction(cell) {
    if (!sel.tile || !cell) return null;
    if (marks.links && marks.links.has(cell)) return marks.links.get(cell);
    const options = placementsByCell(groups().place, sel.tile, sel.rot).get(cell);
    return options && options.length ? options[0].text : null;
  }

  function hoverOn(cell, force = false) {
    if (cell === hoverCell && !force) return;
    hoverCell = cell;
    const text = previewAction(cell);
    if (sel.tile && !sel.cell) drawBoard(groups()); // the ghost tile follows the pointer
    if (text) showPreview(text);
  }

  // Preview a link choice and mark its target on the board.
  function pointAt(text) {
    for (const node of board.node.querySelectorAll(".hot")) node.classList.remove("hot");
    const target = board.node.querySelector(`[data-action="${CSS.escape(text)}"]`);
    if (target) target.classList.add("hot");
    showPreview(text);
  }

  function showPreview(text) {
    if (!playing || !ctx.preview) return;
    if (!previews.has(text)) previews.set(text, ctx.preview(text));
    previewShown = { text, data: null, error: null };
    drawPreview();
    const version = msg.version;
    previews.get(text).then((data) => {
      if (!previewShown || previewShown.text !== text || msg.version !== version) return;
      previewShown.data = data;
      drawPreview();
    }, (err) => {
      if (!previewShown || previewShown.text !== text) return;
      previewShown.error = err.message || String(err);
      drawPreview();
    });
  }

  function drawPreview() {
    if (!previewShown || !sel.tile && !previewShown.text.startsWith("reactivate")) {
      preview.hidden = true;
      return;
    }
    const n = names();
    const { text, data, error } = previewShown;
    const body = [el("h4", {}, `Preview: ${text}`)];
    const place = text.split(" ");
    const options = sel.tile && !sel.cell && place.length > 3
      ? (placementsByCell(groups().place, sel.tile, sel.rot).get(place[1]) || []).length : 0;
    if (options > 1) body.push(el("p", { class: "muted" }, `one of ${options} links: click the cell to choose`));
    if (error) body.push(el("p", { class: "form-error" }, error));
    else if (!data) body.push(el("p", { class: "muted" }, "…"));
    else {
      body.push(el("div", { class: "totals" }, (data.totals || []).map((t, p) => {
        const entries = Object.entries(t);
        if (!entries.length) return null;
        return el("div", { class: "total", "data-player": p },
          el("span", { class: "pdot", style: { background: playerFill(p) } }),
          `${p === me() ? "You" : n[p]}: `,
          entries.map(([d, a]) => chip(d, `+${a} ${d}`)));
      })));
      if (!(data.items || []).length) body.push(el("p", { class: "muted" }, "produces nothing"));
      body.push(el("ul", { class: "items" }, (data.items || []).map((it) =>
        el("li", { "data-source": it.source }, it.text))));
    }
    render(preview, body);
    preview.dataset.preview = text;
    preview.hidden = false;
  }

  // -- the log ----------------------------------------------------------------------------

  function drawLog() {
    const lines = msg.log || [];
    // the last 300 lines, numbered as lines of the whole game
    const start = (msg.log_first || 0) + Math.max(0, lines.length - 300) + 1;
    const list = el("ol", { class: "log-lines", start }, lines.slice(-300).map((t) => el("li", {}, t)));
    render(logBox, el("h3", {}, "Log"), list);
    list.scrollTop = list.scrollHeight;
  }

  // -- the lower tabs: market, monuments, trees, objectives, scores ------------------------

  function drawTabs(g) {
    const choose = (id) => { tab = id; tabChosen = true; draw(); };
    render(tabBar, TABS.map(([id, label], i) => el("button", {
      type: "button", role: "tab", class: `tab${tab === id ? " active" : ""}`, "data-tab": id,
      "aria-selected": String(tab === id), tabindex: tab === id ? "0" : "-1",
      onclick: () => choose(id),
      onkeydown: (e) => { // a tab list's keys: ← → to the next tab, Home / End
        const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: TABS.length - 1 }[e.key];
        if (to === undefined) return;
        e.preventDefault();
        e.stopPropagation();
        choose(TABS[(to + TABS.length) % TABS.length][0]);
        const now = tabBar.querySelector(`[data-tab="${TABS[(to + TABS.length) % TABS.length][0]}"]`);
        if (now) now.focus({ preventScroll: true });
      },
    }, label)));
    let body;
    try {
      body = tabContent(g);
    } catch (err) {
      body = el("p", { class: "form-error" }, `this panel failed: ${err.message}`);
    }
    render(tabBody, body);
  }

  const missing = (what) => el("p", { class: "muted" }, `The ${what} panel is loading…`);

  // My tree with the legal places of the selected card highlighted.
  function myTree(g) {
    const seat = me();
    if (seat === null || !panels || !panels.tree) return null;
    let highlight = [];
    let onPick = null;
    let positions = new Map();
    if (sel.card) {
      positions = positionsFor(g, sel.kind, sel.card);
      highlight = [...positions.keys()];
      onPick = (pos) => pickPosition(pos, positions);
    }
    const node = panels.tree.treeView(view().players[seat], catalog, { highlight, onPick, large: false });
    // A place that completes exactly one action carries it (test hook).
    for (const slot of node.querySelectorAll("[data-pos]")) {
      const texts = positions.get(slot.dataset.pos);
      if (texts && texts.length === 1 && (sel.kind !== "monument" || !texts[0].includes(" on "))) {
        slot.setAttribute("data-action", texts[0]);
      }
    }
    return node;
  }

  function pickPosition(pos, positions) {
    const texts = positions.get(pos) || [];
    if (sel.kind !== "monument") {
      if (texts.length) act(texts[0]);
      return;
    }
    if (texts.length === 1 && !texts[0].includes(" on ")) {
      act(texts[0]);
      return;
    }
    sel.pos = pos;
    sel.first = null;
    draw();
    board.fit();
    board.node.scrollIntoView({ block: "nearest" });
  }

  function tabContent(g) {
    const v = view();
    const seat = me();
    const common = { legal: legal(), selected: sel.card, act: (t) => act(t) };
    if (tab === "market") {
      if (!panels) return missing("market");
      const market = panels.market ? panels.market.marketView(v, catalog, {
        ...common, selected: sel.kind === "monument" ? null : sel.card,
        onSelect: (id) => selectCard(g.copy.length ? "copy" : "acquire", id),
      }) : el("p", { class: "muted" }, "(the market panel is not available)");
      return el("div", { class: "dom-split" }, market, myTree(g));
    }
    if (tab === "monuments") {
      if (!panels) return missing("monuments");
      const mons = panels.monuments ? panels.monuments.monumentsView(v, catalog, {
        ...common, selected: sel.kind === "monument" ? sel.card : null,
        onSelect: (id) => selectCard("monument", id ? String(id).split("-")[0] : null),
      }) : el("p", { class: "muted" }, "(the monuments panel is not available)");
      return el("div", { class: "dom-split" }, mons, myTree(g));
    }
    if (tab === "trees") {
      if (!panels || !panels.tree) return missing("tree");
      return el("div", { class: "dom-trees" }, v.players.map((p, i) => (i === seat ? myTree(g)
        : panels.tree.treeView(p, catalog, { highlight: [], onPick: null, large: false }))));
    }
    if (tab === "objectives") {
      if (!panels || !panels.objectives) return missing("objectives");
      return el("div", { class: "dom-objectives" }, v.players.map((_, i) => panels.objectives.objectiveView(v, i, catalog)));
    }
    if (!panels || !panels.objectives) {
      return el("section", { class: "dom-panel", "data-testid": "scoring" },
        el("h3", {}, "Scores"), el("ul", {}, v.players.map((p) => el("li", {}, `${p.name}: ${p.vp} VP`))));
    }
    return panels.objectives.scoringView(v, catalog, msg.log || []);
  }

  // -- keys ---------------------------------------------------------------------------------

  function onKey(event) {
    if (!msg) return false;
    const k = event.key;
    if (k === "r" || k === "R") return rotate();
    if (k === "Escape") {
      const had = sel.tile || sel.card || sel.cell;
      clearSelection();
      return Boolean(had);
    }
    if (k === "+" || k === "=") { board.zoomBy(1.25); return true; }
    if (k === "-" || k === "−") { board.zoomBy(0.8); return true; }
    if (k === "f") { board.fit(); return true; }
    const g = groups();
    if (k === "p" && g.pass) { act(g.pass); return true; }
    if (/^[1-9]$/.test(k) && g.place.length) {
      const seat = me();
      const hand = seat === null ? [] : view().players[seat].hand || [];
      const id = hand[Number(k) - 1];
      if (id && g.place.some((p) => p.tile === id)) {
        selectTile(id);
        return true;
      }
    }
    return false;
  }

  return {
    update,
    destroy() {
      board.destroy();
      root.textContent = "";
    },
    onKey,
    shortcuts: SHORTCUTS,
  };
}
