// The score sheet (пулька) drawn as players draw it on paper: a rectangle cut by three lines
// from the central circle (which holds the pool's target), one region for each player facing
// him. Each region has three bands from the edge inwards: the whists (висты) he writes on each
// of the other two (the half of the band on that player's side), his pool (пуля), his
// mountain (гора); each band holds the running totals after every deal that changed them,
// joined by dots, as they are written down deal after deal.

import {t} from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 560;
const H = 380;
const C = {x: W / 2, y: H / 2};
/** The bands' boundaries as scales of the sheet around its centre: edge, whists|pool, pool|mountain. */
const EDGE = 1;
const POOL = 0.7;
const MOUNTAIN = 0.42;
const RADIUS = 24;
const CHAR = 6.6;     // the width of a character of the sheet's font, to fit the text to its band

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** "0.2.4.6": the running totals written after every deal that changed them. */
export function runningText(values) {
  const out = [];
  for (const v of values) {
    const text = String(v);
    if (out.length ? out[out.length - 1] !== text : text !== "0") out.push(text);
  }
  return out.join(".");
}

/** Text fitted to `room` pixels along its line, centred at (x, y), turned by `angle` degrees. */
function text(x, y, words, room, angle, className) {
  const attrs = {x, y, "text-anchor": "middle", "dominant-baseline": "middle", class: className};
  if (angle) attrs.transform = `rotate(${angle} ${x} ${y})`;
  if (words.length * CHAR > room) {
    attrs.textLength = Math.floor(room);
    attrs.lengthAdjust = "spacingAndGlyphs";
  }
  return node("text", attrs, words);
}

/**
 * The sheet of three players as an SVG element. `sheet`: the game's "sheet" (the score sheet's
 * JSON with its players and, after each deal, the running pool, mountain and whists);
 * `name(player)` shows a player's name; `you`: the player whose region is at the bottom.
 */
export function drawSheet(sheet, name, you = 0) {
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, class: "sheet", role: "img",
                           "aria-label": t("The score sheet: pool, mountain and whists of each player")});
  svg.appendChild(node("rect", {x: 1, y: 1, width: W - 2, height: H - 2, class: "sheet-paper"}));
  for (const s of [POOL, MOUNTAIN]) {
    svg.appendChild(node("rect", {x: C.x - (W / 2) * s, y: C.y - (H / 2) * s, width: W * s, height: H * s,
                                  class: "sheet-line"}));
  }
  // the three lines that part the players' regions: to the top's middle and the two lower corners
  for (const [x, y] of [[C.x, 0], [0, H], [W, H]]) {
    svg.appendChild(node("line", {x1: C.x, y1: C.y, x2: x, y2: y, class: "sheet-line"}));
  }
  svg.appendChild(node("circle", {cx: C.x, cy: C.y, r: RADIUS, class: "sheet-circle"}));
  svg.appendChild(node("text", {x: C.x, y: C.y, "text-anchor": "middle", "dominant-baseline": "middle",
                                class: "sheet-target"}, String(sheet.pool_target)));
  const n = sheet.players.length;
  const history = sheet.history || [];
  const column = (pick) => history.map(pick);
  // where each player sits: you at the bottom, the next in play order on your left, the third on your right
  const places = ["bottom", "left", "right"];
  for (let k = 0; k < n; k++) {
    const player = (you + k) % n;
    const place = places[k];
    const mid = (a, b) => (a + b) / 2;
    const g = node("g", {class: `sheet-player sheet-${place}`, "data-player": sheet.players[player]});
    const bands = {whists: mid(EDGE, POOL), pool: mid(POOL, MOUNTAIN), mountain: mid(MOUNTAIN, RADIUS / (H / 2))};
    const pool = runningText(column((h) => h.pool[player]));
    const mountain = runningText(column((h) => h.mountain[player]));
    const others = [(player + 1) % n, (player + 2) % n];   // on his left, on his right
    const whists = others.map((o) => runningText(column((h) => h.whists[player][o])));
    if (place === "bottom") {
      const y = (s) => C.y + (H / 2) * s;
      const half = (s) => (W / 2) * s;
      g.appendChild(text(C.x, y(bands.pool), pool || "—", 2 * half(POOL) - 40, 0, "sheet-pool"));
      g.appendChild(text(C.x, y(bands.mountain), mountain, 2 * half(MOUNTAIN) - 60, 0, "sheet-mountain"));
      // whists on the player on his left are written on the left half, as the left player sits
      g.appendChild(text(C.x - half(EDGE) / 2 + 20, y(bands.whists) + 6, whists[0], half(POOL), 0, "sheet-whists"));
      g.appendChild(text(C.x + half(EDGE) / 2 - 20, y(bands.whists) + 6, whists[1], half(POOL), 0, "sheet-whists"));
      g.appendChild(text(C.x, H - 12, name(sheet.players[player]), 200, 0, "sheet-name"));
    } else {
      const sign = place === "left" ? -1 : 1;
      const angle = place === "left" ? -90 : 90;
      const x = (s) => C.x + sign * (W / 2) * s;
      const half = (s) => (H / 2) * s;
      g.appendChild(text(x(bands.pool), C.y, pool || "—", 2 * half(POOL) - 40, angle, "sheet-pool"));
      g.appendChild(text(x(bands.mountain), C.y, mountain, 2 * half(MOUNTAIN) - 40, angle, "sheet-mountain"));
      // the whists on the player nearer the bottom (you, or the one beside) in the lower half
      const [towardTop, towardBottom] = place === "left" ? [whists[0], whists[1]] : [whists[1], whists[0]];
      g.appendChild(text(x(bands.whists), C.y - half(EDGE) / 2, towardTop, half(POOL), angle, "sheet-whists"));
      g.appendChild(text(x(bands.whists), C.y + half(EDGE) / 2, towardBottom, half(POOL), angle, "sheet-whists"));
      g.appendChild(text(x(EDGE) - sign * 12, C.y, name(sheet.players[player]), 200, angle, "sheet-name"));
    }
    svg.appendChild(g);
  }
  return svg;
}
