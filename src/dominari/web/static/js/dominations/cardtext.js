// Short readable text of Dominations effects (data spec §2) and the shared domain vocabulary
// of the panels. Pure functions: unit-tested in tests/web/test_web_panels.py.

export const DOMAINS = "TCASGR";
export const DOMAIN_NAMES = {
  T: "Trade", C: "Craft", A: "Art", S: "Science", G: "Government", R: "Religion",
  V: "vestigium", X: "corruptio",
};

// Colour-blind friendly fills (Okabe–Ito) and the ink that reads on them: the table's
// palette (colours.js), always shown together with the domain letter.
export { DOMAIN_FILL, DOMAIN_INK } from "./colours.js";

// "Trade", or "any domain" for "*" / "any".
export function domainName(code) {
  if (code === "*" || code === "any") return "any domain";
  return DOMAIN_NAMES[code] || String(code);
}

function plural(n, one, many) {
  return n === 1 ? one : many;
}

// The thing a count counts, singular and plural ("Craft nodus" / "Craft nodi").
function countNoun(per) {
  const d = per.domain === undefined || per.domain === "*" ? "" : `${domainName(per.domain)} `;
  switch (per.count) {
    case "nodi": {
      const c = per.colour && per.colour !== "*" ? `${domainName(per.colour)} ` : "";
      const but = per.except ? ` except ${domainName(per.except)}` : "";
      return [`${c}nodus${but}`, `${c}nodi${but}`];
    }
    case "colours":
      return ["colour of your nodi", "colours of your nodi"];
    case "cards": {
      const side = { a: "advanced ", b: "basic " }[per.side] || "";
      const value = !per.value || per.value === "*" ? ""
        : per.value === ">=6" ? " of value 6+" : ` of value ${per.value}`;
      return [`${side}mastery card${value}`, `${side}mastery cards${value}`];
    }
    case "mcards":
      return ["monument level card", "monument level cards"];
    case "cities":
      return [`${d}city`, `${d}cities`];
    case "bcities":
      return [`${d}city on the board`, `${d}cities on the board`];
    case "know":
      return per.domain === "*" || per.domain === undefined
        ? ["knowledge", "knowledge"] : [`${d}knowledge`, `${d}knowledge`];
    case "levels":
      return ["city level", "city levels"];
    case "groups":
      return ["group of cities", "groups of cities"];
    case "influence":
      return ["influence", "influence"];
    default:
      return [String(per.count), String(per.count)];
  }
}

// " per Craft nodus", " per 2 cities on the board" (empty without a count).
export function perText(per) {
  if (!per) return "";
  const k = per.divisor || 1;
  const [one, many] = countNoun(per);
  return k === 1 ? ` per ${one}` : ` per ${k} ${many}`;
}

// One action: "+2 Trade", "fill Trade to your limit", "+1 VP per Craft nodus".
export function actionText(a) {
  const per = perText(a.per);
  switch (a.kind) {
    case "gain_knowledge": {
      const what = a.domain === "city" ? "knowledge of that city's domain" : domainName(a.domain);
      return `+${a.amount} ${what}${per}`;
    }
    case "fill_knowledge":
      return `fill ${domainName(a.domain)} up to your limit`;
    case "gain_vp":
      return `+${a.amount} VP${per}`;
    case "gain_influence":
      return `+${a.amount} influence${per}`;
    default:
      return a.kind;
  }
}

// The words before the colon of a triggered effect.
export function triggerText(e) {
  switch (e.trigger) {
    case "immediate": return "At once";
    case "start_of_turn": return "Start of your turn";
    case "start_of_age": return "Start of ages 2 and 3";
    case "end_of_age": return "End of each age";
    case "on_build_or_upgrade_city": return "When you build or upgrade a city";
    case "on_domination_received": return "Per domination card you take";
    case "when_dominance_determined": return "Before dominance is checked";
    case "on_produce": {
      const what = e.domain === "*" || e.domain === undefined ? "knowledge" : domainName(e.domain);
      const every = e.every || 1;
      return every === 1 ? `Per ${what} you produce` : `Per ${every} ${what} you produce`;
    }
    case "on_complete_nodus": {
      const c = e.colour === "*" || e.colour === undefined ? "" : `${domainName(e.colour)} `;
      return `Per ${c}nodus you complete`;
    }
    default:
      return e.trigger;
  }
}

const COST_TARGETS = {
  acq: "Mastery cards cost",
  upg: "Upgrades cost",
  city: "Cities and city upgrades cost",
  mon: "Monument levels cost",
};

// A passive modifier in words.
function modifierText(e) {
  switch (e.modifier) {
    case "cost_reduction":
      return `${COST_TARGETS[e.target] || e.target} ${e.amount} less${perText(e.per)}`;
    case "production_bonus": {
      const src = e.source === "settle" ? "Each settlement you place" : "Each city you activate";
      const as = e.as === "V" ? " vestigium" : "";
      return `${src} produces ${e.amount} more${as}`;
    }
    case "exchange": {
      const from = e.domain === "any" || e.domain === "*" ? "of one domain" : domainName(e.domain);
      return `Exchange ${e.pay} ${from} for ${e.get} of another domain`;
    }
    case "reserve_limit_raise": {
      const d = e.domain === "*" ? "every reserve limit" : `your ${domainName(e.domain)} limit`;
      return `+${e.amount} to ${d} (max 20)`;
    }
    default:
      return e.modifier;
  }
}

const ROLE_TEXT = {
  role_initiative: "Choose the initiative order of the next age",
  role_reactivate: "Once next age: score a placed tile again instead of placing one",
  role_second_tile: "Once next age: place a second tile",
};

// Any effect of the data (triggered, modifier or role) as one short line.
export function effectText(e) {
  if (!e || typeof e !== "object") return "";
  if (e.trigger) {
    return `${triggerText(e)}: ${(e.actions || []).map(actionText).join("; ")}`;
  }
  if (e.modifier) return modifierText(e);
  if (e.role === "role_tiles") {
    return `Draw ${e.amount} more ${plural(e.amount, "tile", "tiles")} at the next refill`;
  }
  if (e.role) return ROLE_TEXT[e.role] || e.role;
  return "";
}

// A list of effects as lines ("no effect" for an empty list).
export function effectsText(effects) {
  const lines = (effects || []).map(effectText).filter((t) => t);
  return lines.length ? lines : ["no effect"];
}

// The catalog's lookups, built once per catalog object.
const INDEXES = new WeakMap();

export function catalogIndex(catalog) {
  let idx = INDEXES.get(catalog);
  if (idx) return idx;
  const files = (catalog && catalog.files) || {};
  const skills = new Map((files.skills || []).map((s) => [s.id, s]));
  const levels = new Map();
  const monuments = new Map();
  for (const m of files.monuments || []) {
    monuments.set(m.id, m);
    for (const lv of m.levels) levels.set(lv.id, { level: lv, monument: m });
  }
  const campfires = new Map((files.campfires || []).map((f) => [f.id, f]));
  const objectives = new Map((files.objectives || []).map((o) => [o.id, o]));
  const layouts = files.layouts || {};
  idx = { skills, levels, monuments, campfires, objectives, layouts };
  INDEXES.set(catalog, idx);
  return idx;
}

// "T3a-2" → "T3a" (the skill of a mastery copy), or null for other card ids.
export function skillOfCopy(cardId) {
  const m = /^([TCASGR]\d[a-z])-\d+$/.exec(String(cardId));
  return m ? m[1] : null;
}

// The four halves [top, right, bottom, left] of a card id (a layout may be a bare list or
// an object with "sides").
export function layoutOf(catalog, cardId) {
  const raw = catalogIndex(catalog).layouts[cardId];
  if (Array.isArray(raw)) return raw;
  if (raw && Array.isArray(raw.sides)) return raw.sides;
  return ["V", "V", "V", "V"];
}
