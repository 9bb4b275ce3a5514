// The table chrome around a game's own module: seats, whose decision it is, bot thinking,
// undo, shortcuts, connection state; and the replay of finished games.
//
// A game module (js/dominion/table.js, js/dominations/table.js) exports
//   mount(root, ctx) -> { update(msg), destroy(), onKey(event) -> bool, shortcuts }
// with ctx = { seat, mode: "play" | "watch" | "replay", catalog, act(text) -> Promise,
//              preview(text) -> Promise, toast(text, kind) }.

import { ApiError, Connection, getJSON, postJSON } from "./api.js";
import { el, render } from "./dom.js";
import { route, seatKind, seatLabel } from "./format.js";

const CHROME_KEYS = [["u", "undo your last action (when allowed)"], ["?", "show these shortcuts"]];
const REPLAY_KEYS = [["← / →", "step back / forward"], ["Home / End", "first / last position"],
  ["Space", "play / pause"]];
const REPLAY_SPEEDS = [["2", "2 moves a second"], ["1", "1 move a second"], ["0.5", "a move every 2 s"],
  ["5", "5 moves a second"]];

function typing(event) {
  const t = event.target;
  return t && (t.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName));
}

function loadModule(game) {
  if (game !== "dominion" && game !== "dominations") {
    return Promise.reject(new Error(`unknown game ${game}`));
  }
  return import(`./${game}/table.js`);
}

function seatChips(msg, viewer) {
  return el("div", { class: "seats", "data-testid": "seats" }, ...msg.seats.map((s) => {
    const cur = msg.status !== "finished" && msg.current_seat === s.seat;
    return el("span", {
      class: `seat-chip p${s.seat}${cur ? " current" : ""}`, "data-seat": s.seat,
      title: seatKind(s), "aria-current": cur ? "true" : null,
    },
    el("span", { class: "dot", "aria-hidden": "true" }),
    seatLabel(s, viewer),
    s.kind === "bot" ? el("span", { class: "muted" }, `(${s.bot})`) : null,
    // a rule bot whose Kingdom cards this game lacks plays without them
    s.missing_cards && s.missing_cards.length
      ? el("span", { class: "muted", "data-testid": "missing-cards" }, `without ${s.missing_cards.join(", ")}`)
      : null,
    cur && s.kind === "bot" && msg.bot_thinking
      ? el("span", { class: "thinking", "data-testid": "bot-thinking",
                     title: msg.bot_waiting ? "Other games' bots hold every bot worker: this one waits its turn" : null },
           msg.bot_waiting ? "waiting for a worker" : "thinking") : null);
  }));
}

function turnStatus(msg, viewer) {
  if (msg.status === "finished") return el("span", { class: "turn-status", "data-testid": "turn" }, "Game over");
  const s = msg.seats[msg.current_seat];
  if (viewer !== null && msg.current_seat === viewer) {
    return el("span", { class: "turn-status yours", "data-testid": "turn" }, "Your decision");
  }
  const who = s ? s.name : "?";
  return el("span", { class: "turn-status", "data-testid": "turn" },
            s && s.kind === "bot" && msg.bot_thinking
              ? (msg.bot_waiting ? `${who} waits for a free bot worker…` : `${who} is thinking…`)
              : `Waiting for ${who}`);
}

function helpDialog(shortcuts) {
  const opener = document.activeElement; // focus goes back there once it closes
  const close = () => {
    overlay.remove();
    if (opener && opener.isConnected && opener.focus) opener.focus({ preventScroll: true });
  };
  const overlay = el("div", { class: "overlay", onclick: (e) => { if (e.target === overlay) close(); } },
    el("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-h" },
      el("h2", { id: "keys-h" }, "Keyboard shortcuts"),
      el("div", { class: "shortcuts" }, ...shortcuts.flatMap(([k, d]) => [el("kbd", {}, k), el("span", {}, d)])),
      el("p", {}, el("button", { class: "btn", onclick: close, autofocus: true }, "Close"))));
  overlay.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") { // the dialog's one control keeps the focus (modal)
      e.preventDefault();
      overlay.querySelector("button").focus();
    }
  });
  document.body.append(overlay);
  overlay.querySelector("button").focus();
  return overlay;
}

// The server sends the log in words beside the view, in pieces: `log` holds the lines
// from index `log_start` on (a socket's first view: the last lines of a long log; every
// later view: the lines that changed since the one before, an undo's piece dropping
// lines). mergeLog puts a piece after the lines known from the first line on.
export function mergeLog(known, msg) {
  if (!Array.isArray(msg.log)) return known;
  const start = msg.log_start || 0;
  if (start > known.length) return msg.log.slice();
  return known.slice(0, start).concat(msg.log);
}

// A live table: `who` is { gameId, token } for a seat or { spectator } to watch.
export function openTable({ main, toast, setConnection, again = null }, who) {
  const bar = el("div", { class: "table-bar", "data-testid": "table-bar" });
  const root = el("div", { class: "game-root", "data-testid": "game" }, el("p", { class: "muted" }, "Joining the table…"));
  // What a screen reader is told as the game goes on (the panels are redrawn whole, so no
  // live region of theirs would be heard): one region that stays, written with the news.
  const announcer = el("div", { class: "sr-only", "aria-live": "polite", "data-testid": "announce" });
  render(main, el("section", { class: "table", "aria-label": "Game table" },
    el("h1", { class: "sr-only" }, "Game table"), bar, announcer, root));
  let module = null;
  let mounting = false;
  let last = null;
  let destroyed = false;
  const seat = () => (last ? last.seat : null);
  let logLines = []; // the log from line logBase on (the whole log once logBase is 0)
  let logBase = 0;
  let askedLog = false;
  let askedAgain = false; // this player asked for the next game (no news to them)

  // Joined a long game: fetch the lines before the ones sent (once they arrive, every
  // piece sent meanwhile is already in logLines).
  function fetchLog(gameId) {
    if (askedLog) return;
    askedLog = true;
    getJSON(`/api/games/${gameId}/log`).then((res) => {
      askedLog = false;
      if (destroyed || !last || logBase === 0 || res.log.length < logBase) return;
      logLines = res.log.slice(0, logBase).concat(logLines);
      logBase = 0;
      last.log = logLines;
      if (module) module.update(last);
    }).catch(() => { askedLog = false; });
  }

  function takeLog(msg) {
    if (!Array.isArray(msg.log)) return;
    const start = msg.log_start || 0;
    if (start < logBase || start > logBase + logLines.length) {
      // A piece that does not follow the lines held (a long game joined late): start
      // from it, and fetch the lines before it.
      logBase = start;
      logLines = msg.log.slice();
      if (start > 0) fetchLog(msg.game_id);
    } else {
      logLines = mergeLog(logLines, { log: msg.log, log_start: start - logBase });
    }
    msg.log = logLines;
    msg.log_first = logBase; // (the number of the game's lines before the first held)
  }

  let heard = null; // the log's lines already told (counted from the game's first line)

  // The news of ``msg`` after ``prev`` for the announcer: the log's new lines (a bot's
  // moves among them, the last few), a bot that waits for a worker, your decision (with
  // its prompt where the table marks one, data-prompt), and at the end the result as the
  // table shows it. (Called once the game's module has drawn ``msg``.)
  function announce(msg, prev) {
    const end = logBase + logLines.length;
    const said = [];
    if (heard !== null && end > heard) said.push(...logLines.slice(Math.max(heard, end - 4) - logBase));
    heard = end;
    if (prev && msg.status !== "finished") {
      const s = msg.seats[msg.current_seat];
      if (s && msg.bot_waiting && !prev.bot_waiting) said.push(`${s.name} waits for a free bot worker`);
      if (msg.seat !== null && msg.current_seat === msg.seat && prev.current_seat !== msg.seat) {
        // with what is asked, where the game's table says it in one line (Dominion's)
        const asked = root.querySelector("[data-prompt]");
        said.push(asked && asked.textContent ? `Your decision: ${asked.textContent}` : "Your decision");
      }
    }
    if (prev && msg.status === "finished" && prev.status !== "finished") {
      setTimeout(() => { // once the game's module has drawn the result
        const result = root.querySelector("[data-result]");
        announcer.textContent = [...said, `Game over. ${result ? result.textContent : ""}`].join(". ");
      }, 0);
      return;
    }
    if (said.length) announcer.textContent = said.join(". ");
  }

  const conn = new Connection(who, {
    onView: (msg) => {
      takeLog(msg);
      if (last && !last.again && msg.again && !askedAgain) {  // another player started it
        toast(msg.seat === null ? "The next game has started: “Watch the next game”"
          : "Another player started the next game: “Join the next game” takes your seat");
      }
      const prev = last;
      last = msg;
      drawBar(msg);
      if (module) module.update(msg);
      else if (!mounting) mountModule(msg);
      announce(msg, prev);
    },
    onStatus: (state) => {
      setConnection(state);
      if (state === "refused" && !module) {
        render(root, el("div", { class: "panel" }, el("h2", {}, "Cannot join this table"),
          el("p", {}, who.spectator ? "No game has this spectator link."
            : "This invitation link is not valid: the game does not exist or the token is wrong."),
          el("p", {}, el("a", { href: "#/" }, "Start a new game"))));
      }
    },
    onError: (err) => toast(err.message, "error"),
  });

  async function mountModule(msg) {
    mounting = true;
    try {
      const [mod, catalog] = await Promise.all([
        loadModule(msg.game), getJSON(`/api/games/${msg.game_id}/catalog`)]);
      if (destroyed) return;
      render(root);
      module = mod.mount(root, {
        seat: msg.seat,
        mode: msg.seat === null ? "watch" : "play",
        catalog,
        act: (text) => conn.act(text).catch((err) => { toast(err.message, "error"); throw err; }),
        preview: (text) => postJSON(`/api/games/${msg.game_id}/preview`, { action: text }, who.token),
        toast,
      });
      module.update(last);
    } catch (err) {
      render(root, el("p", { class: "form-error" }, `cannot show the table: ${err.message}`));
    } finally {
      mounting = false;
    }
  }

  function undo() {
    conn.undo().then(() => { // (the view says nothing of it: the log only loses lines)
      announcer.textContent = "Undone: your last action is taken back";
    }, (err) => toast(err.message, "error"));
  }

  function shortcuts() {
    return [...CHROME_KEYS, ...((module && module.shortcuts) || [])];
  }

  function drawBar(msg) {
    // the bar is drawn anew with each view: a control of it that had the focus gets it back
    const had = document.activeElement;
    const focused = had && bar.contains(had) ? (had.dataset.testid || had.textContent) : null;
    drawBarNow(msg);
    if (focused !== null) {
      const again = [...bar.querySelectorAll("button, a")]
        .find((x) => (x.dataset.testid || x.textContent) === focused);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function drawBarNow(msg) {
    const viewer = msg.seat;
    const mine = viewer !== null && msg.status !== "finished" && msg.current_seat === viewer;
    document.title = `${mine ? "● Your turn · " : ""}${msg.game === "dominion" ? "Dominion" : "Dominations"} · Dominari`;
    const spectatorUrl = msg.spectator
      ? `${location.origin}${location.pathname}${route("watch", msg.spectator)}` : null;
    render(bar,
      seatChips(msg, viewer),
      turnStatus(msg, viewer),
      el("span", { class: "muted", "data-testid": "version" }, `move ${msg.version}`),
      el("span", { class: "bar-actions" },
        viewer !== null ? el("button", {
          class: "btn small", "data-testid": "undo", disabled: !msg.can_undo,
          title: msg.can_undo ? "Take back your last action (U)"
            : "Nothing to undo: only your own last action this turn, if it revealed nothing",
          onclick: undo,
        }, "Undo") : null,
        msg.status === "finished" && (msg.spectator || who.spectator)
          ? el("a", { class: "btn small primary", href: route("replay", msg.spectator || who.spectator),
                      "data-testid": "replay-link" }, "Replay") : null,
        // "Play again": the first player to ask makes the next game, and every player
        // is then offered it (msg.again); each who asks gets their own seat of it
        msg.status === "finished" && viewer !== null && again
          ? el("button", { class: "btn small primary", "data-testid": "again",
                           title: msg.again ? "Another player started the next game: take your seat in it"
                             : "A new game with the same seats and options, dealt anew",
                           onclick: () => { askedAgain = true; again(msg.game_id, who.token); } },
               msg.again ? "Join the next game" : "Play again") : null,
        msg.status === "finished" && viewer === null && msg.again
          ? el("a", { class: "btn small primary", href: route("watch", msg.again.spectator),
                      "data-testid": "watch-again" }, "Watch the next game") : null,
        msg.status === "finished"
          ? el("a", { class: "btn small", href: `/api/games/${msg.game_id}/record`,
                      download: `dominari-${msg.game}-${msg.game_id}.json`, "data-testid": "record-link",
                      title: "Download the game record (its seed and moves: dominari replay FILE)" },
               "Record") : null,
        spectatorUrl ? el("button", {
          class: "btn small", title: "Copy the spectator link",
          onclick: () => navigator.clipboard.writeText(spectatorUrl)
            .then(() => toast("Spectator link copied"), () => toast(spectatorUrl)),
        }, "Spectator link") : null,
        el("button", { class: "btn small", "aria-label": "Keyboard shortcuts",
                       onclick: () => helpDialog(shortcuts()) }, "?")));
    bar.classList.toggle("game-over", msg.status === "finished");
  }

  function onKey(event) {
    if (typing(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector(".overlay")) return;
    if (module && module.onKey && module.onKey(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === "u" && last && last.can_undo) {
      event.preventDefault();
      undo();
    } else if (event.key === "?") {
      event.preventDefault();
      helpDialog(shortcuts());
    }
  }
  document.addEventListener("keydown", onKey);

  return {
    destroy() {
      destroyed = true;
      document.removeEventListener("keydown", onKey);
      conn.close();
      if (module) module.destroy();
    },
    get seat() { return seat(); },
  };
}

// A finished game stepped forward and back (the server rebuilds each position).
export function openReplay({ main, toast }, { spectator, step = 0, seat = null }) {
  const controls = el("div", { class: "table-bar replay-bar", "data-testid": "replay-bar" });
  const root = el("div", { class: "game-root", "data-testid": "game" }, el("p", { class: "muted" }, "Loading the replay…"));
  const moves = el("nav", { class: "panel moves", "aria-label": "Moves", "data-testid": "moves" });
  render(main, el("section", { class: "replay" }, controls,
                  el("div", { class: "replay-layout" }, root, moves)));
  let module = null;
  let first = null;
  let at = step;
  let perspective = seat; // the seat whose view is shown (null: spectators'), kept in the URL
  let token = 0;
  let destroyed = false;
  let playing = null; // the timer of Play (a move every 1/speed seconds), or null
  let speed = 2;
  const cache = new Map();

  async function fetchStep(n) {
    const key = `${n}/${perspective}`;
    if (!cache.has(key)) {
      const q = perspective === null ? "" : `&seat=${perspective}`;
      cache.set(key, getJSON(`/api/replay/${encodeURIComponent(spectator)}?step=${n}${q}`));
    }
    try {
      return await cache.get(key);
    } catch (err) {
      cache.delete(key);
      throw err;
    }
  }

  async function go(n) {
    const mine = ++token;
    at = n; // the position asked for: quick key presses step from it, not from the last shown
    let msg;
    try {
      msg = await fetchStep(n);
    } catch (err) {
      if (!first && perspective !== null && err instanceof ApiError && err.code === "bad_request") {
        perspective = null; // a seat the game has not: the spectators' view
        return go(n);
      }
      if (!first && n > 0 && err instanceof ApiError && err.code === "bad_request") {
        toast(`This game has fewer moves than ${n}: the replay opens at its start.`, "info");
        return go(0); // (a link to a step past the end, or mistyped)
      }
      stop();
      if (!first) {
        render(root, el("div", { class: "panel" }, el("h2", {}, "No replay"),
          el("p", {}, err instanceof ApiError && err.code === "in_progress"
            ? "This game is still being played: its replay opens when it is over."
            : err.message)));
      } else toast(err.message, "error");
      return;
    }
    if (mine !== token || destroyed) return;
    at = msg.step;
    history.replaceState(null, "", route("replay", spectator, at, ...(perspective === null ? [] : [perspective])));
    if (!first) {
      first = msg;
      const [mod, catalog] = await Promise.all([
        import(`./${msg.game}/table.js`), getJSON(`/api/games/${msg.game_id}/catalog`)]);
      if (destroyed) return;
      render(root);
      module = mod.mount(root, {
        seat: perspective, mode: "replay", catalog,
        act: () => Promise.reject(new ApiError("replay", "this is a replay")),
        preview: () => Promise.reject(new ApiError("replay", "this is a replay")),
        toast,
      });
      drawMoves(msg);
    }
    drawControls(msg);
    markMove(msg.step);
    module.update(msg);
    if (playing && msg.step >= msg.steps) stop();
  }

  // Play the moves one after another at `speed` a second, for following a game of bots.
  function play() {
    if (!first) return;
    if (at >= first.steps) go(0);
    playing = setInterval(() => {
      if (destroyed) return stop();
      if (at < first.steps) go(at + 1);
      else stop();
    }, 1000 / speed);
    if (shown) drawControls(shown);
  }

  function stop() {
    if (playing === null) return;
    clearInterval(playing);
    playing = null;
    if (shown) drawControls(shown);
  }

  // The bar's controls are made once and brought up to date at every step, so that the
  // focus, and a menu held open, stay where they are while the replay moves on.
  let bar = null;
  let shown = null; // the message drawn last

  function makeBar(msg) {
    const button = (label, text, onclick, testid = null) => el("button", {
      class: "btn small", "aria-label": label, "data-testid": testid, onclick }, text);
    const b = {
      first: button("First position", "|◀", () => go(0)),
      back: button("Step back", "◀", () => go(Math.max(0, at - 1)), "replay-back"),
      step: el("span", { "data-testid": "replay-step", "aria-label": "Position", tabindex: "-1" }),
      forward: button("Step forward", "▶", () => go(Math.min(first.steps, at + 1)), "replay-forward"),
      last: button("Last position", "▶|", () => go(first.steps)),
      play: button("Play", "Play", () => (playing ? stop() : play()), "replay-play"),
      speed: el("select", { "aria-label": "Speed of play", onchange: (e) => {
        speed = Number(e.target.value);
        if (playing) { stop(); play(); }
      } }, REPLAY_SPEEDS.map(([v, words]) => el("option", { value: v, selected: Number(v) === speed }, words))),
      slider: el("input", { type: "range", min: 0, "aria-label": "Position in the game",
                            onchange: (e) => go(Number(e.target.value)) }),
      view: el("select", { "aria-label": "Seen by", onchange: (e) => {
        perspective = e.target.value === "" ? null : Number(e.target.value);
        stop();
        module.destroy();
        module = null;
        first = null;
        go(at);
      } }, el("option", { value: "" }, "Spectators' view"),
      ...msg.seats.map((s) => el("option", { value: s.seat, selected: perspective === s.seat }, `${s.name}'s view`))),
      chips: el("span", { class: "replay-chips" }),
    };
    render(controls, el("strong", {}, "Replay"), b.first, b.back, b.step, b.forward, b.last, b.play,
      b.speed, b.slider, b.view, b.chips);
    return b;
  }

  function drawControls(msg) {
    shown = msg;
    if (!bar) bar = makeBar(msg);
    const active = document.activeElement;
    bar.first.disabled = bar.back.disabled = msg.step === 0;
    bar.forward.disabled = bar.last.disabled = msg.step === msg.steps;
    bar.step.textContent = `${msg.step} / ${msg.steps}`;
    bar.play.textContent = playing ? "Pause" : "Play";
    bar.play.setAttribute("aria-label", playing ? "Pause" : "Play");
    bar.play.setAttribute("aria-pressed", playing ? "true" : "false");
    bar.slider.max = String(msg.steps);
    bar.slider.value = String(msg.step);
    render(bar.chips, seatChips(msg, null));
    // a control disabled under the focus (the last position reached) gives it to the count
    if (active && active.disabled && controls.contains(active)) bar.step.focus({ preventScroll: true });
  }

  function drawMoves(msg) {
    // each move in the log's words (its first line, which names the player), its
    // notation and the rest of what it did on hover; a move the log says nothing of (a
    // hidden choice) by its player and notation
    const said = (m) => (m.text || []).find((line) => !/^(—|===)/.test(line));
    render(moves, el("h2", {}, "Moves"), el("ol", {}, ...msg.moves.map((m, i) => el("li", { "data-step": i + 1 },
      el("button", { onclick: () => { stop(); go(i + 1); }, title: [m.action, ...(m.text || [])].join("\n") },
        said(m) || `${msg.seats[m.seat] ? msg.seats[m.seat].name : "?"}: ${m.action}`)))));
  }

  function markMove(n) {
    for (const li of moves.querySelectorAll("li.current")) li.classList.remove("current");
    const li = moves.querySelector(`li[data-step="${n}"]`);
    if (li) {
      li.classList.add("current");
      li.scrollIntoView({ block: "nearest" });
    }
  }

  function onKey(event) {
    if (typing(event) || !first) return;
    const steps = first.steps;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      stop();
      go(Math.max(0, Math.min(steps, to)));
    } else if (event.key === " " && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      if (playing) stop();
      else play();
    } else if (event.key === "?") {
      helpDialog(REPLAY_KEYS);
    }
  }
  document.addEventListener("keydown", onKey);
  go(at);
  return {
    destroy() {
      destroyed = true;
      stop();
      document.removeEventListener("keydown", onKey);
      if (module) module.destroy();
    },
  };
}
