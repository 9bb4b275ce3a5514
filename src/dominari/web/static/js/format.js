// Pure formatting helpers shared by the pages (tested in tests/web/test_web_app.py).

// Items in a sentence: "A", "A and B", "A, B and C".
export function andList(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

// "1st", "2nd", "3rd", "4th", "11th", "21st".
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const end = teen ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${end}`;
}

// "1 card", "2 cards"; `plural` defaults to singular + "s".
export function count(n, singular, plural = null) {
  return `${n} ${n === 1 ? singular : (plural || `${singular}s`)}`;
}

// The name shown for a seat: its name, with "(you)" for the viewer and the bot level.
export function seatLabel(seat, viewer) {
  const mine = viewer !== null && viewer !== undefined && seat.seat === viewer;
  // a seat already named "You" (a quick game's) is not "You (you)"
  const you = mine && seat.name.trim().toLowerCase() !== "you" ? " (you)" : "";
  return `${seat.name}${you}`;
}

// The JSON text of `value`, a BigInt written as its exact digits (a seed above 2^53,
// which a Number would round to another seed).
export function toJSON(value) {
  return JSON.stringify(value, (key, v) => (typeof v === "bigint" ? `\u0000big:${v}` : v))
    .replace(/"\\u0000big:(\d+)"/g, "$1");
}

// The seed typed in the lobby, for the request: digits exactly as typed (a BigInt beyond
// 2^53), another notation of a whole number below 2^53 (1e3) as that number, and anything
// else as the text itself, for the server to refuse with its message (a Number would round
// 9.007199254740993e15 to another seed).
export function seedValue(text) {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number.isSafeInteger(Number(t)) ? Number(t) : BigInt(t);
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : t;
}

export function seatKind(seat) {
  if (seat.kind !== "bot") return "human";
  const lacking = seat.missing_cards || [];
  return lacking.length
    ? `bot: ${seat.bot}; buys ${lacking.join(", ")}, not in this game's kingdom: plays without ${lacking.length > 1 ? "them" : "it"}`
    : `bot: ${seat.bot}`;
}

// "a minute ago"-style age of a timestamp (ms), relative to `now` (ms).
export function ago(then, now = Date.now()) {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 45) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return m === 1 ? "a minute ago" : `${m} minutes ago`;
  const h = Math.round(m / 60);
  if (h < 24) return h === 1 ? "an hour ago" : `${h} hours ago`;
  const d = Math.round(h / 24);
  return d === 1 ? "yesterday" : `${d} days ago`;
}

// Parse the fragment route: "#/play/G/T" → { page: "play", args: ["G", "T"] }.
export function parseRoute(hash) {
  const path = (hash || "").replace(/^#\/?/, "").split("?")[0];
  const parts = path.split("/").filter((p) => p.length > 0).map(decodeURIComponent);
  if (parts.length === 0) return { page: "lobby", args: [] };
  return { page: parts[0], args: parts.slice(1) };
}

export function route(page, ...args) {
  return `#/${[page, ...args.map((a) => encodeURIComponent(String(a)))].join("/")}`;
}

// Standings of finished games: `scores` is a list of numbers per seat; the answer is the
// seat order from best to worst with ranks (ties share a rank).
export function standings(scores) {
  const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  const ranks = [];
  order.forEach((seat, i) => {
    const rank = i > 0 && scores[seat] === scores[order[i - 1]] ? ranks[i - 1].rank : i + 1;
    ranks.push({ seat, score: scores[seat], rank });
  });
  return ranks;
}
