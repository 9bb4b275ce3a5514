// Colours and names of the Dominations table. Domains use the Okabe–Ito palette (told
// apart by most colour-blind people) and always carry their letter as well.

export const DOMAINS = ["T", "C", "A", "S", "G", "R"];

export const DOMAIN_NAMES = {
  T: "Trade", C: "Craft", A: "Art", S: "Science", G: "Government", R: "Religion",
  V: "vestigium", X: "corruptio",
};

// Fill colour of each domain letter (V vestigium white, X corruptio black).
export const DOMAIN_FILL = {
  T: "#f0e442", // yellow
  C: "#e69f00", // orange
  A: "#0072b2", // blue
  S: "#009e73", // bluish green
  G: "#d55e00", // vermillion
  R: "#cc79a7", // reddish purple
  V: "#ffffff",
  X: "#222222",
};

// Letter colour on each fill, for contrast (at least 4.5:1, WCAG's for small text:
// black on green and vermillion, where white and near-black gave 3.4 and 4.3).
export const DOMAIN_INK = {
  T: "#222222", C: "#222222", A: "#ffffff", S: "#000000", G: "#000000", R: "#222222",
  V: "#222222", X: "#ffffff",
};

// Players 1–4: cities and names (none of them a domain colour).
export const PLAYER_FILL = ["#1d1d1d", "#f5f5f0", "#7a4a1e", "#00a5a8"];
export const PLAYER_INK = ["#ffffff", "#1d1d1d", "#ffffff", "#1d1d1d"];

export const domainName = (d) => DOMAIN_NAMES[d] || String(d);
export const playerFill = (p) => PLAYER_FILL[((p % 4) + 4) % 4];
export const playerInk = (p) => PLAYER_INK[((p % 4) + 4) % 4];
