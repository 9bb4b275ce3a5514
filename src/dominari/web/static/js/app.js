// The Dominari browser app: a router over the URL fragment and the lobby pages.
//
//   #/                      new game (lobby)
//   #/games                 the games this browser takes part in
//   #/created/GAME          invitation links of a game created here
//   #/play/GAME/TOKEN       a seat at a table (the token stays in the fragment, never sent
//                           to the server in a URL)
//   #/watch/SPECTATOR       a table as a spectator
//   #/replay/SPECTATOR[/N]  a finished game, stepped forward and back

import {
  ApiError, creation, forgetGame, getJSON, postJSON, rememberCreation, rememberSeat,
  savedCreations, savedSeats,
} from "./api.js";
import { clear, el, render } from "./dom.js";
import { ago, ordinal, parseRoute, route, seedValue } from "./format.js";
import { openReplay, openTable } from "./table.js";

const main = document.getElementById("main");
const conn = document.getElementById("conn");
let current = null; // the open page's { destroy() }

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const t = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
  box.append(t);
  setTimeout(() => t.remove(), kind === "error" ? 6000 : 3500);
}

function setConnection(state) {
  // written only when it changes: the bar is a live region, and every view reports "live"
  if ((conn.dataset.state || "") === (state || "")) return;
  const words = { live: "live", connecting: "connecting…", offline: "offline: reconnecting…",
                  refused: "not admitted", "": "" };
  conn.dataset.state = state || "";
  conn.textContent = words[state] ?? state;
}

let options = null;
async function loadOptions() {
  if (!options) options = await getJSON("/api/options");
  return options;
}

function show() {
  if (current) current.destroy();
  current = null;
  setConnection("");
  document.title = "Dominari";
  const { page, args } = parseRoute(location.hash);
  const ctx = { main, toast, setConnection, again: (gameId, token) => playAgain(gameId, token) };
  try {
    if (page === "lobby") current = lobby();
    else if (page === "games") current = myGames();
    else if (page === "created" && args[0]) current = created(args[0]);
    else if (page === "play" && args.length >= 2) {
      rememberSeat({ game_id: args[0], token: args[1] });
      current = openTable(ctx, { gameId: args[0], token: args[1] });
    } else if (page === "watch" && args[0]) current = openTable(ctx, { spectator: args[0] });
    else if (page === "replay" && args[0]) {
      const seat = /^\d$/.test(args[2] || "") ? Number(args[2]) : null; // a seat's view
      current = openReplay(ctx, { spectator: args[0], step: Number(args[1] || 0) || 0, seat });
    } else {
      render(main, el("div", { class: "panel" }, el("h1", {}, "Page not found"),
                      el("p", {}, el("a", { href: "#/" }, "Start a new game"))));
    }
  } catch (err) {
    render(main, el("p", { class: "form-error" }, String(err.message || err)));
  }
  if (current === null) current = { destroy() {} };
  main.focus({ preventScroll: true });
}

// -- lobby --------------------------------------------------------------------------

const GAME_TITLES = { dominations: "Dominations", dominion: "Dominion" };

function lobby() {
  document.title = "New game · Dominari";
  const page = el("div", { class: "lobby" });
  render(main, el("h1", {}, "Play Dominations or Dominion"), page);
  loadOptions().then((opts) => buildLobby(page, opts)).catch((err) => {
    render(page, el("p", { class: "form-error" }, `cannot load the game options: ${err.message}`));
  });
  return { destroy() {} };
}

// The next game of the finished game ``gameId`` (its first player to ask makes it): a seat
// of it for each seat of that game this browser holds (a shared screen holds them all),
// the seat shown (``token``) first. One seat: to its table; more: their links.
async function playAgain(gameId, token) {
  const held = [token, ...savedSeats().filter((s) => s.game_id === gameId && s.token !== token)
    .map((s) => s.token)];
  let made = null;
  const seats = new Map();
  for (const t of held) {
    let got;
    try {
      got = await postJSON(`/api/games/${encodeURIComponent(gameId)}/again`, undefined, t);
    } catch (err) {
      if (made === null) {
        toast(err.message, "error");
        return;
      }
      continue; // a seat this browser no longer holds: the others all the same
    }
    made = made || got;
    for (const s of got.seats) if (s.token) seats.set(s.seat, s);
  }
  const all = made.seats.map((s) => seats.get(s.seat) || s);
  for (const note of made.notes || []) toast(note);
  const mine = all.filter((s) => s.token);
  for (const s of mine) {
    rememberSeat({ game_id: made.game_id, token: s.token, game: made.game, seat: s.seat,
                   name: s.name });
  }
  if (mine.length === 1) {
    location.hash = route("play", made.game_id, mine[0].token);
    return;
  }
  rememberCreation({ game_id: made.game_id, game: made.game, spectator: made.spectator, seats: all });
  location.hash = route("created", made.game_id);
}

async function createAndGo(body, errorBox) {
  if (errorBox) errorBox.textContent = "";
  let made;
  try {
    made = await postJSON("/api/games", body);
  } catch (err) {
    if (errorBox) errorBox.textContent = err.message;
    else toast(err.message, "error");
    return;
  }
  rememberCreation({ game_id: made.game_id, game: made.game, spectator: made.spectator,
                     seats: made.seats });
  // a rule bot whose Kingdom cards the kingdom lacks is seated all the same: say so
  for (const note of made.notes || []) toast(note);
  const humans = made.seats.filter((s) => s.token);
  for (const s of humans) {
    rememberSeat({ game_id: made.game_id, token: s.token, game: made.game, seat: s.seat,
                   name: s.name });
  }
  if (humans.length === 1) location.hash = route("play", made.game_id, humans[0].token);
  else location.hash = route("created", made.game_id);
}

function buildLobby(page, opts) {
  const games = opts.games;
  // One click: you against the default bot.
  const quick = el("section", { class: "panel quick", "aria-labelledby": "quick-h" },
    el("h2", { id: "quick-h" }, "Play against bots"),
    el("p", { class: "muted" }, "One click: a two-player game, you against the game's default bot."),
    ...Object.keys(GAME_TITLES).map((g) => {
      const bot = games[g].default_bot;
      const blurb = (games[g].bot_blurbs || {})[bot];
      // the bot's words shown under its button, and read with it (not a mouse's tooltip)
      return el("div", { class: "stack quick-choice" },
        el("button", {
          class: "btn primary big", "data-testid": `quick-${g}`,
          "aria-describedby": blurb ? `quick-${g}-about` : null,
          onclick: () => createAndGo({ game: g, seats: [
            { kind: "human", name: "You" }, { kind: "bot", bot }] }),
        }, `Play ${GAME_TITLES[g]} against ${bot}`),
        blurb ? el("p", { class: "muted about", id: `quick-${g}-about` }, `${bot}: ${blurb}`) : null);
    }));

  const form = el("form", { class: "panel stack", "aria-labelledby": "new-h", "data-testid": "new-game" });
  const error = el("p", { class: "form-error", role: "alert" });
  const gameSel = el("select", { id: "f-game", name: "game" },
    ...Object.keys(GAME_TITLES).map((g) => el("option", { value: g }, GAME_TITLES[g])));
  const countSel = el("select", { id: "f-players", name: "players" },
    ...[2, 3, 4].map((n) => el("option", { value: n }, `${n} players`)));
  const seatsBox = el("div", { class: "stack", "data-testid": "seats" });
  const optionsBox = el("div", { class: "stack" });
  // How long each bot waits before it moves: a game of bots can be followed as it is played.
  const pauseSel = el("select", { id: "f-pause", name: "bot_pause" },
    [["0", "at once"], ["0.5", "after ½ s"], ["1", "after 1 s"], ["2", "after 2 s"], ["4", "after 4 s"]]
      .map(([v, words]) => el("option", { value: v }, words)));
  const seedIn = el("input", { id: "f-seed", type: "number", min: 0, placeholder: "random",
                               inputmode: "numeric",
                               title: "The same seed deals the same game. Search bots think "
                                 + "for a set time, so their moves may differ from game to game." });
  // The server refuses a seed for a game of several people: whoever chose the deal would
  // know the others' hidden cards.
  const seedNote = el("p", { id: "f-seed-note", class: "muted", hidden: true },
    "A game with two or more human seats is dealt at random: a chosen seed would let "
    + "whoever chose it know the other players' hidden cards.");

  function seedRule() {
    const people = [...seatsBox.querySelectorAll(".seat-row select")]
      .filter((s) => s.value === "human").length;
    seedIn.disabled = people >= 2;
    seedNote.hidden = people < 2;
    // described by the note only while it shows (else its tooltip says what a seed does)
    if (people >= 2) seedIn.setAttribute("aria-describedby", "f-seed-note");
    else seedIn.removeAttribute("aria-describedby");
  }

  function seatRows() {
    const g = gameSel.value;
    const n = Number(countSel.value);
    const old = [...seatsBox.querySelectorAll(".seat-row")].map((r) => ({
      kind: r.querySelector("select").value, name: r.querySelector("input").value }));
    clear(seatsBox);
    const blurbs = games[g].bot_blurbs || {};
    describers = [];
    for (let i = 0; i < n; i += 1) {
      // The chosen bot's words go under the row (and are read with the choice): in the
      // options themselves, the longest widened the page past the screen.
      const about = el("p", { class: "muted about seat-about", id: `seat${i}-about`,
                              "data-testid": `seat${i}-about` });
      const kind = el("select", { "aria-label": `Seat ${i + 1} player`, name: `seat${i}`,
                                  "aria-describedby": about.id },
        el("option", { value: "human" }, "Human"),
        ...games[g].bots.map((b) => el("option", { value: `bot:${b}`, title: blurbs[b] || null },
                                        `Bot: ${b}`)));
      const prev = old[i];
      const fallback = i === 0 ? "human" : `bot:${games[g].default_bot}`;
      const want = prev && [...kind.options].some((o) => o.value === prev.kind) ? prev.kind : fallback;
      kind.value = want;
      const describe = () => {
        const bot = kind.value.startsWith("bot:") ? kind.value.slice(4) : null;
        const rank = ruleRank(g);
        about.textContent = bot && blurbs[bot] ? `${bot}: ${blurbs[bot]}${rank(bot)}` : "";
        for (const o of kind.options) {  // each choice's words as its tooltip, ranked too
          const b = o.value.slice(4);
          if (blurbs[b]) o.title = `${blurbs[b]}${rank(b)}`;
        }
      };
      describers.push(describe);
      describe();
      kind.addEventListener("change", () => { describe(); seedRule(); });
      const name = el("input", { type: "text", maxlength: 40, "aria-label": `Seat ${i + 1} name`,
                                 placeholder: "name (optional)",
                                 value: prev ? prev.name : "" });
      seatsBox.append(el("div", { class: `seat-row p${i}` },
        el("span", {}, el("span", { class: "dot" }), `Seat ${i + 1}`), kind, name), about);
    }
    seedRule();
  }

  let describers = []; // each seat row's words on its bot, said again when the kingdom changes

  // How a Dominion rule bot ranks for the kingdom chosen and the number of players, in
  // words (``; the strongest rule bot for this kingdom with 2 players``), by the order of
  // the rankings measured two by two (the first whose Kingdom cards the kingdom holds is
  // its best); nothing for a random kingdom, the other game, or a bot not ranked.
  function ruleRank(g) {
    const orders = g === "dominion" ? games.dominion.rule_bot_orders : null;
    const k = form.querySelector("#f-kingdom");
    if (!orders || !k || k.value === "random") return () => "";
    const players = countSel.value;
    const cards = new Set(k.value === "choose"
      ? [...form.querySelectorAll("input[name=card]:checked")].map((x) => x.value)
      : games.dominion.recommended[k.value] || []);
    if (k.value === "choose" && cards.size !== 10) return () => "";
    const order = orders[players] || [];
    const fitting = order.filter((e) => e.needs.every((c) => cards.has(c))).map((e) => e.bot);
    return (bot) => {
      if (!order.some((e) => e.bot === bot)) return "";
      const at = fitting.indexOf(bot);
      if (at < 0) return "; its Kingdom cards are not all in this kingdom (it plays without them)";
      const where = `for this kingdom with ${players} players`;
      return at === 0 ? `; the strongest rule bot ${where}`
        : `; ${ordinal(at + 1)} of the ${fitting.length} rule bots that fit it, ${where}`;
    };
  }

  function describeAll() {
    for (const describe of describers) describe();
  }

  function gameOptions() {
    const g = gameSel.value;
    clear(optionsBox);
    if (g === "dominations") {
      const variant = el("select", { id: "f-variant", name: "variant" },
        ...games.dominations.variants.map((v) => el("option", { value: v },
          v === "retail" ? "Retail rules (ES/DE edition)" : "Prototype rules (FR)")));
      const data = el("select", { id: "f-data", name: "data" },
        ...games.dominations.data_sets.map((d) => el("option", { value: d }, d)));
      optionsBox.append(el("div", { class: "form-grid" },
        el("label", { for: "f-variant" }, "Variant"), variant,
        games.dominations.data_sets.length > 1 ? [el("label", { for: "f-data" }, "Data set"), data] : null));
    } else {
      const kingdom = el("select", { id: "f-kingdom", name: "kingdom" },
        ...games.dominion.kingdoms.map((k) => el("option", { value: k },
          k === "random" ? "Random kingdom" : `Recommended: ${k}`)),
        el("option", { value: "choose" }, "Choose 10 cards…"));
      const cards = el("fieldset", { class: "kingdom-cards", hidden: true, "data-testid": "kingdom-cards" },
        el("legend", {}, "Kingdom cards (choose 10)"),
        ...games.dominion.kingdom_cards.map((c) => el("label", {},
          el("input", { type: "checkbox", value: c, name: "card" }), ` ${c}`)));
      kingdom.addEventListener("change", () => { cards.hidden = kingdom.value !== "choose"; describeAll(); });
      cards.addEventListener("change", describeAll);
      optionsBox.append(el("div", { class: "form-grid" },
        el("label", { for: "f-kingdom" }, "Kingdom"), kingdom), cards);
    }
  }

  gameSel.addEventListener("change", () => { seatRows(); gameOptions(); describeAll(); });
  countSel.addEventListener("change", seatRows);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const body = { game: gameSel.value, seats: [] };
    for (const row of seatsBox.querySelectorAll(".seat-row")) {
      const v = row.querySelector("select").value;
      const name = row.querySelector("input").value.trim() || null;
      body.seats.push(v === "human" ? { kind: "human", name }
                                    : { kind: "bot", bot: v.slice(4), name });
    }
    if (seedIn.value !== "" && !seedIn.disabled) body.seed = seedValue(seedIn.value);
    if (Number(pauseSel.value) > 0) body.bot_pause = Number(pauseSel.value);
    if (body.game === "dominations") {
      body.variant = form.querySelector("#f-variant").value;
      const data = form.querySelector("#f-data");
      if (data && data.value !== "builtin") body.data = data.value;
    } else {
      const k = form.querySelector("#f-kingdom").value;
      if (k === "choose") {
        const chosen = [...form.querySelectorAll("input[name=card]:checked")].map((x) => x.value);
        if (chosen.length !== 10) {
          error.textContent = `choose exactly 10 kingdom cards (${chosen.length} chosen)`;
          return;
        }
        body.kingdom = chosen;
      } else {
        body.kingdom = k;
      }
    }
    if (!body.seats.some((s) => s.kind === "human")) {
      // A bots-only game is fine: it is watched.
    }
    createAndGo(body, error);
  });

  render(form,
    el("h2", { id: "new-h" }, "New game"),
    el("div", { class: "form-grid" },
      el("label", { for: "f-game" }, "Game"), gameSel,
      el("label", { for: "f-players" }, "Players"), countSel,
      el("label", { for: "f-seed" }, "Seed"), seedIn,
      el("label", { for: "f-pause" }, "Bots move"), pauseSel),
    seedNote,
    el("h3", {}, "Seats"), seatsBox,
    el("h3", {}, "Options"), optionsBox,
    error,
    el("div", { class: "row" }, el("button", { class: "btn primary", type: "submit" }, "Create game")));
  seatRows();
  gameOptions();
  render(page, quick, form);
}

// -- a created game's links ----------------------------------------------------------

function copyButton(input, label) {
  return el("button", {
    class: "btn small", type: "button", "aria-label": `Copy ${label}`,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(input.value);
        toast("Link copied");
      } catch (err) {
        input.select();
        toast("Select the link and copy it (the browser refused)", "error");
      }
    },
  }, "Copy");
}

function linkRow(label, url, open) {
  const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label,
                              onfocus: (e) => e.target.select() });
  return el("div", { class: "link-row" }, el("strong", {}, label), input,
            copyButton(input, label), open ? el("a", { class: "btn small", href: url }, open) : null);
}

function created(gameId) {
  document.title = "Invitations · Dominari";
  const made = creation(gameId);
  if (!made) {
    render(main, el("div", { class: "panel" }, el("h1", {}, "Unknown game"),
      el("p", {}, "This browser did not create that game, so it has no invitation links.")));
    return { destroy() {} };
  }
  const base = `${location.origin}${location.pathname}`;
  const rows = made.seats.map((s) => (s.token
    ? linkRow(`Seat ${s.seat + 1}: ${s.name}`, base + route("play", made.game_id, s.token), "Take this seat")
    : el("div", { class: "link-row" }, el("strong", {}, `Seat ${s.seat + 1}: ${s.name}`),
         el("span", { class: "muted" }, `bot (${s.bot})`))));
  const people = made.seats.some((s) => s.token);
  render(main, el("div", { class: "panel stack", "data-testid": "invitations" },
    el("h1", {}, `${GAME_TITLES[made.game] || made.game}: ${people ? "invitation links" : "a game of bots"}`),
    el("p", {}, people
      ? "Send each human player their own link: it carries that seat's secret token, "
        + "so whoever has it plays that seat. The spectator link shows only public information."
      : "Bots play every seat: watch it with the spectator link (share it freely), or "
        + "step through it once it is over with its replay (“My games” keeps both)."),
    el("div", { class: "links" }, ...rows,
       linkRow("Spectators", base + route("watch", made.spectator), "Watch"))));
  return { destroy() {} };
}

// -- my games -------------------------------------------------------------------------

function myGames() {
  document.title = "My games · Dominari";
  const box = el("div", { class: "panel", "data-testid": "my-games" }, el("p", {}, "Loading…"));
  // games of bots only made here: no seat of this browser's, watched by their links
  const watched = el("div", { class: "panel", "data-testid": "watched-games", hidden: true });
  render(main, el("h1", {}, "My games"), box, watched);
  showWatched(watched);
  const seats = savedSeats();
  if (seats.length === 0) {
    render(box, el("p", {}, "No games of yours yet in this browser. ", el("a", { href: "#/" }, "Start one.")));
    return { destroy() {} };
  }
  postJSON("/api/my-games", { tokens: seats.map((s) => s.token).slice(0, 100) }).then((res) => {
    const byToken = new Map(seats.map((s) => [`${s.game_id}/${s.seat ?? ""}`, s]));
    const tokenOf = (g) => (byToken.get(`${g.game_id}/${g.seat}`)
      || seats.find((s) => s.game_id === g.game_id) || {}).token;
    const hosted = new Set(savedCreations().map((c) => c.game_id));
    const games = res.games;
    if (games.length === 0) {
      render(box, el("p", {}, "The games saved in this browser are no longer on this server."));
      return;
    }
    const rows = games.map((g) => {
      const token = tokenOf(g);
      const opponents = g.seats.filter((s) => s.seat !== g.seat)
        .map((s) => (s.kind === "bot" ? `${s.name}` : s.name)).join(", ");
      const state = g.status === "finished" ? el("span", { class: "badge done" }, "finished")
        : g.your_turn ? el("span", { class: "badge turn" }, "your turn")
          : el("span", { class: "badge" }, "waiting");
      return el("tr", { "data-game": g.game_id },
        el("td", {}, GAME_TITLES[g.game] || g.game),
        el("td", {}, `${g.name} (seat ${g.seat + 1})`),
        el("td", {}, opponents),
        el("td", {}, state),
        el("td", {}, `move ${g.version}`),
        el("td", { class: "row" },
          token ? el("a", { class: "btn small", href: route("play", g.game_id, token) },
                     g.status === "finished" ? "Open" : "Play") : null,
          g.status === "finished" && g.spectator
            ? el("a", { class: "btn small", href: route("replay", g.spectator) }, "Replay") : null,
          hosted.has(g.game_id)
            ? el("a", { class: "btn small", href: route("created", g.game_id) }, "Links") : null,
          el("button", { class: "btn small", onclick: () => { forgetGame(g.game_id); show(); } },
             "Forget")));
    });
    render(box, el("table", { class: "games" },
      el("thead", {}, el("tr", {}, ...["Game", "You", "Against", "State", "Progress", ""]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows)),
      el("p", { class: "muted" }, `Saved in this browser; last checked ${ago(Date.now())}.`));
  }).catch((err) => {
    render(box, el("p", { class: "form-error" }, err instanceof ApiError ? err.message : String(err)));
  });
  return { destroy() {} };
}

// The games of bots only made in this browser (the last 20), each with its state as a
// spectator sees it, to watch or replay: they hold no seat, so "My games" had lost them.
function showWatched(box) {
  const made = savedCreations().filter((c) => !(c.seats || []).some((s) => s.token)).slice(-20).reverse();
  if (!made.length) return;
  Promise.all(made.map((c) => getJSON(`/api/spectate/${encodeURIComponent(c.spectator)}`)
    .then((msg) => ({ c, msg }), () => ({ c, msg: null })))).then((found) => {
    const rows = found.filter(({ msg }) => msg).map(({ c, msg }) => el("tr", { "data-game": c.game_id },
      el("td", {}, GAME_TITLES[c.game] || c.game),
      el("td", {}, msg.seats.map((s) => s.name).join(", ")),
      el("td", {}, msg.status === "finished" ? el("span", { class: "badge done" }, "finished")
        : el("span", { class: "badge" }, "playing")),
      el("td", {}, `move ${msg.version}`),
      el("td", { class: "row" },
        el("a", { class: "btn small", href: route("watch", c.spectator) }, "Watch"),
        msg.status === "finished"
          ? el("a", { class: "btn small", href: route("replay", c.spectator) }, "Replay") : null,
        el("button", { class: "btn small", onclick: () => { forgetGame(c.game_id); show(); } }, "Forget"))));
    if (!rows.length) return;
    render(box, el("h2", {}, "Games of bots you made"), el("table", { class: "games" },
      el("thead", {}, el("tr", {}, ...["Game", "Players", "State", "Progress", ""]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...rows)));
    box.hidden = false;
  });
}

window.addEventListener("hashchange", show);
show();
