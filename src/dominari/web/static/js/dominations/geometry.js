// The triangular grid of Dominations, as pure functions (a port of the Python module
// dominari/dominations/grid.py and of the point maths in render.py).
//
// A cell "x,y" points up (△) when x + y is odd and down (▽) when it is even. A vertex
// "@x,y" has x + y even. Corners of a cell are numbered clockwise from its apex (the top
// corner of a △, the bottom corner of a ▽); side k runs from corner k to corner k + 1.
// Plane coordinates have side length 1 and y up; SVG coordinates multiply by `scale`
// and flip y (SVG's y points down).

export const SCALE = 80;
const H = Math.sqrt(3) / 2; // height of a cell with side 1

const CELL_RE = /^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*$/;
const VERTEX_RE = /^\s*@\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*$/;

// "x,y" -> {x, y}; null when the text is not a cell.
export function parseCell(text) {
  const m = CELL_RE.exec(String(text));
  return m ? { x: Number(m[1]), y: Number(m[2]) } : null;
}

// "@x,y" -> {x, y}; null when the text is not a vertex (or x + y is odd).
export function parseVertex(text) {
  const m = VERTEX_RE.exec(String(text));
  if (!m) return null;
  const v = { x: Number(m[1]), y: Number(m[2]) };
  return (v.x + v.y) % 2 === 0 ? v : null;
}

export const formatCell = (c) => `${c.x},${c.y}`;
export const formatVertex = (v) => `@${v.x},${v.y}`;

// Accept either a cell object or its text.
const asCell = (c) => (typeof c === "string" ? parseCell(c) : c);
const asVertex = (v) => (typeof v === "string" ? parseVertex(v) : v);

// Whether the cell points up (△).
export function isUp(cell) {
  const c = asCell(cell);
  return Math.abs(c.x + c.y) % 2 === 1;
}

// The cells across sides 0, 1, 2 (△: right, bottom, left; ▽: left, top, right).
export function neighbours(cell) {
  const { x, y } = asCell(cell);
  return isUp({ x, y })
    ? [{ x: x + 1, y }, { x, y: y - 1 }, { x: x - 1, y }]
    : [{ x: x - 1, y }, { x, y: y + 1 }, { x: x + 1, y }];
}

// The side of `cell` shared with `other`, or -1 when they do not share a side.
export function sideTowards(cell, other) {
  const o = asCell(other);
  return neighbours(cell).findIndex((n) => n.x === o.x && n.y === o.y);
}

// The vertex at corner `corner` (0 = apex, clockwise) of the cell.
export function cornerVertex(cell, corner) {
  const { x, y } = asCell(cell);
  const up = isUp({ x, y });
  const deltas = up ? [[0, 1], [1, 0], [-1, 0]] : [[0, 0], [-1, 1], [1, 1]];
  const [dx, dy] = deltas[((corner % 3) + 3) % 3];
  return { x: x + dx, y: y + dy };
}

// The three corner vertices of the cell, corners 0, 1, 2.
export function cornerVertices(cell) {
  return [0, 1, 2].map((k) => cornerVertex(cell, k));
}

// Which corner of `cell` lies on `vertex` (-1 when none does).
export function cornerAt(cell, vertex) {
  const v = asVertex(vertex);
  return cornerVertices(cell).findIndex((c) => c.x === v.x && c.y === v.y);
}

// The six cells around a vertex, clockwise from the top one.
export function vertexCells(vertex) {
  const { x, y } = asVertex(vertex);
  return [{ x, y }, { x: x + 1, y }, { x: x + 1, y: y - 1 }, { x, y: y - 1 },
    { x: x - 1, y: y - 1 }, { x: x - 1, y }];
}

// A vertex's position in plane units (side 1, y up).
export function vertexPlane(vertex) {
  const { x, y } = asVertex(vertex);
  return [x / 2, y * H];
}

// A cell's centroid in plane units (side 1, y up), as grid.Cell.center().
export function cellCenterPlane(cell) {
  const { x, y } = asCell(cell);
  const y0 = y * H;
  return [x / 2, isUp({ x, y }) ? y0 + H / 3 : y0 + (2 * H) / 3];
}

// A vertex's point in SVG coordinates.
export function vertexPoint(vertex, scale = SCALE) {
  const [px, py] = vertexPlane(vertex);
  return [px * scale, py === 0 ? 0 : -py * scale];
}

// The SVG points of a cell's corners 0, 1, 2.
export function cellPoints(cell, scale = SCALE) {
  return cornerVertices(cell).map((v) => vertexPoint(v, scale));
}

// The SVG point of a cell's centroid.
export function centroid(cell, scale = SCALE) {
  const pts = cellPoints(cell, scale);
  return [(pts[0][0] + pts[1][0] + pts[2][0]) / 3, (pts[0][1] + pts[1][1] + pts[2][1]) / 3];
}

// The point a fraction t of the way from a to b.
export function towards(a, b, t) {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

// A tile's corner colours as they lie on the board at rotation r: the tile's corner i
// goes on the cell's corner i + r, so the cell's corner j shows the tile's corner j - r.
export function rotateColours(corners, rotation) {
  const r = ((rotation % 3) + 3) % 3;
  return [0, 1, 2].map((j) => corners[(j - r + 3) % 3]);
}

// "x1,y1 x2,y2 …" for an SVG polygon's points attribute.
export function pointsAttr(pts) {
  return pts.map((p) => `${round2(p[0])},${round2(p[1])}`).join(" ");
}

// A number rounded to two decimals (never "-0").
export function round2(v) {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? 0 : r;
}

// The bounding box {x0, y0, x1, y1} of the SVG points of many cells.
export function boundingBox(cells, scale = SCALE) {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (const c of cells) {
    for (const [px, py] of cellPoints(c, scale)) {
      box.x0 = Math.min(box.x0, px);
      box.y0 = Math.min(box.y0, py);
      box.x1 = Math.max(box.x1, px);
      box.y1 = Math.max(box.y1, py);
    }
  }
  if (box.x0 > box.x1) return { x0: -scale, y0: -scale, x1: scale, y1: scale };
  return box;
}
