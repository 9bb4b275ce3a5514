// The Dominion table: Supply, hands, play areas, the pending decision, trash, log and
// final scores, drawn from the server's view message (see DominionState.view).
//
// Every button that performs an action carries data-action = the exact legal action text;
// the page only offers what the view's legal_actions allow. Cellar, Chapel and Militia
// take a selection of hand cards, sent as one action ("discard Estate Copper").

import { clear, el, render } from "../dom.js";
import { andList } from "../format.js";

const TYPE_ORDER = ["Action", "Treasure", "Victory", "Curse", "Attack", "Reaction"];
const BASIC_ROWS = [["Copper", "Silver", "Gold"], ["Estate", "Duchy", "Province", "Curse"]];

// Which verb of a decision points at a hand card, and which at a Supply pile.
const HAND_VERB = {
  action: "play", "throne-room": "play", remodel: "trash", mine: "trash", bureaucrat: "topdeck",
};
const VERB_BADGE = { play: "Play", trash: "Trash", topdeck: "To deck" };
const SUPPLY_VERB = { buy: "buy", gain: "gain", "mine-gain": "gain" };
// Decisions answered with a selection of hand cards, and the verb that sends it.
const MULTI = { cellar: "discard", chapel: "trash", militia: "discard" };
const CHAPEL_LIMIT = 4;
const MILITIA_HAND = 3;

const REASONS = {
  provinces: "the Province pile is empty",
  "three-piles": "three Supply piles are empty",
  "turn-limit": "the turn limit was reached",
};

const SHORTCUTS = [
  ["1–9", "play or select the nth card of your hand"],
  ["e", "end the phase or turn (or stop choosing: done)"],
  ["p", "pass / decline the offered choice"],
  ["Enter", "confirm the selected cards"],
  ["Esc", "clear the selection"],
];

// -- small helpers ------------------------------------------------------------------

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function splitAction(text) {
  const i = text.indexOf(" ");
  return i < 0 ? [text, ""] : [text.slice(0, i), text.slice(i + 1)];
}

function capitalise(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

// Cards grouped by name, in first-seen order: [["Copper", 3], ["Estate", 1]].
function grouped(names) {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  return [...counts.entries()];
}

function playerColour(p) {
  const fallback = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"][p % 4];
  return { "--pc": `var(--p${p}, ${fallback})` };
}

export function mount(root, ctx) {
  const cards = (ctx.catalog && ctx.catalog.cards) || {};
  const state = {
    msg: null,
    busy: false,
    selection: [], // hand indices chosen for a Cellar / Chapel / Militia decision
    selectionKey: null,
    detail: null, // the card shown in the detail panel
    destroyed: false,
  };

  const info = (name) => cards[name] || { name, cost: "?", types: [], text: "" };
  const typesOf = (name) => info(name).types || [];
  const typeClasses = (name) => typesOf(name).map((t) => `t-${t.toLowerCase()}`).join(" ");
  const typeText = (name) => [...typesOf(name)]
    .sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b)).join(" – ");

  function cardSummary(name) {
    const c = info(name);
    const types = typeText(name);
    return `${name}: costs ${c.cost}${types ? `, ${types}` : ""}. ${c.text || ""}`.trim();
  }

  function playerName(p) {
    const msg = state.msg;
    const seat = msg && msg.seats && msg.seats[p];
    const pile = msg && msg.view.piles[p];
    const name = seat ? seat.name : (pile ? pile.name : `P${p + 1}`);
    return isMe(p) ? `${name} (you)` : name;
  }

  // The viewer's own seat (a replay seen from a seat is not "you").
  function isMe(p) {
    return ctx.mode === "play" && ctx.seat !== null && ctx.seat !== undefined && p === ctx.seat;
  }

  // -- what the viewer may do now ---------------------------------------------------

  function legalActions() {
    const msg = state.msg;
    if (!msg || ctx.mode !== "play" || msg.status === "finished") return [];
    return msg.view.legal_actions || [];
  }

  function decision() {
    return (state.msg && state.msg.view.decision) || { kind: "over", prompt: "" };
  }

  function multiVerb() {
    const legal = legalActions();
    const verb = MULTI[decision().kind];
    return verb && legal.some((a) => a.startsWith(`${verb} `)) ? verb : null;
  }

  function syncSelection() {
    const v = state.msg.view;
    const key = JSON.stringify([v.turn, v.decision, v.hand]);
    if (key !== state.selectionKey) {
      state.selectionKey = key;
      state.selection = [];
    }
    const hand = v.hand || [];
    state.selection = state.selection.filter((i) => i < hand.length);
  }

  // The most cards the selection may hold, and how many it must hold (null: any).
  function selectionBounds() {
    const kind = decision().kind;
    const hand = state.msg.view.hand || [];
    if (kind === "militia") {
      const need = Math.max(0, hand.length - MILITIA_HAND);
      return { max: need, need };
    }
    if (kind === "chapel") return { max: CHAPEL_LIMIT, need: null };
    return { max: hand.length, need: null };
  }

  // The action text the current selection sends, or null when it cannot be sent yet.
  function selectionAction() {
    const verb = multiVerb();
    if (!verb) return null;
    const hand = state.msg.view.hand || [];
    const { need } = selectionBounds();
    const chosen = [...state.selection].sort((a, b) => a - b).map((i) => hand[i]);
    if (need !== null && chosen.length !== need) return null;
    if (chosen.length === 0) return legalActions().includes("done") ? "done" : null;
    return `${verb} ${chosen.join(" ")}`;
  }

  // -- acting ---------------------------------------------------------------------

  // Send one action. `finish`: a single card chosen for Cellar or Chapel is one step of
  // the choice, so "done" follows it when the same decision still waits for more.
  async function send(text, finish = false) {
    if (state.busy || !legalOrSelection(text)) return;
    state.busy = true;
    root.setAttribute("aria-busy", "true");
    shell.dataset.busy = "true";
    const kind = decision().kind;
    try {
      await ctx.act(text);
      if (finish && !state.destroyed && decision().kind === kind
          && legalActions().includes("done")) {
        await ctx.act("done");
      }
    } catch (err) {
      // The chrome has already shown the server's message.
    } finally {
      state.busy = false;
      root.removeAttribute("aria-busy");
      delete shell.dataset.busy;
      if (!state.destroyed) draw();
    }
  }

  function legalOrSelection(text) {
    return legalActions().includes(text) || text === selectionAction();
  }

  function toggleSelect(index) {
    if (state.busy) return;
    const at = state.selection.indexOf(index);
    if (at >= 0) {
      state.selection.splice(at, 1);
    } else {
      const { max } = selectionBounds();
      if (state.selection.length >= max) {
        if (max === 1) state.selection = [index];
        else {
          ctx.toast(`you may choose at most ${plural(max, "card")}`, "info");
          return;
        }
      } else {
        state.selection.push(index);
      }
    }
    draw();
  }

  // -- card pieces ----------------------------------------------------------------

  function cardFace(name, extra = []) {
    const c = info(name);
    return [
      el("span", { class: "dmn-cost", "aria-hidden": "true", title: `costs ${c.cost}` }, String(c.cost)),
      el("span", { class: "dmn-name" }, name),
      el("span", { class: "dmn-types" }, typeText(name)),
      ...extra,
    ];
  }

  // A small card in a row (in play, set aside, revealed, trash): focusable for its text.
  function chip(name, count = 1, key = null) {
    return el("span", {
      class: `dmn-chip ${typeClasses(name)}`, tabindex: "0", "data-card": name,
      "data-key": key, title: cardSummary(name),
      "aria-label": `${count > 1 ? `${count} × ` : ""}${cardSummary(name)}`,
    }, name, count > 1 ? el("span", { class: "dmn-times" }, ` ×${count}`) : null);
  }

  function chips(names, group, keyPrefix) {
    if (!names || names.length === 0) return el("span", { class: "muted" }, "none");
    const items = group ? grouped(names) : names.map((n) => [n, 1]);
    return el("span", { class: "dmn-chips" },
      ...items.map(([n, k], i) => chip(n, k, keyPrefix ? `${keyPrefix}:${i}` : null)));
  }

  // -- regions --------------------------------------------------------------------

  function statusBar() {
    const v = state.msg.view;
    const over = Boolean(v.outcome);
    const counter = (id, label, value) => el("div", {
      class: "dmn-counter", "data-testid": id, "data-value": value,
    }, el("span", { class: "dmn-counter-label" }, label), el("strong", {}, String(value)));
    const turns = v.piles[v.turn_player] ? v.piles[v.turn_player].turns : v.turn;
    const whose = isMe(v.turn_player) ? `Your turn ${turns}` : `${playerName(v.turn_player)}'s turn ${turns}`;
    return el("section", { class: "dmn-status", "aria-label": "Turn" },
      el("div", { class: "dmn-turn", "data-testid": "phase" },
        over ? "Game over" : `${whose} · ${capitalise(v.phase)} phase`),
      over ? null : el("div", { class: "dmn-counters" },
        counter("actions", "Actions", v.actions),
        counter("buys", "Buys", v.buys),
        counter("coins", "Coins", v.coins)));
  }

  function pile(name) {
    const v = state.msg.view;
    const left = v.supply[name];
    const verb = SUPPLY_VERB[decision().kind];
    const action = verb ? `${verb} ${name}` : null;
    const legal = action && legalActions().includes(action);
    const empty = left === 0;
    const c = info(name);
    const summary = `${name}, costs ${c.cost}, ${typeText(name)}, ${empty ? "pile empty" : `${left} left`}. ${c.text || ""}`;
    const face = cardFace(name, [
      el("span", { class: "dmn-count" }, empty ? "empty" : `${left} left`),
      legal ? el("span", { class: "dmn-verb" }, capitalise(verb)) : null,
    ]);
    const cls = `dmn-pile ${typeClasses(name)}${legal ? " is-legal" : ""}${empty ? " is-empty" : ""}`;
    if (legal) {
      return el("button", {
        type: "button", class: cls, "data-card": name, "data-action": action,
        "data-key": `pile:${name}`, title: summary, "aria-label": `${capitalise(verb)} ${summary}`,
        onclick: () => send(action),
      }, face);
    }
    return el("div", {
      class: cls, "data-card": name, "data-key": `pile:${name}`, tabindex: "0",
      title: summary, "aria-label": summary, role: "group",
    }, face);
  }

  function supply() {
    const v = state.msg.view;
    const kingdom = [...v.kingdom].sort((a, b) => (info(a).cost - info(b).cost) || a.localeCompare(b));
    const verb = SUPPLY_VERB[decision().kind];
    const mine = legalActions().length > 0 && verb;
    const limit = decision().limit;
    const hint = !mine ? null
      : verb === "buy" ? `Buy a highlighted card (${plural(v.coins, "coin")}, ${plural(v.buys, "buy")})`
        : `Gain a highlighted card${limit !== undefined ? ` costing up to ${limit}` : ""}`;
    return el("section", { class: "dmn-supply", "data-testid": "supply", "aria-labelledby": "dmn-supply-h" },
      el("h2", { id: "dmn-supply-h" }, "Supply"),
      hint ? el("p", { class: "dmn-hint" }, hint) : null,
      el("div", { class: "dmn-kingdom", "aria-label": "Kingdom cards", role: "group" },
        ...kingdom.map(pile)),
      ...BASIC_ROWS.map((row, i) => el("div", {
        class: "dmn-basics", role: "group", "aria-label": i === 0 ? "Treasures" : "Victory and Curse",
      }, ...row.filter((n) => n in v.supply).map(pile))));
  }

  function handCard(name, index) {
    const kind = decision().kind;
    const legal = legalActions();
    const verb = multiVerb();
    const keyHint = index < 9 ? el("span", { class: "dmn-key", "aria-hidden": "true" }, String(index + 1)) : null;
    const key = `hand:${index}`;
    if (verb && legal.includes(`${verb} ${name}`)) {
      const on = state.selection.includes(index);
      return el("button", {
        type: "button", class: `dmn-card ${typeClasses(name)} ${on ? "is-selected" : "is-selectable"}`,
        "data-card": name, "data-select": String(index), "data-key": key, "aria-pressed": on ? "true" : "false",
        title: cardSummary(name), "aria-label": `${on ? "Unselect" : "Select"} ${name} to ${verb}`,
        onclick: () => toggleSelect(index),
      }, keyHint, cardFace(name, [on ? el("span", { class: "dmn-verb" }, `${capitalise(verb)} ✓`) : null]));
    }
    const hv = HAND_VERB[kind];
    const action = hv ? `${hv} ${name}` : null;
    if (action && legal.includes(action)) {
      const label = actionLabel(action);
      return el("button", {
        type: "button", class: `dmn-card ${typeClasses(name)} is-legal`, "data-card": name,
        "data-action": action, "data-key": key, title: cardSummary(name),
        "aria-label": `${label}. ${cardSummary(name)}`, onclick: () => send(action),
      }, keyHint, cardFace(name, [el("span", { class: "dmn-verb" }, VERB_BADGE[hv] || capitalise(hv))]));
    }
    return el("div", {
      class: `dmn-card ${typeClasses(name)}`, "data-card": name, "data-key": key, tabindex: "0",
      title: cardSummary(name), "aria-label": cardSummary(name),
    }, keyHint, cardFace(name));
  }

  function hand() {
    const v = state.msg.view;
    if (!Array.isArray(v.hand)) return null;
    const cardsInHand = v.hand.map(handCard);
    return el("section", { class: "dmn-hand", "data-testid": "hand", "aria-labelledby": "dmn-hand-h" },
      el("h2", { id: "dmn-hand-h" }, `${isMe(ctx.seat) ? "Your hand" : `${playerName(ctx.seat)}'s hand`}`
        + ` (${plural(v.hand.length, "card")})`),
      cardsInHand.length ? el("div", { class: "dmn-hand-cards" }, cardsInHand)
        : el("p", { class: "muted" }, "No cards in hand."));
  }

  function actionLabel(text) {
    const d = decision();
    const [verb, card] = splitAction(text);
    switch (verb) {
      case "end": return d.kind === "action" ? "End action phase" : "End turn";
      case "done": return "Done";
      case "pass":
        return { moat: "Don't reveal", chancellor: "Keep deck", "thief-gain": "Don't gain" }[d.kind] || "Pass";
      case "discard-deck": return "Put deck into discard pile";
      case "reveal": return `Reveal ${card}`;
      case "set-aside": return `Set aside ${card}`;
      case "keep": return d.kind === "spy" ? `Put ${card} back on the deck` : `Keep ${card}`;
      case "topdeck": return `Put ${card} on your deck`;
      default: return `${capitalise(verb)} ${card}`;
    }
  }

  // Legal actions not shown on a hand card or a Supply pile: buttons in the prompt.
  function panelActions() {
    const kind = decision().kind;
    const hv = HAND_VERB[kind];
    const sv = SUPPLY_VERB[kind];
    const mv = multiVerb();
    const hand = state.msg.view.hand || [];
    return legalActions().filter((a) => {
      const [verb, card] = splitAction(a);
      if (mv && (verb === mv || a === "done")) return false;
      if (hv && verb === hv && hand.includes(card)) return false;
      if (sv && verb === sv && card in state.msg.view.supply) return false;
      return true;
    });
  }

  function prompt() {
    const d = decision();
    const v = state.msg.view;
    if (v.outcome) return "The final scores are below."; // (the status and the bar say it is over)
    let text = capitalise(d.prompt || d.kind);
    if (d.kind === "moat" && d.card) text = `${playerName(v.turn_player)} plays ${d.card}: reveal Moat to be unaffected?`;
    if ((d.kind === "gain" || d.kind === "mine-gain") && d.limit !== undefined) {
      text += ` costing up to ${d.limit}${d.card ? ` (${d.card})` : ""}`;
    }
    return text;
  }

  function revealed() {
    const d = decision();
    if (!d.cards || d.cards.length === 0) return null;
    const target = d.target !== undefined ? d.target : d.player;
    const whose = isMe(target) ? "Your" : `${playerName(target)}'s`;
    const what = { library: "card drawn", spy: "revealed card", thief: "revealed cards", "thief-gain": "trashed Treasure" }[d.kind] || "cards";
    return el("div", { class: "dmn-revealed" },
      el("span", {}, `${whose} ${what}: `), chips(d.cards, false, "revealed"));
  }

  function selectionControls() {
    const verb = multiVerb();
    if (!verb) return null;
    const hand = state.msg.view.hand || [];
    const kind = decision().kind;
    const { need, max } = selectionBounds();
    const n = state.selection.length;
    const action = selectionAction();
    const chosen = [...state.selection].sort((a, b) => a - b).map((i) => hand[i]);
    let label;
    if (action === "done") label = kind === "cellar" ? "Discard nothing" : "Trash nothing";
    else if (!action) label = `Choose ${plural(need - n, "more card")}`;
    else if (kind === "cellar") label = `Discard and draw ${n}: ${chosen.join(", ")}`;
    else label = `${capitalise(verb)} ${chosen.join(", ")}`;
    const rule = need !== null ? `Select exactly ${plural(need, "card")} in your hand, then confirm.`
      : `Select up to ${plural(Math.min(max, hand.length), "card")} in your hand, then confirm.`;
    return el("div", { class: "dmn-select" },
      el("p", { class: "dmn-hint" }, `${rule} Selected: ${n}.`),
      el("div", { class: "dmn-buttons" },
        el("button", {
          type: "button", class: "btn primary dmn-confirm", "data-testid": "confirm", "data-key": "confirm",
          "data-action": action, disabled: !action,
          onclick: () => action && send(action, kind !== "militia" && n === 1),
        }, label, el("kbd", { "aria-hidden": "true" }, "Enter")),
        n > 0 ? el("button", {
          type: "button", class: "btn", "data-key": "clear-selection",
          onclick: () => { state.selection = []; draw(); },
        }, "Clear selection") : null));
  }

  // Where the choices of a decision are: on hand cards, on Supply piles or below.
  function decisionHint(d) {
    const legal = legalActions();
    const hv = HAND_VERB[d.kind];
    const sv = SUPPLY_VERB[d.kind];
    if (hv && legal.some((a) => a.startsWith(`${hv} `))) {
      return d.kind === "action" ? "Play a highlighted Action card from your hand, or end the action phase."
        : "Choose a highlighted card in your hand.";
    }
    if (sv && legal.some((a) => a.startsWith(`${sv} `))) {
      return d.kind === "buy" ? "Buy a highlighted card in the Supply, or end your turn."
        : "Choose a highlighted pile in the Supply.";
    }
    return null;
  }

  function decisionPanel() {
    const d = decision();
    const v = state.msg.view;
    const mine = legalActions().length > 0;
    const who = v.outcome ? "" : mine ? "Your decision" : d.player >= 0 ? `${playerName(d.player)} decides` : "";
    const buttons = mine ? panelActions().map((a) => el("button", {
      type: "button", class: `btn${a === "end" || a === "done" ? "" : " primary"}`,
      "data-action": a, "data-key": `act:${a}`, onclick: () => send(a),
    }, actionLabel(a), a === "end" || a === "done" ? el("kbd", { "aria-hidden": "true" }, "e")
      : a === "pass" ? el("kbd", { "aria-hidden": "true" }, "p") : null)) : [];
    const hintText = mine ? decisionHint(d) : null;
    return el("section", {
      class: `dmn-decision${mine ? " is-mine" : ""}`, "data-testid": "decision", "data-kind": d.kind,
      "aria-label": "Decision", // (drawn anew at every view: the table's announcer says it)
    },
    who ? el("div", { class: "dmn-who" }, who) : null,
    el("p", { class: "dmn-prompt", "data-prompt": "" }, prompt()),
    revealed(), hintText ? el("p", { class: "dmn-hint" }, hintText) : null,
    mine ? selectionControls() : null,
    buttons.length ? el("div", { class: "dmn-buttons" }, buttons) : null);
  }

  function playerArea(p) {
    const v = state.msg.view;
    const pl = v.piles[p];
    const badges = [];
    if (!v.outcome && v.turn_player === p) badges.push(el("span", { class: "badge dmn-badge" }, "Playing"));
    if (!v.outcome && decision().player === p) badges.push(el("span", { class: "badge dmn-badge" }, "Deciding"));
    const fact = (label, value, id) => el("span", { class: "dmn-fact", "data-testid": id }, `${label} `, el("strong", {}, String(value)));
    return el("article", {
      class: `dmn-player${v.turn_player === p ? " is-turn" : ""}`, "data-testid": `player-${p}`,
      "data-player": p, style: playerColour(p), "aria-label": playerName(p),
    },
    el("h3", {}, el("span", { class: "dmn-dot", "aria-hidden": "true" }), playerName(p), " ", badges),
    el("div", { class: "dmn-facts" },
      fact("Hand", pl.hand_size, "hand-size"), fact("Deck", pl.deck_size, "deck-size"),
      fact("Discard", pl.discard_size, "discard-size"),
      // (a replay's: once the game is over its VP at every step may be known)
      Array.isArray(state.msg.scores) ? fact("VP", state.msg.scores[p], "vp") : null,
      pl.discard_top ? el("span", { class: "dmn-fact" }, "top ", chip(pl.discard_top, 1, `top:${p}`)) : null,
      fact("Turns", pl.turns, "turns")),
    el("div", { class: "dmn-zone" }, el("span", { class: "dmn-zone-label" }, "In play: "),
      chips(pl.in_play, false, `play:${p}`)),
    pl.aside && pl.aside.length ? el("div", { class: "dmn-zone" },
      el("span", { class: "dmn-zone-label" }, "Set aside / revealed: "), chips(pl.aside, false, `aside:${p}`)) : null,
    // Cards everyone knows are in this hand (a revealed Moat, a hand shown to Bureaucrat).
    pl.shown && pl.shown.length ? el("div", { class: "dmn-zone", "data-testid": `shown-${p}` },
      el("span", { class: "dmn-zone-label" }, "Known in hand: "), chips(pl.shown, false, `shown:${p}`)) : null,
    // Cards everyone saw put on top of this deck (Bureaucrat, Spy), the next draw first.
    pl.deck_top && pl.deck_top.length ? el("div", { class: "dmn-zone", "data-testid": `deck-top-${p}` },
      el("span", { class: "dmn-zone-label", title: "seen put there; the first is drawn next" },
        "On top of the deck: "), chips(pl.deck_top, false, `decktop:${p}`)) : null);
  }

  function playArea() {
    const v = state.msg.view;
    // The viewer's own area first, then the others in seat order from the viewer.
    const n = v.piles.length;
    const start = ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : 0;
    const order = Array.from({ length: n }, (_, i) => (start + i) % n);
    return el("section", { class: "dmn-players", "data-testid": "play-area", "aria-label": "Players" },
      order.map(playerArea));
  }

  function trash() {
    const t = state.msg.view.trash || [];
    return el("section", { class: "dmn-trash", "data-testid": "trash", "aria-labelledby": "dmn-trash-h" },
      el("h2", { id: "dmn-trash-h" }, `Trash (${t.length})`), chips(t, true, "trash"));
  }

  function log() {
    const all = state.msg.log || [];
    const lines = all.slice(-300);
    const start = (state.msg.log_first || 0) + all.length - lines.length + 1; // (the game's)
    return el("section", { class: "dmn-log-box", "aria-labelledby": "dmn-log-h" },
      el("h2", { id: "dmn-log-h" }, "Log"),
      el("ol", { class: "dmn-log", "data-testid": "log", role: "log", tabindex: "0", "aria-label": "Game log", start },
        lines.map((line) => el("li", { class: line.startsWith("—") ? "dmn-log-turn" : null }, line))));
  }

  // How the winner won a tie on VP (N-END-2: fewer turns), or why the winners share
  // the win (as many VP in as many turns), with whoever also had as many VP in more
  // turns; "" where nobody had as many VP.
  function tieBreak(out, order, winners) {
    const top = out.scores[order[0]];
    const tied = order.filter((p) => out.scores[p] === top);
    if (tied.length < 2) return "";
    const lost = tied.filter((p) => !winners.has(p));
    const them = andList(lost.map(playerName));
    const turns = (ps) => andList(ps.map((p) => String(out.turns[p])));
    if (winners.size > 1) {
      const more = lost.length ? ` (${them} also had ${top} VP, in ${out.turns ? turns(lost) : "more"} turns)` : "";
      return `: ${top} VP each, in as many turns${more}`;
    }
    const by = out.turns ? ` (${out.turns[order[0]]} against ${turns(lost)})` : "";
    return ` the tie with ${them} at ${top} VP, in fewer turns${by}`;
  }


  function scores() {
    const out = state.msg.view.outcome;
    if (!out) return null;
    const n = out.scores.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => out.ranks[a] - out.ranks[b] || a - b);
    const winners = new Set(out.winners || order.filter((p) => out.ranks[p] === 1));
    const shared = winners.size > 1;
    return el("section", { class: "dmn-scores", "data-testid": "scores", "aria-labelledby": "dmn-scores-h" },
      el("h2", { id: "dmn-scores-h" }, "Final scores"),
      el("p", { "data-result": "" }, `The game ended because ${REASONS[out.reason] || out.reason}.`,
        winners.size ? ` ${[...winners].map(playerName).join(" and ")} ${shared ? "share the win" : "wins"}${tieBreak(out, order, winners)}.` : ""),
      el("table", {},
        el("thead", {}, el("tr", {}, ...["Rank", "Player", "VP", "Turns", ""].map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, order.map((p) => el("tr", {
          class: winners.has(p) ? "is-winner" : null, "data-player": p, style: playerColour(p),
        },
        el("td", {}, String(out.ranks[p])),
        el("th", { scope: "row" }, el("span", { class: "dmn-dot", "aria-hidden": "true" }), playerName(p)),
        el("td", { "data-testid": `score-${p}` }, String(out.scores[p])),
        el("td", {}, out.turns ? String(out.turns[p]) : ""),
        el("td", {}, winners.has(p) ? el("strong", { class: "dmn-winner" }, shared ? "★ Shared win" : "★ Winner") : ""))))));
  }

  function detailPanel() {
    const name = state.detail;
    if (!name) {
      return el("aside", { class: "dmn-detail", "data-testid": "card-detail", "aria-live": "polite" },
        el("p", { class: "muted" }, "Point at or focus a card to read it."));
    }
    const c = info(name);
    const bonuses = [
      c.plus_cards ? `+${plural(c.plus_cards, "Card")}` : null,
      c.plus_actions ? `+${plural(c.plus_actions, "Action")}` : null,
      c.plus_buys ? `+${plural(c.plus_buys, "Buy")}` : null,
      c.plus_coins ? `+${plural(c.plus_coins, "coin")}` : null,
    ].filter(Boolean);
    return el("aside", { class: "dmn-detail", "data-testid": "card-detail", "aria-live": "polite" },
      el("h3", {}, el("span", { class: `dmn-swatch ${typeClasses(name)}`, "aria-hidden": "true" }), name,
        " ", el("span", { class: "dmn-detail-cost" }, `cost ${c.cost}`)),
      el("p", { class: "dmn-types" }, typeText(name)),
      el("p", {}, c.text || bonuses.join(", ")));
  }

  // -- drawing ----------------------------------------------------------------------

  const layout = {
    status: el("div", { class: "dmn-slot-status" }), decision: el("div"),
    scores: el("div", { class: "dmn-slot-scores" }),
    supply: el("div", { class: "dmn-left" }), side: el("div", { class: "dmn-right" }),
    detail: el("div", { class: "dmn-detail-slot" }), hand: el("div"),
  };
  const shell = el("div", { class: `dmn dmn-${ctx.mode}`, "data-testid": "dominion" },
    layout.status, layout.scores,
    el("div", { class: "dmn-board" }, layout.supply,
      el("div", { class: "dmn-sidecol" }, layout.detail, layout.side)),
    el("div", { class: "dmn-dock" }, layout.decision, layout.hand));
  render(root, shell);

  function focusedKey() {
    const a = document.activeElement;
    return a && shell.contains(a) && a.dataset ? a.dataset.key || null : null;
  }

  function draw() {
    if (!state.msg) return;
    const key = focusedKey();
    const logBox = shell.querySelector(".dmn-log");
    const stick = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
    render(layout.status, statusBar());
    render(layout.scores, scores());
    render(layout.decision, decisionPanel());
    render(layout.supply, supply());
    render(layout.side, playArea(), trash(), log());
    render(layout.hand, hand());
    render(layout.detail, detailPanel());
    const newLog = shell.querySelector(".dmn-log");
    if (newLog) newLog.scrollTop = stick ? newLog.scrollHeight : (logBox ? logBox.scrollTop : 0);
    if (key) {
      const again = shell.querySelector(`[data-key="${CSS.escape(key)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    shell.classList.toggle("is-mine", legalActions().length > 0);
    shell.classList.toggle("is-over", Boolean(state.msg.view.outcome));
    shell.dataset.version = String(state.msg.version);
  }

  function showDetail(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-card]") : null;
    if (!target || !shell.contains(target) || target.closest(".dmn-detail")) return;
    const name = target.dataset.card;
    if (name && name !== state.detail) {
      state.detail = name;
      render(layout.detail, detailPanel());
    }
  }
  shell.addEventListener("mouseover", showDetail);
  shell.addEventListener("focusin", showDetail);

  // -- keys -------------------------------------------------------------------------

  function clickFirst(selector) {
    const b = shell.querySelector(selector);
    if (!b || b.disabled) return false;
    b.click();
    return true;
  }

  function onKey(event) {
    if (!state.msg || ctx.mode !== "play" || legalActions().length === 0) return false;
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      const card = shell.querySelectorAll(".dmn-hand-cards > .dmn-card")[Number(key) - 1];
      if (card && card.tagName === "BUTTON") {
        card.click();
        return true;
      }
      return false;
    }
    if (key === "e") return clickFirst('[data-action="end"]') || clickFirst('.dmn-decision [data-action="done"]:not(.dmn-confirm)')
      || (multiVerb() !== null && selectionAction() === "done" && clickFirst(".dmn-confirm"));
    if (key === "p") return clickFirst('[data-action="pass"]');
    if (key === "Enter") {
      const active = document.activeElement;
      if (active && (active.tagName === "BUTTON" || active.tagName === "A")) return false;
      return clickFirst(".dmn-confirm");
    }
    if (key === "Escape" && state.selection.length) {
      state.selection = [];
      draw();
      return true;
    }
    return false;
  }

  return {
    update(msg) {
      if (!msg || !msg.view) return;
      state.msg = msg;
      syncSelection();
      draw();
    },
    destroy() {
      state.destroyed = true;
      shell.removeEventListener("mouseover", showDetail);
      shell.removeEventListener("focusin", showDetail);
      clear(root);
    },
    onKey,
    shortcuts: SHORTCUTS,
  };
}
