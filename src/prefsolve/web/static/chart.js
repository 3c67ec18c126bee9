// A chart of an analysis drawn as SVG in the page: one row per contract,
// P(make) on the left, the expected score in whists on the right (green a
// gain, red a loss, far losses cut at the pane's edge), each with its
// standard error; the recommended contract's row is marked.

import {t} from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function node(tag, attributes, text) {
  const element = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** "6S" → "6♠", "misere" → "Misère". */
export function contractLabel(key) {
  if (key === "misere") return t("Misère");
  if (key.endsWith("NT")) return key.slice(0, -2) + t("NT");
  return key.replace("S", "♠").replace("C", "♣").replace("D", "♦").replace("H", "♥");
}

/**
 * rows: [{key, p_make, p_make_se, expected, expected_se}]; marked: the key of the recommended contract.
 */
export function analysisChart(rows, marked) {
  const rowHeight = 15;
  const top = 22;
  const width = 360;
  const height = top + rows.length * rowHeight + 6;
  const labelWidth = 46;
  const pLeft = labelWidth, pWidth = 120;
  const eLeft = pLeft + pWidth + 16, eWidth = width - eLeft - 6;
  const hi = Math.max(5, ...rows.map((r) => r.expected + r.expected_se));
  const worst = Math.max(0, ...rows.map((r) => -r.expected));
  // Far losses are cut: the pane spans the gains and the losses near the best contract's.
  const best = Math.max(...rows.map((r) => r.expected));
  const lo = -Math.min(worst, Math.max(hi * 3, Math.abs(best) * 4, 60)) || -5;
  const ex = (v) => eLeft + ((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo)) * eWidth;
  const px = (p) => pLeft + Math.min(Math.max(p, 0), 1) * pWidth;

  const svg = node("svg", {viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
                           "aria-label": t("P(make) and expected whists per contract")});
  svg.appendChild(node("text", {x: pLeft, y: 12, class: "axis-title"}, t("P(make)")));
  svg.appendChild(node("text", {x: eLeft, y: 12, class: "axis-title"},
                       t("expected whists ({low} … +{high})", {low: Math.round(lo), high: Math.round(hi)})));
  for (const p of [0, 0.5, 1]) {
    svg.appendChild(node("line", {x1: px(p), x2: px(p), y1: top - 4, y2: height - 4, class: "grid"}));
  }
  rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    const group = node("g", {class: "row" + (row.key === marked ? " marked" : ""), "data-contract": row.key,
                             "data-p-make": row.p_make, "data-expected": row.expected});
    if (row.key === marked) group.appendChild(node("rect", {x: 0, y: y - 1, width, height: rowHeight, class: "mark"}));
    group.appendChild(node("text", {x: labelWidth - 6, y: y + rowHeight - 4, class: "label", "text-anchor": "end"},
                           contractLabel(row.key)));
    const pBar = node("rect", {x: pLeft, y: y + 2, width: Math.max(px(row.p_make) - pLeft, 0.5), height: rowHeight - 5, class: "bar-p"});
    pBar.appendChild(node("title", {}, t("{contract}: P(make) {p}% ± {se}", {contract: contractLabel(row.key),
      p: (row.p_make * 100).toFixed(1), se: (row.p_make_se * 100).toFixed(1)})));
    group.appendChild(pBar);
    group.appendChild(node("line", {x1: px(row.p_make - row.p_make_se), x2: px(row.p_make + row.p_make_se),
                                    y1: y + rowHeight / 2, y2: y + rowHeight / 2, class: "whisker"}));
    const zero = ex(0), end = ex(row.expected);
    const eBar = node("rect", {x: Math.min(zero, end), y: y + 2, width: Math.max(Math.abs(end - zero), 0.5),
                               height: rowHeight - 5, class: row.expected >= 0 ? "bar-gain" : "bar-loss"});
    eBar.appendChild(node("title", {}, t("{contract}: {expected} ± {se} whists", {contract: contractLabel(row.key),
      expected: `${row.expected >= 0 ? "+" : ""}${row.expected.toFixed(1)}`, se: row.expected_se.toFixed(1)})));
    group.appendChild(eBar);
    if (row.expected < lo) group.appendChild(node("text", {x: eLeft + 1, y: y + rowHeight - 4, class: "cut"}, "«"));
    group.appendChild(node("line", {x1: ex(row.expected - row.expected_se), x2: ex(row.expected + row.expected_se),
                                    y1: y + rowHeight / 2, y2: y + rowHeight / 2, class: "whisker"}));
    svg.appendChild(group);
  });
  svg.appendChild(node("line", {x1: ex(0), x2: ex(0), y1: top - 4, y2: height - 4, class: "zero"}));
  return svg;
}
