// A tiny DOM builder: el("button", { class: "x", onclick: f }, "text", child…).
// Attributes starting with "on" become listeners; `null`/`false` attributes and
// children are skipped; strings become text nodes (never parsed as HTML).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      node.addEventListener(k.slice(2), v);
    } else if (k === "dataset") {
      Object.assign(node.dataset, v);
    } else if (k === "style" && typeof v === "object") {
      // (never a style attribute's text: the server's content policy refuses those)
      for (const [name, value] of Object.entries(v)) {
        if (name.startsWith("--")) node.style.setProperty(name, value);
        else node.style[name] = value;
      }
    } else {
      node.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// Replace the children of `node` with `children`.
export function render(node, ...children) {
  clear(node);
  return fill(node, {}, children);
}
